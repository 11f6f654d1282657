"""The tests' server starter: a process that has imported the server once and forks a real
``secret-hitler serve`` from itself for each live server a test starts (``live_server.py``).

A server's start was mostly Python importing it (about 0.8 s of CPU: FastAPI, SQLAlchemy,
pydantic's models, the engine, the bots), and the suite starts nearly 300 servers; a fork of a
process that has imported them starts the same server in a few milliseconds of CPU. The child
is what ``python -m secret_hitler.cli serve`` would be: its own session, the environment, the
working folder and the log the test gave (``PYTHONPATH``'s folders on its import path),
``cli.main()`` with the test's arguments, and a fresh event loop (none runs here before the fork, nor any other thread).

One line of JSON a request on stdin, one line of JSON an answer on stdout:

- ``{"op": "spawn", "argv": [...], "env": {...}, "cwd": ..., "log": ..., "seeds": [...]}``
  -> ``{"pid": N}``; ``seeds``: the games are dealt from them (``seeded_serve.py``);
- ``{"op": "poll", "pid": N}`` -> ``{"code": None | exit code}`` (minus the signal that
  ended it, as ``subprocess.Popen.poll``).

It ends when its stdin closes (the test process that started it is gone)."""

from __future__ import annotations

import gc
import importlib
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

# what ``serve`` imports, the lazily imported parts included, so that no child imports them again
PRELOAD = [
    "secret_hitler.cli",
    "secret_hitler.server.cli",
    "secret_hitler.server.app",
    "secret_hitler.server.core.guard",
    "secret_hitler.server.core.logs",
    "secret_hitler.server.core.sockets",
    "secret_hitler.server.table.session",
    "uvicorn",
    "uvicorn.loops.auto",
    "uvicorn.loops.uvloop",
    "uvicorn.lifespan.on",
    "uvicorn.protocols.http.httptools_impl",
    "uvicorn.protocols.http.h11_impl",
    "uvicorn.protocols.websockets.wsproto_impl",
    "sqlalchemy.dialects.sqlite",
    "sqlalchemy.dialects.postgresql",
    "psycopg",
]

_codes: dict[int, int] = {}


def _spawn(request: dict[str, Any]) -> int:
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        os.setsid()
        log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        os.close(null)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        # what a new interpreter would take from PYTHONPATH (a test's own bot modules)
        for entry in reversed(os.environ.get("PYTHONPATH", "").split(os.pathsep)):
            if entry and entry not in sys.path:
                sys.path.insert(0, entry)
        if request.get("seeds"):
            from seeded_serve import deal_from

            deal_from(request["seeds"])
        sys.argv = ["secret-hitler", *request["argv"]]
        from secret_hitler.cli import main

        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:  # the child's own failure, in its log; never back into the loop
        import traceback

        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _poll(pid: int) -> int | None:
    if pid in _codes:
        return _codes[pid]
    try:
        done, status = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return None
    if not done:
        return None
    _codes[pid] = os.waitstatus_to_exitcode(status)
    return _codes[pid]


def _migrate_once() -> None:
    """The schema's migrations run once on a throwaway SQLite database: what a server's start
    imports and reads besides its modules (alembic, its templates, the migration scripts)."""
    import tempfile

    from sqlalchemy import create_engine

    from secret_hitler.server.storage.db import migrate

    with tempfile.TemporaryDirectory() as folder:
        engine = create_engine(f"sqlite:///{folder}/warm.db")
        try:
            migrate(engine)
        finally:
            engine.dispose()


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:  # an optional part (an extra not installed): the child imports it
            pass
    _migrate_once()
    from secret_hitler.server.accounts import reserved

    reserved.game_phrases()  # read once at each start (app.py), cached for the process
    assert threading.active_count() == 1, "no thread may run in the process that forks"
    gc.collect()
    # the imported objects stay shared with the children, not copied on write; the server
    # freezes what it holds at its start (app.py) and never scans them again: nor these
    gc.freeze()
    out = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        if request["op"] == "spawn":
            answer: dict[str, Any] = {"pid": _spawn(request)}
        else:
            answer = {"code": _poll(int(request["pid"]))}
        out.write(json.dumps(answer) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
