"""The send path (core/sockets.py, table/conn.py, table/fanout.py): frames written straight to
each socket keep their order, are the WebSocket frames the protocol's own library reads, never
wait for a reader, and a peer that stops reading is cut off; on a real server a reader that
stops or a client that vanishes blocks nobody, and a client that asks for it finds the ack of
its action in the update it caused, one frame of the update's length."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from server_support import Client, Server, ahttp, session
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.uri import parse_uri

from secret_hitler.server.accounts.auth import User
from secret_hitler.server.core import sockets
from secret_hitler.server.core.sockets import FrameSink, text_header
from secret_hitler.server.table.conn import Conn


@pytest.mark.parametrize("length", [0, 1, 125, 126, 127, 4096, 65535, 65536, 200_000])
def test_a_frame_header_is_the_one_websockets_writes(length: int) -> None:
    payload = b"x" * length
    frame = Frame(Opcode.TEXT, payload).serialize(mask=False, extensions=[])
    assert text_header(length) + payload == frame


class FakeTransport:
    def __init__(self) -> None:
        self.data = bytearray()
        self.unread = 0  # bytes the peer has not read (what the transport still holds)
        self.aborted = False
        self.closing = False

    def write(self, data: bytes) -> None:
        self.data += data
        self.unread += len(data)

    def get_write_buffer_size(self) -> int:
        return self.unread

    def is_closing(self) -> bool:
        return self.closing or self.aborted

    def abort(self) -> None:
        self.aborted = True

    def close(self) -> None:
        self.closing = True

    def resume_reading(self) -> None:
        pass


class FakeProtocol:
    """What ``FrameSink`` uses of uvicorn's protocol, on a websockets protocol that is open."""

    def __init__(self) -> None:
        self.transport = FakeTransport()
        self.conn = ServerProtocol(state=State.OPEN)
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.close_sent = False
        self.disconnected = False
        self.read_paused = False
        self.close_timeout = 10.0
        self.close_timer: Any = None
        self.loop = asyncio.get_running_loop()


def _read(data: bytes) -> list[Frame]:
    """The frames a client reads from these bytes (websockets' own parser)."""
    client = ClientProtocol(parse_uri("ws://server/"), state=State.OPEN)
    client.receive_data(data)
    return [e for e in client.events_received() if isinstance(e, Frame)]


def test_frames_go_out_in_order_and_a_close_comes_after_them() -> None:
    async def scenario() -> None:
        proto = FakeProtocol()
        conn = Conn(None, User("u0", "Ada"), sink=FrameSink(proto))
        texts = [json.dumps({"n": i, "pad": " " * (i * 97 % 300)}).encode() for i in range(50)]
        for text in texts:
            conn.send(text)
        conn.close(4403)
        conn.send(b'{"late":true}')  # after the close: never written
        frames = _read(bytes(proto.transport.data))
        assert [f.data for f in frames if f.opcode is Opcode.TEXT] == texts
        assert frames[-1].opcode is Opcode.CLOSE
        assert proto.queue.get_nowait() == {  # the app's receive loop ends
            "type": "websocket.disconnect",
            "code": 4403,
            "reason": "",
        }
        proto.close_timer.cancel()

    asyncio.run(scenario())


def test_a_peer_that_stops_reading_is_cut_off_without_waiting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sockets, "SEND_BUFFER_MAX", 10_000)

    async def scenario() -> None:
        slow, quick = FakeProtocol(), FakeProtocol()
        conns = [Conn(None, None, sink=FrameSink(p)) for p in (slow, quick)]
        frame = b'{"type":"update"' + b" " * 1000 + b"}"
        for _ in range(30):  # nothing here awaits: a send never waits for a reader
            for c in conns:
                c.send(frame)
            quick.transport.unread = 0  # this peer reads everything
        assert slow.transport.aborted and conns[0].closed
        assert len(_read(bytes(slow.transport.data))) == 10  # what it had room for, whole
        assert not quick.transport.aborted and not conns[1].closed
        assert len(_read(bytes(quick.transport.data))) == 30

    asyncio.run(scenario())


# ---------------------------------------------------------------------- on a real server
async def _hello(client: Client, table_id: str, acks: str) -> None:
    await client.connect(table_id, hello=False)
    await client.send({"v": 1, "type": "hello", "since": None, "acks": acks})
    await client.recv_until(lambda m: m["type"] == "welcome")


