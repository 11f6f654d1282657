"""What a seat knows (engine/seat.py), claim truth (engine/claims.py), the open claim windows
of the public fold (engine/public.py) and the speech rule (engine/speech.py).

The property tests play random legal games of every preset at 5-10 seats and check, after
every action, each seat's fold against a from-scratch reading of its own log, the views, the
game's claim windows and the speech rule; the scripted ones pin known cases.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from engine_helpers import F, L, govern, new_game, random_action
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from reference_view import PARTY
from test_properties import unseen_deck, unseen_roles

from secret_hitler.engine import PRESETS, Action, Game, claims, speech
from secret_hitler.engine.actions import CLAIM_INVESTIGATION, CLAIM_SUBJECTS
from secret_hitler.engine.public import PublicState
from secret_hitler.engine.seat import Hand, Peek, SeatState

_checks = [HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large]
examples = settings(max_examples=50, deadline=None, suppress_health_check=_checks)
presets = st.sampled_from(list(PRESETS))
counts = st.sampled_from(list(range(5, 11)))
seeds = st.integers(min_value=0, max_value=2**32 - 1)
choices = st.randoms(use_true_random=True)

_LEGISLATIVE = ("discard", "enact", "veto_response")


# ============================================================================ a seat's log
def derived(seat: int | None, events: Any, n: int) -> dict[str, Any]:
    """What a seat can tell from its own log, read the plainest way: role and party, the roles
    it knows, per session what it held, its peeks (the sessions begun before each), the parties
    it found."""
    role = party = None
    known: list[str | None] = [None] * n
    parties: list[str | None] = [None] * n
    candidates = None
    hands: dict[int, dict[str, Any]] = {}
    peeks: list[tuple[int, tuple[str, ...]]] = []
    found: list[tuple[int, str]] = []
    sessions = 0
    for e in events:
        kind = e["type"]
        if kind == "role":
            role, party = e["role"], e["party"]
            known[e["seat"]] = e["role"]
        elif kind == "night":
            for s, r in e["known"].items():
                known[int(s)] = r
            for s, p in (e.get("parties") or {}).items():
                parties[int(s)] = p
            if e.get("merlin_candidates") is not None:
                candidates = tuple(e["merlin_candidates"])
        elif kind == "executed" and e.get("role") is not None:
            known[e["target"]] = e["role"]
        elif kind == "assassination":
            known[e["hitler"]] = "hitler"
        elif kind == "assassin_sight":
            for s, r in e["known"].items():
                known[int(s)] = r
            for s in e["targets"]:
                parties[s] = "liberal"
        elif kind == "assassinated":
            known[e["target"]] = e["role"]
        elif kind == "game_over":
            known = list(e["roles"])
        elif kind == "legislative_session":
            sessions += 1
        elif kind in ("drew", "passed", "received"):
            hand = hands.setdefault(sessions - 1, {})
            hand[kind] = tuple(e["policies"])
            if kind == "passed":
                hand["discarded"] = e["discarded"]
        elif kind == "peek":
            peeks.append((sessions, tuple(e["policies"])))
        elif kind == "investigation":
            found.append((e["target"], e["party"]))
            parties[e["target"]] = e["party"]
    return {
        "seat": seat,
        "role": role,
        "party": party,
        "known_roles": tuple(known),
        "known_parties": tuple(
            PARTY[r] if r is not None else p for r, p in zip(known, parties, strict=True)
        ),
        "merlin_candidates": candidates,
        "hands": tuple(
            Hand(
                i,
                h.get("drew", ()),
                h.get("discarded"),
                h.get("passed", ()),
                h.get("received", ()),
            )
            for i, h in sorted(hands.items())
        ),
        "peeks": tuple(Peek(i, p) for i, p in peeks),
        "found": tuple(found),
    }


def knowledge_of(state: Any) -> dict[str, Any]:
    """A fold's ``Knowledge``, as ``derived`` gives it."""
    names = (
        "seat",
        "role",
        "party",
        "known_roles",
        "known_parties",
        "merlin_candidates",
        "hands",
        "peeks",
        "found",
    )
    return {name: getattr(state, name) for name in names}


def public_of(state: PublicState) -> dict[str, Any]:
    """A fold's public part: its attributes (``Knowledge`` lives in slots, not among them);
    sessions compare by value."""
    return dict(vars(state))


