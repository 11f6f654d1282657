"""Per-seat views: shape, audience filtering, and examples of non-interference (the property test
in test_properties.py explores the general case)."""

from __future__ import annotations

import json
import random

import pytest
from engine_helpers import (
    F,
    L,
    elect,
    fail,
    govern,
    make_roles,
    new_game,
    play_random,
    random_action,
)

from secret_hitler.engine import Action, Game

VIEW_FIELDS = {
    "seat",
    "players",
    "names",
    "rules",
    "board",
    "hitler_zone",
    "veto_zone",
    "composition",
    "hitler_zone_active",
    "phase",
    "to_act",
    "round",
    "role",
    "party",
    "known_roles",
    "known_parties",
    "merlin_candidates",
    "alive",
    "candidate",
    "nominee",
    "president",
    "chancellor",
    "term_limited",
    "eligible",
    "liberal_policies",
    "fascist_policies",
    "election_tracker",
    "liberal_to_win",
    "fascist_to_win",
    "chaos_at",
    "top_deck_forbidden",
    "draw_pile",
    "discard_pile",
    "voted",
    "votes",
    "own_vote",
    "hand",
    "veto_available",
    "veto_refused",
    "veto_proposed",
    "power",
    "pending_power",
    "next_president",
    "assassination",
    "investigated",
    "not_hitler",
    "proven_not_hitler",
    "investigations",
    "open_claims",
    "winner",
    "reason",
    "winners",
    "events",
}


def test_view_has_the_documented_fields_and_is_json():
    game = Game(7, seed=3)
    play_random(game, random.Random(3))
    for seat in [*range(7), None]:
        data = game.view(seat).to_json()
        assert set(data) == VIEW_FIELDS
        assert json.loads(json.dumps(data)) == data


@pytest.mark.parametrize("players", [5, 7, 10])
def test_next_president_is_the_candidate_of_the_next_round(players):
    """Across special elections and executions: whenever a round begins, its candidate is the
    ``next_president`` the views showed just before (unless that very action executed someone
    or named the candidate); so after a special election the rotation resumes. None once the
    game is over."""
    checked = specials = 0
    for seed in range(40):
        game = Game(players, seed=seed)
        rng = random.Random(seed)
        while not game.finished:
            before = game.view(None)
            seat = rng.choice(list(game.to_act()))
            action = rng.choice(game.legal_actions(seat))
            specials += action.type == "special_election"
            game.apply(action)
            after = game.view(None)
            if after.round == before.round or game.finished:
                continue
            if action.type == "special_election":  # this very action picks the candidate
                assert after.candidate == action.target
            elif action.type != "execute":  # (an execution may kill the seat that was next)
                assert after.candidate == before.next_president
                checked += 1
        assert game.view(None).next_president is None
    assert checked > 100 and (specials > 0 or players < 7)  # the board has one from 7 players


@pytest.mark.parametrize("seat", [7, -1, "0"])
def test_view_of_a_seat_not_at_the_table_is_refused(seat):
    with pytest.raises(ValueError):
        Game(7, seed=1).view(seat)


def test_view_events_are_exactly_the_events_addressed_to_the_seat():
    game = Game(8, "official", seed=5)
    rng = random.Random(5)
    while not game.finished:
        game.apply(random_action(game, rng, claim_prob=0.3))
        if rng.random() < 0.1:
            for seat in [*range(8), None]:
                expected = [
                    e.to_json()
                    for e in game.events
                    if e.audience is None or (seat is not None and seat in e.audience)
                ]
                assert list(game.view(seat).events) == expected


def test_hand_is_shown_only_to_its_holders():
    game = new_game(7, top="FLF")
    elect(game, 3)
    assert [s for s in range(7) if game.view(s).hand] == [0]
    game.apply(Action.discard(0, L))
    assert game.view(3).hand == (F, F)
    assert [s for s in range(7) if game.view(s).hand] == [0, 3]
    assert game.view(None).hand == ()


def test_term_limited_is_shown_during_the_nomination():
    game = new_game(7)
    govern(game, 2, L)
    assert sorted(game.view(None).term_limited) == [0, 2]
    game.apply(Action.nominate(1, 3))
    assert game.view(None).term_limited == ()


def _replay_with(roles: list[str], top: str) -> Game:
    """The same public story, whatever the hidden roles and lower deck."""
    game = new_game(7, roles=roles, top=top)
    govern(game, 2, L)
    fail(game, 3)
    elect(game, 3)
    game.apply(Action.discard(game.president, F))
    game.apply(Action.enact(3, L))
    return game


def test_liberal_view_does_not_depend_on_roles_it_does_not_know():
    a = _replay_with(make_roles(7, hitler=6, fascists=(4, 5)), "LLF LLF")
    b = _replay_with(make_roles(7, hitler=1, fascists=(5, 6)), "LLF LLF")
    for seat in (0, None):
        assert a.view(seat).to_json() == b.view(seat).to_json()
    assert a.view(4).to_json() != b.view(4).to_json()  # seat 4 changed role: it can tell


def test_views_do_not_depend_on_the_order_of_undrawn_policies():
    a = _replay_with(make_roles(7), "LLF LLF FFLL")
    b = _replay_with(make_roles(7), "LLF LLF LFLF")
    for seat in [*range(7), None]:
        assert a.view(seat).to_json() == b.view(seat).to_json()


def test_president_hand_order_is_seen_only_by_the_president():
    a = _replay_with(make_roles(7), "LLF LLF")
    b = _replay_with(make_roles(7), "LLF FLL")  # round 3: the president draws another order
    for seat in (0, 1, 3, 4, 5, 6, None):
        assert a.view(seat).to_json() == b.view(seat).to_json()
    assert a.view(2).to_json() != b.view(2).to_json()


@pytest.mark.parametrize("players", [5, 7, 10])
def test_the_view_carries_the_derived_rule_facts(players):
    """What bots, clients and the encoder would otherwise recompute is in the view: the
    policies each side still needs, chaos's step, whether the Hitler zone is on, and the rules
    resolved for the table size (the board and the fascists as this table plays them)."""
    zone_seen = {False: 0, True: 0}
    for seed in range(20):
        game = Game(players, "forum" if seed % 2 else "official", seed=seed)
        rng = random.Random(seed)
        while not game.finished:
            view = game.view(rng.randrange(players))
            assert view.liberal_to_win == 5 - view.liberal_policies
            assert view.fascist_to_win == 6 - view.fascist_policies
            assert view.chaos_at == 3
            assert view.hitler_zone_active == (view.fascist_policies >= view.hitler_zone)
            zone_seen[view.hitler_zone_active] += 1
            assert list(view.rules["powers"]) == list(view.board)
            assert view.rules["fascists"] == game.rules.fascist_count(players)
            assert view.rules["hitler_knows_fascists"] == (players <= 6)
            seat = rng.choice(list(game.to_act()))
            game.apply(rng.choice(game.legal_actions(seat)))
    assert zone_seen[True] and zone_seen[False]
