"""Blind tables: nobody knows who is who until the game ends (secrethitler.io's blind mode,
docs/game-types.md "Blind mode").

Before the deal every person's seat shows "?" to everyone else; when the game starts each seat
gets an alias, an "Adjective Animal" name drawn here in the table's language (the host's page
language at creation: one name per seat that everyone at the table reads and types alike, as the
site gives one English name to all), and the game itself is played under the aliases (the
engine's names, so views, events, bots' talk and the recogniser only ever hold them). The real
names come back when the game is over: the record keeps them in ``players`` and the aliases in
its ``table`` section, so replays show who played.

What a blind table hides until the end, from every frame and answer (``Table.detail``,
``Table.shown_line``, the lobby's list): each other seat's name, user id (and so its profile
link and avatar), the host's name and id, and who wrote a chat line. A person still sees her
own seat (its user id, so her page knows where she sits). Which seats are bots stays shown: it
is the table's make-up, not anyone's name.
"""

from __future__ import annotations

import random
from typing import Any

#: What every other seat is called before the deal.
UNKNOWN = "?"

#: Per language: adjectives and animals, each drawn once per table (so no two aliases share a
#: word); Russian adjectives in their masculine and feminine forms, animals with their gender.
_EN = (
    (
        "Brave", "Calm", "Clever", "Curious", "Gentle", "Grumpy", "Happy", "Jolly",
        "Lucky", "Nimble", "Proud", "Quiet", "Shy", "Sleepy", "Swift", "Wise",
    ),
    (
        "Badger", "Bear", "Beaver", "Crane", "Deer", "Falcon", "Fox", "Hare",
        "Heron", "Lynx", "Otter", "Owl", "Panda", "Raven", "Seal", "Wolf",
    ),
)  # fmt: skip
_RU_ADJECTIVES = (
    ("Храбрый", "Храбрая"), ("Спокойный", "Спокойная"), ("Умный", "Умная"),
    ("Любопытный", "Любопытная"), ("Добрый", "Добрая"), ("Ворчливый", "Ворчливая"),
    ("Весёлый", "Весёлая"), ("Задорный", "Задорная"), ("Везучий", "Везучая"),
    ("Ловкий", "Ловкая"), ("Гордый", "Гордая"), ("Тихий", "Тихая"), ("Робкий", "Робкая"),
    ("Сонный", "Сонная"), ("Быстрый", "Быстрая"), ("Мудрый", "Мудрая"),
)  # fmt: skip
_RU_ANIMALS = (
    ("Барсук", 0), ("Медведь", 0), ("Бобр", 0), ("Журавль", 0), ("Олень", 0), ("Сокол", 0),
    ("Лиса", 1), ("Заяц", 0), ("Цапля", 1), ("Рысь", 1), ("Выдра", 1), ("Сова", 1),
    ("Панда", 1), ("Ворон", 0), ("Тюлень", 0), ("Волк", 0),
)  # fmt: skip
_ZH_HANS = (
    (
        "勇敢", "沉着", "机灵", "好奇", "温和", "暴躁", "快乐", "欢乐",
        "幸运", "敏捷", "骄傲", "安静", "害羞", "贪睡", "迅捷", "睿智",
    ),
    (
        "獾", "棕熊", "河狸", "仙鹤", "小鹿", "猎鹰", "狐狸", "野兔",
        "苍鹭", "猞猁", "水獭", "猫头鹰", "熊猫", "渡鸦", "海豹", "灰狼",
    ),
)  # fmt: skip
_ZH_HANT = (
    (
        "勇敢", "沉著", "機靈", "好奇", "溫和", "暴躁", "快樂", "歡樂",
        "幸運", "敏捷", "驕傲", "安靜", "害羞", "貪睡", "迅捷", "睿智",
    ),
    (
        "獾", "棕熊", "河狸", "仙鶴", "小鹿", "獵鷹", "狐狸", "野兔",
        "蒼鷺", "猞猁", "水獺", "貓頭鷹", "熊貓", "渡鴉", "海豹", "灰狼",
    ),
)  # fmt: skip
_VI = (  # Vietnamese names the animal first: "Cáo Lanh Lợi"
    (
        "Dũng Cảm", "Điềm Tĩnh", "Lanh Lợi", "Tò Mò", "Hiền Lành", "Khó Tính", "Vui Vẻ",
        "Hớn Hở", "May Mắn", "Nhanh Nhẹn", "Kiêu Hãnh", "Lặng Lẽ", "Nhút Nhát", "Ham Ngủ",
        "Thần Tốc", "Thông Thái",
    ),
    (
        "Lửng", "Gấu", "Hải Ly", "Sếu", "Nai", "Chim Ưng", "Cáo", "Thỏ Rừng",
        "Diệc", "Linh Miêu", "Rái Cá", "Cú", "Gấu Trúc", "Quạ", "Hải Cẩu", "Sói",
    ),
)  # fmt: skip

#: The languages aliases are drawn in (the web client's); any other draws English ones.
ALIAS_LANGUAGES = ("en", "zh-Hans", "zh-Hant", "ru", "vi")
DEFAULT_LANGUAGE = "en"


def alias_language(lang: str | None) -> str:
    """The language a new blind table draws its aliases in: the host's page language, if the
    aliases have words in it, else English."""
    return lang if lang in ALIAS_LANGUAGES else DEFAULT_LANGUAGE


def draw_aliases(players: int, lang: str, rng: random.Random) -> list[str]:
    """One alias per seat, "Adjective Animal" in ``lang``: no two share a word."""
    n = len(_EN[0])
    adjectives = rng.sample(range(n), players)
    animals = rng.sample(range(n), players)
    return [_alias(lang, a, b) for a, b in zip(adjectives, animals, strict=True)]


def _alias(lang: str, adjective: int, animal: int) -> str:
    if lang == "ru":
        name, feminine = _RU_ANIMALS[animal]
        return f"{_RU_ADJECTIVES[adjective][feminine]} {name}"
    if lang == "vi":
        return f"{_VI[1][animal]} {_VI[0][adjective]}"
    if lang in ("zh-Hans", "zh-Hant"):
        words = _ZH_HANS if lang == "zh-Hans" else _ZH_HANT
        return f"{words[0][adjective]}{words[1][animal]}"
    return f"{_EN[0][adjective]} {_EN[1][animal]}"


def masked_seat(seat: dict[str, Any], alias: str | None, own: bool) -> dict[str, Any]:
    """A seat of a table's detail as a blind table shows it before its end: a person's name is
    her alias during the game (``UNKNOWN`` before it), her user id gone but on her own seat; a
    bot keeps its kind and level, and during the game takes its alias too."""
    out = dict(seat)
    if seat.get("kind") == "human":
        out["name"] = alias or (seat.get("name") if own else UNKNOWN)
        if not own:
            out["user_id"] = None
    elif alias is not None and seat.get("kind") == "bot":
        out["name"] = alias
    return out


def masked_line(line: dict[str, Any], alias: str | None) -> dict[str, Any]:
    """A chat line as a blind table shows it before its end: said by the seat's alias (by
    ``UNKNOWN`` before the deal, or from outside the seats), no user id."""
    return {**line, "name": alias or UNKNOWN, "user_id": None}


__all__ = [
    "ALIAS_LANGUAGES",
    "DEFAULT_LANGUAGE",
    "UNKNOWN",
    "alias_language",
    "draw_aliases",
    "masked_line",
    "masked_seat",
]
