"""Whole games per second of Secret-Jitler (github.com/pwolle/secret-jitler, the other JAX
Secret Hitler engine) beside the batched engine, in one process, alternating rounds
(docs/batched.md, "Beside Secret-Jitler").

Nothing of Secret-Jitler is in this repository: it is imported at run time from a checkout
given on the command line, its runtime type checks turned off (``typeguard.typechecked`` and
``jaxtyping.jaxtyped`` made identities before its modules load; under today's JAX its
annotations name ``jax.random.KeyArray``, which became ``jax.Array``). Its own game loop
(``bots.run.closure``: one ``while_loop`` iteration per round, the batch played until its
last game ends, as its ``performance.py``) plays with its own bots.

Policies, the same in both engines as far as their rules allow:

- ``peer``: its trivial bots (``performance.py``'s): a uniform nomination, always Ja, both
  president and chancellor discard a fascist policy when they hold one, a uniform shot. Ours:
  the same choices from the mask (a uniform nomination and power target, Ja, discard
  fascist, enact liberal, never veto). Its game has no investigation, special election, peek
  or veto and draws policies from pile counts; ours plays the board's powers (at 7 and 10
  players an investigation and a special election) and an ordered deck.
- ``random``: a uniform legal action in ours; in Secret-Jitler a uniform nomination and shot,
  and every vote and discard a fair coin.

Ours runs four ways, each computing every step what the acting seats see (their masks and
observations, folded into a checksum the result depends on, so none is left uncomputed):
``rounds``, ``play.play_rounds`` (a round of every game at a time, each turn a step
specialised to its phase, the policy given the acting seats' words); ``turn``, the
environment's turns (one decision a step, voters one after another); ``all``,
``Env.step_all`` (every living seat votes in one step, every seat's observation built); and
``all, dealt again``: the parallel step with finished games dealt again every
``--redeal`` steps instead of the batch waiting for its longest game (a steady stream of
whole games; Secret-Jitler's loop has no such mode); ``rounds, dealt again``:
``play.stream_rounds``, the rounds loop with the games that ended dealt again after each round
(``--stream-rounds`` rounds; a game counts when it ends). A decision is one seat's choice the rules
ask for: a nomination, each living seat's vote, the two legislative choices, a power's target,
a veto's (for Secret-Jitler counted from its final states, played again with a 30-round
history; ours: ``State.steps``).

    /path/venv/bin/python benchmarks/peer_jitler.py /path/to/secret-jitler
    /path/venv/bin/python benchmarks/peer_jitler.py /path/to/secret-jitler --players 5 --devices 2

The environment needs both engines: a virtual environment with this package's ``jax`` extra
and Secret-Jitler's requirements (``jaxtyping``, ``typeguard``); docs/batched.md shows one.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

MODES = ("rounds", "rounds, dealt again", "turn", "all", "all, dealt again")
PEER_HISTORY = 2  # the history its performance.py plays with (the least it allows)
COUNT_HISTORY = 30  # the most it allows: the whole game, to count its decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("checkout", type=Path, help="a checkout of pwolle/secret-jitler")
    parser.add_argument("--players", type=int, nargs="+", default=[5, 7, 10])
    parser.add_argument("--devices", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--batch", type=int, default=4096, help="games per device")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds of each engine")
    parser.add_argument("--policies", nargs="+", default=["peer", "random"])
    parser.add_argument("--redeal", type=int, default=8, help="steps between deals (dealt again)")
    parser.add_argument(
        "--stream-rounds", type=int, default=40, help="rounds of 'rounds, dealt again'"
    )
    parser.add_argument(
        "--ours",
        nargs="+",
        default=list(MODES),
        choices=list(MODES),
        help="which of our loops to run",
    )
    args = parser.parse_args()
    os.environ["XLA_FLAGS"] = (
        os.environ.get("XLA_FLAGS", "")
        + f" --xla_force_host_platform_device_count={max(args.devices)}"
    )
    import jax

    peer = load_peer(args.checkout)
    print(f"jax {jax.__version__}, {jax.devices()[0].device_kind}; {peer.describe}")
    results = []
    for policy in args.policies:
        for players in args.players:
            for devices in args.devices:
                results.append(compare(peer, policy, players, devices, args))
    print()
    columns = ("policy", "players", "devices x games", "engine", "games/s", "decisions/s")
    print(f"| {' | '.join(columns)} | decisions/game | vs Secret-Jitler |")
    print("|---|---:|---|---|---:|---:|---:|---:|")
    for rows in results:
        base = rows[0]["games"]
        for row in rows:
            print(
                f"| {row['policy']} | {row['players']} | {row['devices']} x {row['batch']} | "
                f"{row['engine']} | {row['games']:,.0f} | {row['decisions']:,.0f} | "
                f"{row['per_game']:.1f} | {row['games'] / base:.2f}x |"
            )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


class Peer:
    """Secret-Jitler's game loop and bots, imported from a checkout."""

    def __init__(self, run: Any, bots: Any, describe: str) -> None:
        self.run, self.bots, self.describe = run, bots, describe

    def game(self, players: int, history: int, policy: str) -> Callable[..., Any]:
        """Its ``closure``: one whole game from a key, with its trivial bots (``peer``) or
        coin flips (``random``)."""
        import jax.numpy as jnp

        b = self.bots

        def coin(**_: Any) -> Any:
            return jnp.full([], 0.5)

        vote = b.vote_yes if policy == "peer" else coin
        discard = b.discard_true if policy == "peer" else coin
        fuse = self.run.fuse
        return self.run.closure(
            players,
            history,
            fuse(b.propose_random, b.propose_random, b.propose_random),
            fuse(vote, vote, vote),
            fuse(discard, discard, discard),
            fuse(discard, discard, discard),
            fuse(b.shoot_random, b.shoot_random, b.shoot_random),
        )


