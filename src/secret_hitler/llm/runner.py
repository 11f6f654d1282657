"""An event loop on a thread of its own, for callers of a model that are not async.

A model seat is asked through coroutines (``LLMAgent.act_async``: its requests hold no thread
while they wait). The server and the arena await them on their own event loops; the agent
contract's plain calls (``act``, ``claims``: the simulator, ``evaluate_votes``,
``make_agent``) run the same coroutines here, on one loop the process shares, so every caller
goes through one code path and one set of endpoint slots.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_thread: threading.Thread | None = None


def _runner() -> asyncio.AbstractEventLoop:
    global _loop, _thread
    with _lock:
        if _loop is None or _thread is None or not _thread.is_alive():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="sh-llm-loop", daemon=True)
            thread.start()
            _loop, _thread = loop, thread
        return _loop


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """The result of ``coro``, run on the shared loop; the caller's thread waits for it."""
    loop = _runner()
    if threading.current_thread() is _thread:
        coro.close()
        raise RuntimeError("run_sync was called from the model loop itself: await instead")
    return asyncio.run_coroutine_threadsafe(coro, loop).result()


def shared_loop() -> asyncio.AbstractEventLoop | None:
    """The shared loop, if it was started."""
    return _loop


def on_runner() -> bool:
    """Whether the caller runs on the shared loop's thread."""
    return threading.current_thread() is _thread


__all__ = ["on_runner", "run_sync", "shared_loop"]
