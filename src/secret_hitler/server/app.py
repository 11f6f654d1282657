"""The application factory: ``create_app(settings)`` wires storage, the hub, HTTP and WebSocket."""

from __future__ import annotations

import asyncio
import gc
import hmac
import importlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from .accounts import reserved
from .accounts.auth import Sessions, Tokens
from .api import (
    accounts,
    arena,
    competition,
    hosting,
    lobby,
    moderation,
    ratings,
    replay,
    tournaments,
    ws,
)
from .api.queue import router as queue_router
from .api.security import Guard
from .cluster.forward import LobbyForward
from .core.config import Settings
from .core.errors import LobbyError
from .core.guard import BodyLimit
from .core.metrics import Metrics
from .core.text import brief, safe_message
from .lobby.director import Director
from .lobby.hub import Hub
from .lobby.moderation import Moderation
from .lobby.system import System
from .storage import db
from .storage.ratings import catch_up
from .storage.writer import StorageUnavailable, Store, is_unavailable
from .table.models import ModelSeats

if TYPE_CHECKING:
    from .cluster.node import Cluster

log = logging.getLogger("secret_hitler.server")

_NO_CLIENT = """<!doctype html><meta charset="utf-8"><title>Secret Hitler server</title>
<h1>Secret Hitler server</h1><p>The web client is not installed. The API is described in
docs/protocol.md: <a href="/api/tables">/api/tables</a>, <a href="/healthz">/healthz</a>.</p>"""


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    for module in settings.bot_modules:  # extra bot levels: each module calls bots.register
        importlib.import_module(module)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        running = await _start(app, settings)
        try:
            yield
        finally:
            await app.state.system.stop()  # (before the hub closes)
            await running.stop()

    app = FastAPI(
        title="Secret Hitler",
        version="1",
        lifespan=lifespan,
        docs_url="/api/docs" if settings.api_docs else None,
        openapi_url="/api/openapi.json",
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.metrics = Metrics()
    # model endpoints hosts may seat; a bad file stops the start (EndpointError, one line)
    app.state.models = ModelSeats.load(settings.llm_endpoints, app.state.metrics)
    app.state.arena = arena.ArenaReport(settings.arena_report)  # the leaderboard of models
    app.state.tokens = Tokens(settings.signing_secret(), settings.token_max_age)
    if settings.redis_url is not None:  # a cluster node: lobby requests reach any node
        app.add_middleware(LobbyForward, owner_app=app)
    app.add_middleware(BodyLimit, max_body=settings.max_body)
    app.add_middleware(Guard, settings=settings)
    app.include_router(lobby.router)
    app.include_router(accounts.router)
    app.include_router(hosting.router)
    app.include_router(ws.router)
    app.include_router(replay.router)
    app.include_router(ratings.router)
    app.include_router(competition.router)
    app.include_router(moderation.router)
    app.include_router(arena.router)
    app.include_router(queue_router)
    app.include_router(tournaments.router)
    _install_errors(app)
    _install_ops(app)
    _install_static(app, settings)
    return app


@dataclass(slots=True)
class _Running:
    """What the lifespan started (``_start``), stopped in the reverse order."""

    store: Store
    hub: Hub
    moderation: Moderation
    metrics: Metrics
    watcher: asyncio.Task[None]
    cluster: Cluster | None
    director: Director

    async def stop(self) -> None:
        self.watcher.cancel()
        await self.director.stop()
        await self.moderation.stop()
        gc.callbacks.remove(self.metrics.gc_callback)
        if self.cluster is not None:  # hand the tables over before stopping
            await self.cluster.close()
        await self.hub.close()
        self.store.close()


async def _start(app: FastAPI, settings: Settings) -> _Running:
    """Open the store (migrated), the sessions, moderation and the hub with every live table."""
    # a cluster node frozen mid-transaction loses its session (and row locks) within a lease
    idle = settings.lease_ttl if settings.redis_url is not None else None
    engine = db.make_engine(settings.sqlalchemy_url, idle_in_transaction=idle)
    settings.private_data()
    db.migrate(engine)
    store = Store(engine, write_timeout=settings.db_timeout, window=settings.commit_window)
    app.state.sessions = Sessions(app.state.tokens, store, settings.token_max_age)
    await app.state.sessions.purge()
    mod = Moderation(store, settings.moderation_refresh)
    await mod.load()
    app.state.moderation = mod
    hub = Hub(settings, store, app.state.metrics, app.state.models)
    app.state.hub = hub
    cluster = await _join_cluster(app, hub, settings)
    await hub.load()
    await catch_up(store)  # games that ended while no rating could be stored
    reserved.game_phrases()  # the reserved names, read once now rather than at a request
    await mod.sync(hub)  # tables closed by an administrator whose row the server rewrote
    mod.start(hub)
    # the queue's former while this node holds the system lease, new-player tables (lobby/system.py)
    app.state.system = System(hub, mod)
    app.state.system.start()
    director = Director(hub)  # every node moves the tournaments along (lobby/director.py)
    app.state.director = director
    hub.game_ended.append(lambda table: director.poke())
    director.start()
    if cluster is not None:
        cluster.start_maintenance()
    # Long-lived objects (code, the restored games) never need scanning again: fewer and
    # shorter garbage-collection pauses while games are played.
    gc.collect()
    gc.freeze()
    metrics: Metrics = app.state.metrics
    gc.callbacks.append(metrics.gc_callback)
    watcher = asyncio.create_task(metrics.watch_loop())
    if settings.trusted_proxies:  # whose X-Forwarded-For decides a client's address
        log.info(
            "trusted proxies: %s",
            settings.forwarded_allow_ips,
            extra={"trusted_proxies": [str(n) for n in settings.trusted_proxies]},
        )
    log.info(
        "server ready",
        extra={"database": engine.url.get_backend_name(), "tables": len(hub.tables)},
    )
    return _Running(store, hub, mod, metrics, watcher, cluster, director)


async def _join_cluster(app: FastAPI, hub: Hub, settings: Settings) -> Cluster | None:
    """With ``REDIS_URL`` this server is one node of many (cluster/): the cluster is the hub's
    ownership port (``lobby/ownership.py``: leases), and the lobby's forwarding middleware
    (``cluster/forward.py``) finds it on ``app.state.cluster``. Before any table is loaded."""
    if settings.redis_url is None:
        return None
    from .cluster.node import Cluster  # (redis: only with the cluster extra)

    cluster = Cluster(
        hub, app, settings.node, settings.redis_url, settings.lease_ttl, settings.cluster_key()
    )
    hub.set_ownership(cluster)
    app.state.cluster = cluster
    await cluster.start()
    return cluster


def _error(status: int, code: str, message: str, field: str | None = None) -> JSONResponse:
    """Every HTTP error body: the message is capped and always encodable (text.safe_message);
    ``field`` names the refused setting or body field when there is one."""
    error: dict[str, str] = {"code": code, "message": safe_message(message)}
    if field:
        error["field"] = field
    return JSONResponse({"error": error}, status_code=status)


def _install_errors(app: FastAPI) -> None:
    @app.exception_handler(LobbyError)
    async def lobby_error(_: Request, exc: LobbyError) -> JSONResponse:
        response = _error(exc.status, exc.code, exc.message, exc.field)
        response.headers.update(exc.headers)
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if errors:
            err = errors[0]
            loc = [
                str(p) if isinstance(p, int) else brief(str(p)).strip("'")
                for p in err.get("loc", ())
                if p != "body"
            ]
            message = f"{'.'.join(loc) or 'body'}: {err.get('msg', 'invalid')}"
            field = loc[0] if loc else None
        else:
            message, field = "invalid request", None
        return _error(400, "invalid_request", message, field)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {
            404: "not_found",
            405: "invalid_request",
            401: "unauthorized",
            413: "too_large",
        }.get(exc.status_code, "invalid_request")
        return _error(exc.status_code, code, str(exc.detail))

    @app.exception_handler(StorageUnavailable)
    async def unavailable(request: Request, exc: StorageUnavailable) -> JSONResponse:
        return _unavailable(request)

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception) -> JSONResponse:
        if is_unavailable(exc):  # a read that found the database away
            return _unavailable(request)
        log.exception("request failed", extra={"path": request.url.path})
        return _error(500, "internal_error", "the server failed on this request")