def load_peer(checkout: Path) -> Peer:
    """Import Secret-Jitler's ``project`` package from ``checkout``, with its runtime type
    checks off."""
    import jax
    import jaxtyping
    import typeguard

    project = checkout / "project"
    if not (project / "bots" / "run.py").is_file():
        raise SystemExit(f"not a secret-jitler checkout (no project/bots/run.py): {checkout}")
    if not hasattr(jax.random, "KeyArray"):  # its annotations name it; now jax.Array
        jax.random.KeyArray = jax.Array  # type: ignore[attr-defined]

    def unchecked(fn: Any) -> Any:
        return fn

    typeguard.typechecked = unchecked
    jaxtyping.jaxtyped = unchecked
    sys.path.insert(0, str(project))
    from bots import bots, run  # type: ignore[import-not-found]

    head = checkout / ".git" / "HEAD"
    commit = ""
    if head.is_file():
        import subprocess

        commit = subprocess.run(
            ["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
    return Peer(run, bots, f"secret-jitler {commit or '(no git)'} from {checkout}")


def peer_decisions(final: dict[str, Any], players: int) -> Any:
    """Decisions of Secret-Jitler games from their final states (a history holding every
    round): per round a nomination, every living seat's vote, the two legislative choices of
    an elected government, and a shot."""
    import numpy as np

    presi = np.asarray(final["presi"])  # [games, history], row 0 the last round, -1 unplayed
    killed = np.asarray(final["killed"])  # [games, history, players]
    voted = np.asarray(final["voted"])
    played = presi >= 0
    dead_before = np.concatenate([killed[:, 1:], np.zeros_like(killed[:, :1])], 1).sum(-1)
    living = players - dead_before
    elected = voted.sum(-1) > living // 2
    shots = killed.sum(-1) > dead_before
    per_round = 1 + living + 2 * elected + shots
    return (per_round * played).sum(1)


def compare(peer: Peer, policy: str, players: int, devices: int, args: Any) -> list[dict[str, Any]]:
    import jax
    import numpy as np

    batch = args.batch
    devs = jax.local_devices()[:devices]
    params = {"propose": 0, "vote": 0, "presi": 0, "chanc": 0, "shoot": 0}
    timed = peer.run.evaluate(peer.game(players, PEER_HISTORY, policy), batch)
    peer_play = jax.pmap(lambda k: timed(k, params), devices=devs)
    # its decisions per game: the same games (its keys do not depend on the history) again
    counting = peer.game(players, COUNT_HISTORY, policy)
    keys = jax.random.split(jax.random.key(99), batch)
    final = jax.jit(jax.vmap(lambda k: counting(k, params)))(jax.random.key_data(keys))
    peer_per_game = float(np.mean(peer_decisions(final, players)))

    engines: dict[str, Callable[[Any], Any]] = {
        "Secret-Jitler": lambda k: peer_play(jax.random.key_data(k)),
    }
    for mode in args.ours:
        engines[f"ours, {mode}"] = ours(
            players, batch, policy, mode, devs, args.redeal, args.stream_rounds
        )
    counts: dict[str, list[tuple[float, float, float]]] = {name: [] for name in engines}
    label = f"{policy} policy, {players} players, {devices} device(s) x {batch} games"
    for name, play in engines.items():  # compile
        t0 = time.perf_counter()
        jax.block_until_ready(play(jax.random.split(jax.random.key(0), devices)))
        print(f"{label}: {name} compiled in {time.perf_counter() - t0:.1f} s")
    for r in range(args.rounds):
        for name, play in engines.items():
            keys = jax.random.split(jax.random.key(r + 1), devices)
            t0 = time.perf_counter()
            out = jax.block_until_ready(play(keys))
            dt = time.perf_counter() - t0
            if name == "Secret-Jitler":
                games, decisions = devices * batch, devices * batch * peer_per_game
            else:
                games, decisions = float(out[0].sum()), float(out[1].sum())
            counts[name].append((games / dt, decisions / dt, decisions / max(games, 1)))
        load = os.getloadavg()[0]
        line = ", ".join(f"{name} {c[-1][0]:,.0f}" for name, c in counts.items())
        print(f"  round {r + 1} games/s: {line} (load {load:.2f})")
    rows = []
    for name, c in counts.items():
        rows.append(
            {
                "policy": policy,
                "players": players,
                "devices": devices,
                "batch": batch,
                "engine": name,
                "games": statistics.median(x[0] for x in c),
                "decisions": statistics.median(x[1] for x in c),
                "per_game": statistics.median(x[2] for x in c),
            }
        )
    return rows


def ours(
    players: int,
    batch: int,
    policy: str,
    mode: str,
    devs: list[Any],
    redeal: int,
    stream_rounds: int,
) -> Callable[[Any], Any]:
    """Our engine's whole games from a key per device: (games, decisions, checksum)."""
    import jax
    import jax.numpy as jnp

    from secret_hitler.batched import core as C
    from secret_hitler.batched import observation as O
    from secret_hitler.batched.play import play_rounds, random_index
    from secret_hitler.batched.play import stream_rounds as play_stream

    cfg = C.Config(players, "official")
    init = jax.vmap(lambda k: C.init(cfg, k))
    step = jax.vmap(lambda s, a: C.step(cfg, s, a))
    step_all = jax.vmap(lambda s, a: C.step_all(cfg, s, a))
    choose = random_index if policy == "random" else peer_choice

    def act(st: C.State, u: Any) -> tuple[C.State, Any]:
        """One step with what the acting seats see computed: (next state, checksum)."""
        if mode == "turn":
            seen = jnp.sum(O.current_obs_words(st)) + jnp.sum(st.mask_words)
            return step(st, choose(st.mask_words, u[:, 0])), seen
        masks = st.seat_mask_words  # [batch, players, words], zeros for a seat not acting
        seats = jnp.arange(players)
        acting = (jnp.right_shift(st.acting[:, None], seats) & 1) == 1
        seen = jnp.sum(jnp.where(acting[..., None], O.all_obs_words(st), 0)) + jnp.sum(masks)
        return step_all(st, choose(masks, u)), seen

    def whole(key: Any) -> Any:
        st = init(jax.random.split(key, batch))

        def go(c: tuple[Any, ...]) -> tuple[Any, ...]:
            st, k, check = c
            k, sub = jax.random.split(k)
            st, seen = act(st, jax.random.uniform(sub, (batch, players)))
            return st, k, check + seen

        def going(c: tuple[Any, ...]) -> Any:
            return ~jnp.all(c[0].terminated | c[0].truncated)

        st, _, check = jax.lax.while_loop(going, go, (st, key, jnp.uint32(0)))
        return jnp.asarray(batch, jnp.float32), jnp.sum(st.steps), check

    def stream(key: Any) -> Any:
        """Finished games dealt again every ``redeal`` steps, for as many steps as the whole
        batch takes with ``whole`` on average (about 40 rounds of deals)."""

        def deal_round(c: tuple[Any, ...], k: Any) -> tuple[Any, ...]:
            st, games, decisions, check = c
            k_deal, k_play = jax.random.split(k)

            def one(c2: tuple[Any, ...], u: Any) -> tuple[Any, ...]:
                st, check = c2
                st, seen = act(st, u)
                return (st, check + seen), None

            us = jax.random.uniform(k_play, (redeal, batch, players))
            (st, check), _ = jax.lax.scan(one, (st, check), us)
            done = st.terminated | st.truncated
            games = games + jnp.sum(done)
            decisions = decisions + jnp.sum(jnp.where(done, st.steps, 0))
            fresh = init(jax.random.split(k_deal, batch))
            st = jax.tree.map(
                lambda new, old: jnp.where(done.reshape((-1,) + (1,) * (old.ndim - 1)), new, old),
                fresh,
                st,
            )
            return (st, games, decisions, check), None

        st = init(jax.random.split(key, batch))
        zero = jnp.zeros((), jnp.float32)
        (_, games, decisions, check), _ = jax.lax.scan(
            deal_round, (st, zero, zero, jnp.uint32(0)), jax.random.split(key, 40)
        )
        return games, decisions, check

    def policy(k: Any, turn: Any, check: Any) -> Any:
        """The policy of the rounds loops, what the acting seats see folded into ``check``."""
        acting = (turn.seats >= 0)[..., None]
        seen = jnp.sum(jnp.where(acting, turn.obs_words, 0)) + jnp.sum(turn.mask_words)
        u = jax.random.uniform(k, turn.seats.shape)
        return choose(turn.mask_words, u), check + seen

    def rounds(key: Any) -> Any:
        """``play.play_rounds``: a round of every game at a time, each turn its own step."""
        st = init(jax.random.split(key, batch))
        st, check = play_rounds(cfg, policy, st, key, jnp.uint32(0))
        return jnp.asarray(batch, jnp.float32), jnp.sum(st.steps), check

    def deal(key: Any) -> Any:
        return init(jax.random.split(key, batch))

    def ended(carry: Any, st: Any, done: Any) -> Any:
        check, games, decisions = carry
        return check, games + jnp.sum(done), decisions + jnp.sum(jnp.where(done, st.steps, 0))

    def counted(k: Any, turn: Any, carry: Any) -> Any:
        actions, check = policy(k, turn, carry[0])
        return actions, (check, *carry[1:])

    def rounds_stream(key: Any) -> Any:
        """``play.stream_rounds``: the rounds loop, the games that ended dealt again after
        each round; the games that end within ``stream_rounds`` rounds count."""
        zero = jnp.zeros((), jnp.float32)
        carry = (jnp.uint32(0), zero, zero)
        _, (check, games, decisions) = play_stream(
            cfg, counted, deal, ended, deal(key), key, carry, stream_rounds
        )
        return games, decisions, check

    fn = {
        "all, dealt again": stream,
        "rounds": rounds,
        "rounds, dealt again": rounds_stream,
    }.get(mode, whole)
    return jax.pmap(fn, devices=devs)


def peer_choice(mask_words: Any, u: Any) -> Any:
    """Secret-Jitler's trivial bots in our action space, from a mask: Ja; discard a fascist
    policy, enact a liberal one, when held; never a veto; else (a nomination, a power's
    target) a uniform legal action."""
    import jax.numpy as jnp

    from secret_hitler.batched.play import random_index
    from secret_hitler.env import encoding as E

    vetoes = sum(1 << a for a in (E.VETO, E.VETO_KEEP_LIBERAL, E.VETO_KEEP_FASCIST))
    first = mask_words[..., 0]
    action = random_index(mask_words.at[..., 0].set(first & ~jnp.uint32(vetoes)), u)
    for preferred in (E.ENACT_FASCIST, E.ENACT_LIBERAL, E.DISCARD_LIBERAL, E.DISCARD_FASCIST, E.JA):
        legal = (jnp.right_shift(first, preferred) & 1) == 1  # all in the first word
        action = jnp.where(legal, preferred, action)
    return action


if __name__ == "__main__":
    main()
