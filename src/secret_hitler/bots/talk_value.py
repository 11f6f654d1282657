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
more than a line.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..talk.lines import Line
from . import talk_kinds
from .beliefs import FAS, HIT, Beliefs
from .talk_kinds import KindTells, tell_key
from .voice import Judge


def team_judge(
    public: Beliefs,
    seat: int,
    team: Sequence[int],
    hitler: int | None,
    kinds: KindTells | None = None,
) -> Judge:
    """The value of the table hearing ``lines`` from ``seat`` now, for the team ``team`` (the
    seats the speaker knows, itself included) whose Hitler is ``hitler`` (None: unknown), with
    the kinds of line read by ``kinds`` (None: the committed reader, ``talk_kinds.KIND_TELLS``)."""
    reader = talk_kinds.KIND_TELLS if kinds is None else kinds
    cache: dict[tuple[Line, ...], float] = {}
    before = public.marginals()
    own = float(before[seat, FAS] + before[seat, HIT])

    def value(lines: Sequence[Line]) -> float:
        key = tuple(lines)
        known = cache.get(key)
        if known is not None:
            return known
        heard = public.fork()
        for line in key:
            heard.hear_line(seat, line, claims=False)
        m = heard.marginals()
        worth = -float(sum(m[t, FAS] + m[t, HIT] for t in team))
        if hitler is not None:
            worth -= float(m[hitler, HIT])
        shift = reader.shift(
            [tell_key(line, seat, public.table, public.heard.accused) for line in key]
        )
        if shift:
            worth -= _moved(own, shift) - own
        cache[key] = worth
        return worth

    return value


def _moved(p: float, shift: float) -> float:
    """``p`` moved by ``shift`` in log-odds."""
    p = min(max(p, 1e-6), 1 - 1e-6)
    return 1 / (1 + math.exp(-(math.log(p / (1 - p)) + shift)))


__all__ = ["team_judge"]
