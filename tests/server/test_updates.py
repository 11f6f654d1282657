"""``SeatUpdates`` (the per-action fast path) must produce exactly ``build_update`` for every seat.

``build_update`` itself is checked against the engine's full views by the end-to-end tests; this
test plays many random games (every rule switch the view depends on, claims included) in-process
and compares the two after every action, for every seat and for a spectator: the told messages
too, which the fast path tells once per event (``Narrations``) and the reference by a narrator
per seat that reads that seat's log only.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from secret_hitler.engine import PRESETS, Game, Rules
from secret_hitler.engine.history import governments
from secret_hitler.engine.speech import silenced
from secret_hitler.engine.worlds import WorldError, sample_world
from secret_hitler.server.table.updates import SeatUpdates, build_update, padded_length, view_json
from secret_hitler.talk.narrate import Narrations, Narrator, narrate, told_json

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
        narration = Narrations()
        narrators = {s: Narrator() for s in [*range(players), None]}  # each seat's own
        for s, narrator in narrators.items():
            for e in g.view(s).events:
                narrator.tell(e)
        narration.tell_from(g.events, len(g.events))
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
            fast = SeatUpdates(g, seq, ev, action, by, deadline, narration=narration)
            frames = fast.frames([*range(players), None])
            for s in [*range(players), None]:
                want = build_update(g, s, seq, ev, action, by, deadline, narrator=narrators[s])
                got = json.loads(frames[s])
                assert set(got.pop("pad")) <= {" "}
                assert got == want, (seed, steps, s)
                assert fast.text(s) is frames[s]  # built once per seat
        assert g.finished


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_recipient_of_an_update_gets_a_frame_of_one_public_length(preset: str) -> None:
    """No role, hand, vote or result changes a frame's size: every seat's frame and the
    spectators' have the length the spectators' content alone determines."""
    for players in (5, 7, 10):
        for seed in range(6):
            rng = random.Random(seed)
            g = Game([f"名前{i}" for i in range(players)], preset, seed)
            narration = Narrations()
            ev, seq = 0, 1
            while True:
                last = g.actions[-1] if g.actions else None
                fast = SeatUpdates(g, seq, ev, last, None, None, narration=narration)
                frames = fast.frames([*range(players), None])
                spectator = json.loads(frames[None])
                spectator.pop("pad")
                public = len(
                    json.dumps(spectator, ensure_ascii=False, separators=(",", ":")).encode()
                )
                assert {len(t) for t in frames.values()} == {padded_length(public)}
                if g.finished:
                    break
                ev = len(g.events)
                seat = rng.choice(g.to_act())
                options = [a for a in g.legal_actions(seat) if a.type != "claim"]
                claims = [a for s in g.claimants() for a in g.legal_actions(s) if a.type == "claim"]
                g.apply(
                    rng.choice(claims) if claims and rng.random() < 0.4 else rng.choice(options)
                )
                seq += 1


@pytest.mark.parametrize("preset", ["official", "forum", "summary-zh"])
def test_updates_carry_the_governments_they_change_and_who_may_not_speak(preset: str) -> None:
    """Folding each update's governments (``from``: where they change, ``rows``: the rest)
    onto those before gives, after every action, the governments the engine reads from any
    seat's log, claims judged (engine/history.py); ``silenced`` is the engine's speech rule
    for the recipient (None: it may speak)."""
    conflicts = 0  # claims marked as conflicting, over the games (random claims often are)
    for seed in range(3):
        rng = random.Random(seed)
        g = Game([f"P{i}" for i in range(7)], preset, seed)
        shown: list[dict[str, Any]] = []
        ev, seq = 0, 1
        while True:
            last = g.actions[-1] if g.actions else None
            for s in [None, 0]:
                msg = json.loads(SeatUpdates(g, seq, ev, last, None, None).text(s))
                rows = msg["governments"]
                assert rows["from"] <= len(shown)
                if s is None:
                    shown = shown[: rows["from"]] + rows["rows"]
                assert msg["silenced"] == silenced(g.view(s), s)
                assert (msg["silenced"] is None) == g.view(s).may_speak
            for s in (None, 0, 6):
                assert shown == [r.to_json() for r in governments(g.view(s).events)]
            if g.finished:
                break
            ev = len(g.events)
            seat = rng.choice(g.to_act())
            options = [a for a in g.legal_actions(seat) if a.type != "claim"]
            claims = [a for s in g.claimants() for a in g.legal_actions(s) if a.type == "claim"]
            g.apply(rng.choice(claims) if claims and rng.random() < 0.5 else rng.choice(options))
            seq += 1
        conflicts += sum(c["conflict"] for r in shown for c in r["claims"])
    assert conflicts > 0


def test_an_undone_action_leaves_no_trace_in_the_next_updates_governments() -> None:
    """A table keeps the fold of its last update and reads only the new events (``History``);
    an action pushed, then undone because its commit failed (``Game.pop``), and another played
    instead: the next update's governments are those of the game as it is, claims included, and
    so are its events' told messages (the table's ``Narrations`` never read the undone ones)."""
    rng = random.Random(5)
    g = Game([f"P{i}" for i in range(7)], "official", 5)
    seq, undone = 1, 0
    narration = Narrations()  # the table's: it reads only what was announced
    SeatUpdates(g, seq, 0, None, None, None, narration=narration).text(None)  # the game's start
    while not g.finished:
        ev = len(g.events)  # where the last update left the table's fold
        claims = [a for s in g.claimants() for a in g.legal_actions(s) if a.type == "claim"]
        options = claims + [a for a in g.legal_actions(rng.choice(g.to_act())) if a.type != "claim"]
        if len(options) > 1:
            g.push(options[0])  # its commit fails: undone
            if undone % 2:  # (even were its events read before the undo: read again)
                narration.tell_from(g.events, ev)
            g.pop()
            undone += 1
        g.push(options[-1])
        g.clear_stack()
        seq += 1
        update = SeatUpdates(g, seq, ev, g.actions[-1], None, None, narration=narration)
        msg = json.loads(update.text(None))
        want = [r.to_json() for r in governments(g.view(None).events)]
        assert want[msg["governments"]["from"] :] == msg["governments"]["rows"]
        log = g.view(None).events  # and the told messages of the game as it is
        told = [told_json(t) for t in narrate(log)][len(log) - len(msg["events"]) :]
        assert [e["told"] for e in msg["events"]] == told
    assert undone > 10


def test_a_seats_told_messages_do_not_change_with_what_it_has_not_seen() -> None:
    """The told messages a seat gets (its welcome's log, narrated from its own view) are the same
    in another world its view allows: other seats' roles swapped, the deck sampled anew
    (engine/worlds.py), so they hold nothing of what the seat has not seen."""
    compared = 0
    for seed in range(30):
        rng = random.Random(seed)
        game = Game([f"P{i}" for i in range(7)], "official", seed)
        steps = rng.randrange(10, 60)
        while not game.finished and (steps > 0 or game.phase.value == "vote"):
            steps -= 1
            seat = rng.choice(game.to_act())
            claims = [
                a for s in game.claimants() for a in game.legal_actions(s) if a.type == "claim"
            ]
            options = [a for a in game.legal_actions(seat) if a.type != "claim"]
            game.apply(rng.choice(claims) if claims and rng.random() < 0.3 else rng.choice(options))
        if game.finished:
            continue  # (nor at an open election: its unseen ballots differ between worlds)
        seat = game.to_act()[0]
        view = game.view(seat)
        roles = [r.value for r in game.roles]
        for _ in range(20):
            others = [s for s in range(7) if s != seat and view.known_roles[s] is None]
            shuffled = [roles[s] for s in others]
            rng.shuffle(shuffled)
            world_roles = list(roles)
            for s, role in zip(others, shuffled, strict=True):
                world_roles[s] = role
            if world_roles == roles:
                continue
            try:
                world = sample_world(view, world_roles, random.Random(seed * 7))
            except WorldError:
                continue
            told = [e["told"] for e in view_json(world.view(seat))["events"]]
            assert told == [e["told"] for e in view_json(view)["events"]], (seed, seat)
            assert [e["told"] for e in view_json(world.view(None))["events"]] == [
                e["told"] for e in view_json(game.view(None))["events"]
            ]
            compared += 1
            break
    assert compared >= 20
