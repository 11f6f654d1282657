"""Fixtures: servers in subprocesses on free ports, SQLite and a throw-away PostgreSQL, and for
the cluster tests a throw-away Redis and a database of their own."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from cluster_support import Redis, find_redis
from server_support import Postgres, Server, find_pg_bin


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres | str]:
    """A PostgreSQL to test against: DATABASE_URL if set, else a throw-away cluster."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith(("postgresql://", "postgres://", "postgresql+psycopg://")):
        yield url
        return
    bindir = find_pg_bin()
    if bindir is None:
        pytest.skip(
            "no PostgreSQL binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin or on PATH"
        )
    pg = Postgres(bindir).start()
    try:
        yield pg
    finally:
        pg.stop()


def _database(request: pytest.FixtureRequest, backend: str) -> str | None:
    if backend == "sqlite":
        return None
    pg = request.getfixturevalue("postgres")
    if isinstance(pg, str):
        return pg
    return pg.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make_server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[object]:
    """``make_server(backend="sqlite", **env)`` -> a started Server; all are stopped at the end."""
    started: list[Server] = []

    def make(
        backend: str = "sqlite",
        data: Path | None = None,
        database_url: str | None = None,
        port: int | None = None,
        **env: str,
    ) -> Server:
        if database_url is None:
            database_url = _database(request, backend)
        server = Server(data or tmp_path / f"data{len(started)}", database_url, port, **env)
        started.append(server)
        return server.start()

    yield make
    for s in started:
        s.stop()


@pytest.fixture
def server(make_server: object) -> Server:
    return make_server()  # type: ignore[operator, no-any-return]


@pytest.fixture
def redis() -> Iterator[Redis]:
    """A throw-away redis-server on a free port (a cluster's)."""
    binary = find_redis()
    if binary is None:
        pytest.skip("no redis-server (scripts/install-system-deps.sh installs it)")
    r = Redis(binary).start()
    try:
        yield r
    finally:
        r.cleanup()


@pytest.fixture
def database(postgres: Postgres | str) -> str:
    """A new PostgreSQL database, the one a test's cluster nodes share."""
    return postgres if isinstance(postgres, str) else postgres.new_database()
