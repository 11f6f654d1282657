"""A liberal team trained from scratch by self-play on the batched JAX engine, its win rates
against the `rule` and `bayes` fascists before and after, and its learning curve (docs/batched.md).

One small network plays every seat (the observation says the seat's role), trained with
REINFORCE and a value baseline on whole games: each decision is pushed towards what its team
won (+1) or lost (-1). Every `--eval-every` iterations the liberal win rate of the network
against random fascists is measured in JAX (a fixed opponent, so the curve shows learning);
before and after training the network plays the liberals against the project's `rule` and
`bayes` fascists in the engine (the same observations, through ``SeatEncoder``). A benchmark,
not a test: it prints its figures and writes the curve as a PNG and a JSON file.

    .venv/bin/python benchmarks/batched_train.py --minutes 30 --out results/batched-train
"""

from __future__ import annotations

import argparse
import json
import random
import time
from functools import partial
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

from secret_hitler.batched import core as C
from secret_hitler.batched.observation import current_observation
from secret_hitler.batched.play import random_action
from secret_hitler.bots.base import Agent, agent_factory
from secret_hitler.engine import Game
from secret_hitler.engine.types import Role
from secret_hitler.env.encoding import ACTIONS, Layout, SeatEncoder, action_index
from secret_hitler.sim.simulator import run_game


def init_params(key: jax.Array, size: int, hidden: int, actions: int) -> dict[str, jax.Array]:
    k1, k2, k3 = jax.random.split(key, 3)
    glorot = jax.nn.initializers.glorot_uniform()
    return {
        "w1": glorot(k1, (size, hidden)),
        "b1": jnp.zeros(hidden),
        "w2": glorot(k2, (hidden, hidden)),
        "b2": jnp.zeros(hidden),
        "wp": jnp.zeros((hidden, actions)),  # a uniform choice among the legal actions at first
        "bp": jnp.zeros(actions),
        "wv": glorot(k3, (hidden, 1)) * 0.01,
        "bv": jnp.zeros(1),
    }


def forward(params: dict[str, Any], obs: Any) -> tuple[Any, Any]:
    """Logits and value; ``params`` may hold JAX or NumPy arrays (``np`` for the engine side)."""
    xp = jnp if isinstance(params["w1"], jax.Array) else np
    h = xp.tanh(obs @ params["w1"] + params["b1"])
    h = xp.tanh(h @ params["w2"] + params["b2"])
    return h @ params["wp"] + params["bp"], (h @ params["wv"] + params["bv"])[..., 0]


def rollout(
    cfg: C.Config, params: Any, key: jax.Array, games: int, steps: int, random_fascists: bool
) -> Any:
    """``games`` whole games (``steps`` decisions at most): the network plays every seat, or
    the liberals only against random fascists. Returns what the loss needs."""
    step = jax.vmap(partial(C.step, cfg))
    k_init, k_play = jax.random.split(key)
    state = jax.vmap(partial(C.init, cfg))(jax.random.split(k_init, games))

    def body(st: C.State, k: jax.Array) -> Any:
        k1, k2 = jax.random.split(k)
        obs = current_observation(st)
        logits, _ = forward(params, obs)
        mask = st.legal_action_mask
        sampled = jax.random.categorical(k1, jnp.where(mask, logits, -1e9))
        actor = st.current_player
        team = jnp.take_along_axis(st.roles, jnp.maximum(actor, 0)[:, None], 1)[:, 0] != 0
        action = sampled
        if random_fascists:
            action = jnp.where(team, random_action(mask, jax.random.uniform(k2, (games,))), action)
        action = jnp.where(actor >= 0, action, -1)
        learn = (actor >= 0) & ~(team & random_fascists)
        return step(st, action), (obs, mask, action, team, learn)

    final, (obs, mask, action, team, learn) = jax.lax.scan(
        body, state, jax.random.split(k_play, steps)
    )
    won = (final.winner[None, :] == team.astype(jnp.int32)) & (final.winner >= 0)[None, :]
    ret = jnp.where(won, 1.0, -1.0)
    learn = learn & (final.winner >= 0)[None, :]
    liberal_wins = jnp.sum(final.winner == 0) / jnp.maximum(jnp.sum(final.winner >= 0), 1)
    return obs, mask, action, ret, learn, liberal_wins


def loss_fn(params: Any, obs: Any, mask: Any, action: Any, ret: Any, learn: Any) -> Any:
    logits, value = forward(params, obs)
    logp_all = jax.nn.log_softmax(jnp.where(mask, logits, -1e9))
    logp = jnp.take_along_axis(logp_all, jnp.maximum(action, 0)[..., None], -1)[..., 0]
    adv = jax.lax.stop_gradient(ret - value)
    w = learn.astype(jnp.float32)
    count = jnp.maximum(w.sum(), 1.0)
    entropy = -jnp.sum(jnp.where(mask, jnp.exp(logp_all) * logp_all, 0.0), -1)
    policy = -jnp.sum(w * logp * adv) / count
    critic = 0.5 * jnp.sum(w * (value - ret) ** 2) / count
    return policy + critic - 0.01 * jnp.sum(w * entropy) / count


