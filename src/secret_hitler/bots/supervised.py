"""A bot seat under its contract: the agent, the fallback that answers when it fails, and the
deadline it answers within.

The simulator stops on a broken bot (``play_out`` raises ``AgentError``: a bug to see). A live
table cannot: a seat whose bot raises, answers with something it was not offered, or thinks
past its time still has to move. ``Supervised`` wraps one seat's agent and holds all of that,
so a host asks once and always gets an answer it may play:

- ``decide(view, legal, ...)``: the seat's move (``Decided``: the action and who made it);
- ``claims(view, options, ...)``: the claims it makes now;
- ``speech(view)`` and ``hear(view, said)``: the talk protocol (``table_talk.Talker``);
- ``fallback_move(view, legal)``: the fallback's move, for a host whose table refused a move.

Failures. An exception or an answer outside the offer costs that one ask: the fallback
(``FALLBACK_LEVEL``; a random legal move if that fails too) answers it, and the seat's agent is
asked again next time. A computing agent that thinks longer than ``timeout`` loses the seat for
good: its thread may never come back, so the fallback plays from then on (and a fallback that
hangs gives way to a random bot): a hanging bot holds one worker thread, never one per decision.
A level that cannot be made at all is replaced by the fallback from the start (``supervise``).

Agents that wait. An agent that waits rather than computes (``Waits``: a language model's seat,
``llm/agent.py``) is awaited on the host's event loop, holding no thread, with the deadline the
host gives it and ``limit`` seconds for the whole ask (its own fallback's time included). One
that overruns or fails is logged and the fallback answers that ask, but the seat keeps its
model. ``Decided.by`` is ``FALLBACK`` for every move or claim such a seat did not make itself:
players are shown how long a model may think and told when its fallback moved. A computing
bot's fallback is the server's to log, not the table's to announce: its ``by`` stays None.

Every failure is logged through ``log`` (a server's carries the game's id).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, runtime_checkable

from ..engine import Action, View
from ..talk.lines import Line
from ..talk.said import Said
from . import base
from .base import Agent, AgentError, Offload

if TYPE_CHECKING:
    Log = logging.Logger | logging.LoggerAdapter[Any]

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

#: The level that answers for a bot that failed: it needs no extra, decides in well under a
#: millisecond (``benchmarks/bot_speed.py``) and plays with plain sense, where a random move may
#: discard a liberal policy or elect Hitler.
FALLBACK_LEVEL = "rule"
#: ``Decided.by`` of a move a waiting agent's seat did not make itself (``llm.agent`` says the
#: same of its own fallback's moves).
FALLBACK = "fallback"

_log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Decided(Generic[T]):
    """What an ask settled (``value``) and who settled it: None, the seat's own agent;
    ``FALLBACK``, a fallback of a seat whose fallbacks are announced."""

    value: T
    by: str | None = None


class Answered(Protocol[T_co]):
    """A waiting agent's answer: its value and who settled it (``llm.agent.Asked``)."""

    @property
    def value(self) -> T_co: ...

    @property
    def by(self) -> str: ...


@runtime_checkable
class Waits(Protocol):
    """An agent that waits rather than computes, asked with the host's deadline (on
    ``time.monotonic()``; None: its own) and answering who settled each ask."""

    def turn(
        self, view: View, legal: Sequence[Action], deadline: float | None = None
    ) -> Awaitable[Answered[Action]]: ...

    def claim(
        self, view: View, options: Sequence[Action], deadline: float | None = None
    ) -> Awaitable[Answered[list[Action]]]: ...


def seat_seed(game_seed: int | None, seat: int) -> int:
    """A seat's bot seed from its game's, so that a table's bots play the same every time the
    same game is dealt (and as ``play_out`` plays agents made with the same seeds)."""
    return ((game_seed or 0) + 7919 * (seat + 1)) % (1 << 63)


