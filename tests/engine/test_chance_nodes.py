"""Chance as an engine step (engine/chance.py): a game of explicit chance stops at the deal, the
first president, the deck and each reshuffle until an outcome is applied like an action, and a
record's fixings are those outcomes, one to one both ways."""

from __future__ import annotations

import random
from math import comb

import pytest
from engine_helpers import random_action, snapshot

from secret_hitler.engine import (
    PRESETS,
    Action,
    Game,
    GameError,
    IllegalAction,
    Role,
    Rules,
    replay,
)
from secret_hitler.engine.chance import (
    DEAL,
    DECK,
    FIRST_PRESIDENT,
    RESHUFFLE,
    Chance,
    fixings_of,
    outcomes_of,
)

FIXINGS = ("roles", "first_president", "deck", "reshuffles")


def _seeded_games(preset: str, count: int = 3) -> list[Game]:
    """Seeded games of ``preset`` played to the end at random, several table sizes, claims too."""
    games = []
    for i in range(count):
        players = 5 + (3 * i + len(preset)) % 6
        game = Game(players, preset, 1000 + i)
        rng = random.Random(i)
        while not game.finished:
            game.apply(random_action(game, rng, claim_prob=0.2))
        games.append(game)
    return games


def _chance_node_is_quiet(game: Game) -> None:
    """At a chance node nobody acts: no seat is waited for, none has an action (claims neither),
    and a player's action is refused, changing nothing."""
    assert game.is_chance_node() and game.to_act() == []
    assert all(game.legal_actions(s) == [] for s in range(game.n))
    if not game.started:
        return
    before = snapshot(game)
    action = Action.nominate(game.candidate, (game.candidate + 1) % game.n)
    assert not game.is_legal(action)
    with pytest.raises(IllegalAction) as refused:
        game.apply(action)
    assert refused.value.code == "chance_pending"
    assert snapshot(game) == before


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_outcomes_applied_explicitly_replay_a_seeded_game_and_are_its_fixings(
    preset: str,
) -> None:
    reshuffles = 0
    for seeded in _seeded_games(preset):
        record = seeded.to_record()
        reshuffles += len(record["reshuffles"])
        outcomes = outcomes_of(record)
        # a record's fixings are exactly the game's chance outcomes, in order, and back
        assert outcomes == list(seeded.chance_history)
        assert fixings_of(outcomes) == {k: record[k] for k in FIXINGS}
        game = Game(seeded.names or seeded.n, preset, chance="explicit")
        met, actions = [], iter(seeded.actions)
        while not game.finished:
            node = game.chance_node
            if node is None:
                game.apply(next(actions))
                continue
            _chance_node_is_quiet(game)
            outcome = outcomes[len(met)]
            assert node.type == outcome.type and outcome in node.outcomes
            assert node.outcomes[node.outcomes.index(outcome)] == outcome
            met.append(outcome)
            game.apply(outcome)
        assert met == outcomes and next(actions, None) is None
        assert game.to_record() == {k: v for k, v in record.items() if k != "seed"}
        assert [e.to_json(with_audience=True) for e in game.events] == [
            e.to_json(with_audience=True) for e in seeded.events
        ]
    assert reshuffles > 0  # reshuffles were met mid-game, not only the start


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_games_of_random_chance_outcomes_end_and_replay_as_records(preset: str) -> None:
    rng = random.Random(7)
    reshuffled = 0
    for players in range(5, 11):
        game = Game(players, preset, chance="explicit")
        kinds = []
        while not game.finished:
            node = game.chance_node
            if node is not None:
                kinds.append(node.type)
                game.apply(node.outcomes[rng.randrange(len(node.outcomes))])
            else:
                game.apply(random_action(game, rng))
        assert kinds[:3] == [DEAL, FIRST_PRESIDENT, DECK]
        assert kinds[3:] == [RESHUFFLE] * len(game.reshuffles)
        reshuffled += len(game.reshuffles)
        result = replay(game.to_record())
        assert result.ok and result.game is not None
        assert result.game.events == game.events
    assert reshuffled > 0


def test_a_reshuffle_stops_every_kind_of_transition_which_then_carries_on() -> None:
    """A reshuffle comes after an enactment, after a consented veto, after the chaos of a failed
    election and after the chaos of a veto; each stops there, and once the pile comes the game
    goes on as the same game with that pile fixed does."""
    rng = random.Random(5)
    met: set[tuple[str, bool]] = set()
    wanted = {("enact", False), ("veto_response", False), ("vote", True), ("veto_response", True)}
    for _ in range(600):
        game = Game(7, "official", chance="explicit")
        while not game.finished:
            node = game.chance_node
            if node is None:
                game.apply(random_action(game, rng))
                continue
            if node.type == RESHUFFLE:  # the phase it stopped in, and whether after chaos
                last = game.events[-1]
                met.add((game.phase.value, last.type == "enacted" and last.data["chaos"]))
            game.apply(node.outcomes[rng.randrange(len(node.outcomes))])
        fixed = Game(7, "official", **{k: v for k, v in game.to_record().items() if k in FIXINGS})
        for action in game.actions:
            fixed.apply(action)
        assert fixed.events == game.events
        if wanted <= met:
            break
    assert wanted <= met


