"""OpenSpiel's information-set MCTS in one liberal seat of a table of `rule` bots, against the
same deals with a `rule` bot in that seat: the liberal win rate of each (docs/batched.md).

The game is ``secret_hitler.env.openspiel`` (the engine under OpenSpiel); ISMCTS searches with
random rollouts over worlds drawn by ``resample_from_infostate`` (the engine's sampler: the
hidden roles, the deck and the hidden discards drawn again from the seat's view). The other
seats are the project's `rule` level, deciding from their engine views; claims are not in the
OpenSpiel action space, so nobody claims.

    .venv/bin/python examples/openspiel_ismcts.py --games 20 --simulations 30
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from secret_hitler.bots.base import agent_factory
from secret_hitler.env import openspiel
from secret_hitler.env.encoding import ACTIONS, action_index


def play(game: pyspiel.Game, searcher: int | None, bot: ismcts.ISMCTSBot, seed: int) -> str:
    """One game; seat ``searcher`` (a liberal) plays ISMCTS, every other seat `rule`."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    factory = agent_factory("rule")
    agents: dict[int, object] = {}
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights=probs)[0])
            continue
        seat = state.current_player()
        if seat == searcher:
            state.apply_action(bot.step(state))
            continue
        agent = agents.setdefault(seat, factory(seat, random.Random(seed * 100 + seat)))
        engine = state.engine
        legal = [a for a in engine.legal_actions(seat) if action_index(a) >= 0]
        choice = agent.act(engine.view(seat), legal)  # type: ignore[attr-defined]
        assert ACTIONS[seat][action_index(choice)] == choice
        state.apply_action(action_index(choice))
    return str(state.engine.winner.value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = openspiel.load(args.players, "official")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    wins = {"ismcts": 0, "rule": 0}
    t0 = time.perf_counter()
    for g in range(args.games):
        seed = args.seed + g
        # the first liberal seat of this deal: play it once with `rule`, once with ISMCTS
        probe = game.new_initial_state()
        rng = random.Random(seed)
        outcomes, probs = zip(*probe.chance_outcomes(), strict=True)
        probe.apply_action(rng.choices(outcomes, weights=probs)[0])
        seat = probe.engine.roles.index("liberal")
        bot = ismcts.ISMCTSBot(
            game,
            evaluator,
            uct_c=2.0,
            max_simulations=args.simulations,
            random_state=np.random.RandomState(seed),
        )
        for who, searcher in (("rule", None), ("ismcts", seat)):
            wins[who] += play(game, searcher, bot, seed) == "liberal"
        print(
            f"game {g + 1}: liberal wins, ISMCTS seat {wins['ismcts']}, rule seat {wins['rule']} "
            f"({time.perf_counter() - t0:.0f} s)",
            flush=True,
        )
    n = args.games
    print(
        f"{n} deals, {args.players} players: liberals won {wins['ismcts'] / n:.1%} with ISMCTS "
        f"({args.simulations} simulations) in one liberal seat, {wins['rule'] / n:.1%} with rule"
    )


if __name__ == "__main__":
    main()
