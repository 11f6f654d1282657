"""Table talk on a real server (issue 30): bots speak through the chat path within their
limits, the table's switch silences them, a person's claim line is offered back as a claim and
a question put to a bot by name is answered, and the talk is kept in the downloaded record
(which replays to the same state: talk never changes a replay)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from pathlib import Path
from typing import Any, ClassVar

import pytest
from server_support import Client, Server, ahttp, check_messages, http, session, states
from table_support import WAIT, FakeClock, FakeWriter, Notes, make_table, run, services

from secret_hitler import talk
from secret_hitler.bots import Agent
from secret_hitler.engine import Action, game_from_record
from secret_hitler.server.accounts.auth import User
from secret_hitler.server.core.protocol import Hello
from secret_hitler.server.table import bot_seats
from secret_hitler.server.table import session as table_session
from secret_hitler.server.table.chat import BOT_LINE_GAP, TABLE_LINES_PER_ROUND
from secret_hitler.server.table.conn import Conn
from secret_hitler.server.table.seats import Seat
from secret_hitler.talk import line_from_json
from secret_hitler.talk.said import Said

BOTS = {str(s): "rule" for s in range(1, 5)}
FAST = {"SH_BOT_DELAY": "0.2", "SH_CLAIM_WAIT": "0"}


def _bot_lines(c: Client) -> list[dict[str, Any]]:
    return [
        m["message"] for m in c.messages if m["type"] == "chat" and m["message"]["user_id"] is None
    ]


async def _play_game(server: Server, talk: bool = True) -> tuple[Client, str]:
    host = session(server, "Ada")
    body = {"players": 5, "seat": 0, "bots": BOTS, "timer": 3600, "bots_talk": talk}
    table = await ahttp(server, "POST", "/api/tables", body, host)
    assert table["bots_talk"] is talk
    me = Client(server, host, "Ada")
    await me.connect(table["id"])
    await me.play(random.Random(3), claim_p=0.7, timeout=120)
    await me.close()
    return me, table["id"]


def test_bots_speak_within_their_limits_and_the_record_keeps_the_talk(
    make_server: object,
) -> None:
    server = make_server(**FAST)  # type: ignore[operator]
    me, tid = asyncio.run(_play_game(server))
    lines = _bot_lines(me)
    assert lines, "no bot said a word in a whole game"
    for m in lines:  # a structured line, the message each client renders, an English text
        assert m["seat"] in range(1, 5) and m["name"] == f"Bot {m['seat'] + 1}"
        assert line_from_json(m["line"], players=5).to_json() == m["line"]
        assert m["message"]["key"].startswith("talk.") and m["text"]
    by_seat: dict[int, list[float]] = {}
    for m in lines:
        by_seat.setdefault(m["seat"], []).append(m["ts"])
    for times in by_seat.values():  # the server's own stamps: one line a gap at most
        assert all(b - a >= BOT_LINE_GAP - 0.01 for a, b in zip(times, times[1:], strict=False))
    record = http(server, "GET", f"/api/games/{tid}/record")
    rounds = 1 + sum(1 for a in record["actions"] if a["type"] == "nominate")
    assert len(lines) <= TABLE_LINES_PER_ROUND * rounds
    talk = record["talk"]
    said = [t for t in talk if "line" in t]
    assert [t["line"] for t in said] == [m["line"] for m in lines]
    assert all(t["after"] == m["after"] for t, m in zip(said, lines, strict=True))
    # the talk changed nothing a seat is sent: every update is still exactly its engine view
    assert check_messages(me, record, states(record, [0])) > 0
    fields = {"id", "seat", "user_id", "name", "text", "ts", "after", "line", "message"}
    assert all(set(m) == fields for m in lines)
    bare = {k: v for k, v in record.items() if k not in ("talk", "chat")}
    assert game_from_record(record).to_record() == game_from_record(bare).to_record()


def test_the_switch_silences_the_bots(make_server: object) -> None:
    server = make_server(**FAST)  # type: ignore[operator]
    me, tid = asyncio.run(_play_game(server, talk=False))
    assert _bot_lines(me) == []
    record = http(server, "GET", f"/api/games/{tid}/record")
    assert all("line" not in t for t in record["talk"])


SEED = 3  # the game's seed (the rule bots' too): with the deal below Ada's government is elected


async def _until(pred: Any, what: str) -> None:
    """Until ``pred()``: the rule bots think on the bots' threads, so this waits (bounded)."""
    deadline = time.monotonic() + WAIT
    while not pred():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0.01)


