"""Migration 0007 (usernames keyed by the new skeleton: Unicode's confusables data) on SQLite and
PostgreSQL: accounts made at 0006 with the old keys sign in after the upgrade, among them two
whose usernames only the new skeleton finds alike, and a look-alike cannot be claimed any more."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher
from migration_support import database_at
from server_support import HttpError, http, session

# username, the key 0006 stored (the old skeleton's), password
ACCOUNTS = [
    ("Alice", "alice", "alice password"),
    ("Aʟice", "aʟice", "small capital"),  # alike to Alice now: the newer account
    ("mom", "mom", "mom password"),  # its key changes (m is rn in the confusables data)
]


def _store_at_0006(engine: sa.Engine) -> None:
    meta = sa.MetaData()
    meta.reflect(engine)
    hasher = PasswordHasher()
    now = time.time()
    with engine.begin() as conn:
        conn.execute(
            meta.tables["users"].insert(),
            [
                {
                    "id": f"u_{i}",
                    "name": name,
                    "created_at": now + i,
                    "username": name,
                    "username_key": key,
                    "password_hash": hasher.hash(password),
                }
                for i, (name, key, password) in enumerate(ACCOUNTS)
            ],
        )


@pytest.mark.timeout(120)
def test_upgrade_from_0006_keys_usernames_anew(
    backend: str, tmp_path: Path, make_server: Any, request: Any
) -> None:
    data = tmp_path / "data"
    _, served, _ = database_at(backend, data, request, "0006", _store_at_0006)
    server = make_server(backend, data=data, database_url=served)
    for i, (name, _, password) in enumerate(ACCOUNTS):
        signed = http(server, "POST", "/api/signin", {"username": name, "password": password})
        assert signed["user_id"] == f"u_{i}", name
    # the older of the two alike accounts is found by any look-alike of its name
    signed = http(
        server, "POST", "/api/signin", {"username": "ALICE", "password": "alice password"}
    )
    assert signed["user_id"] == "u_0"
    guest = session(server, "Newcomer")
    with pytest.raises(HttpError) as taken:
        http(server, "POST", "/api/account", {"username": "Ꭺlice", "password": "x" * 8}, guest)
    assert taken.value.code == "username_taken"
