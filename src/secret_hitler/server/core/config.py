"""Server settings: command-line flags, then environment variables, then defaults."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import os
import re
import secrets
import socket
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
# Where the server writes its SQLite database and key; ./data holds the project's data sets.
DEFAULT_DATA = Path("var")
_NODE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
STATIC_DIR = Path(__file__).resolve().parents[2] / "web" / "static"


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return float(raw)
    except ValueError:
        raise ValueError(f"{name}: must be a number of seconds, got {raw[:40]!r}") from None


#: The longest SH_COMMIT_WINDOW: an action waits at most this long for its commit's company.
COMMIT_WINDOW_MAX = 0.1


def _commit_window() -> float:
    value = _float("SH_COMMIT_WINDOW", 0.004)
    if not 0 <= value <= COMMIT_WINDOW_MAX:
        raise ValueError(f"SH_COMMIT_WINDOW: must be 0 to {COMMIT_WINDOW_MAX} seconds")
    return value


#: The most threads SH_BOT_THREADS may ask for.
BOT_THREADS_MAX = 64


def _threads(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{name}: must be a whole number, got {raw[:20]!r}") from None
    if not 1 <= value <= BOT_THREADS_MAX:
        raise ValueError(f"{name}: must be 1 to {BOT_THREADS_MAX}, got {value}")
    return value


def _count(name: str, default: int) -> int:
    """A whole number of at least 0 from the environment (0 turns a requirement off)."""
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{name}: must be a whole number, got {raw[:20]!r}") from None
    if value < 0:
        raise ValueError(f"{name}: must be 0 or more, got {value}")
    return value


def _seconds(name: str, default: float) -> float:
    """A number of seconds of at least 0 from the environment."""
    value = _float(name, default)
    if not value >= 0:
        raise ValueError(f"{name}: must be 0 or more seconds")
    return value


def _path(value: Any) -> Path | None:
    """An optional file's path ("" or None: none)."""
    return Path(value) if value not in (None, "") else None


def _port(value: Any) -> int:
    """A TCP port, 1 to 65535 (the OS would take a larger number modulo 65536, silently)."""
    try:
        port = int(value)
    except ValueError:
        raise ValueError(f"SH_PORT: must be a port number, got {str(value)[:40]!r}") from None
    if not 1 <= port <= 65535:
        raise ValueError(f"--port: must be 1 to 65535, got {port}")
    return port


def _origins(raw: str | None) -> tuple[str, ...]:
    """``SH_ALLOWED_ORIGINS``: comma-separated ``scheme://host[:port]``, no path."""
    out = []
    for item in (raw or "").split(","):
        origin = item.strip().rstrip("/").lower()
        if not origin:
            continue
        scheme, sep, host = origin.partition("://")
        if scheme not in ("http", "https") or not sep or not host or "/" in host:
            raise ValueError(
                f"SH_ALLOWED_ORIGINS: {item.strip()[:100]!r} is not an origin like https://example.org"
            )
        out.append(origin)
    return tuple(out)


Network = ipaddress.IPv4Network | ipaddress.IPv6Network

# The widest network SH_TRUSTED_PROXIES may name, and the most addresses all of them may hold:
# proxies sit in a few small networks; a wider list (0.0.0.0/1 and 128.0.0.0/1 are every IPv4
# address) would believe the X-Forwarded-For that any client writes. IPv6 networks that embed
# IPv4 addresses (IPv4-mapped ``::ffff:0:0/96``, NAT64 ``64:ff9b::/96``) count as the IPv4
# networks they hold.
PROXY_PREFIX_MIN = {4: 8, 6: 32}
PROXY_ADDRESSES_MAX = {4: 4 << 24, 6: 4 << 96}  # four /8s of IPv4, four /32s of IPv6
_EMBEDS_IPV4 = (
    ipaddress.IPv6Network("::ffff:0:0/96"),
    ipaddress.IPv6Network("64:ff9b::/96"),
)