# ============================================================================ properties
@examples
@given(preset=presets, n=counts, seed=seeds, rng=choices)
def test_each_seats_fold_is_what_its_own_log_tells_it(
    preset: str, n: int, seed: int, rng: random.Random
) -> None:
    check_each_seats_fold_is_what_its_own_log_tells_it(preset, n, seed, rng)


def check_each_seats_fold_is_what_its_own_log_tells_it(
    preset: Any, n: int, seed: int, rng: random.Random
) -> None:
    """After every action, for each seat and the spectator: the incremental fold equals a
    from-scratch reading of the seat's log, its public part the spectator's fold, its
    knowledge the view's fields (role, known roles and parties, Percival's pair,
    investigations, the hand in a session; the public ones: no top-decking, the
    assassination, the winners)."""
    game = Game(n, preset, seed)
    seats: list[int | None] = [*range(n), None]
    folds = {s: SeatState(s) for s in seats}
    read = dict.fromkeys(seats, 0)
    steps = 0
    while not game.finished and steps < 400:
        game.apply(random_action(game, rng, claim_prob=0.2))
        steps += 1
        spectator = PublicState.of(game.view(None).events)
        for s in seats:
            view = game.view(s)
            fold = folds[s]
            for e in view.events[read[s] :]:
                fold.feed(e)
            read[s] = len(view.events)
            assert knowledge_of(fold) == derived(s, view.events, n), (s, steps)
            assert public_of(fold) == public_of(spectator), (s, steps)
            assert (fold.role, fold.party, fold.known_roles) == (
                view.role,
                view.party,
                view.known_roles,
            )
            assert (fold.known_parties, fold.merlin_candidates) == (
                view.known_parties,
                view.merlin_candidates,
            )
            assert fold.top_deck_forbidden == view.top_deck_forbidden
            assert fold.assassination == view.assassination and fold.winners == view.winners
            assert fold.found == view.investigations
            if view.phase in _LEGISLATIVE:
                assert fold.hand == view.hand
    note(f"{steps} actions")


@examples
@given(preset=presets, n=counts, seed=seeds, rng=choices)
def test_the_public_folds_claim_windows_are_the_games(
    preset: str, n: int, seed: int, rng: random.Random
) -> None:
    """From the public events alone, anyone can tell which claims each seat may still make:
    the public fold's windows are the game's (``open_claims``, the investigated seat) after
    every action, and of the claims offered on each open subject exactly one is true (the
    claimant's own knowledge, ``claims.is_true``)."""
    game = Game(n, preset, seed)
    table = PublicState()
    read = 0
    opened = 0
    while not game.finished:
        game.apply(random_action(game, rng, claim_prob=0.1))
        events = game.view(None).events
        for e in events[read:]:
            table.feed(e)
        read = len(events)
        for s in range(n):
            offered = [a for a in game.legal_actions(s) if a.type == "claim"]
            assert table.open_claims(s) == game.open_claims(s) == game.view(s).open_claims
            assert {a.subject for a in offered} == set(table.open_claims(s))
            investigated = {a.target for a in offered if a.subject == CLAIM_INVESTIGATION}
            assert {table.claim_target(s)} - {None} == investigated
            if offered:
                opened += 1
                knows = SeatState.of_seat(s, game.view(s).events)
                for subject in table.open_claims(s):
                    options = [a for a in offered if a.subject == subject]
                    assert sum(claims.is_true(knows, a) for a in options) == 1, (s, subject)
    assert not any(table.open_claims(s) for s in range(n))  # the end closes every window
    note(f"{opened} seats with open claims")


@examples
@given(preset=presets, n=counts, seed=seeds, rng=choices)
def test_only_the_living_speak_and_never_the_government_in_its_session(
    preset: str, n: int, seed: int, rng: random.Random
) -> None:
    """The speech rule after every action, from the game and from each seat's own view."""
    game = Game(n, preset, seed)
    silenced_government = 0
    while not game.finished:
        game.apply(random_action(game, rng, claim_prob=0.05))
        over = game.finished
        in_session = game.phase.value in _LEGISLATIVE
        assert speech.silenced(game, None) == (None if over else speech.SPECTATOR)
        for s in range(n):
            why = speech.silenced(game, s)
            assert game.view(s).may_speak == speech.may_speak(game, s) == (why is None)
            if over:
                assert why is None
            elif not game.alive[s]:
                assert why == speech.DEAD
            elif in_session and s in (game.president, game.chancellor):
                assert why == speech.LEGISLATIVE_SESSION
                silenced_government += 1
            else:
                assert why is None
    note(f"{silenced_government} silenced government seats")


