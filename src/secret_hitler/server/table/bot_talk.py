"""The bots' talk at a live table: the talk loop of every host, and the pacing the server adds.

Whom to ask, in which order, and who hears what is the loop of ``bots/table_talk.py``, the one
the simulator runs (``TableTalk.conversation``). ``BotTalk`` runs it at a table: a bot's line
goes out through the table's chat path (``say``: stored before anyone hears it) and only a line
that went out is heard by the other bots. What a live table adds is when a line reaches people,
so that bots read like people typing, never a flood (``Pacing``, ``BotLines``): a line leaves
no sooner than a beat after the move it answers (half of ``SH_BOT_DELAY``), one bot's lines
``chat.BOT_LINE_GAP`` apart, waiting in a short queue (``chat.BOT_QUEUE_MAX``, the freshest kept)
meanwhile, and a round holds at most ``chat.TABLE_LINES_PER_ROUND`` bots' lines (an answer to a
person's question still leaves). A line that waited is heard when it leaves.

Conversations happen after each move's claims (the driver's step, as in the simulator) and, a
beat later, after any line said outside one (a person's, a bot's line that waited): a reply. A
bot that is thinking is left out (an agent is never used from two threads) and hears what it
missed at the next conversation, a moment later. Bots talk only while the table's switch is
on; they always listen. ``Pacing.none()`` lets every line leave when it is said: a table then
talks exactly as the simulator does (``tests/server/test_sim_parity.py``).
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass

from ...bots.supervised import Supervised
from ...bots.table_talk import TableTalk
from ...engine import Game
from ...talk import Answer, Line
from ...talk.said import Said
from .chat import BOT_LINE_GAP, BOT_QUEUE_MAX, TABLE_LINES_PER_ROUND


@dataclass(frozen=True, slots=True)
class Pacing:
    """``beat``: seconds after a move before a line may leave; ``gap``: seconds between two
    lines of one bot; ``per_round``: bots' lines a round may hold (None: no bound);
    ``queue``: lines one bot may have waiting."""

    beat: float
    gap: float = BOT_LINE_GAP
    per_round: int | None = TABLE_LINES_PER_ROUND
    queue: int = BOT_QUEUE_MAX

    @classmethod
    def for_delay(cls, bot_delay: float) -> Pacing:
        """A table's pacing: a reply comes half a bot's thinking time after what it answers."""
        return cls(beat=0.5 * max(bot_delay, 0.0))

    @classmethod
    def none(cls) -> Pacing:
        return cls(beat=0.0, gap=0.0, per_round=None)


class BotLines:
    """The bots' lines waiting to leave, when each bot's next may, and the round's count."""

    def __init__(self, pacing: Pacing) -> None:
        self.pacing = pacing
        self.waiting: dict[int, deque[Line]] = {}
        self.next_at: dict[int, float] = {}  # seat -> when its next line may leave (monotonic)
        self._round: tuple[int, int] = (-1, 0)  # (round, bots' lines said in it)

    def clear(self) -> None:
        self.waiting.clear()
        self.next_at.clear()
        self._round = (-1, 0)

    def may_leave(self, seat: int, now: float, earliest: float) -> bool:
        """Whether a line the seat says now may leave at once: nothing of its own waits before
        it, its gap has passed and so has ``earliest`` (the beat after the move)."""
        return not self.waiting.get(seat) and now >= max(earliest, self.next_at.get(seat, now))

    def hold(self, seat: int, line: Line, earliest: float) -> None:
        """Keep ``line`` until the seat's turn to speak comes (``due``), at ``earliest``."""
        queue = self.waiting.setdefault(seat, deque(maxlen=self.pacing.queue))
        queue.append(line)
        self.next_at[seat] = max(self.next_at.get(seat, earliest), earliest)

    def due(self, now: float) -> Iterator[tuple[float, int]]:
        """(when, seat) of each seat's next waiting line."""
        for seat in self.waiting:
            yield self.next_at.get(seat, now), seat

    def take(self, seat: int) -> Line | None:
        """The seat's next waiting line, if any."""
        queue = self.waiting.get(seat)
        if not queue:
            self.waiting.pop(seat, None)
            return None
        line = queue.popleft()
        if not queue:
            del self.waiting[seat]
        return line

    def spend(self, seat: int, now: float, round_: int, answer: bool) -> bool:
        """A line of the seat leaves now (its gap starts), if the round's budget allows it (an
        ``answer`` to a person always does)."""
        self.next_at[seat] = now + self.pacing.gap
        said_round, count = self._round
        if said_round != round_:
            self._round = (round_, 0)
            count = 0
        limit = self.pacing.per_round
        return answer or limit is None or count < limit

    def counted(self, round_: int) -> None:
        """A bot's line was said in ``round_`` (``spend`` started its round)."""
        said_round, count = self._round
        self._round = (round_, count + 1 if said_round == round_ else 1)


