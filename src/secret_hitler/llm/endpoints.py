"""The configured chat endpoints: a TOML file of named ``[[endpoint]]`` tables.

A model is reached only through an endpoint named here (by whoever runs the program), never
through a URL a player or a request supplies, so nothing a player sends can point the program
at another host. The API key is never in the file: ``key_env`` names the environment variable
that holds it, read when a request is made and never written to a log, a record or a repr.

The file is ``--endpoints FILE`` or the ``SH_LLM_ENDPOINTS`` environment variable. Every key
is checked; a bad file is one ``EndpointError`` naming the endpoint and the key, and nothing is
loaded from it.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

#: The environment variable naming the endpoints file when ``--endpoints`` is not given.
ENDPOINTS_ENV = "SH_LLM_ENDPOINTS"
#: The languages a prompt can be written in (the web client's five).
LANGUAGES = ("en", "zh-Hans", "zh-Hant", "ru", "vi")
RESPONSE_FORMATS = ("json_schema", "json_object", "none")
#: The prompt version (``llm/prompts/<version>/``) an endpoint uses unless its file names one.
PROMPT_VERSION = "v2"
#: A level's name is ``llm:<endpoint name>``.
LEVEL_PREFIX = "llm:"
_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]{0,39}$")
#: The longest display name (a seat's name at a table: the web client's 24 characters).
DISPLAY_CHARS = 20
_KEY_ENV = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,99}$")


class EndpointError(ValueError):
    """The endpoints file cannot be used; the message names the file, endpoint and key."""


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One model behind one OpenAI-compatible chat-completions URL, and how to ask it."""

    name: str
    base_url: str  # POST {base_url}/chat/completions
    model: str
    key_env: str | None = None  # the environment variable holding the API key, if any
    temperature: float = 0.7
    max_tokens: int = 512
    response_format: str = "json_schema"  # or json_object, or none (plain text)
    timeout_s: float = 60.0  # one request, connection to last byte
    decision_s: float = 180.0  # one decision, its retries included
    # one decision at a server's table without a timer (people wait for it): the lesser of
    # this and ``decision_s``; a table's timer bounds it otherwise
    table_decision_s: float = 60.0
    retries: int = 2  # further attempts after a malformed, illegal or late answer
    fallback: str = "rule"  # the level that plays a decision the model did not make
    max_response_bytes: int = 65536  # a longer answer is cut and counted as too long
    concurrency: int = 4  # requests in flight to this endpoint at once (per process)
    language: str = "en"
    prompt: str = PROMPT_VERSION  # the prompt templates' version (llm/prompts/<version>/)
    beliefs: bool = False  # ask for the model's team guess of every other seat
    chat: bool = True  # let the model say short lines at the table
    chat_chars: int = 160  # the longest line it may say
    chat_per_round: int = 2  # the most lines it may say per round
    price_in: float = 0.0  # dollars per million prompt tokens (cost estimates only)
    price_out: float = 0.0  # dollars per million completion tokens
    display_name: str = ""  # what players see on the model's seat (default: ``model``)
    extra: dict[str, Any] = field(default_factory=dict, hash=False)  # more fields (top_p...)

    @property
    def shown(self) -> str:
        """The name a table shows for the model's seats."""
        return self.display_name or self.model[:DISPLAY_CHARS]

    @property
    def level(self) -> str:
        """The bot level name of this endpoint."""
        return LEVEL_PREFIX + self.name

    def api_key(self) -> str | None:
        """The key from the environment, read now (never stored on the endpoint)."""
        if not self.key_env:
            return None
        return os.environ.get(self.key_env) or None

    def describe(self) -> dict[str, Any]:
        """What a record or report says about the endpoint: no key, no key variable."""
        return {
            "name": self.name,
            "model": self.model,
            "language": self.language,
            "prompt": self.prompt,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "response_format": self.response_format,
            "retries": self.retries,
            "fallback": self.fallback,
            "beliefs": self.beliefs,
        }

    def __repr__(self) -> str:
        return f"Endpoint({self.name!r}, model={self.model!r})"


_TYPES: dict[str, tuple[type, ...]] = {
    "name": (str,),
    "base_url": (str,),
    "model": (str,),
    "key_env": (str,),
    "temperature": (int, float),
    "max_tokens": (int,),
    "response_format": (str,),
    "timeout_s": (int, float),
    "decision_s": (int, float),
    "table_decision_s": (int, float),
    "retries": (int,),
    "fallback": (str,),
    "max_response_bytes": (int,),
    "concurrency": (int,),
    "language": (str,),
    "prompt": (str,),
    "beliefs": (bool,),
    "chat": (bool,),
    "chat_chars": (int,),
    "chat_per_round": (int,),
    "price_in": (int, float),
    "price_out": (int, float),
    "display_name": (str,),
    "extra": (dict,),
}
# (low, high) for the numbers, both included.
_RANGES: dict[str, tuple[float, float]] = {
    "temperature": (0.0, 2.0),
    "max_tokens": (16, 32768),
    "timeout_s": (0.01, 3600.0),
    "decision_s": (0.01, 7200.0),
    "table_decision_s": (1.0, 600.0),
    "retries": (0, 10),
    "max_response_bytes": (1024, 16 * 1024 * 1024),
    "concurrency": (1, 256),
    "chat_chars": (0, 1000),
    "chat_per_round": (0, 20),
    "price_in": (0.0, 1e6),
    "price_out": (0.0, 1e6),
}
# Request fields an endpoint's ``extra`` may not override: the agent sets them.
_RESERVED = frozenset({"model", "messages", "temperature", "max_tokens", "response_format"})


