"""What a line is worth to the speaker's team: how the liberal table would read it.

A fascist's voice (``bots.voice``) says what the liberal it pretends to be would say, then bends
where its team gains. The gain is priced here, on the public posterior (``Beliefs`` with no
seat: what an observer who heard the same lines believes) and the listeners' model of talk
(``Beliefs.hear_line``): the table's P(fascist party) summed over the seats of the team the
speaker knows (itself included), plus the table's P(Hitler) of its Hitler, after hearing the
lines, negated (higher is better for the team). So bussing a teammate is worth it when the trust
the speaker gains outweighs the suspicion the teammate takes, and a Hitler read on a liberal when
it moves suspicion off Hitler.

The table also counts kinds of line (``talk_kinds.KindTells``: a seat that defends itself, hits
back at its accusers or explains its Nein votes more often than a liberal does gives itself
away): the speaker's P(fascist party) moves by the reader's log-ratio of each line's kind
(``talk_kinds.tell_key``, in the situation the table sees), so a line a liberal would say less
often costs what the reader learns from it, and silence (no line: ``value(())``) can be worth
more than a line. But not more than an answer owed: a question put to the speaker by name and
left unanswered is read as evasion (``Beliefs.hear_silence``), so the silence a fascist weighs
against its answer is priced with that reading (``TeamJudge.unanswered``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..talk.lines import Line
from . import talk_kinds
from .beliefs import FAS, HIT, Beliefs
from .talk_kinds import KindTells, tell_key
from .voice import Judge


class TeamJudge:
    """The value of the table hearing ``lines`` from ``seat`` now (a ``Judge``: called with
    the lines), for the team ``team`` (the seats the speaker knows, itself included) whose
    Hitler is ``hitler`` (None: unknown), with the kinds of line read by ``reader``; and the
    value of leaving the question of a seat that asked it by name unanswered (``unanswered``)."""

    def __init__(
        self, public: Beliefs, seat: int, team: Sequence[int], hitler: int | None, reader: KindTells
    ) -> None:
        self.public, self.seat, self.team, self.hitler, self.reader = (
            public,
            seat,
            tuple(team),
            hitler,
            reader,
        )
        self.cache: dict[tuple[Line, ...], float] = {}
        before = public.marginals()
        self.own = float(before[seat, FAS] + before[seat, HIT])

    def __call__(self, lines: Sequence[Line]) -> float:
        key = tuple(lines)
        known = self.cache.get(key)
        if known is not None:
            return known
        heard = self.public.fork()
        for line in key:
            heard.hear_line(self.seat, line, claims=False)
        worth = self._worth(heard)
        shift = self.reader.shift(
            [
                tell_key(line, self.seat, self.public.table, self.public.heard.accused)
                for line in key
            ]
        )
        if shift:
            worth -= _moved(self.own, shift) - self.own
        self.cache[key] = worth
        return worth

    def unanswered(self) -> float:
        """Saying nothing to a question put to the seat by name: silence, read as such."""
        heard = self.public.fork()
        heard.hear_silence(self.seat)
        return self._worth(heard)

    def _worth(self, heard: Beliefs) -> float:
        m = heard.marginals()
        worth = -float(sum(m[t, FAS] + m[t, HIT] for t in self.team))
        if self.hitler is not None:
            worth -= float(m[self.hitler, HIT])
        return worth


def team_judge(
    public: Beliefs,
    seat: int,
    team: Sequence[int],
    hitler: int | None,
    kinds: KindTells | None = None,
) -> Judge:
    """``TeamJudge`` with the kinds of line read by ``kinds`` (None: the committed reader,
    ``talk_kinds.KIND_TELLS``)."""
    return TeamJudge(public, seat, team, hitler, talk_kinds.KIND_TELLS if kinds is None else kinds)


def _moved(p: float, shift: float) -> float:
    """``p`` moved by ``shift`` in log-odds."""
    p = min(max(p, 1e-6), 1 - 1e-6)
    return 1 / (1 + math.exp(-(math.log(p / (1 - p)) + shift)))


__all__ = ["TeamJudge", "team_judge"]
