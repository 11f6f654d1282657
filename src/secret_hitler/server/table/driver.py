"""A table's driver: when bots, stand-ins and decision timers move, on the table's clock.

One task per running table sleeps until the next automatic move is due and submits it like any
other action (``Submit``: ``Table.submit``). What a bot is asked, and what becomes of a bot that
fails, is not decided here: each bot is a ``bots.supervised.Supervised`` (its agent, the
fallback that answers when it fails, its deadline: ``bot_seats.py``), asked once per decision,
and what bots are asked between two moves, their claims then their talk, is the loop of
``bots/table_talk.py`` that the simulator runs too. So a table of bots plays the game
``simulate`` plays with the same seeds (``tests/server/test_sim_parity.py``); the driver adds
only time:

- **Steps.** After every move that leaves no vote open the bots' claims are asked, then they
  talk, and only then is the next decision put to them (``_Step``), as in the simulator. A
  bot's own claim is part of its step; a person's claim starts a step (bots answer her story).
- **When a move leaves.** At a time drawn when the decision comes (``_draw``: by the level,
  never by the role or hand); the bot thinks inside it, from the moment the decision is put to
  it, so a watcher who times the moves learns nothing of what it weighed. A bot still thinking
  holds up no other move. A bot candidate first gives the people of the last government
  ``claim_wait`` seconds to claim (``claim_hold.py``).
- **Talk** (``bot_talk.py``): lines leave at a person's pace, within the table's budget.
- **Timers and stand-ins.** A person's decision not made by the table's timer is made by a
  stand-in bot, supervised the same way, or at a table whose ``on_timeout`` is ``random`` at
  random, as secrethitler.io's timed mode makes it (``Game.forced_action``); one of a person
  away longer than ``grace`` is always made by the stand-in.

A language model's seat is awaited on the event loop, holding no thread, until a deadline
players are shown (``waits``: the update's ``model_deadlines``); a move its fallback made is
submitted ``by: "fallback"``. A move the table could not make (the database is away, a bug) is
retried after a growing pause. The task ends only with the game, or when the table is closed.

It is past 600 lines because ``BotDriver`` is one task's loop over one table's clock: the
steps, the drawn leave times, the timers, the stand-ins and the model seats' waits all read
and change the one decision in progress (its deadline, who moves, the step under way); what
stands alone is elsewhere (``bot_seats.py``, ``bot_talk.py``, ``claim_hold.py``, ``bots/``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from ...bots.supervised import Decided, Supervised
from ...bots.table_talk import ClaimAsks, claim_asks
from ...engine import Action, Game
from ...engine.actions import CLAIM
from ...engine.categories import RANDOM, STANDIN
from ...engine.types import Phase
from ...talk import Line
from ..core import protocol as P
from .bot_seats import BotSeats, think_floor
from .bot_talk import BotTalk, Pacing
from .claim_hold import ClaimHold
from .models import Plan
from .presence import Presence
from .seats import Seat, Seating
from .services import Services


class Submit(Protocol):
    """How the driver plays a move: like anyone else (``Table.submit``)."""

    def __call__(
        self,
        seat: int,
        action: Action,
        by: str | None = None,
        expect: tuple[int, str, int] | None = None,
    ) -> Awaitable[int]: ...


@dataclass(slots=True)
class _Step:
    """The claims and talk after a move that left no vote open (``bots/table_talk.py``): the
    claim protocol's asks (None once they are over: the conversation is next), the ask now due
    (``seat``, its ``options``) and when (``due``, monotonic); ``at``: when the move was made."""

    at: float
    asks: ClaimAsks | None
    due: float = 0.0
    seat: int = -1
    options: list[Action] | None = None


class BotDriver:
    """Everything at a table that moves without a person, through the ``submit`` it holds."""

    def __init__(
        self,
        submit: Submit,
        game: Callable[[], Game | None],
        seating: Seating,
        presence: Presence,
        services: Services,
        log: logging.LoggerAdapter,  # type: ignore[type-arg]
        timer: int | None,
        bot_level: str,
        say: Callable[[int, Line], Awaitable[bool]] | None = None,
        talk_on: Callable[[], bool] = lambda: False,
        on_timeout: str = STANDIN,
    ) -> None:
        self.submit = submit
        self._game = game  # the table's current game (a remake or a restore replaces it)
        self.seating = seating
        self.presence = presence
        self.settings = services.settings
        self.clock = services.clock
        self.rng = services.rng
        # seconds a bot candidate waits for people's claims (``claim_hold``); a table may set it
        self.claim_wait = services.settings.claim_wait
        self.log = log
        self.timer = timer
        self.on_timeout = on_timeout  # who moves when the timer runs out (table/options.py)
        self.crew = BotSeats(seating, services, bot_level, log)
        self.bots = self.crew.bots  # the bot seats' bots (``Supervised``), by seat
        # the pending decision, its deadline, and the bots' moves for it
        self.decision_key: tuple[int, str] | None = None
        self.decision_at: float | None = None  # monotonic: since when it waits (table/afk.py)
        self.deadline: float | None = None  # epoch seconds, for clients
        self.deadline_at: float | None = None  # monotonic
        self.bot_due: dict[int, float] = {}  # seat -> when its move leaves (drawn in advance)
        self.thinking: dict[int, asyncio.Task[Decided[Action]]] = {}  # seat -> its decision
        # seat -> when a model seat's wait for the pending decision ends (Unix seconds): shown
        # to players while it thinks (``waits``)
        self.model_until: dict[int, float] = {}
        self.claims_hold = ClaimHold()  # a bot candidate's wait for people's claims
        # the claims and talk after the last move, before the next decision is put to bots
        self.step: _Step | None = None
        self._claiming: Action | None = None  # a bot's claim being submitted (no new step)
        # the bots' talk: the talk loop, run with the table's pacing (bot_talk.py)
        pacing = Pacing.for_delay(self.settings.bot_delay)
        self.talk = BotTalk(self.bots, game, say, talk_on, self._free, self._now, log, pacing)
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    @property
    def game(self) -> Game | None:
        return self._game()

    @property
    def seats(self) -> list[Seat]:
        return self.seating.seats

    def connected(self, seat: int) -> bool:
        return self.presence.connected(seat)

    # ------------------------------------------------------------------ lifecycle
    def start(self, name: str) -> None:
        """Drive a started game (new, or rebuilt after a restart): bots seated, absent people
        counted as away from now, the first decision put (no step: nothing was played now)."""
        game = self.game
        assert game is not None
        now = self.clock.monotonic()
        for i, s in enumerate(self.seats):
            if s.kind == "bot":
                self.crew.seat(i, game.seed)
            elif s.kind == "human" and not self.connected(i):
                self.presence.away_since[i] = now
        self.schedule(step=False)
        if not game.finished:
            self.task = asyncio.create_task(self._drive(), name=name)

    def halt(self) -> None:
        """Stop at once (the table went to another node); the task ends at its next await."""
        self._forget_thinking()
        if self.task is not None:
            self.task.cancel()
            self.task = None

    async def stop(self) -> None:
        """Stop and wait for the task to end."""
        self._forget_thinking()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
            self.task = None

    async def reset(self) -> None:
        """Stop driving the current game and forget its bots (a remake replaces it)."""
        await self.stop()
        self.crew.clear()
        self.bot_due.clear()
        self.decision_key = None
        self.claims_hold.clear()
        self._end_step()
        self.talk.reset()

    def finished(self) -> None:
        self.crew.game_over()
        self.deadline = self.deadline_at = None
        self._forget_thinking()
        self._end_step()
        self.wake.set()

    def _forget_thinking(self) -> None:
        """Drop the decisions being made (a thread that is thinking finishes unheard)."""
        for task in self.thinking.values():
            task.cancel()
        self.thinking.clear()
        self.model_until.clear()

    def waits(self) -> dict[str, float] | None:
        """The model seats thinking about the pending decision, each with the time (Unix
        seconds) its fallback plays at the latest: public (a seat's kind, the table's timer and
        the endpoint's limits are), for every update and welcome; None when there are none."""
        g = self.game
        if g is None or g.finished or not self.model_until:
            return None
        acting = set(g.to_act())
        out = {str(s): t for s, t in sorted(self.model_until.items()) if s in acting}
        return out or None

    # ------------------------------------------------------------------ bot seats
    def seat_to_bot(self, seat: int) -> None:
        """The seat (just given to a bot) is played by its bot from now on."""
        game = self.game
        if game is not None and not game.finished:
            self.crew.seat(seat, game.seed)
            self.presence.away_since.pop(seat, None)
            if seat in game.to_act() and not self.claims_hold.holds(seat):
                self._draw(seat, self._now())
                if self.step is None:
                    self._put(seat, self._now())
            self.wake.set()

    def _now(self) -> float:
        return self.clock.monotonic()

    def _delay(self, seat: int) -> float:
        """How long after a decision comes a bot's move leaves: ``bot_delay`` x U(0.5, 1.5), its
        lower end raised to the level's think floor (``think_floor``), drawn before the bot
        thinks. ``bot_delay`` 0 (tests) means no delay: a move then leaves when its bot is done."""
        d = self.settings.bot_delay
        if d <= 0:
            return 0.0
        low = max(0.5 * d, think_floor(self.crew.level(seat)))
        return low + d * self.rng.random()

    def _draw(self, seat: int, now: float) -> None:
        """When the seat's move for the decision that just came leaves."""
        self.bot_due[seat] = now + self._delay(seat)

    def _free(self, seat: int) -> bool:
        """Whether the seat's bot may be asked something now (it is not thinking)."""
        thinking = self.thinking.get(seat)
        return thinking is None or thinking.done()

    def _put(self, seat: int, now: float) -> None:
        """Put the decision to the seat's bot: it starts thinking now, on the game as it is now
        (committed: ``schedule`` runs after a commit), its move leaving at ``bot_due``."""
        g = self.game
        assert g is not None
        if seat not in self.bot_due:
            self._draw(seat, now)
        old = self.thinking.pop(seat, None)
        if old is not None:
            old.cancel()
        legal = [a for a in g.legal_actions(seat) if a.type != CLAIM]
        if not legal:
            return
        bot = self.bots.get(seat) or self.crew.seat(seat, g.seed)
        plan = self._model_plan(seat, now)
        until, limit = (None, None) if plan is None else (plan.deadline, plan.limit)
        ask = bot.decide(g.view(seat), legal, until, limit)
        task = self.thinking[seat] = asyncio.create_task(ask, name=f"think-{seat}")
        task.add_done_callback(self._thought)

    def _put_all(self, now: float) -> None:
        """Put the decision to every bot that acts now and is not asked yet (nor held)."""
        g = self.game
        assert g is not None
        for s in g.to_act():
            held = self.claims_hold.holds(s)
            if self.seats[s].kind == "bot" and not held and s not in self.thinking:
                self._put(s, now)

    def _model_plan(self, seat: int, now: float, delay: float = 0.0) -> Plan | None:
        """The plan of a model seat's ask that begins ``delay`` seconds from ``now`` (None for
        a seat that is no model); its end is what players are shown (``waits``)."""
        left = None if self.deadline_at is None else self.deadline_at - now - delay
        plan = self.crew.plan(seat, left, delay)
        if plan is None:
            self.model_until.pop(seat, None)
        else:
            self.model_until[seat] = round(self.clock.time() + plan.deadline - time.monotonic(), 2)
        return plan

    def _thought(self, _task: asyncio.Task[Decided[Action]]) -> None:
        """A bot is done thinking: its move may be due (``_next_task`` skips a seat still
        thinking, so that a slow model holds up no other move of its table)."""
        self.wake.set()

    # ------------------------------------------------------------------ after every change
    def schedule(self, step: bool = True) -> None:
        """After every change: a new decision gets its deadline, its bots' leave times and its
        wait for people's claims; a move that leaves no vote open starts a step (``_Step``);
        without a step pending the bots that act now start thinking."""
        g = self.game
        assert g is not None
        if g.finished:
            self.bot_due.clear()
            self._forget_thinking()
            self._end_step()
            self.talk.clear()
            self.claims_hold.hold = None
            self.deadline = self.deadline_at = None
            return
        now = self._now()
        key = (g.round, g.phase.value)
        open_now = self.claims_hold.windows(g)
        if key != self.decision_key:
            self._new_decision(g, key, now, open_now)
        if step and g.phase is not Phase.VOTE and not self._own_claim(g):
            self._new_step(g, now)
        if self.step is None:
            self._put_all(now)
        if self._next_task(now) is not None:  # else the task has nothing to wake up for
            self.wake.set()

    def _new_decision(
        self, g: Game, key: tuple[int, str], now: float, open_now: set[tuple[int, str]]
    ) -> None:
        self.decision_key = key
        self.decision_at = now
        self.bot_due.clear()
        self._forget_thinking()
        hold = self.claims_hold
        hold.hold = None
        if self.timer:
            self.deadline_at = now + self.timer
            self.deadline = round(self.clock.time() + self.timer, 3)
        if g.phase is Phase.NOMINATE:
            hold.nomination(g, now, open_now, self.claim_wait, self.seats, self.connected)
        for s in g.to_act():
            if self.seats[s].kind != "bot":
                continue
            if hold.hold is not None and hold.hold.seat == s:  # asked once the wait ends
                self._model_plan(s, now, hold.hold.until - now)  # its latest deadline
            else:
                self._draw(s, now)
                self._model_plan(s, now)  # shown from now, though asked after the step

    def _own_claim(self, g: Game) -> bool:
        """Whether the last action is the claim a bot's step is submitting (part of the step)."""
        return self._claiming is not None and bool(g.actions) and g.actions[-1] == self._claiming

    def _new_step(self, g: Game, now: float) -> None:
        """The claims and talk after the move just made, before the next decision is put."""
        self._end_step()
        step = self.step = _Step(now, claim_asks(g, self._asks_claims))
        self._next_ask(step, now, None)

    def _end_step(self) -> None:
        step, self.step = self.step, None
        if step is not None and step.asks is not None:
            step.asks.close()

    def _asks_claims(self, seat: int) -> bool:
        """Whether the claim protocol asks the seat: a bot that makes claims, not thinking."""
        bot = self.bots.get(seat)
        return bot is not None and bot.makes_claims and self._free(seat)

    def _next_ask(self, step: _Step, now: float, applied: int | None) -> None:
        """The step's next claim ask (a short beat after the move, drawn as a move's delay is),
        or once the claims are over its conversation (at once)."""
        assert step.asks is not None
        try:
            seat, options = next(step.asks) if applied is None else step.asks.send(applied)
        except StopIteration:
            step.asks, step.seat, step.options, step.due = None, -1, None, now
            return
        step.seat, step.options = seat, options
        step.due = max(now, step.at + 0.3 * self._delay(seat))

    def _release(self, now: float) -> None:
        """The candidate whose wait for people's claims ended decides now (``claim_hold``)."""
        g = self.game
        seat = None if g is None else self.claims_hold.ended(g, now, self.connected)
        if g is not None and seat is not None and seat in g.to_act():
            if self.seats[seat].kind == "bot":
                self._draw(seat, now)
                if self.step is None:
                    self._put(seat, now)

    # ------------------------------------------------------------------ talk
    def heard(self, seat: int | None, after: int, lines: list[Line]) -> None:
        """Lines said at the table (a person's, as the server read them; a bot's, once it went
        out): every other bot seat hears them (``BotTalk.heard``)."""
        if lines and self.game is not None and self.talk.heard(seat, after, lines):
            self.wake.set()

    # ------------------------------------------------------------------ the task
    def _next_task(self, now: float) -> tuple[float, int, int, str] | None:
        """The next automatic move: (when, priority, seat, kind); a step's asks go first."""
        g = self.game
        if g is None or g.finished:
            return None
        step = self.step
        tasks: list[tuple[float, int, int, str]] = []
        if step is not None:
            tasks.append((step.due, 0, step.seat, "step"))
        elif self.talk.due is not None:  # a reply (a step's conversation answers it too)
            tasks.append((self.talk.due, 2, -1, "talk"))
        hold = self.claims_hold.hold
        if hold is not None:
            tasks.append((hold.until, 1, hold.seat, "hold"))
        tasks += [(when, 2, s, "say") for when, s in self.talk.lines.due(now)]
        grace = self.settings.grace
        for s in g.to_act():
            if self.seats[s].kind == "bot":
                if step is None and not self.claims_hold.holds(s) and self._free(s):
                    tasks.append((self.bot_due.get(s, now), 1, s, "bot"))
                continue
            if self.deadline_at is not None:
                tasks.append((self.deadline_at, 1, s, "timer"))
            if s in self.presence.away_since and not self.connected(s):
                tasks.append((self.presence.away_since[s] + grace, 1, s, "absent"))
        return min(tasks) if tasks else None

    async def _drive(self) -> None:
        failures = 0  # automatic moves in a row that could not be made
        while (game := self.game) is not None and not game.finished:
            self.wake.clear()
            seat, kind = -1, "schedule"
            try:
                now = self._now()
                self._release(now)
                task = self._next_task(now)
                if task is None:
                    await self.wake.wait()
                    continue
                when, _, seat, kind = task
                if when > now:
                    await self._nap(when - now)
                    continue
                if kind == "hold":  # its time is up: released at the top of the loop
                    continue
                moved = await self._auto_move(seat, kind)
            except asyncio.CancelledError:
                raise
            except Exception:
                self.log.exception(
                    "automatic move failed (%s, seat %d); retrying",
                    kind,
                    seat,
                    extra={"seat": seat, "kind": kind},
                )
                moved = False
            if moved:
                failures = 0
                continue
            # nothing could be played: do not spin, retry after a growing pause (at most 5 s)
            failures += 1
            await self._nap(min(0.25 * 2**failures, 5.0))

    async def _nap(self, seconds: float) -> None:
        """Sleep until woken (``wake``) or ``seconds`` have passed. Not ``asyncio.wait_for``: on
        Python 3.11 it returns instead of raising when the driver is cancelled just as ``wake``
        is set (CPython gh-86296), and a stopped driver would then sleep on."""
        waiter = asyncio.ensure_future(self.wake.wait())
        try:
            await asyncio.wait([waiter], timeout=seconds)
        finally:
            waiter.cancel()

    async def _auto_move(self, seat: int, kind: str) -> bool:
        """Make what is due: a step's ask, a conversation, a line, a bot's or a stand-in's
        move; False when nothing could be played."""
        if kind == "step":
            await self._step_turn()
            return True
        if kind == "talk":
            await self.talk.converse(self._now(), lambda: self.step is None)
            return True
        if kind == "say":
            await self.talk.say_next(seat)
            return True
        if kind == "bot":
            return await self._bot_move(seat)
        return await self._standin_move(seat, kind)

    async def _step_turn(self) -> None:
        """The step's next ask: a bot's claims (submitted as its own, part of the step), or
        once the claims are over its conversation, after which the bots decide. A failure
        costs that ask, never the step (the bots must go on to decide)."""
        step = self.step
        assert step is not None
        if step.options is None:
            beat = self.talk.lines.pacing.beat
            try:
                await self.talk.converse(step.at + beat, lambda: self.step is step)
            except Exception:
                self.log.exception("bots' talk failed")
            if self.step is step:
                self.step = None
                self._put_all(self._now())
            return
        applied = 0
        try:
            applied = await self._bot_claims(step, step.seat, step.options)
        except Exception:
            self.log.exception("bot claims failed", extra={"seat": step.seat})
        if self.step is step and step.asks is not None:
            self._next_ask(step, self._now(), applied)

    async def _bot_claims(self, step: _Step, seat: int, options: list[Action]) -> int:
        """Ask the seat's bot for its claims (the claim protocol, ``bots/base.py``) and submit
        them; returns how many were made (none if the game moved on meanwhile)."""
        g = self.game
        assert g is not None
        bot = self.bots.get(seat)
        if bot is None:
            return 0
        plan = self._model_plan(seat, self._now()) if bot.waits else None
        until, limit = (None, None) if plan is None else (plan.deadline, plan.limit)
        decided = await bot.claims(g.view(seat), options, until, limit)
        if self.step is not step:
            return 0  # a new step asks again, with what the seat may claim then
        made = 0
        for action in decided.value:
            self._claiming = action
            try:
                await self.submit(seat, action, by=decided.by)
                made += 1
            except P.ProtocolError:
                pass
            finally:
                self._claiming = None
        return made

    async def _bot_move(self, seat: int) -> bool:
        """Play the move a bot decided on for the decision now; it leaves once its time has
        come (``bot_due``) and the bot is done thinking, whichever is later."""
        g = self.game
        assert g is not None
        key = self.decision_key
        thinking = self.thinking.get(seat)
        if thinking is None:  # the decision was not put to it yet (a bot just took the seat)
            self._put(seat, self._now())
            return seat in self.thinking
        try:
            decided = await asyncio.shield(thinking)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # the driver itself is stopping
            return True  # the decision was dropped: the game moved on while it thought
        if self.thinking.get(seat) is not thinking or self.decision_key != key:
            return True  # the game moved on while it thought
        legal = [a for a in g.legal_actions(seat) if a.type != CLAIM]
        if not legal:
            self.thinking.pop(seat, None)
            return False
        expect = (g.round, g.phase.value, len(g.actions))
        bot = self.bots[seat]
        played = await self._play(seat, decided.value, decided.by, bot, legal, expect)
        if played and self.thinking.get(seat) is thinking:  # else kept: retried as decided
            del self.thinking[seat]
            self.bot_due.pop(seat, None)
            self.model_until.pop(seat, None)
        return played

    async def _standin_move(self, seat: int, kind: str) -> bool:
        """A move made for a person (``kind``, its ``by``: ``timer`` or ``absent``): the stand-in
        bot's, except when the timer ran out at a table whose ``on_timeout`` is ``random``: the
        engine's forced move there (``Game.forced_action``: a random legal choice, as
        secrethitler.io's timed mode draws it)."""
        g = self.game
        assert g is not None
        expect = (g.round, g.phase.value, len(g.actions))
        legal = [a for a in g.legal_actions(seat) if a.type != CLAIM]
        if not legal:
            return False
        standin = self.crew.standin(seat)
        if kind == "timer" and self.on_timeout == RANDOM:
            forced = g.forced_action(seat, self.rng)
            return await self._play(seat, forced, kind, standin, legal, expect)
        decided = await standin.decide(g.view(seat), legal)
        return await self._play(seat, decided.value, kind, standin, legal, expect)

    async def _play(
        self,
        seat: int,
        action: Action,
        by: str | None,
        bot: Supervised,
        legal: list[Action],
        expect: tuple[int, str, int],
    ) -> bool:
        """Submit an automatic move (``by``: who made it, if not the seat's own player or bot);
        one the table refused is replaced by the bot's fallback's (never expected: the bot's
        answer was checked against the same legal actions)."""
        g = self.game
        assert g is not None
        try:
            await self.submit(seat, action, by=by, expect=expect)
            return True
        except P.ProtocolError as exc:
            if exc.code == "stale":
                return True
            if exc.code in _RETRY_LATER:
                self.log.warning("%s move not made (%s); retrying", by or "bot", exc.code)
                return False
            self.log.warning(
                "bot move refused (%s): %s; %s moves instead",
                exc.code,
                exc.message,
                bot.fallback.name,
            )
        try:
            await self.submit(seat, bot.fallback_move(g.view(seat), legal), by=by, expect=expect)
        except P.ProtocolError as exc:
            return exc.code == "stale"
        return True


#: Refusals that say "not now": the move is retried later instead of replaced.
_RETRY_LATER = frozenset({"unavailable", "table_unavailable"})
