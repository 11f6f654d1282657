"""WebSocket protocol version 1 (docs/protocol.md): client message models and server messages."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from ... import jsontext
from .text import brief, has_lone_surrogate, safe_message

VERSION = 1


class ProtocolError(Exception):
    """A refused client message: ``code`` is the stable error code of docs/protocol.md."""

    def __init__(self, code: str, message: str, detail: Any = None, id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = detail
        self.id = id


class _Msg(BaseModel):
    model_config = ConfigDict(extra="ignore")
    v: Literal[1] = 1


class Hello(_Msg):
    type: Literal["hello"]
    since: Annotated[StrictInt, Field(ge=0)] | None = None
    chat_since: Annotated[StrictInt, Field(ge=0)] | None = None
    # Where the client reads the acknowledgement of its actions: "update", in the update the
    # action caused (its ``ack``: the message id), one frame fewer per action; "message" (the
    # default), in an ``ack`` message after it.
    acks: Literal["message", "update"] = "message"


class ActionMsg(_Msg):
    type: Literal["action"]
    id: Annotated[StrictStr, Field(max_length=64)] | None = None
    action: dict[str, Any]


class ChatMsg(_Msg):
    type: Literal["chat"]
    id: Annotated[StrictStr, Field(max_length=64)] | None = None
    text: StrictStr
    # The language the sender's page shows (talk.LANGUAGES): the recogniser reads the line in it
    # and in the table's languages (Vietnamese typed without its marks, issue 39).
    lang: Literal["en", "zh-Hans", "zh-Hant", "ru", "vi"] | None = None


class Ping(_Msg):
    type: Literal["ping"]


ClientMessage = Hello | ActionMsg | ChatMsg | Ping
_MODELS: dict[str, type[_Msg]] = {
    "hello": Hello,
    "action": ActionMsg,
    "chat": ChatMsg,
    "ping": Ping,
}


def parse_client(text: str, max_bytes: int) -> ClientMessage:
    """Parse one client frame or raise ``ProtocolError`` (nothing else)."""
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise ProtocolError("message_too_large", f"a message may have at most {max_bytes} bytes")
    try:
        data = jsontext.loads(text)
    except jsontext.BadJson:
        raise ProtocolError("bad_json", "the message is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "a message must be a JSON object")
    if "\\u" in text and _lone_surrogate(data):
        raise ProtocolError("bad_json", "the message has a lone surrogate (\\ud800-\\udfff)")
    raw_id = data.get("id")
    msg_id = raw_id if isinstance(raw_id, str) and len(raw_id) <= 64 else None
    if "v" in data and data["v"] != VERSION:
        raise ProtocolError(
            "unsupported_version",
            f"protocol version {brief(data['v'])} is not supported; use 1",
            id=msg_id,
        )
    kind = data.get("type")
    model = _MODELS.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise ProtocolError(
            "unknown_type",
            f"unknown message type {brief(kind)}; expected one of {', '.join(_MODELS)}",
            id=msg_id,
        )
    try:
        return model.model_validate(data)  # type: ignore[return-value]
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err.get("loc", ())) or "message"
        raise ProtocolError(
            "bad_message", f"{where}: {err.get('msg', 'invalid')}", id=msg_id
        ) from None


def _lone_surrogate(data: dict[str, Any]) -> bool:
    """A ``\\udXXX`` escape without its pair decodes to a string that cannot be sent back."""
    try:
        return has_lone_surrogate(json.dumps(data, ensure_ascii=False))
    except (ValueError, RecursionError):
        return True


# ---------------------------------------------------------------------- server messages
#: orjson: compact UTF-8 JSON, several times faster than ``json``; keys that are not strings
#: are written as strings, as ``json`` writes them.
_ORJSON = orjson.OPT_NON_STR_KEYS


def encode(msg: Any) -> bytes:
    """A server message as the UTF-8 bytes of its frame (compact JSON)."""
    return orjson.dumps(msg, option=_ORJSON)


def dumps(msg: dict[str, Any]) -> str:
    """A server message as text (``encode``, decoded)."""
    return orjson.dumps(msg, option=_ORJSON).decode()


def error(code: str, message: str, id: str | None = None, detail: Any = None) -> dict[str, Any]:
    return {
        "v": VERSION,
        "type": "error",
        "id": id,
        "code": code,
        "message": safe_message(message),
        "detail": detail,
    }


def from_exc(exc: ProtocolError) -> dict[str, Any]:
    return error(exc.code, exc.message, exc.id, exc.detail)


def ack(
    id: str | None, seq: int | None = None, claim: dict[str, Any] | None = None
) -> dict[str, Any]:
    """``claim``: a chat line's ack names the engine claim the line was read as (issue 30)."""
    out = {"v": VERSION, "type": "ack", "id": id, "seq": seq}
    if claim is not None:
        out["claim"] = claim
    return out


def pong() -> dict[str, Any]:
    return {"v": VERSION, "type": "pong"}


def table_msg(table: dict[str, Any]) -> dict[str, Any]:
    return {"v": VERSION, "type": "table", "table": table}


def chat_msg(message: dict[str, Any]) -> dict[str, Any]:
    return {"v": VERSION, "type": "chat", "message": message}


def game_over(record: dict[str, Any]) -> dict[str, Any]:
    return {"v": VERSION, "type": "game_over", "record": record}


def resumed(since: int, seq: int, table: dict[str, Any]) -> dict[str, Any]:
    return {"v": VERSION, "type": "resumed", "since": since, "seq": seq, "table": table}
