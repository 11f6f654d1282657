"""Typed events and the fold of the public state (engine/events.py, engine/public.py)."""

from __future__ import annotations

import json
import random

import pytest
from engine_helpers import play_random, random_action

from secret_hitler.engine import PRESETS, Game
from secret_hitler.engine.events import EVENT_TYPES, PRIVATE_EVENT_TYPES, TypedEvent, typed
from secret_hitler.engine.public import PublicState, public_states

CASES = [(preset, n) for preset in PRESETS for n in range(5, 11)]


def _games(preset: str, n: int, count: int = 3) -> list[Game]:
    return [play_random(Game(n, preset, seed), random.Random(seed)) for seed in range(count)]


@pytest.mark.parametrize(("preset", "n"), CASES)
def test_every_event_is_its_kinds_type_with_its_fields_in_order(preset: str, n: int) -> None:
    for game in _games(preset, n):
        for e in game.events:
            t = e.json
            cls = EVENT_TYPES[e.type]
            assert type(t) is cls and t.kind == e.type == t["type"]
            assert cls.private == (e.type in PRIVATE_EVENT_TYPES)
            if cls.private:
                assert e.audience is not None
            # the JSON's keys are the kind's fields in order, less optional ones left out
            keys = list(t)[1:]
            assert keys == [f for f in cls.FIELDS if f in e.data]
            assert set(cls.FIELDS) - set(keys) <= cls.OPTIONAL
            for name in cls.FIELDS:
                assert getattr(t, name) == e.data.get(name)
            assert json.dumps(t) == json.dumps({"type": e.type, **e.data})
            assert typed(e.to_json()) == t and type(typed(e.to_json())) is cls


def test_a_typed_event_is_read_only_and_survives_a_pickled_view() -> None:
    import pickle

    game = play_random(Game(7, "official", 3), random.Random(3))
    view = game.view(2)
    e = view.events[0]
    with pytest.raises(TypeError):
        e["type"] = "x"  # type: ignore[index]
    again = pickle.loads(pickle.dumps(view))
    assert [type(x) for x in again.events] == [type(x) for x in view.events]
    assert again == view
    assert isinstance(e, TypedEvent)
    with pytest.raises(KeyError):
        typed({"type": "nonsense"})


def _snapshot(state: PublicState) -> dict[str, object]:
    return dict(vars(state))


@pytest.mark.parametrize(("preset", "n"), CASES)
def test_the_fold_is_the_public_state_after_every_event(preset: str, n: int) -> None:
    """Incremental, it equals a fold of the same events from scratch after every event, what
    the spectator's view shows after every action, and the fold of any seat's own log."""
    for seed in range(3):
        game = Game(n, preset, seed)
        rng = random.Random(seed)
        state = PublicState()
        read = 0
        while True:
            for e in game.events[read:]:
                state.feed(e.json)
            read = len(game.events)
            assert _snapshot(state) == _snapshot(PublicState.of(e.json for e in game.events))
            view = game.view(None)
            assert state.alive == view.alive
            assert state.living == sum(view.alive)
            assert (state.liberal, state.fascist) == (view.liberal_policies, view.fascist_policies)
            assert state.tracker == view.election_tracker
            assert (state.draw_pile, state.discard_pile) == (view.draw_pile, view.discard_pile)
            assert state.round == view.round
            assert (state.president, state.chancellor) == (view.president, view.chancellor)
            assert state.not_hitler == view.not_hitler
            assert state.proven_not_hitler == view.proven_not_hitler
            assert state.investigated == view.investigated
            assert sorted(t for _, t in state.investigations) == [
                s for s, x in enumerate(view.investigated) if x
            ]
            assert (state.winner, state.reason) == (view.winner, view.reason)
            assert state.hitler_zone_active == view.hitler_zone_active
            assert state.liberal_to_win == view.liberal_to_win
            assert state.fascist_to_win == view.fascist_to_win
            assert state.chaos_at == view.chaos_at
            if not game.finished:
                assert state.candidate == view.candidate
                assert state.nominee == view.nominee
                if view.phase == "nominate":
                    assert state.eligible == view.eligible
            if view.phase not in ("vote", "game_over") and any(v is not None for v in view.votes):
                assert state.votes == view.votes
            if view.phase in ("discard", "enact", "veto_response"):
                assert state.session is not None
                assert (state.session.president, state.session.chancellor) == (
                    view.president,
                    view.chancellor,
                )
                if view.veto_proposed or view.veto_refused:  # open, or answered no
                    assert state.session.veto_proposed and not state.session.vetoed
            for seat in game.claimants():  # the open session is the one the engine takes claims of
                subjects = game.open_claims(seat)
                if "president_hand" in subjects:
                    assert state.session is not None and state.session.president == seat
                if "chancellor_hand" in subjects:
                    assert state.session is not None and state.session.chancellor == seat
            lib, fas = state.unenacted
            assert lib + fas == state.draw_pile + state.discard_pile + len(game.hand)
            if game.finished:
                break
            game.apply(random_action(game, rng, claim_prob=0.3))
        for seat in range(n):
            assert _snapshot(PublicState.of(game.view(seat).events)) == _snapshot(state)


def test_sessions_keep_their_outcome_and_claims_and_copies_share_no_change() -> None:
    game = play_random(Game(7, "official", 11), random.Random(11), claim_prob=1.0)
    states = list(public_states(e.json for e in game.events))
    final = states[-1]
    assert final.sessions, "a game has legislative sessions"
    enacted = [e.json for e in game.events if e.type == "enacted" and not e.data["chaos"]]
    assert [s.enacted for s in final.sessions if not s.vetoed] == [e.policy for e in enacted]
    claims = [e.json for e in game.events if e.type == "claim"]
    assert [c for s in final.sessions for c in s.claims] == claims
    # every election with its nomination and votes; each session knows the votes that elected it
    nominations = [e.json for e in game.events if e.type == "nominated"]
    votes = [e.json for e in game.events if e.type == "votes"]
    assert [(x.president, x.chancellor, list(x.votes), x.passed) for x in final.elections] == [
        (n.president, n.chancellor, v.votes, v.passed)
        for n, v in zip(nominations, votes, strict=True)
    ]
    passed = [x for x in final.elections if x.passed]
    assert [(s.president, s.chancellor, s.votes) for s in final.sessions] == [
        (x.president, x.chancellor, x.votes) for x in passed[: len(final.sessions)]
    ]
    for s in final.sessions:
        for c in s.claims:
            if c.subject == "president_hand" and c.seat == s.president:
                assert s.president_claim == list(c.policies or ()).count("liberal")
    # every state is its own: a later event never changed an earlier one
    again = list(public_states(e.json for e in game.events))
    assert [_snapshot(s) for s in again] == [_snapshot(s) for s in states]
    before = _snapshot(final)
    copy = final.copy()
    copy.feed(typed({"type": "executed", "president": 0, "target": 1}))
    copy.feed(typed({"type": "tracker", "value": 2}))
    assert (copy.tracker, copy.alive[1]) == (2, False)
    assert _snapshot(final) == before
    # the open session too: a claim fed to a copy is the copy's alone
    opened = next(st for st in states if st.session is not None)
    kept = _snapshot(opened) | {"session": opened.session.copy()}  # type: ignore[union-attr]
    other = opened.copy()
    pres = opened.session.president  # type: ignore[union-attr]
    claim = {"type": "claim", "seat": pres, "subject": "president_hand"}
    other.feed(typed({**claim, "policies": ["liberal", "liberal", "liberal"]}))
    assert other.session is not None and other.session.president_claim == 3
    assert _snapshot(opened) == kept
