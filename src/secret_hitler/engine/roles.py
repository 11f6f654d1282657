"""Who is shown whom, and who wins: the roles of every game type (docs/game-types.md).

The official game has three roles; secrethitler.io's game types add Merlin and Percival
(liberal party), Morgana and the Monarchist (fascist party); ``types.PARTY_OF`` maps each to its
party. This module holds what the new roles change, as pure functions of a deal, so that the
game (engine/game.py) only calls them and the observer learns everything from the events they
make:

- ``night``: what each seat is shown at the deal (the ``night`` events). The official night
  (RULES.md N1, N2) is the case of a deal without Morgana and the Monarchist: the fascists see
  their team's exact roles, and Hitler does where he knows them. Where Morgana or the Monarchist
  is dealt, the site marks every fascist besides Hitler only as "fascist"
  (``start-game.js@f688831:318-620``), so a teammate is shown by its party (``parties``); the
  Monarchist is never shown Hitler. Merlin is shown the whole fascist party by party, Percival
  Merlin's and Morgana's seats as a pair. What a seat can deduce from the public composition
  (a Fascist at 7 players with a Monarchist knows which teammate he is) is left to the seat.
- ``assassin_sight``: what Hitler is shown when he must name Merlin.
- ``winners_of``: the seats that won. Everyone wins with his party, except the Monarchist, who
  wins exactly when the sixth fascist policy is enacted or Hitler is executed, whoever else wins.
"""

from __future__ import annotations

from collections.abc import Sequence

from .events import ReadOnlyDict, ReadOnlyList
from .types import PARTY_OF, Party, Reason, Role

_LIBERAL_PARTY = Party.LIBERAL
_FASCIST_PARTY = Party.FASCIST
_FASCIST_NAME = Party.FASCIST.value


def shows_exact_roles(roles: Sequence[Role]) -> bool:
    """Whether the fascists are shown their teammates' exact roles: only where neither Morgana
    nor the Monarchist is dealt (every teammate is then a plain Fascist)."""
    return Role.MORGANA not in roles and Role.MONARCHIST not in roles


def night(roles: Sequence[Role], hitler_knows: bool) -> tuple[tuple[int, ReadOnlyDict], ...]:
    """Each seat that is shown something at the deal, in seat order, with its ``night`` event's
    data: ``known`` (exact roles), and where there are any ``parties`` (seats shown by party
    only) and ``merlin_candidates`` (Percival's pair, in seat order)."""
    fascists = [s for s, r in enumerate(roles) if PARTY_OF[r] is _FASCIST_PARTY]
    exact = shows_exact_roles(roles)
    hitler = roles.index(Role.HITLER)
    out: list[tuple[int, ReadOnlyDict]] = []
    for s, role in enumerate(roles):
        known: dict[str, str] = {}
        parties: dict[str, str] = {}
        candidates: list[int] | None = None
        if role is Role.FASCIST or role is Role.MORGANA or (role is Role.HITLER and hitler_knows):
            if exact:
                known = {str(t): roles[t].value for t in fascists if t != s}
            else:
                if role is not Role.HITLER:
                    known = {str(hitler): Role.HITLER.value}
                parties = {str(t): _FASCIST_NAME for t in fascists if t not in (s, hitler)}
        elif role is Role.MONARCHIST:  # never shown Hitler
            parties = {str(t): _FASCIST_NAME for t in fascists if t not in (s, hitler)}
        elif role is Role.MERLIN:
            parties = {str(t): _FASCIST_NAME for t in fascists}
        elif role is Role.PERCIVAL:
            candidates = [t for t, r in enumerate(roles) if r in (Role.MERLIN, Role.MORGANA)]
        else:
            continue
        if not (known or parties or candidates):
            continue
        data: dict[str, object] = {"known": ReadOnlyDict(known)}
        if parties:
            data["parties"] = ReadOnlyDict(parties)
        if candidates is not None:
            data["merlin_candidates"] = ReadOnlyList(candidates)
        out.append((s, ReadOnlyDict(data)))
    return tuple(out)


def assassin_sight(roles: Sequence[Role]) -> ReadOnlyDict:
    """What Hitler is shown at the assassination (``assassination.js@f688831:53-74``): the
    Fascists' and Morgana's roles, and his targets, every seat of the liberal party (dead or
    alive). The Monarchist is neither marked nor a target."""
    known = {str(s): r.value for s, r in enumerate(roles) if r in (Role.FASCIST, Role.MORGANA)}
    return ReadOnlyDict(known=ReadOnlyDict(known), targets=ReadOnlyList(assassin_targets(roles)))


def assassin_targets(roles: Sequence[Role]) -> tuple[int, ...]:
    """The seats Hitler may name at the assassination: the liberal party's."""
    return tuple(s for s, r in enumerate(roles) if PARTY_OF[r] is _LIBERAL_PARTY)


def winners_of(
    roles: Sequence[Role], winner: Party | str, reason: Reason | str, hitler_executed: bool
) -> tuple[int, ...]:
    """The seats that won a game that ``winner`` (the party) won for ``reason``: the winning
    party's seats, but the Monarchist's win is his own (six fascist policies, or Hitler
    executed, also when Hitler then finds Merlin)."""
    monarchist_wins = reason == Reason.SIX_FASCIST_POLICIES or hitler_executed
    return tuple(
        s
        for s, r in enumerate(roles)
        if (monarchist_wins if r is Role.MONARCHIST else PARTY_OF[r] == winner)
    )


def tells_winners(roles: Sequence[Role]) -> bool:
    """Whether a game's end names its winners (``game_over.winners``, a record's
    ``result.winners``): only where they may differ from the winning party (a Monarchist)."""
    return Role.MONARCHIST in roles


__all__ = [
    "assassin_sight",
    "assassin_targets",
    "night",
    "shows_exact_roles",
    "tells_winners",
    "winners_of",
]
