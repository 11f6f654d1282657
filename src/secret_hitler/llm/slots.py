"""An endpoint's ``concurrency`` slots, shared fairly between the owners that want them.

A slot is one request in flight to the endpoint. An owner is whoever a request is made for: at
a server the host of the table (so one person's tables of models share one person's part), in
the arena one game. Two rules keep one owner from starving the others:

- a free slot goes to the waiting owner that holds the fewest slots (the earliest asked among
  equals), so a newcomer is served before anyone's second, third... request;
- no owner holds every slot: with two or more, one always stays for the other owners (one
  owner alone uses ``size - 1``), so a newcomer finds a free slot at once unless several other
  owners are busy.

A wait that reaches its deadline gives up (``acquire`` returns False): no request was sent, and
the caller counts it apart from the endpoint's answers. The slots are thread-safe and serve
waiters on any event loop (the server's, the arena's, the loop of ``llm.runner``), so the cap
holds for the whole process.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass, field


@dataclass(eq=False, slots=True)
class _Waiter:
    owner: Hashable
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[None]
    order: int = field(default=0)


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


class FairSlots:
    """``size`` slots (see the module docstring)."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("an endpoint needs at least one slot")
        self.size = size
        #: The most slots one owner may hold: all but one, when there are two or more.
        self.per_owner = size - 1 if size > 1 else 1
        self._lock = threading.Lock()
        self._held: Counter[Hashable] = Counter()
        self._waiting: list[_Waiter] = []
        self._order = itertools.count()

    def held(self, owner: Hashable | None = None) -> int:
        """Slots held now (by ``owner``, or by everyone)."""
        with self._lock:
            return sum(self._held.values()) if owner is None else self._held[owner]

    def waiting(self) -> int:
        with self._lock:
            return len(self._waiting)

    async def acquire(self, owner: Hashable, timeout: float) -> bool:
        """Wait at most ``timeout`` seconds for a slot for ``owner``; False if none came free.
        A cancelled wait holds nothing (a slot granted meanwhile is handed on)."""
        loop = asyncio.get_running_loop()
        waiter = _Waiter(owner, loop, loop.create_future())
        with self._lock:
            waiter.order = next(self._order)
            self._waiting.append(waiter)
            self._dispatch()
        try:
            if not waiter.future.done():
                await asyncio.wait([waiter.future], timeout=max(timeout, 0.0))
        except asyncio.CancelledError:
            with self._lock:
                if not self._forget(waiter):  # granted while we were being cancelled
                    self._release(owner)
            raise
        with self._lock:
            # Still waiting: the time ran out. Gone from the queue: the slot is ours (granted
            # now or just before the time ran out; the future may not be resolved yet).
            return not self._forget(waiter)

    def release(self, owner: Hashable) -> None:
        """Give back a slot ``owner`` holds; the next waiter (if any) gets it."""
        with self._lock:
            self._release(owner)

    # ------------------------------------------------------------------ under the lock
    def _forget(self, waiter: _Waiter) -> bool:
        """Drop a waiter still in the queue; False if it was granted a slot already."""
        try:
            self._waiting.remove(waiter)
        except ValueError:
            return False
        return True

    def _release(self, owner: Hashable) -> None:
        if self._held[owner] <= 0:
            raise RuntimeError("a slot was given back that was not held")
        self._held[owner] -= 1
        if not self._held[owner]:
            del self._held[owner]
        self._dispatch()

    def _dispatch(self) -> None:
        """Hand the free slots to the waiters they are due to (the module's two rules)."""
        while self._waiting and sum(self._held.values()) < self.size:
            best: _Waiter | None = None
            for w in self._waiting:  # in arrival order: ties go to the earliest
                held = self._held[w.owner]
                if held >= self.per_owner:
                    continue
                if best is None or held < self._held[best.owner]:
                    best = w
            if best is None:
                return  # the free slot is kept for another owner
            self._waiting.remove(best)
            self._held[best.owner] += 1
            try:
                best.loop.call_soon_threadsafe(_resolve, best.future)
            except RuntimeError:  # its event loop is closed: nobody will use the slot
                self._held[best.owner] -= 1
                if not self._held[best.owner]:
                    del self._held[best.owner]


__all__ = ["FairSlots"]
