"""The project's data files and how they are opened.

The secrethitler.io sample (and its licence) ship inside the package as package data, read
through ``importlib.resources``, so an installed wheel has them as well as a checkout. It is
committed as gzip-compressed JSONL; every reader goes through ``open_text``, which takes a plain
or a gzip file alike (told apart by its first bytes, not its name); ``read_json`` reads one JSON
document (a record) the same way, with one clear message for each way a file can be unreadable.
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from . import jsontext

#: The package's own data folder (an installed wheel unpacks to files on disk).
DATA_DIR = Path(str(resources.files("secret_hitler") / "data"))
SECRETHITLER_IO = DATA_DIR / "secrethitler-io-games.jsonl.gz"

# What reading a damaged gzip file raises (``BadGzipFile`` is an ``OSError``: catch this first).
CORRUPT_GZIP = (gzip.BadGzipFile, EOFError, zlib.error)

_GZIP_MAGIC = b"\x1f\x8b"


def secrethitler_io_sample() -> Path:
    """The project's copy of the secrethitler.io games; ``FileNotFoundError`` when absent."""
    if not SECRETHITLER_IO.is_file():
        raise FileNotFoundError(
            f"the project's secrethitler.io sample is not at {SECRETHITLER_IO} (the installed "
            "package is incomplete: reinstall it, or give the path of a JSONL file)"
        )
    return SECRETHITLER_IO


def open_text(path: Path) -> TextIO:
    """``path`` opened for reading as UTF-8 text, decompressed on the fly when it is gzip."""
    with path.open("rb") as fh:
        compressed = fh.read(2) == _GZIP_MAGIC
    if compressed:
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open(encoding="utf-8")


class FileProblem(ValueError):
    """A file that cannot be read as what was asked; the message names the file and the cause
    (never its content)."""


@contextmanager
def reading(path: Path) -> Iterator[TextIO]:
    """``open_text(path)`` in a ``with`` block: every way the file fails to be read, on opening
    or while its text is read inside the block, becomes one ``FileProblem`` line naming it."""
    try:
        with open_text(path) as fh:
            yield fh
    except FileNotFoundError:
        raise FileProblem(f"{path}: no such file") from None
    except IsADirectoryError:
        raise FileProblem(f"{path}: is a directory, expected a file") from None
    except UnicodeDecodeError:
        raise FileProblem(f"{path}: not a UTF-8 text file") from None
    except CORRUPT_GZIP:  # before OSError: ``BadGzipFile`` is one
        raise FileProblem(f"{path}: a damaged gzip file") from None
    except OSError as exc:
        raise FileProblem(f"{path}: cannot read the file ({exc.strerror or exc})") from None


def read_json(path: Path) -> Any:
    """The JSON document in ``path`` (plain or gzip UTF-8 text); ``FileProblem`` otherwise."""
    with reading(path) as fh:
        text = fh.read()
    try:
        return jsontext.loads(text)
    except jsontext.BadJson as exc:
        raise FileProblem(f"{path}: {exc}") from None
