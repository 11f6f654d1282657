"""Logs: one JSON object per line (for log collectors), or plain readable lines on a terminal;
both carry ``game_id`` and the other fields a call adds."""

from __future__ import annotations

import json
import logging
import re
import sys
import time
from typing import Any

_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "color_message"}


class GameLog(logging.LoggerAdapter):  # type: ignore[type-arg]
    """A logger that adds ``game_id`` (and keeps the call's own ``extra`` fields)."""

    def process(self, msg: Any, kwargs: Any) -> tuple[Any, Any]:
        kwargs["extra"] = {**(self.extra or {}), **(kwargs.get("extra") or {})}
        return msg, kwargs


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    """The fields a call added (``extra``), such as ``game_id``."""
    return {
        k: v for k, v in record.__dict__.items() if k not in _STANDARD and not k.startswith("_")
    }


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
            **_fields(record),
        }
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """``12:03:04 warning table: webhook failed game_id=tAb3 error=ConnectTimeout``"""

    def format(self, record: logging.LogRecord) -> str:
        when = time.strftime("%H:%M:%S", time.localtime(record.created))
        name = record.name.removeprefix("secret_hitler.server.").removeprefix("secret_hitler.")
        name = name.removesuffix(".error")  # uvicorn.error: uvicorn's own messages
        fields = " ".join(f"{k}={v}" for k, v in _fields(record).items())
        line = f"{when} {record.levelname.lower():<7} {name}: {record.getMessage()}"
        if fields:
            line += "  " + fields
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


_SECRET_QUERY = re.compile(r"([?&](?:token|invite)=)[^&\s\"']*", re.IGNORECASE)


class RedactSecrets(logging.Filter):
    """Blank ``token=`` and ``invite=`` query values in any log line (uvicorn logs every
    WebSocket URL): a credential must never reach a log file."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        clean = _SECRET_QUERY.sub(r"\1[redacted]", text)
        if clean != text:
            record.msg, record.args = clean, None
        return True


def json_wanted(log_format: str | None) -> bool:
    """``SH_LOG_FORMAT`` (``json`` or ``text``), else JSON unless stderr is a terminal."""
    if log_format is not None:
        return log_format == "json"
    return not sys.stderr.isatty()


def setup_logging(level: str = "info", json_logs: bool = True) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if json_logs else TextFormatter())
    handler.addFilter(RedactSecrets())
    root = logging.getLogger("secret_hitler")
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False
    logging.Formatter.converter = time.gmtime
