"""The answer format: the JSON schema a model is given, and the reading of what it sends back.

A decision is ``{"action": A}`` where ``A`` is one of the seat's legal actions in the engine's
own JSON (``Action.to_json`` without the seat: ``{"type": "vote", "ja": true}``), with
``"say"`` (a chat line or null) and ``"beliefs"`` (each other seat's team) when they are asked
for. Claims are ``{"claims": [C, ...]}``. The schemas use ``enum`` for every value, so a server
with structured output (``response_format`` ``json_schema``) can only produce legal actions;
without it the reader accepts plain JSON, JSON in a code fence or wrapped in prose, or the
action object alone, and checks it against the legal list. A problem is an ``AnswerError``
whose ``kind`` is ``malformed`` (no JSON, or not an action) or ``illegal`` (an action that was
not offered).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from .. import jsontext
from ..engine import Action
from ..engine import actions as A
from ..engine.errors import InvalidAction

TEAMS = ("liberal", "fascist")
_HANDS = frozenset({A.CLAIM_PRESIDENT_HAND, A.CLAIM_CHANCELLOR_HAND})
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)


class AnswerError(ValueError):
    """A model's answer that cannot be played; ``kind``: ``malformed`` or ``illegal``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    say: str | dict[str, Any] | None = None  # plain text, or a talk line's JSON form
    beliefs: dict[int, str] | None = None  # seat -> "liberal" | "fascist"


# ---------------------------------------------------------------------------------- schemas


def _fields(action: Action) -> dict[str, Any]:
    out = action.to_json()
    del out["seat"]
    return out


def _closed(properties: dict[str, Any]) -> dict[str, Any]:
    """An object schema with every property required and nothing else (strict mode)."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def actions_schema(legal: Sequence[Action]) -> dict[str, Any]:
    """One schema that admits exactly ``legal`` (as action objects without the seat): per
    action type an object of ``enum`` fields when the type's actions are every combination of
    their field values (votes, targets, policies), else one object per action."""
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for action in legal:
        fields = _fields(action)
        key = (fields["type"], *fields)  # by type and shape (claims differ by subject)
        groups.setdefault(key, []).append(fields)
    variants: list[dict[str, Any]] = []
    for key, items in groups.items():
        names = [k for k in key[1:] if k != "type"]
        values = {n: _unique([i[n] for i in items]) for n in names}
        combos = math.prod(len(values[n]) for n in names)
        if combos == len(items) and _all_combos(items, names, values):
            kind = items[0]["type"]
            variants.append(
                _closed({"type": {"enum": [kind]}} | {n: {"enum": values[n]} for n in names})
            )
        else:
            variants.extend(_closed({k: {"enum": [v]} for k, v in item.items()}) for item in items)
    return variants[0] if len(variants) == 1 else {"anyOf": variants}


def _unique(values: list[Any]) -> list[Any]:
    out: list[Any] = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


def _all_combos(
    items: list[dict[str, Any]], names: list[str], values: dict[str, list[Any]]
) -> bool:
    present = [[i[n] for n in names] for i in items]
    return all(list(c) in present for c in product(*(values[n] for n in names)))


def decision_schema(
    legal: Sequence[Action], *, say: bool = False, beliefs: Sequence[int] = ()
) -> dict[str, Any]:
    """The schema of a decision: the action, and ``say``/``beliefs`` when asked for."""
    properties: dict[str, Any] = {"action": actions_schema(legal)}
    if say:
        properties["say"] = {"type": ["string", "null"]}
    if beliefs:
        properties["beliefs"] = _closed({str(s): {"enum": list(TEAMS)} for s in beliefs})
    return _closed(properties)


def claims_schema(options: Sequence[Action]) -> dict[str, Any]:
    """The schema of a claims answer: a list of the offered claims (possibly empty)."""
    return _closed({"claims": {"type": "array", "items": actions_schema(options)}})


# ---------------------------------------------------------------------------------- reading


def extract_json(text: str) -> Any:
    """The JSON object in a model's text: the whole text, else a fenced block, else the first
    ``{...}`` that parses (prose around it ignored); ``<think>`` sections are skipped."""
    text = _THINK.sub("", text).strip()
    try:
        return jsontext.loads(text)
    except jsontext.BadJson:
        pass
    for block in _FENCE.findall(text):
        try:
            return jsontext.loads(block.strip())
        except jsontext.BadJson:
            continue
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except (ValueError, RecursionError):
            continue
        if isinstance(value, dict):
            return value
    raise AnswerError("malformed", "the answer holds no JSON object")


def _action(raw: Any, seat: int, offered: Sequence[Action]) -> Action:
    if not isinstance(raw, dict):
        raise AnswerError("malformed", "the action must be a JSON object")
    data = dict(raw)
    data["seat"] = seat  # a model acts for its own seat only
    try:
        action = Action.from_json(data)
    except InvalidAction as exc:
        raise AnswerError("malformed", exc.message) from None
    match = _match(action, offered)
    if match is None:
        shown = json.dumps(_fields(action), ensure_ascii=False)[:200]
        raise AnswerError("illegal", f"{shown} is not one of the legal actions")
    return match


def _match(action: Action, offered: Sequence[Action]) -> Action | None:
    """The offered action ``action`` means; a hand claim's policies in any order."""
    for a in offered:
        if a == action:
            return a
    if action.type == A.CLAIM and action.subject in _HANDS and action.policies is not None:
        said = sorted(action.policies)
        for a in offered:
            if (
                a.subject == action.subject
                and a.policies is not None
                and sorted(a.policies) == said
            ):
                return a
    return None


def read_decision(
    text: str, seat: int, legal: Sequence[Action], *, beliefs: Sequence[int] = ()
) -> Decision:
    """The decision in a model's text, checked against ``legal``; ``AnswerError`` otherwise.
    A missing or bad ``say`` or ``beliefs`` is dropped, never a reason to refuse the action."""
    data = extract_json(text)
    if not isinstance(data, dict):
        raise AnswerError("malformed", "the answer must be a JSON object")
    raw = data.get("action", data if "type" in data else None)
    if raw is None:
        raise AnswerError("malformed", 'the answer has no "action"')
    action = _action(raw, seat, legal)
    say = data.get("say")
    if isinstance(say, str):
        say = say.strip() or None
    elif not isinstance(say, dict):
        say = None
    return Decision(action, say, _beliefs(data.get("beliefs"), beliefs))


def _beliefs(raw: Any, seats: Sequence[int]) -> dict[int, str] | None:
    if not seats or not isinstance(raw, dict):
        return None
    out: dict[int, str] = {}
    for s in seats:
        team = raw.get(str(s))
        if isinstance(team, str) and team.lower() in TEAMS:
            out[s] = team.lower()
    return out if len(out) == len(seats) else None


def read_claims(text: str, seat: int, options: Sequence[Action]) -> list[Action]:
    """The claims in a model's text, each one of ``options``, at most one per subject."""
    data = extract_json(text)
    raw = data.get("claims") if isinstance(data, dict) else None
    if not isinstance(raw, list):
        raise AnswerError("malformed", 'the answer has no "claims" list')
    out: list[Action] = []
    subjects: set[tuple[Any, ...]] = set()
    for item in raw[:8]:
        claim = _action(item, seat, options)
        key = (claim.subject, claim.target if claim.subject == A.CLAIM_INVESTIGATION else None)
        if key not in subjects:
            subjects.add(key)
            out.append(claim)
    return out


__all__ = [
    "TEAMS",
    "AnswerError",
    "Decision",
    "actions_schema",
    "claims_schema",
    "decision_schema",
    "extract_json",
    "read_claims",
    "read_decision",
]
