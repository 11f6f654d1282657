"""The remake vote (docs/protocol.md "Hosting"): the living people at a table deal its game anew
in its first rounds.

The first vote opens the poll for ``remake_window`` seconds; it passes when more than half of the
living people say yes, if it is still before the first policy and at least two people can vote.
People, not sessions: the players who voted from one address are one person (``people``), so a
lone player among bots cannot deal again and again with a second guest session until the deal
suits her. Votes are anonymous: the table shows only counts (``Table.detail``). Times are the
table's clock (``services.Clock``), so a test moves them.
"""

from __future__ import annotations

from typing import Any

from ..core.errors import LobbyError
from ..core.guard import UNKNOWN_ADDRESS
from .session import Table

REMAKE_PEOPLE = 2  # a remake needs this many living people at the table (not one among bots)


def voters(table: Table) -> set[str]:
    """The living human players (their user ids): who may vote on a remake."""
    g = table.game
    assert g is not None
    alive = g.view(None).alive
    return {
        s.user_id
        for i, s in enumerate(table.seats)
        if s.kind == "human" and s.user_id is not None and alive[i]
    }


def people(users: set[str], voted_from: dict[str, str]) -> int:
    """How many people ``users`` are: sessions that voted from one address are one person (a
    lone player's second guest session is not a second voter; nor are two people behind one
    address, who cannot be told apart). A user who has not voted counts as one person."""
    addresses = {voted_from[u] for u in users if u in voted_from}
    return len(addresses) + sum(u not in voted_from for u in users)


def refusal(table: Table, who: set[str], voted_from: dict[str, str]) -> LobbyError | None:
    """Why a remake may not happen now (checked when the poll opens and at every vote): a policy
    was enacted, or fewer than two people could vote (a lone person among bots, with one session
    or several, could otherwise deal again and again until the deal suits them)."""
    g = table.game
    assert g is not None
    view = g.view(None)  # the first rounds: until the first policy is enacted
    if view.liberal_policies or view.fascist_policies:
        return LobbyError(409, "too_late", "a remake may be called only before the first policy")
    if people(who, voted_from) < REMAKE_PEOPLE:
        return LobbyError(
            409,
            "remake_needs_people",
            "a remake needs at least two people at the table (sessions that vote from one "
            "address count as one)",
        )
    return None


async def vote(table: Table, user_id: str, yes: bool, addr: str) -> bool:
    """``user_id`` votes (from ``addr``) on dealing the game anew; the first vote opens the
    poll. Returns whether the remake passed (the new game is then dealt and everyone welcomed
    to it); a refusal closes the poll as not passed."""
    async with table.lock:
        if table.status != "playing" or table.game is None:
            raise LobbyError(409, "not_playing", "there is no game being played")
        who = voters(table)
        if user_id not in who:
            raise LobbyError(403, "not_a_voter", "only living human players may vote")
        poll = _open_poll(table, who, user_id, yes, addr)
        poll["yes" if yes else "no"].add(user_id)
        poll["no" if yes else "yes"].discard(user_id)
        if addr != UNKNOWN_ADDRESS:
            poll["from"][user_id] = addr
        # people, not sessions: those who voted from one address count once
        poll["needed"] = people(who, poll["from"]) // 2 + 1
        passed: bool = people(poll["yes"] & who, poll["from"]) >= poll["needed"]
        if (refused := refusal(table, who, poll["from"])) is not None:
            # the game went on while the poll was open, or its voters are one person: it fails
            _close(table, poll, False)
            raise refused
        if passed:
            table.remake = None
            table.remake_result = _result(table, poll, True)
            table.log.info("remake passed")
            await table.start_game(remake=True)
        else:
            table.broadcast_table()
        return passed


def _open_poll(table: Table, who: set[str], user_id: str, yes: bool, addr: str) -> dict[str, Any]:
    """(under the lock) The poll that is open, or a new one for this first vote."""
    clock = table.services.clock
    poll = table.remake
    if poll is not None and clock.monotonic() >= poll["ends"]:
        poll = table.remake = None
    if poll is not None:
        return poll
    if (refused := refusal(table, who, {user_id: addr})) is not None:
        raise refused
    if not yes:
        raise LobbyError(409, "no_vote", "no remake vote is open")
    window = table.services.settings.remake_window
    poll = table.remake = {
        "yes": set(),
        "no": set(),
        "from": {},  # user id -> the address of her last vote (not shown to anyone)
        "needed": 0,
        "ends": clock.monotonic() + window,
        "ends_at": round(clock.time() + window, 3),
    }
    clock.call_later(window + 0.01, lambda: _expired(table, poll))
    return poll


def _expired(table: Table, poll: dict[str, Any]) -> None:
    """The poll's time is up without a remake."""
    if table.remake is poll:
        _close(table, poll, False)


def _close(table: Table, poll: dict[str, Any], passed: bool) -> None:
    table.remake = None
    table.remake_result = _result(table, poll, passed)
    table.broadcast_table()


def _result(table: Table, poll: dict[str, Any], passed: bool) -> dict[str, Any]:
    """How a closed remake vote went (counts only: the vote is anonymous)."""
    return {
        "passed": passed,
        "yes": len(poll["yes"]),
        "no": len(poll["no"]),
        "needed": poll["needed"],
        "at": round(table.services.clock.time(), 3),
    }
