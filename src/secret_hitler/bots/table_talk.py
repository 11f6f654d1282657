"""What a table asks its bots between two moves: their claims, then their talk.

One protocol for every host. The simulator (``bots.base.play_out``) and the server's driver
(``server/table/driver.py``) run these same two loops, so a table of bots plays the same game
in ``simulate`` and at a live table: the same asks, in the same order, with the same views
(``tests/server/test_sim_parity.py``). After every applied action that leaves no vote open:

1. **Claims** (``claim_asks``): each seat with an open claim window is asked for its claims,
   the last elected president first (``claim_order``: a chancellor hears his story before
   telling hers), and every seat is asked again while anyone claims.
2. **Talk** (``TableTalk.conversation``): every living seat that speaks is asked what it says,
   in the same order, ``passes`` times at most (a seat accused or asked in one pass answers in
   the next), until a pass in which nobody said anything. Every living seat is asked, also the
   government during its legislative session, and what a seat that may not speak now says is
   dropped (``engine.speech.may_speak``): each level keeps its own state the same way whoever
   hosts it (the built-in voice reads its view at every ask and says nothing while silenced), a
   plug-in or a model that talks anyway is silenced here, and a line a model said with its
   decision during the session is dropped, not said after it. Each line said is heard by every
   other living seat that listens right after its speaker's lines.

Both loops are written without input or output (generators): they say whom to ask next and
what became of each answer, and the host asks and says in its own way. The simulator answers at
once and says every line; the server asks on its bots' thread pool and stores each line before
anyone hears it, and adds only pacing: when a line leaves (a beat after the move, a gap between
one bot's lines) and how many lines a round may hold. A line the host did not say now is not
heard now; the server says it later and the bots hear it then (``TableTalk.heard``), as they
hear people's lines, before they next speak.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from typing import Protocol

from ..engine import Action, Game, View
from ..engine import actions as A
from ..engine.speech import may_speak
from ..talk.lines import Line
from ..talk.said import Said

#: ``claim_asks`` yields (seat, its open claim actions) and is sent how many the host applied.
ClaimAsks = Generator[tuple[int, list[Action]], int, int]
#: ``TableTalk.conversation`` yields each line to say and is sent whether it was said.
Conversation = Generator[Said, bool, int]


def claim_order(game: Game) -> list[int]:
    """The seats in the order claims and talk are asked for: the last elected president first,
    so a chancellor can hear his story before telling hers."""
    n = game.n
    first = game.president if game.president is not None else 0
    return [(first + i) % n for i in range(n)]


def claim_asks(game: Game, asks: Callable[[int], bool]) -> ClaimAsks:
    """The claim protocol after an applied action: yields ``(seat, options)`` for each seat the
    host ``asks`` that has open claim actions (``options``, the claims it may make now), in
    ``claim_order``, and is sent how many of the seat's claims the host applied. While a pass
    applied any claim, every open window is asked again (a seat that declined may answer the
    other's story). Returns the claims applied."""
    made = 0
    order = claim_order(game)
    while not game.finished:
        progress = False
        open_seats = game.claimants()
        for seat in order:
            if seat not in open_seats or not asks(seat):
                continue
            options = [a for a in game.legal_actions(seat) if a.type == A.CLAIM]
            if not options:
                continue
            applied = yield seat, options
            if applied:
                made += applied
                progress = True
        if not progress:
            break
    return made


class Talker(Protocol):
    """One seat in the talk loop: the host's wrapper of its agent (the simulator's raises on a
    broken contract, the server's ``bots.supervised.Supervised`` logs and goes on)."""

    @property
    def speaks(self) -> bool: ...

    @property
    def listens(self) -> bool: ...

    def speech(self, view: View) -> list[Line]: ...

    def hear(self, view: View, said: Sequence[Said]) -> None: ...


class TableTalk:
    """The talk of one table's game (the module docstring): who has not heard what yet, and the
    conversation after each move. ``listen[seat]`` False makes a seat deaf; ``said`` keeps every
    line the simulator said (``round``), the record's talk section."""

    def __init__(self, listen: Sequence[bool] | None = None, passes: int = 2) -> None:
        self.listen = None if listen is None else list(listen)
        self.passes = passes
        self.said: list[Said] = []
        #: seat -> the lines said since it last heard (delivered before it next speaks)
        self.unheard: dict[int, list[Said]] = {}

    def hears(self, seat: int, talker: Talker) -> bool:
        return talker.listens and (self.listen is None or bool(self.listen[seat]))

    def heard(self, said: Sequence[Said], talkers: Mapping[int, Talker]) -> None:
        """Lines one speaker (a seat, or a person) said at the table: every other seat that
        listens hears them, inside a conversation right after its speaker's lines, else before
        it next speaks."""
        if not said:
            return
        speaker = said[0].seat
        for seat, talker in talkers.items():
            if seat != speaker and self.hears(seat, talker):
                self.unheard.setdefault(seat, []).extend(said)

    def conversation(
        self,
        game: Game,
        talkers: Mapping[int, Talker],
        *,
        speak: bool = True,
        ready: Callable[[int], bool] | None = None,
    ) -> Conversation:
        """One conversation now, as the module docstring says: yields every line a seat says
        (``Said``) and is sent whether the host said it (a line said is ``heard`` by the host's
        call). ``speak`` False: the seats only hear (a table whose bots are silenced).
        ``ready(seat)`` False: the seat is busy (a server's bot still thinking) and is left out,
        its lines kept for later. Returns the lines said."""
        order = claim_order(game)
        view = game.observer.view
        total = 0
        for _ in range(self.passes):
            said_now = 0
            for seat in order:
                talker = talkers.get(seat)
                if talker is None or not game.alive[seat] or (ready and not ready(seat)):
                    continue
                self._deliver(seat, talker, view)
                if not speak or not talker.speaks:
                    continue
                lines = talker.speech(view(seat))
                if not lines or not may_speak(game, seat):
                    continue  # the engine's speech rule: the government in session says nothing
                after = len(game.actions)
                said = 0
                for line in lines:
                    said += bool((yield Said(seat, after, line)))
                if said:
                    for other in order:
                        listener = talkers.get(other)
                        if listener is not None and (ready is None or ready(other)):
                            self._deliver(other, listener, view, game)
                said_now += said
            total += said_now
            if not said_now:
                break
        return total

    def round(self, game: Game, talkers: Mapping[int, Talker]) -> int:
        """One conversation with every line said at once (the simulator): returns the lines."""
        steps = self.conversation(game, talkers)
        try:
            entry = next(steps)
            while True:
                self.said.append(entry)
                self.heard((entry,), talkers)
                entry = steps.send(True)
        except StopIteration as done:
            said: int = done.value
            return said

    def _deliver(
        self, seat: int, talker: Talker, view: Callable[[int], View], game: Game | None = None
    ) -> None:
        """The seat hears what it has not heard yet (a dead seat's lines are dropped)."""
        said = self.unheard.pop(seat, None)
        if said and (game is None or game.alive[seat]):
            talker.hear(view(seat), said)


__all__ = ["ClaimAsks", "Conversation", "TableTalk", "Talker", "claim_asks", "claim_order"]
