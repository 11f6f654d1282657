"""Decisions per second of the batched JAX engine, beside the environment's steps per second and
the scalar engine's decisions per second, in one run (docs/batched.md).

A decision is one legal action of the current player, chosen uniformly at random; the batched
engine computes the current player's mask and observation at every step, the observation as
bit words (``observation.current_obs_words``, computed from the state where read). The loop is timed
twice: reading those words, and reading every float32 of the unpacked vector
(``observation.current_observation``, unpacked in the same compiled loop, as a learner's first layer would).
Finished games are dealt again every ``--reset-every`` steps (the decisions counted are the
legal actions taken). The batch is split across the machine's cores as JAX devices
(``--devices``), each running its part on one thread.

    .venv/bin/python benchmarks/batched_speed.py
    .venv/bin/python benchmarks/batched_speed.py --players 10 --rules summary-zh --batch 8192
    .venv/bin/python benchmarks/batched_speed.py --claims   # claims in the action space

With ``--claims`` every engine plays with claims among the random choices (the environment's
``claims=True``): a claim is a decision like any other.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from functools import partial

READS = {
    "words": "packed (the state's bit words read)",
    "floats": "unpacked (every float32 of the vector read)",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--rules", default="official")
    parser.add_argument("--batch", type=int, default=4096, help="games per device")
    parser.add_argument("--steps", type=int, default=256, help="steps per timed call")
    parser.add_argument("--rounds", type=int, default=5, help="timed calls")
    parser.add_argument("--reset-every", type=int, default=16)
    parser.add_argument("--devices", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seconds", type=float, default=5.0, help="time for each scalar figure")
    parser.add_argument("--claims", action="store_true", help="claims in the action space")
    args = parser.parse_args()
    os.environ["XLA_FLAGS"] = (
        os.environ.get("XLA_FLAGS", "") + f" --xla_force_host_platform_device_count={args.devices}"
    )
    import jax
    import jax.numpy as jnp

    from secret_hitler.batched import core as C
    from secret_hitler.batched import observation as O
    from secret_hitler.batched.play import random_index

    devices = jax.local_devices()[: args.devices]
    env = C.Env(args.players, args.rules, claims=args.claims)
    cfg = env.config
    step = jax.vmap(lambda s, a: C.step(cfg, s, a))
    init = jax.vmap(lambda k: C.init(cfg, k))
    steps, every = args.steps, args.reset_every

    def checksum(st: C.State, read: str) -> jax.Array:
        """What a learner would read of the observation: every float of it (``floats``), or
        its bit words (``words``: the state computes them where read, so the checksum is
        their wrapping sum, which every bit of every word changes: none is left out)."""
        if read == "floats":
            return jnp.sum(O.current_observation(st))
        words = jnp.sum(O.current_obs_words(st), dtype=jnp.uint32)
        return words.astype(jnp.float32) + jnp.sum(O.obs_tail(st))

    def run(state: C.State, key: jax.Array, read: str) -> tuple[C.State, jax.Array, jax.Array]:
        """``steps`` random decisions in each game, finished games dealt again; returns the
        decisions taken and a checksum of the observations (so none is left uncomputed)."""

        def play(carry: tuple[C.State, jax.Array, jax.Array], u: jax.Array) -> tuple:
            st, count, check = carry
            action = random_index(st.mask_words, u)
            st = step(st, action)
            return (st, count + jnp.sum(action >= 0), check + checksum(st, read)), None

        def chunk(carry: tuple[C.State, jax.Array, jax.Array], k: jax.Array) -> tuple:
            k_play, k_deal = jax.random.split(k)
            us = jax.random.uniform(k_play, (every, args.batch))
            carry, _ = jax.lax.scan(play, carry, us)
            st, count, check = carry
            fresh = init(jax.random.split(k_deal, args.batch))
            st = jax.tree.map(
                lambda new, old: jnp.where(
                    st.terminated.reshape((-1,) + (1,) * (old.ndim - 1)), new, old
                ),
                fresh,
                st,
            )
            return (st, count, check), None

        zero = jnp.zeros((), jnp.int32)
        (state, count, check), _ = jax.lax.scan(
            chunk, (state, zero, jnp.zeros(())), jax.random.split(key, steps // every)
        )
        return state, count, check

    pinit = jax.pmap(lambda k: init(jax.random.split(k, args.batch)), devices=devices)
    results = {}
    for read in ("words", "floats"):
        prun = jax.pmap(partial(run, read=read), devices=devices)
        keys = jax.random.split(jax.random.key(0), len(devices))
        state = pinit(keys)
        t0 = time.perf_counter()
        state, count, _ = prun(state, keys)
        jax.block_until_ready(count)
        print(
            f"batched engine, observation read as {READS[read]}: {args.players} players, "
            f"{args.rules}{', claims' if args.claims else ''}, {len(devices)} device(s) x "
            f"{args.batch} games, {steps} steps per call; compiled in {time.perf_counter() - t0:.1f} s"
        )
        figures = []
        for r in range(args.rounds):
            keys = jax.random.split(jax.random.key(r + 1), len(devices))
            t0 = time.perf_counter()
            state, count, check = prun(state, keys)
            jax.block_until_ready((count, check))
            dt = time.perf_counter() - t0
            figures.append(int(count.sum()) / dt)
            print(
                f"  round {r + 1}: {int(count.sum()):,} decisions in {dt:.2f} s: "
                f"{figures[-1]:,.0f}/s"
            )
        figures.sort()
        results[read] = figures
    print(f"on {jax.devices()[0].platform}: {jax.devices()[0].device_kind}")
    for read, figures in results.items():
        print(
            f"batched engine, decisions/s, {READS[read]}: median "
            f"{figures[len(figures) // 2]:,.0f}, best {figures[-1]:,.0f}"
        )

    # the research environment and the scalar engine, one core, the same table
    from secret_hitler.engine import Game
    from secret_hitler.env import raw_env

    e = raw_env(args.players, args.rules, claims=args.claims)
    rng = random.Random(1)
    n_steps, seed, t0 = 0, 0, time.perf_counter()
    while time.perf_counter() - t0 < args.seconds:
        e.reset(seed=seed)
        seed += 1
        while not e._over:
            obs = e.last()[0]
            assert obs is not None
            legal = obs["action_mask"].nonzero()[0]
            e.step(int(legal[rng.randrange(len(legal))]))
            n_steps += 1
    print(
        f"environment (PettingZoo AEC), steps/s, one core: {n_steps / (time.perf_counter() - t0):,.0f}"
    )
    decisions, seed, t0 = 0, 0, time.perf_counter()
    while time.perf_counter() - t0 < args.seconds:
        game = Game(args.players, args.rules, seed=seed)
        seed += 1
        while not game.finished:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            if not args.claims:
                legal = [a for a in legal if a.type != "claim"]
            game.apply(legal[rng.randrange(len(legal))])
            decisions += 1
    print(f"scalar engine, decisions/s, one core: {decisions / (time.perf_counter() - t0):,.0f}")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
