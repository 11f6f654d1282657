"""What a line is worth to the speaker's team: how the liberal table would read it.

A fascist's voice (``bots.voice``) says what the liberal it pretends to be would say, then bends
where its team gains. The gain is priced here, on the public posterior (``Beliefs`` with no
seat: what an observer who heard the same lines believes) and the listeners' model of talk
(``Beliefs.hear_line``): the table's P(fascist party) summed over the seats of the team the
speaker knows (itself included), plus the table's P(Hitler) of its Hitler, after hearing the
lines, negated (higher is better for the team). So bussing a teammate is worth it when the trust
the speaker gains outweighs the suspicion the teammate takes, and a Hitler read on a liberal when
it moves suspicion off Hitler.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..talk.lines import Line
from .beliefs import FAS, HIT, Beliefs
from .voice import Judge


def team_judge(public: Beliefs, seat: int, team: Sequence[int], hitler: int | None) -> Judge:
    """The value of the table hearing ``lines`` from ``seat`` now, for the team ``team`` (the
    seats the speaker knows, itself included) whose Hitler is ``hitler`` (None: unknown)."""
    cache: dict[tuple[Line, ...], float] = {}

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
        cache[key] = worth
        return worth

    return value


__all__ = ["team_judge"]
