"""Who is what in a line's meanings: the recogniser's third step (``recognise.py``).

A seat said with a party ("3 is red", "4 liberal"), an accusation or trust with its certainty
("3 is lying", "I trust 5", "I know 2 is fascist"), a Hitler guess, a Merlin guess and a claim
of a game type's role ("3 is Merlin", "I'm Percival"), a question put to a seat or to the table
("@3 why Nein?", "who do you all suspect?") and a conflict between a government's two hand
claims, each read from the words around a seat in the row.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.types import Party
from . import words as W
from .lines import (
    HEDGED,
    KNOWN,
    Accuse,
    Claim,
    Conflict,
    HitlerGuess,
    Line,
    MerlinGuess,
    Question,
    RoleClaim,
    Trust,
)
from .read_claims import card_colour
from .reading import CARD_NOUNS, Context, Row, Tok, row_has, row_says, seat_at

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


def _before(toks: Row, j: int, players: int, skip: frozenset[str] = _SKIP) -> _Said:
    """Seats said before ``toks[j]``: "3 and 5 are ...", "3 isn't ..."."""
    seats: list[int] = []
    places: list[int] = []
    negated = either = False
    k = j - 1
    while k >= 0 and j - k <= 7:
        tok = toks[k]
        seat = seat_at(toks, k, players)
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


def _after(toks: Row, j: int, players: int, skip: frozenset[str] = _SKIP) -> _Said:
    """Seats said after ``toks[j]``: "trust 2 but not 5", "конфликт 3 и 5"."""
    out: list[tuple[int, bool]] = []
    places: list[int] = []
    negated = either = False
    k = j + 1
    while k < len(toks) and k - j <= 7:
        tok = toks[k]
        seat = seat_at(toks, k, players)
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


def _certainty(toks: Row, default: str) -> str:
    return HEDGED if row_says(toks, W.HEDGE) else default


def read_party_lines(toks: Row, context: Context, players: int, out: list[Line]) -> None:
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
                and not row_says(toks, W.QWORD, W.FUTURE, W.WHY)
            ):
                if any_seat is None:
                    any_seat = any(seat_at(toks, k, players) is not None for k in range(len(toks)))
                if not any_seat:
                    party = Party.FASCIST if tok.val == "F" else Party.LIBERAL
                    out.append(Claim("investigation", target=context.investigated, party=party))
            continue
        tok.used = True
        for seat, negated in said.seats:
            party = Party.FASCIST if (tok.val == "F") != negated else Party.LIBERAL
            investigated = (said_inv and not row_says(toks, W.FUTURE)) or (
                seat == context.investigated
                or ("investigation" in context.open_claims and context.investigated is None)
            )
            if investigated:
                out.append(Claim("investigation", target=seat, party=party))
            elif party is Party.FASCIST:
                out.append(Accuse(seat, _certainty(toks, KNOWN)))
            else:
                out.append(Trust(seat, _certainty(toks, KNOWN)))


def read_judgements(toks: Row, players: int, out: list[Line]) -> None:
    """Lying, suspicion, trust, "hard lib", CNH, Hitler, "shoot 4"."""
    asking = row_says(toks, W.WHY)
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
            if (
                said.seats
                and not said.seats[0][1]
                and k < len(toks)
                and card_colour(toks[k]) == "L"
            ):
                out.append(Accuse(said.seats[0][0], HEDGED))
        elif sym in (W.HARDLIB, W.CNH):
            said = _before(toks, j, players)
            reason = "not_hitler" if sym == W.CNH else None
            for seat, _ in said.seats or _after(toks, j, players).seats:
                out.append(Trust(seat, KNOWN, reason))
        elif sym == W.ROLE:
            _read_role(toks, j, players, asking, out)
        elif sym == W.HITLER:
            said = _before(toks, j, players)
            for seat, neg in said.seats or _after(toks, j, players).seats:
                if neg:
                    out.append(Trust(seat, KNOWN, "not_hitler"))
                else:
                    out.append(HitlerGuess(seat, _certainty(toks, KNOWN)))
        elif sym == W.SHOOT and not asking:
            if not row_has(toks[max(0, j - 2) : j], W.NOT):
                for seat, neg in _after(toks, j, players).seats:
                    if not neg:
                        out.append(Accuse(seat, HEDGED))
        elif sym == W.JA and tok.text == "за" and not asking:
            for seat, neg in _after(toks, j, players).seats[:1]:  # "я за 5"
                if not neg:
                    out.append(Trust(seat, HEDGED))


def _read_role(toks: Row, j: int, players: int, asking: bool, out: list[Line]) -> None:
    """A game type's role word: of a seat, a Merlin guess ("3 is Merlin", "Мерлин — 5", "3号是
    梅林"; "3 or 5 is Merlin" hedged for each); of the speaker, a role claim ("I'm Percival",
    "я Монархист", "我是梅林", "tôi là Merlin", "perc claim"). Another seat's Percival or
    Monarchist, a denial, a question or a wish says nothing a line holds."""
    role = str(toks[j].val)
    said = _before(toks, j, players, _SKIP | {W.I})  # "3 and 5 are my Merlins" (Percival's)
    seats = said.seats or _after(toks, j, players).seats
    if seats:
        if role == "merlin" and not asking:
            either = said.either or len(seats) > 1
            for seat, negated in seats:
                if not negated:
                    out.append(MerlinGuess(seat, HEDGED if either else _certainty(toks, KNOWN)))
        return
    if asking or row_says(toks, W.QWORD, W.QMARK):
        return
    claimed = j + 1 < len(toks) and toks[j + 1].sym == W.ASK_CLAIM  # "perc claim"
    if claimed or _said_by_the_speaker(toks, j):
        out.append(RoleClaim(role))


def _said_by_the_speaker(toks: Row, j: int) -> bool:
    """Whether ``toks[j]`` is said of the speaker: "I" just before it ("I'm", "I am the",
    "я", "我是", "tôi là"), or ending the line after it ("Мерлин — это я", "梅林就是我"),
    with no "not" between."""
    k = j - 1
    while k >= 0 and j - k <= 4:
        sym = toks[k].sym
        if sym == W.I:  # but "if I were Merlin", "not me"
            return k == 0 or toks[k - 1].sym not in _NOT_SAID
        if sym not in _SKIP:
            break
        k -= 1
    k = j + 1
    while k < len(toks) and toks[k].sym in _SKIP:
        k += 1
    return k < len(toks) and toks[k].sym == W.I and all(t.sym in _AFTER_I for t in toks[k + 1 :])


# What may follow "it's me" at the end of a line: "Merlin là mình đây", "it's me!".
_AFTER_I = frozenset({W.STOP, W.OTHER, W.FILLER})
# What before "I" makes no claim of it: a wish or plan, a denial ("if I were Merlin").
_NOT_SAID = frozenset({W.WISH, W.FUTURE, W.NOT})


_TOPICS = ((W.NOMINATE, "nomination"), (W.INV, "investigation"), (W.SHOOT, "execution"))
# What makes a "why" about a seat an accusation's: "why do you suspect 3?", "why is 3 H?"
_BLAME = frozenset({W.SUS, W.LIE, W.HITLER})


def _blamed(toks: Row, why: int, players: int) -> tuple[int, int] | None:
    """The seat (and where it is said) a "why" asks an accusation of: "why do you suspect 3?",
    "почему 3 — фашист?", "почему тебе не нравится 3?", "为什么怀疑3号", "sao nghi số 3"; a
    seat said before the "why" is the one asked."""
    if row_says(toks, W.ENACT, W.PASSED):
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


def read_question(toks: Row, players: int) -> Question | None:
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
    seats = [(k, s) for k in range(len(toks)) if (s := seat_at(toks, k, players)) is not None]
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


def _leads(toks: Row, at: int, players: int, comma: bool = True) -> bool:
    """Whether only fillers and an address come before ``toks[at]``; ``comma``: the address
    ends in one ("Bot 3, who ..."), so that "3 who passed red is lying" is no question."""
    before = toks[:at]
    if any(t.sym not in _LEAD and seat_at(toks, k, players) is None for k, t in enumerate(before)):
        return False
    named = any(seat_at(toks, k, players) is not None for k in range(at))
    return not (named and comma) or before[-1].sym in (W.COMMA, W.SEP)


def _addressee(toks: Row, at: int, players: int) -> int | None:
    """The seat a question is put to: named before it ("Bot 3, who do you trust?") or last,
    after a comma ("who do you suspect, 3?")."""
    for k in range(at):
        seat = seat_at(toks, k, players)
        if seat is not None:
            return seat
    end = len(toks)
    while end > 0 and toks[end - 1].sym in (W.QMARK, W.STOP):
        end -= 1
    if end >= 2 and toks[end - 2].sym in (W.COMMA, W.SEP) and end - 1 > at:
        return seat_at(toks, end - 1, players)
    return None


def read_open_question(toks: Row, context: Context, players: int) -> Question | None:
    """An open question to a seat or the table: "who do you suspect?", "кого вы
    подозреваете?", "你们怀疑谁？", "các bạn nghi ai?", "who should I nominate?", "who is
    Hitler?", "who do you trust?"; a call for a claim: "what did you get?", "claim?",
    "что пришло?", "你拿到什么？", "bạn bốc được gì?"."""
    asked = row_says(toks, W.QMARK)
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
    cards = row_says(toks, W.GOT, W.PASSED, W.PEEK, W.CLASSIFIER) or any(
        t.text in CARD_NOUNS for t in toks
    )  # what he drew, passed or saw, not "what?"
    if tok.sym == W.ASK_CLAIM:
        alone = all(  # "claim pls", "3 claim", "khai bài đi"
            t.sym in _LEAD
            or t.sym == W.FUTURE
            or k == what
            or seat_at(toks, k, players) is not None
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


def _what(tok: Tok) -> bool:
    return tok.sym in (W.WHAT, W.ASK_CLAIM) or (tok.sym == W.FILLER and tok.val == "what")


def _asked(toks: Row, topic: str, to: int | None) -> Question:
    for tok in toks:
        if tok.sym in (W.SEAT, W.NUM):
            tok.used = True
    return Question(topic, to=to)


def read_conflict(toks: Row, context: Context, players: int) -> Conflict | None:
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
    asked = row_has(toks[:at], W.QWORD) or (toks[-1].sym == W.QMARK and row_has(toks[at:], W.QWORD))
    if asked:  # "who has a conflict?", "有衝突嗎？"
        return None
    if context.government is not None:
        return Conflict(*context.government)
    return Conflict()
