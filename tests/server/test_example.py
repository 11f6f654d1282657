"""examples/ws_bot.py: an external program plays a whole game over the WebSocket protocol."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from server_support import ROOT, Server, http


@pytest.mark.timeout(120)
@pytest.mark.parametrize("players", [5, 8])
def test_ws_bot_example_plays_a_game(server: Server, players: int) -> None:
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples" / "ws_bot.py"),
            "--server",
            server.url,
            "--create",
            str(players),
            "--level",
            "random",
            "--quiet",
            "--seed",
            "4",
        ],
        capture_output=True,
        text=True,
        timeout=100,
        check=True,
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["winner"] in ("liberal", "fascist") and result["seat"] == 0
    assert "error:" not in out.stderr
    record = http(server, "GET", f"/api/games/{result['table']}/record")
    assert record["result"]["winner"] == result["winner"]
    assert any(a["seat"] == 0 for a in record["actions"])
