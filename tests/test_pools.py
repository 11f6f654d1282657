"""Worker pools: local processes and a Ray cluster give the same games as one process.

The cluster is real: a Ray head and two worker nodes started with ``ray start`` on the
loopback address 127.0.0.2 (Ray rewrites 127.0.0.1 to the machine's network address; any
other loopback address keeps every connection on the loopback device), stopped at the end by
their process groups. Usage statistics are switched off, so nothing leaves the machine.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from secret_hitler.cli import app
from secret_hitler.llm.arena import ArenaConfig, run_arena
from secret_hitler.pools import WorkerPool, _loopback_host, ray_address

HOST = "127.0.0.2"
LINEUP = ("rule", "random", "rule", "random", "rule", "random", "rule")


def test_the_address_comes_from_the_option_or_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert ray_address(None) is None
    monkeypatch.setenv("RAY_ADDRESS", "10.1.2.3:6379")
    assert ray_address(None) == "10.1.2.3:6379"
    assert ray_address("127.0.0.2:6380") == "127.0.0.2:6380"
    assert _loopback_host("127.0.0.2:6380") == "127.0.0.2"
    assert _loopback_host("head.example:6379") is None and _loopback_host("auto") is None


def test_local_processes_give_the_same_games(tmp_path: Path) -> None:
    config = ArenaConfig(LINEUP, (5, 7), games=4, seed=5)
    assert run_arena(config, tmp_path / "a", jobs=1) == run_arena(config, tmp_path / "b", jobs=2)
    with WorkerPool(2) as pool:
        assert sorted(pool.imap_unordered(abs, [-3, 1, -2])) == [1, 2, 3]


_HELD = threading.Lock()  # held by a thread of the parent's while the pool starts


def _with_the_lock(x: int) -> int:
    """A work item that needs a lock; a worker forked while the lock was held never gets it."""
    if not _HELD.acquire(timeout=10):
        raise RuntimeError("the worker inherited a lock held by another thread")
    _HELD.release()
    return x


def test_workers_start_sound_while_another_thread_holds_a_lock() -> None:
    """A process with threads (JAX imported, a server) does not fork its workers: a fork
    copies a held lock, locked, and the worker that needs it waits for ever."""
    held, done = threading.Event(), threading.Event()

    def hold() -> None:
        with _HELD:
            held.set()
            done.wait(60)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(10)
        with WorkerPool(2) as pool:
            assert sorted(pool.imap_unordered(_with_the_lock, [2, 1, 3])) == [1, 2, 3]
    finally:
        done.set()
        holder.join()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _ray_bin() -> str:
    path = Path(sys.executable).with_name("ray")
    return str(path) if path.exists() else (shutil.which("ray") or "ray")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    pytest.importorskip("ray")
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    env.pop("RAY_ADDRESS", None)
    port = _free_port()
    address = f"{HOST}:{port}"
    # its own short temporary folder (Ray's socket paths are bounded), a small object store per
    # node (a container's /dev/shm is often 64 MB), and each node's output kept for the report
    temp = Path(tempfile.mkdtemp(prefix="ray", dir="/tmp"))
    common = [
        "--node-ip-address", HOST, "--num-cpus", "1", "--object-store-memory", "100000000",
        "--block", "--disable-usage-stats",
    ]  # fmt: skip
    started: list[subprocess.Popen[bytes]] = []

    def start(*args: str) -> None:
        with open(temp / f"start-{len(started)}.log", "wb") as log:
            started.append(
                subprocess.Popen(
                    [_ray_bin(), "start", *args, *common],
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,  # its own process group: stopped by its id below
                )
            )

    try:
        start("--head", "--port", str(port), "--include-dashboard=false", "--temp-dir", str(temp))
        _wait(lambda: _listening(HOST, port), "the Ray head", temp)
        # one worker at a time: two nodes of one address starting at once can pick one port
        start("--address", address)
        _wait(lambda: _nodes(address, env) == 2, "the first Ray worker", temp)
        start("--address", address)
        _wait(lambda: _nodes(address, env) == 3, "the second Ray worker", temp)
        yield address
    finally:
        # The workers first, then the head, each by its ``ray start`` process alone: on SIGTERM
        # a node drains through the head's GCS and then stops its own processes. A node whose
        # GCS is already gone (the head first, or the whole group signalled at once) waits 30 s
        # for it before giving up. Whatever a node leaves is killed with its process group.
        for proc in reversed(started):
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
        shutil.rmtree(temp, ignore_errors=True)


def _wait(ready: object, what: str, temp: Path, limit: float = 240.0) -> None:
    """Until ``ready()`` holds, ``limit`` seconds at most (a cluster starting, not a race); if it
    never does, the error carries the end of what the nodes wrote."""
    end = time.monotonic() + limit
    while not ready():  # type: ignore[operator]
        if time.monotonic() > end:
            raise RuntimeError(f"{what} did not come up in {limit:.0f} s\n{_tails(temp)}")
        time.sleep(1.0)


def _tails(temp: Path, lines: int = 15) -> str:
    logs = sorted(temp.glob("start-*.log")) + sorted(temp.glob("session_latest/logs/*.err"))
    parts = []
    for log in logs:
        text = log.read_text(errors="replace").splitlines()[-lines:]
        if text:
            parts.append(f"--- {log.name}\n" + "\n".join(text))
    return "\n".join(parts)[-6000:]


def _listening(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def _nodes(address: str, env: dict[str, str]) -> int:
    probe = (
        f"import ray; ray.init(address={address!r}, _node_ip_address={HOST!r}, "
        "log_to_driver=False); print(sum(1 for n in ray.nodes() if n['Alive']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=60
    )
    try:
        return int(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return 0


def test_a_ray_cluster_gives_the_same_games_as_the_local_pool(
    cluster: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    config = ArenaConfig(LINEUP, (5, 7), games=6, seed=11)
    local = run_arena(config, tmp_path / "local", jobs=2)
    on_ray = run_arena(config, tmp_path / "ray", jobs=0, ray=cluster)
    assert on_ray == local
    with WorkerPool(0, cluster) as pool:
        assert pool.workers == 3
        assert sorted(pool.imap_unordered(abs, range(-4, 0))) == [1, 2, 3, 4]


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _simulate(tmp: Path, *where: str) -> tuple[str, bytes, dict[str, bytes]]:
    """A simulate run's JSON summary, its game lines and its records."""
    tmp.mkdir()
    args = ["simulate", "--players", "7", "--games", "40", "--liberals", "bayes"]
    args += ["--fascists", "rule", "--talk", "listen", "--seed", "4", "--json", "--quiet"]
    args += ["--out", str(tmp / "games.jsonl"), "--records", str(tmp / "records"), *where]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.stdout, (tmp / "games.jsonl").read_bytes(), _files(tmp / "records")


