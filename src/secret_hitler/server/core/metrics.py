"""Prometheus metrics, one registry per app (so several apps can live in one process).

What every action counts (``actions_total``, ``action_latency``, ``errors_total``) is kept in
plain numbers the event loop adds to, and made into Prometheus samples only when ``/metrics`` is
read (``Tally``, ``LoopHistogram``): a labelled child's look-up and a metric's lock cost more
than the rest of the count, hundreds of times a second.
"""

from __future__ import annotations

import asyncio
import time
from bisect import bisect_left
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
# A language model's decision: a local model answers in a second or so, a hosted one in tens.
MODEL_BUCKETS = (0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 40.0, 80.0, 160.0)


class Tally:
    """A counter by one label, counted on the event loop (its one writer), read at a scrape."""

    def __init__(self, name: str, doc: str, label: str, registry: CollectorRegistry) -> None:
        self.name, self.doc, self.label = name, doc, label
        self.counts: dict[str, float] = {}
        registry.register(self)

    def inc(self, value: str, amount: float = 1.0) -> None:
        self.counts[value] = self.counts.get(value, 0.0) + amount

    def describe(self) -> list[Metric]:
        return [CounterMetricFamily(self.name, self.doc, labels=[self.label])]

    def collect(self) -> Iterator[Metric]:
        family = CounterMetricFamily(self.name, self.doc, labels=[self.label])
        for value, count in sorted(self.counts.items()):
            family.add_metric([value], count)
        yield family


class LoopHistogram:
    """A histogram observed on the event loop (its one writer), read at a scrape."""

    def __init__(
        self, name: str, doc: str, buckets: tuple[float, ...], registry: CollectorRegistry
    ) -> None:
        self.name, self.doc, self.bounds = name, doc, buckets
        self.counts = [0] * (len(buckets) + 1)  # the last: above every bound
        self.sum = 0.0
        registry.register(self)

    def observe(self, value: float) -> None:
        self.counts[bisect_left(self.bounds, value)] += 1  # a bucket's bound is inclusive
        self.sum += value

    def describe(self) -> list[Metric]:
        return [HistogramMetricFamily(self.name, self.doc)]

    def collect(self) -> Iterator[Metric]:
        cumulative, total = [], 0
        for bound, count in zip([*map(str, self.bounds), "+Inf"], self.counts, strict=True):
            total += count
            cumulative.append((bound, float(total)))
        yield HistogramMetricFamily(self.name, self.doc, buckets=cumulative, sum_value=self.sum)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.games_active = Gauge("sh_games_active", "Games being played now", registry=r)
        self.tables_open = Gauge(
            "sh_tables_open", "Tables in memory (waiting or playing)", registry=r
        )
        self.actions_total = Tally("sh_actions", "Accepted game actions", "by", r)
        self.ws_connections = Gauge("sh_ws_connections", "Open WebSocket connections", registry=r)
        self.action_latency = LoopHistogram(
            "sh_action_latency_seconds",
            "From receiving an action to its updates being sent to every connection",
            LATENCY_BUCKETS,
            r,
        )
        self.errors_total = Tally("sh_ws_errors", "Error messages sent to clients", "code", r)
        self.refused_messages = Counter(
            "sh_cluster_refused_messages_total",
            "Messages on Redis a cluster node refused: not sealed by a node, or played again",
            registry=r,
        )
        # Model seats (server/table/models.py), by endpoint name (the operator's few)
        self.llm_tokens = Counter(
            "sh_llm_tokens_total",
            "Tokens of model seats' requests, by endpoint and kind (prompt, completion)",
            ["endpoint", "kind"],
            registry=r,
        )
        self.llm_requests = Counter(
            "sh_llm_requests_total", "Requests to model endpoints", ["endpoint"], registry=r
        )
        self.llm_fallbacks = Counter(  # (malformed, illegal, late or failed answers)
            "sh_llm_fallbacks_total",
            "Model asks the fallback level settled",
            ["endpoint"],
            registry=r,
        )
        self.llm_decision = Histogram(
            "sh_llm_decision_seconds",
            "A model seat's decision or claims, retries and fallback included",
            ["endpoint"],
            buckets=MODEL_BUCKETS,
            registry=r,
        )
        self.llm_game_tokens = Histogram(
            "sh_llm_game_tokens",
            "Tokens one model seat spent in one game",
            ["endpoint"],
            buckets=(1e3, 3e3, 1e4, 3e4, 1e5, 3e5, 1e6),
            registry=r,
        )

        self.loop_lag = Histogram(
            "sh_loop_lag_seconds",
            "How late a 50 ms event-loop timer fires (CPU starvation, long callbacks, GC)",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.gc_pause = Histogram(
            "sh_gc_pause_seconds",
            "Garbage-collection pauses",
            ["generation"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self._gc_start = 0.0

    def gc_callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
        elif self._gc_start:
            self.gc_pause.labels(generation=str(info.get("generation", "?"))).observe(
                time.perf_counter() - self._gc_start
            )

    async def watch_loop(self, period: float = 0.05) -> None:
        """Measure event-loop lag forever (cancel to stop)."""
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(period)
            self.loop_lag.observe(max(0.0, loop.time() - start - period))

    def render(self) -> bytes:
        return generate_latest(self.registry)
