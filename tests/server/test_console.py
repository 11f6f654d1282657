"""What ``make run`` (``secret-hitler serve``) shows: the address to open first, on a line of
its own, then readable log lines on a terminal, and JSON lines when the logs go elsewhere (a
file, a log collector) or when ``SH_LOG_FORMAT=json`` asks for them."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from live_server import LiveServer, free_port

READY = "server ready"


def _serve(tmp: Path, port: int, stdout: int, stderr: int, **env: str) -> subprocess.Popen[bytes]:
    full = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SH_LOG_FORMAT")}
    full.update(LiveServer.DEFAULT_ENV, SH_HOST="127.0.0.1", SH_PORT=str(port), SH_DATA=str(tmp))
    full.update(env)
    tmp.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen(
        [sys.executable, "-m", "secret_hitler.cli", "serve"],
        env=full,
        stdout=stdout,
        stderr=stderr,
        stdin=subprocess.DEVNULL,
        cwd=tmp,
        start_new_session=True,
    )


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def _on_a_terminal(tmp: Path, **env: str) -> list[str]:
    """The lines a terminal shows until the server is ready (stdout and stderr both on it)."""
    port = free_port()
    master, slave = pty.openpty()
    proc = _serve(tmp, port, slave, slave, **env)
    os.close(slave)
    out = b""
    end = time.monotonic() + 60
    try:
        while READY.encode() not in out and time.monotonic() < end and proc.poll() is None:
            ready, _, _ = select.select([master], [], [], 1.0)
            if ready:
                try:
                    out += os.read(master, 65536)
                except OSError:
                    break
    finally:
        _stop(proc)
        os.close(master)
    text = out.decode("utf-8", "replace").replace("\r\n", "\n")
    assert READY in text, text[-2000:]
    return [line for line in text.split("\n") if line.strip()]


@pytest.mark.timeout(120)
def test_on_a_terminal_the_address_comes_first_and_the_logs_read_as_text(tmp_path: Path) -> None:
    lines = _on_a_terminal(tmp_path / "tty")
    assert lines[0].startswith("Secret Hitler is running at http://127.0.0.1:"), lines[:3]
    logs = lines[1:]
    assert logs and not any(line.lstrip().startswith("{") for line in logs), logs[:5]
    ready = next(line for line in logs if READY in line)
    assert " info " in f" {ready} " and "secret_hitler" not in ready.split(":")[0], ready
    # asked for JSON, a terminal gets JSON
    lines = _on_a_terminal(tmp_path / "json", SH_LOG_FORMAT="json")
    assert lines[0].startswith("Secret Hitler is running at http://127.0.0.1:")
    records = [json.loads(line) for line in lines[1:]]
    assert any(r["msg"] == READY and r["level"] == "info" for r in records)


@pytest.mark.timeout(120)
def test_logs_to_a_file_are_json_lines(tmp_path: Path) -> None:
    port = free_port()
    out_path, err_path = tmp_path / "out.txt", tmp_path / "err.txt"
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = _serve(tmp_path, port, out.fileno(), err.fileno())
    try:
        server = LiveServer(tmp_path, port=port)
        end = time.monotonic() + 60
        while READY not in err_path.read_text(encoding="utf-8") and time.monotonic() < end:
            assert proc.poll() is None, err_path.read_text(encoding="utf-8")[-2000:]
            time.sleep(0.05)  # polling the log for readiness, bounded by the deadline
        assert server.url in out_path.read_text(encoding="utf-8")
    finally:
        _stop(proc)
    assert out_path.read_text(encoding="utf-8").splitlines() == [
        f"Secret Hitler is running at http://127.0.0.1:{port}"
    ]
    records = [json.loads(line) for line in err_path.read_text(encoding="utf-8").splitlines()]
    assert any(r["msg"] == READY for r in records)
