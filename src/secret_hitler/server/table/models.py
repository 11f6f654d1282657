"""Language-model seats at a table (docs/llm.md "Models at tables").

The server's operator names the endpoints in a file (``--llm-endpoints``, ``llm.endpoints``);
each becomes the bot level ``llm:<name>`` that a table's host may seat, and nothing a player
sends can name another URL. A model seat is an ``LLMAgent`` (its prompts, retries and fallback)
whose every decision is metered here: tokens, requests, fallbacks and seconds per endpoint go
to the server's metrics as they happen, and each seat's totals are logged when its game ends.

A model seat is supervised as every bot seat is (``bots.supervised.Supervised``, which awaits
its asks, ``ModelSeat.turn`` and ``claim``, on the event loop): a model holds no thread while
it waits, its requests take the endpoint's slots as the table's host (``llm.slots.FairSlots``:
one person's tables share one part), and its fallback level computes on the bots' thread pool.
Each ask ends at a deadline (``plan``): the table's decision timer less a margin, or at a table
without a timer the lesser of the endpoint's ``decision_s`` and ``table_decision_s``; players
see it (``BotDriver.waits``), and a move its fallback played is marked ``by: "fallback"`` for
everyone.

A model talks through the table's talk loop (``bot_talk.py``: ``listen`` and ``speak``): it
hears every line said at the table in its prompts, and the lines it says with its decisions
leave as talk lines, which every reader sees in their own language: a structured line as the
model gave it, a text as ``talk.recognise`` reads it (what it says of seats, by the players'
names or by seat numbers counted as its prompts count them, from
``llm.prompts.FIRST_SEAT``; the rest of a text is not said at a table).
"""

from __future__ import annotations

import contextlib
import logging
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...bots.base import SPEECH_MAX, Agent, Offload, register
from ...engine import Action, View
from ...llm.agent import Asked, LLMAgent, Stats
from ...llm.client import client_for
from ...llm.endpoints import LEVEL_PREFIX, Endpoint, load_endpoints
from ...llm.prompts import FIRST_SEAT
from ...llm.talk import ChatLine
from ...talk import InvalidLine, Line, line_from_json, recognise, render
from ...talk.said import Said
from ..core.metrics import Metrics

#: The part of the time left before the table's deadline a model may not use: its fallback
#: decides and the move is committed in it (at most this many seconds, else a tenth).
DEADLINE_MARGIN = 2.0


def is_model_level(level: str | None) -> bool:
    return level is not None and level.startswith(LEVEL_PREFIX)


@dataclass(frozen=True, slots=True)
class Plan:
    """One ask of a model seat: when the model's time ends (``deadline``, on
    ``time.monotonic()``) and how long the driver waits for the ask (``limit``: the model's time
    and its fallback's)."""

    deadline: float
    limit: float


class ModelSeat(LLMAgent):
    """An ``LLMAgent`` whose every ask is metered (``ModelSeats``)."""

    def __init__(self, seat: int, rng: random.Random, endpoint: Endpoint, metrics: Metrics) -> None:
        super().__init__(seat, rng, endpoint)
        self.metrics = metrics
        self._counted = Stats()

    async def turn(
        self, view: View, legal: Sequence[Action], deadline: float | None = None
    ) -> Asked[Action]:
        start = time.monotonic()
        try:
            return await super().turn(view, legal, deadline)
        finally:
            self._meter(start)

    async def claim(
        self, view: View, options: Sequence[Action], deadline: float | None = None
    ) -> Asked[list[Action]]:
        start = time.monotonic()
        try:
            return await super().claim(view, options, deadline)
        finally:
            self._meter(start)

    def speak(self, view: View) -> list[Line]:
        """The lines the model said with its decisions since the last talk pass."""
        out: list[Line] = []
        for said in self.take_chat():
            if said.line is not None:
                with contextlib.suppress(InvalidLine):
                    out.append(line_from_json(said.line, players=view.players))
            else:  # seats named as people see them, or numbered as the prompts number them
                out += recognise(
                    said.text,
                    players=view.players,
                    names=view.names,
                    lang=self.endpoint.language,
                    first_seat=FIRST_SEAT,
                )
        return out[:SPEECH_MAX]

    def listen(self, view: View, said: Sequence[Said]) -> None:
        """Lines said at the table go into the model's next prompts, in its language."""
        names = self.render.names(view)
        for s in said:
            if s.seat is None:
                continue  # (at a table every speaker the driver reports has a seat)
            if s.line is not None:
                text = render(s.line, self.prompts.language, names)
                self.hear(ChatLine(s.seat, text, len(view.events), view.round, s.line.to_json()))
            elif s.text is not None:
                self.hear(ChatLine(s.seat, s.text, len(view.events), view.round))

    def _meter(self, start: float) -> None:
        """Count what the asks since the last call added (a decision and a claim ask of the
        seat may be in flight at once: each call counts what is new)."""
        s, c, m = self.stats, self._counted, self.metrics
        name = self.endpoint.name
        if s.requests == c.requests and s.fallbacks == c.fallbacks:
            return  # a forced move or an unasked claim window: nothing was sent
        m.llm_tokens.labels(name, "prompt").inc(s.prompt_tokens - c.prompt_tokens)
        m.llm_tokens.labels(name, "completion").inc(s.completion_tokens - c.completion_tokens)
        m.llm_requests.labels(name).inc(s.requests - c.requests)
        m.llm_fallbacks.labels(name).inc(s.fallbacks - c.fallbacks)
        m.llm_decision.labels(name).observe(time.monotonic() - start)
        self._counted = Stats.from_json(s.to_json())


