"""Undo (python-chess's push/pop): ``pop`` puts the game back exactly as it was before the last
``push``, whatever the step did (a reshuffle drawn from the seed or taken from the fixings, a
claim window opened or closed, the end of the game), and across chance nodes too."""

from __future__ import annotations

import random

import pytest
from engine_helpers import random_action, snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from secret_hitler.engine import PRESETS, Action, Game, IllegalAction, game_from_record
from secret_hitler.engine.chance import Chance

_checks = [HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large]
few = settings(max_examples=12, deadline=None, suppress_health_check=_checks)

presets = st.sampled_from(sorted(PRESETS))
counts = st.integers(min_value=5, max_value=10)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
choices = st.randoms(use_true_random=True)


def _next_step(game: Game, rng: random.Random) -> Action | Chance:
    node = game.chance_node
    if node is not None:
        return node.outcomes[rng.randrange(len(node.outcomes))]
    return random_action(game, rng, claim_prob=0.3)


@given(preset=presets, players=counts, seed=seeds, rng=choices)
@few
def test_a_popped_step_leaves_the_game_as_it_was(
    preset: str, players: int, seed: int, rng: random.Random
) -> None:
    """At every step of a seeded game: push a random legal action, pop it, and every seat's
    view, the legal actions, the log and the record are as before; the action applied again
    gives what a copy that never undid it gives (the seed's generator and the fixings left are
    back where they were too)."""
    game = Game(players, preset, seed)
    while not game.finished:
        before = snapshot(game, whole_logs=False)
        action = random_action(game, rng, claim_prob=0.3)
        untouched = game.clone()
        game.push(action)
        assert game.pop() is action
        assert snapshot(game, whole_logs=False) == before
        untouched.apply(action)
        game.apply(action)
        assert game.events == untouched.events
        assert game.to_record() == untouched.to_record()


@given(preset=presets, players=counts, rng=choices)
@few
def test_undo_goes_back_across_chance_nodes_to_before_the_deal(
    preset: str, players: int, rng: random.Random
) -> None:
    """A game of explicit chance, pushed step by step (outcomes and actions) to its end and
    popped all the way back: each pop finds the state the step was pushed in, the chance nodes
    and their outcomes included, down to the deal's node."""
    game = Game(players, preset, chance="explicit")
    seen = []
    while not game.finished:
        seen.append((snapshot(game, whole_logs=False) if game.started else None, game.chance_node))
        game.push(_next_step(game, rng))
    assert game.reshuffles or len(seen) > 3
    while seen:
        state, node = seen.pop()
        game.pop()
        assert game.chance_node == node
        if state is not None:
            assert snapshot(game, whole_logs=False) == state
    assert not game.started and game.chance_history == ()
    with pytest.raises(IndexError):
        game.pop()


def test_a_pop_undoes_a_fixed_reshuffle_and_the_next_push_takes_it_again() -> None:
    seeded = Game(7, "official", 4)
    rng = random.Random(4)
    while not seeded.reshuffles:
        seeded.apply(random_action(seeded, rng))
    # the record replays up to the action that reshuffled, with its reshuffles fixed
    record = seeded.to_record()
    *played, last = record["actions"]
    game = game_from_record({**record, "actions": played})
    action = seeded.actions[-1]
    before = snapshot(game, whole_logs=False)
    game.push(action)
    assert game.reshuffles == seeded.reshuffles
    game.pop()
    assert snapshot(game, whole_logs=False) == before and game.reshuffles == []
    game.push(action)
    assert game.reshuffles == seeded.reshuffles and game.events == seeded.events


def test_views_handed_out_before_a_pop_keep_what_they_showed() -> None:
    game = Game(7, "official", 9)
    seat = game.to_act()[0]
    game.push(game.legal_actions(seat)[0])
    after = game.view(seat)  # not yet read: filled when the game changes
    expected = game.clone().view(seat).to_json()
    game.pop()
    assert after.to_json() == expected
    assert game.view(seat).to_json() != expected


def test_an_illegal_push_changes_nothing_and_is_not_on_the_stack() -> None:
    game = Game(5, "official", 1)
    seat = game.to_act()[0]
    legal = game.legal_actions(seat)[0]
    game.push(legal)
    before = snapshot(game, whole_logs=False)
    with pytest.raises(IllegalAction):
        game.push(legal)  # the nomination is over
    assert snapshot(game, whole_logs=False) == before
    assert game.pop() is legal
    with pytest.raises(IndexError):
        game.pop()


def test_a_cleared_stack_keeps_the_steps_and_forgets_their_undo() -> None:
    game = Game(5, "official", 2)
    seat = game.to_act()[0]
    action = game.legal_actions(seat)[0]
    game.push(action)
    game.clear_stack()
    assert game.actions == [action]
    with pytest.raises(IndexError):
        game.pop()
    assert game.clone().actions == [action]
