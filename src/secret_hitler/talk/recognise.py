"""Claims and signals in people's chat lines, in the five languages.

``recognise(text, players=7, context=...)`` reads a chat line into talk lines: a ``Claim``
("RRB", "ФФЛ", "红红蓝", "đỏ đỏ xanh", "BBR passed RB", "4 is red" after an investigation),
and the signals ``Accuse``, ``Trust``, ``HitlerGuess``, ``Conflict`` and ``Question``. What a
claim means depends on what the caller knows of the speaker (``Context``): "RB" from a
chancellor is his two, "RRB" from a president his three, "4 is red" from the seat that
investigated 4 its result. The caller offers a claim to the speaker (never makes it for him).

How: the line is normalised (NFKC, traditional Chinese to simplified, invisible characters
dropped), cut into words, and each word or phrase is read as a meaning from ``words.py``
(a seat, a colour, "is", "lying", ...). The rules below work on that row of meanings, so the
five languages share them. The work is bounded (``MAX_CHARS``), and no text makes it raise.
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
from ..engine.types import Party, Policy
from . import words as W
from .lines import HEDGED, KNOWN, Accuse, Claim, Conflict, HitlerGuess, Line, Question, Trust

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
_VIETNAMESE_MARKS = re.compile(
    "[ăâđêôơưạảãàáặẳẵằắậẩẫầấẹẻẽèéệểễềếịỉĩìíọỏõòóộổỗồốợởỡờớụủũùúựửữừứỵỷỹỳý]"
)
_CYRILLIC = re.compile("[а-я]")
_RU_PLURAL = ("ые", "ых", "ыми", "ов", "ы", "ие", "их", "ими", "ики")
_CARD_NOUNS = frozenset(
    ["policy", "policies", "card", "cards", "закон", "закона", "законов", "законы", "政", "法"]
    + ["牌", "chính"]
)
_SIZE = {CLAIM_PRESIDENT_HAND: 3, CLAIM_PEEK: 3, CLAIM_CHANCELLOR_HAND: 2}
_POLICY = {"F": Policy.FASCIST, "L": Policy.LIBERAL}


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


class _Row(list["_Tok"]):
    """The meanings of a line in order, and the set of them (cues are looked up once);
    ``first``: the number its writer gives the first seat."""

    syms: frozenset[str] = frozenset()
    first: int = 1


@dataclass(slots=True)
class _Tok:
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
        name = _normalise(raw)[:64].strip().lower()
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


def _mark_names(text: str, names: Sequence[str | None] | None, vietnamese: bool) -> str:
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


def _normalise(text: str) -> str:
    text = _INVISIBLE.sub(" ", text[:MAX_CHARS])
    text = unicodedata.normalize("NFKC", text)[: 2 * MAX_CHARS]
    return text.translate(W.TRADITIONAL).replace("ё", "е").replace("Ё", "Е")


def _plural(word: str) -> bool | None:
    if _CYRILLIC.match(word):
        return word.endswith(_RU_PLURAL)
    if word.isascii():
        return word.endswith("s") and word != "fas"
    return None


def _tokens(text: str, players: int, vietnamese: bool, first: int = 1) -> _Row:
    raw = [(m.lastgroup or "", m.group()) for m in islice(_TOKEN.finditer(text), MAX_TOKENS)]
    lows = [t.lower() for _, t in raw]
    bares = [_bare(t) for t in lows] if vietnamese else lows
    out: list[_Tok] = []
    i = 0
    while i < len(raw):
        kind, text_i = raw[i]
        if kind == "name":
            out.append(_Tok(W.SEAT, int(text_i.strip("\x01")), text_i))
            i += 1
            continue
        size, entry = _lookup(lows, bares, i, vietnamese)
        if entry is None:
            out.append(_single(kind, text_i, lows[i]))
            i += 1
            continue
        phrase = lows[i] if size == 1 else " ".join(lows[i : i + size])
        for sym, val in entry:
            tok = _Tok(sym, val, phrase, text_i.isupper())
            if sym == W.COLOR:
                tok.plural = None if phrase in _UNINFLECTED else _plural(lows[i])
            out.append(tok)
        i += size
    row = _Row(_seats(out, players, first))
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


def _single(kind: str, text: str, low: str) -> _Tok:
    if kind == "num":
        digits = low.rstrip("%")
        if len(digits) <= 3 and digits.isdigit():
            return _Tok(W.NUM, int(digits), low)
        return _Tok(W.OTHER, None, low)
    if kind == "punct":
        return _Tok(_PUNCT.get(low, W.OTHER), None, low)
    if kind == "arrow":
        return _Tok(W.ARROW, None, low)
    if kind == "word":
        cards = _card_letters(low)
        if cards is not None:
            return _Tok(W.CARDS, cards, low, text.isupper())
        if _CYRILLIC.match(low):
            for pattern, sym, val in _STEMS:
                if pattern.fullmatch(low):
                    return _Tok(sym, val, low, plural=_plural(low) if sym == W.COLOR else None)
    return _Tok(W.OTHER, None, low)


def _seats(toks: list[_Tok], players: int, first: int = 1) -> list[_Tok]:
    """Numbers with a seat word ("#3", "3号", "số 3", "Bot 3") become seats (numbered from
    ``first``); a seat word with no number is nothing."""
    out: list[_Tok] = []
    for tok in toks:
        prev = out[-1] if out else None
        if tok.sym == W.SEAT_SUFFIX and prev is not None and prev.sym == W.NUM:
            seat = _numbered(prev.val, players, first)
            out[-1] = prev if seat is None else _Tok(W.SEAT, seat, prev.text)
            continue
        if prev is not None and prev.sym == W.SEAT_PREFIX:
            seat = _numbered(tok.val, players, first) if tok.sym == W.NUM else None
            if seat is not None:
                out[-1] = _Tok(W.SEAT, seat, tok.text)
                continue
            if tok.sym == W.SEAT:
                out[-1] = tok
                continue
            prev.sym = W.FILLER
        if tok.sym == W.SEAT and not 0 <= tok.val < players:
            tok = _Tok(W.OTHER, None, tok.text)
        out.append(tok)
    if out and out[-1].sym == W.SEAT_PREFIX:
        out[-1].sym = W.FILLER
    return out


def _numbered(number: int, players: int, first: int) -> int | None:
    """The seat a number names when seats are numbered from ``first``, if one does."""
    seat = number - first
    return seat if 0 <= seat < players else None


def _seat(toks: _Row, k: int, players: int) -> int | None:
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


# -- card groups -----------------------------------------------------------------------------


@dataclass(slots=True)
class _Group:
    codes: str  # "F"/"L" per card, as said
    first: int  # token span
    last: int
    strong: bool  # reads as a claim with no context or cue
    singular: bool = False  # "3 red", "4 красный": also a seat and a party
    bare: bool = False  # a digit and a colour with no plural ending, classifier or noun ("3 đỏ")


def _colour(tok: _Tok) -> str | None:
    """ "F" or "L" for a colour word or a single card letter, else None."""
    if tok.sym == W.COLOR:
        return str(tok.val)
    return str(tok.val[0]) if _is_letter(tok) else None


def _is_color(tok: _Tok) -> bool:
    return tok.sym == W.COLOR and not tok.used


def _is_letter(tok: _Tok) -> bool:
    return tok.sym == W.CARDS and len(tok.val[0]) == 1


def _groups(toks: list[_Tok], size_hint: int | None) -> list[_Group]:
    """Every run of cards in the line: letters ("RRB", "r r b"), colour words ("red red
    blue", "红红蓝"), counts ("2 reds 1 blue", "两红一蓝", "three reds") and "all red"."""
    out: list[_Group] = []
    i, n = 0, len(toks)
    while i < n:
        tok = toks[i]
        group = None
        if tok.sym == W.CARDS and len(tok.val[0]) >= 2:
            low = tok.text
            strong = tok.upper or (len(low) == 3 and low != "brb")
            group = _Group(tok.val[0], i, i, strong)
        elif tok.sym == W.CARDS:
            group = _letter_run(toks, i)
        if group is None and tok.sym in (W.NUM, W.ART):
            group = _count(toks, i)
        if group is None and tok.sym == W.ALL:
            group = _all(toks, i, size_hint)
        if group is None and _is_color(tok):
            group = _color_run(toks, i) or _count(toks, i)
        if group is not None:
            out.append(group)
            i = group.last + 1
        else:
            i += 1
    return out


def _letter_run(toks: list[_Tok], i: int) -> _Group | None:
    codes, alphabet, last = "", toks[i].val[1], i
    k = i
    while k < len(toks) and len(codes) < 3:
        tok = toks[k]
        if _is_letter(tok) and tok.val[1] == alphabet:
            codes += tok.val[0]
            last = k
        elif tok.sym not in (W.SEP, W.COMMA) or not codes:
            break
        k += 1
    return _Group(codes, i, last, True) if len(codes) >= 2 else None


def _color_run(toks: list[_Tok], i: int) -> _Group | None:
    codes, last, k = "", i, i
    while k < len(toks) and len(codes) < 3:
        tok = toks[k]
        if _is_color(tok):
            codes += tok.val
            last = k
        elif tok.sym not in (W.SEP, W.COMMA, W.AND) or not codes:
            break
        k += 1
    return _Group(codes, i, last, True) if len(codes) >= 2 else None


def _count_item(toks: list[_Tok], k: int) -> tuple[int, str, int, bool | None] | None:
    """``NUM [classifier] COLOUR`` at ``k``: (count, colour, last index, plural)."""
    tok = toks[k]
    count = 1 if tok.sym == W.ART else tok.val if tok.sym == W.NUM else 0
    if not 1 <= count <= 3:
        return None
    j = k + 1
    if j < len(toks) and toks[j].sym == W.CLASSIFIER:
        j += 1
    colour = _colour(toks[j]) if j < len(toks) and not toks[j].used else None
    if colour is not None:
        return count, colour, j, toks[j].plural
    return None


def _joined_count(toks: list[_Tok], k: int) -> bool:
    """Whether "and" and a count follow the colour at ``k`` ("красный и два синих")."""
    j = k + 1
    while j < len(toks) and toks[j].sym in (W.AND, W.COMMA):
        j += 1
    return j > k + 1 and j < len(toks) and _count_item(toks, j) is not None


def _count(toks: list[_Tok], i: int) -> _Group | None:
    items: list[tuple[int, str, int, bool | None]] = []
    k = i
    while k < len(toks):
        item = _count_item(toks, k)
        if item is None and _is_color(toks[k]) and (items or _joined_count(toks, k)):
            item = (1, toks[k].val, k, False)  # "2 reds and a blue", "красный и два синих"
        if item is None:
            break
        items.append(item)
        k = item[2] + 1
        while k < len(toks) and toks[k].sym in (W.AND, W.COMMA):
            k += 1
    if not items:
        return None
    last = items[-1][2]
    while last > i and toks[last].sym in (W.AND, W.COMMA):
        last -= 1
    codes = "".join(colour * count for count, colour, _, _ in items)
    if not 2 <= len(codes) <= 3 or (len(items) == 1 and items[0][0] == 1):
        return None
    if len(items) > 1:
        return _Group(codes, i, last, True)
    # One count: "three reds" is a hand when the speaker's claim is open or a cue says so;
    # "3 red" / "4 красный" may instead say seat 3's party (decided with the context).
    nxt = toks[last + 1].text if last + 1 < len(toks) else ""
    bare = (
        toks[i].sym == W.NUM
        and toks[i].text.isdigit()
        and items[0][3] is not True
        and last == i + 1  # no classifier: "3 张红" is cards
        and nxt not in _CARD_NOUNS
    )
    return _Group(codes, i, last, False, bare and items[0][3] is False, bare)


def _all(toks: list[_Tok], i: int, size_hint: int | None) -> _Group | None:
    j = i + 1
    if j < len(toks) and toks[j].sym == W.CLASSIFIER:
        j += 1
    if size_hint is None or j >= len(toks) or not _is_color(toks[j]):
        return None
    return _Group(toks[j].val * size_hint, i, j, False)


# -- claims ----------------------------------------------------------------------------------


def _says(toks: _Row, *syms: str) -> bool:
    """Whether the line holds any of these meanings anywhere."""
    return not toks.syms.isdisjoint(syms)


def _has(toks: Iterable[_Tok], *syms: str) -> bool:
    return any(t.sym in syms for t in toks)


_BREAKS = frozenset({W.STOP, W.QMARK, W.COMMA, W.SEP})


def _planned(toks: _Row, group: _Group) -> bool:
    """Whether a hand is named in a wish or a plan, not a report: "hoping for BB", "need LL
    next time", "если бы СС", "希望两蓝", "mong xanh xanh" (in its clause)."""
    k = group.first - 1
    while k >= 0 and toks[k].sym not in _BREAKS:
        if toks[k].sym in (W.WISH, W.FUTURE):
            return True
        k -= 1
    k = group.last + 1
    while k < len(toks) and toks[k].sym not in _BREAKS:
        if toks[k].sym == W.WISH and toks[k].val == "next":
            return True
        k += 1
    return False


def _claim(toks: _Row, groups: list[_Group], context: Context) -> Claim | None:
    """The one claim of a line, from its card groups and what the speaker may claim. A seat
    whose investigation claim is open says a seat's party with "3 red", even when his hand
    claim is open too."""
    opened = set(context.open_claims)
    hand_open = bool(opened & set(_SIZE))
    investigator = context.investigated is not None
    cue = _says(toks, W.GOT, W.PASSED, W.PEEK, W.ARROW, W.I, W.DISCARD)
    usable = []
    for g in groups:
        if g.singular and (_says(toks, W.INV) or not hand_open):
            continue  # "3 red": a seat's party, read by the rules for parties
        if g.bare and investigator:
            continue
        if _planned(toks, g):
            continue
        if g.strong or hand_open or cue:
            usable.append(g)
    threes = [g for g in usable if len(g.codes) == 3]
    if threes:
        hand = threes[0]
        peek = _says(toks, W.PEEK) or (CLAIM_PEEK in opened and CLAIM_PRESIDENT_HAND not in opened)
        _use(toks, hand)
        if peek:
            return Claim(CLAIM_PEEK, tuple(_POLICY[c] for c in hand.codes))
        return Claim(CLAIM_PRESIDENT_HAND, _sorted(hand.codes), passed=_passed(toks, groups, hand))
    twos = [g for g in usable if len(g.codes) == 2]
    if not twos:
        return None
    two = twos[0]
    before = toks[: two.first]
    if CLAIM_CHANCELLOR_HAND not in opened:
        if CLAIM_PRESIDENT_HAND in opened or _has(before[-3:], W.PASSED):
            return None  # a president's "gave RB": no claim of his own three
        if not (two.strong or _has(before, W.GOT)) or _says(toks, W.FUTURE):
            return None
    _use(toks, two)
    return Claim(CLAIM_CHANCELLOR_HAND, _sorted(two.codes))


def _sorted(codes: str) -> tuple[Policy, ...]:
    """A hand as the engine lists it: fascist policies first."""
    return tuple(_POLICY[c] for c in sorted(codes))


def _use(toks: list[_Tok], group: _Group) -> None:
    for tok in toks[group.first : group.last + 1]:
        tok.used = True


def _passed(toks: list[_Tok], groups: list[_Group], hand: _Group) -> tuple[Policy, ...] | None:
    """What a president says he handed on: "BBR passed RB", "RRB -> RR", "ККС, скинул С"."""
    after = [g for g in groups if g.first > hand.last]
    between = toks[hand.last + 1 : after[0].first] if after else []
    rest = list(hand.codes)
    if after and len(after[0].codes) == 2 and _has(between, W.PASSED, W.ARROW):
        passed = after[0].codes
        _use(toks, after[0])
    else:
        for k in range(hand.last + 1, min(len(toks), hand.last + 6)):
            if toks[k].sym != W.DISCARD:
                continue
            j = k + 1
            while j < len(toks) and toks[j].sym in (W.FILLER, W.ART):
                j += 1
            dropped = _colour(toks[j]) if j < len(toks) else None
            if dropped is not None:
                if dropped in rest:
                    rest.remove(dropped)
                    toks[j].used = True
                    return _sorted("".join(rest))
            return None
        return None
    for c in passed:
        if c not in rest:
            return None
        rest.remove(c)
    return _sorted(passed)


# -- who is what -----------------------------------------------------------------------------

# What a rule may step over between a seat and what is said of it.
_SKIP = frozenset({W.IS, W.SEP, W.FILLER, W.SURE, W.HEDGE, W.ART})


@dataclass(slots=True)
class _Said:
    """Seats said next to a word: ``negated`` by a "not" between, ``either`` when joined
    by "or" ("3 or 5 is lying"), ``stop``: the index where the search stopped."""

    seats: list[tuple[int, bool]]
    either: bool
    stop: int
    places: list[int]  # where each seat was said


def _before(toks: _Row, j: int, players: int, skip: frozenset[str] = _SKIP) -> _Said:
    """Seats said before ``toks[j]``: "3 and 5 are ...", "3 isn't ..."."""
    seats: list[int] = []
    places: list[int] = []
    negated = either = False
    k = j - 1
    while k >= 0 and j - k <= 7:
        tok = toks[k]
        seat = _seat(toks, k, players)
        if seat is not None and (not seats or toks[k + 1].sym == W.AND):
            seats.append(seat)
            places.append(k)
        elif tok.sym == W.NOT and not seats:
            negated = not negated
        elif tok.sym == W.AND and seats:
            either = either or tok.val == "or"
        elif tok.sym not in skip or seats:
            break
        k -= 1
    return _Said([(s, negated) for s in seats], either, k, places)


def _after(toks: _Row, j: int, players: int, skip: frozenset[str] = _SKIP) -> _Said:
    """Seats said after ``toks[j]``: "trust 2 but not 5", "конфликт 3 и 5"."""
    out: list[tuple[int, bool]] = []
    places: list[int] = []
    negated = either = False
    k = j + 1
    while k < len(toks) and k - j <= 7:
        tok = toks[k]
        seat = _seat(toks, k, players)
        if seat is not None:
            out.append((seat, negated))
            places.append(k)
        elif tok.sym == W.NOT:
            negated = not negated
        elif tok.sym == W.AND and out:
            either = either or tok.val == "or"
        elif tok.sym not in skip and tok.sym not in (W.YOU, W.PRONOUN):
            break
        k += 1
    return _Said(out, either, k, places)


def _certainty(toks: _Row, default: str) -> str:
    return HEDGED if _says(toks, W.HEDGE) else default


def _party_lines(toks: _Row, context: Context, players: int, out: list[Line]) -> None:
    """ "4 is red", "проверил 4 — фашист", "5号是蓝", "lib": an investigation claim when the
    speaker investigated that seat (or says so), else accusation or trust."""
    any_seat: bool | None = None
    for j, tok in enumerate(toks):
        if tok.used or tok.sym not in (W.COLOR, W.PARTY):
            continue
        said = _before(toks, j, players, _SKIP | {W.PRONOUN, W.COMMA, W.ALL})
        said_inv = any(t.sym == W.INV for t in toks[max(0, said.stop - 1) : j])
        if not said.seats:
            stopped = toks[said.stop].sym if said.stop >= 0 else None
            if (
                context.investigated is not None
                and stopped in (None, W.COMMA, W.SEP, W.STOP, W.INV)
                and not _says(toks, W.QWORD, W.FUTURE, W.WHY)
            ):
                if any_seat is None:
                    any_seat = any(_seat(toks, k, players) is not None for k in range(len(toks)))
                if not any_seat:
                    party = Party.FASCIST if tok.val == "F" else Party.LIBERAL
                    out.append(Claim("investigation", target=context.investigated, party=party))
            continue
        tok.used = True
        for seat, negated in said.seats:
            party = Party.FASCIST if (tok.val == "F") != negated else Party.LIBERAL
            investigated = (said_inv and not _says(toks, W.FUTURE)) or (
                seat == context.investigated
                or ("investigation" in context.open_claims and context.investigated is None)
            )
            if investigated:
                out.append(Claim("investigation", target=seat, party=party))
            elif party is Party.FASCIST:
                out.append(Accuse(seat, _certainty(toks, KNOWN)))
            else:
                out.append(Trust(seat, _certainty(toks, KNOWN)))


def _judgements(toks: _Row, players: int, out: list[Line]) -> None:
    """Lying, suspicion, trust, "hard lib", CNH, Hitler, "shoot 4"."""
    asking = _says(toks, W.WHY)
    for j, tok in enumerate(toks):
        sym = tok.sym
        if sym == W.LIE:
            said = _before(toks, j, players)
            if not said.seats and j + 1 < len(toks) and toks[j + 1].sym == W.SEP:
                said = _after(toks, j, players)  # "Кто-то врёт: 2 или 5"
            if said.either and len(said.seats) == 2 and not said.seats[0][1]:
                out.append(Conflict(*sorted(s for s, _ in said.seats)))  # "3 or 5 is lying"
                continue
            for seat, neg in said.seats:
                out.append(Trust(seat, HEDGED) if neg else Accuse(seat, _certainty(toks, KNOWN)))
        elif sym == W.SUS:
            said = _before(toks, j, players)
            for seat, neg in said.seats or _after(toks, j, players).seats:
                out.append(Trust(seat, HEDGED) if neg else Accuse(seat, HEDGED))
        elif sym == W.TRUST:
            said = _before(toks, j, players, _SKIP | {W.I})
            targets = said.seats
            if not targets:  # "не верю 3", "don't trust 3 or 4", "trust 2 but not 5"
                negated = any(t.sym == W.NOT for t in toks[max(0, j - 2) : j])
                targets = [(s, neg != negated) for s, neg in _after(toks, j, players).seats]
            for seat, neg in targets:
                out.append(Accuse(seat, HEDGED) if neg else Trust(seat, _certainty(toks, HEDGED)))
        elif sym == W.DISCARD:  # "4 discarded the blue"
            said = _before(toks, j, players)
            k = j + 1
            while k < len(toks) and toks[k].sym in (W.FILLER, W.ART):
                k += 1
            if said.seats and not said.seats[0][1] and k < len(toks) and _colour(toks[k]) == "L":
                out.append(Accuse(said.seats[0][0], HEDGED))
        elif sym in (W.HARDLIB, W.CNH):
            said = _before(toks, j, players)
            reason = "not_hitler" if sym == W.CNH else None
            for seat, _ in said.seats or _after(toks, j, players).seats:
                out.append(Trust(seat, KNOWN, reason))
        elif sym == W.HITLER:
            said = _before(toks, j, players)
            for seat, neg in said.seats or _after(toks, j, players).seats:
                if neg:
                    out.append(Trust(seat, KNOWN, "not_hitler"))
                else:
                    out.append(HitlerGuess(seat, _certainty(toks, KNOWN)))
        elif sym == W.SHOOT and not asking:
            if not _has(toks[max(0, j - 2) : j], W.NOT):
                for seat, neg in _after(toks, j, players).seats:
                    if not neg:
                        out.append(Accuse(seat, HEDGED))
        elif sym == W.JA and tok.text == "за" and not asking:
            for seat, neg in _after(toks, j, players).seats[:1]:  # "я за 5"
                if not neg:
                    out.append(Trust(seat, HEDGED))


_TOPICS = ((W.NOMINATE, "nomination"), (W.INV, "investigation"), (W.SHOOT, "execution"))
# What makes a "why" about a seat an accusation's: "why do you suspect 3?", "why is 3 H?"
_BLAME = frozenset({W.SUS, W.LIE, W.HITLER})


def _blamed(toks: _Row, why: int, players: int) -> tuple[int, int] | None:
    """The seat (and where it is said) a "why" asks an accusation of: "why do you suspect 3?",
    "почему 3 — фашист?", "почему тебе не нравится 3?", "为什么怀疑3号", "sao nghi số 3"; a
    seat said before the "why" is the one asked."""
    if _says(toks, W.ENACT, W.PASSED):
        return None  # "why did 3 pass red": the policy
    for k in range(why + 1, len(toks)):
        tok = toks[k]
        blame = tok.sym in _BLAME or (tok.sym in (W.COLOR, W.PARTY) and tok.val == "F")
        distrust = tok.sym == W.TRUST and toks[k - 1].sym == W.NOT  # "why don't you trust 3?"
        if not (blame or distrust):
            continue
        said = _after(toks, k, players)
        if not said.seats or said.places[0] <= why:
            said = _before(toks, k, players, _SKIP | {W.YOU, W.PRONOUN})
        for seat, place in zip(said.seats, said.places, strict=True):
            if place > why and not seat[1]:
                return seat[0], place
    return None


def _question(toks: _Row, players: int) -> Question | None:
    """ "Bot 3, why Nein?", "3 почему против?", "3号为什么投反对", "sao 3 bỏ phiếu chống"."""
    why = next((k for k, t in enumerate(toks) if t.sym == W.WHY), None)
    if why is None:
        return None
    syms = [t.sym for t in toks]
    topic, other, other_at = None, None, -1
    for sym, name in (*_TOPICS, (W.CHANCELLOR, "nomination")):
        if sym not in syms:
            continue
        k = syms.index(sym)
        if k + 1 < len(toks) and toks[k + 1].sym in (W.JA, W.NEIN):
            continue  # "sao lại chọn Ja?": a vote chosen, no nomination
        said = _after(toks, k, players)  # "why did you nominate 5", "почему канцлер — 5"
        if not said.seats:  # "5 — почему проверка?", "why 5 as chancellor?"
            said = _before(toks, k, players, _SKIP | {W.WHY, W.COMMA})
        if said.seats:
            topic, other, other_at = name, said.seats[0][0], said.places[0]
            break
    if topic is None:
        blamed = _blamed(toks, why, players)
        if blamed is not None:
            topic, (other, other_at) = "accusation", blamed
    ja: bool | None = None
    if topic is None and (W.VOTE in syms or W.JA in syms or W.NEIN in syms):
        topic = "vote"
        if (W.JA in syms) != (W.NEIN in syms):
            ja = W.JA in syms
    if topic is None and (W.ENACT in syms or W.PASSED in syms or W.COLOR in syms):
        topic = "policy"
    if topic is None:
        return None
    seats = [(k, s) for k in range(len(toks)) if (s := _seat(toks, k, players)) is not None]
    seats = [(k, s) for k, s in seats if k != other_at]
    before = [s for k, s in seats if k < why]
    to = before[0] if before else seats[-1][1] if seats else None
    for tok in toks:
        if tok.sym in (W.SEAT, W.NUM):
            tok.used = True
    return Question(topic, to=to, ja=ja, other=other)


# An open question's topic by what it asks about, in this order: "who is Hitler?", "who
# should I nominate?", "who do you trust?", "who do you suspect?".
_OPEN = (
    ("who_hitler", frozenset({W.HITLER}), None),
    ("who_nominate", frozenset({W.NOMINATE, W.CHANCELLOR}), None),
    ("who_trust", frozenset({W.TRUST, W.HARDLIB}), "L"),
    ("who_suspect", frozenset({W.SUS, W.LIE}), "F"),
)
_LEAD = frozenset({W.COMMA, W.SEP, W.FILLER, W.AND, W.YOU, W.I, W.STOP})


def _leads(toks: _Row, at: int, players: int, comma: bool = True) -> bool:
    """Whether only fillers and an address come before ``toks[at]``; ``comma``: the address
    ends in one ("Bot 3, who ..."), so that "3 who passed red is lying" is no question."""
    before = toks[:at]
    if any(t.sym not in _LEAD and _seat(toks, k, players) is None for k, t in enumerate(before)):
        return False
    named = any(_seat(toks, k, players) is not None for k in range(at))
    return not (named and comma) or before[-1].sym in (W.COMMA, W.SEP)


def _addressee(toks: _Row, at: int, players: int) -> int | None:
    """The seat a question is put to: named before it ("Bot 3, who do you trust?") or last,
    after a comma ("who do you suspect, 3?")."""
    for k in range(at):
        seat = _seat(toks, k, players)
        if seat is not None:
            return seat
    end = len(toks)
    while end > 0 and toks[end - 1].sym in (W.QMARK, W.STOP):
        end -= 1
    if end >= 2 and toks[end - 2].sym in (W.COMMA, W.SEP) and end - 1 > at:
        return _seat(toks, end - 1, players)
    return None


def _open_question(toks: _Row, context: Context, players: int) -> Question | None:
    """An open question to a seat or the table: "who do you suspect?", "кого вы
    подозреваете?", "你们怀疑谁？", "các bạn nghi ai?", "who should I nominate?", "who is
    Hitler?", "who do you trust?"; a call for a claim: "what did you get?", "claim?",
    "что пришло?", "你拿到什么？", "bạn bốc được gì?"."""
    asked = _says(toks, W.QMARK)
    who = next((k for k, t in enumerate(toks) if t.sym == W.QWORD and t.val == "who"), None)
    if who is not None:
        lead = _leads(toks, who, players)
        last = all(t.sym in (W.FILLER, W.STOP, W.QMARK) for t in toks[who + 1 :])
        if asked or lead or last:
            for topic, syms, colour in _OPEN:
                if any(
                    t.sym in syms or (colour and t.sym in (W.COLOR, W.PARTY) and t.val == colour)
                    for t in toks
                ):
                    return _asked(toks, topic, _addressee(toks, who, players))
        return None
    what = next((k for k, t in enumerate(toks) if _what(t)), None)
    if what is None:
        return None
    tok = toks[what]
    cards = _says(toks, W.GOT, W.PASSED, W.PEEK, W.CLASSIFIER) or any(
        t.text in _CARD_NOUNS for t in toks
    )  # what he drew, passed or saw, not "what?"
    if tok.sym == W.ASK_CLAIM:
        alone = all(  # "claim pls", "3 claim", "khai bài đi"
            t.sym in _LEAD or t.sym == W.FUTURE or k == what or _seat(toks, k, players) is not None
            for k, t in enumerate(toks)
        )
        if not (asked or alone):
            return None  # "their claim conflicts with 3's", "claims incoming"
    else:
        last = all(t.sym in (W.FILLER, W.STOP, W.QMARK) for t in toks[what + 1 :])
        if not (cards and (asked or last or _leads(toks, what, players, comma=False))):
            return None  # "wait what", "что?"
    to = _addressee(toks, what, players)
    if to is None and tok.sym == W.ASK_CLAIM and context.government is not None:
        office = {"president": 0, "chancellor": 1}.get(str(tok.val))
        to = None if office is None else context.government[office]
    return _asked(toks, "claim", to)


def _what(tok: _Tok) -> bool:
    return tok.sym in (W.WHAT, W.ASK_CLAIM) or (tok.sym == W.FILLER and tok.val == "what")


def _asked(toks: _Row, topic: str, to: int | None) -> Question:
    for tok in toks:
        if tok.sym in (W.SEAT, W.NUM):
            tok.used = True
    return Question(topic, to=to)


def _conflict(toks: _Row, context: Context, players: int) -> Conflict | None:
    """ "conflict", "3 and 5 conflict", "конфликт 3 и 5", "3号和5号冲突", "lệch bài rồi"."""
    at = next((k for k, t in enumerate(toks) if t.sym == W.CONFLICT), None)
    if at is None or (at > 0 and toks[at - 1].sym == W.NOT):
        return None
    skip = _SKIP | {W.COMMA}
    seats = [s for s, _ in _before(toks, at, players, skip).seats]
    if len(seats) < 2:
        seats = [s for s, _ in _after(toks, at, players, skip).seats]
    if len(seats) >= 2:
        a, b = (seats[1], seats[0]) if seats[1] < seats[0] else (seats[0], seats[1])
        if context.government is not None and set(context.government) == {a, b}:
            a, b = context.government
        return Conflict(a, b)
    asked = _has(toks[:at], W.QWORD) or (toks[-1].sym == W.QMARK and _has(toks[at:], W.QWORD))
    if asked:  # "who has a conflict?", "有衝突嗎？"
        return None
    if context.government is not None:
        return Conflict(*context.government)
    return Conflict()


# -- the entry point -------------------------------------------------------------------------


def recognise(
    text: str,
    *,
    players: int,
    names: Sequence[str | None] | None = None,
    lang: str | Iterable[str] | None = None,
    context: Context | None = None,
    first_seat: int = 1,
) -> list[Line]:
    """The claim and signals of one chat line, in the order said, each at most once.

    ``players``: the table's seat count (seats are 0-based; people write them 1-based:
    ``first_seat``, the number the writer gives the first seat, is 0 for a language model,
    whose prompts number seats as the engine does);
    ``names``: display names by seat, since people name players as often as they number
    them; ``lang``: the language the line may be in, or several (the speaker's and the
    table's): Vietnamese among them reads Vietnamese typed without its marks ("toi boc 2 do 1
    xanh", which a line with marks enables too) and words with a mark missing or wrong;
    ``context``: what the speaker may claim (``Context``).
    Any text is safe: the work is bounded and nothing in the text makes it raise."""
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 99:
        raise ValueError(f"players must be a seat count from 1 to 99, not {players!r}")
    if not isinstance(text, str):
        return []
    context = context or NO_CONTEXT
    text = _normalise(text)
    langs = {lang} if isinstance(lang, str) else set(lang) if lang is not None else set()
    vietnamese = "vi" in langs or bool(_VIETNAMESE_MARKS.search(text.lower()))
    text = _mark_names(text, names, vietnamese)
    if first_seat not in (0, 1):
        raise ValueError(f"first_seat must be 0 or 1, not {first_seat!r}")
    toks = _tokens(text, players, vietnamese, first_seat)
    size_hint = max((_SIZE[s] for s in context.open_claims if s in _SIZE), default=None)
    out: list[Line] = []
    groups = _groups(toks, size_hint)
    claim = _claim(toks, groups, context)
    if claim is not None:
        out.append(claim)
    investigator = context.investigated is not None
    for group in groups:  # cards, never a statement about a seat ("passed 1 red and 1 blue")
        if not (group.singular or (group.bare and investigator)):
            _use(toks, group)
    question = _question(toks, players)
    if question is None and claim is None:
        question = _open_question(toks, context, players)
    _party_lines(toks, context, players, out)
    if question is None:
        _judgements(toks, players, out)
    else:
        out.append(question)
    conflict = _conflict(toks, context, players)
    if conflict is not None:
        out.append(conflict)
    return _unique(out)


def _unique(lines: list[Line]) -> list[Line]:
    seen: set[Line] = set()
    out: list[Line] = []
    for line in lines:
        if line not in seen:
            seen.add(line)
            out.append(line)
    return out
