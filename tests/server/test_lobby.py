"""HTTP: sessions, the lobby, finished games, operations endpoints, settings."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from server_support import Client, HttpError, Server, http, session

from secret_hitler.server.core.config import Settings, database_url_for


def _err(
    server: Server, method: str, path: str, body: object = None, token: str | None = None
) -> HttpError:
    with pytest.raises(HttpError) as info:
        http(server, method, path, body, token)
    return info.value


def test_sessions_and_names(server: Server) -> None:
    for bad in ("", "   ", "x" * 25, "<script>", "a\nb", "two  spaces", 5, None):
        e = _err(server, "POST", "/api/session", {"name": bad})
        assert e.status == 400 and e.code == "invalid_name", bad
    for good in ("Zoë 李", "Ana-María", "O'Brien", "x" * 24):
        assert http(server, "POST", "/api/session", {"name": good})["name"] == good.strip()
    token = session(server, "Alice")
    me = http(server, "GET", "/api/me", token=token)
    assert me["name"] == "Alice" and me["user_id"].startswith("u_")
    # no credentials at all (a first visit): nobody, without an error
    assert http(server, "GET", "/api/me") == {"user_id": None, "name": None, "username": None}
    assert _err(server, "GET", "/api/me", token=token + "x").status == 401
    # browsers: the cookie
    req = urllib.request.Request(
        server.url + "/api/session",
        data=json.dumps({"name": "Bob"}).encode(),
        method="POST",
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(req) as r:
        cookie = r.headers["set-cookie"]
    assert cookie.startswith("sh_session=") and "HttpOnly" in cookie and "SameSite=lax" in cookie
    req = urllib.request.Request(server.url + "/api/me", headers={"cookie": cookie.split(";")[0]})
    with urllib.request.urlopen(req) as r:
        assert json.loads(r.read())["name"] == "Bob"


def test_create_validation(server: Server) -> None:
    token = session(server, "Host")
    cases = [
        ({"players": 4}, 400, "invalid_settings"),
        ({"players": 11}, 400, "invalid_settings"),
        ({"players": 7, "rules": "chess"}, 400, "invalid_settings"),
        (
            {"players": 7, "rules": {"preset": "official", "hitler_zone": 9}},
            400,
            "invalid_settings",
        ),
        ({"players": 5, "rules": {"powers": ["execute"] * 5}}, 400, "invalid_settings"),
        ({"players": 7, "rules": {"wat": 1}}, 400, "invalid_settings"),
        ({"players": 7, "bot_level": "genius"}, 400, "invalid_bot"),
        ({"players": 7, "bots": {"3": "genius"}}, 400, "invalid_bot"),
        ({"players": 7, "bots": {"9": "random"}}, 400, "bad_seat"),
        ({"players": 7, "bots": {"0": "random"}}, 409, "seat_taken"),
        ({"players": 7, "timer": 0}, 400, "invalid_request"),
        ({"players": 7, "timer": 1}, 400, "timer_too_short"),  # below SH_MIN_TIMER (30)
        ({"players": 7, "timer": 29}, 400, "timer_too_short"),
        ({"players": "seven"}, 400, "invalid_request"),
        ({}, 400, "invalid_request"),
    ]
    for body, status, code in cases:
        e = _err(server, "POST", "/api/tables", body, token)
        assert (e.status, e.code) == (status, code), (body, e.body)
        assert e.body["error"]["message"]
    e = _err(server, "POST", "/api/tables", {"players": 7, "rules": {"hitler_zone": 9}}, token)
    assert "hitler_zone" in e.body["error"]["message"]
    # the refused setting is named in `field`, for clients to word in their own language
    assert e.body["error"]["field"] == "hitler_zone"
    e = _err(
        server, "POST", "/api/tables", {"players": 5, "rules": {"powers": ["execute"] * 5}}, token
    )
    assert e.body["error"]["field"] == "powers"
    assert (
        _err(server, "POST", "/api/tables", {"players": 7, "timer": 5}, token).body["error"][
            "field"
        ]
        == "timer"
    )
    assert _err(server, "POST", "/api/tables", {"players": "x"}, token).body["error"]["field"] == (
        "players"
    )
    assert _err(server, "POST", "/api/tables", {"players": 7}).code == "unauthorized"
    t = http(
        server,
        "POST",
        "/api/tables",
        {"players": 6, "rules": {"preset": "secrethitler-io", "start_track": {"fascist": 1}}},
        token,
    )
    assert t["rules"] == {"preset": "secrethitler-io", "start_track": {"fascist": 1}}
    rules = http(server, "GET", "/api/rules")
    assert rules["presets"]["official"]["hitler_zone"] == 3
    assert rules["tables"]["official"]["7"]["fascists"] == 2 and rules["tracks"]["chaos_at"] == 3
    levels = http(server, "GET", "/api/bots")
    assert "random" in levels["levels"] and levels["default"] in levels["levels"]
    assert levels["offered"][:2] == ["random", "rule"] and "tutorial" not in levels["offered"]
    assert set(levels["offered"]) <= set(levels["levels"])


def test_lobby_flow(server: Server) -> None:
    host, ann, ben, eve = (session(server, n) for n in ("Host", "Ann", "Ben", "Eve"))
    pub = http(server, "POST", "/api/tables", {"players": 5, "auto_start": False}, host)
    priv = http(server, "POST", "/api/tables", {"players": 5, "public": False, "seat": None}, host)
    assert pub["invite"] and pub["seats"][0]["user_id"] is not None
    assert priv["seats"][0]["kind"] == "empty"
    listed = {t["id"] for t in http(server, "GET", "/api/tables")["tables"]}
    assert pub["id"] in listed and priv["id"] not in listed
    assert all(t["invite"] is None for t in http(server, "GET", "/api/tables", token=eve)["tables"])
    # private: only by invite
    assert _err(server, "GET", f"/api/tables/{priv['id']}", token=eve).code == "not_found"
    assert _err(server, "POST", f"/api/tables/{priv['id']}/join", {}, eve).code == "invite_required"
    assert http(server, "GET", f"/api/invite/{priv['invite']}")["id"] == priv["id"]
    joined = http(server, "POST", f"/api/tables/{priv['id']}/join", {"invite": priv["invite"]}, eve)
    assert joined["seats"][0]["name"] == "Eve" and joined["invite"] == priv["invite"]
    assert _err(server, "GET", "/api/invite/nope").code == "not_found"
    # seats
    tid = pub["id"]
    assert _err(server, "POST", f"/api/tables/{tid}/join", {"seat": 0}, ann).code == "seat_taken"
    assert _err(server, "POST", f"/api/tables/{tid}/join", {"seat": 7}, ann).code == "bad_seat"
    http(server, "POST", f"/api/tables/{tid}/join", {"seat": 2}, ann)
    assert _err(server, "POST", f"/api/tables/{tid}/join", {}, ann).code == "already_seated"
    http(server, "POST", f"/api/tables/{tid}/leave", None, ann)
    assert http(server, "GET", f"/api/tables/{tid}")["seats"][2]["kind"] == "empty"
    assert _err(server, "POST", f"/api/tables/{tid}/leave", None, ann).code == "not_seated"
    http(server, "POST", f"/api/tables/{tid}/join", {}, ann)
    # bots, start
    assert _err(server, "POST", f"/api/tables/{tid}/bots", {"seat": 3}, ann).code == "not_host"
    t = http(server, "POST", f"/api/tables/{tid}/bots", {"seat": 3, "level": "random"}, host)
    assert t["seats"][3]["kind"] == "bot"
    t = http(server, "DELETE", f"/api/tables/{tid}/bots/3", None, host)
    assert t["seats"][3]["kind"] == "empty"
    assert _err(server, "POST", f"/api/tables/{tid}/start", {}, ann).code == "not_host"
    assert _err(server, "POST", f"/api/tables/{tid}/start", {}, host).code == "not_enough_players"
    assert (
        _err(server, "POST", f"/api/tables/{tid}/start", {"fill_with_bots": "x"}, host).code
        == "invalid_bot"
    )
    t = http(server, "POST", f"/api/tables/{tid}/start", {"fill_with_bots": "random"}, host)
    assert t["status"] == "playing" and t["game_id"] == tid
    assert [s["kind"] for s in t["seats"]] == ["human", "human", "bot", "bot", "bot"]
    assert _err(server, "POST", f"/api/tables/{tid}/join", {}, ben).code == "not_waiting"
    assert _err(server, "GET", f"/api/games/{tid}/record").code == "game_not_finished"
    assert _err(server, "GET", "/api/games/nope/record").code == "not_found"
    # both humans leave mid-game: bots take their seats and finish the game
    for tok in (host, ann):
        t = http(server, "POST", f"/api/tables/{tid}/leave", None, tok)
    assert all(s["kind"] == "bot" for s in t["seats"])
    assert [s["name"] for s in t["seats"]][:2] == ["Host", "Ann"]

    async def finished() -> dict:
        c = Client(server, None, "watch")
        await c.connect(tid)
        if c.record is None:
            await c.recv_until(lambda m: m["type"] == "game_over", timeout=30)
        await c.close()
        return c.record  # type: ignore[return-value]

    record = asyncio.run(finished())
    assert record["result"]["winner"] in ("liberal", "fascist")
    stored = http(server, "GET", f"/api/games/{tid}/record")
    assert stored["actions"] == record["actions"] and stored["players"][:2] == ["Host", "Ann"]
    games = http(server, "GET", "/api/games?limit=5")["games"]
    assert games[0]["id"] == tid and games[0]["winner"] == record["result"]["winner"]
    assert http(server, "GET", f"/api/tables/{tid}")["status"] == "finished"


def test_operations(server: Server) -> None:
    health = http(server, "GET", "/healthz")
    assert health["ok"] is True and health["database"] == "sqlite"
    with urllib.request.urlopen(server.url + "/metrics") as r:
        text = r.read().decode()
    for name in (
        "sh_games_active",
        "sh_actions_total",
        "sh_ws_connections",
        "sh_action_latency_seconds",
    ):
        assert name in text
    with urllib.request.urlopen(server.url + "/") as r:
        assert r.headers["content-type"].startswith("text/html")
    assert _err(server, "GET", "/api/nothing-here").status == 404
    # structured logs: JSON lines with the game id
    token = session(server, "Logger")
    t = http(
        server,
        "POST",
        "/api/tables",
        {"players": 5, "bots": {str(s): "random" for s in range(1, 5)}, "seat": None},
        token,
    )
    lines = [json.loads(line) for line in server.log_tail().splitlines() if line.startswith("{")]
    assert any(rec.get("game_id") == t["id"] for rec in lines)


def test_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert database_url_for("postgresql://u@h:5/db", tmp_path) == "postgresql+psycopg://u@h:5/db"
    assert database_url_for(None, tmp_path).startswith("sqlite:///")
    for key in (
        "SH_HOST",
        "SH_PORT",
        "SH_DATA",
        "DATABASE_URL",
        "SH_SECRET",
        "SH_BOT_DELAY",
        "SH_GRACE",
    ):
        monkeypatch.delenv(key, raising=False)
    s = Settings.from_env()
    assert (s.host, s.port, s.data) == ("127.0.0.1", 8000, Path("var"))  # ./data: data sets
    monkeypatch.setenv("SH_PORT", "9001")
    monkeypatch.setenv("SH_BOT_DELAY", "0.25")
    monkeypatch.setenv("DATABASE_URL", "postgresql://x/y")
    s = Settings.from_env(port=9002, data=tmp_path)
    assert s.port == 9002 and s.bot_delay == 0.25
    assert s.sqlalchemy_url == "postgresql+psycopg://x/y"
    key = s.signing_secret()
    assert (tmp_path / "secret.key").read_text().strip() == key
    assert Settings.from_env(data=tmp_path).signing_secret() == key
    monkeypatch.setenv("SH_SECRET", "s3")
    assert Settings.from_env(data=tmp_path).signing_secret() == "s3"


def test_metrics_ask_for_their_token_when_one_is_set(make_server: Any) -> None:
    """SH_METRICS_TOKEN puts /metrics behind a bearer token (a scraper sends it; nobody else
    reads the server's counters); a wrong or missing token gets a 401 that quotes nothing."""
    server: Server = make_server(SH_METRICS_TOKEN="s3cret-scrape")

    def get(auth: str | None) -> tuple[int, str]:
        request = urllib.request.Request(server.url + "/metrics")
        if auth is not None:
            request.add_header("Authorization", auth)
        try:
            with urllib.request.urlopen(request) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()

    for auth in (None, "Bearer wrong", "Bearer s3cret-scrape-and-more", "s3cret-scrape"):
        status, body = get(auth)
        assert status == 401 and "unauthorized" in body and "s3cret" not in body, auth
    status, body = get("Bearer s3cret-scrape")
    assert status == 200 and "sh_actions_total" in body
