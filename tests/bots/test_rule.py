"""The `rule` bot: always legal, truthful as a liberal, strategic as a fascist, fast."""

from __future__ import annotations

import pytest

from secret_hitler.bots import make_agent
from secret_hitler.engine import PRESETS, Game
from secret_hitler.engine import actions as A
from secret_hitler.sim import Lineup, SimConfig, simulate
from secret_hitler.sim.simulator import derive_seed, play_game


@pytest.mark.parametrize("preset", list(PRESETS))
def test_rule_bot_is_always_legal_at_every_count(preset: str) -> None:
    # The simulator raises SimulationError on any action or claim that was not offered.
    for players in range(5, 11):
        for lineup in (Lineup("rule", "rule"), Lineup("rule", "random"), Lineup("random", "rule")):
            results = simulate(SimConfig(players, lineup, preset, seed=players), 4, jobs=1)
            assert len(results) == 4
            assert all(r.winner in ("liberal", "fascist") for r in results)


def test_rule_bot_is_legal_when_offered_claims_with_its_turn() -> None:
    # The server may pass the full legal list, claims included: the bot still picks from it.
    for seed in range(25):
        game = Game(7, "official", seed)
        agents = [make_agent("rule", s, seed * 10 + s) for s in range(7)]
        while not game.finished:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            action = agents[seat].act(game.view(seat), legal)
            assert action in legal
            game.apply(action)


def _truth(game: Game) -> list[tuple[int, str, object, object]]:
    """(seat, subject, claimed, true) for every claim of a game."""
    out = []
    drew: dict[int, list[str]] = {}
    received: dict[int, list[str]] = {}
    peeked: dict[int, list[str]] = {}
    found: dict[tuple[int, int], str] = {}
    for e in game.events:
        d = e.data
        if e.type == "drew":
            drew[e.audience[0]] = d["policies"]  # type: ignore[index]
        elif e.type == "received":
            received[e.audience[0]] = d["policies"]  # type: ignore[index]
        elif e.type == "peek":
            peeked[e.audience[0]] = d["policies"]  # type: ignore[index]
        elif e.type == "investigation":
            found[(e.audience[0], d["target"])] = d["party"]  # type: ignore[index]
        elif e.type == "claim":
            seat, subject = d["seat"], d["subject"]
            if subject == A.CLAIM_INVESTIGATION:
                out.append((seat, subject, d["party"], found[(seat, d["target"])]))
            elif subject == A.CLAIM_PEEK:
                out.append((seat, subject, d["policies"], peeked[seat]))
            else:
                hand = drew[seat] if subject == A.CLAIM_PRESIDENT_HAND else received[seat]
                out.append((seat, subject, sorted(d["policies"]), sorted(hand)))
    return out


def test_liberals_claim_the_truth_and_fascists_sometimes_lie() -> None:
    lies_by_fascists = 0
    claims_by_liberals = 0
    subjects = set()
    for i in range(60):
        players = 5 + i % 6
        _, game = play_game(players, Lineup("rule", "rule"), "official", derive_seed("t", i))
        for seat, subject, claimed, true in _truth(game):
            subjects.add(subject)
            if game.roles[seat].value == "liberal":
                claims_by_liberals += 1
                assert claimed == true, (i, seat, subject)
            elif claimed != true:
                lies_by_fascists += 1
    assert claims_by_liberals > 100
    assert lies_by_fascists > 0
    assert subjects == {
        A.CLAIM_PRESIDENT_HAND,
        A.CLAIM_CHANCELLOR_HAND,
        A.CLAIM_PEEK,
        A.CLAIM_INVESTIGATION,
    }


def test_liberal_presidents_discard_fascist_and_fascists_protect_hitler() -> None:
    discards = 0
    for i in range(60):
        players = 5 + i % 6
        _, game = play_game(players, Lineup("rule", "rule"), "official", derive_seed("l", i))
        roles = [r.value for r in game.roles]
        drew: list[str] = []
        for e in game.events:
            if e.type == "drew":
                drew = e.data["policies"]
            elif e.type == "passed" and roles[e.audience[0]] == "liberal":  # type: ignore[index]
                discards += 1
                if "fascist" in drew:
                    assert e.data["discarded"] == "fascist"
        for action in game.actions:
            role = roles[action.seat]
            target = roles[action.target] if action.target is not None else None
            if (
                role == "fascist"
                and action.type == A.CLAIM
                and action.subject == A.CLAIM_INVESTIGATION
            ):
                if target in ("fascist", "hitler"):
                    assert action.party is not None and action.party.value == "liberal"
            if role == "fascist" and action.type == A.EXECUTE:
                assert target == "liberal"
    assert discards > 100


def test_liberal_chancellor_enacts_liberal_when_possible() -> None:
    checked = 0
    for i in range(40):
        _, game = play_game(7, Lineup("rule", "rule"), "official", derive_seed("c", i))
        received: list[str] = []
        for e in game.events:
            if e.type == "received":
                received = e.data["policies"]
                chancellor = e.audience[0]  # type: ignore[index]
            elif e.type == "enacted" and not e.data["chaos"] and received:
                if game.roles[chancellor].value == "liberal" and "liberal" in received:
                    assert e.data["policy"] == "liberal"
                    checked += 1
                received = []
    assert checked > 50
