"""secrethitler.io's game types in the batched engine, judged by the engine as the presets are
(test_batched_engine.py): the rebalanced 6-, 7- and 9-player tables (another deck, and at 6
players one fascist policy on the track from the start), no top-decking (a failed election's
chaos ends the game: always, or the second since the last passed election), Avalon SH (Merlin,
with Percival and Morgana, Hitler's assassination after a liberal win) and the Monarchist (his
night, his execution rule, his own winners) deal as the engine deals them, every random game
replays in the engine to the same end, and sampled games see and may do at every step what the
environment's seats see and may do (with all but the rebalanced tables the environment's
``game_types`` blocks: 61 actions, 908 floats), with the rewards of each seat."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("pettingzoo")

from test_batched_engine import (  # noqa: E402
    CLAIM_STEPS,
    STEPS,
    _summary,
    seen_as_in_the_environment,
)

from secret_hitler.batched import core as C  # noqa: E402
from secret_hitler.batched import play, record  # noqa: E402
from secret_hitler.batched.state import ASSASSINATE  # noqa: E402
from secret_hitler.engine import Game, Rules, replay, replay_summary  # noqa: E402
from secret_hitler.env.encoding import assassinate_base  # noqa: E402

# the site's lobby offers the three checkboxes together; each applies at its own count
REBALANCED = {"preset": "secrethitler-io", "rebalanced": [6, 7, 9]}
TABLES = [  # players, rules, claims
    (6, REBALANCED, False),
    (7, REBALANCED, False),
    (9, REBALANCED, False),
    (7, {"preset": "secrethitler-io", "top_decking": "forbidden"}, False),
    (6, {"preset": "secrethitler-io", "top_decking": "not_twice", "rebalanced": [6]}, False),
    (7, {"preset": "secrethitler-io", "avalon": "merlin"}, True),
    (9, {"preset": "secrethitler-io", "avalon": "percival"}, False),
    (7, {"preset": "secrethitler-io", "monarchist": True}, False),
    (8, {"preset": "secrethitler-io", "monarchist": True, "avalon": "percival"}, True),
]
IDS = [
    "rebalanced-6",
    "rebalanced-7",
    "rebalanced-9",
    "no-top-decking-7",
    "not-twice-6",
    "avalon-7-claims",
    "percival-9",
    "monarchist-7",
    "monarchist-percival-8-claims",
]
GAMES = 256
SAMPLED = 3  # games compared with the environment at every step
ASSASSINATIONS_SAMPLED = 2  # and under Avalon SH, games that reach the assassination
LIBERAL_WINS = {"five_liberal_policies", "hitler_executed"}


def _avalon_summary(
    final: C.State, rewards: np.ndarray, g: int, players: int, last_action: int, claims: bool
) -> dict[str, object]:
    """``_summary`` with the winners the batched engine rewarded (+1 at the step that ended
    the game: the Monarchist's own winners included) and Avalon SH's ``assassination``
    (``last_action`` -1: not Avalon SH): every liberal win went through it (Hitler executed,
    or the fifth liberal policy), Merlin named or not, the last action naming the target."""
    out = _summary(final, g, players)
    reason = out["reason"]
    end = int(final.steps[g])  # ``rewards[t]``: the state's before step t, after action t - 1
    assert end < rewards.shape[0], "the state after the game's last action is kept"
    out["winners"] = [s for s in range(players) if rewards[end, g, s] > 0]
    if last_action >= 0 and (reason in LIBERAL_WINS or reason == "merlin_assassinated"):
        hitler = int(final.hitler[g])
        shot = not (int(final.alive[g]) >> hitler) & 1
        out["assassination"] = {
            "hitler": hitler,
            "trigger": "hitler_executed" if shot else "five_liberal_policies",
            "target": last_action - assassinate_base(claims),
        }
    return out


@pytest.mark.parametrize(("players", "rules", "claims"), TABLES, ids=IDS)
def test_every_game_replays_in_the_engine_and_steps_as_the_environment(
    players: int, rules: dict[str, object], claims: bool
) -> None:
    """The deal is the engine's table (its deck and starting track), and every game, written
    as a record with the rules it was played under, replays to the same winner, reason and
    final state; under no top-decking some games end top-decked. Sampled games step as the
    environment's (``seen_as_in_the_environment``: the pile fractions of a 16-policy deck, the
    ``game_types`` block and its known parties included); under Avalon SH some of them reach
    the assassination (Merlin's, Percival's and Hitler's knowledge, the phase, Hitler's
    mask)."""
    env = C.Env(players, rules, claims=claims)
    engine = Game(players, rules, seed=0)
    state = env.init(jax.random.split(jax.random.key(players), GAMES))
    assert np.all(np.asarray(state.liberal) == engine.liberal)
    assert np.all(np.asarray(state.fascist) == engine.fascist)
    deck = sorted(p.value for p in engine.initial_deck)
    cards = sorted(r.value for r in engine.roles)  # the table's role cards (composition)
    steps = CLAIM_STEPS if claims else STEPS
    final, seats, actions, states = play.random_games(
        env.config, state, jax.random.key(8), steps, True
    )
    final, seats, actions = jax.device_get((final, seats, actions))
    assert bool(np.all(final.terminated)) and not bool(np.any(final.truncated))
    reasons = set()
    rewards = np.asarray(states.rewards)
    records = record.to_records(env.config, final, seats, actions)
    for g, rec in enumerate(records):
        assert Rules.from_json(rec["rules"]) == env.config.rules
        assert sorted(rec["deck"]) == deck  # the engine's deck for this count
        assert sorted(rec["roles"]) == cards
        result = replay(rec)  # every action checked, the recorded result too
        assert result.ok, (g, result.error)
        expected = replay_summary(result.game)
        expected.pop("next")
        last = int(actions[int(final.steps[g]) - 1, g]) if env.config.avalon else -1
        assert _avalon_summary(final, rewards, g, players, last, claims) == expected, g
        reasons.add(expected["reason"])
    assert ("top_decked" in reasons) == (env.config.top_decking != "allowed")
    assert ("merlin_assassinated" in reasons) == env.config.avalon
    assert reasons >= LIBERAL_WINS  # under Avalon SH: Merlin not found
    assassinated = np.flatnonzero(np.any(np.asarray(states.phase) == ASSASSINATE, axis=0))
    assert bool(assassinated.size) == env.config.avalon
    sampled = [*range(SAMPLED), *assassinated[:ASSASSINATIONS_SAMPLED].tolist()]
    seen_as_in_the_environment(env, rules, states, actions, records, sampled)
