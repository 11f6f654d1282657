"""JSON that comes from outside (a record file, a request body, a WebSocket message, a flag).

``json.loads`` fails in more ways than ``JSONDecodeError``: an integer of more than 4,300
digits is a plain ``ValueError``, deep nesting a ``RecursionError``, bytes that are not UTF-8 a
``UnicodeDecodeError``. ``loads`` turns each into one ``BadJson`` with a short message that
quotes nothing of the input, so every reader of untrusted JSON refuses it the same way.
"""

from __future__ import annotations

import json
from typing import Any


class BadJson(ValueError):
    """Text that is not a JSON document this program can read; the message says why."""


def loads(text: str | bytes) -> Any:
    """The JSON document in ``text``; ``BadJson`` otherwise."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise BadJson(f"not valid JSON ({where}: {exc.msg})") from None
    except UnicodeDecodeError:
        raise BadJson("not valid JSON (not UTF-8 text)") from None
    except RecursionError:
        raise BadJson("not valid JSON (nested too deeply)") from None
    except ValueError:  # int(): the interpreter's limit on the digits of an integer
        raise BadJson("not valid JSON (a number with more than 4300 digits)") from None