def test_a_claim_line_is_offered_back_and_a_bot_answers_a_question(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fixed deal on the table's clock: Ada (seat 0) is the first president with a hand of
    two fascist policies and a liberal one, and four rule bots elect her government. Her
    "RRB" in the chat is read as her own legal claim and offered back, never made for her; a
    bot she asks "why Ja?" answers her, explaining its vote."""
    monkeypatch.setattr(table_session.secrets, "randbits", lambda bits: SEED)

    async def scenario() -> None:
        writer, clock, notes = FakeWriter(), FakeClock(), Notes()
        seats = [Seat("human", "u0", "Ada")] + [
            Seat("bot", None, f"Bot {i + 1}", "rule") for i in range(1, 5)
        ]
        table = make_table(services(writer, clock, notes, claim_wait=0.0), seats)
        table.fixings = {
            "roles": ["liberal", "liberal", "fascist", "liberal", "hitler"],
            "first_president": 0,
            "deck": ["fascist", "fascist", "liberal"] + ["liberal"] * 5 + ["fascist"] * 9,
        }
        ada = Conn(None, User("u0", "Ada"))
        table.attach(ada)
        async with table.lock:
            table.hello(ada, Hello(type="hello"))
            await table.start_game()
        game = table.game
        assert game is not None and game.seed == SEED and game.candidate == 0
        await table.play(0, {"type": "nominate", "target": 1})
        await table.play(0, {"type": "vote", "ja": True})
        await _until(lambda: game.phase.value != "vote", "the bots voted")
        assert game.phase.value == "discard", "the deal no longer elects Ada's government"
        await table.play(0, {"type": "discard", "policy": "fascist"})
        await _until(lambda: "president_hand" in game.open_claims(0), "her claim window")

        _, claim = await table.chat_line(ada, "RRB")
        assert claim is not None
        assert claim["subject"] == "president_hand" and claim["seat"] == 0
        assert sorted(claim["policies"]) == ["fascist", "fascist", "liberal"]
        assert claim in [a.to_json() for a in game.legal_actions(0)]  # the engine's own
        assert not [a for a in game.actions if a.type == "claim" and a.seat == 0]  # not made

        votes = [a for a in game.actions if a.type == "vote"]
        bot = next(a.seat for a in votes if a.seat != 0 and game.alive[a.seat])
        word = "Ja" if next(a.ja for a in votes if a.seat == bot) else "Nein"
        await table.chat_line(ada, f"Bot {bot + 1}, why {word}?")
        answers: list[dict[str, Any]] = []
        deadline = time.monotonic() + WAIT
        while not answers:  # the bot hears and answers at its next talk pass: move the clock
            assert time.monotonic() < deadline, "the bot never answered"
            clock.advance(0.25)
            table.driver.wake.set()
            await asyncio.sleep(0.01)
            chat = [json.loads(t) for t in _drain(ada)]
            answers += [
                m["message"]
                for m in chat
                if m["type"] == "chat"
                and m["message"]["seat"] == bot
                and (m["message"].get("line") or {}).get("kind") == "answer"
            ]
        await table.close()
        line = answers[0]["line"]
        assert line["to"] == 0 and line["line"]["kind"] == "explain_vote"

    run(scenario)


def test_the_web_clients_talk_fixture_is_what_the_server_says() -> None:
    """tests/web/js/talk_lines.json (the page renders these messages and must get these texts)
    holds what ``talk.message`` and ``talk.render`` give now: one renderer's words, not two."""
    path = Path(__file__).parents[1] / "web" / "js" / "talk_lines.json"
    fixture = json.loads(path.read_text("utf-8"))
    names = fixture["names"]
    for entry in fixture["lines"]:
        msg = entry["message"]
        for lang, text in entry["expect"].items():
            assert talk.render_message(_message(msg), lang, names) == text


def _message(data: dict[str, Any]) -> Any:
    """A ``talk.Message`` from its JSON form (the client's input)."""
    params: dict[str, Any] = {}
    for name, value in (data.get("params") or {}).items():
        if isinstance(value, dict):
            params[name] = talk.SeatRef(value["seat"]) if "seat" in value else _message(value)
        else:
            params[name] = value
    return talk.Message(data["key"], params, data.get("count"))


class _Ear(Agent):
    """A bot that plays its first legal move and keeps what it hears."""

    name = "ear"
    heard: ClassVar[dict[int, list[Said]]] = {}
    told = asyncio.Event()

    def act(self, view: Any, legal: list[Action]) -> Action:
        return legal[0]

    def listen(self, view: Any, said: Any) -> None:
        _Ear.heard.setdefault(self.seat, []).extend(said)
        _Ear.told.set()


async def _ears_table() -> tuple[Any, FakeWriter, Conn]:
    """A started 5-seat table on the test's clock: Ada (seat 0, connected) and four ``_Ear``
    bots (``bot_seats.make_agent`` patched by the test)."""
    _Ear.told = asyncio.Event()
    writer, clock, notes = FakeWriter(), FakeClock(), Notes()
    seats = [Seat("human", "u0", "Ada")] + [
        Seat("bot", None, f"Bot {i + 1}", "ear") for i in range(1, 5)
    ]
    table = make_table(services(writer, clock, notes), seats)
    async with table.lock:
        await table.start_game()
        ada = Conn(None, User("u0", "Ada"))
        table.attach(ada)
        table.hello(ada, Hello(type="hello"))
    return table, writer, ada


def test_a_persons_claim_and_signals_reach_the_bots_as_said(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At a table on the test's clock: a person's "RRB, I trust 3" is read once at the server
    and every bot hears it as her claim and her trust, after the actions played so far."""
    monkeypatch.setattr(bot_seats, "make_agent", lambda level, seat, seed: _Ear(seat))
    _Ear.heard.clear()

    async def scenario() -> None:
        table, _, ada = await _ears_table()
        game = table.game
        assert game is not None and game.phase.value == "nominate"  # everyone may talk
        line, claim = await table.chat_line(ada, "RRB, I trust 3")
        after = line["after"]
        # a bot still thinking hears at a later talk pass, a beat later on the table's clock
        clock, deadline = table.services.clock, time.monotonic() + WAIT
        while not all(_Ear.heard.get(seat) for seat in range(1, 5)):
            assert time.monotonic() < deadline, _Ear.heard
            clock.advance(0.25)
            table.driver.wake.set()
            _Ear.told.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(_Ear.told.wait(), 0.05)
        await table.close()
        expected = [
            talk.Claim("president_hand", ("fascist", "fascist", "liberal")),
            talk.Trust(2, talk.HEDGED),
        ]
        for seat in range(1, 5):
            said = _Ear.heard.get(seat, [])
            assert [s.line for s in said] == expected, (seat, said)
            assert all(s.seat == 0 and s.after == after and s.text is None for s in said)
        # she may make no president's claim now: nothing is offered (never made)
        assert claim is None
        assert not [a for a in game.actions if a.type == "claim"]

    run(scenario)


def test_a_bot_line_the_database_refused_was_never_said(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot's line that cannot be stored reaches nobody: not the clients, not the table's kept
    chat, not the other bots (nothing runs ahead of what is stored); once the database is back
    the next line is stored, sent and heard, with the next id."""
    from secret_hitler.server.storage.writer import StorageUnavailable

    monkeypatch.setattr(bot_seats, "make_agent", lambda level, seat, seed: _Ear(seat))
    _Ear.heard.clear()

    async def scenario() -> None:
        table, writer, ada = await _ears_table()
        while not ada.out.empty():
            ada.out.get_nowait()
        kept, next_id, writes = list(table.chat.lines), table.chat.next_id, _chat_writes(writer)

        writer.fail = StorageUnavailable("the database is unavailable")
        refused = talk.Trust(2, talk.HEDGED)
        assert await table.bot_chat(1, refused) is False
        assert ada.out.empty()  # nothing was sent
        assert list(table.chat.lines) == kept and table.chat.next_id == next_id
        assert _chat_writes(writer) == writes

        writer.fail = None
        said = talk.Accuse(3, talk.HEDGED)
        assert await table.bot_chat(1, said) is True
        await asyncio.wait_for(_Ear.told.wait(), WAIT)
        await table.close()
        sent = [json.loads(t) for t in _drain(ada)]
        chat = [m["message"] for m in sent if m["type"] == "chat"]
        assert [m["line"] for m in chat] == [said.to_json()] and chat[0]["id"] == next_id
        assert _chat_writes(writer) == writes + 1
        assert [line["line"] for line in table.chat.lines if "line" in line][-1:] == [
            said.to_json()
        ]
        for seat in range(2, 5):  # the other bots heard the stored line only
            assert [s.line for s in _Ear.heard.get(seat, [])] in ([], [said])
        assert any(_Ear.heard.get(seat) for seat in range(2, 5))
        assert all(refused not in [s.line for s in h] for h in _Ear.heard.values())

    run(scenario)


def _chat_writes(writer: FakeWriter) -> int:
    return sum(1 for w in writer.writes if "save_chat" in getattr(w, "__qualname__", ""))


def _drain(conn: Conn) -> list[str]:
    out = []
    while not conn.out.empty():
        text = conn.out.get_nowait()
        if text is not None:
            out.append(text)
    return out


@pytest.mark.parametrize("lang", ["en", "ru", "zh-Hans", "zh-Hant", "vi"])
def test_every_kind_of_claim_said_in_the_chat_is_offered_back(lang: str) -> None:
    """A hand (president's, chancellor's), a peek and an investigation, said in the words a bot
    says them in ``lang``, are read by the server as the seat's own legal claim and offered
    back; said by a seat that may not make it, nothing is offered."""
    from secret_hitler.engine import Game
    from secret_hitler.server.table.chat import claim_offer, recognised

    subjects = {"president_hand", "chancellor_hand", "peek", "investigation"}
    offered: set[str] = set()
    for seed in range(60):
        n = (5, 7)[seed % 2]  # a peek at 5 players, investigations at 7
        names = [f"Player {i + 1}" for i in range(n)]
        game = Game(n, "official", seed)
        rng = random.Random(seed)
        while not game.finished and offered != subjects:
            for seat in game.claimants():
                for claim in (a for a in game.legal_actions(seat) if a.type == "claim"):
                    if claim.subject in offered:
                        continue
                    text = talk.render(talk.Claim.from_action(claim), lang, names)
                    offer = claim_offer(game, seat, recognised(game, seat, text, names))
                    assert offer == claim.to_json(), (text, claim)
                    others = [s for s in range(n) if s not in game.claimants()]
                    heard = recognised(game, others[0], text, names)
                    assert claim_offer(game, others[0], heard) is None, text
                    offered.add(claim.subject)
            seat = game.to_act()[0]
            game.apply(rng.choice([a for a in game.legal_actions(seat) if a.type != "claim"]))
        if offered == subjects:
            return
    raise AssertionError(f"claims never open in 60 games: {subjects - offered}")
