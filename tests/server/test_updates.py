"""``SeatUpdates`` (the per-action fast path) must produce exactly ``build_update`` for every seat.

``build_update`` itself is checked against the engine's full views by the end-to-end tests; this
test plays many random games (every rule switch the view depends on, claims included) in-process
and compares the two after every action, for every seat and for a spectator.
"""

from __future__ import annotations

import json
import random

import pytest

from secret_hitler.engine import Game, Rules
from secret_hitler.server.updates import SeatUpdates, build_update

RULES = [
    Rules(),
    Rules(voting="public_sequential"),
    Rules(reveal_executed_role=True),
    Rules(hitler_knows_fascists=True, reveal_executed_role=True, veto_zone=3),
]


@pytest.mark.parametrize("players", [5, 6, 7, 10])
@pytest.mark.parametrize("rules", RULES, ids=lambda r: "rules")
def test_seat_updates_match_build_update(players: int, rules: Rules) -> None:
    for seed in range(4):
        rng = random.Random(seed * 100 + players)
        g = Game([f"P{i}" for i in range(players)], rules, seed)
        steps = 0
        while not g.finished and steps < 400:
            steps += 1
            seat = rng.choice(g.to_act())
            legal = g.legal_actions(seat)
            claims = [
                s for s in range(players) if any(a.type == "claim" for a in g.legal_actions(s))
            ]
            if claims and rng.random() < 0.3:
                seat = rng.choice(claims)
                legal = [a for a in g.legal_actions(seat) if a.type == "claim"]
            else:
                legal = [a for a in legal if a.type != "claim"]
            action = rng.choice(legal)
            ev = len(g.events)
            g.apply(action)
            seq = len(g.actions) + 1
            by = rng.choice([None, "timer"])
            deadline = rng.choice([None, 1234.5])
            fast = SeatUpdates(g, seq, ev, action, by, deadline)
            for s in [*range(players), None]:
                want = build_update(g, s, seq, ev, action, by, deadline)
                assert json.loads(fast.text(s)) == want, (seed, steps, s)
                assert fast.text(s) is fast.text(s)  # built once per seat
        assert g.finished
