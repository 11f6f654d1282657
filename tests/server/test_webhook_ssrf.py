"""Webhooks cannot be turned against the server's own network (docs/security.md "Webhooks"):
private, loopback, link-local, multicast and reserved addresses are refused when the URL is set
and again when a POST is sent (after the host name is resolved), unless the operator allows them
(``SH_WEBHOOK_ALLOW_PRIVATE``); redirects are not followed."""

from __future__ import annotations

import asyncio
import logging
import socket
from typing import Any

import pytest
from server_support import HttpError, Server, http, session
from test_play_by_post import Receiver, receiver  # noqa: F401 (the fixture)

from secret_hitler.server.lobby.webhooks import Webhooks, check_url

REFUSED = [
    "http://127.0.0.1:8000/hook",
    "http://127.1/hook",
    "http://0x7f000001/hook",
    "http://10.1.2.3/hook",
    "http://192.168.0.10/hook",
    "http://172.16.5.4/hook",
    "http://100.64.0.1/hook",
    "http://169.254.169.254/latest/meta-data",
    "http://0.0.0.0/hook",
    "http://224.0.0.1/hook",
    "http://240.0.0.1/hook",
    "http://255.255.255.255/hook",
    "http://[::1]/hook",
    "http://[fe80::1]/hook",
    "http://[fc00::1]/hook",
    "http://[ff02::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://[2002:7f00:1::]/hook",  # 6to4 around 127.0.0.1
    "http://[fec0::1]/hook",  # site-local (deprecated; is_global says yes)
    "http://[fec0:0:0:ffff::1]/hook",
    "http://[feff::1]/hook",  # the top of fec0::/10
    "http://[64:ff9b::7f00:1]/hook",  # NAT64 around 127.0.0.1
    "http://[2001:db8::1]/hook",  # documentation
    "http://198.18.0.1/hook",  # benchmarking
    "http://192.0.0.1/hook",  # IETF protocol assignments
    # in IANA's special-purpose registries, yet ``is_global`` in Python 3.11 (issue 37 point 7)
    "http://[3fff::1]/hook",  # documentation (RFC 9637)
    "http://[3fff:fff:ffff::1]/hook",  # the top of 3fff::/20
    "http://192.88.99.1/hook",  # 6to4 relay anycast
    "http://192.0.0.9/hook",  # PCP anycast
    "http://192.31.196.1/hook",  # AS112
    "http://192.52.193.1/hook",  # AMT
    "http://192.175.48.1/hook",  # AS112 direct delegation
    "http://[2620:4f:8000::1]/hook",  # AS112 direct delegation
    "http://[2001:1::1]/hook",  # PCP anycast
    "http://[2001:20::1]/hook",  # ORCHIDv2
    "http://[2002:808:808::1]/hook",  # 6to4, even around a public address
    "http://localhost:8000/hook",
    "https://LOCALHOST./hook",
    "http://api.localhost/hook",
]


@pytest.mark.timeout(60)
def test_private_webhook_addresses_are_refused_with_their_own_code(server: Server) -> None:
    tok = session(server, "Ann")
    for url in REFUSED:
        with pytest.raises(HttpError) as info:
            http(server, "POST", "/api/tables", {"players": 5, "webhook": url}, token=tok)
        err = info.value.body["error"]
        assert (info.value.status, err["code"], err["field"]) == (400, "webhook_private", "webhook")
        assert url[7:30] not in err["message"]  # the URL is not echoed
    t = http(server, "POST", "/api/tables", {"players": 5}, token=tok)["id"]
    with pytest.raises(HttpError) as info:
        http(server, "PATCH", f"/api/tables/{t}", {"webhook": "http://10.0.0.1/x"}, token=tok)
    assert info.value.code == "webhook_private"
    assert http(server, "GET", f"/api/tables/{t}")["webhook"] is False  # nothing changed
    public = (
        "https://8.8.8.8/hook",
        "https://[2606:4700:4700::1111]/hook",
        "https://[2a00:1450::1]/x",
    )
    for url in (*public, "https://hooks.example.org/services/T0/B0"):
        detail = http(server, "PATCH", f"/api/tables/{t}", {"webhook": url}, token=tok)
        assert detail["webhook"] is True


