"""The logs the narrator's tests read, and the fixture the web page's mirror is checked against.

Whole logs (every event of a game, each seat's private ones included, in order): a seeded
6-player game of rule bots with claims, roles revealed at executions (votes, chaos, vetoes, a
peek, special elections, executions, claims of hands and peeks), a 7-player one
(investigations, investigation claims, Hitler-zone elections), and two 7-player games of Avalon
SH with Percival and the Monarchist (Merlin's, Percival's and the fascists' nights, an
assassination after Hitler's execution and after five liberal policies, the winners); and a
short log of what games rarely show (a power with no target, a ballot public as it is cast,
chaos lifting the term limits, a special election's candidate, changed rules, a game ended by a
forbidden top-deck).

``python tests/talk/narration_cases.py`` writes ``tests/web/js/narration.json``: those logs,
the messages ``talk.narrate`` tells of each event, and (but the 7-player game's, to keep
the file small) their text in every language, for
``tests/web/js/narrate.test.mjs`` (the page's narrate.js must tell the same). The Python tests
fail when the file no longer says what the narrator says, so it is rewritten with the narrator.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from secret_hitler.bots.base import make_agent
from secret_hitler.engine import Game
from secret_hitler.engine import actions as A
from secret_hitler.engine.catalog import game_type_settings
from secret_hitler.engine.events import TypedEvent, typed
from secret_hitler.engine.settings import CHAOS_AT, FASCIST_TRACK, LIBERAL_TRACK
from secret_hitler.talk.narrate import narrate, render
from secret_hitler.talk.phrases import LANGUAGES

FIXTURE = Path(__file__).resolve().parents[1] / "web" / "js" / "narration.json"
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]
RULES = {"preset": "official", "reveal_executed_role": True}


#: Avalon SH with Percival and the Monarchist (docs/game-types.md): Merlin's, Percival's and the
#: fascists' nights, the assassination and the winners.
AVALON = {"preset": "secrethitler-io", "avalon": "percival", "monarchist": True}


def played(players: int, seed: int, rules: Any = RULES) -> list[TypedEvent]:
    """Every event of a seeded game of rule bots that claim, in order."""
    return [e.json for e in played_game(players, seed, rules).events]


def played_game(players: int, seed: int, rules: Any = RULES) -> Game:
    """A seeded game of rule bots that claim, played to its end."""
    game = Game(NAMES[:players], rules, seed=seed)
    agents = [make_agent("rule", s, seed * 31 + s) for s in range(players)]
    while not game.finished:
        for s in game.claimants():
            view = game.view(s)
            options = [a for a in game.legal_actions(s) if a.type == A.CLAIM]
            for claim in agents[s].claims(view, options):
                if game.is_legal(claim):
                    game.apply(claim)
        if game.finished:
            break
        seat = game.to_act()[0]
        view = game.view(seat)
        legal = [a for a in game.legal_actions(seat) if a.type != A.CLAIM]
        game.apply(agents[seat].act(view, legal))
    return game


#: What whole games rarely log, as the engine writes it.
RARE: list[dict[str, Any]] = [
    {
        "type": "game_started",
        "players": 5,
        "names": None,
        "rules": {"preset": "official"},
        "board": [None, None, "peek", "execute", "execute"],
        "hitler_zone": 3,
        "veto_zone": 5,
        "liberal_policies": 0,
        "fascist_policies": 0,
        "draw_pile": 17,
    },
    {"type": "night", "known": {"3": "fascist", "1": "hitler", "0": "fascist"}},
    {"type": "president_discarded", "president": 2},
    {"type": "voted", "seat": 1, "ja": True},
    {"type": "voted", "seat": 2, "ja": False},
    {"type": "voted", "seat": 3},
    {"type": "chaos", "policy": "fascist", "term_limits_cleared": True},
    {"type": "chaos", "policy": "liberal", "term_limits_cleared": False},
    {"type": "power_skipped", "power": "execute", "president": 4},
    {"type": "special_election", "president": 0, "target": 3},
    {"type": "candidate", "seat": 3, "round": 6, "eligible": [0, 1, 2]},
    {"type": "candidate", "seat": 4, "round": 7, "eligible": [0, 1, 2]},
    {"type": "tracker", "value": 0},
    {"type": "reshuffled", "draw_pile": 1},
    {"type": "executed", "president": 1, "target": 2},
    {"type": "claim", "seat": 0, "subject": "investigation", "target": 4, "party": "fascist"},
    # no top-decking (docs/game-types.md): the tracker's last step ends the game, no policy drawn
    {"type": "tracker", "value": 3},
    {
        "type": "game_over",
        "winner": "fascist",
        "reason": "top_decked",
        "roles": ["fascist", "hitler", "liberal", "fascist", "liberal"],
    },
]


#: The logs whose texts the fixture holds in every language (the others: their messages only).
TEXTS = ("6p", "rare", "avalon")


def logs() -> dict[str, list[TypedEvent]]:
    return {
        "6p": played(6, 140),
        "7p": played(7, 32),
        "rare": [typed(e) for e in RARE],
        "avalon": played(7, 20, AVALON),  # Hitler executed, then Merlin found
        "avalon-5l": played(7, 10, AVALON),  # five liberal policies, then a liberal named
    }


def fixture() -> dict[str, Any]:
    """What ``FIXTURE`` holds, from the narrator as it is."""
    out: dict[str, Any] = {
        "names": NAMES,
        "tracks": {"liberal": LIBERAL_TRACK, "fascist": FASCIST_TRACK, "chaos_at": CHAOS_AT},
        "settings": game_type_settings(),
        "logs": {},
    }
    for name, events in logs().items():
        told = narrate(events)
        out["logs"][name] = {
            "events": [dict(e) for e in events],
            "told": [[t.to_json() for t in lines] for lines in told],
        }
        if name in TEXTS:
            out["logs"][name]["texts"] = {
                lang: [[render(t, lang, NAMES) for t in lines] for lines in told]
                for lang in LANGUAGES
            }
    return out


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(fixture(), ensure_ascii=False) + "\n", encoding="utf-8")
