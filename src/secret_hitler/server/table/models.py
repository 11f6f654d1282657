"""Language-model seats at a table (docs/llm.md "Models at tables").

The server's operator names the endpoints in a file (``--llm-endpoints``, ``llm.endpoints``);
each becomes the bot level ``llm:<name>`` that a table's host may seat, and nothing a player
sends can name another URL. A model seat is an ``LLMAgent`` (its prompts, retries and fallback)
whose every decision is metered here: tokens, requests, fallbacks and seconds per endpoint go
to the server's metrics as they happen, and each seat's totals are logged when its game ends.

The driver (``driver.py``) asks a model like any bot, on a worker thread; before each ask
``prepare`` gives the model the table's decision deadline (a table without a timer: the
endpoint's ``decision_s``), so a slow or failing endpoint falls back in time by itself.

A model talks through the table's bot-talk path (``BotDriver``'s talk pass: ``listen`` and
``speak``): it hears every line said at the table in its prompts, and the lines it says with
its decisions leave as talk lines, which every reader sees in their own language: a structured
line as the model gave it, a text as ``talk.recognise`` reads it (what it says of seats; the
rest of a text is not said at a table).
"""

from __future__ import annotations

import contextlib
import logging
import random
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ...bots.base import SPEECH_MAX, Agent, register
from ...engine import Action, View
from ...llm.agent import LLMAgent, Stats
from ...llm.endpoints import LEVEL_PREFIX, Endpoint, load_endpoints
from ...llm.talk import ChatLine
from ...talk import InvalidLine, Line, line_from_json, recognise, render
from ...talk.said import Said
from ..core.metrics import Metrics

#: The part of the time left before the table's deadline a model may not use: its fallback
#: decides and the move is committed in it (at most this many seconds, else a tenth).
DEADLINE_MARGIN = 2.0


def is_model_level(level: str | None) -> bool:
    return level is not None and level.startswith(LEVEL_PREFIX)


class ModelSeat(LLMAgent):
    """An ``LLMAgent`` whose every ask is metered (``ModelSeats``)."""

    def __init__(self, seat: int, rng: random.Random, endpoint: Endpoint, metrics: Metrics) -> None:
        super().__init__(seat, rng, endpoint)
        self.metrics = metrics
        self._counted = Stats()
        #: The table's decision deadline (``time.monotonic()``), set by ``ModelSeats.prepare``
        #: before every ask and read, not consumed, by each: a decision and a claim ask of the
        #: seat may be in flight on two threads at once.
        self.table_deadline: float | None = None

    def _deadline(self) -> float:
        own = time.monotonic() + self.endpoint.decision_s
        return own if self.table_deadline is None else min(own, self.table_deadline)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        start = time.monotonic()
        try:
            return super().act(view, legal)
        finally:
            self._meter(start)

    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        start = time.monotonic()
        try:
            return super().claims(view, options)
        finally:
            self._meter(start)

    def speak(self, view: View) -> list[Line]:
        """The lines the model said with its decisions since the last talk pass."""
        out: list[Line] = []
        for said in self.take_chat():
            if said.line is not None:
                with contextlib.suppress(InvalidLine):
                    out.append(line_from_json(said.line, players=view.players))
            else:
                names = self.render.names(view)
                lang = self.endpoint.language
                out += recognise(said.text, players=view.players, names=names, lang=lang)
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
        """Count what the last ask added (prometheus_client's counters are thread-safe)."""
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

    def prepare(self, agent: Agent, left: float | None, bot_timeout: float) -> float | None:
        """Before a model is asked: its deadline is the table's (``left`` seconds from now, less
        ``DEADLINE_MARGIN``; None: the endpoint's own). Returns how long the driver waits for
        the answer (the model's time and its fallback's), or None for an agent that is no model."""
        if not isinstance(agent, ModelSeat):
            return None
        if left is None:
            agent.table_deadline = None
            return agent.endpoint.decision_s + bot_timeout
        own = max(left - min(DEADLINE_MARGIN, 0.1 * left), 0.0)
        agent.table_deadline = time.monotonic() + own
        return own + bot_timeout

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
