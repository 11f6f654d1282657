"""An endpoint's slots (llm/slots.py): who gets a free slot, that no owner takes them all, and
that a wait which finds none holds nothing. Every wait here is decided by the order of
acquires and releases; the timeouts only bound a wait that must fail."""

from __future__ import annotations

import asyncio

import pytest

from secret_hitler.llm.slots import FairSlots


async def _granted(task: asyncio.Task[bool]) -> bool:
    """Whether a waiting acquire got its slot once the loop has run what was granted."""
    for _ in range(5):
        await asyncio.sleep(0)
    return task.done() and task.result()


def test_a_free_slot_goes_to_the_owner_holding_fewest() -> None:
    """Host A's tables wait for slots before host B's: the first slot freed goes to B all the
    same (B holds none), the next to A."""

    async def scenario() -> None:
        slots = FairSlots(3)
        assert await slots.acquire("A", 1) and await slots.acquire("A", 1)
        assert await slots.acquire("B", 1)
        a_more = asyncio.create_task(slots.acquire("A", 30))
        b_more = asyncio.create_task(slots.acquire("B", 30))
        c_first = asyncio.create_task(slots.acquire("C", 30))
        assert not await _granted(a_more) and slots.waiting() == 3
        slots.release("A")  # A and C hold 1 and 0: C first, though it asked last
        assert await _granted(c_first) and not a_more.done() and not b_more.done()
        slots.release("C")  # A holds 1, B holds 1: A asked first
        assert await _granted(a_more) and not b_more.done()
        slots.release("A")
        assert await _granted(b_more)
        assert slots.held("A") == 1 and slots.held("B") == 2 and slots.held() == 3

    asyncio.run(scenario())


def test_one_owner_never_holds_every_slot() -> None:
    """A host alone gets all slots but one; the last one serves the next host at once."""

    async def scenario() -> None:
        slots = FairSlots(4)
        for _ in range(3):
            assert await slots.acquire("A", 1)
        fourth = asyncio.create_task(slots.acquire("A", 30))
        assert not await _granted(fourth) and slots.held() == 3
        assert await slots.acquire("B", 0.5)  # no wait: the slot was kept for another owner
        assert slots.held() == 4 and not fourth.done()
        slots.release("B")  # free again, and still not A's fourth
        assert not await _granted(fourth)
        slots.release("A")
        assert await _granted(fourth) and slots.held("A") == 3
        one = FairSlots(1)  # with one slot there is nothing to keep: the owner gets it
        assert await one.acquire("A", 1)

    asyncio.run(scenario())


def test_a_wait_that_finds_no_slot_holds_nothing() -> None:
    """An acquire whose time runs out returns False and leaves no trace; a cancelled one
    hands on a slot granted meanwhile."""

    async def scenario() -> None:
        slots = FairSlots(1)
        assert await slots.acquire("A", 1)
        assert not await slots.acquire("B", 0.05)  # every slot stayed busy
        assert slots.waiting() == 0 and slots.held("B") == 0
        waiting = asyncio.create_task(slots.acquire("B", 30))
        then = asyncio.create_task(slots.acquire("C", 30))
        assert not await _granted(waiting)
        slots.release("A")  # granted to B (asked first)...
        waiting.cancel()  # ...which is cancelled before it runs: C gets the slot
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert await _granted(then) and slots.held("B") == 0 and slots.held("C") == 1
        with pytest.raises(RuntimeError):
            slots.release("B")  # a slot B does not hold

    asyncio.run(scenario())
