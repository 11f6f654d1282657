"""A table's driver: bot seats, decision timers and stand-ins for absent players.

One task per running table sleeps until the next automatic move is due (a bot's thinking time,
a claim, a decision deadline, the grace period of a disconnected player), makes it through the
agent contract (``bots/base.py``: ``decide``, ``ask_claims``) and submits it like any other action.

Bots compute on the server's bots' thread pool (``Services.bot_pool``, ``SH_BOT_THREADS``
threads), never on the threads that read the database or hash passwords. A language model's
seat (``models.py``) is awaited on the event loop instead: it holds no thread while its
endpoint thinks, its wait ends at a deadline players are shown (``waits``: the update's
``model_deadlines``), and a move its fallback level made is submitted ``by: "fallback"``.

A bot's move leaves at a time drawn before it thinks (``_delay``: by its level, never by its
role or hand), and it thinks inside that time, from the moment the decision is put to it: a
watcher who times the moves learns nothing of what the bot weighed. A bot candidate first gives
the people of the last government ``claim_wait`` seconds to claim (``_Hold``).

Bots talk here too (``bots/voice.py`` decides what; docs/server.md "Table talk"): after each
move, and soon after a line is said, every bot seat hears the lines said since it last heard
(``tell``) and is asked what it says (``ask_speech``), each only while it is not thinking (an
agent is never used from two threads). Its lines wait in its queue and leave one at a time
through the table's ``say`` (the chat path people's lines take), at most one every
``chat.BOT_LINE_GAP`` seconds a bot and ``chat.TABLE_LINES_PER_ROUND`` a round at the table,
and none while the table's switch (``talk_on``) is off.

The task is supervised: a bot that raises, returns an illegal action or thinks longer than
``bot_timeout`` (a model: longer than its deadline and ``bot_timeout``) is logged with the game id and the ``FALLBACK_LEVEL`` bot moves for it (a random
legal move if that fails too), so a failure costs the seat strength, not sense; a move that could
not be made (the database is away, a bug) is retried after a growing pause. The task ends only
with the game, or when the table is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from ...bots import Agent, make_agent
from ...bots.base import (
    DECISION_BUDGET_MS,
    STRONGEST_FIRST,
    AgentError,
    ask_claims,
    ask_speech,
    bot_problem,
    decide,
    listens,
    makes_claims,
    read_claims,
    require_offered,
    speaks,
    tell,
)
from ...engine import Action, Game
from ...engine.actions import CLAIM
from ...llm.agent import FALLBACK
from ...talk import Answer, Line
from ...talk.said import Said
from ..core import protocol as P
from .chat import BOT_LINE_GAP, BOT_QUEUE_MAX, TABLE_LINES_PER_ROUND
from .models import ModelSeat, Plan
from .presence import Presence
from .seats import Seat, Seating
from .services import Services

T = TypeVar("T")
#: What a decision settled: the move, and ``by`` for a move its seat's own player did not
#: make (``"fallback"``: a model seat's fallback level played it), else None.
Decided = tuple[Action, str | None]

#: The level that moves for a bot that failed: it needs no extra, decides in well under a
#: millisecond (``benchmarks/bot_speed.py``) and plays with plain sense, where a random move may
#: discard a liberal policy or elect Hitler.
FALLBACK_LEVEL = "rule"


class Submit(Protocol):
    """How the driver plays a move: like anyone else (``Table.submit``)."""

    def __call__(
        self,
        seat: int,
        action: Action,
        by: str | None = None,
        expect: tuple[int, str, int] | None = None,
    ) -> Awaitable[int]: ...


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
    ) -> None:
        self.submit = submit
        self.say = say  # how a bot's line is said at the table (``Table.bot_chat``)
        self.talk_on = talk_on  # the table's switch
        self._game = game  # the table's current game (a remake or a restore replaces it)
        self.seating = seating
        self.presence = presence
        self.settings = services.settings
        self.clock = services.clock
        self.rng = services.rng
        self.models = services.models  # language-model seats (models.py), if any are offered
        self.pool = services.bot_pool  # where bots compute (None: the loop's default executor)
        # seconds a bot candidate waits for people's claims (``_Hold``); a table may change it
        self.claim_wait = services.settings.claim_wait
        self.standin_level = services.standin_level
        self.log = log
        self.timer = timer
        self.bot_level = bot_level
        self.agents: dict[int, Agent] = {}
        self.standins: dict[int, Agent] = {}
        self.fallbacks: dict[int, Agent] = {}  # who moves for a seat whose bot failed
        # timers (monotonic) and the pending decision
        self.decision_key: tuple[int, str] | None = None
        self.deadline: float | None = None  # epoch seconds, for clients
        self.deadline_at: float | None = None  # monotonic
        self.bot_due: dict[int, float] = {}  # seat -> when its move leaves (drawn in advance)
        self.thinking: dict[int, asyncio.Task[Decided]] = {}  # seat -> its bot's decision
        # seat -> when a model seat's wait for the pending decision ends (Unix seconds): shown
        # to players while it thinks (``waits``)
        self.model_until: dict[int, float] = {}
        self.claim_due: dict[int, float] = {}
        self.claims_asked: dict[int, int] = {}  # seat -> action count when last asked
        # A bot candidate's wait for people's claims, and the claim windows that were already
        # open at the last nomination (their holders had their chance: no second wait)
        self.hold: _Hold | None = None
        self.seen_claims: set[tuple[int, str]] = set()
        # Talk: when the bots are next asked to speak, the lines each has not heard yet, the
        # lines each waits to say and when its next may leave, the lines said this round
        self.talk_due: float | None = None
        self.unheard: dict[int, list[Said]] = {}
        self.to_say: dict[int, deque[Line]] = {}
        self.line_at: dict[int, float] = {}
        self.round_lines: tuple[int, int] = (-1, 0)  # (round, bot lines said in it)
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
        counted as away from now, the first decision scheduled."""
        game = self.game
        assert game is not None
        now = self.clock.monotonic()
        for i, s in enumerate(self.seats):
            if s.kind == "bot":
                self._make_agent(i)
            elif s.kind == "human" and not self.connected(i):
                self.presence.away_since[i] = now
        self.schedule()
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
        self.agents.clear()
        self.standins.clear()
        self.fallbacks.clear()
        self.bot_due.clear()
        self.claim_due.clear()
        self.claims_asked.clear()
        self.decision_key = None
        self.hold = None
        self.seen_claims.clear()
        self._forget_talk()

    def _forget_talk(self) -> None:
        self.talk_due = None
        self.unheard.clear()
        self.to_say.clear()
        self.line_at.clear()
        self.round_lines = (-1, 0)

    def finished(self) -> None:
        if self.models is not None:
            self.models.game_over(self.log, self.agents)
        self.deadline = self.deadline_at = None
        self._forget_thinking()
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

    async def _offload(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the bots' thread pool (a bot's move: CPU work)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, functools.partial(fn, *args))

    def seat_to_bot(self, seat: int) -> None:
        """The seat (just given to a bot) is played by its bot from now on."""
        game = self.game
        if game is not None and not game.finished:
            self._make_agent(seat)
            self.presence.away_since.pop(seat, None)
            if seat in game.to_act() and not self._held(seat):
                self._begin(seat, self._now())
            self.wake.set()

    def _make_agent(self, seat: int) -> None:
        level = self.seats[seat].level or self.bot_level
        agent = self._seated(self._new_agent(level, seat, self._seed(seat)))
        if self.models is not None:  # a model seat's requests are its host's
            self.models.seat(agent, self.seating.host, self._offload)
        self.agents[seat] = agent

    def _seated(self, agent: Agent) -> Agent:
        """Tell a new agent which seats people play (``Agent.seated_with``)."""
        try:
            agent.seated_with([seat.kind != "bot" for seat in self.seats])
        except Exception:
            self.log.exception("bot %s seated_with failed", agent.name, extra={"seat": agent.seat})
        return agent

    def _seed(self, seat: int) -> int:
        """A seat's bot seed: from the game's, so that a table's bots play the same each time."""
        base = self.game.seed if self.game is not None and self.game.seed is not None else 0
        return (base + 7919 * (seat + 1)) % (1 << 63)

    def _new_agent(self, level: str, seat: int, seed: int | None) -> Agent:
        """An agent of ``level``; a level that cannot be created is replaced by the fallback."""
        try:
            return make_agent(level, seat, seed)
        except Exception:
            self.log.exception(
                "bot %s could not be created; seat %d plays %s",
                level,
                seat,
                self._fallback(seat).name,
                extra={"seat": seat},
            )
            return self._fallback(seat)

    def _fallback(self, seat: int) -> Agent:
        """The agent that moves for the seat when its bot fails: ``FALLBACK_LEVEL``, else random."""
        agent = self.fallbacks.get(seat)
        if agent is None:
            if bot_problem(FALLBACK_LEVEL) is None:
                with contextlib.suppress(Exception):
                    agent = make_agent(FALLBACK_LEVEL, seat, self._seed(seat))
            agent = agent or make_agent("random", seat, self._seed(seat))
            self.fallbacks[seat] = agent
        return agent

    def _fallback_action(self, seat: int, view: Any, legal: list[Action]) -> Action:
        """The fallback's move (synchronous: it is fast), or a random legal one if it fails."""
        agent = self._fallback(seat)
        try:
            return decide(agent, view, legal)
        except Exception:
            self.log.exception("fallback bot %s failed; playing at random", agent.name)
            return random.choice(legal)

    def _now(self) -> float:
        return self.clock.monotonic()

    def _delay(self, seat: int) -> float:
        """How long after a decision is put to it a bot's move leaves: ``bot_delay`` x U(0.5, 1.5),
        its lower end raised to the level's think floor (``think_floor``), drawn before the bot
        thinks. ``bot_delay`` 0 (tests) means no delay: a move then leaves when its bot is done."""
        d = self.settings.bot_delay
        if d <= 0:
            return 0.0
        low = max(0.5 * d, think_floor(self.seats[seat].level or self.bot_level))
        return low + d * self.rng.random()

    def _begin(self, seat: int, now: float) -> None:
        """Put the decision to the seat's bot: when its move leaves is drawn now, and it starts
        thinking now, on the game as it is now (committed: ``schedule`` runs after a commit)."""
        g = self.game
        assert g is not None
        self.bot_due[seat] = now + self._delay(seat)
        old = self.thinking.pop(seat, None)
        if old is not None:
            old.cancel()
        legal = [a for a in g.legal_actions(seat) if a.type != CLAIM]
        if not legal:
            return
        agent = self.agents.get(seat)
        if agent is None:
            self._make_agent(seat)
            agent = self.agents[seat]
        decision: Coroutine[Any, Any, Decided]
        plan = self._model_plan(seat, now)
        if plan is not None:
            assert isinstance(agent, ModelSeat)
            decision = self._ask_model(agent, g.view(seat), legal, plan.deadline, plan.limit)
        else:
            decision = self._decided(agent, g.view(seat), legal)
        task = self.thinking[seat] = asyncio.create_task(decision, name=f"think-{seat}")
        task.add_done_callback(self._thought)

    def _model_plan(self, seat: int, now: float, delay: float = 0.0) -> Plan | None:
        """The plan of a model seat's ask that begins ``delay`` seconds from ``now`` (None for
        a seat that is no model); its end is what players are shown (``waits``)."""
        agent = self.agents.get(seat)
        if not isinstance(agent, ModelSeat) or self.models is None:
            self.model_until.pop(seat, None)
            return None
        left = None if self.deadline_at is None else self.deadline_at - now - delay
        plan = self.models.plan(agent, left, self.settings.bot_timeout, delay)
        self.model_until[seat] = round(self.clock.time() + plan.deadline - time.monotonic(), 2)
        return plan

    def _thought(self, _task: asyncio.Task[Decided]) -> None:
        """A bot is done thinking: its move may be due (``_next_task`` skips a seat still
        thinking, so that a slow model holds up no other move of its table)."""
        self.wake.set()

    def schedule(self) -> None:
        """After every change: new decision -> new deadline, bots' leave times and thinking;
        the wait for people's claims; the bots' claims."""
        g = self.game
        assert g is not None
        if g.finished:
            self.bot_due.clear()
            self.claim_due.clear()
            self._forget_thinking()
            self._forget_talk()
            self.hold = None
            self.deadline = self.deadline_at = None
            return
        now = self._now()
        self._talk_soon(now)
        key = (g.round, g.phase.value)
        open_now = {(s, subject) for s in g.claimants() for subject in g.open_claims(s)}
        self.seen_claims &= open_now  # a window that closed and opens again is a new one
        if key != self.decision_key:
            self.decision_key = key
            self.bot_due.clear()
            self._forget_thinking()
            self.hold = None
            if self.timer:
                self.deadline_at = now + self.timer
                self.deadline = round(self.clock.time() + self.timer, 3)
            if g.phase.value == "nominate":
                self._hold_for_claims(g, now, open_now)
            for s in g.to_act():
                if self.seats[s].kind != "bot":
                    continue
                if self._held(s):  # a model asked once the wait ends: its latest deadline
                    assert self.hold is not None
                    self._model_plan(s, now, self.hold.until - now)
                else:
                    self._begin(s, now)
        n_actions = len(g.actions)
        for s, seat in enumerate(self.seats):
            if seat.kind != "bot" or self.claims_asked.get(s) == n_actions:
                continue
            if (agent := self.agents.get(s)) is None or not makes_claims(agent):
                continue
            if any(a.type == CLAIM for a in g.legal_actions(s)):
                self.claim_due.setdefault(s, now + self._delay(s) * 0.3)
            else:
                self.claim_due.pop(s, None)
        self.wake.set()

    def _hold_for_claims(self, g: Game, now: float, open_now: set[tuple[int, str]]) -> None:
        """A bot candidate gives the people of the last government ``claim_wait`` seconds to
        claim before it nominates: the windows opened since the last nomination of connected
        people. The windows that were open then had their wait already."""
        fresh = open_now - self.seen_claims
        self.seen_claims |= open_now
        wait = self.claim_wait
        candidate = g.candidate
        if wait <= 0 or candidate is None or self.seats[candidate].kind != "bot":
            return
        awaited = {
            (s, subject)
            for s, subject in fresh
            if self.seats[s].kind == "human" and self.connected(s)
        }
        if awaited:
            self.hold = _Hold(candidate, now + wait, frozenset(awaited))

    def _held(self, seat: int) -> bool:
        """Whether the seat's decision waits for people's claims (and has not been put yet)."""
        hold = self.hold
        return hold is not None and hold.seat == seat

    def _release(self, now: float) -> None:
        """End the wait for claims once it is over: the awaited people have claimed (or left,
        or their windows closed), or ``claim_wait`` has passed; the candidate decides now."""
        hold, g = self.hold, self.game
        if hold is None or g is None:
            return
        waiting = now < hold.until and any(
            subject in g.open_claims(s) and self.connected(s) for s, subject in hold.awaited
        )
        if not waiting:
            self.hold = None
            if hold.seat in g.to_act() and self.seats[hold.seat].kind == "bot":
                self._begin(hold.seat, now)

    # ------------------------------------------------------------------ talk
    def heard(self, seat: int | None, after: int, lines: list[Line]) -> None:
        """Lines said at the table (a person's, as the server read them; a bot's): every other
        bot seat hears them at the next talk pass, soon."""
        if not lines or self.game is None:
            return
        said = [Said(seat, after, line) for line in lines]
        for s in self.agents:
            if s != seat:
                self.unheard.setdefault(s, []).extend(said)
        self._talk_soon(self._now())
        self.wake.set()

    def _talk_soon(self, now: float) -> None:
        """Ask the bots to talk shortly (half a bot's delay: a reply comes after a beat)."""
        if self.talk_due is None and self.agents:
            self.talk_due = now + 0.5 * max(self.settings.bot_delay, 0.0)

    def _talk(self, now: float) -> None:
        """One talk pass: each bot seat not thinking hears what it has not heard and says what
        it says now (queued); a seat that is thinking is asked again shortly."""
        g = self.game
        assert g is not None
        self.talk_due = None
        n = g.n
        first = g.president if g.president is not None else 0
        busy = False
        for seat in ((first + i) % n for i in range(n)):
            agent = self.agents.get(seat)
            if agent is None or self.seats[seat].kind != "bot":
                continue
            if seat in self.thinking and not self.thinking[seat].done():
                busy = busy or bool(self.unheard.get(seat)) or self.talk_on()
                continue
            said = self.unheard.pop(seat, [])
            try:
                if said and listens(agent) and g.alive[seat]:
                    tell(agent, g.view(seat), said)
                if not self.talk_on() or not speaks(agent):
                    continue
                lines = ask_speech(agent, g.view(seat))
            except Exception:
                self.log.exception("bot %s talk failed", agent.name, extra={"seat": seat})
                continue
            if lines:
                queue = self.to_say.setdefault(seat, deque(maxlen=BOT_QUEUE_MAX))
                queue.extend(lines)
                self.line_at.setdefault(seat, now)
        if busy:
            self.talk_due = now + 0.25

    async def _say(self, seat: int, now: float) -> None:
        """The seat's next queued line leaves, within the table's budget for the round."""
        g = self.game
        assert g is not None
        queue = self.to_say.get(seat)
        if not queue:
            self.to_say.pop(seat, None)
            return
        line = queue.popleft()
        if not queue:
            del self.to_say[seat]
        self.line_at[seat] = now + BOT_LINE_GAP
        said_round, count = self.round_lines
        if said_round != g.round:
            count = 0
        over = count >= TABLE_LINES_PER_ROUND and not isinstance(line, Answer)  # people asked
        if over or self.say is None or not self.talk_on():
            self.log.debug(
                "bot line dropped", extra={"seat": seat, "answer": isinstance(line, Answer)}
            )
            return
        if await self.say(seat, line):
            self.round_lines = (g.round, count + 1)

    def _next_task(self, now: float) -> tuple[float, int, int, str] | None:
        """The next automatic move: (when, priority, seat, kind); claims go first."""
        g = self.game
        if g is None or g.finished:
            return None
        tasks: list[tuple[float, int, int, str]] = [
            (when, 0, s, "claim") for s, when in self.claim_due.items()
        ]
        if self.hold is not None:
            tasks.append((self.hold.until, 1, self.hold.seat, "hold"))
        if self.talk_due is not None:
            tasks.append((self.talk_due, 2, -1, "talk"))
        for s in self.to_say:
            tasks.append((self.line_at.get(s, now), 2, s, "say"))
        grace = self.settings.grace
        for s in g.to_act():
            if self.seats[s].kind == "bot":
                thinking = self.thinking.get(s)
                if not self._held(s) and (thinking is None or thinking.done()):
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
        """Make a bot's or a stand-in's move; False when nothing could be played."""
        g = self.game
        assert g is not None
        if kind == "claim":
            await self._bot_claims(seat)
            return True
        if kind == "talk":
            self._talk(self._now())
            return True
        if kind == "say":
            await self._say(seat, self._now())
            return True
        if kind == "bot":
            return await self._bot_move(seat)
        expect = (g.round, g.phase.value, len(g.actions))
        view = g.view(seat)
        legal = [a for a in g.legal_actions(seat) if a.type != CLAIM]
        if not legal:
            return False
        action = await self._ask(self._standin(seat), view, legal)
        return await self._play(seat, action, kind, view, legal, expect)

    async def _bot_move(self, seat: int) -> bool:
        """Play the move a bot decided on for the decision now; it leaves once its time has
        come (``bot_due``) and the bot is done thinking, whichever is later."""
        g = self.game
        assert g is not None
        key = self.decision_key
        thinking = self.thinking.get(seat)
        if thinking is None:  # the decision was not put to it yet (a bot just took the seat)
            self._begin(seat, self._now())
            return seat in self.thinking
        try:
            action, by = await asyncio.shield(thinking)
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
        if action not in legal:  # the decision changed under it (never expected)
            action = self._fallback_action(seat, g.view(seat), legal)
        expect = (g.round, g.phase.value, len(g.actions))
        played = await self._play(seat, action, "bot", None, legal, expect, by)
        if played and self.thinking.get(seat) is thinking:  # else kept: retried as decided
            del self.thinking[seat]
            self.bot_due.pop(seat, None)
            self.model_until.pop(seat, None)
        return played

    async def _play(
        self,
        seat: int,
        action: Action,
        kind: str,
        view: Any,
        legal: list[Action],
        expect: tuple[int, str, int],
        by: str | None = None,
    ) -> bool:
        """Submit an automatic move (``by``: a bot's move its own level did not make); a
        refused one is replaced by the fallback's."""
        g = self.game
        assert g is not None
        if kind != "bot":
            by = kind
        try:
            await self.submit(seat, action, by=by, expect=expect)
            return True
        except P.ProtocolError as exc:
            if exc.code == "stale":
                return True
            if exc.code in _RETRY_LATER:
                self.log.warning("%s move not made (%s); retrying", kind, exc.code)
                return False
            self.log.warning(
                "bot move refused (%s): %s; %s moves instead",
                exc.code,
                exc.message,
                self._fallback(seat).name,
            )
        if view is None:
            view = g.view(seat)
        try:
            await self.submit(seat, self._fallback_action(seat, view, legal), by=by, expect=expect)
        except P.ProtocolError as exc:
            return exc.code == "stale"
        return True

    async def _decided(self, agent: Agent, view: Any, legal: list[Action]) -> Decided:
        """A bot's decision (``_ask``): its own, or its fallback's when it failed."""
        return await self._ask(agent, view, legal), None

    async def _ask(self, agent: Agent, view: Any, legal: list[Action]) -> Action:
        """The agent's decision (``bots.base.decide``: one of ``legal``), on the bots' thread
        pool within ``bot_timeout``; the fallback's when it fails."""
        limit = self.settings.bot_timeout
        try:
            if agent.name == "random":
                return decide(agent, view, legal)
            return await asyncio.wait_for(self._offload(decide, agent, view, legal), limit)
        except TimeoutError:
            # its thread may never come back: the fallback plays the seat from now on, so that
            # a hanging bot holds one worker thread, not one per decision
            fallback = self._fallback(agent.seat)
            if fallback is agent:  # the fallback itself hung: never ask it again
                fallback = self.fallbacks[agent.seat] = make_agent("random", agent.seat, None)
            self.log.error(
                "bot %s thought longer than %g s; seat %d plays %s from now on",
                agent.name,
                round(limit, 3),
                agent.seat,
                fallback.name,
                extra={"seat": agent.seat},
            )
            for pool in (self.agents, self.standins):
                if pool.get(agent.seat) is agent:
                    pool[agent.seat] = fallback
            return self._fallback_action(agent.seat, view, legal)
        except AgentError as exc:
            self.log.warning(
                "bot %s: %s; %s moves instead", agent.name, exc, self._fallback(agent.seat).name
            )
        except Exception:
            self.log.exception(
                "bot %s failed; %s moves instead", agent.name, self._fallback(agent.seat).name
            )
        return self._fallback_action(agent.seat, view, legal)

    async def _ask_model(
        self, agent: ModelSeat, view: Any, legal: list[Action], deadline: float, limit: float
    ) -> Decided:
        """A model seat's decision, awaited here (no thread) until ``deadline``: its model's,
        or its fallback level's (``by`` ``"fallback"``), checked against ``legal``; the
        driver's own fallback if the seat broke the contract or overran ``limit``."""
        try:
            asked = await asyncio.wait_for(agent.turn(view, legal, deadline), limit)
            action = require_offered(asked.value, legal, f"seat {agent.seat}")
            return action, FALLBACK if asked.by == FALLBACK else None
        except TimeoutError:
            self.log.error(
                "model %s gave no move within %g s",
                agent.name,
                round(limit, 3),
                extra={"seat": agent.seat},
            )
        except Exception:
            self.log.exception(
                "model %s failed; %s moves instead", agent.name, self._fallback(agent.seat).name
            )
        return self._fallback_action(agent.seat, view, legal), FALLBACK

    def _fallback_claims(
        self, seat: int, failed: Agent, view: Any, options: list[Action]
    ) -> list[Action]:
        """The fallback's claims when the seat's bot failed to make its own."""
        fallback = self._fallback(seat)
        if fallback is failed or not makes_claims(fallback):
            return []
        try:
            return ask_claims(fallback, view, options)
        except Exception:
            self.log.exception("fallback bot %s claims failed", fallback.name)
            return []

    def _standin(self, seat: int) -> Agent:
        agent = self.standins.get(seat)
        if agent is None:
            agent = self._seated(self._new_agent(self.standin_level, seat, None))
            self.standins[seat] = agent
        return agent

    async def _bot_claims(self, seat: int) -> None:
        """Agent claim protocol (bots/base.py): ask after every applied action while a window is open."""
        g = self.game
        assert g is not None
        self.claim_due.pop(seat, None)
        self.claims_asked[seat] = len(g.actions)
        agent = self.agents.get(seat)
        options = [a for a in g.legal_actions(seat) if a.type == CLAIM]
        if not options or agent is None:
            return
        view = g.view(seat)
        by: str | None = None
        try:
            if isinstance(agent, ModelSeat) and self.models is not None:
                left = None if self.deadline_at is None else self.deadline_at - self._now()
                plan = self.models.plan(agent, left, self.settings.bot_timeout)
                ask = agent.claim(view, options, plan.deadline)
                asked = await asyncio.wait_for(ask, plan.limit)
                claims = read_claims(agent, asked.value, options)
                by = FALLBACK if asked.by == FALLBACK else None
            else:
                claims = await asyncio.wait_for(
                    self._offload(ask_claims, agent, view, options), self.settings.bot_timeout
                )
        except Exception:  # (a timeout too) the fallback claims, if it makes claims
            self.log.exception("bot claims hook failed", extra={"seat": seat})
            claims = self._fallback_claims(seat, agent, view, options)
            by = FALLBACK if isinstance(agent, ModelSeat) else None
        for action in claims:
            with contextlib.suppress(P.ProtocolError):
                await self.submit(seat, action, by=by)


#: Refusals that say "not now": the move is retried later instead of replaced.
_RETRY_LATER = frozenset({"unavailable", "table_unavailable"})


@dataclass(frozen=True, slots=True)
class _Hold:
    """A bot candidate (``seat``) waits to nominate until ``until`` (monotonic) while any of the
    ``awaited`` claim windows (seat, subject) of connected people is still open."""

    seat: int
    until: float
    awaited: frozenset[tuple[int, str]]


#: The shortest time (seconds) a move of a level outside ``STRONGEST_FIRST`` takes to leave
#: (``search``, plug-in levels): above what such a bot thinks in nearly every decision at the
#: server, several of them thinking at once in a vote (docs/server.md, "When a bot's move
#: leaves"; ``benchmarks/bot_leave_times.py``). The levels of ``STRONGEST_FIRST`` decide within
#: ``DECISION_BUDGET_MS`` at their p99, far below half of any usual ``bot_delay``.
SLOW_THINK_FLOOR = 3.0


def think_floor(level: str) -> float:
    """The shortest delay (seconds) a bot of ``level`` may draw (``BotDriver._delay``)."""
    return DECISION_BUDGET_MS / 1000 if level in STRONGEST_FIRST else SLOW_THINK_FLOOR
