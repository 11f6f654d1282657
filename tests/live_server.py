"""``secret-hitler serve`` in a subprocess on 127.0.0.1 and a free port: the real server that the
server and browser tests talk to."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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
        self.proc: subprocess.Popen[bytes] | None = None
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
        command = [sys.executable, "-m", "secret_hitler.cli"]
        if self.seeds:
            env["SH_TEST_SEEDS"] = ",".join(str(seed) for seed in self.seeds)
            command = [sys.executable, str(Path(__file__).with_name("seeded_serve.py"))]
        log = open(self.log_path, "ab")  # noqa: SIM115 - handed to the process
        self.proc = subprocess.Popen(
            [*command, "serve", "--log-level", self.LOG_LEVEL],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=str(self.data),
            start_new_session=True,
        )
        log.close()
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