def _span(net: Network) -> tuple[int, int]:
    """(IP version, prefix length) of ``net`` as bounded: an IPv6 network over embedded IPv4
    addresses as the IPv4 network it holds (one that holds all of them: IPv4's ``/0``)."""
    if isinstance(net, ipaddress.IPv6Network):
        for embed in _EMBEDS_IPV4:
            if net.subnet_of(embed):
                return 4, net.prefixlen - 96
            if net.supernet_of(embed):
                return 4, 0
    return net.version, net.prefixlen


def _proxies(raw: str | None) -> tuple[Network, ...]:
    """``SH_TRUSTED_PROXIES``: the proxies' addresses or networks, comma-separated. Every
    client could otherwise write its own address into X-Forwarded-For, and per-address limits,
    address bans and the loopback check of /admin/drain would hold for nobody; so ``*`` is
    refused, and so is a network wider than ``PROXY_PREFIX_MIN`` (``0.0.0.0/0``, ``::/0``) or a
    list holding more than ``PROXY_ADDRESSES_MAX`` addresses (``0.0.0.0/1,128.0.0.0/1``)."""
    out: list[Network] = []
    total = {4: 0, 6: 0}
    for item in (raw or "").split(","):
        value = item.strip()
        if not value:
            continue
        if value == "*":
            raise ValueError(
                "SH_TRUSTED_PROXIES: '*' would believe the X-Forwarded-For any client writes "
                "(its limits, bans and /admin/drain's check would not hold): list the proxies' "
                "addresses, e.g. SH_TRUSTED_PROXIES=127.0.0.1"
            )
        try:
            net = ipaddress.ip_network(value, strict=False)
        except ValueError:
            raise ValueError(
                f"SH_TRUSTED_PROXIES: {value[:60]!r} is not an IP address or network"
            ) from None
        version, prefix = _span(net)
        if prefix < PROXY_PREFIX_MIN[version]:
            what = "an IPv4 network" if version == 4 else "an IPv6 network"
            if version != net.version:
                what = "the IPv4 addresses it holds: a network"
            raise ValueError(
                f"SH_TRUSTED_PROXIES: {value[:60]!r} is too wide ({what} wider than "
                f"/{PROXY_PREFIX_MIN[version]}): every client in it could write its own address "
                "into X-Forwarded-For; list the proxies' own addresses or networks"
            )
        total[version] += 1 << ((32 if version == 4 else 128) - prefix)
        if total[version] > PROXY_ADDRESSES_MAX[version]:
            raise ValueError(
                f"SH_TRUSTED_PROXIES: the networks listed hold more than "
                f"{PROXY_ADDRESSES_MAX[version] >> (24 if version == 4 else 96)} /"
                f"{PROXY_PREFIX_MIN[version]} networks' worth of IPv{version} addresses: every "
                "client in them could write its own address into X-Forwarded-For; list the "
                "proxies' own addresses or networks"
            )
        out.append(net)
    return tuple(out)


def _public_url(raw: str | None) -> str | None:
    """``SH_PUBLIC_URL``: where people open the game (links in webhook posts), no query."""
    url = (raw or "").strip().rstrip("/")
    if not url:
        return None
    scheme, sep, rest = url.partition("://")
    if scheme not in ("http", "https") or not sep or not rest or any(c in url for c in "?# "):
        raise ValueError(f"SH_PUBLIC_URL: {url[:80]!r} is not a URL like https://play.example.org")
    return url


def _log_format(raw: str | None) -> str | None:
    """``SH_LOG_FORMAT``: ``json`` or ``text``; unset: text on a terminal, JSON otherwise."""
    value = (raw or "").strip().lower()
    if value in ("", "auto"):
        return None
    if value not in ("json", "text"):
        raise ValueError(f"SH_LOG_FORMAT: must be json or text, got {value[:20]!r}")
    return value


def _flag(name: str) -> bool:
    raw = (os.environ.get(name) or "").strip().lower()
    if raw in ("", "0", "false", "no", "off"):
        return False
    if raw in ("1", "true", "yes", "on"):
        return True
    raise ValueError(f"{name}: must be 1 or 0, got {raw[:20]!r}")


def database_url_for(url: str | None, data: Path) -> str:
    """The SQLAlchemy URL: ``postgresql://`` uses psycopg 3; default SQLite in the data folder."""
    if not url:
        return f"sqlite:///{(data / 'secret-hitler.db').resolve()}"
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


