"""secrethitler.io's no top-decking (``Rules.top_decking``, docs/game-types.md "No top-decking"):
the one statement of when a failed election's chaos ends the game instead.

When a failed election brings the election tracker to its last step (E7), ``forbidden`` makes it
a fascist win at once (reason ``top_decked``: no policy is drawn); ``not_twice`` does so only when
a chaos by failed elections already came since the last election that passed (the first one is
played as usual and counted; any passed election resets the count). A consented veto's chaos is
played as usual and not counted (the site's server, ``election.js@f688831:485-495``). The game
(``Game._tally``), the public fold (``PublicState.top_deck_forbidden``) and the views ask
``ends_game``; only the game and the fold count.
"""

from __future__ import annotations

ALLOWED = "allowed"
FORBIDDEN = "forbidden"
NOT_TWICE = "not_twice"


def ends_game(rule: str, top_decks: int) -> bool:
    """Whether a chaos by failed elections now ends the game, under ``rule`` (a
    ``Rules.top_decking`` value) after ``top_decks`` chaos by failed elections since the last
    passed election."""
    return rule == FORBIDDEN or (rule == NOT_TWICE and top_decks > 0)


__all__ = ["ALLOWED", "FORBIDDEN", "NOT_TWICE", "ends_game"]
