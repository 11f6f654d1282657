"""secrethitler.io's game types (docs/game-types.md) under the engine's general checks, for every
game type and every player count it can be played at: random games keep every invariant, end,
and replay from their records (and from their chance outcomes); every seat's and the
spectator's view at every step is the from-scratch reference (tests/engine/reference_view.py,
which writes what each role is shown again from the specification); and the property tests of
the presets run over the game types too: what a seat has not observed changes nothing it
receives (views and folds), folds read from a seat's log are its view, illegal actions change
nothing, undo puts everything back."""

from __future__ import annotations

import random

import pytest
from engine_helpers import random_action, snapshot
from game_types import NAMES, TABLES, counts_of, rules_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_view import reference_view
from test_properties import (
    Model,
    canonical,
    check_end,
    check_state,
    check_view_depends_only_on_what_the_seat_has_observed,
    random_probe,
)
from test_seat import (
    check_each_seats_fold_is_what_its_own_log_tells_it,
    check_what_a_seat_has_not_observed_changes_nothing_in_its_fold,
)

from secret_hitler.engine import Game, IllegalAction, game_from_record, replay
from secret_hitler.engine.view import FIELDS, SEAT_FIELDS

_checks = [HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large]
seeds = st.integers(min_value=0, max_value=2**32 - 1)
choices = st.randoms(use_true_random=True)


@st.composite
def tables(draw: st.DrawFn) -> tuple[str, int]:
    """A game type and a player count it can be played at."""
    name = draw(st.sampled_from(NAMES))
    return name, draw(st.sampled_from(counts_of(name)))


@pytest.mark.parametrize(("game_type", "n"), TABLES)
def test_random_games_end_replay_and_show_each_seat_the_reference_view(
    game_type: str, n: int
) -> None:
    """Two seeded random games per table: the invariants after every action, each seat's and
    the spectator's view at every step equal to the reference, a winner, and a record that
    replays to the same log (from its fixings, and from its chance outcomes applied one by
    one)."""
    rules = rules_of(game_type)
    for seed in range(2):
        game = Game(n, rules, seed)
        rng = random.Random(seed)
        model = Model(game)
        steps = 0
        while True:
            check_state(game, model)
            if steps % 3 == 0 or game.finished:  # every view of every third step
                for seat in [*range(n), None]:
                    assert game.view(seat).to_json() == reference_view(game, seat), (steps, seat)
            if game.finished:
                break
            game.apply(random_action(game, rng, claim_prob=0.2))
            steps += 1
        check_end(game)
        record = game.to_record()
        result = replay(record)
        assert result.ok and result.game is not None
        assert result.game.events == game.events
        explicit = Game(n, rules, chance="explicit")
        outcomes = list(game.chance_history)
        actions = iter(game.actions)
        while not explicit.finished:
            explicit.apply(outcomes.pop(0) if explicit.is_chance_node() else next(actions))
        assert explicit.events == game.events and not outcomes


@pytest.mark.parametrize("game_type", NAMES)
def test_fields_outside_seat_fields_are_the_same_for_every_seat(game_type: str) -> None:
    rng = random.Random(3)
    for n in counts_of(game_type)[::2]:
        game = Game(n, rules_of(game_type), seed=n)
        while not game.finished:
            spectator = game.view(None).to_json()
            for seat in range(n):
                mine = game.view(seat).to_json()
                for name in FIELDS:
                    if name not in SEAT_FIELDS:
                        assert mine[name] == spectator[name], (name, seat)
            game.apply(random_action(game, rng, claim_prob=0.2))


@settings(max_examples=40, deadline=None, suppress_health_check=_checks)
@given(table=tables(), seed=seeds, rng=choices, observer=st.integers(0, 9))
def test_a_view_depends_only_on_what_the_seat_has_observed(
    table: tuple[str, int], seed: int, rng: random.Random, observer: int
) -> None:
    """Merlin's fascists, Percival's pair, a teammate shown by party, the Monarchist's blind spot
    for Hitler, Hitler's sight at the assassination: whatever a seat was not shown may be dealt
    otherwise, and its view stays the same at every step."""
    name, n = table
    check_view_depends_only_on_what_the_seat_has_observed(
        rules_of(name), n, seed, rng, observer % n
    )


@settings(max_examples=20, deadline=None, suppress_health_check=_checks)
@given(table=tables(), seed=seeds, rng=choices, observer=st.integers(0, 9))
def test_what_a_seat_has_not_observed_changes_nothing_in_its_fold(
    table: tuple[str, int], seed: int, rng: random.Random, observer: int
) -> None:
    name, n = table
    check_what_a_seat_has_not_observed_changes_nothing_in_its_fold(
        rules_of(name), n, seed, rng, observer % n
    )


@settings(max_examples=20, deadline=None, suppress_health_check=_checks)
@given(table=tables(), seed=seeds, rng=choices)
def test_each_seats_fold_is_what_its_own_log_tells_it(
    table: tuple[str, int], seed: int, rng: random.Random
) -> None:
    name, n = table
    check_each_seats_fold_is_what_its_own_log_tells_it(rules_of(name), n, seed, rng)


@settings(max_examples=30, deadline=None, suppress_health_check=_checks)
@given(table=tables(), seed=seeds, rng=choices)
def test_random_illegal_actions_are_refused_and_change_nothing(
    table: tuple[str, int], seed: int, rng: random.Random
) -> None:
    """Probes of every action type (the assassination's too) at random moments, more often at
    the assassination: each is legal exactly when ``legal_actions`` offers it, and a refused one
    changes nothing."""
    name, n = table
    game = Game(n, rules_of(name), seed)
    probes = 0
    while True:
        if game.finished or game.phase.value == "assassinate" or rng.random() < 0.06:
            before = snapshot(game)
            legal = {a for s in range(n) for a in game.legal_actions(s)}
            for _ in range(8):
                action = random_probe(game, rng)
                if canonical(action) in legal:
                    assert game.is_legal(action)
                    continue
                assert not game.is_legal(action), action
                with pytest.raises(IllegalAction) as info:
                    game.apply(action)
                assert info.value.code and info.value.message
                probes += 1
            assert snapshot(game) == before
        if game.finished:
            break
        game.apply(random_action(game, rng, claim_prob=0.1))
    assert probes > 0


@settings(max_examples=15, deadline=None, suppress_health_check=_checks)
@given(table=tables(), seed=seeds, rng=choices)
def test_a_popped_step_leaves_the_game_as_it_was(
    table: tuple[str, int], seed: int, rng: random.Random
) -> None:
    """Undo across the game types' own steps (the assassination, a top-deck that ends the game,
    the Monarchist's winners): pop gives back exactly the game before."""
    name, n = table
    game = Game(n, rules_of(name), seed)
    while not game.finished:
        before = snapshot(game, whole_logs=False)
        action = random_action(game, rng, claim_prob=0.3)
        game.push(action)
        assert game.pop() is action
        assert snapshot(game, whole_logs=False) == before
        game.apply(action)
    assert game_from_record(game.to_record()).events == game.events
