"""xdist's ``loadgroup`` scheduler, handing work out so that waiting and computing overlap.

The suite has two kinds of work. The server's and the web client's tests mostly wait: on a
live server, Chromium or the databases, whose CPU is in those processes (about half a core for
a worker). A file's group (its tests share a live server or the worker's Chromium,
``conftest.py``) is of that kind too. The rest mostly computes in the worker (the batched
engine's compilations, the bots' fits, the engine's properties): a whole core. xdist hands out
the largest units first and then the single tests in file order, so all workers ran groups
for the first minutes and the server's tests together in the last ones, each time with a core
partly idle: measured on 2026-12-07 (2,509 tests, 4 workers on 2 cores), 704 s for 1,027 s of
CPU. Here a worker that needs work takes waiting work while fewer than half of the workers
hold some, and else computing work, each kind in xdist's order (the largest groups first, so
that none of them starts last and runs alone); when one kind runs out, the other fills every
worker."""

from __future__ import annotations

from xdist.scheduler import LoadGroupScheduling
from xdist.workermanage import WorkerController

_WAITING_FOLDERS = ("tests/server/", "tests/web/")


def _waits(scope: str) -> bool:
    """A group's scope is its name (a file's path, ``conftest.py``); a single test's is its node
    id."""
    return "::" not in scope or scope.startswith(_WAITING_FOLDERS)


class MixedGroupScheduling(LoadGroupScheduling):
    """``--dist loadgroup``, with about half of the workers on waiting work at any time."""

    def _waiting(self, node: WorkerController) -> bool:
        units = self.assigned_work.get(node, {})
        return any(_waits(s) and not all(done.values()) for s, done in units.items())

    def _assign_work_unit(self, node: WorkerController) -> None:
        waiting = sum(self._waiting(n) for n in self.nodes if n is not node)
        want = waiting < len(self.nodes) // 2
        scope = next((s for s in self.workqueue if _waits(s) == want), None)
        if scope is not None:  # to the front, where xdist takes the next unit from
            self.workqueue.move_to_end(scope, last=False)
        super()._assign_work_unit(node)
