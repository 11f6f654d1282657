"""The governments of a game, as a table reads them back: one per candidacy, from the public events.

Each ``Government`` is a round's candidacy: its president and the chancellor he nominated, the
revealed vote, what it enacted (or chaos enacted in its round), whether it was vetoed, the
power its president used, and the claims filed under it, each marked when it cannot be true
(``claims.hand_conflicts``). A hand claim is filed under the last elected government its
claimant sat in, a peek or an investigation claim under the government whose president used
that power. The fold reads public events only, so every seat's log and the spectator's give the
same governments; clients (the web page's memory aids, docs/protocol.md) show them as they
are, with no rule of their own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from . import events as E
from .actions import CLAIM_CHANCELLOR_HAND, CLAIM_INVESTIGATION, CLAIM_PEEK, CLAIM_PRESIDENT_HAND
from .claims import hand_conflicts
from .events import TypedEvent, thaw

#: The power a public event says a president used, by the event's type.
_POWERS = {
    "investigated": "investigate",
    "special_election": "special_election",
    "executed": "execute",
}

#: The kinds of event the fold reads.
_READ = frozenset(
    {"candidate", "nominated", "votes", "enacted", "veto", "power", "claim", *_POWERS}
)


@dataclass(frozen=True, slots=True)
class Government:
    """One candidacy (``round``) and what became of it; ``chancellor`` is None until the
    candidate nominates, ``passed`` until the votes are revealed. ``policy`` is the policy
    enacted in this round (by chaos when ``chaos``), ``power`` the (power, target) its
    president used, ``claims`` the claim events filed under it, in order, and ``conflicts``
    the indices of those that cannot be true."""

    round: int
    president: int
    chancellor: int | None = None
    ja: int | None = None
    nein: int | None = None
    passed: bool | None = None
    policy: str | None = None
    chaos: bool = False
    vetoed: bool = False
    power: tuple[str, int] | None = None
    claims: tuple[E.Claimed, ...] = ()
    conflicts: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The government as the protocol sends it: each claim its event's JSON plus
        ``conflict``."""
        return {
            "round": self.round,
            "president": self.president,
            "chancellor": self.chancellor,
            "ja": self.ja,
            "nein": self.nein,
            "passed": self.passed,
            "policy": self.policy,
            "chaos": self.chaos,
            "vetoed": self.vetoed,
            "power": None
            if self.power is None
            else {"type": self.power[0], "target": self.power[1]},
            "claims": [
                {**thaw(c), "conflict": i in self.conflicts} for i, c in enumerate(self.claims)
            ],
        }


def _judged(g: Government) -> Government:
    """``g`` with its ``conflicts``: of its president's last hand claim and its chancellor's."""

    def last(subject: str, seat: int | None) -> int | None:
        found = [i for i, c in enumerate(g.claims) if c.subject == subject and c.seat == seat]
        return found[-1] if found else None

    pres, chan = last(CLAIM_PRESIDENT_HAND, g.president), last(CLAIM_CHANCELLOR_HAND, g.chancellor)
    if pres is None and chan is None:
        return g
    enacted = g.policy if g.policy is not None and not g.chaos and not g.vetoed else None
    false_pres, false_chan = hand_conflicts(
        None if pres is None else g.claims[pres].policies,
        None if chan is None else g.claims[chan].policies,
        enacted,
    )
    bad = {i for i, lie in ((pres, false_pres), (chan, false_chan)) if lie and i is not None}
    return replace(g, conflicts=tuple(sorted(bad))) if bad else g


class History:
    """The fold one event at a time (``feed``), for a reader that follows a game as it goes (the
    server, update by update): ``governments()`` is every government so far, rebuilt only from
    the first one the events since the last call changed. A hand claim is filed under the last
    elected government its claimant sat in; a peek or an investigation claim under the
    government whose president (the claimant) used that power last, else, as a hand claim,
    under the last elected government the claimant sat in."""

    __slots__ = ("_rows", "_used", "_made", "_dirty")

    def __init__(self) -> None:
        self._rows: list[dict[str, Any]] = []
        self._used: dict[tuple[int, str], int] = {}  # (president, claim subject) -> its row
        self._made: tuple[Government, ...] = ()  # the governments at the last call
        self._dirty = 0  # the first row changed since then

    def feed(self, e: TypedEvent) -> None:
        """Read the next event of the log (private events teach nothing here)."""
        if e.kind not in _READ:
            return  # (most events: votes cast, discards, private events)
        rows = self._rows
        if isinstance(e, E.Candidate):
            rows.append({"round": e.round, "president": e.seat, "claims": ()})
        elif not rows:
            return
        elif isinstance(e, E.Claimed):
            at = self._used.get((e.seat, e.subject))
            if at is None:
                at = _sat_in(rows, e.seat)
            if at is None:
                return
            rows[at]["claims"] += (e,)
            self._dirty = min(self._dirty, at)
            return
        else:
            self._last(e)
        self._dirty = min(self._dirty, len(rows) - 1)

    def _last(self, e: TypedEvent) -> None:
        """An event about the current candidacy (the last row)."""
        row = self._rows[-1]
        if isinstance(e, E.Nominated):
            row["chancellor"] = e.chancellor
        elif isinstance(e, E.Votes):
            row.update(ja=e.ja, nein=e.nein, passed=e.passed)
        elif isinstance(e, E.Enacted):
            row.update(policy=e.policy, chaos=bool(e.chaos))
        elif isinstance(e, E.Veto):
            row["vetoed"] = row.get("vetoed", False) or e.accepted
        elif isinstance(e, E.PowerUsed):
            if e.power == CLAIM_PEEK:
                self._used[(e.president, CLAIM_PEEK)] = len(self._rows) - 1
        elif isinstance(e, (E.Investigated, E.SpecialElection, E.Executed)):
            row["power"] = (_POWERS[e.kind], e.target)
            if isinstance(e, E.Investigated):
                self._used[(e.president, CLAIM_INVESTIGATION)] = len(self._rows) - 1

    def governments(self) -> tuple[Government, ...]:
        """Every government so far, in order."""
        start = self._dirty
        if start < len(self._rows) or len(self._made) != len(self._rows):
            fresh = tuple(_judged(Government(**r)) for r in self._rows[start:])
            self._made = self._made[:start] + fresh
            self._dirty = len(self._rows)
        return self._made


def governments(events: Iterable[TypedEvent]) -> tuple[Government, ...]:
    """Every government of a log (a seat's, the spectator's or the game's: private events are
    skipped), in order (``History``, from the start)."""
    fold = History()
    for e in events:
        fold.feed(e)
    return fold.governments()


def _sat_in(rows: list[dict[str, Any]], seat: int) -> int | None:
    """The last elected government (its index) ``seat`` sat in, else None."""
    for i in range(len(rows) - 1, -1, -1):
        r = rows[i]
        if r.get("passed") and seat in (r["president"], r.get("chancellor")):
            return i
    return None


def changed_from(before: tuple[Government, ...], after: tuple[Government, ...]) -> int:
    """The index of the first government of ``after`` that is not in ``before`` as it is: an
    update sends ``after`` from there on (a log only grows, so the rest are the same). A fold's
    unchanged governments are the same objects (``History.governments``): no field compared."""
    for i, (a, b) in enumerate(zip(before, after, strict=False)):
        if a is not b and a != b:
            return i
    return min(len(before), len(after))


__all__ = ["Government", "History", "changed_from", "governments"]
