"""Saying a talk line in words, in each of the five languages.

A line becomes a ``Message`` (``message(line)``): a catalog key and its parameters, where a
parameter is a number, a seat (``SeatRef``) or another message (a reason, a hand of cards).
The catalogs are ``phrases/<lang>.json``, in the web client's format (flat
``{"key": "text with {param}"}``, plurals as ``key#one``/``#few``/``#many``/``#other`` chosen
by the CLDR rules), so the client renders a message with its own ``t``/``tn`` and its own seat
names, and ``render`` here does the same for language-model prompts, logs and text exports.

Wording varies: a key family ``talk.accuse.hedged`` has members ``.0``, ``.1``, ...; a line's
``variant`` picks one (modulo the family's size, the same in every language), so every reader
sees the same sentence in his own language.

A family's member is a sentence: its first letter is a capital ("Số 3 là Phát xít.", "Đỏ đỏ
xanh"), unless it begins with a person's name, which stands as its owner wrote it. The web
client (``web/static/js/talk.js``) renders by the same rule.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, TypeAlias

from ..engine.types import Policy
from . import lines as talk
from .lines import Line

LANGUAGES = ("en", "zh-Hans", "zh-Hant", "ru", "vi")
REFERENCE = "en"  # the catalog whose key set every other one matches
PLACEHOLDER = re.compile(r"\{(\w+)\}")
_MEMBER = re.compile(r"^(.+)\.(\d+)$")
_LEADING = re.compile(r"^\{(\w+)\}")
_BOT_NAME = re.compile(r"^Bot (\d{1,2})$")  # how the server names bot seats (1-based)


@dataclass(frozen=True, slots=True)
class SeatRef:
    """A seat as a parameter: each reader shows it his way (a name, or ``seat + 1``)."""

    seat: int

    def to_json(self) -> dict[str, int]:
        return {"seat": self.seat}


Param: TypeAlias = "int | str | SeatRef | Message | Listed"


@dataclass(frozen=True, slots=True)
class Listed:
    """Several parameters said as a list, joined by the catalog's ``list.separator`` (", ",
    "、") where it has one, else by ", ": seats, or the words of a hand of policies."""

    items: tuple[Param, ...]

    def to_json(self) -> dict[str, Any]:
        return {"list": [_param_json(item) for item in self.items]}


@dataclass(frozen=True, slots=True)
class Message:
    """A catalog key with its parameters; ``count`` makes it a plural (``key#<category>``)."""

    key: str
    params: Mapping[str, Param] = field(default_factory=dict)
    count: int | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"key", "params"?, "count"?}``; a seat parameter is ``{"seat": n}``, a list
        ``{"list": [...]}``, a nested message its own JSON form."""
        out: dict[str, Any] = {"key": self.key}
        if self.params:
            out["params"] = {name: _param_json(value) for name, value in self.params.items()}
        if self.count is not None:
            out["count"] = self.count
        return out


def _param_json(value: Param) -> Any:
    return value.to_json() if isinstance(value, (SeatRef, Message, Listed)) else value


def _codes(policies: Sequence[Policy]) -> str:
    return "".join("F" if p is Policy.FASCIST else "L" for p in policies)


def _cards(policies: Sequence[Policy], name: str, words: str | None) -> dict[str, Param]:
    """A hand as letters ("RRB", "ККС", "红红蓝") and, for hands (not peeks, whose order
    matters), as words ("two reds and a blue"), so each template picks the form it says."""
    out: dict[str, Param] = {name: Message(f"talk.cards.{_codes(policies)}")}
    if words is not None:
        out[words] = Message(f"talk.hand.{''.join(sorted(_codes(policies)))}")
    return out


def _reason(line: Line, person: str = "") -> Param:
    """The reason of ``line``, of the third person, or of the second (``person`` ``".you"``:
    said to the seat it is about)."""
    params: dict[str, Param] = {}
    for name in ("other", "against"):
        seat = getattr(line, name, None)
        if seat is not None:
            params[name] = SeatRef(seat)
    count = getattr(line, "count", None)
    reason = getattr(line, "reason", None)
    return Message(f"talk.{line.kind}{person}.reason.{reason}", params, count)


def _frame(family: str, line: Line, params: dict[str, Param]) -> Message:
    size = family_sizes()[family]
    return Message(f"{family}.{getattr(line, 'variant', 0) % size}", params)


def message(line: Line) -> Message:
    """The message that says ``line``: the one place a line's wording is chosen."""
    if isinstance(line, talk.Claim):
        if line.target is not None:
            return _frame(
                f"talk.claim.investigation.{line.party}", line, {"target": SeatRef(line.target)}
            )
        assert line.policies is not None
        words = None if line.is_peek else "hand"
        params = _cards(line.policies, "cards", words)
        family = f"talk.claim.{line.subject}"
        if line.passed is not None:
            params.update(_cards(line.passed, "passed", "passed_hand"))
            family += ".passed"
        return _frame(family, line, params)
    if isinstance(line, (talk.Accuse, talk.Trust)):
        family = f"talk.{line.kind}.{line.certainty}"
        params = {"target": SeatRef(line.target)}
        if line.reason is None:
            return _frame(family + ".plain", line, params)
        return _frame(family, line, params | {"reason": _reason(line)})
    if isinstance(line, talk.HitlerGuess):
        return _frame(f"talk.hitler_guess.{line.certainty}", line, {"target": SeatRef(line.target)})
    if isinstance(line, talk.MerlinGuess):
        return _frame(f"talk.merlin_guess.{line.certainty}", line, {"target": SeatRef(line.target)})
    if isinstance(line, talk.RoleClaim):
        return _frame(f"talk.role_claim.{line.role}", line, {})
    if isinstance(line, (talk.Defend, talk.ExplainVote, talk.ExplainNomination)):
        family = f"talk.{line.kind}"
        if isinstance(line, talk.ExplainVote):
            family += ".ja" if line.ja else ".nein"
        params = {}
        if isinstance(line, talk.ExplainNomination):
            params["target"] = SeatRef(line.target)
        if line.reason is None:
            return _frame(family + ".plain", line, params)
        return _frame(family, line, params | {"reason": _reason(line)})
    if isinstance(line, talk.Conflict):
        if line.president is None or line.chancellor is None:
            return _frame("talk.conflict.plain", line, {})
        params = {"president": SeatRef(line.president), "chancellor": SeatRef(line.chancellor)}
        if line.believe is None:
            return _frame("talk.conflict", line, params)
        return _frame("talk.conflict.believe", line, params | {"believe": SeatRef(line.believe)})
    if isinstance(line, talk.Question):
        family = f"talk.question.{line.topic}"
        if line.ja is not None:
            family += ".ja" if line.ja else ".nein"
        if line.to is None and f"{family}.table" in family_sizes():
            family += ".table"  # "Who do you all suspect?", "大家怀疑谁？": put to the table
        params = {} if line.other is None else {"other": SeatRef(line.other)}
        return _address(line.to, _frame(family, line, params))
    if isinstance(line, talk.Answer):
        inner = line.line
        if isinstance(inner, _READS) and line.to is not None and inner.target == line.to:
            # "@3 I don't trust you: you nominated 5", as a player answers the one who asked
            return _address(line.to, _to_you(inner))
        said = message(inner)
        # Any other answer that names its asker is said to the table ("I voted Nein: I don't
        # trust 3" after 3 asked why), not "@3 ... 3 ...": the asker in the third person to his
        # face.
        return said if line.to in inner.seats() else _address(line.to, said)
    if isinstance(line, talk.Correct):
        return _correction(line)
    if isinstance(line, talk.CallOut):
        words = None if line.subject == "peek" else "hand"
        params = {"target": SeatRef(line.target), **_cards(line.policies, "cards", words)}
        family = "talk.call_out.drew"
        if line.reason == "enacted":  # the policy enacted is the one the hand lacks
            missing = "liberal" if Policy.FASCIST in line.policies else "fascist"
            family = f"talk.call_out.enacted.{line.subject}.{missing}"
        return _frame(family, line, params)
    if isinstance(line, talk.Suggest):
        return _frame("talk.suggest", line, {"target": SeatRef(line.target)})
    raise TypeError(f"not a talk line: {type(line).__name__}")


