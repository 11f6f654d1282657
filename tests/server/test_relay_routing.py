"""An edge node hands each frame the owner publishes on a recipient's channel to the relayed
connections of that recipient alone (cluster/relay.py: an index by table and key, kept as the
owner says which recipient a connection is and when it is welcomed), and subscribes to exact
channels, never patterns."""

from __future__ import annotations

import asyncio
from typing import Any

from secret_hitler.server.accounts.auth import User
from secret_hitler.server.cluster.relay import Proxy, Relay, table_channels
from secret_hitler.server.table.conn import Conn


class _Cluster:
    node = "edge"

    def publish(self, channel: str, payload: Any) -> None:
        pass


def _drain(conn: Conn) -> list[str]:
    out = []
    while not conn.out.empty():
        text = conn.out.get_nowait()
        if text is not None:
            out.append(text)
    return out


def test_a_frame_reaches_the_welcomed_connections_of_its_recipient_only() -> None:
    async def scenario() -> None:
        relay = Relay(_Cluster())  # type: ignore[arg-type]
        seat0, seat3, watcher = (Conn(None, User(f"u{i}", f"P{i}")) for i in range(3))
        other_table = Conn(None, User("u9", "P9"))
        proxies = [
            Proxy(relay, "c0", "t1", "owner", seat0),
            Proxy(relay, "c3", "t1", "owner", seat3),
            Proxy(relay, "cw", "t1", "owner", watcher),
            Proxy(relay, "cx", "t2", "owner", other_table),
        ]
        for p, key in zip(proxies, ["0", "3", "spec", "0"], strict=True):
            relay.proxies[p.cid] = p
            p.from_owner(b"k" + key.encode())
        relay.on_table("t1", "0", b'{"early":true}')  # before the welcome: nobody
        for p in proxies[:3]:
            p.from_owner(b'r{"type":"welcome"}')
        relay.on_table("t1", "0", b'{"seat":0}')
        relay.on_table("t1", "spec", b'{"seat":null}')
        assert _drain(seat0) == ['{"type":"welcome"}', '{"seat":0}']
        assert _drain(seat3) == ['{"type":"welcome"}']
        assert _drain(watcher) == ['{"type":"welcome"}', '{"seat":null}']
        assert _drain(other_table) == []  # another table's seat 0, not welcomed
        proxies[2].from_owner(b"k3")  # the watcher took seat 3
        relay.on_table("t1", "spec", b'{"seat":null}')
        relay.on_table("t1", "3", b'{"seat":3}')
        assert _drain(watcher) == ['{"seat":3}'] and _drain(seat3) == ['{"seat":3}']
        relay._listen(proxies[1], False)  # its socket ended
        relay.on_table("t1", "3", b'{"seat":3}')
        assert _drain(seat3) == [] and _drain(watcher) == ['{"seat":3}']

    asyncio.run(scenario())


def test_an_edge_subscribes_to_every_recipient_channel_of_a_table_by_name() -> None:
    channels = table_channels("t1")
    assert not any("*" in c for c in channels)
    assert {"sh:t:t1:0", "sh:t:t1:9", "sh:t:t1:spec", "sh:t:t1:specm"} <= set(channels)