class BotTalk:
    """A table's bots' talk: the loop (``loop``: who has heard what), the lines on their way
    (``lines``) and when the next reply conversation is due (``due``, monotonic)."""

    def __init__(
        self,
        bots: Mapping[int, Supervised],
        game: Callable[[], Game | None],
        say: Callable[[int, Line], Awaitable[bool]] | None,
        talk_on: Callable[[], bool],
        free: Callable[[int], bool],
        now: Callable[[], float],
        log: logging.LoggerAdapter,  # type: ignore[type-arg]
        pacing: Pacing,
    ) -> None:
        self.bots = bots  # the table's bot seats (the driver's)
        self._game = game
        self.say = say  # how a bot's line is said at the table (``Table.bot_chat``)
        self.on = talk_on  # the table's switch
        self.free = free  # whether a seat's bot may be asked now (it is not thinking)
        self.now = now  # the table's clock (monotonic)
        self.log = log
        self.loop = TableTalk()
        self.lines = BotLines(pacing)
        self.due: float | None = None
        self._talking = False  # inside a conversation: a bot's line is heard there

    def reset(self) -> None:
        """Forget the game's talk (a remake)."""
        self.loop = TableTalk()
        self.clear()

    def clear(self) -> None:
        self.due = None
        self.loop.unheard.clear()
        self.lines.clear()

    def heard(self, seat: int | None, after: int, lines: list[Line]) -> bool:
        """Lines said at the table (a person's, as the server read them; a bot's, once it went
        out): every other bot seat hears them. A bot's line said inside a conversation is heard
        in it; any other gets a reply a beat later: True when one is due."""
        self.loop.heard([Said(seat, after, line) for line in lines], self.bots)
        if self._talking and seat in self.bots:
            return False
        if self.due is None and self.bots:
            self.due = self.now() + self.lines.pacing.beat
        return True

    async def converse(self, earliest: float, going_on: Callable[[], bool]) -> None:
        """One conversation of the loop now: each line a bot says leaves at once if its pacing
        allows (``earliest``: the beat after the move it answers), else waits its turn
        (``say_next``). Ends early once ``going_on()`` is False (a new move: its conversation
        follows). A bot left out while thinking is asked again a moment later."""
        game = self._game()
        assert game is not None
        self.due = None
        steps = self.loop.conversation(game, self.bots, speak=self.on(), ready=self.free)
        self._talking = True
        try:
            entry = next(steps)
            while going_on():
                assert entry.seat is not None and entry.line is not None
                if self.lines.may_leave(entry.seat, self.now(), earliest):
                    said = await self._say(game, entry.seat, entry.line)
                else:
                    self.lines.hold(entry.seat, entry.line, earliest)
                    said = False
                entry = steps.send(said)
        except StopIteration:
            pass
        finally:
            self._talking = False
            steps.close()
        left_out = [s for s in self.bots if not self.free(s) and game.alive[s]]
        if any(self.loop.unheard.get(s) for s in left_out) or (left_out and self.on()):
            self.due = self.now() + 0.25

    async def say_next(self, seat: int) -> None:
        """The seat's next waiting line leaves."""
        game = self._game()
        line = self.lines.take(seat)
        if line is not None and game is not None:
            await self._say(game, seat, line)

    async def _say(self, game: Game, seat: int, line: Line) -> bool:
        """Say a bot's line through the table's chat path, within the round's budget."""
        answer = isinstance(line, Answer)
        allowed = self.lines.spend(seat, self.now(), game.round, answer)
        if not allowed or self.say is None or not self.on():
            self.log.debug("bot line dropped", extra={"seat": seat, "answer": answer})
            return False
        said = await self.say(seat, line)
        if said:
            self.lines.counted(game.round)
        return said
