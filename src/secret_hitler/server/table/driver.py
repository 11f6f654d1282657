"""A table's driver: bot seats, decision timers and stand-ins for absent players.

One task per running table sleeps until the next automatic move is due (a bot's thinking time,
a claim, a decision deadline, the grace period of a disconnected player), makes it through the
agent contract (``bots/base.py``: ``decide``, ``ask_claims``) and submits it like any other action.

The task is supervised: a bot that raises, returns an illegal action or thinks longer than
``bot_timeout`` is logged with the game id and the ``FALLBACK_LEVEL`` bot moves for it (a random
legal move if that fails too), so a failure costs the seat strength, not sense; a move that could
not be made (the database is away, a bug) is retried after a growing pause. The task ends only
with the game, or when the table is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from ...bots import Agent, make_agent
from ...bots.base import AgentError, ask_claims, bot_problem, decide, makes_claims
from ...engine import Action, Game
from ...engine.actions import CLAIM
from ..core import protocol as P
from .presence import Presence
from .seats import Seat, Seating
from .services import Services

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
    ) -> None:
        self.submit = submit
        self._game = game  # the table's current game (a remake or a restore replaces it)
        self.seating = seating
        self.presence = presence
        self.settings = services.settings
        self.clock = services.clock
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
        self.bot_due: dict[int, float] = {}
        self.claim_due: dict[int, float] = {}
        self.claims_asked: dict[int, int] = {}  # seat -> action count when last asked
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
        if self.task is not None:
            self.task.cancel()
            self.task = None

    async def stop(self) -> None:
        """Stop and wait for the task to end."""
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

    def finished(self) -> None:
        self.deadline = self.deadline_at = None
        self.wake.set()

    def seat_to_bot(self, seat: int) -> None:
        """The seat (just given to a bot) is played by its bot from now on."""
        game = self.game
        if game is not None and not game.finished:
            self._make_agent(seat)
            self.presence.away_since.pop(seat, None)
            if seat in game.to_act():
                self.bot_due[seat] = self._now() + self._bot_delay()
            self.wake.set()

    def _make_agent(self, seat: int) -> None:
        level = self.seats[seat].level or self.bot_level
        self.agents[seat] = self._seated(self._new_agent(level, seat, self._seed(seat)))

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

    def _bot_delay(self) -> float:
        d = self.settings.bot_delay
        return d * random.uniform(0.5, 1.5) if d > 0 else 0.0

    def schedule(self) -> None:
        """After every change: new decision -> new deadline and bot thinking times; claims."""
        g = self.game
        assert g is not None
        if g.finished:
            self.bot_due.clear()
            self.claim_due.clear()
            self.deadline = self.deadline_at = None
            return
        now = self._now()
        key = (g.round, g.phase.value)
        if key != self.decision_key:
            self.decision_key = key
            self.bot_due.clear()
            if self.timer:
                self.deadline_at = now + self.timer
                self.deadline = round(self.clock.time() + self.timer, 3)
            for s in g.to_act():
                if self.seats[s].kind == "bot":
                    self.bot_due[s] = now + self._bot_delay()
        if g.phase.value == "nominate":
            self._hold_for_human_claims(g, now)
        n_actions = len(g.actions)
        for s, seat in enumerate(self.seats):
            if seat.kind != "bot" or self.claims_asked.get(s) == n_actions:
                continue
            if (agent := self.agents.get(s)) is None or not makes_claims(agent):
                continue
            if any(a.type == CLAIM for a in g.legal_actions(s)):
                self.claim_due.setdefault(s, now + self._bot_delay() * 0.3)
            else:
                self.claim_due.pop(s, None)
        self.wake.set()

    def _hold_for_human_claims(self, g: Game, now: float) -> None:
        """A bot candidate waits before nominating while a connected person may still claim.

        Claims close at the next nomination; bots decide in about a second, which would leave a
        person no time to tap a claim button. The hold ends as soon as the claims are made.
        """
        hold = CLAIM_HOLD_FACTOR * self.settings.bot_delay
        if hold <= 0:
            return
        waiting = any(
            seat.kind != "bot"
            and self.connected(s)
            and any(a.type == CLAIM for a in g.legal_actions(s))
            for s, seat in enumerate(self.seats)
        )
        for s in g.to_act():
            if self.seats[s].kind != "bot" or s not in self.bot_due:
                continue
            if waiting:
                self.bot_due[s] = max(self.bot_due[s], now + hold)
            elif self.bot_due[s] > now + 1.5 * self.settings.bot_delay:
                self.bot_due[s] = now + self._bot_delay()  # the claims came in: stop holding

    def _next_task(self, now: float) -> tuple[float, int, int, str] | None:
        """The next automatic move: (when, priority, seat, kind); claims go first."""
        g = self.game
        if g is None or g.finished:
            return None
        tasks: list[tuple[float, int, int, str]] = [
            (when, 0, s, "claim") for s, when in self.claim_due.items()
        ]
        grace = self.settings.grace
        for s in g.to_act():
            if self.seats[s].kind == "bot":
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
                task = self._next_task(now)
                if task is None:
                    await self.wake.wait()
                    continue
                when, _, seat, kind = task
                if when > now:
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(self.wake.wait(), when - now)
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
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.wake.wait(), min(0.25 * 2**failures, 5.0))

    async def _auto_move(self, seat: int, kind: str) -> bool:
        """Make a bot's or a stand-in's move; False when nothing could be played."""
        g = self.game
        assert g is not None
        if kind == "claim":
            await self._bot_claims(seat)
            return True
        agent = self.agents.get(seat) if kind == "bot" else self._standin(seat)
        if agent is None:
            self._make_agent(seat)
            agent = self.agents[seat]
        expect = (g.round, g.phase.value, len(g.actions))
        view = g.view(seat)
        legal = [a for a in g.legal_actions(seat) if a.type != CLAIM]
        if not legal:
            self.bot_due.pop(seat, None)
            return False
        action = await self._ask(agent, view, legal)
        by = None if kind == "bot" else kind
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
        try:
            await self.submit(seat, self._fallback_action(seat, view, legal), by=by, expect=expect)
        except P.ProtocolError as exc:
            return exc.code == "stale"
        return True

    async def _ask(self, agent: Agent, view: Any, legal: list[Action]) -> Action:
        """The agent's decision (``bots.base.decide``: one of ``legal``), on a worker thread
        within ``bot_timeout``; the fallback's when it fails."""
        try:
            if agent.name == "random":
                return decide(agent, view, legal)
            return await asyncio.wait_for(
                asyncio.to_thread(decide, agent, view, legal), self.settings.bot_timeout
            )
        except TimeoutError:
            # its thread may never come back: the fallback plays the seat from now on, so that
            # a hanging bot holds one worker thread, not one per decision
            fallback = self._fallback(agent.seat)
            if fallback is agent:  # the fallback itself hung: never ask it again
                fallback = self.fallbacks[agent.seat] = make_agent("random", agent.seat, None)
            self.log.error(
                "bot %s thought longer than %s s; seat %d plays %s from now on",
                agent.name,
                self.settings.bot_timeout,
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
        try:
            claims = await asyncio.wait_for(
                asyncio.to_thread(ask_claims, agent, g.view(seat), options),
                self.settings.bot_timeout,
            )
        except Exception:  # (a timeout too) the fallback claims, if it makes claims
            self.log.exception("bot claims hook failed", extra={"seat": seat})
            claims = self._fallback_claims(seat, agent, g.view(seat), options)
        for action in claims:
            with contextlib.suppress(P.ProtocolError):
                await self.submit(seat, action)


#: Refusals that say "not now": the move is retried later instead of replaced.
_RETRY_LATER = frozenset({"unavailable", "table_unavailable"})

#: How many bot thinking times a bot candidate waits for people's claims before nominating.
CLAIM_HOLD_FACTOR = 8