class ModelSeats:
    """The endpoints this server offers to hosts, and the metering of their seats."""

    def __init__(self, endpoints: Mapping[str, Endpoint], metrics: Metrics) -> None:
        self.endpoints = {e.level: e for e in endpoints.values()}
        self.metrics = metrics
        for endpoint in self.endpoints.values():
            register(endpoint.level, self._factory(endpoint))

    @classmethod
    def load(cls, path: Path | None, metrics: Metrics) -> ModelSeats | None:
        """The endpoints of ``path`` registered as levels (``EndpointError`` for a bad file);
        None when no file is configured."""
        if path is None:
            return None
        return cls(load_endpoints(path), metrics)

    def _factory(self, endpoint: Endpoint) -> Any:
        def make(seat: int, rng: random.Random) -> Agent:
            return ModelSeat(seat, rng, endpoint, self.metrics)

        return make

    def levels(self) -> list[str]:
        return sorted(self.endpoints)

    def offered(self) -> list[dict[str, str]]:
        """What GET /api/bots says of each model: its level and the name its seats show."""
        return [{"level": lv, "name": e.shown} for lv, e in sorted(self.endpoints.items())]

    def seat_name(self, level: str, seat: int) -> str | None:
        """A model seat's name: the endpoint's display name and the seat's number."""
        endpoint = self.endpoints.get(level)
        return None if endpoint is None else f"{endpoint.shown} {seat + 1}"

    def seat(self, agent: Agent, owner: str, offload: Offload) -> ModelSeat | None:
        """``agent`` as a model seat of a table whose host is ``owner`` (its requests take the
        endpoint's slots for that person), its fallback computed through ``offload`` (the
        bots' thread pool); None for an agent that is no model."""
        if not isinstance(agent, ModelSeat):
            return None
        agent.owner = owner
        agent.offload = offload
        return agent

    def plan(
        self, agent: ModelSeat, left: float | None, bot_timeout: float, delay: float = 0.0
    ) -> Plan:
        """The deadline of an ask that begins ``delay`` seconds from now: the table's timer
        (``left`` seconds from the ask's beginning) less ``DEADLINE_MARGIN`` for the fallback
        and the commit; without a timer (``left`` None) the lesser of the endpoint's
        ``decision_s`` and ``table_decision_s`` (people wait for it). The driver waits that
        long and ``bot_timeout`` more for the fallback."""
        e = agent.endpoint
        if left is None:
            own = min(e.decision_s, e.table_decision_s)
        else:
            own = max(left - min(DEADLINE_MARGIN, 0.1 * left), 0.0)
        return Plan(time.monotonic() + max(delay, 0.0) + own, own + bot_timeout)

    async def aclose(self) -> None:
        """Close the connections this server's loop holds to every endpoint (at shutdown)."""
        for endpoint in self.endpoints.values():
            await client_for(endpoint).aclose()

    def game_over(self, log: logging.LoggerAdapter, agents: Mapping[int, Agent]) -> None:  # type: ignore[type-arg]
        """Log each model seat's totals for the game and observe its tokens."""
        for seat, agent in sorted(agents.items()):
            if not isinstance(agent, ModelSeat):
                continue
            s = agent.stats
            tokens = s.prompt_tokens + s.completion_tokens
            self.metrics.llm_game_tokens.labels(agent.endpoint.name).observe(tokens)
            log.info(
                "model seat's game",
                extra={
                    "seat": seat,
                    "endpoint": agent.endpoint.name,
                    "prompt_tokens": s.prompt_tokens,
                    "completion_tokens": s.completion_tokens,
                    "requests": s.requests,
                    "fallbacks": s.fallbacks,
                    "model_seconds": round(s.seconds, 3),
                    "decisions": s.decisions,
                },
            )