def test_a_stalled_or_vanished_reader_blocks_nobody_and_acks_ride_in_updates(
    server: Server,
) -> None:
    async def scenario() -> None:
        tokens = [session(server, f"P{i}") for i in range(5)]
        table = await ahttp(
            server, "POST", "/api/tables", {"players": 5, "auto_start": False}, tokens[0]
        )
        tid = table["id"]
        players = [Client(server, tok, f"seat{i}") for i, tok in enumerate(tokens)]
        await _hello(players[0], tid, "update")
        for tok in tokens[1:]:
            await ahttp(server, "POST", f"/api/tables/{tid}/join", {}, tok)
        for i, c in enumerate(players[1:], start=1):
            await _hello(c, tid, "update" if i % 2 == 0 else "message")
        # a spectator whose client stops reading after its welcome, one who vanishes
        stalled, vanished = Client(server, None, "stalled"), Client(server, None, "vanished")
        await stalled.connect(tid)
        await vanished.connect(tid)
        stalled.ws.transport.pause_reading()  # reads nothing more
        await ahttp(server, "POST", f"/api/tables/{tid}/start", {}, tokens[0])
        rng = random.Random(7)
        await players[0].recv_until(lambda m: m["type"] == "update")
        vanished.ws.transport.abort()  # gone without a close
        await asyncio.gather(*(c.play(random.Random(rng.random()), claim_p=0.3) for c in players))
        for c in players:  # every update, in order (Client checks the seq), then the record
            updates = [m for m in c.messages if m["type"] == "update"]
            assert [m["seq"] for m in updates] == list(range(1, len(updates) + 1))
            assert c.record is not None
        lengths = {s: {c.update_sizes[s] for c in players} for s in players[0].update_sizes}
        assert all(len(sizes) == 1 for sizes in lengths.values())  # acked frames too
        for i, c in enumerate(players):
            acks = [m["id"] for m in c.messages if m["type"] == "ack" and m["id"] in c.sent]
            acked = [m for m in c.messages if m["type"] == "update" and "ack" in m]
            refused = {m["id"] for m in c.messages if m["type"] == "error"}
            answered = acks + [m["ack"] for m in acked]
            assert len(answered) == len(set(answered))  # each action acknowledged once
            assert set(answered) <= set(c.sent) - refused
            assert all(m["action"]["seat"] == i for m in acked)  # in its own moves' updates
            if i % 2 == 0:  # its actions' acks are in their updates, and nowhere else
                assert acked and not acks
            else:
                assert acks and not acked
        await asyncio.gather(*(c.close() for c in [*players, stalled]))

    asyncio.run(scenario())


def _client_frame(opcode: Opcode, payload: bytes, fin: bool = True) -> bytes:
    """A frame as a client sends it (masked, RFC 6455 5.3)."""
    return Frame(opcode, payload, fin=fin).serialize(mask=True, extensions=[])


def test_messages_sent_together_are_answered_in_order_whatever_their_frames(
    server: Server,
) -> None:
    """A client's messages, written to the socket at once in every kind of frame (small and
    long, fragmented), are each answered, in the order they were sent, a ping in their midst
    disturbing none of them."""

    async def scenario() -> None:
        token = session(server, "Framer")
        table = await ahttp(
            server, "POST", "/api/tables", {"players": 5, "auto_start": False}, token
        )
        client = Client(server, token, "framer")
        await _hello(client, table["id"], "update")

        def message(n: int, size: int = 0) -> bytes:  # answered by an error naming its id
            return json.dumps({"v": 1, "type": "nope", "id": f"m{n}", "x": "x" * size}).encode()

        frames = [
            _client_frame(Opcode.TEXT, message(1)),
            _client_frame(Opcode.TEXT, message(2)),
            _client_frame(Opcode.TEXT, message(3, 300)),  # a longer frame
            _client_frame(Opcode.TEXT, message(4)),
            _client_frame(Opcode.PING, b"beat"),
            _client_frame(Opcode.TEXT, message(5)),
            _client_frame(Opcode.TEXT, message(6)[:10], fin=False),  # a fragmented message
            _client_frame(Opcode.CONT, message(6)[10:]),
            _client_frame(Opcode.TEXT, message(7)),
        ]
        client.ws.transport.write(b"".join(frames))
        answered = [
            (await client.recv_until(lambda m: m["type"] == "error"))["id"] for _ in range(7)
        ]
        assert answered == [f"m{n}" for n in range(1, 8)]
        await asyncio.wait_for(await client.ws.ping(), 10)  # (the connection still answers)
        await client.close()

    asyncio.run(scenario())