_READS = (talk.Accuse, talk.Trust, talk.HitlerGuess)


def _to_you(line: talk.Accuse | talk.Trust | talk.HitlerGuess) -> Message:
    """A read of a seat said to that seat: the second person's families (``....you``), its
    reason's too (``talk.accuse.you.reason.nominated_suspect``: "you nominated 5"); the seat
    is named by the address, not in the sentence."""
    family = f"talk.{line.kind}.{line.certainty}.you"
    if isinstance(line, talk.HitlerGuess):
        return _frame(family, line, {})
    if line.reason is None:
        return _frame(family + ".plain", line, {})
    return _frame(family, line, {"reason": _reason(line, ".you")})


def _correction(line: talk.Correct) -> Message:
    """A correction ("I voted Ja, not Nein: ..."): the family of the question's topic, the vote
    actually cast or the seat actually nominated, investigated or shot, or ``.none`` when the
    speaker did nothing of the kind; the reason of the explanation it carries (``.plain``
    without one)."""
    family = f"talk.correct.{line.topic}"
    params: dict[str, Param] = {}
    if line.other is not None:
        params["other"] = SeatRef(line.other)
    inner = line.line
    if isinstance(inner, talk.ExplainVote):
        family += ".ja" if inner.ja else ".nein"
    elif isinstance(inner, talk.ExplainNomination):
        params["target"] = SeatRef(inner.target)
    elif line.target is not None:
        params["target"] = SeatRef(line.target)
    else:
        family += ".none"
    if inner is not None:
        if getattr(inner, "reason", None) is None:
            family += ".plain"
        else:
            params["reason"] = _reason(inner)
    return _frame(family, line, params)