def test_each_node_lists_every_distinct_outcome_once_equally_likely() -> None:
    official = Rules.from_json("official")
    for players, deals in ((5, 5 * 4), (7, 7 * comb(6, 2)), (10, 10 * comb(9, 3))):
        game = Game(players, official, chance="explicit")
        node = game.chance_node
        assert node is not None and node.type == DEAL and len(node.outcomes) == deals
        listed = [o.roles for o in node.outcomes]
        assert len(set(listed)) == deals
        assert all(o.count(Role.HITLER) == 1 for o in listed)
        assert [node.outcomes.index(o) for o in node.outcomes] == list(range(deals))
        chances = game.chance_outcomes()
        assert [o for o, _ in chances] == list(node.outcomes)
        assert sum(p for _, p in chances) == pytest.approx(1.0)
        assert {p for _, p in chances} == {node.probability}
    game.apply(node.outcomes[0])
    first = game.chance_node
    assert first is not None and [o.president for o in first.outcomes] == list(range(10))
    game.apply(first.outcomes[4])
    deck = game.chance_node
    assert deck is not None and len(deck.outcomes) == comb(17, 6)
    piles = {deck.outcomes[i].policies for i in range(0, comb(17, 6), 97)}
    assert len(piles) == len(range(0, comb(17, 6), 97))
    game.apply(deck.outcomes[-1])
    assert game.started and game.candidate == 4 and not game.is_chance_node()
    # the forum preset starts with the first seat: its node has that one outcome
    forum = Game(7, "forum", chance="explicit")
    forum.apply(forum.chance_outcomes()[0][0])
    assert [(o.president, p) for o, p in forum.chance_outcomes()] == [(0, 1.0)]


def test_an_outcome_the_node_does_not_have_is_refused_and_changes_nothing() -> None:
    game = Game(7, "official", chance="explicit")
    wrong = [
        Chance.first_president(0),  # not this node's kind
        Chance.deal(["liberal"] * 7),  # no Hitler
        Chance.deal(["hitler", "fascist", "liberal", "liberal", "liberal"]),  # five seats
    ]
    for outcome in wrong:
        assert not game.is_legal(outcome)
        with pytest.raises(IllegalAction) as refused:
            game.apply(outcome)
        assert refused.value.code == "invalid_chance"
        assert game.chance_node is not None and game.chance_node.type == DEAL
    seeded = Game(7, "official", 3)
    with pytest.raises(IllegalAction) as refused:
        seeded.apply(Chance.reshuffle(["liberal"] * 3))
    assert refused.value.code == "no_chance"
    assert not seeded.is_legal(Chance.first_president(0))
    with pytest.raises(ValueError):
        Game(7, "official", 3, chance="explicit")  # explicit chance draws nothing: no seed
    with pytest.raises(ValueError):
        Game(7, "official", chance="dice")


def test_fixings_decide_their_nodes_and_the_rest_wait() -> None:
    seeded = Game(7, "official", 11)
    rng = random.Random(11)
    while not seeded.finished:
        seeded.apply(random_action(seeded, rng))
    record = seeded.to_record()
    assert record["reshuffles"], "the test needs a game with a reshuffle"
    start = {k: record[k] for k in ("roles", "first_president", "deck")}
    # the start fixed, the reshuffles not: the game starts at once and waits at the first
    game = Game(7, "official", chance="explicit", **start)
    assert game.started and game.roles == seeded.roles
    actions = iter(seeded.actions)
    while not game.is_chance_node():
        game.apply(next(actions))
    assert game.chance_node is not None and game.chance_node.type == RESHUFFLE
    assert game.chance_history == seeded.chance_history[:3]
    # every fixing given: no node at all, the seeded game again
    fixed = Game(7, "official", chance="explicit", **{k: record[k] for k in FIXINGS})
    for action in seeded.actions:
        assert not fixed.is_chance_node()
        fixed.apply(action)
    assert fixed.events == seeded.events
    # the deal left to chance, the deck fixed: the nodes of the deal and the first president
    partial = Game(7, "official", chance="explicit", deck=record["deck"])
    assert partial.chance_node is not None and partial.chance_node.type == DEAL
    partial.apply(Chance.deal(record["roles"]))
    partial.apply(Chance.first_president(record["first_president"]))
    assert partial.started and list(partial.initial_deck) == list(seeded.initial_deck)


def test_a_copy_at_a_chance_node_goes_its_own_way() -> None:
    game = Game(5, "official", chance="explicit")
    for _ in range(3):
        node = game.chance_node
        assert node is not None
        game.apply(node.outcomes[0])
    rng = random.Random(2)
    while not game.is_chance_node():
        game.apply(random_action(game, rng))
    other = game.clone()
    node = game.chance_node
    assert node is not None and node.type == RESHUFFLE
    game.apply(node.outcomes[0])
    other.apply(node.outcomes[-1])
    assert game.reshuffles[-1] != other.reshuffles[-1]
    assert game.to_record()["actions"] == other.to_record()["actions"]


def test_no_view_and_no_record_before_the_deal() -> None:
    game = Game(6, "official", chance="explicit")
    assert not game.started and game.chance_history == ()
    with pytest.raises(GameError, match="before the deal"):
        game.view(0)
    with pytest.raises(GameError, match="before the deal"):
        game.to_record()