def _unavailable(request: Request) -> JSONResponse:
    log.warning("request refused: database unavailable", extra={"path": request.url.path})
    response = _error(503, "unavailable", "the database is unavailable; nothing was changed")
    response.headers["Retry-After"] = "5"
    return response


def _install_ops(app: FastAPI) -> None:
    @app.get("/healthz")
    async def healthz(request: Request) -> JSONResponse:
        """Liveness: the process serves requests and its database writer runs (a restart would
        help only if it did not). ``storage`` tells whether writes reach the database now."""
        hub: Hub = request.app.state.hub
        store = hub.store
        active = sum(1 for t in hub.tables.values() if t.status == "playing")
        body = {
            "ok": store.alive,
            "tables": len(hub.tables),
            "games_active": active,
            "version": 1,
            "database": store.engine.url.get_backend_name(),
            "storage": "ok" if store.ok else "unavailable",
        }
        body.update(hub.ownership.health())  # a node of several: which, its leases, Redis
        return JSONResponse(body, status_code=200 if store.alive else 503)

    @app.post("/admin/drain")
    async def drain(request: Request) -> JSONResponse:
        """A cluster node hands its tables over to the others (before a restart); from the
        machine itself only. The node then answers /readyz with 503 until it is restarted."""
        hub: Hub = request.app.state.hub
        if request.client is None or request.client.host not in ("127.0.0.1", "::1"):
            return _error(403, "forbidden", "drain is allowed from the node's own machine only")
        node = hub.ownership.node
        if node is None:
            return _error(409, "not_a_cluster", "this server is not a cluster node")
        await hub.ownership.drain()
        return JSONResponse({"drained": True, "node": node})

    @app.get("/readyz")
    async def readyz(request: Request) -> JSONResponse:
        """Readiness: 200 only while the database answers and writes reach it."""
        hub: Hub = request.app.state.hub
        store = hub.store
        reason = await store.check()
        body: dict[str, Any] = {
            "ready": reason is None,
            "database": store.engine.url.get_backend_name(),
        }
        if reason is not None:
            body["reason"] = reason
            body["down_since"] = store.down_since
        if hub.ownership.node is not None:
            body["node"] = hub.ownership.node
        if reason is None and (reason := hub.ownership.unready()) is not None:
            body["ready"], body["reason"] = False, reason  # draining, or Redis away
        broken = [t.id for t in hub.tables.values() if t.status == "broken"]
        if broken:
            body["broken_tables"] = broken[:100]
        return JSONResponse(body, status_code=200 if reason is None else 503)

    @app.get("/metrics")
    async def metrics(request: Request) -> Response:
        token = request.app.state.settings.metrics_token
        if token is not None:
            given = request.headers.get("authorization", "")
            if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
                return _error(401, "unauthorized", "/metrics needs its bearer token")
        body = request.app.state.metrics.render()
        return Response(body, media_type="text/plain; version=0.0.4; charset=utf-8")


def _install_static(app: FastAPI, settings: Settings) -> None:
    static = settings.static_dir

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        page = static / "index.html"
        if page.is_file():
            return FileResponse(page, media_type="text/html")
        return HTMLResponse(_NO_CLIENT)

    if static.is_dir():
        app.mount("/static", StaticFiles(directory=static), name="static")