def _tournament(out: Path, *where: str) -> bytes:
    """A tournament's results.csv (results.md names the --out folder, which differs)."""
    args = ["tournament", "--players", "5,7", "--games", "10", "--bots", "random,rule"]
    args += ["--seed", "2", "--quiet", "--out", str(out), *where]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return (out / "results.csv").read_bytes()


def test_simulate_and_tournament_on_ray_give_the_local_results(
    cluster: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    local = _simulate(tmp_path / "local", "--jobs", "2")
    assert len(local[2]) == 40 and json.loads(local[0])["games"] == 40
    assert _simulate(tmp_path / "ray", "--ray", cluster) == local
    local_cells = _tournament(tmp_path / "t-local", "--jobs", "2")
    monkeypatch.setenv("RAY_ADDRESS", cluster)  # the usual variable, no flag
    assert _tournament(tmp_path / "t-ray") == local_cells


@pytest.mark.parametrize(
    ("command", "games"),
    [
        ("simulate", ["--games", "2"]),
        ("tournament", ["--games", "2"]),
        ("arena", ["--seats", "rule,rule,rule,rule,rule", "--players", "5"]),
    ],
)
def test_a_ray_address_nothing_listens_on_is_one_line_and_exit_2(
    command: str, games: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("ray")
    address = f"{HOST}:{_free_port()}"  # free: nothing listens there
    monkeypatch.setenv("RAY_ADDRESS", "10.255.255.1:6379")  # the flag wins over the variable
    out = tmp_path / "out"
    result = CliRunner().invoke(app, [command, "--ray", address, *games, "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines() == [
        f"secret-hitler {command}: --ray: cannot reach the Ray cluster at {address} "
        "(Connection refused)"
    ]
    assert result.stdout == ""
    assert not out.exists()  # told before anything was written


def test_ray_without_its_extra_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from secret_hitler import extras

    monkeypatch.setitem(extras.EXTRAS, "ray", ("a_module_that_is_not_installed",))
    out = tmp_path / "out"
    args = ["tournament", "--ray", f"{HOST}:6379", "--games", "2", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.stderr == (
        "secret-hitler tournament: --ray needs the ray extra: pip install 'secret-hitler[ray]'\n"
    )
    assert not out.exists()
