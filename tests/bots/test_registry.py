"""The bot registry: names, and import errors that must not be hidden."""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import re
import sys
from types import ModuleType

import pytest

from secret_hitler import extras
from secret_hitler.bots import Agent, available_bots, base, bot_problem, make_agent
from secret_hitler.extras import MissingExtra


def test_builtin_bots_are_registered() -> None:
    names = available_bots()
    assert {"random", "rule"} <= set(names)
    agent = make_agent("rule", 3, seed=1)
    assert isinstance(agent, Agent) and agent.seat == 3


def test_unknown_bot_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown bot 'nope'"):
        make_agent("nope", 0)


def test_default_claims_hook_claims_nothing() -> None:
    assert Agent(0).claims(None, []) == []  # type: ignore[arg-type]


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves fake bot modules: one that needs a missing dependency, one that is broken."""

    NAMES = {"secret_hitler.bots.needs_dep", "secret_hitler.bots.broken"}

    def find_spec(self, fullname, path, target=None):  # type: ignore[no-untyped-def]
        if fullname in self.NAMES:
            return importlib.machinery.ModuleSpec(fullname, self)
        return None

    def create_module(self, spec):  # type: ignore[no-untyped-def]
        return None

    def exec_module(self, module: ModuleType) -> None:
        if module.__name__.endswith("needs_dep"):
            import a_dependency_that_is_not_installed  # type: ignore[import-not-found]  # noqa: F401
        raise ImportError("cannot import name 'thing' from 'somewhere'")


@pytest.fixture
def finder():  # type: ignore[no-untyped-def]
    f = _Finder()
    sys.meta_path.insert(0, f)
    yield f
    sys.meta_path.remove(f)
    for name in _Finder.NAMES:
        sys.modules.pop(name, None)


def test_a_missing_dependency_inside_a_bot_module_is_reported(
    monkeypatch: pytest.MonkeyPatch, finder: _Finder
) -> None:
    """Only a level's declared extra is reported as missing; any other missing module is a bug."""
    monkeypatch.setitem(base._BUILTIN, "needs-dep", ("needs_dep", None))
    with pytest.raises(ModuleNotFoundError, match="a_dependency_that_is_not_installed"):
        make_agent("needs-dep", 0)


def test_an_import_error_inside_a_bot_module_is_reported(
    monkeypatch: pytest.MonkeyPatch, finder: _Finder
) -> None:
    monkeypatch.setitem(base._BUILTIN, "broken", ("broken", None))
    with pytest.raises(ImportError, match="cannot import name"):
        make_agent("broken", 0)


def test_a_level_whose_extra_is_missing_is_left_out_and_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With numpy absent, bayes is not offered, and asking for it names the extra to install."""
    monkeypatch.setitem(extras.EXTRAS, "bots", ("a_module_that_is_not_installed",))
    monkeypatch.delitem(base._REGISTRY, "bayes", raising=False)
    assert "bayes" not in available_bots() and {"random", "rule"} <= set(available_bots())
    message = "bot 'bayes' needs the bots extra: pip install 'secret-hitler[bots]'"
    assert bot_problem("bayes") == message
    with pytest.raises(MissingExtra, match=re.escape(message)):
        make_agent("bayes", 0)
    assert bot_problem("rule") is None
    assert bot_problem("nope") == f"unknown bot 'nope'; available: {', '.join(available_bots())}"


def test_every_builtin_level_loads_when_its_extra_is_installed() -> None:
    for name in base._BUILTIN:
        assert make_agent(name, 0, seed=1).seat == 0
    assert set(base._BUILTIN) <= set(available_bots())


def test_a_level_from_another_installed_package_is_found_by_its_entry_point(tmp_path, monkeypatch):
    """A package that declares ``[secret_hitler.bots]`` in its entry points sits at our tables."""
    (tmp_path / "other_bots.py").write_text(
        "from secret_hitler.bots.random_bot import RandomAgent\n"
        "class Polite(RandomAgent):\n"
        "    name = 'polite'\n",
        encoding="utf-8",
    )
    info = tmp_path / "other_bots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Name: other-bots\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[secret_hitler.bots]\npolite = other_bots:Polite\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    from secret_hitler.bots import base

    assert "polite" in base.available_bots()
    assert base.bot_problem("polite") is None
    agent = base.make_agent("polite", 3, seed=1)
    assert agent.name == "polite" and agent.seat == 3
    monkeypatch.delitem(base._REGISTRY, "polite")
