"""Structured logs: one JSON object per line, carrying ``game_id`` when there is one."""

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


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                out[key] = value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


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


def setup_logging(level: str = "info", json_logs: bool = True) -> None:
    handler = logging.StreamHandler(sys.stderr)
    if json_logs:
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    handler.addFilter(RedactSecrets())
    root = logging.getLogger("secret_hitler")
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False
    logging.Formatter.converter = time.gmtime
