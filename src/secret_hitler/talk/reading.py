"""A chat line read into a row of meanings: the recogniser's first step (``recognise.py``).

The line is normalised (NFKC, traditional Chinese to simplified, invisible characters dropped),
the table's names are marked, and it is cut into words; each word or phrase is read as a meaning
from ``words.py`` (a seat, a colour, "is", "lying", ...), with its plural ending where the word
has one. A ``Row`` of ``Tok`` is what the rules of ``read_claims.py`` and ``read_signals.py``
read, in every language alike. Also ``Context``, what the caller knows of the speaker, which
those rules take. The work is bounded (``MAX_CHARS``, ``MAX_TOKENS``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from typing import Any

from ..engine.actions import CLAIM_CHANCELLOR_HAND, CLAIM_PEEK, CLAIM_PRESIDENT_HAND
from . import words as W

MAX_CHARS = 500  # a chat line is at most 300 characters on the server; more is not read
MAX_TOKENS = 80  # words (a Chinese character is one)

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(
    rf"(?P<name>\x01\d+\x01)"
    rf"|(?P<han>[{_HAN}])"
    rf"|(?P<num>\d+%?)"
    rf"|(?P<word>[^\W\d_{_HAN}]+(?:['’][^\W\d_{_HAN}]+)*)"
    rf"|(?P<arrow>->|=>|→|>)"
    rf"|(?P<punct>[?!:=\-–—,;/.#№@&+。、])"
)
_INVISIBLE = re.compile("[\x00-\x1f\x7f-\x9f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]")
_PUNCT = {
    "?": W.QMARK,
    "!": W.STOP,
    ".": W.STOP,
    "。": W.STOP,
    ":": W.SEP,
    "=": W.SEP,
    "-": W.SEP,
    "–": W.SEP,
    "—": W.SEP,
    ",": W.COMMA,
    ";": W.COMMA,
    "、": W.COMMA,
}
VIETNAMESE_MARKS = re.compile(
    "[ăâđêôơưạảãàáặẳẵằắậẩẫầấẹẻẽèéệểễềếịỉĩìíọỏõòóộổỗồốợởỡờớụủũùúựửữừứỵỷỹỳý]"
)
_CYRILLIC = re.compile("[а-я]")
_RU_PLURAL = ("ые", "ых", "ыми", "ов", "ы", "ие", "их", "ими", "ики")
CARD_NOUNS = frozenset(
    ["policy", "policies", "card", "cards", "закон", "закона", "законов", "законы", "政", "法"]
    + ["牌", "chính"]
)
CLAIM_SIZE = {CLAIM_PRESIDENT_HAND: 3, CLAIM_PEEK: 3, CLAIM_CHANCELLOR_HAND: 2}


@dataclass(frozen=True, slots=True)
class Context:
    """What the caller knows of the speaker, which decides what a claim means.

    ``open_claims``: the claim subjects the speaker may still claim (the engine view's
    ``open_claims``); ``investigated``: the seat the speaker investigated, if his
    investigation claim is open; ``government``: (president, chancellor) of the last
    government, for a bare "conflict"."""

    open_claims: tuple[str, ...] = ()
    investigated: int | None = None
    government: tuple[int, int] | None = None


NO_CONTEXT = Context()


class Row(list["Tok"]):
    """The meanings of a line in order, and the set of them (cues are looked up once);
    ``first``: the number its writer gives the first seat."""

    syms: frozenset[str] = frozenset()
    first: int = 1


@dataclass(slots=True)
class Tok:
    sym: str
    val: Any
    text: str
    upper: bool = False
    plural: bool | None = None
    used: bool = False


# -- word tables -----------------------------------------------------------------------------


def _split(text: str) -> tuple[str, ...]:
    return tuple(m.group().lower() for m in _TOKEN.finditer(text.translate(W.TRADITIONAL)))


def _entries(entry: W.Entry) -> tuple[tuple[str, Any], ...]:
    if isinstance(entry, str):
        return ((entry, None),)
    if isinstance(entry[0], tuple):
        return entry
    return (entry,)


def _table(*tables: dict[str, W.Entry]) -> dict[tuple[str, ...], tuple[tuple[str, Any], ...]]:
    out: dict[tuple[str, ...], tuple[tuple[str, Any], ...]] = {}
    for table in tables:
        for phrase, entry in table.items():
            out[_split(phrase)] = _entries(entry)
    return out


_LEX = _table(W.ENGLISH, W.RUSSIAN, W.CHINESE, W.VIETNAMESE)
_BARE = _table(W.VIETNAMESE_BARE)
# The longest phrase that starts with each word, so most words need one look-up.
_LONGEST: dict[str, int] = {}
for _key in (*_LEX, *_BARE):
    _LONGEST[_key[0]] = max(_LONGEST.get(_key[0], 1), len(_key))
_STEMS = [(re.compile(pattern), sym, val) for pattern, sym, val in W.STEMS]
# Vietnamese colours take no plural ending: "3 xanh" may be three blues or seat 3's party.
_UNINFLECTED = frozenset(
    " ".join(_split(phrase))
    for table in (W.VIETNAMESE, W.VIETNAMESE_BARE)
    for phrase, entry in table.items()
    if _entries(entry)[0][0] == W.COLOR
)


def _bare(word: str) -> str:
    """Vietnamese without its marks ("đỏ" -> "do")."""
    decomposed = unicodedata.normalize("NFD", word.replace("đ", "d"))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# Every Vietnamese word and phrase by its bare form, so that a word typed with a mark missing or
# wrong ("dỏ", "nói dôi", "bôc") reads as the word whose marks are nearest.
_Meanings = tuple[tuple[str, Any], ...]
_NEAR: dict[tuple[str, ...], list[tuple[tuple[str, ...], _Meanings]]] = {}
for _phrase, _entry in W.VIETNAMESE.items():
    _said = _split(_phrase)
    _NEAR.setdefault(tuple(_bare(w) for w in _said), []).append((_said, _entries(_entry)))
for _key in _NEAR:
    _LONGEST[_key[0]] = max(_LONGEST.get(_key[0], 1), len(_key))


def _marks(char: str) -> frozenset[str]:
    """The marks of one letter: its combining marks, and the stroke of "đ"."""
    if char == "đ":
        return frozenset("\u0111")
    return frozenset(c for c in unicodedata.normalize("NFD", char) if unicodedata.combining(c))


def _mark_distance(typed: tuple[str, ...], known: tuple[str, ...]) -> int:
    """How many marks two spellings with the same bare letters differ by."""
    out = 0
    for a, b in zip(typed, known, strict=True):
        if len(a) != len(b):
            return 99
        out += sum(len(_marks(x) ^ _marks(y)) for x, y in zip(a, b, strict=True) if x != y)
    return out


def _near(said: tuple[str, ...], bare: tuple[str, ...]) -> _Meanings | None:
    """The meanings of the Vietnamese phrase nearest to ``said`` by its marks, when one is
    nearest (a word of the game before a word the rules step over); None when two words with
    different meanings are as near ("ban": "bạn", you, or "bắn", shoot)."""
    found = _NEAR.get(bare)
    if not found:
        return None
    scored = sorted((_mark_distance(said, known), meanings) for known, meanings in found)
    best = [meanings for score, meanings in scored if score == scored[0][0]]
    if len(best) > 1:
        best = [m for m in best if any(sym != W.FILLER for sym, _ in m)] or best[:1]
    return best[0] if len(set(best)) == 1 else None


def _card_letters(low: str) -> tuple[str, int] | None:
    if not 1 <= len(low) <= 3:
        return None
    for alphabet, (fascist, liberal) in enumerate(W.CARD_LETTERS):
        if set(low) <= {fascist, liberal}:
            return "".join("F" if c == fascist else "L" for c in low), alphabet
    return None


# -- names -----------------------------------------------------------------------------------


_HAN_START = re.compile(f"[{_HAN}]")
_HAN_END = re.compile(f"[{_HAN}]$")
_NAME_BEFORE = rf"(?<![^\W_{_HAN}])"
_NAME_AFTER = rf"(?![^\W_{_HAN}])"


@lru_cache(maxsize=256)
def _names_pattern(names: tuple[str, ...], vietnamese: bool) -> re.Pattern[str] | None:
    """One pattern that finds every seat's name (``s<seat>`` groups), longest first. Russian
    names also match their case forms ("Оля": "Оле", "Олю"); a name that is a word of the
    tables ("Red", "Ja") is left out, since it would read as that word."""
    # (length, group, whether the name starts with a Han character, ends with one)
    alternatives: list[tuple[int, str, bool, bool]] = []
    for seat, raw in enumerate(names[:20]):
        name = normalise(raw)[:64].strip().lower()
        if len(name) < 2 or name.isdigit() or _split(name) in _LEX:
            continue
        if _card_letters(name):
            continue
        forms = {re.escape(name)}
        if vietnamese and _bare(name) != name:
            forms.add(re.escape(_bare(name)))
        if _CYRILLIC.fullmatch(name[-1]) and len(name) >= 3:
            stem = name[:-1] if name[-1] in "аяйьео" else name
            forms.add(re.escape(stem) + "[а-я]{0,2}")
        han = _HAN_START.match(name) is not None, _HAN_END.search(name) is not None
        for form in sorted(forms):
            group = f"(?P<s{seat}_{len(alternatives)}>(?i:{form}))"
            alternatives.append((len(name), group, *han))
    if not alternatives:
        return None
    alternatives.sort(key=lambda a: -a[0])
    # A name is a word of its own: no letter or digit just before or after it, except where it
    # begins or ends with a Han character (Chinese is written without spaces). The boundaries
    # are shared, one per run of names alike, in longest-first order: each is a large class
    # (and case is ignored in the names only), and compiling one per name took about 100 ms a
    # table, on the event loop, at the table's first chat line.
    parts = []
    for han_start in (False, True):
        runs: list[tuple[bool, list[str]]] = []
        for _, group, starts, ends in alternatives:
            if starts != han_start:
                continue
            if runs and runs[-1][0] == ends:
                runs[-1][1].append(group)
            else:
                runs.append((ends, [group]))
        if runs:
            body = "|".join(
                f"(?:{'|'.join(groups)})" + ("" if ends else _NAME_AFTER) for ends, groups in runs
            )
            parts.append(f"(?:{body})" if han_start else f"{_NAME_BEFORE}(?:{body})")
    return re.compile("|".join(parts))


def mark_names(text: str, names: Sequence[str | None] | None, vietnamese: bool) -> str:
    if not names:
        return text
    clean = tuple(n if isinstance(n, str) else "" for n in list(names)[:20])
    pattern = _names_pattern(clean, vietnamese)
    if pattern is None:
        return text

    def seat(m: re.Match[str]) -> str:
        group = m.lastgroup or "s0_0"
        return f" \x01{group[1:].split('_')[0]}\x01 "

    return pattern.sub(seat, text)


# -- reading a line into meanings ------------------------------------------------------------


def normalise(text: str) -> str:
    text = _INVISIBLE.sub(" ", text[:MAX_CHARS])
    text = unicodedata.normalize("NFKC", text)[: 2 * MAX_CHARS]
    return text.translate(W.TRADITIONAL).replace("ё", "е").replace("Ё", "Е")


def _plural(word: str) -> bool | None:
    if _CYRILLIC.match(word):
        return word.endswith(_RU_PLURAL)
    if word.isascii():
        return word.endswith("s") and word != "fas"
    return None


def tokens(text: str, players: int, vietnamese: bool, first: int = 1) -> Row:
    raw = [(m.lastgroup or "", m.group()) for m in islice(_TOKEN.finditer(text), MAX_TOKENS)]
    lows = [t.lower() for _, t in raw]
    bares = [_bare(t) for t in lows] if vietnamese else lows
    out: list[Tok] = []
    i = 0
    while i < len(raw):
        kind, text_i = raw[i]
        if kind == "name":
            out.append(Tok(W.SEAT, int(text_i.strip("\x01")), text_i))
            i += 1
            continue
        size, entry = _lookup(lows, bares, i, vietnamese)
        if entry is None:
            out.append(_single(kind, text_i, lows[i]))
            i += 1
            continue
        phrase = lows[i] if size == 1 else " ".join(lows[i : i + size])
        for sym, val in entry:
            tok = Tok(sym, val, phrase, text_i.isupper())
            if sym == W.COLOR:
                tok.plural = None if phrase in _UNINFLECTED else _plural(lows[i])
            out.append(tok)
        i += size
    row = Row(_seats(out, players, first))
    row.syms = frozenset(t.sym for t in row)
    row.first = first
    return row


def _lookup(
    lows: list[str], bares: list[str], i: int, vietnamese: bool
) -> tuple[int, tuple[tuple[str, Any], ...] | None]:
    """The longest phrase of the tables at ``i``: (its length in words, its meanings).
    Vietnamese typed bare ("do do xanh") comes first, but only for words typed bare; then the
    words as typed; then, in a Vietnamese line, the Vietnamese words nearest by their marks."""
    longest = max(_LONGEST.get(lows[i], 1), _LONGEST.get(bares[i], 1))
    for size in range(min(longest, len(lows) - i), 0, -1):
        said = tuple(lows[i : i + size])
        span = tuple(bares[i : i + size])
        if vietnamese and span == said and span in _BARE:
            return size, _BARE[span]
        entry = _LEX.get(said)
        if entry is None and vietnamese:
            entry = _near(said, span)
        if entry is not None:
            return size, entry
    return 1, None


def _single(kind: str, text: str, low: str) -> Tok:
    if kind == "num":
        digits = low.rstrip("%")
        if len(digits) <= 3 and digits.isdigit():
            return Tok(W.NUM, int(digits), low)
        return Tok(W.OTHER, None, low)
    if kind == "punct":
        return Tok(_PUNCT.get(low, W.OTHER), None, low)
    if kind == "arrow":
        return Tok(W.ARROW, None, low)
    if kind == "word":
        cards = _card_letters(low)
        if cards is not None:
            return Tok(W.CARDS, cards, low, text.isupper())
        if _CYRILLIC.match(low):
            for pattern, sym, val in _STEMS:
                if pattern.fullmatch(low):
                    return Tok(sym, val, low, plural=_plural(low) if sym == W.COLOR else None)
    return Tok(W.OTHER, None, low)


def _seats(toks: list[Tok], players: int, first: int = 1) -> list[Tok]:
    """Numbers with a seat word ("#3", "3号", "số 3", "Bot 3") become seats (numbered from
    ``first``); a seat word with no number is nothing."""
    out: list[Tok] = []
    for tok in toks:
        prev = out[-1] if out else None
        if tok.sym == W.SEAT_SUFFIX and prev is not None and prev.sym == W.NUM:
            seat = _numbered(prev.val, players, first)
            out[-1] = prev if seat is None else Tok(W.SEAT, seat, prev.text)
            continue
        if prev is not None and prev.sym == W.SEAT_PREFIX:
            seat = _numbered(tok.val, players, first) if tok.sym == W.NUM else None
            if seat is not None:
                out[-1] = Tok(W.SEAT, seat, tok.text)
                continue
            if tok.sym == W.SEAT:
                out[-1] = tok
                continue
            prev.sym = W.FILLER
        if tok.sym == W.SEAT and not 0 <= tok.val < players:
            tok = Tok(W.OTHER, None, tok.text)
        out.append(tok)
    if out and out[-1].sym == W.SEAT_PREFIX:
        out[-1].sym = W.FILLER
    return out


def _numbered(number: int, players: int, first: int) -> int | None:
    """The seat a number names when seats are numbered from ``first``, if one does."""
    seat = number - first
    return seat if 0 <= seat < players else None


def seat_at(toks: Row, k: int, players: int) -> int | None:
    """The seat token ``k`` names, if any: an explicit seat, or a plain number in range that
    no neighbour makes a count ("2 more games", "5 min")."""
    tok = toks[k]
    if tok.used:
        return None
    if tok.sym == W.SEAT:
        return int(tok.val)
    if tok.sym != W.NUM or not tok.text.isdigit():
        return None
    seat = _numbered(tok.val, players, toks.first)
    if seat is None:
        return None
    for j in (k - 1, k + 1):
        if 0 <= j < len(toks) and toks[j].text in W.NOT_A_SEAT:
            return None
    return seat


# -- the row's meanings -----------------------------------------------------------------------


def row_says(toks: Row, *syms: str) -> bool:
    """Whether the line holds any of these meanings anywhere."""
    return not toks.syms.isdisjoint(syms)


def row_has(toks: Iterable[Tok], *syms: str) -> bool:
    return any(t.sym in syms for t in toks)
