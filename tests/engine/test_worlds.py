"""Hidden worlds sampled from one seat's information (engine/worlds.py): the seat's view in a
sampled world is its real view."""

from __future__ import annotations

import random

import pytest
from engine_helpers import random_action

from secret_hitler.engine import PRESETS, Game
from secret_hitler.engine.worlds import WorldError, sample_world

#: What an open election shows differently in a world: the other voters' hidden ballots are
#: not replayed (whoever plays the world on casts them).
ELECTION = ("to_act", "voted", "votes", "events")


def _same_view(real: dict, world: dict, voting: bool) -> None:
    for name, value in real.items():
        if voting and name in ELECTION:
            continue
        assert world[name] == value, name
    if voting:  # the log too, but the notices of ballots cast in the open election
        seen = [e for e in real["events"] if e["type"] != "voted"]
        assert [e for e in world["events"] if e["type"] != "voted"] == seen


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_sampled_world_shows_the_seat_its_own_view(preset: str) -> None:
    built = failed = 0
    for players in range(5, 11):
        for seed in range(3):
            game = Game(players, preset, seed)
            rng = random.Random(seed)
            sample_rng = random.Random(1000 + seed)
            roles = [r.value for r in game.roles]
            step = 0
            while not game.finished:
                step += 1
                if step % 4 == 0:
                    seat = rng.choice(game.to_act())
                    view = game.view(seat)
                    try:
                        world = sample_world(view, roles, sample_rng)
                    except WorldError:  # an unlucky deck sample: a caller draws again
                        failed += 1
                    else:
                        built += 1
                        voting = view.phase == "vote"
                        _same_view(view.to_json(), world.view(seat).to_json(), voting)
                        assert world.legal_actions(seat) == game.legal_actions(seat)
                game.apply(random_action(game, rng, claim_prob=0.3))
    assert built > 200
    assert failed <= 0.1 * (built + failed)


def test_roles_the_seat_knows_otherwise_are_refused() -> None:
    # a table whose first candidate is a fascist, who knows the team (a decision of his)
    game = next(
        g
        for g in map(lambda s: Game(7, "official", s), range(50))
        if g.roles[g.candidate].value == "fascist"
    )
    fascist = game.candidate
    view = game.view(fascist)
    roles = [r.value for r in game.roles]
    hitler = roles.index("hitler")
    swapped = list(roles)
    swapped[hitler], swapped[fascist] = swapped[fascist], swapped[hitler]
    with pytest.raises(WorldError, match="known"):
        sample_world(view, swapped, random.Random(0))
    with pytest.raises(ValueError):
        sample_world(view, roles[:-1], random.Random(0))
    assert sample_world(view, roles, random.Random(0)).roles == game.roles


def test_a_world_of_explicit_chance_stops_at_its_next_reshuffle() -> None:
    """Under ``chance="explicit"`` a world shows the seat its view as a seeded one does, and
    stops at its next reshuffle for the pile instead of drawing it: here the chancellor's
    enactment, with fewer than three policies left to draw."""
    game = Game(7, "official", 5)
    rng = random.Random(5)
    while not (game.phase.value == "enact" and game.draw_pile < 3):
        game.apply(random_action(game, rng, claim_prob=0.0))
    chancellor = game.chancellor
    assert chancellor is not None
    view = game.view(chancellor)
    roles = [r.value for r in game.roles]
    world = sample_world(view, roles, random.Random(1), chance="explicit")
    assert world.view(chancellor).to_json() == view.to_json()
    assert world.seed is None and not world.is_chance_node()
    enact = next(a for a in world.legal_actions(chancellor) if a.type == "enact")
    world.apply(enact)
    assert not world.finished
    node = world.chance_node
    assert node is not None and node.type == "reshuffle"
    assert world.to_act() == [] and len(world.reshuffles) == len(game.reshuffles)
    world.apply(node.outcomes[0])
    assert len(world.reshuffles) == len(game.reshuffles) + 1 and world.to_act()
