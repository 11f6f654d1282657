"""The PettingZoo environment: API conformance, determinism, masks, rewards, and that an
observation depends on nothing the seat has not observed."""

from __future__ import annotations

import logging
import random
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("pettingzoo")

from env_cases import CASES  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from secret_hitler.engine import PRESETS, Game  # noqa: E402
from secret_hitler.engine.types import Role  # noqa: E402
from secret_hitler.env import (  # noqa: E402
    ACTIONS,
    NUM_ACTIONS,
    SecretHitlerEnv,
    action_index,
    encode_view,
    env,
    raw_env,
)


def _random_game(e: SecretHitlerEnv, seed: int, check=None, infos=None) -> dict[str, float]:
    """Play one game with random legal actions; return each agent's final reward (and its last
    info in ``infos``, when given)."""
    rng = random.Random(seed)
    e.reset(seed=seed)
    final: dict[str, float] = {}
    while e.agents:
        agent = e.agent_selection
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            final[agent] = reward
            if infos is not None:
                infos[agent] = info
            e.step(None)
            continue
        if check is not None:
            check(e)
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
    return final


@pytest.mark.parametrize(("players", "rules"), CASES)
def test_pettingzoo_api(players: int, rules: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advisory warnings (e.g. all-zero masks of waiting agents)
        api_test(env(players, rules), num_cycles=1000)
        api_test(raw_env(players, rules), num_cycles=1000)


@pytest.mark.parametrize(("players", "rules"), CASES[::2])
def test_pettingzoo_seed(players: int, rules: str) -> None:
    seed_test(lambda: env(players, rules), num_cycles=200)


def test_reset_seed_is_deterministic_and_seeds_differ() -> None:
    a, b = raw_env(7), raw_env(7)
    a.reset(seed=3)
    b.reset(seed=3)
    assert a.game.roles == b.game.roles and a.game.initial_deck == b.game.initial_deck
    first = _random_game(a, 11)
    assert first == _random_game(b, 11)
    roles = set()
    for seed in range(8):
        a.reset(seed=seed)
        roles.add(a.game.roles)
    assert len(roles) > 1


def test_incremental_encoder_equals_encoding_from_scratch_everywhere() -> None:
    """Every seat, every step, every preset: the environment's observation (incremental, built
    from the events the observer routes) is the one ``encode_view`` computes from scratch from
    ``game.view(seat)`` alone; seats are asked in a shuffled order, so a seat's cached blocks
    must survive other seats' observations. (Both run the same encoder: what its slots mean is
    checked against the game by the layout and history-row tests.)"""
    seen: set[str] = set()
    compared = 0
    order = random.Random(7)
    for preset in PRESETS:
        for players in (5, 7, 10):
            e = raw_env(players, preset)

            def check(e: SecretHitlerEnv) -> None:
                nonlocal compared
                g = e.game
                seats = list(range(g.n))
                order.shuffle(seats)
                for seat in seats:
                    fast = e.observe(f"player_{seat}")["observation"]
                    ref = encode_view(g.view(seat), layout=e.layout)
                    assert fast.dtype == ref.dtype and fast.shape == ref.shape
                    assert np.array_equal(fast, ref), (g.rules.preset, g.n, g.phase, seat)
                    compared += 1

            for seed in range(2):
                _random_game(e, seed * 31 + players, check)
                check(e)  # the final (game over) state
                seen.update(ev.type for ev in e.game.events)
    assert compared > 1000
    # the random games went through every kind of private and public event the encoder reads
    assert {
        "peek",
        "investigation",
        "executed",
        "special_election",
        "chaos",
        "veto",
        "night",
        "drew",
        "received",
    } <= seen


def test_from_view_mode_gives_the_same_observations() -> None:
    fast, slow = raw_env(6, "official"), raw_env(6, "official", from_view=True)
    for seed in range(2):
        fast.reset(seed=seed)
        slow.reset(seed=seed)
        rng = random.Random(seed)
        while fast.agents:
            a = fast.agent_selection
            assert a == slow.agent_selection
            of, *_ = fast.last()
            os_, *_ = slow.last()
            assert np.array_equal(of["observation"], os_["observation"])
            assert np.array_equal(of["action_mask"], os_["action_mask"])
            if fast.terminations[a]:
                action = None
            else:
                legal = np.flatnonzero(of["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
            fast.step(action)
            slow.step(action)


def _hidden_variant(game: Game, seat: int, rng: random.Random) -> dict[str, object]:
    """Fixings for a game that differs from ``game`` only in what ``seat`` does not know at the
    start: the roles of the seats it cannot see are permuted, and the deck is reordered inside
    each group of three (same hands, different order)."""
    roles = list(game.roles)
    known = [s for s in range(game.n) if s != seat]
    if roles[seat] is not Role.LIBERAL:
        raise ValueError("pick a liberal seat")
    others = [roles[s] for s in known]
    while True:
        shuffled = others[:]
        rng.shuffle(shuffled)
        if shuffled != others:
            break
    for s, r in zip(known, shuffled, strict=True):
        roles[s] = r
    deck = list(game.initial_deck)
    for i in range(0, len(deck) - 2, 3):
        group = deck[i : i + 3]
        rng.shuffle(group)
        deck[i : i + 3] = group
    return {
        "roles": [r.value for r in roles],
        "deck": [p.value for p in deck],
        "first_president": game.first_president,
    }


@pytest.mark.parametrize(("players", "rules"), [(7, "official"), (5, "official"), (9, "forum")])
def test_observation_ignores_what_the_seat_has_not_observed(players: int, rules: str) -> None:
    """Along one action sequence, two games that differ only in hidden roles and unseen deck
    order give each seat identical observations for as long as its view is identical; roles
    always differ between the two games, so many of those comparisons are non-trivial."""
    rng = random.Random(players)
    nontrivial = 0
    for seed in range(6):
        a, b = raw_env(players, rules), raw_env(players, rules)
        a.reset(seed=seed)
        seat = next(s for s in range(players) if a.game.roles[s] is Role.LIBERAL)
        fix = _hidden_variant(a.game, seat, rng)
        a.reset(
            seed=seed + 100,
            options={
                **fix,
                "roles": [r.value for r in a.game.roles],
                "deck": [p.value for p in a.game.initial_deck],
            },
        )
        b.reset(seed=seed + 100, options=fix)
        assert a.game.roles != b.game.roles
        same = [True] * players
        while a.agents and b.agents and any(same):
            for s in range(players):
                if same[s] and a.game.view(s) == b.game.view(s):
                    oa, ob = a.observe(f"player_{s}"), b.observe(f"player_{s}")
                    assert np.array_equal(oa["observation"], ob["observation"]), (seed, s)
                    assert np.array_equal(oa["action_mask"], ob["action_mask"]), (seed, s)
                    nontrivial += s == seat
                else:
                    same[s] = False
            if a.agent_selection != b.agent_selection or a.game.finished or b.game.finished:
                break
            agent = a.agent_selection
            common = np.flatnonzero(
                a.observe(agent)["action_mask"] & b.observe(agent)["action_mask"]
            )
            if not len(common):
                break
            action = int(common[rng.randrange(len(common))])
            a.step(action)
            b.step(action)
    assert nontrivial >= 30


def test_masks_allow_exactly_the_legal_actions() -> None:
    def check(e: SecretHitlerEnv) -> None:
        g = e.game
        acting = e.agent_selection
        for agent in e.agents:
            seat = int(agent.split("_")[1])
            mask = e.observe(agent)["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
            if agent != acting:
                assert not mask.any(), "only the selected agent may act"
                continue
            legal = {action_index(x) for x in g.legal_actions(seat)} - {-1}
            assert legal and set(np.flatnonzero(mask).tolist()) == legal
            for i in np.flatnonzero(mask):
                assert g.is_legal(ACTIONS[seat][i])

    for players, rules in CASES:
        _random_game(raw_env(players, rules), players, check)


def test_illegal_action_is_refused_and_changes_nothing() -> None:
    e = raw_env(7)
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = len(e.game.actions)
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)
    with pytest.raises(ValueError):
        e.step(NUM_ACTIONS)
    assert len(e.game.actions) == before


@pytest.mark.parametrize(("players", "rules"), CASES)
def test_random_games_end_with_team_rewards(players: int, rules: str) -> None:
    e = raw_env(players, rules)
    executed = 0
    for seed in range(5):
        final = _random_game(e, seed)
        g = e.game
        assert g.finished and set(final) == set(e.possible_agents)
        for agent, reward in final.items():
            seat = int(agent.split("_")[1])
            liberal = g.roles[seat] is Role.LIBERAL
            assert reward == (1.0 if liberal == (g.winner.value == "liberal") else -1.0)
        executed += g.alive.count(False)
    if rules in ("official", "summary-zh") and players >= 7:
        assert executed, "dead players should have been rewarded in some game"


def test_dead_players_stay_silent_until_the_end() -> None:
    e = raw_env(10)
    for seed in range(10):
        e.reset(seed=seed)
        rng = random.Random(seed)
        while not e.game.finished:
            agent = e.agent_selection
            seat = int(agent.split("_")[1])
            assert e.game.alive[seat], "a dead agent was selected"
            for dead in (s for s in range(10) if not e.game.alive[s]):
                name = f"player_{dead}"
                assert name in e.agents and not e.terminations[name]
                obs = e.observe(name)
                assert not obs["action_mask"].any()
                assert obs["observation"][e.layout["alive"].offset + dead] == 0.0
            legal = np.flatnonzero(e.observe(agent)["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
        assert all(e.terminations.values())


def test_votes_walk_the_living_voters_and_are_revealed_together() -> None:
    e = raw_env(7)
    e.reset(seed=5)
    lay = e.layout
    candidate = e.game.candidate
    mask = e.observe(e.agent_selection)["action_mask"]
    e.step(int(np.flatnonzero(mask)[0]))  # nominate
    order = []
    while e.game.phase.value == "vote":
        agent = e.agent_selection
        order.append(int(agent.split("_")[1]))
        obs = e.observe(agent)["observation"]
        ja = lay["votes_ja"].offset
        # during a secret vote nobody sees another seat's vote
        seen = {i for i in range(7) if obs[ja + i] or obs[lay["votes_nein"].offset + i]}
        assert seen <= {order[-1]}
        e.step(10)  # ja
    assert order == [(candidate + k) % 7 for k in range(1, 8)]
    obs = e.observe(e.agent_selection)["observation"]
    ja = lay["votes_ja"].offset
    assert obs[ja : ja + 7].tolist() == [1.0] * 7


def test_observation_fields_are_where_the_layout_says() -> None:
    e = raw_env(7)
    e.reset(seed=2)
    lay = e.layout
    for seat in range(7):
        obs = e.observe(f"player_{seat}")["observation"]
        assert obs.shape == (lay.size,) and obs.dtype == np.float32
        assert obs[lay["seat"].offset + seat] == 1.0
        role = e.game.roles[seat].value
        assert obs[lay["role"].offset + ("liberal", "fascist", "hitler").index(role)] == 1.0
        assert (
            obs[lay["players"].offset : lay["players"].offset + 10].tolist()
            == [1.0] * 7 + [0.0] * 3
        )
        assert obs[lay["candidate"].offset + e.game.candidate] == 1.0
        assert obs[lay["phase"].offset] == 1.0  # nominate


@pytest.mark.parametrize("history", [0, 1, 3])
def test_observation_equals_encoding_from_scratch_for_any_history_length(history: int) -> None:
    """The byte-built blocks follow the layout for every history length (rows shift, own rows
    shift with them, a zero-length history has none)."""
    e = raw_env(7, "official", history=history)
    compared = 0

    def check(e: SecretHitlerEnv) -> None:
        nonlocal compared
        for seat in range(7):
            fast = e.observe(f"player_{seat}")["observation"]
            assert fast.shape == (e.layout.size,)
            assert np.array_equal(fast, encode_view(e.game.view(seat), layout=e.layout))
            compared += 1

    for seed in range(3):
        _random_game(e, seed, check)
    assert compared > 200


def test_wrapped_env_keeps_the_order_checks_and_plays_like_the_raw_one(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """``env()`` passes ``last`` and ``step`` straight through for speed; the call-order checks
    of PettingZoo's wrapper still hold, and a game goes exactly as in ``raw_env``."""
    wrapped = env(7)
    with pytest.raises(AttributeError, match="before reset"):
        wrapped.last()
    with pytest.raises(AssertionError, match="before step"):
        wrapped.step(0)
    with pytest.raises(AssertionError, match="before observe"):
        wrapped.observe("player_0")
    raw = raw_env(7)
    for e in (wrapped, raw):
        e.reset(seed=4)
    rng_w, rng_r = random.Random(4), random.Random(4)
    for agent in wrapped.agent_iter():
        assert agent == raw.agent_selection
        ow, rw, tw, uw, iw = wrapped.last()
        or_, rr, tr, ur, ir = raw.last()
        assert np.array_equal(ow["observation"], or_["observation"])
        assert np.array_equal(ow["action_mask"], or_["action_mask"])
        assert (rw, tw, uw, iw) == (rr, tr, ur, ir)
        if tw:
            wrapped.step(None)
            raw.step(None)
            continue
        legal = np.flatnonzero(ow["action_mask"])
        wrapped.step(int(legal[rng_w.randrange(len(legal))]))
        raw.step(int(legal[rng_r.randrange(len(legal))]))
    assert not raw.agents and not wrapped.agents
    with caplog.at_level(logging.WARNING):
        wrapped.step(None)  # PettingZoo's logger warns, nothing happens
    assert "after all agents are terminated" in caplog.text


def test_history_rows_say_what_each_government_did() -> None:
    """The meaning of the history block, read against the game's own events: one encoder
    writes it (incremental and from scratch alike), so this is its independent check."""
    from secret_hitler.env.encoding import RECORD_FIELDS

    at, row = 0, {}
    for name, size, _ in RECORD_FIELDS:
        row[name] = (at, size)
        at += size

    def part(obs: np.ndarray, name: str) -> list[float]:
        start, size = row[name]
        return obs[history + start : history + start + size].tolist()

    e = raw_env(7)
    history = e.layout["history"].offset
    checked = 0
    seen: set[int] = set()

    def check(env: SecretHitlerEnv) -> None:
        nonlocal checked
        events = [x.json for x in env.game.events]
        last = max((i for i, x in enumerate(events) if x["type"] == "nominated"), default=None)
        if last is None or last in seen:
            return
        enacted = [x for x in events[last:] if x["type"] == "enacted" and not x["chaos"]]
        if not enacted:  # this government has not enacted (yet): check it once it has
            return
        seen.add(last)
        nominated = events[last]
        votes = next(x for x in events[last:] if x["type"] == "votes")["votes"]
        policy = enacted[0]["policy"]
        for seat in range(7):
            obs = env.observe(f"player_{seat}")["observation"]
            assert part(obs, "valid") == [1.0]
            assert part(obs, "president") == [float(s == nominated["president"]) for s in range(10)]
            assert part(obs, "chancellor") == [
                float(s == nominated["chancellor"]) for s in range(10)
            ]
            assert part(obs, "ja")[:7] == [float(v is True) for v in votes]
            assert part(obs, "nein")[:7] == [float(v is False) for v in votes]
            assert part(obs, "elected") == [1.0]
            assert part(obs, "enacted") == [float(policy == "liberal"), float(policy == "fascist")]
        checked += 1

    for seed in range(3):
        _random_game(e, seed, check)
    assert checked >= 5


@pytest.mark.parametrize("history", [2, 8])
def test_own_history_rows_say_what_the_seat_saw_of_each_session(history: int) -> None:
    """The meaning of the own-history block, read against the game's own events: each row
    (newest nomination first) holds the liberals among the 3 policies the seat drew as
    president and among the 2 it passed or received. Only the seat to act is observed, so a
    seat's rows have often shifted by several nominations since it was last observed."""
    from secret_hitler.env.encoding import PRIVATE_RECORD_FIELDS

    size = sum(n for _, n, _ in PRIVATE_RECORD_FIELDS)
    checked = 0

    def expected(game: Game, seat: int) -> list[float]:
        rows: list[list[float]] = []
        for event in game.events:
            if event.type == "nominated":
                rows.insert(0, [0.0] * size)
            elif rows and event.type in ("drew", "passed", "received") and event.visible_to(seat):
                if event.audience is None:
                    continue  # (never: hands are private)
                libs = sum(p == "liberal" for p in event.data["policies"])
                rows[0][libs if event.type == "drew" else 4 + libs] = 1.0
        rows += [[0.0] * size] * history
        return [x for row in rows[:history] for x in row]

    def check(env: SecretHitlerEnv) -> None:
        nonlocal checked
        seat = int(env.agent_selection.rsplit("_", 1)[1])
        obs = env.observe(env.agent_selection)["observation"]
        field = env.layout["own_history"]
        got = obs[field.offset : field.offset + field.size].tolist()
        assert got == expected(env.game, seat)
        checked += any(got)

    e = raw_env(7, history=history)
    for seed in range(4):
        _random_game(e, seed, check)
    assert checked > 50


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    case=st.sampled_from(
        [(5, "official"), (7, "forum"), (8, "secrethitler-io"), (10, "summary-zh")]
    ),
    history=st.sampled_from([0, 2, 8]),
    seed=st.integers(0, 2**31 - 1),
)
def test_incremental_observations_equal_scratch_encodings_across_resets_and_skipped_turns(
    case: tuple[int, str], history: int, seed: int
) -> None:
    """The environment keeps per-seat encoder state between a seat's observations; at every
    step of two games played in one environment (the second after ``reset``), the observation
    of each seat asked equals the from-scratch encoding of that seat's view. Some seats are asked
    at every step, some rarely (many of their turns and events skipped), one only at the end of
    each game; an observation handed out never changes afterwards."""
    players, preset = case
    rng = random.Random(seed)  # many draws per game: from Hypothesis's buffer they would be slow
    e = raw_env(players, preset, history=history)
    often = {s: rng.choice([1.0, 0.3, 0.02]) for s in range(players)}
    late = rng.randrange(players)
    often[late] = 0.0
    kept: list[tuple[np.ndarray, np.ndarray]] = []
    compared = 0
    for game_no in range(2):
        e.reset(seed=seed + game_no)
        g = e.game
        while True:
            asked = [s for s in range(players) if rng.random() < often[s]]
            if g.finished:
                asked = list(range(players))  # every seat at the end, ``late`` included
            for seat in asked:
                obs = e.observe(f"player_{seat}")["observation"]
                assert np.array_equal(obs, encode_view(g.view(seat), layout=e.layout)), (
                    preset,
                    game_no,
                    len(g.events),
                    seat,
                )
                compared += 1
                if rng.random() < 0.05:
                    kept.append((obs, obs.copy()))
            if g.finished:
                break
            agent = e.agent_selection
            legal = np.flatnonzero(e.observe(agent)["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
    assert compared >= 2 * players
    for obs, copy in kept:
        assert np.array_equal(obs, copy)
