"""The ``serve`` command (``make run``): the multiplayer server on http://127.0.0.1:8000.

Its options are the types below (one per option, with its help); ``serve`` reads them into the
settings (``_settings``: the extras the settings need are checked first), builds the application
and hands it to uvicorn (``_run``).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from fastapi import FastAPI

    from .core.config import Settings

Host = Annotated[
    str | None, typer.Option("--host", help="Address to bind (env SH_HOST; default 127.0.0.1).")
]
Port = Annotated[int | None, typer.Option("--port", help="Port (env SH_PORT; default 8000).")]
Data = Annotated[
    Path | None,
    typer.Option(
        "--data", help="Data folder: SQLite file and secret key (env SH_DATA; default ./var)."
    ),
]
DatabaseUrl = Annotated[
    str | None,
    typer.Option(
        "--database-url",
        help="postgresql://... (env DATABASE_URL; default SQLite in the data folder).",
    ),
]
BotDelay = Annotated[
    float | None,
    typer.Option("--bot-delay", help="Bot thinking time in seconds (env SH_BOT_DELAY; default 1)."),
]
Grace = Annotated[
    float | None,
    typer.Option(
        "--grace", help="Seconds a disconnected player is waited for (env SH_GRACE; default 60)."
    ),
]
NodeId = Annotated[
    str | None,
    typer.Option(
        "--node-id",
        help="This node's id in a cluster (env SH_NODE_ID; default host name and port).",
    ),
]
RedisUrl = Annotated[
    str | None,
    typer.Option(
        "--redis-url",
        help="redis://...: run as one node of many, with PostgreSQL (env REDIS_URL; "
        "docs/deploy.md).",
    ),
]
Limit = Annotated[
    list[str] | None,
    typer.Option(
        "--limit",
        help="NAME=VALUE, repeatable: a limit of docs/security.md (env SH_<NAME>), "
        "e.g. --limit connections_per_address=64 --limit session_rate=100/minute.",
    ),
]
LlmEndpoints = Annotated[
    Path | None,
    typer.Option(
        "--llm-endpoints",
        help="TOML file of language-model endpoints hosts may seat as llm:<name> "
        "(env SH_LLM_ENDPOINTS; docs/llm.md).",
    ),
]
ArenaReport = Annotated[
    Path | None,
    typer.Option(
        "--arena-report",
        help="An arena's report.json shown on the leaderboard page, its plots beside it "
        "(env SH_ARENA_REPORT).",
    ),
]
LogLevel = Annotated[str, typer.Option("--log-level", help="debug, info, warning, error.")]


def serve(
    host: Host = None,
    port: Port = None,
    data: Data = None,
    database_url: DatabaseUrl = None,
    bot_delay: BotDelay = None,
    grace: Grace = None,
    node_id: NodeId = None,
    redis_url: RedisUrl = None,
    limit: Limit = None,
    llm_endpoints: LlmEndpoints = None,
    arena_report: ArenaReport = None,
    log_level: LogLevel = "info",
) -> None:
    """Run the multiplayer server (lobby, WebSocket games, bots, persistence)."""
    settings = _settings(
        limit,
        host=host,
        port=port,
        data=data,
        database_url=database_url,
        bot_delay=bot_delay,
        grace=grace,
        node_id=node_id,
        redis_url=redis_url,
        llm_endpoints=llm_endpoints,
        arena_report=arena_report,
    )
    _run(_app(settings), settings, log_level)


def _limits(items: list[str] | None) -> dict[str, str]:
    """``--limit NAME=VALUE`` options by name."""
    given: dict[str, str] = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise typer.BadParameter(f"--limit {item[:60]!r}: expected NAME=VALUE")
        given[name.strip()] = value.strip()
    return given


def _settings(limits: list[str] | None, **options: Any) -> Settings:
    """The settings from the environment and the options. The server's packages are an extra,
    and PostgreSQL and a cluster need theirs: each is checked before any is imported, with
    one clear line (exit 2) when it is missing."""
    from ..extras import MissingExtra, require

    try:
        require("server", "secret-hitler serve")
        from .core.config import Settings

        try:  # (a bad --limit is a BadParameter too)
            settings = Settings.from_env(limits=_limits(limits), **options)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
        if settings.sqlalchemy_url.startswith("postgresql"):
            require("postgres", "secret-hitler serve with PostgreSQL")
        if settings.redis_url is not None:
            require("cluster", "secret-hitler serve with REDIS_URL")
    except MissingExtra as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from None
    return settings


def _app(settings: Settings) -> FastAPI:
    """The application; a bad endpoints file stops here with one line naming it (exit 2)."""
    from ..llm.endpoints import EndpointError
    from .app import create_app

    try:
        return create_app(settings)
    except EndpointError as exc:  # the endpoints file: one line naming the file and the key
        typer.echo(f"--llm-endpoints: {exc}", err=True)
        raise typer.Exit(2) from None


def _run(app: FastAPI, settings: Settings, log_level: str) -> None:
    """Serve ``app`` with uvicorn until stopped: the address first, on a line of its own, then
    the logs on stderr."""
    import gc

    import uvicorn

    from .core.guard import guarded_http
    from .core.logs import json_wanted, setup_logging
    from .core.sockets import framed_websockets

    typer.echo(f"Secret Hitler is running at {settings.link_base}")
    setup_logging(log_level, json_wanted(settings.log_format))
    for name in ("uvicorn", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.handlers[:] = logging.getLogger("secret_hitler").handlers
        logger.propagate = False
    logging.getLogger("uvicorn.access").disabled = True
    # A collection pauses every table for as long as it scans its generations, so the pauses
    # follow their size, not how often they come. At 3,500 connections (benchmarks/
    # server_load.py, docs/server.md) the young generations of (20_000, 20, 50) held 60,000 to
    # 320,000 objects (each connection's pending receive, a keep-alive ping's round) and paused
    # for 40-190 ms; (5_000, 10, 10), Python's ratios with a larger first threshold, keeps the
    # pauses short at the same CPU (p99 12-18 ms against 55-79 ms).
    gc.set_threshold(5_000, 10, 10)
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        ws_max_size=1 << 20,
        ws_per_message_deflate=False,  # compression costs more CPU than it saves on localhost
        ws_ping_interval=20,
        ws_ping_timeout=30,
        log_config=None,
        log_level=log_level,
        access_log=False,
        # X-Forwarded-Proto/-For are believed only from the configured proxies (docs/security.md);
        # the client is the nearest address in X-Forwarded-For that is not one of them
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=settings.forwarded_allow_ips,
        # slow headers time out, HTTP connections are counted per address (core/guard.py)
        http=guarded_http(settings),
        # uvicorn's sans-I/O WebSockets, whose frames a table writes straight to the socket
        ws=framed_websockets(),
        timeout_graceful_shutdown=5,
    )


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
