"""The ``serve`` command (``make run``): the multiplayer server on http://127.0.0.1:8000."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated

import typer


def serve(
    host: Annotated[
        str | None, typer.Option("--host", help="Address to bind (env SH_HOST; default 127.0.0.1).")
    ] = None,
    port: Annotated[
        int | None, typer.Option("--port", help="Port (env SH_PORT; default 8000).")
    ] = None,
    data: Annotated[
        Path | None,
        typer.Option(
            "--data", help="Data folder: SQLite file and secret key (env SH_DATA; default ./var)."
        ),
    ] = None,
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            help="postgresql://... (env DATABASE_URL; default SQLite in the data folder).",
        ),
    ] = None,
    bot_delay: Annotated[
        float | None,
        typer.Option(
            "--bot-delay", help="Bot thinking time in seconds (env SH_BOT_DELAY; default 1)."
        ),
    ] = None,
    grace: Annotated[
        float | None,
        typer.Option(
            "--grace",
            help="Seconds a disconnected player is waited for (env SH_GRACE; default 60).",
        ),
    ] = None,
    node_id: Annotated[
        str | None,
        typer.Option(
            "--node-id",
            help="This node's id in a cluster (env SH_NODE_ID; default host name and port).",
        ),
    ] = None,
    redis_url: Annotated[
        str | None,
        typer.Option(
            "--redis-url",
            help="redis://...: run as one node of many, with PostgreSQL (env REDIS_URL; "
            "docs/deploy.md).",
        ),
    ] = None,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            "--limit",
            help="NAME=VALUE, repeatable: a limit of docs/security.md (env SH_<NAME>), "
            "e.g. --limit connections_per_address=64 --limit session_rate=100/minute.",
        ),
    ] = None,
    llm_endpoints: Annotated[
        Path | None,
        typer.Option(
            "--llm-endpoints",
            help="TOML file of language-model endpoints hosts may seat as llm:<name> "
            "(env SH_LLM_ENDPOINTS; docs/llm.md).",
        ),
    ] = None,
    arena_report: Annotated[
        Path | None,
        typer.Option(
            "--arena-report",
            help="An arena's report.json shown on the leaderboard page, its plots beside it "
            "(env SH_ARENA_REPORT).",
        ),
    ] = None,
    log_level: Annotated[
        str, typer.Option("--log-level", help="debug, info, warning, error.")
    ] = "info",
) -> None:
    """Run the multiplayer server (lobby, WebSocket games, bots, persistence)."""
    import gc

    from ..extras import MissingExtra, require
    from .core.config import Settings

    # The server's packages are an extra: check them before importing any (one clear line).
    try:
        require("server", "secret-hitler serve")
        given: dict[str, str] = {}
        for item in limit or []:
            name, sep, value = item.partition("=")
            if not sep:
                raise typer.BadParameter(f"--limit {item[:60]!r}: expected NAME=VALUE")
            given[name.strip()] = value.strip()
        try:
            settings = Settings.from_env(
                limits=given,
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
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None
        if settings.sqlalchemy_url.startswith("postgresql"):
            require("postgres", "secret-hitler serve with PostgreSQL")
        if settings.redis_url is not None:
            require("cluster", "secret-hitler serve with REDIS_URL")
    except MissingExtra as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2) from None

    import uvicorn

    from ..llm.endpoints import EndpointError
    from .app import create_app
    from .core.guard import guarded_http
    from .core.logs import json_wanted, setup_logging

    try:
        app = create_app(settings)
    except EndpointError as exc:  # the endpoints file: one line naming the file and the key
        typer.echo(f"--llm-endpoints: {exc}", err=True)
        raise typer.Exit(2) from None

    # The address to open comes first, on a line of its own; the logs follow on stderr.
    typer.echo(f"Secret Hitler is running at {settings.link_base}")
    setup_logging(log_level, json_wanted(settings.log_format))
    for name in ("uvicorn", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.handlers[:] = logging.getLogger("secret_hitler").handlers
        logger.propagate = False
    logging.getLogger("uvicorn.access").disabled = True
    # A server allocates many short-lived objects per message; collect the young generation less
    # often (full collections of a large heap are the pauses that hurt latency).
    gc.set_threshold(20_000, 20, 50)
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
        timeout_graceful_shutdown=5,
    )


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
