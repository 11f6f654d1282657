"""`secret-hitler simulate` and `tournament`: smoke runs, outputs, and clean errors (exit 2)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from secret_hitler.cli import app
from secret_hitler.sim import Lineup, SimConfig, simulate, summarize

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
A_FILE = str(ROOT / "pyproject.toml")
A_FOLDER = str(ROOT / "src")


def test_simulate_smoke(tmp_path: Path) -> None:
    out, records, plot = tmp_path / "g.jsonl", tmp_path / "records", tmp_path / "p.png"
    result = runner.invoke(
        app,
        [
            "simulate",
            "--players",
            "6",
            "--games",
            "8",
            "--liberals",
            "rule",
            "--fascists",
            "random",
            "--jobs",
            "1",
            "--seed",
            "3",
            "--out",
            str(out),
            "--records",
            str(records),
            "--plot",
            str(plot),
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "liberal wins" in result.output and "95% interval" in result.output
    assert len(out.read_text().splitlines()) == 8
    assert len(list(records.glob("*.json"))) == 8
    assert plot.stat().st_size > 1000


def test_simulate_json_matches_the_library() -> None:
    result = runner.invoke(
        app,
        [
            "simulate",
            "--games",
            "10",
            "--liberals",
            "random",
            "--fascists",
            "rule",
            "--hitler",
            "random",
            "--jobs",
            "1",
            "--seed",
            "5",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    expected = summarize(
        simulate(SimConfig(7, Lineup("random", "rule", "random"), "official", 5), 10)
    )
    assert data["games"] == 10 and data["liberal_wins"] == expected.liberal_wins


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--liberals", "nope"], "--liberals: unknown bot 'nope'"),
        (["simulate", "--fascists", "nope"], "--fascists: unknown bot 'nope'"),
        (["simulate", "--hitler", "nope"], "--hitler: unknown bot 'nope'"),
        (["simulate", "--players", "4"], "--players: must be 5 to 10"),
        (["simulate", "--games", "0"], "--games: must be at least 1"),
        (["simulate", "--jobs", "-1"], "--jobs: must be 0"),
        (["simulate", "--rules", "nope"], "--rules: unknown preset 'nope'"),
        (["simulate", "--rules", "{bad"], "--rules: not valid JSON"),
        (["simulate", "--rules", '{"fascists": 4}', "--players", "7"], "--rules: fascists"),
        (["simulate", "--players", "seven"], "--players"),
        (["tournament", "--out", "x", "--players", "5,x"], "--players: 'x' is not a number"),
        (["tournament", "--out", "x", "--players", "5,11"], "--players: must be 5 to 10"),
        (["tournament", "--out", "x", "--bots", "rule,nope"], "--bots: unknown bot 'nope'"),
        (["tournament", "--out", "x", "--bots", "rule,rule"], "--bots: a bot is named twice"),
        (["tournament", "--out", "x", "--games", "0"], "--games: must be at least 1"),
        (["tournament", "--players", "5"], "--out"),
        (["tournament", "--out", A_FILE], "exists and is not a folder"),
        (["simulate", "--out", A_FOLDER + "/no/such/g.jsonl"], "no/such does not exist"),
        (["simulate", "--plot", A_FOLDER], "--plot: "),
        (["simulate", "--records", A_FILE], "--records: "),
        # places that exist but cannot be written: told before the games, not after them
        (["simulate", "--out", "/proc/games.jsonl"], "--out: cannot write /proc/games.jsonl"),
        (["simulate", "--records", "/proc/records"], "--records: cannot write in /proc/records"),
        (["tournament", "--out", "/proc/t", "--players", "5"], "--out: cannot write in /proc/t"),
    ],
)
def test_bad_flags_exit_2_with_a_clear_message(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_tournament_writes_every_cell(tmp_path: Path) -> None:
    out = tmp_path / "t"
    result = runner.invoke(
        app,
        [
            "tournament",
            "--players",
            "5,7",
            "--games",
            "6",
            "--bots",
            "random,rule",
            "--jobs",
            "1",
            "--seed",
            "9",
            "--out",
            str(out),
            "--quiet",
        ],
    )
    assert result.exit_code == 0, result.output
    for name in ("results.md", "results.csv", "heatmap-5p.png", "heatmap-7p.png"):
        assert (out / name).stat().st_size > 0
    rows = list(csv.DictReader((out / "results.csv").open()))
    cells = {(int(r["players"]), r["liberals"], r["fascists"]): r for r in rows}
    assert len(rows) == 8 and len(cells) == 8
    for (players, lib, fas), row in cells.items():
        assert row["hitler"] == fas and int(row["games"]) == 6
        expected = summarize(simulate(SimConfig(players, Lineup(lib, fas), "official", 9), 6))
        assert int(row["liberal_wins"]) == expected.liberal_wins
        assert float(row["ci_low"]) == pytest.approx(expected.liberal_ci[0], abs=1e-4)
    md = (out / "results.md").read_text()
    assert "## 5 players" in md and "## 7 players" in md
    assert "| liberals \\ fascists | random | rule |" in md
    assert "--bots random,rule" in md


def test_each_plugin_adds_exactly_the_commands_the_cli_loads_it_for() -> None:
    """`secret-hitler CMD` loads only CMD's module (start-up counts in every run), so the map
    in cli.py must name what each module's ``register`` adds."""
    import importlib

    import typer

    from secret_hitler import cli

    for name, commands in cli._PLUGINS.items():
        one = typer.Typer()
        module, _, function = name.partition(":")
        getattr(importlib.import_module(module), function or "register")(one)
        added = [c.name for c in one.registered_commands] + [g.name for g in one.registered_groups]
        assert sorted(added) == sorted(commands), module


def test_one_command_loads_only_its_own_plugin() -> None:
    import subprocess
    import sys

    probe = (
        "import sys; from secret_hitler import cli; sys.argv = ['secret-hitler', 'simulate', "
        "'--games', '1', '--jobs', '1', '--quiet', '--json']; "
        "import contextlib\nwith contextlib.suppress(SystemExit): cli.main()\n"
        "print(sorted(m for m in sys.modules if m in {p.split(':')[0] for p in cli._PLUGINS}))\n"
        "print(sorted(m for m in ('multiprocessing', 'rich.progress', 'csv') if m in sys.modules))"
    )
    out = (
        subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
        )
        .stdout.strip()
        .splitlines()
    )
    assert json.loads(out[0])["games"] == 1
    assert out[-2] == "['secret_hitler.sim.cli']"  # not evaluate's module either
    # Nor what one process without a progress bar never uses (start-up is part of the run).
    assert out[-1] == "[]"
