"""Shared test helpers live beside this file (``live_server``); pytest puts this folder on the
import path because it holds a conftest.py.

``make test`` runs the suite in parallel (pytest-xdist, ``-n auto --dist loadgroup``). A test
that shares something costly with the other tests of its file (a module-scoped fixture: a
server, a Ray cluster, a virtualenv; or the worker's Chromium) runs in one worker with the rest
of its file, so that it starts once; every other test is scheduled on its own, so that a file
of heavy computations (the batched engine's, the bots' fits) spreads over every core. Each
worker has its own PostgreSQL, Redis and Chromium, on ports and in folders of its own."""

from __future__ import annotations

import os

import pytest

_SHARED_SCOPES = {"module", "class", "package"}

# The batched engine's tests compile a few hundred XLA programs, each run on a few thousand
# games at most: LLVM's optimisation passes cost more than they save there (a fifth of those
# tests' CPU time, measured on 2026-12-07: 430 s -> 344 s for tests/batched in one process).
# Set before any test initialises JAX's backend; the programs compute the same values.
os.environ["XLA_FLAGS"] = " ".join(
    filter(None, [os.environ.get("XLA_FLAGS", ""), "--xla_backend_optimization_level=0"])
)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers a core. About half of the suite's time is spent waiting (for
    real servers, browsers and databases in other processes), so while one worker waits the
    other uses the core (``make test TEST_WORKERS=N`` or ``pytest -n N`` sets the number)."""
    return 2 * (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """``--dist loadgroup`` with waiting and computing work overlapped (``mixed_scheduling``)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from mixed_scheduling import MixedGroupScheduling

    return MixedGroupScheduling(config, log)


def _shares_its_file(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    if "chromium" in info.names_closure:
        return True
    return any(defs[-1].scope in _SHARED_SCOPES for defs in info.name2fixturedefs.values())


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under ``--dist loadgroup``: the tests that share their file's costly fixtures form one
    group per file (before xdist reads the groups; ``mixed_scheduling`` hands them out, the
    largest first, beside the single tests). A worker reads ``--dist`` as ``no``: xdist tells
    it ``loadgroup`` apart."""
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        if _shares_its_file(item):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::", 1)[0]))


class _GroupsFormed:
    """After xdist has read the groups (its hook runs between ours): a worker whose grouped
    tests carry no group in their node id would spread them over every worker, each starting
    the file's server again, without a word (pytest-dev/pytest-xdist#1386). It stops instead;
    xdist reports that as an internal error, not with this message (``pytest_configure`` says
    it in one line for the releases known to do it)."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(
        self, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        if not getattr(config.option, "loadgroup", False):
            return
        lost = [
            i.nodeid for i in items if i.get_closest_marker("xdist_group") and "@" not in i.nodeid
        ]
        if lost:
            raise pytest.UsageError(
                f"--dist loadgroup formed no group ({len(lost)} tests, first {lost[0]}): this "
                "pytest and pytest-xdist do not work together (see the pin in pyproject.toml)"
            )


# pytest and pytest-xdist releases that form no group (pytest-dev/pytest-xdist#1386): from this
# pytest on, up to this pytest-xdist
_GROUPS_LOST = ("9.2", "3.8.0")


def pytest_configure(config: pytest.Config) -> None:
    """Before any worker starts: the known pair of releases that forms no group stops the run
    in one line (``_GroupsFormed`` catches any other in the workers, where xdist reports its
    stop as an internal error)."""
    if getattr(config.option, "dist", "no") == "loadgroup" and not hasattr(config, "workerinput"):
        import xdist
        from packaging.version import Version

        lost_from, lost_to = _GROUPS_LOST
        lost = Version(pytest.__version__) >= Version(lost_from)
        if lost and Version(xdist.__version__) <= Version(lost_to):
            raise pytest.UsageError(
                f"pytest {pytest.__version__} with pytest-xdist {xdist.__version__} forms no "
                "--dist loadgroup group (pytest-dev/pytest-xdist#1386): install the dev extra's "
                "pytest (pyproject.toml), or run with -n 0"
            )
    config.pluginmanager.register(_GroupsFormed(), "groups-formed")
