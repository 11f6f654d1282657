"""What a request tells about a person asking for a rated seat (docs/competitive.md "Rated
seats"): her standing, read from the database, and where she asks from (her address and device,
hashed: ``competition/eligibility.py``). The lobby's routes ask it before they call a use-case.

On a cluster a lobby request may be made by the table's owner for another node
(``cluster/forward.py``): the client's cookies stay on the node she reached, so that node sends
her device id along (``DEVICE_STATE``) and the owner reads it from there.
"""

from __future__ import annotations

import time

from fastapi import Request

from ..competition.eligibility import (
    DEVICE_COOKIE,
    RatedEntry,
    RatedRules,
    admission,
    hashing_key,
    refusal,
    standing,
)
from ..core.guard import client_address

#: The request state's key of a forwarded request's device id (cluster/forward.py).
DEVICE_STATE = "device"


def device_id(request: Request) -> str | None:
    """The browser's device id: its ``sh_device`` cookie, or what the node that forwarded the
    request read from it."""
    if request.scope.get("sh_forwarded"):
        value = getattr(request.state, DEVICE_STATE, None)
        return value if isinstance(value, str) else None
    return request.cookies.get(DEVICE_COOKIE)


async def rated_entry(request: Request, user_id: str) -> RatedEntry:
    """Where ``user_id`` asks from and whether her standing allows a rated seat now."""
    hub = request.app.state.hub
    now = time.time()
    found = await hub.store.read(standing(user_id, now))
    key = hashing_key(hub.settings.signing_secret())
    where = admission(
        key,
        client_address(request.client),
        device_id(request),
        request.headers.get("user-agent", ""),
    )
    return RatedEntry(where, refusal(found, RatedRules.of(hub.settings), now))
