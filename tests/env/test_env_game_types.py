"""The PettingZoo environment at secrethitler.io's game types (docs/env.md "Game types"): the
default spaces unchanged, the game types' block and assassination where a table needs them,
masks, observations from scratch, what each slot means, hidden information, per-seat rewards."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402
from test_env import _random_game as _play  # noqa: E402

from secret_hitler.engine import Rules  # noqa: E402
from secret_hitler.env import SecretHitlerEnv, encode_view, env, raw_env  # noqa: E402
from secret_hitler.env.encoding import (  # noqa: E402
    GAME_TYPE_FIELDS,
    NUM_ACTIONS,
    NUM_ACTIONS_WITH_CLAIMS,
    SPECIAL_ROLES,
    Layout,
    action_index,
    assassinate_base,
    engine_action,
    game_types_of,
)

AVALON = {"preset": "secrethitler-io", "avalon": "percival", "monarchist": True}
#: Every game type at a table size it plays, together 5 to 10 players.
CASES: list[tuple[int, dict[str, Any]]] = [
    (5, {"preset": "secrethitler-io", "avalon": "merlin"}),
    (6, {"preset": "official", "rebalanced": [6], "avalon": "percival"}),
    (7, AVALON | {"rebalanced": [7], "top_decking": "not_twice"}),
    (8, {"preset": "official", "monarchist": True}),
    (9, {"preset": "official", "rebalanced": [9], "top_decking": "forbidden"}),
    (10, AVALON | {"top_decking": "forbidden"}),
]


def test_the_default_spaces_do_not_change() -> None:
    """A table without the game types that need a block (every preset, a rebalanced table)
    keeps 51 actions (68 with claims) and 825 floats; one with them appends its block and the
    assassination, every other field where it was."""
    for rules in ("official", "secrethitler-io", {"preset": "official", "rebalanced": [6, 7, 9]}):
        for claims, actions in ((False, NUM_ACTIONS), (True, NUM_ACTIONS_WITH_CLAIMS)):
            e = raw_env(7, rules, claims=claims)
            assert not e.game_types
            assert e.action_space("player_0").n == actions == 51 + 17 * claims
            size = 825 + 15 * 8 * claims
            assert e.observation_space("player_0")["observation"].shape == (size,)
    block = sum(size for _, size, _ in GAME_TYPE_FIELDS)
    assert block == 83
    e = raw_env(7, AVALON)
    assert e.game_types and e.action_space("player_0").n == 61
    assert e.observation_space("player_0")["observation"].shape == (825 + block,)
    assert raw_env(7, AVALON, claims=True).action_space("player_0").n == 78
    assert assassinate_base(False) == 51 and assassinate_base(True) == 68
    plain, typed = Layout(8), Layout(8, game_types=True)
    assert all(typed[name].offset == field.offset for name, field in plain.fields.items())
    assert typed.blocks["game_types"] == (825, 825 + block)
    for settings, wanted in (
        ({"avalon": "merlin"}, True),
        ({"monarchist": True}, True),
        ({"top_decking": "not_twice"}, True),
        ({"rebalanced": [7]}, False),
        ({}, False),
    ):
        assert game_types_of(Rules.from_json({"preset": "official", **settings})) is wanted


@pytest.mark.parametrize(("players", "rules"), CASES)
def test_pettingzoo_api(players: int, rules: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advisory warnings (all-zero masks of waiting agents)
        api_test(env(players, rules), num_cycles=600)


@pytest.mark.parametrize(("players", "rules"), CASES)
def test_masks_observations_and_rewards_at_every_step(players: int, rules: dict[str, Any]) -> None:
    """At every step of random games: the selected agent's mask is exactly the engine's legal
    actions (the assassination included), each index is the engine action it names; every
    seat's observation is the one encoded from its view from scratch; at the end each seat's
    reward is whether it is among the game's winners (the Monarchist's own way)."""
    seen: set[str] = set()
    compared = 0

    def check(e: SecretHitlerEnv) -> None:
        nonlocal compared
        g = e.game
        seat = int(e.agent_selection.split("_")[1])
        mask = e.observe(e.agent_selection)["action_mask"]
        legal = {action_index(a, game_types=e.game_types) for a in g.legal_actions(seat)} - {-1}
        assert set(np.flatnonzero(mask).tolist()) == legal
        for i in legal:
            assert g.is_legal(engine_action(seat, i, game_types=e.game_types))
        for s in range(players):
            fast = e.observe(f"player_{s}")["observation"]
            assert np.array_equal(fast, encode_view(g.view(s), layout=e.layout)), (g.phase, s)
            compared += 1
        seen.add(g.phase.value)

    e = raw_env(players, rules)
    for seed in range(6):
        infos: dict[str, Any] = {}
        final = _play(e, seed * 7 + players, check, infos)
        g = e.game
        assert g.finished and g.winners is not None
        assert final == {f"player_{s}": 1.0 if s in g.winners else -1.0 for s in range(players)}
        if e.game_types:
            assert infos["player_0"]["winners"] == list(g.winners)
    assert compared > 300


def test_the_assassination_is_played_through_its_block() -> None:
    """Avalon SH's last step (a 6-player game with Percival; seed 48 of random play reaches
    it): Hitler alone may act, his mask is the liberal party in the assassination block, and
    the index he picks is the engine's assassinate."""
    e = raw_env(6, {"preset": "official", "avalon": "percival"})
    rng = random.Random(48)
    e.reset(seed=48)
    while e.game.phase != "assassinate":
        assert not e.game.finished, "seed 48 reaches the assassination"
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
    g = e.game
    hitler = g.roles.index(next(r for r in g.roles if r.value == "hitler"))
    assert e.agent_selection == f"player_{hitler}"
    mask = e.observe(e.agent_selection)["action_mask"]
    liberal_party = [s for s in range(6) if g.roles[s].party.value == "liberal"]
    assert np.flatnonzero(mask).tolist() == [51 + s for s in liberal_party]
    target = liberal_party[0]
    e.step(51 + target)
    assert g.finished and g.assassination["target"] == target
    assert g.actions[-1].type == "assassinate" and g.actions[-1].seat == hitler


