"""An external program that plays Secret Hitler on a server over the WebSocket protocol.

It creates a guest session, joins a table (or creates one whose other seats are bots), and plays
with a simple policy until the game is over, then prints the result. Protocol: docs/protocol.md.

    secret-hitler serve &                                   # the server, http://127.0.0.1:8000
    python examples/ws_bot.py --create 5                    # a 5-player game against 4 bots
    python examples/ws_bot.py --table t1AbC2dE              # join a public table
    python examples/ws_bot.py --invite Zk3n9QpA2m           # join a private table

Only the standard library and ``websockets`` are needed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import urllib.error
import urllib.request
from typing import Any

import websockets


class Api:
    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        self.token: str | None = None

    def call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("content-type", "application/json")
        if self.token:
            req.add_header("authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return json.loads(r.read() or b"null")
        except urllib.error.HTTPError as exc:
            error = json.loads(exc.read() or b"{}").get("error", {})
            raise SystemExit(
                f"{method} {path}: {exc.code} {error.get('code')}: {error.get('message')}"
            ) from None


class Policy:
    """A simple policy: play for your party, vote ja most of the time, tell the truth if liberal."""

    def __init__(self, seed: int | None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        kind = legal[0]["type"]
        party = view["party"]
        if kind in ("discard", "enact"):
            # keep your party's policies: discard the other party's, enact your own
            prefer = (
                ("fascist" if party == "liberal" else "liberal") if kind == "discard" else party
            )
            for a in legal:
                if a["type"] == kind and a.get("policy") == prefer:
                    return a
            return next(a for a in legal if a["type"] == kind)
        if kind == "vote":
            known = view["known_roles"]
            nominee = view["nominee"]
            bad = nominee is not None and known[nominee] in ("fascist", "hitler")
            ja = (not bad) if party == "liberal" else True
            if self.rng.random() < 0.2:
                ja = not ja
            return next(a for a in legal if a["ja"] == ja)
        if kind == "veto_response":
            return next(a for a in legal if a["accept"] == (party == "liberal"))
        return self.rng.choice(legal)

    def claims(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Truthful claims about what this seat saw (from its events)."""
        out = []
        events = view.get("events", [])
        truth = {}
        for e in events:
            if e["type"] == "drew":
                truth["president_hand"] = sorted(e["policies"])
            elif e["type"] == "received":
                truth["chancellor_hand"] = sorted(e["policies"])
            elif e["type"] == "peek":
                truth["peek"] = e["policies"]
            elif e["type"] == "investigation":
                truth["investigation"] = (e["target"], e["party"])
        for a in legal:
            subject = a["subject"]
            if subject == "investigation":
                if truth.get("investigation") == (a["target"], a["party"]):
                    out.append(a)
            elif subject == "peek":
                if truth.get("peek") == a["policies"]:
                    out.append(a)
            elif truth.get(subject) == sorted(a["policies"]):
                out.append(a)
        return out


async def play(api: Api, table_id: str, policy: Policy, quiet: bool) -> dict[str, Any]:
    ws_url = api.base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    headers = {"Authorization": f"Bearer {api.token}"}
    async with websockets.connect(ws_url, additional_headers=headers) as ws:
        # acks "update": the ack of an action comes in the update it caused (its "ack")
        await ws.send(json.dumps({"v": 1, "type": "hello", "since": None, "acks": "update"}))
        events: list[dict[str, Any]] = []
        view: dict[str, Any] | None = None
        legal: list[dict[str, Any]] = []
        claimed: set[str] = set()  # claim subjects already claimed in the open windows
        pending: str | None = None  # id of the action awaiting its ack/error
        n = 0
        async for raw in ws:
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "welcome":
                view, legal = msg["view"], msg["legal"]
                events = list(view["events"]) if view else []
                if not quiet:
                    print(f"seat {msg['seat']} at table {table_id} ({msg['table']['status']})")
            elif kind == "update":
                view, legal = msg["view"], msg["legal"]
                events.extend(msg["events"])
                if msg.get("ack") is not None and msg["ack"] == pending:
                    pending = None
                if not quiet:
                    for e in msg["events"]:
                        print("  ", json.dumps(e))
            elif kind == "game_over":
                return msg["record"]
            elif kind in ("ack", "error"):
                # a claim may come too late (its window closed at the next nomination): ignore that
                if kind == "error" and not str(msg["id"]).startswith("c"):
                    print(f"error: {msg['code']}: {msg['message']}", file=sys.stderr)
                if msg["id"] == pending:
                    pending = None
            else:
                continue
            if view is None or pending is not None:
                continue
            full_view = {**view, "events": events}
            claims = [a for a in legal if a["type"] == "claim"]
            claimed &= {a["subject"] for a in claims}
            for claim in policy.claims(
                full_view, [a for a in claims if a["subject"] not in claimed]
            ):
                claimed.add(claim["subject"])
                n += 1
                await ws.send(
                    json.dumps({"v": 1, "type": "action", "id": f"c{n}", "action": claim})
                )
            turn = [a for a in legal if a["type"] != "claim"]
            if turn and view["seat"] in view["to_act"]:
                n += 1
                pending = f"a{n}"
                action = policy.choose(full_view, turn)
                await ws.send(
                    json.dumps({"v": 1, "type": "action", "id": pending, "action": action})
                )
    raise SystemExit("the server closed the connection before the game ended")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--name", default="WsBot")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--table", help="join this public table")
    where.add_argument("--invite", help="join the private table with this invite code")
    where.add_argument(
        "--create", type=int, metavar="PLAYERS", help="create a table; bots fill the other seats"
    )
    parser.add_argument(
        "--level", default=None, help="bot level for the other seats (with --create)"
    )
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)

    api = Api(args.server)
    me = api.call("POST", "/api/session", {"name": args.name})
    api.token = me["token"]
    if args.create:
        level = args.level or api.call("GET", "/api/bots")["default"]
        bots = {str(s): level for s in range(1, args.create)}
        table = api.call("POST", "/api/tables", {"players": args.create, "bots": bots})
    elif args.invite:
        found = api.call("GET", f"/api/invite/{args.invite}")
        table = api.call("POST", f"/api/tables/{found['id']}/join", {"invite": args.invite})
    elif args.table:
        table = api.call("POST", f"/api/tables/{args.table}/join", {})
    else:
        waiting = [t for t in api.call("GET", "/api/tables")["tables"] if t["status"] == "waiting"]
        if not waiting:
            raise SystemExit("no public table is waiting for players; use --create 5")
        table = api.call("POST", f"/api/tables/{waiting[0]['id']}/join", {})
    record = asyncio.run(play(api, table["id"], Policy(args.seed), args.quiet))
    mine = next(i for i, s in enumerate(table["seats"]) if s["user_id"] == me["user_id"])
    result = record["result"]
    print(
        json.dumps(
            {
                "table": table["id"],
                "seat": mine,
                "role": record["roles"][mine],
                "winner": result["winner"],
                "reason": result["reason"],
                "actions": len(record["actions"]),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
