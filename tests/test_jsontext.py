"""Untrusted JSON is refused the same way whatever is wrong with it, and nothing of it is echoed."""

from __future__ import annotations

import pytest

from secret_hitler.jsontext import BadJson, loads


def test_a_document_is_read() -> None:
    assert loads('{"players": 7, "seed": 1}') == {"players": 7, "seed": 1}
    assert loads(b'[1, "\\u00e9"]') == [1, "é"]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"players": 7', "line 1, column 14"),
        ("9" * 5000, "more than 4300 digits"),  # a ValueError, not a JSONDecodeError
        ('{"seed": ' + "1" * 4301 + "}", "more than 4300 digits"),
        ("[" * 200_000 + "]" * 200_000, "nested too deeply"),  # a RecursionError
        (b"\xff\xfe\x00", "not UTF-8"),
    ],
)
def test_every_failure_is_one_bad_json(text: str | bytes, why: str) -> None:
    with pytest.raises(BadJson) as info:
        loads(text)
    message = str(info.value)
    assert message.startswith("not valid JSON (") and why in message
    assert len(message) < 100
