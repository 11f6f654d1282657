"""The per-action counts (core/metrics.py ``Tally``, ``LoopHistogram``), kept as plain numbers on
the event loop, read at a scrape exactly as prometheus_client's own counter and histogram."""

from __future__ import annotations

import random

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

from secret_hitler.server.core.metrics import LATENCY_BUCKETS, LoopHistogram, Tally


def _samples(registry: CollectorRegistry) -> list[str]:
    lines = generate_latest(registry).decode().splitlines()
    return [line for line in lines if not line.startswith("#") and "_created" not in line]


def test_loop_counts_scrape_as_prometheus_client_counts() -> None:
    ours, theirs = CollectorRegistry(), CollectorRegistry()
    tally = Tally("sh_actions", "Accepted game actions", "by", ours)
    counter = Counter("sh_actions", "Accepted game actions", ["by"], registry=theirs)
    histogram = LoopHistogram("sh_latency_seconds", "latency", LATENCY_BUCKETS, ours)
    reference = Histogram("sh_latency_seconds", "latency", buckets=LATENCY_BUCKETS, registry=theirs)
    rng = random.Random(3)
    values = [*LATENCY_BUCKETS, 0.0, 99.0] + [rng.expovariate(50.0) for _ in range(500)]
    for value in values:  # bounds included: a bucket's bound is inclusive
        histogram.observe(value)
        reference.observe(value)
        by = rng.choice(["player", "timer", "absent"])
        tally.inc(by)
        counter.labels(by=by).inc()
    assert sorted(_samples(ours)) == sorted(_samples(theirs))
