"""The arena's leaderboard (docs/llm.md "The leaderboard"): the report.json an arena run wrote
(``--arena-report`` / ``SH_ARENA_REPORT``, configured by the operator) and its plots, read-only.

The report is read again only when the file changes, so an arena that is still running can
rewrite it under a live server. Only the plots ``plot_report`` writes, beside the report, are
served: no path comes from a request.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from ..core.errors import LobbyError

router = APIRouter()

#: The report's format (llm/report.py ``build_report``) and the plots beside it (``plot_report``).
FORMAT = "secret-hitler-arena-report"
PLOTS = ("wins.png", "ratings.png")


class ArenaReport:
    """The configured report, parsed once per version of the file."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._stamp: tuple[int, int] | None = None
        self._data: dict[str, Any] | None = None

    def read(self) -> dict[str, Any]:
        """The report with ``plots`` (the plot files present); ``LobbyError`` when there is none."""
        path = self.path
        if path is None:
            raise LobbyError(404, "no_arena", "this server shows no arena results")
        try:
            stat = path.stat()
        except OSError:
            raise LobbyError(404, "no_arena", "the arena report is not there (yet)") from None
        stamp = (stat.st_mtime_ns, stat.st_size)
        if stamp != self._stamp or self._data is None:
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, ValueError):
                raise LobbyError(
                    503, "arena_unreadable", "the arena report cannot be read"
                ) from None
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                raise LobbyError(503, "arena_unreadable", "the arena report is not an arena report")
            self._data, self._stamp = data, stamp
        plots = [name for name in PLOTS if (path.parent / name).is_file()]
        return {**self._data, "plots": plots}

    def plot(self, name: str) -> Path:
        if self.path is None or name not in PLOTS or not (self.path.parent / name).is_file():
            raise LobbyError(404, "not_found", "no such plot")
        return self.path.parent / name


def _report(request: Request) -> ArenaReport:
    return request.app.state.arena  # type: ignore[no-any-return]


@router.get("/api/arena")
async def arena(request: Request) -> dict[str, Any]:
    return _report(request).read()


@router.get("/api/arena/plots/{name}")
async def plot(name: str, request: Request) -> FileResponse:
    return FileResponse(_report(request).plot(name), media_type="image/png")
