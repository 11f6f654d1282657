"""Extras: each command that needs one names it in one line (exit 2), before doing any work.

The missing packages are simulated by pointing an extra at a module that does not exist; the
fresh-virtualenv test (tests/test_packaging.py) checks the same with the packages really absent.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from secret_hitler import cli, extras
from secret_hitler.bots import base

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def _lose(monkeypatch: pytest.MonkeyPatch, extra: str) -> None:
    monkeypatch.setitem(extras.EXTRAS, extra, ("a_module_that_is_not_installed",))
    if extra == "bots":
        monkeypatch.delitem(base._REGISTRY, "bayes", raising=False)


# distributions whose import name is not their name
_IMPORT_NAME = {"argon2_cffi": "argon2", "open_spiel": "pyspiel"}


def _module(requirement: str) -> str:
    name = re.split(r"[\[<>=!~ ;]", requirement, maxsplit=1)[0].lower().replace("-", "_")
    return _IMPORT_NAME.get(name, name)


def test_the_module_table_matches_pyproject() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    optional = declared["optional-dependencies"]
    for extra, modules in extras.EXTRAS.items():
        assert sorted(modules) == sorted(_module(r) for r in optional[extra]), extra
    assert optional["all"] == [f"secret-hitler[{','.join(extras.EXTRAS)}]"]
    assert sorted(_module(r) for r in declared["dependencies"]) == ["rich", "typer"]


def test_the_suite_runs_with_every_extra() -> None:
    """`make test` installs `.[all,dev]`; a test that would skip for a missing extra (the batched
    engine, OpenSpiel, Ray) fails the run here instead of passing silently."""
    missing = [extra for extra in extras.EXTRAS if not extras.installed(extra)]
    assert missing == [], f"pip install -e '.[all,dev]' (missing extras: {missing})"


def test_simulate_names_the_bots_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    _lose(monkeypatch, "bots")
    result = runner.invoke(cli.app, ["simulate", "--liberals", "bayes", "--games", "2"])
    assert result.exit_code == 2
    assert result.output.strip() == (
        "secret-hitler simulate: --liberals: bot 'bayes' needs the bots extra: "
        "pip install 'secret-hitler[bots]'"
    )
    ok = runner.invoke(cli.app, ["simulate", "--games", "2", "--jobs", "1", "--json"])
    assert ok.exit_code == 0, ok.output  # rule against rule needs no extra


def test_plots_need_the_plot_extra_before_any_game(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _lose(monkeypatch, "plot")
    out = tmp_path / "games.jsonl"
    result = runner.invoke(
        cli.app, ["simulate", "--games", "2", "--out", str(out), "--plot", str(tmp_path / "p.png")]
    )
    assert result.exit_code == 2
    assert "--plot needs the plot extra: pip install 'secret-hitler[plot]'" in result.output
    assert not out.exists()
    result = runner.invoke(cli.app, ["tournament", "--games", "2", "--out", str(tmp_path / "t")])
    assert result.exit_code == 2
    assert "writing the heatmaps needs the plot extra" in result.output
    assert not (tmp_path / "t").exists()


def test_serve_names_the_server_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    _lose(monkeypatch, "server")
    result = runner.invoke(cli.app, ["serve", "--port", "1"])
    assert result.exit_code == 2
    assert result.output.strip() == (
        "secret-hitler serve needs the server extra: pip install 'secret-hitler[server]'"
    )


def test_serve_on_postgresql_names_the_postgres_extra(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _lose(monkeypatch, "postgres")
    result = runner.invoke(
        cli.app, ["serve", "--data", str(tmp_path), "--database-url", "postgresql://u@h/db"]
    )
    assert result.exit_code == 2
    assert "needs the postgres extra: pip install 'secret-hitler[postgres]'" in result.output


def test_main_turns_a_missing_extra_module_into_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A path that forgot to check still ends in one line naming the extra, exit 2."""

    def needs_matplotlib() -> None:
        raise ModuleNotFoundError("No module named 'matplotlib'", name="matplotlib.pyplot")

    assert cli.app is not None  # every plugin registered, so main() has nothing left to add
    monkeypatch.setattr(cli, "_app", needs_matplotlib)
    with pytest.raises(SystemExit) as info:
        cli.main()
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err == (
        "secret-hitler: matplotlib.pyplot is not installed: pip install 'secret-hitler[plot]'\n"
    )

    def a_bug() -> None:
        raise ModuleNotFoundError("No module named 'nothing_we_know'", name="nothing_we_know")

    monkeypatch.setattr(cli, "_app", a_bug)
    with pytest.raises(ModuleNotFoundError):  # an unknown module is a bug: not hidden
        cli.main()


def test_extra_for_prefers_the_smallest_extra() -> None:
    assert extras.extra_for("numpy.linalg") == "bots"
    assert extras.extra_for("sqlalchemy.orm") == "server"
    assert extras.extra_for("psycopg") == "postgres"
    assert extras.extra_for("json") is None and extras.extra_for(None) is None