def parse_endpoint(data: Any, where: str = "endpoint") -> Endpoint:
    """One endpoint from its TOML table; ``EndpointError`` names the first bad key."""
    if not isinstance(data, dict):
        raise EndpointError(f"{where}: must be a table")
    known = {f.name for f in fields(Endpoint)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise EndpointError(f"{where}: unknown key {unknown[0][:40]!r}")
    for key in ("name", "base_url", "model"):
        if key not in data:
            raise EndpointError(f"{where}: {key} is required")
    name = data["name"]
    if not isinstance(name, str) or not _NAME.match(name):
        raise EndpointError(
            f"{where}: name must be 1-40 of a-z 0-9 . _ - (first a letter or digit)"
        )
    where = f"endpoint {name!r}"
    for key, value in data.items():
        types = _TYPES[key]
        if not isinstance(value, types) or (bool not in types and isinstance(value, bool)):
            kind = " or ".join(t.__name__ for t in types)
            raise EndpointError(f"{where}: {key} must be {kind}")
        if key in _RANGES and isinstance(value, int | float):
            low, high = _RANGES[key]
            if not low <= value <= high:
                raise EndpointError(f"{where}: {key} must be {low:g} to {high:g}")
    url = urlsplit(data["base_url"])
    if url.scheme not in ("http", "https") or not url.hostname or url.query or url.fragment:
        raise EndpointError(
            f"{where}: base_url must be an http(s) URL without query, e.g. "
            "http://127.0.0.1:11434/v1"
        )
    if not data["model"].strip():
        raise EndpointError(f"{where}: model must not be empty")
    key_env = data.get("key_env")
    if key_env is not None and key_env != "" and not _KEY_ENV.match(key_env):
        raise EndpointError(f"{where}: key_env must name an environment variable (not the key)")
    if data.get("response_format", "json_schema") not in RESPONSE_FORMATS:
        raise EndpointError(
            f"{where}: response_format must be one of {', '.join(RESPONSE_FORMATS)}"
        )
    if data.get("language", "en") not in LANGUAGES:
        raise EndpointError(f"{where}: language must be one of {', '.join(LANGUAGES)}")
    shown = data.get("display_name", "")
    if len(shown) > DISPLAY_CHARS or not shown.isprintable():
        raise EndpointError(
            f"{where}: display_name must be at most {DISPLAY_CHARS} printable characters"
        )
    extra = data.get("extra", {})
    clash = sorted(set(extra) & _RESERVED)
    if clash:
        raise EndpointError(f"{where}: extra may not set {clash[0]!r} (the agent sets it)")
    values = dict(data)
    values["key_env"] = key_env or None
    values["base_url"] = data["base_url"].rstrip("/")
    return Endpoint(**values)


def load_endpoints(path: Path | str | None = None) -> dict[str, Endpoint]:
    """The endpoints of ``path`` (default: ``$SH_LLM_ENDPOINTS``), by name."""
    if path is None:
        path = os.environ.get(ENDPOINTS_ENV) or None
        if path is None:
            raise EndpointError(f"no endpoints file: give --endpoints FILE or set {ENDPOINTS_ENV}")
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise EndpointError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise EndpointError(f"{path}: cannot read it ({type(exc).__name__})") from None
    except tomllib.TOMLDecodeError as exc:
        raise EndpointError(f"{path}: not valid TOML ({exc})") from None
    unknown = sorted(set(data) - {"endpoint"})
    if unknown:
        raise EndpointError(f"{path}: unknown table {unknown[0][:40]!r} (expected [[endpoint]])")
    tables = data.get("endpoint")
    if not isinstance(tables, list) or not tables:
        raise EndpointError(f"{path}: no [[endpoint]] table")
    out: dict[str, Endpoint] = {}
    for i, table in enumerate(tables):
        try:
            endpoint = parse_endpoint(table, f"endpoint {i + 1}")
        except EndpointError as exc:
            raise EndpointError(f"{path}: {exc}") from None
        if endpoint.name in out:
            raise EndpointError(f"{path}: endpoint {endpoint.name!r} is named twice")
        out[endpoint.name] = endpoint
    return out


__all__ = [
    "ENDPOINTS_ENV",
    "LANGUAGES",
    "LEVEL_PREFIX",
    "PROMPT_VERSION",
    "Endpoint",
    "EndpointError",
    "load_endpoints",
    "parse_endpoint",
]
