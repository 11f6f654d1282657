"""``secret-hitler serve`` in a process of its own on 127.0.0.1 and a free port: the real server
that the server and browser tests talk to.

Each test process starts its servers as forks of one process that has imported the server
(``server_zygote.py``): importing it is most of a server's start, and the suite starts nearly
300."""

from __future__ import annotations

import atexit
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """A server forked by this process's starter (``server_zygote.py``), handled as a
    ``subprocess.Popen``: ``poll``, ``wait``, ``send_signal``, ``kill``."""

    def __init__(self, starter: _Starter, pid: int) -> None:
        self._starter = starter
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self._starter.ask(op="poll", pid=self.pid)["code"]
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"server {self.pid}", timeout or 0)
            time.sleep(0.01)  # the starter reaps it; polled, bounded by the deadline
        return code

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class _Starter:
    """This test process's ``server_zygote.py``: started with the first server, it imports the
    server once; each server after that is a fork of it. One request at a time (a lock: tests
    start servers from threads too)."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("server_zygote.py"))],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
            start_new_session=True,
        )
        self.lock = threading.Lock()

    def ask(self, **request: object) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        with self.lock:
            self.proc.stdin.write(json.dumps(request).encode() + b"\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the server starter exited ({self.proc.poll()})")
        return json.loads(line)  # type: ignore[no-any-return]


_starter: _Starter | None = None
_starter_lock = threading.Lock()


@atexit.register
def _close_starter() -> None:
    """The starter ends when its stdin closes; waited for, so that it leaves no orphan and its
    servers' CPU time is counted with this process's children."""
    if _starter is None or _starter.proc.poll() is not None:
        return
    assert _starter.proc.stdin is not None
    _starter.proc.stdin.close()
    try:
        _starter.proc.wait(10)
    except subprocess.TimeoutExpired:
        _starter.proc.kill()


def spawn_server(
    argv: list[str], env: dict[str, str], cwd: Path, log: Path, seeds: tuple[int, ...] = ()
) -> ServerProcess:
    """``secret-hitler *argv`` in its own session, with ``env`` as its whole environment, in
    ``cwd``, its output appended to ``log``: forked by this process's starter."""
    global _starter
    with _starter_lock:
        if _starter is None or _starter.proc.poll() is not None:
            _starter = _Starter()
        starter = _starter
    answer = starter.ask(
        op="spawn", argv=argv, env=env, cwd=str(cwd), log=str(log), seeds=list(seeds)
    )
    return ServerProcess(starter, int(answer["pid"]))


class LiveServer:
    """A started server with its own data folder; ``env`` overrides the test defaults."""

    DEFAULT_ENV = {
        "SH_BOT_DELAY": "0",
        # A bot candidate waits this long for the last government's people to claim: a test
        # client that plays at random may never claim, and each of its governments would hold
        # the game 20 s (the default). The tests of the wait (test_claim_hold.py) set it.
        "SH_CLAIM_WAIT": "0",
        "SH_SECRET": "test-secret",
        "SH_GRACE": "30",
        # Every test client shares 127.0.0.1: the per-address limits are raised here, and the
        # tests of the limits (tests/server/test_limits.py) set the values they test.
        "SH_CONNECTIONS_PER_ADDRESS": "1000",
        "SH_SESSION_RATE": "10000/minute",
        "SH_SIGNIN_RATE": "10000/minute",
        "SH_TABLES_PER_USER": "1000",
        "SH_TABLES_PER_ADDRESS": "1000",
        "SH_BOT_GAMES_PER_USER": "1000",
        "SH_BOT_GAMES_PER_ADDRESS": "1000",
        "SH_CHAT_RATE_ADDRESS": "10000/10 seconds",
        "SH_LOOKUP_RATE": "100000/minute",
        "SH_NEWBIE_TABLES": "0",  # no new-player table in the lobby unless a test asks
    }
    LOG_LEVEL = "info"

    def __init__(
        self,
        data: Path,
        database_url: str | None = None,
        port: int | None = None,
        seeds: tuple[int, ...] = (),
        **env: str,
    ) -> None:
        """``seeds``: its games are dealt from these seeds, in turn (tests/seeded_serve.py);
        none: at random, as a real server deals."""
        self.data = data
        self.database_url = database_url
        self.seeds = seeds
        self.env_extra = env
        self.port = port or free_port()
        self.proc: ServerProcess | None = None
        self.log_path = data / "server.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        self.data.mkdir(parents=True, exist_ok=True)
        env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        env.update(SH_HOST="127.0.0.1", SH_PORT=str(self.port), SH_DATA=str(self.data))
        env.update(self.DEFAULT_ENV)
        if self.database_url:
            env["DATABASE_URL"] = self.database_url
        env.update(self.env_extra)
        self.proc = spawn_server(
            ["serve", "--log-level", self.LOG_LEVEL], env, self.data, self.log_path, self.seeds
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        return self
            except (OSError, urllib.error.URLError):
                time.sleep(0.05)  # polling for the port to open, bounded by the deadline
        self.stop()
        raise RuntimeError(f"the server did not start:\n{self.log_tail()}")

    def log_tail(self, n: int = 4000) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-n:]
        except OSError:
            return ""

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
