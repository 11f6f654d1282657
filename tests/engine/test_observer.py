"""The observer: at every step of random games, for every player count and every preset, each
seat's and the spectator's view equals the from-scratch reference view; views are immutable
snapshots; derived public facts (eligible chancellors, veto, pending powers, own vote) agree with
the rules."""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest
from engine_helpers import play_random, random_action
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_view import reference_view

from secret_hitler.engine import PRESETS, Action, Game
from secret_hitler.engine.view import FIELDS, SEAT_FIELDS

PRESET_NAMES = list(PRESETS)
COUNTS = list(range(5, 11))
_checks = [HealthCheck.too_slow, HealthCheck.data_too_large]


@pytest.mark.parametrize("n", COUNTS)
@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=3, deadline=None, suppress_health_check=_checks)
@given(seed=st.integers(0, 2**32 - 1), rng=st.randoms(use_true_random=True))
def test_every_view_at_every_step_equals_the_reference(preset, n, seed, rng):
    game = Game(n, preset, seed)
    who = [*range(n), None]
    # Views taken at one step and only read after later steps must still describe that step.
    held: list[tuple[object, dict]] = []
    steps = 0
    while True:
        for seat in who:
            expected = reference_view(game, seat)
            view = game.view(seat)
            if rng.random() < 0.1:
                held.append((view, expected))  # read later, after the game moved on
            else:
                assert view.to_json() == expected, (steps, seat)
        if game.finished or steps > 600:
            break
        game.apply(random_action(game, rng, claim_prob=0.2))
        steps += 1
    for view, expected in held:
        assert view.to_json() == expected


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_fields_outside_seat_fields_are_the_same_for_every_seat(preset):
    rng = random.Random(11)
    for n in (5, 7, 10):
        game = Game(n, preset, seed=n)
        while not game.finished:
            spectator = game.view(None).to_json()
            for seat in range(n):
                mine = game.view(seat).to_json()
                for name in FIELDS:
                    if name not in SEAT_FIELDS:
                        assert mine[name] == spectator[name], (name, seat)
            game.apply(random_action(game, rng, claim_prob=0.2))


def test_event_data_in_a_view_cannot_change_the_game_log():
    game = Game(7, seed=4)
    play_random(game, random.Random(4), stop=lambda g: g.phase.value == "discard")
    before = [e.to_json(with_audience=True) for e in game.events]
    view = game.view(game.president)
    votes = next(e for e in view.events if e["type"] == "votes")
    with pytest.raises(TypeError):
        votes["votes"][0] = not votes["votes"][0]
    with pytest.raises(TypeError):
        votes["passed"] = False
    with pytest.raises(TypeError):
        votes["votes"].append(True)
    drew = next(e for e in view.events if e["type"] == "drew")
    with pytest.raises(TypeError):
        drew["policies"].sort()
    with pytest.raises(TypeError):
        view.rules["veto_zone"] = 1
    with pytest.raises(AttributeError):
        view.hand = ("liberal",)  # type: ignore[misc]
    with pytest.raises(TypeError):
        view.known_roles[0] = "hitler"  # type: ignore[index]
    # Copies are free to change, and changing them changes nothing either.
    mine = view.to_json()
    mine["events"][0]["type"] = "x"
    mine["hand"].append("fascist")
    list(view.events)[0]
    assert [e.to_json(with_audience=True) for e in game.events] == before
    assert game.view(game.president).to_json() == view.to_json()


def test_views_copy_pickle_and_serialise_as_plain_json():
    game = Game(8, seed=2)
    play_random(game, random.Random(2), stop=lambda g: g.round >= 3)
    view = game.view(3)
    data = view.to_json()
    assert json.loads(json.dumps(data)) == data
    assert pickle.loads(pickle.dumps(view)).to_json() == data
    assert copy.deepcopy(data) == data
    assert json.loads(json.dumps(list(view.events))) == data["events"]


def test_the_eligible_chancellors_follow_each_presets_term_limits():
    for preset in PRESET_NAMES:
        rng = random.Random(preset)
        for n in COUNTS:
            game = Game(n, preset, seed=n)
            while not game.finished:
                view = game.view(None)
                if game.phase.value == "nominate":
                    targets = {
                        a.target for a in game.legal_actions(game.candidate) if a.type == "nominate"
                    }
                    assert set(view.eligible) == targets
                    assert view.events[-1]["type"] == "candidate" or any(
                        e["type"] == "claim" for e in view.events[-3:]
                    )
                    candidate_events = [e for e in view.events if e["type"] == "candidate"]
                    assert list(candidate_events[-1]["eligible"]) == list(view.eligible)
                else:
                    assert view.eligible == ()
                game.apply(random_action(game, rng, claim_prob=0.1))


def test_own_vote_is_known_to_the_voter_only_until_the_reveal():
    game = Game(7, seed=9)
    play_random(game, random.Random(9), stop=lambda g: g.phase.value == "vote")
    voter = game.to_act()[0]
    game.apply(Action.vote(voter, True))
    assert game.view(voter).own_vote is True
    for seat in [*range(7), None]:
        if seat != voter:
            view = game.view(seat)
            assert view.own_vote is None
            assert view.votes[voter] is None
            assert view.voted[voter] is True


def test_veto_refused_and_pending_power_are_in_the_view():
    rng = random.Random(5)
    seen_refused = seen_pending = False
    for seed in range(200):
        game = Game(7, "forum", seed)
        while not game.finished and not (seen_refused and seen_pending):
            view = game.view(None)
            if view.veto_refused:
                seen_refused = True
                assert not view.veto_available
                assert any(e["type"] == "veto" and not e["accepted"] for e in view.events)
            if view.pending_power is not None:
                seen_pending = True
                assert view.pending_power == game.pending_power.value
            options = [a for a in game.legal_actions(game.to_act()[0]) if a.type != "claim"]
            vetoes = [a for a in options if a.type == "veto"]
            refusals = [a for a in options if a.type == "veto_response" and not a.accept]
            game.apply(vetoes[0] if vetoes else refusals[0] if refusals else rng.choice(options))
        if seen_refused and seen_pending:
            break
    assert seen_refused and seen_pending


def test_a_view_of_a_clone_does_not_follow_the_original():
    game = Game(7, seed=1)
    game.view(0)
    other = game.clone()
    rng = random.Random(1)
    while not other.finished:
        other.apply(random_action(other, rng))
    assert game.view(0).phase == "nominate" and game.round == 1
    assert other.view(0).winner is not None
