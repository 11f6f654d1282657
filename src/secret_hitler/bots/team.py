"""The team-level reading of a seat's view that the bots' decisions are written in.

The bots decide as a liberal, a fascist or Hitler. secrethitler.io's game types add roles
(docs/game-types.md): Merlin and Percival play for the liberal party, Morgana and the Monarchist
for the fascist party, and a fascist may be shown a teammate by party only (``night``'s
``parties``). These functions read the view's own fields (``role``, ``party``, ``known_roles``
and the night the engine showed the seat), never the rules: what a role was shown is the
engine's. What only the posterior uses (Merlin's sight, Percival's pair) is read by
``beliefs.Beliefs``; the Monarchist's own goal by ``bayes``.
"""

from __future__ import annotations

from typing import Any

from ..engine.types import PARTY_OF_NAME

LIBERAL, FASCIST, HITLER = "liberal", "fascist", "hitler"


def team_of(role: str | None) -> str | None:
    """A role's team-level name: "hitler", else its party ("liberal" for Merlin and Percival,
    "fascist" for Morgana and the Monarchist); None stays None."""
    if role is None or role == HITLER:
        return role
    return PARTY_OF_NAME[role]


def team_role(view: Any) -> str | None:
    """The seat's own team-level role (None: a spectator)."""
    return team_of(view.role)


def team_known(view: Any) -> tuple[str | None, ...]:
    """Per seat, the team-level role this seat knows: the roles it knows (``known_roles``:
    its own, its night's, those revealed), and for a seat of the fascist party the teammates
    its night showed by party only. Merlin's sight is not a teammate: it stays in his
    posterior."""
    known = [team_of(r) for r in view.known_roles]
    if view.party == FASCIST:
        for e in view.events:
            if e["type"] == "night":
                for seat in e.get("parties") or ():
                    if known[int(seat)] is None:
                        known[int(seat)] = FASCIST
                break
    return tuple(known)


def is_monarchist(view: Any) -> bool:
    """The Monarchist plays for his own win (six fascist policies or Hitler executed)."""
    return bool(view.role == "monarchist")


__all__ = ["FASCIST", "HITLER", "LIBERAL", "is_monarchist", "team_known", "team_of", "team_role"]