@settings(max_examples=15, deadline=None, suppress_health_check=_checks)
@given(preset=presets, n=counts, seed=seeds, rng=choices, observer=st.integers(0, 9))
def test_what_a_seat_has_not_observed_changes_nothing_in_its_fold(
    preset: str, n: int, seed: int, rng: random.Random, observer: int
) -> None:
    check_what_a_seat_has_not_observed_changes_nothing_in_its_fold(
        preset, n, seed, rng, observer % n
    )


def check_what_a_seat_has_not_observed_changes_nothing_in_its_fold(
    preset: Any, n: int, seed: int, rng: random.Random, seat: int
) -> None:
    """Two games that differ only in what ``seat`` never saw (others' roles it does not know,
    policies it never held or peeked) give it the same fold at every step: the engine's own
    (the observer's ``Knowledge``) and one from its view's log."""
    original = Game(n, preset, seed)
    while not original.finished:
        original.apply(random_action(original, rng, claim_prob=0.1))
    roles = unseen_roles(original, seat, rng)
    deck, reshuffles = unseen_deck(original, seat, rng)
    fixed = {"first_president": original.first_president}
    first = Game(
        n,
        preset,
        roles=[r.value for r in original.roles],
        deck=[p.value for p in original.initial_deck],
        reshuffles=[[p.value for p in pile] for pile in original.reshuffles],
        **fixed,
    )
    other = Game(n, preset, roles=roles, deck=deck, reshuffles=reshuffles, **fixed)
    note(f"seat {seat}: roles {roles} vs {[r.value for r in original.roles]}")
    compared = 0
    for action in original.actions:
        if not other.is_legal(action):
            break  # a different hidden world allows other actions: stop here
        first.apply(action)
        other.apply(action)
        if first.finished:
            break  # the end reveals every role, which do differ
        a = SeatState.of_seat(seat, first.view(seat).events)
        b = SeatState.of_seat(seat, other.view(seat).events)
        assert knowledge_of(a) == knowledge_of(b) and public_of(a) == public_of(b)
        assert knowledge_of(first.observer._seats[seat]) == knowledge_of(a)
        assert knowledge_of(other.observer._seats[seat]) == knowledge_of(b)
        compared += 1
    assert compared > 0


def test_a_copy_of_a_seats_fold_shares_no_change() -> None:
    game = new_game(7, top="FLF LLF LLF")
    govern(game, 1, L)  # seat 0 presides
    first = len(game.view(0).events)
    govern(game, 2, L)
    govern(game, 0, L)  # seat 0 is chancellor
    events = game.view(0).events
    state = SeatState.of_seat(0, events[:first])
    copy = state.copy()
    assert isinstance(copy, SeatState) and knowledge_of(copy) == knowledge_of(state)
    for e in events[first:]:  # the copy reads on; the state stays as it was
        copy.feed(e)
    assert [h.session for h in copy.hands] == [0, 2] and copy.hands[1].received == (L, L)
    before = SeatState.of_seat(0, events[:first])
    assert knowledge_of(state) == knowledge_of(before) and public_of(state) == public_of(before)


# ============================================================================ known cases
def _claim(seat: int, subject: str, spec: str) -> Action:
    return Action.claim_policies(seat, subject, [L if c == "L" else F for c in spec])


def test_hand_claims_are_true_when_they_name_the_hand_held_in_any_order() -> None:
    game = new_game(7, top="FLF")  # president 0 draws fascist, liberal, fascist
    game.apply(Action.nominate(0, 1))
    for s in range(7):
        game.apply(Action.vote(s, True))
    game.apply(Action.discard(0, F))  # passes liberal, fascist
    game.apply(Action.enact(1, L))
    president = SeatState.of_seat(0, game.view(0).events)
    chancellor = SeatState.of_seat(1, game.view(1).events)
    assert president.hands == (Hand(0, (F, L, F), F, (L, F)),)
    assert chancellor.hands == (Hand(0, received=(L, F)),)
    assert claims.seen(president, "president_hand") == (F, L, F)
    for spec, true in (("FFL", True), ("LFF", True), ("FFF", False), ("FLL", False)):
        assert claims.is_true(president, _claim(0, "president_hand", spec)) is true
    for spec, true in (("FL", True), ("LF", True), ("FF", False), ("LL", False)):
        assert claims.is_true(chancellor, _claim(1, "chancellor_hand", spec)) is true
    # a seat that held nothing tells no truth about a hand; nor a president about a peek
    outsider = SeatState.of_seat(2, game.view(2).events)
    assert not claims.is_true(outsider, _claim(2, "president_hand", "FFL"))
    assert not claims.is_true(president, _claim(0, "chancellor_hand", "FL"))
    assert not claims.is_true(president, _claim(0, "peek", "FLF"))
    # the claim event says the same as the action it records
    game.apply(_claim(0, "president_hand", "FFF"))
    event = game.view(2).events[-1]
    assert event["type"] == "claim" and not claims.is_true(president, event)