def supervise(
    level: str,
    seat: int,
    seed: int | None,
    *,
    people: Sequence[bool] | None = None,
    make: Callable[[str, int, int | None], Agent] = base.make_agent,
    timeout: float = 10.0,
    offload: Offload | None = None,
    log: Log | None = None,
) -> Supervised:
    """The seat's bot of ``level`` (``make(level, seat, seed)``) under supervision, told which
    seats people play (``people``, ``Agent.seated_with``); a level that cannot be made is
    logged and the fallback plays the seat."""
    try:
        agent = make(level, seat, seed)
    except Exception:
        watch = Supervised(None, seat, seed, timeout=timeout, offload=offload, log=log)
        watch.log.exception(
            "bot %s could not be created; seat %d plays %s",
            level,
            seat,
            watch.agent.name,
            extra={"seat": seat},
        )
    else:
        watch = Supervised(agent, seat, seed, timeout=timeout, offload=offload, log=log)
    watch.seated(people)
    return watch


class Supervised:
    """One seat's agent under its contract (the module docstring). ``own``: the agent the seat
    was given; ``agent``: the one that answers now (the fallback, for good, after a timeout)."""

    def __init__(
        self,
        agent: Agent | None,
        seat: int,
        seed: int | None = None,
        *,
        timeout: float = 10.0,
        offload: Offload | None = None,
        log: Log | None = None,
    ) -> None:
        self.seat = seat
        self.seed = seed  # the fallback's
        self.timeout = timeout
        self.offload = offload  # where a computing agent's work runs (None: here)
        self.log: Log = log if log is not None else _log
        self._fallback: Agent | None = None
        self._people: Sequence[bool] | None = None
        self.own: Agent = agent if agent is not None else self.fallback
        self.agent: Agent = self.own

    # ------------------------------------------------------------------ the seat
    def seated(self, people: Sequence[bool] | None) -> None:
        """Tell the agent (and a fallback made later) which seats people play."""
        self._people = people
        if people is not None:
            self._tell_seated(self.agent)

    def _tell_seated(self, agent: Agent) -> None:
        if self._people is None:
            return
        try:
            agent.seated_with(self._people)
        except Exception:
            self.log.exception("bot %s seated_with failed", agent.name, extra={"seat": self.seat})

    @property
    def fallback(self) -> Agent:
        """The agent that answers when the seat's fails: ``FALLBACK_LEVEL``, else random."""
        agent = self._fallback
        if agent is None:
            if base.bot_problem(FALLBACK_LEVEL) is None:
                try:
                    agent = base.make_agent(FALLBACK_LEVEL, self.seat, self.seed)
                except Exception:
                    self.log.exception("fallback bot %s could not be created", FALLBACK_LEVEL)
            agent = agent or base.make_agent("random", self.seat, self.seed)
            self._fallback = agent
            self._tell_seated(agent)
        return agent

    @property
    def waits(self) -> bool:
        """Whether the seat's agent waits (``Waits``: a model) rather than computes."""
        return isinstance(self.agent, Waits)

    @property
    def makes_claims(self) -> bool:
        return base.makes_claims(self.agent)

    @property
    def speaks(self) -> bool:
        return base.speaks(self.agent)

    @property
    def listens(self) -> bool:
        return base.listens(self.agent)

    # ------------------------------------------------------------------ decisions
    async def decide(
        self,
        view: View,
        legal: Sequence[Action],
        deadline: float | None = None,
        limit: float | None = None,
    ) -> Decided[Action]:
        """The seat's move among ``legal`` (never empty), always one of them. ``deadline`` and
        ``limit`` (seconds) are a waiting agent's; a computing one has ``timeout``."""
        agent = self.agent
        limit = self.timeout if limit is None else limit
        if isinstance(agent, Waits):
            return await self._await_turn(agent, view, legal, deadline, limit)
        try:
            if not getattr(agent, "needs_view", True) and not hasattr(agent, "act_async"):
                # it decides from its legal actions alone (random), at once: no thread, and
                # no deadline (nothing could interrupt it)
                return Decided(base.decide(agent, view, legal))
            move = base.decide_async(agent, view, legal, self.offload)
            return Decided(await asyncio.wait_for(move, limit))
        except TimeoutError:
            self._lose(agent, limit)
        except AgentError as exc:
            self.log.warning("bot %s: %s; %s moves instead", agent.name, exc, self.fallback.name)
        except Exception:
            self.log.exception("bot %s failed; %s moves instead", agent.name, self.fallback.name)
        return Decided(self.fallback_move(view, legal))

    async def _await_turn(
        self,
        agent: Waits,
        view: View,
        legal: Sequence[Action],
        deadline: float | None,
        limit: float,
    ) -> Decided[Action]:
        name = getattr(agent, "name", "?")
        try:
            asked = await asyncio.wait_for(agent.turn(view, legal, deadline), limit)
            action = base.require_offered(asked.value, legal, f"seat {self.seat}")
            return Decided(action, FALLBACK if asked.by == FALLBACK else None)
        except TimeoutError:
            self.log.error(
                "model %s gave no move within %g s",
                name,
                round(limit, 3),
                extra={"seat": self.seat},
            )
        except Exception:
            self.log.exception("model %s failed; %s moves instead", name, self.fallback.name)
        return Decided(self.fallback_move(view, legal), FALLBACK)

    def _lose(self, agent: Agent, limit: float) -> None:
        """``agent`` thought past ``limit``: the fallback plays the seat from now on."""
        fallback = self.fallback
        if fallback is agent:  # the fallback itself hung: never ask it again
            fallback = self._fallback = base.make_agent("random", self.seat, None)
        self.log.error(
            "bot %s thought longer than %g s; seat %d plays %s from now on",
            agent.name,
            round(limit, 3),
            self.seat,
            fallback.name,
            extra={"seat": self.seat},
        )
        self.agent = fallback

    def fallback_move(self, view: View | None, legal: Sequence[Action]) -> Action:
        """The fallback's move (at once: it is fast), or a random legal one if it fails."""
        agent = self.fallback
        try:
            return base.decide(agent, view, legal)
        except Exception:
            self.log.exception("fallback bot %s failed; playing at random", agent.name)
            return random.choice(list(legal))

    # ------------------------------------------------------------------ claims
    async def claims(
        self,
        view: View,
        options: Sequence[Action],
        deadline: float | None = None,
        limit: float | None = None,
    ) -> Decided[list[Action]]:
        """The claims the seat makes now among ``options`` (read as ``base.read_claims`` says);
        the fallback's, if it makes claims, when the seat's agent fails or overruns."""
        agent = self.agent
        limit = self.timeout if limit is None else limit
        waits = isinstance(agent, Waits)
        try:
            if isinstance(agent, Waits):
                asked = await asyncio.wait_for(agent.claim(view, options, deadline), limit)
                made = base.read_claims(agent, asked.value, options)
                return Decided(made, FALLBACK if asked.by == FALLBACK else None)
            ask = base.ask_claims_async(agent, view, options, self.offload)
            return Decided(await asyncio.wait_for(ask, limit))
        except Exception:  # (a timeout too)
            self.log.exception("bot claims hook failed", extra={"seat": self.seat})
        return Decided(self._fallback_claims(agent, view, options), FALLBACK if waits else None)

    def _fallback_claims(
        self, failed: Agent, view: View, options: Sequence[Action]
    ) -> list[Action]:
        fallback = self.fallback
        if fallback is failed or not base.makes_claims(fallback):
            return []
        try:
            return base.ask_claims(fallback, view, options)
        except Exception:
            self.log.exception("fallback bot %s claims failed", fallback.name)
            return []

    # ------------------------------------------------------------------ talk
    def speech(self, view: View) -> list[Line]:
        """The lines the seat says now (``base.ask_speech``); none if its agent fails."""
        try:
            return base.ask_speech(self.agent, view)
        except Exception:
            self.log.exception("bot %s talk failed", self.agent.name, extra={"seat": self.seat})
            return []

    def hear(self, view: View, said: Sequence[Said]) -> None:
        """Lines said at the table reach the seat's agent (``base.tell``)."""
        try:
            base.tell(self.agent, view, said)
        except Exception:
            self.log.exception("bot %s talk failed", self.agent.name, extra={"seat": self.seat})


__all__ = [
    "FALLBACK",
    "FALLBACK_LEVEL",
    "Answered",
    "Decided",
    "Supervised",
    "Waits",
    "seat_seed",
    "supervise",
]
