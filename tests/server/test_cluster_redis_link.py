"""One node's link to Redis (cluster/node.py), in process, against a real redis-server that is
killed and started again under it while connections come and go: the node reports Redis lost
and found again by itself, every (un)subscription answers yes or no instead of raising, and
nothing unsubscribed while Redis was away is subscribed again when it returns."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

import pytest
from cluster_support import Redis

from secret_hitler.server.cluster.node import Cluster
from secret_hitler.server.cluster.relay import direct, inbox
from secret_hitler.server.cluster.signing import BROADCAST
from secret_hitler.server.core.metrics import Metrics

WITHIN = 20.0  # seconds: a machine busy with the whole suite


async def _until(pred: Any, what: str) -> None:
    end = time.monotonic() + WITHIN
    while not pred():
        if time.monotonic() > end:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def _node(redis: Redis) -> tuple[Cluster, list[tuple[str, bytes]]]:
    hub = SimpleNamespace(metrics=Metrics(), tables={})
    node = Cluster(hub, None, "n0", redis.url, 3.0, b"k" * 32)  # type: ignore[arg-type]
    got: list[tuple[str, bytes]] = []
    node.relay.on_direct = lambda cid, data: got.append((cid, data))  # type: ignore[method-assign]
    await node.start()
    return node, got


async def _delivered(node: Cluster, got: list[tuple[str, bytes]], cid: str) -> None:
    assert await node.subscribe(direct(cid))
    node.publish(direct(cid), b"hello " + cid.encode())
    await _until(lambda: (cid, b"hello " + cid.encode()) in got, f"the message on {cid}")


async def _subscribed(node: Cluster) -> set[str]:
    """The channels Redis says this node (its only client) is subscribed to."""
    return {c.decode() for c in await node.redis.pubsub_channels()}


@pytest.mark.timeout(120)
def test_redis_killed_again_and_again_under_churning_subscriptions(redis: Redis) -> None:
    async def run() -> None:
        node, got = await _node(redis)
        answers: list[bool] = []

        async def churn(k: int, stop: asyncio.Event) -> None:
            n = 0
            while not stop.is_set():
                n += 1
                names = (direct(f"c{k}.{n}"), f"sh:t:table{k}:0")
                try:
                    answers.append(await node.subscribe(*names))
                    await asyncio.sleep(0.005 * k)
                finally:
                    await node.unsubscribe(*names)

        try:
            await _delivered(node, got, "before")
            for _ in range(6):
                stop = asyncio.Event()
                churners = [asyncio.create_task(churn(k, stop)) for k in range(8)]
                began = len(answers)
                await _until(lambda b=began: len(answers) >= b + 8, "subscriptions before")
                await asyncio.to_thread(redis.restart)
                after = len(answers)  # and as many more while the node finds Redis again
                await _until(lambda a=after: len(answers) >= a + 8, "subscriptions after")
                stop.set()
                await asyncio.gather(*churners)  # none raised
                await _until(lambda: node.health()["redis"] == "ok", "the node to find Redis")
            assert True in answers and all(isinstance(a, bool) for a in answers)
            assert not any(t.done() for t in node._tasks)  # the reader and the publisher live
            await _delivered(node, got, "after")
            # what it holds, and nothing a churner let go of while Redis was away (or before a
            # lost connection brought Redis the unsubscription)
            wanted = {inbox("n0"), BROADCAST, direct("before"), direct("after")}
            end = time.monotonic() + WITHIN
            while (held := await _subscribed(node)) != wanted and time.monotonic() < end:
                await asyncio.sleep(0.05)
            assert held == wanted
        finally:
            await node.close()

    asyncio.run(run())


@pytest.mark.timeout(60)
def test_whatever_breaks_the_subscription_the_reader_starts_over(redis: Redis) -> None:
    """An error redis-py was not meant to raise (a RuntimeError: one socket read by two
    coroutines) is a lost subscription like any other, not the end of the node's reader."""

    async def run() -> None:
        node, got = await _node(redis)
        try:
            real = node.pubsub.get_message
            failed: list[bool] = []

            async def broken_once(**kw: Any) -> Any:
                if not failed:
                    failed.append(True)
                    raise RuntimeError("readuntil() called while another coroutine is waiting")
                return await real(**kw)

            node.pubsub.get_message = broken_once  # type: ignore[method-assign]
            await _until(lambda: bool(failed), "the reader to fail")
            await _until(lambda: node.health()["redis"] == "ok", "the node to find Redis")
            await _delivered(node, got, "after")
        finally:
            await node.close()

    asyncio.run(run())
