"""The engine's rule facts for clients (``GET /api/rules``): what the web client reads instead
of keeping its own tables."""

from __future__ import annotations

import json

from secret_hitler.engine import PRESETS, Game
from secret_hitler.engine.actions import hand_claims_fit
from secret_hitler.engine.catalog import catalog
from secret_hitler.engine.events import PRIVATE_EVENT_TYPES


def test_the_catalog_is_json_and_matches_the_games_it_describes():
    info = catalog()
    assert json.loads(json.dumps(info)) == info
    assert list(info["presets"]) == list(PRESETS)
    assert set(info["private_events"]) == PRIVATE_EVENT_TYPES
    for preset, tables in info["tables"].items():
        assert tables, preset
        for count, table in tables.items():
            game = Game(int(count), preset, seed=1)
            roles = [r.value for r in game.roles]
            assert roles.count("liberal") == table["liberals"]
            assert roles.count("fascist") == table["fascists"]
            assert roles.count("hitler") == table["hitler"] == 1
            view = game.view(None)
            assert table["board"] == list(view.board)
            assert table["hitler_knows_fascists"] == view.rules["hitler_knows_fascists"]
            assert info["tracks"] == {
                "liberal": view.liberal_policies + view.liberal_to_win,
                "fascist": view.fascist_policies + view.fascist_to_win,
                "chaos_at": view.chaos_at,
            }


def test_the_official_tables_are_the_rules_setup():
    """RULES.md S2 and the power table, read from the catalog."""
    tables = catalog()["tables"]["official"]
    assert {n: (t["liberals"], t["fascists"]) for n, t in tables.items()} == {
        "5": (3, 1), "6": (4, 1), "7": (4, 2), "8": (5, 2), "9": (5, 3), "10": (6, 3),
    }  # fmt: skip
    assert tables["5"]["board"] == [None, None, "peek", "execute", "execute"]
    assert tables["7"]["board"] == [None, "investigate", "special_election", "execute", "execute"]
    assert tables["10"]["board"][:2] == ["investigate", "investigate"]


def test_claim_fits_is_the_engines_conflict_rule():
    fits = catalog()["claim_fits"]
    for president in range(4):
        for chancellor in range(3):
            assert (chancellor in fits[str(president)]) == hand_claims_fit(president, chancellor)
    assert fits == {"0": [0], "1": [0, 1], "2": [1, 2], "3": [2]}