def test_a_monarchist_is_rewarded_as_he_wins() -> None:
    """Hitler executed: the Monarchist wins with the liberals, the other fascists lose."""
    e = raw_env(8, {"preset": "official", "monarchist": True})
    found = 0
    for seed in range(40):
        final = _play(e, seed)
        g = e.game
        if g.reason.value != "hitler_executed":
            continue
        monarchist = [s for s in range(8) if g.roles[s].value == "monarchist"][0]
        assert final[f"player_{monarchist}"] == 1.0
        fascists = [s for s in range(8) if g.roles[s].value in ("fascist", "hitler")]
        assert all(final[f"player_{s}"] == -1.0 for s in fascists)
        found += 1
    assert found >= 2


def _part(e: SecretHitlerEnv, obs: np.ndarray, name: str) -> list[float]:
    f = e.layout[name]
    return obs[f.offset : f.offset + f.size].tolist()


def test_the_game_types_block_says_what_each_seat_knows() -> None:
    """The block read against each seat's view: the table's roles and top-decking, the own
    special role, the roles and parties the seat knows, Percival's pair, the assassination and
    a chaos that would end the game; the 3-wide role shows the role's class."""
    rules = AVALON | {"top_decking": "not_twice"}
    e = raw_env(7, rules)
    checked = {"assassinating": 0, "top_deck_forbidden": 0}

    def check(e: SecretHitlerEnv) -> None:
        g = e.game
        for seat in range(7):
            view = g.view(seat)
            obs = e.observe(f"player_{seat}")["observation"]
            assert _part(e, obs, "composition") == [1.0] * 4
            assert _part(e, obs, "top_decking") == [0.0, 0.0, 1.0]
            role = view.role
            special = [float(role == r) for r in SPECIAL_ROLES]
            assert _part(e, obs, "special_role") == special
            cls = "hitler" if role == "hitler" else view.party
            assert _part(e, obs, "role") == [
                float(cls == c) for c in ("liberal", "fascist", "hitler")
            ]
            known = [float(r == x) for r in view.known_roles for x in SPECIAL_ROLES]
            assert _part(e, obs, "known_special") == known + [0.0] * 4 * 3
            parties = [float(p == x) for p in view.known_parties for x in ("liberal", "fascist")]
            assert _part(e, obs, "known_parties") == parties + [0.0] * 2 * 3
            pair = view.merlin_candidates or ()
            assert _part(e, obs, "merlin_candidates") == [float(s in pair) for s in range(10)]
            assassinating = view.phase == "assassinate"
            assert _part(e, obs, "assassinating") == [float(assassinating)]
            if assassinating:
                assert not any(_part(e, obs, "phase"))
            assert _part(e, obs, "top_deck_forbidden") == [float(view.top_deck_forbidden)]
            checked["assassinating"] += assassinating
            checked["top_deck_forbidden"] += view.top_deck_forbidden

    for seed in range(12):
        _play(e, seed, check)
    assert checked["assassinating"] and checked["top_deck_forbidden"]


def test_a_rebalanced_pile_is_a_fraction_of_its_own_deck() -> None:
    """The draw pile's slot divides by the deck the engine resolves for the table (16 at a
    rebalanced 7), not by the setting's 17."""
    e = raw_env(7, {"preset": "official", "rebalanced": [7]})
    e.reset(seed=1)
    assert e.game.draw_pile == 16
    obs = e.observe("player_0")["observation"]
    assert _part(e, obs, "draw_pile") == [1.0]


def test_merlins_observation_ignores_which_fascist_is_hitler() -> None:
    """Merlin sees the fascist party, not its roles: two deals that differ only in which of those
    seats is Hitler, Morgana or the Monarchist give Merlin the same observation at the start."""
    one = ["merlin", "hitler", "percival", "morgana", "liberal", "monarchist", "liberal"]
    two = ["merlin", "monarchist", "percival", "hitler", "liberal", "morgana", "liberal"]
    observations = []
    for roles in (one, two):
        e = raw_env(7, AVALON)
        e.reset(seed=3, options={"roles": roles, "first_president": 0})
        observations.append(e.observe("player_0")["observation"])
    assert np.array_equal(*observations)
    e = raw_env(7, AVALON)
    e.reset(seed=3, options={"roles": one, "first_president": 0})
    parties = _part(e, e.observe("player_0")["observation"], "known_parties")
    # seat 0 (Merlin) knows itself liberal, seats 1, 3 and 5 fascist, no other seat
    assert parties[:14] == [1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0]
