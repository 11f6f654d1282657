"""``LLMAgent``: a seat played by a language model behind a configured endpoint.

Each decision is one conversation: the system prompt (the game, this table's rules), then the
seat's view as text with its legal actions and the answer's schema (``prompts``). The answer
is read and checked (``answers``); a malformed, illegal or late answer, or a failed request,
is retried up to ``Endpoint.retries`` times within the decision's deadline (the retry tells the
model what was wrong), then the seat's fallback level (``Endpoint.fallback``, ``rule`` by
default) plays the decision. Every request, retry and fallback is counted in ``stats`` as the
endpoint saw it (a wait for a free slot that found none sent nothing and is no request), and
kept, with the prompts and answers, in ``transcript`` (what the arena writes into records).

An ask is a coroutine (``turn``, ``claim``; ``act_async``, ``claims_async`` for the agent
contract's async hooks): the server and the arena await it on their event loops, so a model
holds no thread while it thinks and the seats that act at once are asked at once. The plain
calls ``act`` and ``claims`` run the same coroutines on ``llm.runner``'s shared loop. The slots
of the endpoint are taken for ``owner`` (``slots.FairSlots``: the host of a server's table, an
arena's game).

A decision with one legal action is played without asking. Claims are asked when a claim
window opens and once more if another seat claimed since (so a chancellor can answer the
president's story): two requests per window at most, however often the host offers it.
Chat lines come with decisions (``"say"``), bounded in length and rate; the host delivers
other seats' lines with ``hear`` and collects this seat's with ``take_chat``.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Generic, TypeVar

from ..bots.base import Agent, agent_factory, register
from ..bots.supervised import FALLBACK
from ..engine import Action, View
from ..engine import actions as A
from ..talk import InvalidLine, line_from_json, render
from .answers import AnswerError, Decision, read_claims, read_decision
from .client import ChatClient, ChatFailure, client_for
from .endpoints import Endpoint
from .prompts import Renderer, load_prompts
from .runner import run_sync
from .talk import ChatLine, RateLimit, bound_line

T = TypeVar("T")
#: How much of a bad answer is sent back to the model with the retry message.
_ECHO_CHARS = 2000
#: Claim requests per claim window at most.
CLAIM_ASKS = 2


@dataclass(slots=True)
class Stats:
    """What one seat's model did; ``add`` sums seats (per game, per model)."""

    decisions: int = 0  # turn decisions put to the model
    forced: int = 0  # decisions with one legal action, played without asking
    claim_asks: int = 0  # claim windows put to the model
    requests: int = 0  # HTTP requests sent (each reached the endpoint)
    answered: int = 0  # asks the model's own answer settled
    retries: int = 0  # requests sent after a failed one of the same ask
    fallbacks: int = 0  # asks the fallback level settled
    failures: Counter[str] = field(default_factory=Counter)  # failed requests by kind
    # why the fallback settled an ask: the last failure's kind, ``no_slot`` (no free slot of
    # the endpoint before the deadline: nothing sent), ``late`` (no time left to ask)
    fallback_kinds: Counter[str] = field(default_factory=Counter)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0  # requests in flight, from sending to the end, failed ones included
    queued_seconds: float = 0.0  # waiting for a free slot of the endpoint
    chat_lines: int = 0
    chat_refused: int = 0  # lines over the rate limit, or empty

    def add(self, other: Stats) -> None:
        for name in _COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.failures.update(other.failures)
        self.fallback_kinds.update(other.fallback_kinds)

    @property
    def attempts(self) -> int:
        """Requests whose outcome was counted: each one sent is answered or failed once."""
        return self.answered + sum(self.failures.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "forced": self.forced,
            "claim_asks": self.claim_asks,
            "requests": self.requests,
            "attempts": self.attempts,
            "answered": self.answered,
            "retries": self.retries,
            "fallbacks": self.fallbacks,
            "failures": dict(sorted(self.failures.items())),
            "fallback_kinds": dict(sorted(self.fallback_kinds.items())),
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "seconds": round(self.seconds, 3),
            "queued_seconds": round(self.queued_seconds, 3),
            "chat_lines": self.chat_lines,
            "chat_refused": self.chat_refused,
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Stats:
        out = Stats()
        for name in _COUNTS:
            setattr(out, name, data.get(name, 0))
        out.failures = Counter(data.get("failures", {}))
        out.fallback_kinds = Counter(data.get("fallback_kinds", {}))
        return out


#: The counters of ``Stats`` that add up (the two by-kind ones aside).
_COUNTS = tuple(f.name for f in fields(Stats) if f.name not in ("failures", "fallback_kinds"))

#: Who settled an ask: the model's answer, its fallback level (``FALLBACK``, the mark a host
#: gives a supervised seat's fallback too: ``bots.supervised``), or nobody asked (one legal
#: action; a claim window asked twice already).
MODEL, FORCED, UNASKED = "model", "forced", "unasked"


@dataclass(frozen=True, slots=True)
class Asked(Generic[T]):
    """What an ask settled (``value``) and who settled it (``by``: ``MODEL``, ``FALLBACK``,
    ``FORCED``, ``UNASKED``); ``failure``: why the fallback played."""

    value: T
    by: str
    failure: str | None = None


class LLMAgent(Agent):
    """One seat played by the model of ``endpoint`` (see the module docstring)."""

    name = "llm"

    def __init__(
        self,
        seat: int,
        rng: random.Random | None = None,
        endpoint: Endpoint | None = None,
        client: ChatClient | None = None,
    ) -> None:
        super().__init__(seat, rng)
        if endpoint is None:
            raise ValueError("an llm seat needs an endpoint")
        self.endpoint = endpoint
        self.name = endpoint.level
        self.client = client if client is not None else client_for(endpoint)
        self.prompts = load_prompts(endpoint.prompt, endpoint.language)
        self.render = Renderer(self.prompts)
        self.fallback = agent_factory(endpoint.fallback)(
            seat, random.Random(self.rng.getrandbits(63))
        )
        self.stats = Stats()
        self.transcript: list[dict[str, Any]] = []
        self.system: str | None = None  # the system prompt, the same for the whole game
        #: When the host's decision timer runs out (``time.monotonic()``), for the next
        #: decision only; None: the endpoint's ``decision_s``.
        self.deadline: float | None = None
        #: Whom this seat's requests are for (``slots.FairSlots``): its host sets it.
        self.owner: Hashable = None
        #: How the fallback level's work runs: None, here (the arena's and ``llm.runner``'s
        #: loops); a server gives its bots' thread pool, so its event loop never computes a
        #: move (``offload(fn, *args)`` returns an awaitable of ``fn(*args)``).
        self.offload: Callable[..., Awaitable[Any]] | None = None
        #: Who settled the last ask (``MODEL``, ``FALLBACK``, ``FORCED``, ``UNASKED``), for a
        #: host that asks one thing at a time (``evaluate_votes``); a host that asks several
        #: at once reads each ask's own ``Asked``.
        self.settled: str | None = None
        self.heard: list[ChatLine] = []  # every line said at the table, this seat's included
        self._outbox: list[ChatLine] = []
        self._rate = RateLimit(endpoint.chat_per_round)
        self._claim_windows: dict[Any, tuple[int, int]] = {}  # window -> (asks, claims seen)

    # ------------------------------------------------------------------ the host's hooks
    def seated_with(self, people: Sequence[bool]) -> None:
        self.fallback.seated_with(people)

    def hear(self, line: ChatLine) -> None:
        """Another seat said ``line`` at the table (it goes into the next prompts)."""
        if line.seat != self.seat:
            self.heard.append(line)

    def take_chat(self) -> list[ChatLine]:
        """The lines this seat has said since the last call (the host posts them)."""
        out, self._outbox = self._outbox, []
        return out

    # ------------------------------------------------------------------ the agent contract
    def act(self, view: View, legal: Sequence[Action]) -> Action:
        return run_sync(self.act_async(view, legal))

    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        return run_sync(self.claims_async(view, options))

    async def act_async(self, view: View, legal: Sequence[Action]) -> Action:
        asked = await self.turn(view, legal)
        self.settled = asked.by
        return asked.value

    async def claims_async(self, view: View, options: Sequence[Action]) -> list[Action]:
        asked = await self.claim(view, options)
        self.settled = asked.by
        return asked.value

    # ------------------------------------------------------------------ asks
    async def turn(
        self, view: View, legal: Sequence[Action], deadline: float | None = None
    ) -> Asked[Action]:
        """The seat's turn among ``legal`` (claims left out), and who settled it; ``deadline``
        (``time.monotonic()``): the host's end of the decision, else the endpoint's own."""
        turn = [a for a in legal if a.type != A.CLAIM] or list(legal)
        end = self._deadline(deadline)
        if len(turn) == 1:
            self.stats.forced += 1
            return Asked(turn[0], FORCED)
        self.stats.decisions += 1
        others = [s for s in range(view.players) if s != self.seat] if self.endpoint.beliefs else []
        say = self.endpoint.chat_chars if self.endpoint.chat and self.endpoint.chat_per_round else 0
        text, schema = self.render.decide(view, turn, self.heard, say_chars=say, beliefs=others)
        entry = self._entry("decide", view)

        def read(answer: str) -> Decision:
            return read_decision(answer, self.seat, turn, beliefs=others)

        decision, failure = await self._ask(text, schema, read, entry, end)
        if decision is None:
            action = await self._fallback(self.fallback.act, view, turn)
            entry["by"] = FALLBACK
        else:
            action = decision.action
            entry["by"] = MODEL
            if decision.beliefs is not None:
                entry["beliefs"] = {str(s): t for s, t in sorted(decision.beliefs.items())}
            if decision.say is not None:
                self._say(view, decision.say, entry)
        entry["action"] = action.to_json()
        return Asked(action, entry["by"], failure)

    async def claim(
        self, view: View, options: Sequence[Action], deadline: float | None = None
    ) -> Asked[list[Action]]:
        """The claims the seat makes now among ``options``, and who settled them: a window is
        asked when it opens and again once another seat claimed, ``CLAIM_ASKS`` times at most."""
        window = (
            frozenset((a.subject, a.target) for a in options),
            sum(1 for e in view.events if e["type"] == "legislative_session"),
        )
        heard = sum(1 for e in view.events if e["type"] == "claim" and e["seat"] != self.seat)
        asks, seen = self._claim_windows.get(window, (0, -1))
        if asks >= CLAIM_ASKS or (asks and heard == seen):
            return Asked([], UNASKED)
        self._claim_windows[window] = (asks + 1, heard)
        self.stats.claim_asks += 1
        end = self._deadline(deadline)
        text, schema = self.render.claims(view, options, self.heard)
        entry = self._entry("claims", view)

        def read(answer: str) -> list[Action]:
            return read_claims(answer, self.seat, options)

        made, failure = await self._ask(text, schema, read, entry, end)
        if made is None:
            made = await self._fallback(self.fallback.claims, view, options)
            entry["by"] = FALLBACK
        else:
            entry["by"] = MODEL
        entry["claims"] = [c.to_json() for c in made]
        return Asked(made, entry["by"], failure)

    # ------------------------------------------------------------------ plumbing
    async def _fallback(self, hook: Callable[..., T], *args: Any) -> T:
        """The fallback level's answer (``offload`` runs it, if the host gave one)."""
        if self.offload is None:
            return hook(*args)
        result: T = await self.offload(hook, *args)
        return result

    def _entry(self, kind: str, view: View) -> dict[str, Any]:
        if self.system is None:
            self.system = self.render.system(view)
        entry: dict[str, Any] = {
            "kind": kind,
            "seat": self.seat,
            "round": view.round,
            "phase": view.phase,
            "events": len(view.events),
            "attempts": [],
        }
        self.transcript.append(entry)
        return entry

    def _deadline(self, host: float | None = None) -> float:
        """The end of this ask: the earlier of the endpoint's ``decision_s`` from now and the
        host's (given, or ``deadline`` set for the next decision only)."""
        own = time.monotonic() + self.endpoint.decision_s
        if host is None:
            host, self.deadline = self.deadline, None
        return own if host is None else min(own, host)

    async def _ask(
        self,
        text: str,
        schema: dict[str, Any],
        read: Callable[[str], T],
        entry: dict[str, Any],
        deadline: float,
    ) -> tuple[T | None, str | None]:
        """(the model's answer read by ``read``, None) or, once the attempts or the time ran
        out, (None, the kind of the last failure)."""
        assert self.system is not None
        messages = [{"role": "system", "content": self.system}, {"role": "user", "content": text}]
        stats = self.stats
        kind = "late"
        sent = 0  # requests of this ask that reached the endpoint
        for _ in range(1 + self.endpoint.retries):
            left = deadline - time.monotonic()
            if left <= 0:
                kind = "late"
                break
            try:
                reply = await self.client.complete(
                    messages, schema, self.endpoint.timeout_s, deadline=deadline, owner=self.owner
                )
            except ChatFailure as failure:
                stats.queued_seconds += failure.queued
                kind = failure.kind
                if not failure.sent:  # no slot came free before the deadline: nothing sent
                    break
                sent += 1
                self._sent(sent, failure.seconds)
                entry["attempts"].append({"error": kind, "seconds": round(failure.seconds, 3)})
                stats.failures[kind] += 1
                if failure.retry_after:
                    pause = min(failure.retry_after, max(deadline - time.monotonic(), 0.0))
                    await asyncio.sleep(pause)
                continue
            sent += 1
            self._sent(sent, reply.seconds)
            stats.queued_seconds += reply.queued
            stats.prompt_tokens += reply.prompt_tokens
            stats.completion_tokens += reply.completion_tokens
            record: dict[str, Any] = {
                "answer": reply.text,
                "prompt_tokens": reply.prompt_tokens,
                "completion_tokens": reply.completion_tokens,
                "seconds": round(reply.seconds, 3),
            }
            entry["attempts"].append(record)
            try:
                result = read(reply.text)
            except AnswerError as problem:
                kind = record["error"] = problem.kind
                stats.failures[kind] += 1
                messages += [
                    {"role": "assistant", "content": reply.text[:_ECHO_CHARS]},
                    {"role": "user", "content": self.render.retry(problem.kind, str(problem))},
                ]
                continue
            stats.answered += 1
            entry["messages"] = messages[1:]
            return result, None
        entry["messages"] = messages[1:]
        entry["failure"] = kind
        stats.fallbacks += 1
        stats.fallback_kinds[kind] += 1
        return None, kind

    def _sent(self, nth: int, seconds: float) -> None:
        """Count the ``nth`` request of an ask, which reached the endpoint."""
        self.stats.requests += 1
        self.stats.retries += nth > 1
        self.stats.seconds += seconds

    def _say(self, view: View, said: str | dict[str, Any], entry: dict[str, Any]) -> None:
        talk: dict[str, Any] | None = None
        if isinstance(said, dict):
            try:
                structured = line_from_json(said, players=view.players)
            except InvalidLine:
                self.stats.chat_refused += 1
                return
            talk = structured.to_json()
            said = render(structured, self.prompts.language, self.render.names(view))
        line = bound_line(said, self.endpoint.chat_chars)
        if line is None or not self._rate.allow(view.round):
            self.stats.chat_refused += 1
            return
        chat = ChatLine(self.seat, line, len(view.events), view.round, talk)
        self.stats.chat_lines += 1
        self.heard.append(chat)
        self._outbox.append(chat)
        entry["say"] = chat.to_json()


def settled_by(agent: Agent) -> str:
    """Who settled ``agent``'s last ask: a model seat's ``MODEL`` or ``FALLBACK`` (``FORCED``,
    ``UNASKED``); ``MODEL`` for any other agent (it decides everything itself)."""
    settled = getattr(agent, "settled", None)
    return settled if isinstance(settled, str) else MODEL


def endpoint_factory(endpoint: Endpoint) -> Callable[[int, random.Random], Agent]:
    """The level factory ``(seat, rng) -> LLMAgent`` of one endpoint."""

    def make(seat: int, rng: random.Random) -> Agent:
        return LLMAgent(seat, rng, endpoint)

    return make


def register_endpoints(endpoints: Mapping[str, Endpoint]) -> list[str]:
    """Register each endpoint as the level ``llm:<name>`` (``make_agent``, ``evaluate``, the
    simulator); returns the level names."""
    for endpoint in endpoints.values():
        register(endpoint.level, endpoint_factory(endpoint))
    return [e.level for e in endpoints.values()]


__all__ = [
    "CLAIM_ASKS",
    "FALLBACK",
    "FORCED",
    "MODEL",
    "UNASKED",
    "Asked",
    "LLMAgent",
    "Stats",
    "endpoint_factory",
    "register_endpoints",
    "settled_by",
]