@pytest.mark.timeout(60)
def test_an_operator_may_allow_private_addresses(make_server: Any) -> None:
    server: Server = make_server(SH_WEBHOOK_ALLOW_PRIVATE="1")
    tok = session(server, "Ann")
    for url in ("http://127.0.0.1:9/hook", "http://[::1]/hook", "http://localhost/hook"):
        t = http(server, "POST", "/api/tables", {"players": 5, "webhook": url}, token=tok)
        assert t["webhook"] is True
        http(server, "POST", f"/api/tables/{t['id']}/leave", token=tok)  # under the table limit


def test_the_check_without_a_server() -> None:
    assert check_url("http://10.0.0.1/", allow_private=True) == "http://10.0.0.1/"
    assert check_url("https://example.org/hook") == "https://example.org/hook"


class _Table:
    """What ``Webhooks`` needs of a table to send: its log."""

    id = "tunit"
    log = logging.getLogger("test.webhooks")


def _resolving(monkeypatch: pytest.MonkeyPatch, name: str, address: str) -> None:
    """``name`` resolves to ``address`` (as a DNS answer an attacker controls would)."""
    real = asyncio.base_events.BaseEventLoop.getaddrinfo

    async def fake(self: Any, host: Any, port: Any, *args: Any, **kw: Any) -> Any:
        if host == name:
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]
        return await real(self, host, port, *args, **kw)

    monkeypatch.setattr(asyncio.base_events.BaseEventLoop, "getaddrinfo", fake)


@pytest.mark.timeout(30)
def test_a_name_that_resolves_to_a_private_address_is_refused_when_sending(
    monkeypatch: pytest.MonkeyPatch,
    receiver: Receiver,  # noqa: F811
    caplog: pytest.LogCaptureFixture,
) -> None:
    name = "hooks.attacker.example"
    _resolving(monkeypatch, name, "127.0.0.1")
    port = receiver.url.rsplit(":", 1)[1]
    url = f"http://{name}:{port}/ok"
    assert check_url(url) == url  # a name passes when it is set: it is checked at each POST

    async def send(allow: bool, target: str) -> Webhooks:
        hooks = Webhooks(5.0, allow_private=allow)
        await hooks._send(_Table(), target, {"event": "turn"})  # type: ignore[arg-type]
        await hooks.close()
        return hooks

    with caplog.at_level(logging.WARNING, "test.webhooks"):
        refused = asyncio.run(send(False, url))
    assert (refused.sent, refused.failed) == (0, 1) and receiver.bodies == []
    assert any(getattr(r, "error", None) == "webhook_private" for r in caplog.records)
    assert all(name not in r.getMessage() for r in caplog.records)

    allowed = asyncio.run(send(True, url))  # the operator allows it: the checked address is
    assert (allowed.sent, allowed.failed) == (1, 0)  # reached, under the URL's own host name
    assert [(b["_path"], b["_host"]) for b in receiver.bodies] == [("/ok", f"{name}:{port}")]

    redirected = asyncio.run(send(True, receiver.url + "/redirect"))
    assert (redirected.sent, redirected.failed) == (0, 1)
    assert [b["_path"] for b in receiver.bodies] == ["/ok", "/redirect"]  # not followed


@pytest.mark.timeout(30)
def test_a_name_that_resolves_to_a_site_local_address_is_refused_when_sending(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """fec0::/10 passes ``is_global``; every special-purpose property is checked."""
    name = "hooks.sitelocal.example"
    _resolving(monkeypatch, name, "fec0::1")

    async def send() -> Webhooks:
        hooks = Webhooks(5.0)
        await hooks._send(_Table(), f"https://{name}/hook", {"event": "turn"})  # type: ignore[arg-type]
        await hooks.close()
        return hooks

    with caplog.at_level(logging.WARNING, "test.webhooks"):
        refused = asyncio.run(send())
    assert (refused.sent, refused.failed) == (0, 1)
    assert [getattr(r, "error", None) for r in caplog.records] == ["webhook_private"]
