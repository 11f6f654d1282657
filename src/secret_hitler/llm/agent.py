"""``LLMAgent``: a seat played by a language model behind a configured endpoint.

Each decision is one conversation: the system prompt (the game, this table's rules), then the
seat's view as text with its legal actions and the answer's schema (``prompts``). The answer
is read and checked (``answers``); a malformed, illegal or late answer, or a failed request,
is retried up to ``Endpoint.retries`` times within the decision's deadline (the retry tells the
model what was wrong), then the seat's fallback level (``Endpoint.fallback``, ``rule`` by
default) plays the decision. Every attempt, retry and fallback is counted in ``stats`` and
kept, with the prompts and answers, in ``transcript`` (what the arena writes into records).

A decision with one legal action is played without asking. Claims are asked when a claim
window opens and once more if another seat claimed since (so a chancellor can answer the
president's story): two requests per window at most, however often the host offers it.
Chat lines come with decisions (``"say"``), bounded in length and rate; the host delivers
other seats' lines with ``hear`` and collects this seat's with ``take_chat``.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from ..bots.base import Agent, agent_factory, register
from ..engine import Action, View
from ..engine import actions as A
from ..talk import InvalidLine, line_from_json, render
from .answers import AnswerError, Decision, read_claims, read_decision
from .client import ChatClient, ChatFailure, client_for
from .endpoints import Endpoint
from .prompts import Renderer, load_prompts
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
    requests: int = 0  # HTTP requests sent
    answered: int = 0  # asks the model's own answer settled
    retries: int = 0  # further attempts after a failed one
    fallbacks: int = 0  # asks the fallback level settled
    failures: Counter[str] = field(default_factory=Counter)  # failed attempts by kind
    fallback_kinds: Counter[str] = field(default_factory=Counter)  # the last failure's kind
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0  # waiting for the endpoint
    chat_lines: int = 0
    chat_refused: int = 0  # lines over the rate limit, or empty

    def add(self, other: Stats) -> None:
        for name in _COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.failures.update(other.failures)
        self.fallback_kinds.update(other.fallback_kinds)

    @property
    def attempts(self) -> int:
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

    # ------------------------------------------------------------------ decisions
    def act(self, view: View, legal: Sequence[Action]) -> Action:
        turn = [a for a in legal if a.type != A.CLAIM] or list(legal)
        if len(turn) == 1:
            self.stats.forced += 1
            self._deadline()
            return turn[0]
        self.stats.decisions += 1
        others = [s for s in range(view.players) if s != self.seat] if self.endpoint.beliefs else []
        say = self.endpoint.chat_chars if self.endpoint.chat and self.endpoint.chat_per_round else 0
        text, schema = self.render.decide(view, turn, self.heard, say_chars=say, beliefs=others)
        entry = self._entry("decide", view)

        def read(answer: str) -> Decision:
            return read_decision(answer, self.seat, turn, beliefs=others)

        decision = self._ask(view, text, schema, read, entry)
        if decision is None:
            action = self.fallback.act(view, turn)
            entry["by"] = "fallback"
        else:
            action = decision.action
            entry["by"] = "model"
            if decision.beliefs is not None:
                entry["beliefs"] = {str(s): t for s, t in sorted(decision.beliefs.items())}
            if decision.say is not None:
                self._say(view, decision.say, entry)
        entry["action"] = action.to_json()
        return action

    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        window = (
            frozenset((a.subject, a.target) for a in options),
            sum(1 for e in view.events if e["type"] == "legislative_session"),
        )
        heard = sum(1 for e in view.events if e["type"] == "claim" and e["seat"] != self.seat)
        asks, seen = self._claim_windows.get(window, (0, -1))
        if asks >= CLAIM_ASKS or (asks and heard == seen):
            return []
        self._claim_windows[window] = (asks + 1, heard)
        self.stats.claim_asks += 1
        text, schema = self.render.claims(view, options, self.heard)
        entry = self._entry("claims", view)

        def read(answer: str) -> list[Action]:
            return read_claims(answer, self.seat, options)

        made = self._ask(view, text, schema, read, entry)
        if made is None:
            made = self.fallback.claims(view, options)
            entry["by"] = "fallback"
        else:
            entry["by"] = "model"
        entry["claims"] = [c.to_json() for c in made]
        return made

    # ------------------------------------------------------------------ plumbing
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

    def _deadline(self) -> float:
        """The end of this decision: the host's timer if set (once), else ``decision_s``."""
        own = time.monotonic() + self.endpoint.decision_s
        host, self.deadline = self.deadline, None
        return own if host is None else min(own, host)

    def _ask(
        self,
        view: View,
        text: str,
        schema: dict[str, Any],
        read: Callable[[str], T],
        entry: dict[str, Any],
    ) -> T | None:
        """The model's answer read by ``read``, or None once the attempts or the time ran out."""
        deadline = self._deadline()
        assert self.system is not None
        messages = [{"role": "system", "content": self.system}, {"role": "user", "content": text}]
        stats = self.stats
        kind = "late"
        for attempt in range(1 + self.endpoint.retries):
            if attempt:
                stats.retries += 1
            left = deadline - time.monotonic()
            if left <= 0:
                kind = "late"
                break
            record: dict[str, Any] = {}
            entry["attempts"].append(record)
            stats.requests += 1
            try:
                reply = self.client.complete(messages, schema, min(self.endpoint.timeout_s, left))
            except ChatFailure as failure:
                kind = record["error"] = failure.kind
                stats.failures[kind] += 1
                if failure.retry_after:
                    time.sleep(min(failure.retry_after, max(deadline - time.monotonic(), 0.0)))
                continue
            stats.prompt_tokens += reply.prompt_tokens
            stats.completion_tokens += reply.completion_tokens
            stats.seconds += reply.seconds
            record.update(
                answer=reply.text,
                prompt_tokens=reply.prompt_tokens,
                completion_tokens=reply.completion_tokens,
                seconds=round(reply.seconds, 3),
            )
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
            return result
        entry["messages"] = messages[1:]
        entry["failure"] = kind
        stats.fallbacks += 1
        stats.fallback_kinds[kind] += 1
        return None

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


__all__ = ["CLAIM_ASKS", "LLMAgent", "Stats", "endpoint_factory", "register_endpoints"]