def test_a_peek_claim_is_true_in_the_order_seen_only() -> None:
    game = new_game(5, top="FFF FFF FFF LFL")
    for chancellor in (1, 2, 3):  # three fascist policies: the third president peeks
        govern(game, chancellor, F)
    peeker = SeatState.of_seat(2, game.view(2).events)
    assert peeker.peeks == (Peek(3, (L, F, L)),)
    assert PublicState.of(game.view(None).events).open_claims(2) == ("president_hand", "peek")
    assert claims.is_true(peeker, _claim(2, "peek", "LFL"))
    assert not claims.is_true(peeker, _claim(2, "peek", "LLF"))  # same policies, wrong order
    assert not claims.is_true(peeker, _claim(2, "peek", "FFF"))


def test_an_investigation_claim_is_true_when_it_names_the_party_found() -> None:
    game = new_game(7, top="FFF FFF")  # seat 5 is a fascist (engine_helpers.make_roles)
    govern(game, 1, F)
    govern(game, 2, F)  # the second fascist policy: president 1 investigates
    game.apply(Action.investigate(1, 5))
    table = PublicState.of(game.view(None).events)
    assert table.open_claims(1) == ("president_hand", "investigation")
    assert table.claim_target(1) == 5
    investigator = SeatState.of_seat(1, game.view(1).events)
    assert investigator.found == ((5, "fascist"),)
    assert claims.is_true(investigator, Action.claim_investigation(1, 5, "fascist"))
    assert not claims.is_true(investigator, Action.claim_investigation(1, 5, "liberal"))
    assert not claims.is_true(investigator, Action.claim_investigation(1, 4, "fascist"))
    game.apply(Action.claim_investigation(1, 5, "liberal"))  # a lie closes the window too
    assert PublicState.of(game.view(None).events).open_claims(1) == ("president_hand",)


def test_the_government_is_silent_through_its_session_and_the_dead_for_good() -> None:
    game = new_game(5, top="FFF FFF FFF LFF")
    govern(game, 1, F)
    govern(game, 2, F)
    govern(game, 3, F)  # a peek: nothing to choose
    game.apply(Action.nominate(3, 0))
    for s in range(5):
        game.apply(Action.vote(s, True))
    assert game.phase.value == "discard"
    assert [speech.silenced(game, s) for s in range(5)] == [
        speech.LEGISLATIVE_SESSION,
        None,
        None,
        speech.LEGISLATIVE_SESSION,
        None,
    ]
    assert not game.view(3).may_speak and game.view(1).may_speak
    game.apply(Action.discard(3, L))
    assert game.phase.value == "enact" and not speech.may_speak(game, 0)
    game.apply(Action.enact(0, F))  # the fourth fascist policy: president 3 executes
    assert all(speech.may_speak(game, s) for s in range(5))  # the session is over
    game.apply(Action.execute(3, 1))
    assert speech.silenced(game, 1) == speech.DEAD and not game.view(1).may_speak
    assert speech.silenced(game, None) == speech.SPECTATOR


@pytest.mark.parametrize("subject", CLAIM_SUBJECTS)
def test_without_knowledge_no_claim_is_true(subject: str) -> None:
    nobody = SeatState(0, 7)
    claim = (
        Action.claim_investigation(0, 3, "liberal")
        if subject == CLAIM_INVESTIGATION
        else _claim(0, subject, "FFF" if subject != "chancellor_hand" else "FF")
    )
    assert not claims.is_true(nobody, claim) and claims.seen(nobody, subject) == ()
