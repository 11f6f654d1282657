"""Worker pools for runs of games: this process, this machine's cores, or a Ray cluster.

``simulate``, ``tournament`` and ``arena`` hand ``WorkerPool.imap_unordered`` a picklable
callable and the work items (chunks of game indices, game plans); every result depends on its
item alone (seeds derive from indices), so a run gives the same results in one process, on
``jobs`` local processes, or on a cluster, in whatever order they finish.

A cluster is ``--ray ADDRESS`` or the usual ``RAY_ADDRESS`` (``ray.util.multiprocessing``
under the hood; the ``ray`` extra). Every node needs this package installed at the same
version (docs/llm.md, "Ray"). Ray replaces a loopback address ``127.0.0.1``/``localhost`` by
the machine's network address; an other loopback address (``127.0.0.2``) keeps every
connection on the loopback device, and the driver is told to use it too. An address nothing
listens on is refused in seconds (``ClusterError``): Ray itself would wait minutes for it.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from .extras import require

T = TypeVar("T")
R = TypeVar("R")
RAY_ENV = "RAY_ADDRESS"
CONNECT_TIMEOUT = 5.0  # seconds to reach a cluster's head before the address is refused


class ClusterError(Exception):
    """The Ray cluster cannot be reached or joined; the message is one line for the user."""


def ray_address(option: str | None = None) -> str | None:
    """The cluster to use: ``option`` (``--ray``), else ``$RAY_ADDRESS``, else None (local)."""
    address = option or os.environ.get(RAY_ENV) or None
    return address.strip() if address else None


def _loopback_host(address: str) -> str | None:
    """The host of ``address`` when it is a loopback IP literal (``127.0.0.2:6379``)."""
    host = address.rsplit(":", 1)[0] if ":" in address else address
    try:
        return host if ipaddress.ip_address(host).is_loopback else None
    except ValueError:
        return None


def _check_reachable(address: str) -> None:
    """Refuse a ``host:port`` (or ``ray://host:port``) nothing listens on, in seconds; other
    forms (``auto``) are left to Ray, which looks them up itself."""
    target = address.removeprefix("ray://")
    if ":" not in target:
        return
    host, _, port = target.rpartition(":")
    if not port.isdigit():
        raise ClusterError(f"{address}: the port must be a number (e.g. 10.0.0.5:6379)")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT):
            pass
    except OSError as exc:
        raise ClusterError(
            f"cannot reach the Ray cluster at {address} ({exc.strerror or exc or 'timed out'})"
        ) from None


def _threads() -> int:
    """The threads this process runs, native ones included (JAX's, a C library's): Linux
    counts them in ``/proc``; elsewhere only Python's own threads are seen."""
    import threading

    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()


def _pool_context() -> Any:
    """Fork while this process has one thread: the workers start at once with what is loaded.
    With more (JAX imported, a server running), a forked worker inherits only the forking
    thread, and a lock another thread held stays locked in it for ever; the workers then come
    from a fresh server process (``forkserver``), or are spawned where there is none."""
    import multiprocessing  # only for jobs > 1: one process needs no pool (nor its import)

    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and _threads() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class WorkerPool:
    """``jobs`` worker processes (0: every core; 1: this process), or a Ray cluster's.

    Use as a context manager: the workers start on entry and stop on exit. Enter it before the
    caller starts threads, and the workers are forked (``_pool_context``).
    """

    def __init__(self, jobs: int = 1, ray: str | None = None) -> None:
        self.ray = ray
        self.jobs = jobs if jobs > 0 or ray else (os.cpu_count() or 1)
        self._pool: Any = None
        self._ray_started = False

    @property
    def workers(self) -> int:
        """How many items run at once (a cluster: its CPUs, once started)."""
        if self.ray and self._pool is not None:
            return max(1, int(self._ray_module().cluster_resources().get("CPU", 1)))
        return max(1, self.jobs)

    def __enter__(self) -> WorkerPool:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @staticmethod
    def _ray_module() -> Any:
        import ray

        return ray

    def start(self) -> None:
        """Start the workers (idempotent); ``ClusterError`` when the cluster cannot be used."""
        if self._pool is not None:
            return
        if self.ray:
            require("ray", "--ray")
            ray = self._ray_module()
            from ray.util.multiprocessing import Pool

            if not ray.is_initialized():
                _check_reachable(self.ray)
                options: dict[str, Any] = {"address": self.ray, "log_to_driver": False}
                host = _loopback_host(self.ray)
                if host is not None:
                    options["_node_ip_address"] = host
                try:
                    ray.init(**options)
                except (ConnectionError, ValueError, RuntimeError) as exc:
                    first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                    raise ClusterError(
                        f"cannot join the Ray cluster at {self.ray}: {first}"
                    ) from None
                self._ray_started = True
            self._pool = Pool(processes=self.jobs or None)
        elif self.jobs > 1:
            self._pool = _pool_context().Pool(self.jobs)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            if not self.ray:
                self._pool.join()
            self._pool = None
        if self._ray_started:
            self._ray_module().shutdown()
            self._ray_started = False

    def imap_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        """``fn(item)`` for each item, as each finishes (in order in this process)."""
        if self._pool is None:
            return (fn(item) for item in items)
        return iter(self._pool.imap_unordered(fn, list(items)))


__all__ = ["RAY_ENV", "ClusterError", "WorkerPool", "ray_address"]
