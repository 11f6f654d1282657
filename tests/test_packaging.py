"""A plain ``pip install`` is a light library: no server, database, numpy or plotting packages.

Two checks. The import graph (cheap, in a subprocess so nothing else loaded counts): the engine,
simulator, importers, rule bot and CLI pull in none of the heavy modules. The real install (the
``packaging`` marker; it runs in ``make test``): a fresh virtualenv, the project installed from a
copy of this tree without extras (its dependencies from the registry, through pip's cache), then
the distributions present and the commands a library user runs.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from secret_hitler.datasets import SECRETHITLER_IO

ROOT = Path(__file__).resolve().parents[1]

# Distributions (and their modules) that only extras may bring.
FORBIDDEN_DISTRIBUTIONS = {
    "fastapi",
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "psycopg",
    "psycopg-binary",
    "pydantic",
    "pydantic-core",
    "prometheus-client",
    "numpy",
    "matplotlib",
    "websockets",
    "itsdangerous",
}
FORBIDDEN_MODULES = {
    "fastapi",
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "psycopg",
    "pydantic",
    "prometheus_client",
    "numpy",
    "matplotlib",
    "websockets",
    "itsdangerous",
}

_IMPORTS = """
import json, sys
import secret_hitler.engine, secret_hitler.sim, secret_hitler.importers, secret_hitler.bots.rule
import secret_hitler.cli, secret_hitler.datasets
from secret_hitler.bots import available_bots, make_agent
from secret_hitler.sim import Lineup, SimConfig, simulate
available_bots()
make_agent("rule", 0)
make_agent("random", 1)
assert len(simulate(SimConfig(7, Lineup("rule", "random")), 3, jobs=1)) == 3
print(json.dumps(sorted({name.split(".")[0] for name in sys.modules})))
"""


def test_the_light_modules_import_nothing_heavy() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), *sys.path])}
    out = subprocess.run(
        [sys.executable, "-c", _IMPORTS],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=True,
    )
    loaded = set(json.loads(out.stdout.splitlines()[-1]))
    assert "secret_hitler" in loaded
    assert loaded & FORBIDDEN_MODULES == set()


# ------------------------------------------------------------------------ a real plain install


def _run(args: list[str], timeout: float = 300, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kw)  # type: ignore[call-overload, no-any-return]


@pytest.fixture(scope="module")
def plain_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtualenv with ``pip install <copy of this tree>``, no extras; returns its bin folder."""
    base = tmp_path_factory.mktemp("plain-install")
    tree = base / "tree"  # only what a build reads: the worktree itself stays untouched
    tree.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, tree / name)
    shutil.copytree(
        ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
    )
    env_dir = base / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    bin_dir = env_dir / "bin"
    installed = _run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--verbose", str(tree)], timeout=540
    )
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
    log = installed.stdout + installed.stderr
    # The licence is an SPDX expression that setuptools takes as it is (no deprecation notice).
    assert "SetuptoolsDeprecationWarning" not in log
    assert "License classifiers are deprecated" not in log
    return bin_dir


@pytest.mark.packaging
def test_a_plain_install_has_no_heavy_distribution(plain_venv: Path) -> None:
    script = (
        "import importlib.metadata as m, json\n"
        "print(json.dumps([d.metadata['Name'] for d in m.distributions()]))\n"
        "print(m.metadata('secret-hitler')['License-Expression'])\n"
    )
    out = _run([str(plain_venv / "python"), "-c", script], timeout=60)
    assert out.returncode == 0, out.stderr
    names_line, licence = out.stdout.splitlines()[-2:]
    names = {n.lower().replace("_", "-") for n in json.loads(names_line)}
    assert {"secret-hitler", "typer", "rich"} <= names
    assert names & FORBIDDEN_DISTRIBUTIONS == set()
    assert licence == "MIT"


@pytest.mark.packaging
def test_the_library_commands_work_on_a_plain_install(plain_venv: Path, tmp_path: Path) -> None:
    exe = str(plain_venv / "secret-hitler")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}

    def sh(*args: str) -> subprocess.CompletedProcess[str]:
        return _run([exe, *args], timeout=300, env=env, cwd=tmp_path)

    # import: a few real games, from a .jsonl.gz (the installed package reads gzip as well).
    with gzip.open(SECRETHITLER_IO, "rt", encoding="utf-8") as fh:
        lines = [next(fh) for _ in range(6)]
    games = tmp_path / "few.jsonl.gz"
    games.write_bytes(gzip.compress("".join(lines).encode()))
    out = sh("import", "secrethitler-io", str(games), str(tmp_path / "records"))
    assert out.returncode == 0, out.stdout + out.stderr
    records = sorted((tmp_path / "records").glob("*.json"))
    assert len(records) >= 5

    out = sh("replay", *map(str, records))
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.count(": ok;") == len(records)

    out = sh("simulate", "--liberals", "random", "--fascists", "random", "--games", "20")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "liberal wins" in out.stdout
    out = sh("simulate", "--liberals", "rule", "--fascists", "rule", "--games", "5", "--json")
    assert out.returncode == 0, out.stdout + out.stderr
    assert json.loads(out.stdout)["games"] == 5

    # The sample of real games ships inside the package (evaluate's default data), with its
    # licence, read from site-packages, not from a checkout.
    script = (
        "from secret_hitler.datasets import secrethitler_io_sample, open_text\n"
        "path = secrethitler_io_sample()\n"
        "with open_text(path) as fh: lines = sum(1 for _ in fh)\n"
        "print(path, lines, (path.parent / 'LICENSE-secret-hitler-player').is_file())\n"
    )
    out = _run([str(plain_venv / "python"), "-c", script], timeout=60, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    where, lines, licence = out.stdout.split()
    assert "site-packages" in where and int(lines) == 1022 and licence == "True"

    # What needs an extra says which, in one line, exit 2.
    for args, line in (
        (
            ["serve"],
            "secret-hitler serve needs the server extra: pip install 'secret-hitler[server]'",
        ),
        (
            ["simulate", "--liberals", "bayes", "--games", "2"],
            "secret-hitler simulate: --liberals: bot 'bayes' needs the bots extra: "
            "pip install 'secret-hitler[bots]'",
        ),
        (
            ["simulate", "--games", "2", "--plot", str(tmp_path / "p.png")],
            "secret-hitler simulate: --plot needs the plot extra: "
            "pip install 'secret-hitler[plot]'",
        ),
        (
            ["evaluate", "votes", str(games)],
            "secret-hitler: bot 'bayes' needs the bots extra: pip install 'secret-hitler[bots]'",
        ),
    ):
        out = sh(*args)
        assert out.returncode == 2, (args, out.stdout, out.stderr)
        assert out.stderr.strip() == line and out.stdout == "", args
