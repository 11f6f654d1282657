"""Random-policy rollouts of the PettingZoo environment: environment steps per second, one core.

A step is one decision of a live agent: ``last()`` (its observation vector and action mask,
encoded then), a uniform choice among the mask's legal actions, ``step(action)`` (the engine
applies it). The closing ``step(None)`` of each terminated agent is not counted.

Also a minimal example of driving the AEC loop. Run:
``.venv/bin/python benchmarks/env_speed.py [--players 7] [--rules official] [--profile 25]``.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time

from secret_hitler.env import action_index, raw_env
from secret_hitler.env import env as make_env


def rollout(environment, episodes: int, seed: int) -> tuple[int, int, float]:
    """Play ``episodes`` games with uniformly random legal actions; return steps, games, seconds."""
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    for episode in range(episodes):
        environment.reset(seed=seed + episode)
        for _agent in environment.agent_iter():
            obs, reward, terminated, truncated, info = environment.last()
            if terminated or truncated:
                action = None
            else:
                legal = obs["action_mask"].nonzero()[0]  # np.flatnonzero, without its wrapper
                action = int(legal[rng.randrange(len(legal))])
                steps += 1
            environment.step(action)
    return steps, episodes, time.perf_counter() - start


def rollout_without_observations(environment, episodes: int, seed: int) -> tuple[int, int, float]:
    """The same games with ``last(observe=False)``: the policy picks among the engine's legal
    actions itself, so the figure is the engine, the AEC loop and the mask ``step`` checks,
    a ceiling for any observation encoding."""
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    for episode in range(episodes):
        environment.reset(seed=seed + episode)
        game = environment.unwrapped.game
        for agent in environment.agent_iter():
            _, reward, terminated, truncated, info = environment.last(observe=False)
            if terminated or truncated:
                action = None
            else:
                seat = int(agent.rsplit("_", 1)[1])
                legal = [i for i in map(action_index, game.legal_actions(seat)) if i >= 0]
                action = legal[rng.randrange(len(legal))]
                steps += 1
            environment.step(action)
    return steps, episodes, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--rules", default="official")
    parser.add_argument("--episodes", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--wrapped",
        action="store_true",
        help="use env() (PettingZoo wrappers) instead of raw_env()",
    )
    parser.add_argument(
        "--no-observation",
        action="store_true",
        help="never ask for an observation (a ceiling: the engine, the loop and the mask check)",
    )
    parser.add_argument(
        "--profile",
        type=int,
        default=0,
        metavar="N",
        help="run under cProfile and print the N functions with the most own time "
        "(the figures are then those of the profiled run, slower)",
    )
    args = parser.parse_args()
    factory = make_env if args.wrapped else raw_env
    environment = factory(args.players, args.rules)
    play = rollout_without_observations if args.no_observation else rollout
    play(environment, 20, args.seed)  # warm-up
    profiler = cProfile.Profile() if args.profile else None
    cpu = time.process_time()
    if profiler is not None:
        profiler.enable()
    steps, games, seconds = play(environment, args.episodes, args.seed)
    if profiler is not None:
        profiler.disable()
    cpu = time.process_time() - cpu
    kind = "env()" if args.wrapped else "raw_env()"
    if args.no_observation:
        kind += " without observations"
    print(
        f"{kind} {args.players} players, {args.rules}: {steps} steps in {games} games, "
        f"{seconds:.2f} s -> {steps / seconds:,.0f} steps/s ({steps / games:.1f} steps/game)"
    )
    # CPU time is steadier than wall time on a machine that runs other work.
    print(f"per CPU second: {steps / cpu:,.0f} steps/s")
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(args.profile)


if __name__ == "__main__":
    main()
