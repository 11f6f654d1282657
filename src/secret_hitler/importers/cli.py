"""``secret-hitler import secrethitler-io IN.jsonl[.gz] OUT_DIR``: site summaries -> record files.

The lead's CLI mounts ``app`` as the ``import`` group. File reading and writing live here so that
the converter itself stays pure.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ..datasets import FileProblem, reading

if TYPE_CHECKING:
    from .secrethitler_io import Converted

app = typer.Typer(help="Import games played elsewhere as game records.", no_args_is_help=True)

_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]")


class ImportFailed(Exception):
    """The input cannot be read as a whole (missing, unreadable, not JSONL): nothing is written."""


def read_summaries(path: Path) -> list[Converted]:
    """Convert every game of a secrethitler.io JSONL file, plain or gzip (all before any write)."""
    # The importer loads with the command that uses it (the CLI starts faster without it).
    from .secrethitler_io import BadSummary, iter_records

    try:
        with reading(path) as fh:
            return list(iter_records(fh))
    except FileProblem as exc:
        raise ImportFailed(str(exc)) from None
    except BadSummary as exc:
        raise ImportFailed(f"{path}: {exc}") from None


def dump_record(record: dict[str, Any]) -> str:
    """A record as JSON with one action per line: readable, and diffs stay small."""
    lines = []
    for key, value in record.items():
        if key == "actions" and value:
            inner = ",\n".join(f"    {json.dumps(a)}" for a in value)
            lines.append(f'  "actions": [\n{inner}\n  ]')
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def record_filename(game_id: str) -> str:
    return (_SAFE_NAME.sub("_", game_id) or "game") + ".json"


def write_records(converted: list[Converted], out_dir: Path) -> tuple[int, dict[str, int]]:
    if out_dir.exists() and not out_dir.is_dir():
        raise ImportFailed(f"{out_dir}: exists and is not a directory")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        written = 0
        skipped: Counter[str] = Counter()
        for item in converted:
            if item.record is None:
                skipped[item.skipped or "unknown"] += 1
                continue
            (out_dir / record_filename(item.game_id)).write_text(
                dump_record(item.record), encoding="utf-8"
            )
            written += 1
    except OSError as exc:
        raise ImportFailed(f"{out_dir}: cannot write records ({exc.strerror})") from None
    return written, dict(skipped)


def import_secrethitler_io(input: Path, out_dir: Path) -> tuple[int, dict[str, int]]:
    """Write one ``<id>.json`` record per convertible game; return (written, skipped by reason).

    Raises ``ImportFailed`` when the input file is missing or not a JSONL file of game summaries.
    """
    return write_records(read_summaries(input), out_dir)


@app.callback()
def _group() -> None:
    """Import games played elsewhere as game records."""


@app.command("secrethitler-io")
def secrethitler_io(
    input: Annotated[
        Path,
        typer.Argument(
            metavar="IN.jsonl",
            help="secrethitler.io game summaries, one JSON per line (or .jsonl.gz)",
        ),
    ],
    out_dir: Annotated[
        Path, typer.Argument(metavar="OUT_DIR", help="where to write <id>.json records")
    ],
) -> None:
    """Turn secrethitler.io game summaries into records, with the site's exact decks and claims."""
    err = Console(stderr=True)
    try:
        converted = read_summaries(input)
        written, skipped = write_records(converted, out_dir)
    except ImportFailed as exc:
        err.print(f"[bold red]error:[/] {exc}", highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None
    finished = sum(1 for c in converted if c.record is not None and "result" in c.record)
    out = Console()
    table = Table(title="secrethitler.io import", show_header=False)
    table.add_row("records written", str(written))
    table.add_row("  finished (with result)", str(finished))
    table.add_row("  unfinished", str(written - finished))
    for reason, count in sorted(skipped.items()):
        table.add_row(f"skipped: {reason}", str(count))
    out.print(table)
    out.print(f"from {input} into {out_dir}", highlight=False, soft_wrap=True)


def register(parent: typer.Typer) -> None:
    """Mount the importers as ``secret-hitler import ...`` (the main CLI's plugin hook)."""
    parent.add_typer(app, name="import")
