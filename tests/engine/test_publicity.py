"""What the engine lets everyone know about an action (``Action.public_json``), and the one
record writer (``engine.writer.write_record``)."""

from __future__ import annotations

import json
import random
from typing import Any

from engine_helpers import play_random, random_action
from hypothesis import given, settings
from hypothesis import strategies as st

from secret_hitler.engine import PRESETS, Action, Game, write_record


def _known_to_a_spectator(before: Any, new_events: list[Any]) -> list[Any]:
    """Every value a spectator can read off the new public events, and the offices it saw."""
    values: list[Any] = [before.candidate, before.nominee, before.president, before.chancellor]
    for e in new_events:
        values += [v for k, v in e.items() if k != "type"]
    return values


@settings(max_examples=40, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    n=st.integers(5, 10),
    seed=st.integers(0, 2**32),
    claim_prob=st.sampled_from([0.0, 0.3, 1.0]),
)
def test_the_public_part_of_an_action_reveals_nothing_a_spectator_does_not_see(
    preset: str, n: int, seed: int, claim_prob: float
) -> None:
    game = Game(n, preset, seed)
    rng = random.Random(seed)
    while not game.finished:
        action = random_action(game, rng, claim_prob)
        before = game.view(None)
        start = len(game.events)
        game.apply(action)
        new = [e.json for e in game.events[start:] if e.audience is None]
        public = action.public_json()
        assert public["type"] == action.type and public["seat"] == action.seat
        if action.type == "claim":  # a claim is a public statement, told whole
            assert {"type": "claim", **public} in new
            continue
        known = _known_to_a_spectator(before, new)
        for key, value in public.items():
            if key != "type":
                assert value in known, (action, key)
        assert set(public) <= {"seat", "type", "target"}
        # and it is what the protocol sent before the engine decided it (byte for byte)
        assert json.dumps(public) == json.dumps(
            action.to_json() if action.type == "claim" else _protocol_form(action)
        )


def _protocol_form(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": action.seat, "type": action.type}
    if action.target is not None:
        out["target"] = action.target
    return out


def test_the_record_writer_writes_what_the_game_writes_from_stored_parts() -> None:
    for preset in PRESETS:
        for names in (7, ["Ann", "Bo", "Cy", "Di", "Ed", "Fay"]):
            game = play_random(Game(names, preset, 5), random.Random(5))
            record = game.to_record()
            stored = json.loads(json.dumps(record))  # what a host keeps: JSON parts
            again = write_record(
                rules=stored["rules"],
                players=stored["players"],
                roles=stored["roles"],
                first_president=stored["first_president"],
                deck=stored["deck"],
                reshuffles=stored["reshuffles"],
                actions=stored["actions"],
                seed=stored.get("seed"),
                winner=stored["result"]["winner"],
                reason=stored["result"]["reason"],
            )
            assert json.dumps(again) == json.dumps(record)
    unfinished = Game(5, "official")
    record = unfinished.to_record()
    assert "result" not in record and "seed" not in record
    assert list(record) == [
        "format",
        "version",
        "rules",
        "players",
        "roles",
        "first_president",
        "deck",
        "reshuffles",
        "actions",
    ]
