"""secrethitler.io's game types as the engine tests play them (docs/game-types.md): each a
setting of the engine on a preset, with the player counts it can be played at."""

from __future__ import annotations

from typing import Any

from secret_hitler.engine import InvalidSettings, Rules

#: Every game type, and the combinations the site plays together.
GAME_TYPES: dict[str, dict[str, Any]] = {
    "avalon": {"preset": "secrethitler-io", "avalon": "merlin"},
    "avalon-percival": {"preset": "secrethitler-io", "avalon": "percival"},
    "monarchist": {"preset": "secrethitler-io", "monarchist": True},
    "avalon-monarchist": {"preset": "secrethitler-io", "avalon": "merlin", "monarchist": True},
    "avalon-percival-monarchist": {
        "preset": "secrethitler-io",
        "avalon": "percival",
        "monarchist": True,
    },
    "rebalanced": {"preset": "secrethitler-io", "rebalanced": [6, 7, 9]},
    "no-top-decking": {"preset": "secrethitler-io", "top_decking": "forbidden"},
    "no-double-top-decking": {"preset": "official", "top_decking": "not_twice"},
    "everything": {
        "preset": "secrethitler-io",
        "avalon": "percival",
        "monarchist": True,
        "rebalanced": [6, 7, 9],
        "top_decking": "not_twice",
    },
    # the official rules let Morgana shoot Hitler; Hitler here knows his team at every count
    "official-hitler-knows": {
        "preset": "official",
        "avalon": "percival",
        "monarchist": True,
        "hitler_knows_fascists": True,
    },
}
NAMES = sorted(GAME_TYPES)


def rules_of(name: str) -> Rules:
    return Rules.from_json(GAME_TYPES[name])


def counts_of(name: str) -> list[int]:
    """The player counts the game type can be played at (Percival with the Monarchist needs
    two fascists besides Hitler: 7-10)."""
    rules = rules_of(name)
    out = []
    for n in range(5, 11):
        try:
            rules.validate(n)
        except InvalidSettings:
            continue
        out.append(n)
    return out


#: (game type, player count) for every count each can be played at.
TABLES = [(name, n) for name in NAMES for n in counts_of(name)]