# Limits (docs/security.md "Limits"): setting name -> environment variable. Each is also the
# command-line option ``--limit NAME=VALUE``; rates use the ``limits`` notation "N/period".
LIMIT_ENV = {
    "connections_per_address": "SH_CONNECTIONS_PER_ADDRESS",
    "hello_timeout": "SH_HELLO_TIMEOUT",
    "session_rate": "SH_SESSION_RATE",
    "signin_rate": "SH_SIGNIN_RATE",
    "signin_rate_user": "SH_SIGNIN_RATE_USER",
    "report_rate": "SH_REPORT_RATE",
    "tables_per_user": "SH_TABLES_PER_USER",
    "tables_per_address": "SH_TABLES_PER_ADDRESS",
    "bot_games_per_user": "SH_BOT_GAMES_PER_USER",
    "bot_games_per_address": "SH_BOT_GAMES_PER_ADDRESS",
    "chat_rate": "SH_CHAT_RATE",
    "chat_rate_address": "SH_CHAT_RATE_ADDRESS",
    "chat_max": "SH_CHAT_MAX",
    "analysis_rate": "SH_ANALYSIS_RATE",
    "lookup_rate": "SH_LOOKUP_RATE",
    "max_body": "SH_MAX_BODY",
    "waiting_expiry": "SH_WAITING_EXPIRY",
    "offline_expiry": "SH_OFFLINE_EXPIRY",
    "remake_window": "SH_REMAKE_WINDOW",
    "webhook_timeout": "SH_WEBHOOK_TIMEOUT",
    "presence_delay": "SH_PRESENCE_DELAY",
    "min_timer": "SH_MIN_TIMER",
    "header_timeout": "SH_HEADER_TIMEOUT",
    "http_connections_per_address": "SH_HTTP_CONNECTIONS_PER_ADDRESS",
}


def _limit_value(name: str, raw: str, default: Any) -> Any:
    """``raw`` (from the environment or ``--limit``) as the type of the setting's default."""
    try:
        if isinstance(default, int):
            value: Any = int(raw)
        elif isinstance(default, float):
            value = float(raw)
        else:
            from limits import parse

            parse(raw)
            value = raw
    except ValueError:
        kind = {int: "a whole number", float: "a number"}.get(type(default), "a rate like 5/minute")
        raise ValueError(f"{name}: must be {kind}, got {raw!r}") from None
    if isinstance(value, (int, float)) and value <= 0:
        raise ValueError(f"{name}: must be more than 0, got {raw!r}")
    return value


