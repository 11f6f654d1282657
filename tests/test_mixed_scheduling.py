"""The suite's own xdist scheduler (``mixed_scheduling``), driven as xdist's controller drives
it, with workers that only record what they are sent: half of the workers hold waiting work
while both kinds last, every test is sent once, and the largest groups go first."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("xdist")

from mixed_scheduling import MixedGroupScheduling  # noqa: E402


class _Worker:
    """What the scheduler calls on a worker: tests to run (indices into its collection)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.gateway = SimpleNamespace(id=name)
        self.sent: list[int] = []
        self.shutting_down = False

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent.extend(indices)

    def shutdown(self) -> None:
        self.shutting_down = True

    def __repr__(self) -> str:
        return self.name


def _config(workers: int) -> Any:
    values = {"tx": [f"{workers}*popen"], "dist": "loadgroup"}
    return SimpleNamespace(getvalue=values.get, option=SimpleNamespace(loadscopereorder=True))


# two groups of a web file and of a server file (waiting), server single tests (waiting),
# and single tests that compute
COLLECTION = [
    *(f"tests/web/test_web_a.py::test_{i}@tests/web/test_web_a.py" for i in range(6)),
    *(f"tests/server/test_b.py::test_{i}@tests/server/test_b.py" for i in range(4)),
    *(f"tests/server/test_c.py::test_{i}" for i in range(3)),
    *(f"tests/batched/test_d.py::test_{i}" for i in range(12)),
    *(f"tests/engine/test_e.py::test_{i}[{i}]" for i in range(9)),
]


def _waits(nodeid: str) -> bool:
    return "@" in nodeid or nodeid.startswith(("tests/server/", "tests/web/"))


def test_half_of_the_workers_hold_waiting_work_while_both_kinds_last() -> None:
    workers = [_Worker(f"gw{i}") for i in range(4)]
    sched = MixedGroupScheduling(_config(len(workers)))
    for w in workers:
        sched.add_node(w)
    for w in workers:
        sched.add_node_collection(w, COLLECTION)
    sched.schedule()
    # the largest group first, on the first worker; the second worker the next waiting unit
    assert [COLLECTION[i] for i in workers[0].sent] == COLLECTION[:6]
    assert [COLLECTION[i] for i in workers[1].sent] == COLLECTION[6:10]
    assert all(not _waits(COLLECTION[i]) for w in workers[2:] for i in w.sent)

    done: set[int] = set()
    turn = 0
    while sched.has_pending:
        # the workers finish their next tests in turn
        busy = [w for w in workers if any(i not in done for i in w.sent)]
        w = busy[turn % len(busy)]
        turn += 1
        index = next(i for i in w.sent if i not in done)
        done.add(index)
        sched.mark_test_complete(w, index)
        holding = [
            x for x in workers if any(_waits(COLLECTION[i]) for i in x.sent if i not in done)
        ]
        if any(not _waits(scope) for scope in sched.workqueue):  # both kinds still to hand out
            assert len(holding) <= 2, holding
    sent = sorted(i for w in workers for i in w.sent)
    assert sent == list(range(len(COLLECTION)))  # every test once
    assert all(w.sent for w in workers)
