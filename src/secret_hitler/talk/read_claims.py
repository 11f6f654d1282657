"""Cards and claims in a line's meanings: the recogniser's second step (``recognise.py``).

Every run of cards in the row ("RRB", "red red blue", "three reds", "2 đỏ 1 xanh") is a group;
a group is a claim when the speaker may make one of its size (``Context.open_claims``) or a cue
says so ("drew", "passed", "peek"), and "4 is red" after an investigation is the speaker's
investigation claim. A president's "BBR passed RB" says what he handed on. Cards used here are
never read again as a statement about a seat (``use_group``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.actions import CLAIM_CHANCELLOR_HAND, CLAIM_PEEK, CLAIM_PRESIDENT_HAND
from ..engine.types import Policy
from . import words as W
from .lines import Claim
from .reading import CARD_NOUNS, CLAIM_SIZE, Context, Row, Tok, row_has, row_says

_POLICY = {"F": Policy.FASCIST, "L": Policy.LIBERAL}


# -- card groups -----------------------------------------------------------------------------


@dataclass(slots=True)
class Group:
    codes: str  # "F"/"L" per card, as said
    first: int  # token span
    last: int
    strong: bool  # reads as a claim with no context or cue
    singular: bool = False  # "3 red", "4 красный": also a seat and a party
    bare: bool = False  # a digit and a colour with no plural ending, classifier or noun ("3 đỏ")


def card_colour(tok: Tok) -> str | None:
    """ "F" or "L" for a colour word or a single card letter, else None."""
    if tok.sym == W.COLOR:
        return str(tok.val)
    return str(tok.val[0]) if _is_letter(tok) else None


def _is_color(tok: Tok) -> bool:
    return tok.sym == W.COLOR and not tok.used


def _is_letter(tok: Tok) -> bool:
    return tok.sym == W.CARDS and len(tok.val[0]) == 1


def read_groups(toks: list[Tok], size_hint: int | None) -> list[Group]:
    """Every run of cards in the line: letters ("RRB", "r r b"), colour words ("red red
    blue", "红红蓝"), counts ("2 reds 1 blue", "两红一蓝", "three reds") and "all red"."""
    out: list[Group] = []
    i, n = 0, len(toks)
    while i < n:
        tok = toks[i]
        group = None
        if tok.sym == W.CARDS and len(tok.val[0]) >= 2:
            low = tok.text
            strong = tok.upper or (len(low) == 3 and low != "brb")
            group = Group(tok.val[0], i, i, strong)
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


def _letter_run(toks: list[Tok], i: int) -> Group | None:
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
    return Group(codes, i, last, True) if len(codes) >= 2 else None


def _color_run(toks: list[Tok], i: int) -> Group | None:
    codes, last, k = "", i, i
    while k < len(toks) and len(codes) < 3:
        tok = toks[k]
        if _is_color(tok):
            codes += tok.val
            last = k
        elif tok.sym not in (W.SEP, W.COMMA, W.AND) or not codes:
            break
        k += 1
    return Group(codes, i, last, True) if len(codes) >= 2 else None


def _count_item(toks: list[Tok], k: int) -> tuple[int, str, int, bool | None] | None:
    """``NUM [classifier] COLOUR`` at ``k``: (count, colour, last index, plural)."""
    tok = toks[k]
    count = 1 if tok.sym == W.ART else tok.val if tok.sym == W.NUM else 0
    if not 1 <= count <= 3:
        return None
    j = k + 1
    if j < len(toks) and toks[j].sym == W.CLASSIFIER:
        j += 1
    colour = card_colour(toks[j]) if j < len(toks) and not toks[j].used else None
    if colour is not None:
        return count, colour, j, toks[j].plural
    return None


def _joined_count(toks: list[Tok], k: int) -> bool:
    """Whether "and" and a count follow the colour at ``k`` ("красный и два синих")."""
    j = k + 1
    while j < len(toks) and toks[j].sym in (W.AND, W.COMMA):
        j += 1
    return j > k + 1 and j < len(toks) and _count_item(toks, j) is not None


def _count(toks: list[Tok], i: int) -> Group | None:
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
        return Group(codes, i, last, True)
    # One count: "three reds" is a hand when the speaker's claim is open or a cue says so;
    # "3 red" / "4 красный" may instead say seat 3's party (decided with the context).
    nxt = toks[last + 1].text if last + 1 < len(toks) else ""
    bare = (
        toks[i].sym == W.NUM
        and toks[i].text.isdigit()
        and items[0][3] is not True
        and last == i + 1  # no classifier: "3 张红" is cards
        and nxt not in CARD_NOUNS
    )
    return Group(codes, i, last, False, bare and items[0][3] is False, bare)


def _all(toks: list[Tok], i: int, size_hint: int | None) -> Group | None:
    j = i + 1
    if j < len(toks) and toks[j].sym == W.CLASSIFIER:
        j += 1
    if size_hint is None or j >= len(toks) or not _is_color(toks[j]):
        return None
    return Group(toks[j].val * size_hint, i, j, False)


# -- claims ----------------------------------------------------------------------------------


_BREAKS = frozenset({W.STOP, W.QMARK, W.COMMA, W.SEP})


def _planned(toks: Row, group: Group) -> bool:
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


def read_claim(toks: Row, groups: list[Group], context: Context) -> Claim | None:
    """The one claim of a line, from its card groups and what the speaker may claim. A seat
    whose investigation claim is open says a seat's party with "3 red", even when his hand
    claim is open too."""
    opened = set(context.open_claims)
    hand_open = bool(opened & set(CLAIM_SIZE))
    investigator = context.investigated is not None
    cue = row_says(toks, W.GOT, W.PASSED, W.PEEK, W.ARROW, W.I, W.DISCARD)
    usable = []
    for g in groups:
        if g.singular and (row_says(toks, W.INV) or not hand_open):
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
        peek = row_says(toks, W.PEEK) or (
            CLAIM_PEEK in opened and CLAIM_PRESIDENT_HAND not in opened
        )
        use_group(toks, hand)
        if peek:
            return Claim(CLAIM_PEEK, tuple(_POLICY[c] for c in hand.codes))
        return Claim(CLAIM_PRESIDENT_HAND, _sorted(hand.codes), passed=_passed(toks, groups, hand))
    twos = [g for g in usable if len(g.codes) == 2]
    if not twos:
        return None
    two = twos[0]
    before = toks[: two.first]
    if CLAIM_CHANCELLOR_HAND not in opened:
        if CLAIM_PRESIDENT_HAND in opened or row_has(before[-3:], W.PASSED):
            return None  # a president's "gave RB": no claim of his own three
        if not (two.strong or row_has(before, W.GOT)) or row_says(toks, W.FUTURE):
            return None
    use_group(toks, two)
    return Claim(CLAIM_CHANCELLOR_HAND, _sorted(two.codes))


def _sorted(codes: str) -> tuple[Policy, ...]:
    """A hand as the engine lists it: fascist policies first."""
    return tuple(_POLICY[c] for c in sorted(codes))


def use_group(toks: list[Tok], group: Group) -> None:
    for tok in toks[group.first : group.last + 1]:
        tok.used = True


def _passed(toks: list[Tok], groups: list[Group], hand: Group) -> tuple[Policy, ...] | None:
    """What a president says he handed on: "BBR passed RB", "RRB -> RR", "ККС, скинул С"."""
    after = [g for g in groups if g.first > hand.last]
    between = toks[hand.last + 1 : after[0].first] if after else []
    rest = list(hand.codes)
    if after and len(after[0].codes) == 2 and row_has(between, W.PASSED, W.ARROW):
        passed = after[0].codes
        use_group(toks, after[0])
    else:
        for k in range(hand.last + 1, min(len(toks), hand.last + 6)):
            if toks[k].sym != W.DISCARD:
                continue
            j = k + 1
            while j < len(toks) and toks[j].sym in (W.FILLER, W.ART):
                j += 1
            dropped = card_colour(toks[j]) if j < len(toks) else None
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