@dataclass(frozen=True)
class Settings:
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    data: Path = DEFAULT_DATA
    database_url: str | None = None  # None: SQLite in ``data``
    secret: str | None = None  # None: read (or create) ``secret.key`` in ``data``
    bot_delay: float = 1.0  # seconds, a bot's human-like thinking time (randomized 0.5x-1.5x)
    grace: float = 60.0  # seconds a disconnected player is waited for before a stand-in moves
    # seconds a bot candidate gives the people of the last government to claim before it
    # nominates (cut short once they have claimed); 0: no wait
    claim_wait: float = 20.0
    static_dir: Path = STATIC_DIR
    max_message: int = 65536  # bytes per client frame
    chat_max: int = 300  # characters of a chat line (GET /api/limits tells clients)
    # limits, per client address (as uvicorn sees it, see docs/security.md) and per user
    connections_per_address: int = 32  # open WebSockets
    hello_timeout: float = 10.0  # seconds from connecting to the hello message
    session_rate: str = "10/minute"  # new guest sessions per address
    # sign-in (and account-claim) attempts per address, and per username tried from one address
    # (attempts from other addresses only slow a username's sign-ins down: api/accounts.py)
    signin_rate: str = "20/10 minutes"
    signin_rate_user: str = "10/10 minutes"
    report_rate: str = "10/hour"  # reports per address (and per user), before anything is read
    tables_per_user: int = 3  # open (waiting or playing) tables hosted
    tables_per_address: int = 10
    bot_games_per_user: int = 1  # running games without a human seat, by host
    bot_games_per_address: int = 2
    chat_rate: str = "5/10 seconds"  # chat messages per user
    chat_rate_address: str = "15/10 seconds"  # chat messages per address
    analysis_rate: str = "20/minute"  # game analyses per address (each up to 5 s of CPU)
    lookup_rate: str = "300/minute"  # table details and invite lookups per address
    max_body: int = 1 << 20  # bytes of an HTTP request body
    waiting_expiry: float = 3600.0  # seconds a waiting table may go without a lobby change
    offline_expiry: float = 900.0  # seconds a waiting table may have no player connected
    remake_window: float = 60.0  # seconds a remake vote stays open
    webhook_timeout: float = 10.0  # seconds a table's webhook POST may take
    # Webhooks may reach private, loopback, link-local, multicast and reserved addresses
    # (SH_WEBHOOK_ALLOW_PRIVATE=1; off by default: docs/security.md "Webhooks")
    webhook_allow_private: bool = False
    presence_delay: float = 1.0  # seconds spectator arrivals/departures are gathered for
    min_timer: int = 30  # shortest decision timer a table may have (the web form's shortest)
    # seconds an HTTP connection may take to send a request's headers (slow-header attacks)
    header_timeout: float = 10.0
    # HTTP connections open at once from one address (before a WebSocket upgrade; proxies in
    # ``trusted_proxies`` are not counted)
    http_connections_per_address: int = 64
    token_max_age: int = 30 * 24 * 3600
    log_format: str | None = None  # "json", "text"; None: text on a terminal, else JSON
    db_timeout: float = 5.0  # seconds a write waits for an unavailable/locked database, then fails
    # seconds between two commits while writes keep coming (storage/writer.py, group commit)
    commit_window: float = 0.004
    bot_timeout: float = 10.0  # seconds a bot may think before the fallback (rule) plays the seat
    # threads bots compute their moves on, a pool of their own (language models need none)
    bot_threads: int = 4
    bot_modules: tuple[str, ...] = ()  # modules imported at startup to register bot levels
    # Cross-site policy (docs/security.md): origins besides the server's own whose pages may use
    # the session cookie (WebSocket) and send state-changing requests.
    allowed_origins: tuple[str, ...] = ()
    # Proxies (IPs/CIDRs) whose X-Forwarded-Proto/-For are believed; (): none are.
    trusted_proxies: tuple[Network, ...] = ()
    # Where people open the game (SH_PUBLIC_URL), for links sent elsewhere (webhook posts);
    # None: http://HOST:PORT
    public_url: str | None = None
    # seconds between reads of the bans and closed tables made by ``secret-hitler admin``
    moderation_refresh: float = 2.0
    api_docs: bool = False  # /api/docs (Swagger UI, which loads its scripts from a CDN)
    # A bearer token /metrics asks for (SH_METRICS_TOKEN); None: /metrics is open to all, for a
    # deployment that keeps it off the public side of its proxy (docs/security.md).
    metrics_token: str | None = None
    # A cluster (docs/deploy.md): with a Redis URL the server is one node of many, on PostgreSQL.
    redis_url: str | None = None
    node_id: str | None = None  # default: host name and port
    lease_ttl: float = 10.0  # seconds a node's table lease lasts unless renewed
    # Language models a host may seat (docs/llm.md): the endpoints file (SH_LLM_ENDPOINTS), read
    # at startup; None: no model is offered. Never a URL from a request.
    llm_endpoints: Path | None = None
    # The arena's report.json the leaderboard page shows (SH_ARENA_REPORT); None: no leaderboard.
    arena_report: Path | None = None
    # Rated seats (docs/competitive.md): an account this old (seconds) with this many finished
    # games; after leaving a rated game no rated seat for ``leave_cooldown`` seconds (growing)
    rated_min_age: float = 86400.0
    rated_min_games: int = 3
    leave_cooldown: float = 600.0
    # seconds a seated player must have been absent (offline, or the game waiting on her) before
    # her table may vote to replace her by a bot
    afk_after: float = 60.0
    # The matchmaking queue and new-player tables (docs/competitive.md "The queue"): seconds a
    # ready check waits for its people; the first no-show cooldown (growing); seconds between
    # two formations; how many finished games make a player no longer new; seconds a new-player
    # table waits after its first person sits before bots fill its empty seats and it starts
    queue_ready: float = 30.0
    queue_no_show: float = 120.0
    queue_tick: float = 2.0
    newbie_games: int = 10
    newbie_wait: float = 45.0
    newbie_tables: int = 1  # new-player tables kept open (waiting) at once; 0: none
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_env(cls, limits: dict[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from SH_HOST, SH_PORT, SH_DATA, DATABASE_URL, SH_SECRET, SH_BOT_DELAY, SH_GRACE,
        SH_DB_TIMEOUT, SH_BOT_TIMEOUT, SH_BOT_THREADS, SH_MODERATION_REFRESH, SH_BOT_MODULES (comma-separated module
        names), SH_ALLOWED_ORIGINS, SH_TRUSTED_PROXIES, SH_PUBLIC_URL, SH_LOG_FORMAT, SH_API_DOCS,
        SH_WEBHOOK_ALLOW_PRIVATE, SH_METRICS_TOKEN, REDIS_URL, SH_NODE_ID, SH_LEASE_TTL,
        SH_LLM_ENDPOINTS, SH_ARENA_REPORT, SH_RATED_MIN_AGE, SH_RATED_MIN_GAMES,
        SH_LEAVE_COOLDOWN, SH_AFK_AFTER and the limits of ``LIMIT_ENV``.

        Keyword arguments that are not ``None`` (command-line flags) and ``limits`` (``--limit``
        NAME -> VALUE) win over the environment. A bad value raises ``ValueError``.
        """
        env = os.environ
        values: dict[str, Any] = {
            "host": env.get("SH_HOST") or DEFAULT_HOST,
            "port": env.get("SH_PORT") or DEFAULT_PORT,
            "data": Path(env.get("SH_DATA") or DEFAULT_DATA),
            "database_url": env.get("DATABASE_URL") or None,
            "secret": env.get("SH_SECRET") or None,
            "bot_delay": _float("SH_BOT_DELAY", 1.0),
            "grace": _float("SH_GRACE", 60.0),
            "claim_wait": _float("SH_CLAIM_WAIT", 20.0),
            "db_timeout": _float("SH_DB_TIMEOUT", 5.0),
            "commit_window": _commit_window(),
            "bot_timeout": _float("SH_BOT_TIMEOUT", 10.0),
            "bot_threads": _threads("SH_BOT_THREADS", 4),
            "moderation_refresh": _float("SH_MODERATION_REFRESH", 2.0),
            "bot_modules": tuple(
                m.strip() for m in env.get("SH_BOT_MODULES", "").split(",") if m.strip()
            ),
            "allowed_origins": _origins(env.get("SH_ALLOWED_ORIGINS")),
            "trusted_proxies": _proxies(env.get("SH_TRUSTED_PROXIES")),
            "public_url": _public_url(env.get("SH_PUBLIC_URL")),
            "log_format": _log_format(env.get("SH_LOG_FORMAT")),
            "api_docs": _flag("SH_API_DOCS"),
            "webhook_allow_private": _flag("SH_WEBHOOK_ALLOW_PRIVATE"),
            "metrics_token": (env.get("SH_METRICS_TOKEN") or "").strip() or None,
            "redis_url": env.get("REDIS_URL") or None,
            "node_id": env.get("SH_NODE_ID") or None,
            "lease_ttl": _float("SH_LEASE_TTL", 10.0),
            "llm_endpoints": _path(env.get("SH_LLM_ENDPOINTS")),
            "arena_report": _path(env.get("SH_ARENA_REPORT")),
            "rated_min_age": _seconds("SH_RATED_MIN_AGE", 86400.0),
            "rated_min_games": _count("SH_RATED_MIN_GAMES", 3),
            "leave_cooldown": _seconds("SH_LEAVE_COOLDOWN", 600.0),
            "afk_after": _seconds("SH_AFK_AFTER", 60.0),
            "queue_ready": _seconds("SH_QUEUE_READY", 30.0),
            "queue_no_show": _seconds("SH_QUEUE_NO_SHOW", 120.0),
            "queue_tick": _seconds("SH_QUEUE_TICK", 2.0),
            "newbie_games": _count("SH_NEWBIE_GAMES", 10),
            "newbie_wait": _seconds("SH_NEWBIE_WAIT", 45.0),
            "newbie_tables": _count("SH_NEWBIE_TABLES", 1),
        }
        defaults = cls()
        given = {k: env[e] for k, e in LIMIT_ENV.items() if env.get(e)}
        for name, raw in (limits or {}).items():
            if name not in LIMIT_ENV:
                raise ValueError(f"--limit: unknown limit {name!r}; known: {', '.join(LIMIT_ENV)}")
            given[name] = raw
        for name, raw in given.items():
            values[name] = _limit_value(name, raw, getattr(defaults, name))
        values.update({k: v for k, v in overrides.items() if v is not None})
        values["data"] = Path(values["data"])
        for name in ("llm_endpoints", "arena_report"):
            values[name] = _path(values[name])
        values["port"] = _port(values["port"])
        settings = cls(**values)
        settings.check_cluster()
        return settings

    def check_cluster(self) -> None:
        """A cluster needs PostgreSQL (shared by the nodes) and a well-formed node id."""
        if self.node_id is not None and not _NODE_ID.fullmatch(self.node_id):
            raise ValueError(
                f"--node-id: {self.node_id[:80]!r} must be 1-64 letters, digits, '.', '_' or '-'"
            )
        if self.redis_url is None:
            return
        if not self.redis_url.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError("REDIS_URL: must start with redis://, rediss:// or unix://")
        if not self.sqlalchemy_url.startswith("postgresql"):
            raise ValueError(
                "REDIS_URL: the nodes of a cluster share a PostgreSQL: set DATABASE_URL"
            )
        if not self.secret:
            raise ValueError(
                "REDIS_URL: the nodes of a cluster share a secret (their tokens, the signatures "
                "of their messages): set SH_SECRET, the same on every node"
            )
        if not self.lease_ttl > 0:
            raise ValueError("SH_LEASE_TTL: must be more than 0")

    @property
    def node(self) -> str:
        """This node's id in a cluster."""
        return self.node_id or f"{socket.gethostname()[:50]}-{self.port}"

    @property
    def link_base(self) -> str:
        """The URL people open the game at (``SH_PUBLIC_URL``, else this server's address)."""
        if self.public_url:
            return self.public_url
        host = {"0.0.0.0": "127.0.0.1", "::": "[::1]", "": "127.0.0.1"}.get(self.host, self.host)
        if ":" in host and not host.startswith("["):
            host = f"[{host}]"
        return f"http://{host}:{self.port}"

    @property
    def forwarded_allow_ips(self) -> str | None:
        """``trusted_proxies`` as uvicorn's ``forwarded_allow_ips`` (None: no proxy headers)."""
        return ",".join(str(n) for n in self.trusted_proxies) or None

    def trusted_proxy(self, host: str) -> bool:
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(ip in net for net in self.trusted_proxies)

    def cluster_key(self) -> bytes:
        """The key the nodes of a cluster sign their messages with, derived from ``SH_SECRET``
        (cluster/node.py; ``check_cluster`` refuses a cluster without it)."""
        if not self.secret:
            raise ValueError("a cluster needs SH_SECRET")
        return hmac.new(
            self.secret.encode(), b"secret-hitler cluster messages", hashlib.sha256
        ).digest()

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **changes)

    @property
    def sqlalchemy_url(self) -> str:
        return database_url_for(self.database_url, self.data)

    def private_data(self) -> None:
        """The data folder (SQLite file, secret key) is the server's user's only: mode 0700."""
        if self.data.is_dir():
            os.chmod(self.data, 0o700)

    def signing_secret(self) -> str:
        """SH_SECRET, else the key stored in the data folder (created on first use)."""
        if self.secret:
            return self.secret
        self.data.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = self.data / "secret.key"
        if path.exists():
            key = path.read_text(encoding="utf-8").strip()
            if key:
                return key
        key = secrets.token_urlsafe(48)
        tmp = path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(key + "\n")
        os.replace(tmp, path)
        return key