def _address(to: int | None, text: Message) -> Message:
    return text if to is None else Message("talk.address", {"to": SeatRef(to), "text": text})


# -- catalogs ------------------------------------------------------------------------------------


@cache
def catalog(lang: str) -> dict[str, str]:
    """The phrase catalog of ``lang`` (what a server route hands the web client)."""
    if lang not in LANGUAGES:
        raise ValueError(
            f"no phrases for language {lang!r}; expected one of {', '.join(LANGUAGES)}"
        )
    text = resources.files(__package__).joinpath("phrases", f"{lang}.json").read_text("utf-8")
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"talk/phrases/{lang}.json must be a JSON object")
    return data


@cache
def family_sizes() -> dict[str, int]:
    """Each key family's number of wordings, from the reference catalog."""
    sizes: dict[str, int] = {}
    for key in catalog(REFERENCE):
        m = _MEMBER.match(key)
        if m:
            sizes[m[1]] = max(sizes.get(m[1], 0), int(m[2]) + 1)
    return sizes


def plural_category(lang: str, n: int) -> str:
    """The CLDR plural category of a whole number ``n`` (what the client's
    ``Intl.PluralRules(lang).select(n)`` answers): English one/other, Russian
    one/few/many, Chinese and Vietnamese other."""
    if lang == "en":
        return "one" if n == 1 else "other"
    if lang == "ru":
        last, last2 = n % 10, n % 100
        if last == 1 and last2 != 11:
            return "one"
        if 2 <= last <= 4 and not 12 <= last2 <= 14:
            return "few"
        return "many"
    return "other"


# -- rendering -----------------------------------------------------------------------------------


def seat_name(seat: int, lang: str, names: Sequence[str | None] | None = None) -> str:
    """A seat as people see it: its name (a bot's "Bot 3" in the reader's language), else its
    1-based number in the community's form ("3", "3号", "số 3")."""
    name = names[seat] if names is not None and 0 <= seat < len(names) else None
    if name:
        bot = _BOT_NAME.match(name)
        if not bot:
            return name
        return _fill(catalog(lang)["talk.bot"], {"number": bot[1]})
    return _fill(catalog(lang)["talk.seat"], {"number": str(seat + 1)})


def _fill(text: str, values: Mapping[str, str]) -> str:
    return PLACEHOLDER.sub(lambda m: values.get(m[1], m[0]), text)


def render_message(
    msg: Message,
    lang: str,
    names: Sequence[str | None] | None = None,
    texts: Mapping[str, str] | None = None,
) -> str:
    """The text of ``msg`` in ``lang``: the client's ``t``/``tn`` with the same rules, from
    ``texts`` (a catalog in the web client's format; the talk phrases by default)."""
    if texts is None:
        texts = catalog(lang)
    values = {name: _param_text(value, lang, names, texts) for name, value in msg.params.items()}
    key = msg.key
    if msg.count is not None:
        values["count"] = str(msg.count)
        plural = f"{key}#{plural_category(lang, msg.count)}"
        key = plural if plural in texts else f"{key}#other"
    text = _fill(texts[key], values)
    if _MEMBER.match(key) and not _named_first(texts[key], msg, names):
        text = text[:1].upper() + text[1:]
    return text


def _param_text(
    value: Param, lang: str, names: Sequence[str | None] | None, texts: Mapping[str, str]
) -> str:
    if isinstance(value, SeatRef):
        return seat_name(value.seat, lang, names)
    if isinstance(value, Message):
        return render_message(value, lang, names, texts)
    if isinstance(value, Listed):
        separator = texts.get("list.separator", ", ")
        return separator.join(_param_text(item, lang, names, texts) for item in value.items)
    return str(value)


def _named_first(template: str, msg: Message, names: Sequence[str | None] | None) -> bool:
    """Whether a sentence begins with a person's name (kept as written, never capitalised)."""
    first = _LEADING.match(template)
    seat = msg.params.get(first[1]) if first else None
    if not isinstance(seat, SeatRef) or names is None or not 0 <= seat.seat < len(names):
        return False
    name = names[seat.seat]
    return bool(name) and not _BOT_NAME.match(name or "")


def render(line: Line, lang: str, names: Sequence[str | None] | None = None) -> str:
    """``line`` in words, in ``lang`` (one of ``LANGUAGES``); ``names``: display names by
    seat (a missing or empty name is shown by number)."""
    return render_message(message(line), lang, names)