class NetworkAgent(Agent):
    """A seat played by the network in the engine (what the liberals are in the evaluation)."""

    name = "network"

    def __init__(
        self, seat: int, players: int, params: dict[str, np.ndarray], rng: random.Random
    ) -> None:
        super().__init__(seat, rng)
        self.encoder = SeatEncoder(seat, players, Layout())
        self.params = params

    def act(self, view: Any, legal: Any) -> Any:
        obs = self.encoder.encode(view)
        logits, _ = forward(self.params, obs)
        index = [action_index(a) for a in legal]
        allowed = sorted({i for i in index if i >= 0})
        z = logits[allowed] - logits[allowed].max()
        p = np.exp(z) / np.exp(z).sum()
        choice = allowed[int(self.rng.choices(range(len(allowed)), weights=p.tolist())[0])]
        return ACTIONS[self.seat][choice]


def against_bots(params: Any, players: int, rules: str, level: str, games: int, seed: int) -> float:
    """The network's liberals against ``level`` fascists in the engine: liberal win rate."""
    host = {k: np.asarray(v) for k, v in params.items()}
    factory = agent_factory(level)
    wins = 0
    for g in range(games):
        game = Game(players, rules, seed=seed + g)
        rng = random.Random(seed + g)
        agents = [
            NetworkAgent(s, players, host, rng)
            if r is Role.LIBERAL
            else factory(s, random.Random(seed * 7919 + g * 31 + s))
            for s, r in enumerate(game.roles)
        ]
        run_game(game, agents)
        wins += game.winner is not None and game.winner.value == "liberal"
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--rules", default="official")
    parser.add_argument("--games", type=int, default=256, help="games per iteration")
    parser.add_argument("--steps", type=int, default=256, help="most decisions per game")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--eval-every", type=int, default=20)
    parser.add_argument("--eval-games", type=int, default=2048, help="JAX games per curve point")
    parser.add_argument("--bot-games", type=int, default=300, help="engine games per level")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="results/batched-train")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    env = C.Env(args.players, args.rules)
    cfg = env.config
    key = jax.random.key(args.seed)
    key, k = jax.random.split(key)
    params = init_params(k, env.observation_size, args.hidden, C.NUM_ACTIONS)
    optimizer = optax.adam(args.lr)
    opt_state = optimizer.init(params)

    @jax.jit
    def train_step(params: Any, opt_state: Any, key: jax.Array) -> Any:
        obs, mask, action, ret, learn, lib = rollout(
            cfg, params, key, args.games, args.steps, False
        )
        loss, grads = jax.value_and_grad(loss_fn)(params, obs, mask, action, ret, learn)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss, lib

    @jax.jit
    def curve_point(params: Any, key: jax.Array) -> Any:
        return rollout(cfg, params, key, args.eval_games, args.steps, True)[-1]

    levels = ("random", "rule", "bayes")
    t0 = time.perf_counter()
    before = {
        lv: against_bots(params, args.players, args.rules, lv, args.bot_games, 10_000)
        for lv in levels
    }
    print(
        f"before: liberal win rate against {before} ({time.perf_counter() - t0:.0f} s)", flush=True
    )

    # compile both before the clock starts
    jax.block_until_ready(curve_point(params, key))
    jax.block_until_ready(train_step(params, opt_state, key))
    curve: list[dict[str, float]] = []
    start = time.perf_counter()
    it = 0
    while True:
        if it % args.eval_every == 0:
            key, k = jax.random.split(key)
            point = float(curve_point(params, k))
            elapsed = time.perf_counter() - start
            curve.append({"iteration": it, "minutes": elapsed / 60, "vs_random_fascists": point})
            print(
                f"iteration {it}: {elapsed / 60:.1f} min, liberals vs random fascists {point:.3f}",
                flush=True,
            )
            if elapsed > args.minutes * 60:
                break
        key, k = jax.random.split(key)
        params, opt_state, loss, lib = train_step(params, opt_state, k)
        it += 1
        if it % args.eval_every == 1:
            print(
                f"  iteration {it}: loss {float(loss):.3f}, self-play liberal wins {float(lib):.3f}",
                flush=True,
            )

    after = {
        lv: against_bots(params, args.players, args.rules, lv, args.bot_games, 10_000)
        for lv in levels
    }
    print(
        f"after {it} iterations ({it * args.games:,} self-play games): liberal win rate against {after}"
    )
    (out / "curve.json").write_text(
        json.dumps({"args": vars(args), "before": before, "after": after, "curve": curve}, indent=1)
    )
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot([p["iteration"] * args.games for p in curve], [p["vs_random_fascists"] for p in curve])
    ax.set_xlabel("self-play games")
    ax.set_ylabel("liberal win rate vs random fascists")
    ax.set_title(f"{args.players} players, {args.rules}: a liberal team trained from scratch")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out / "curve.png", dpi=100)
    print(f"wrote {out / 'curve.png'} and {out / 'curve.json'}")


if __name__ == "__main__":
    main()
