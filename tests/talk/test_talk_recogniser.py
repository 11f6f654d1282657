"""The recogniser: the labelled chat lines reach the targets, the speaker's context decides what
a hand means, what a bot says reads back as the same line, and no text makes it fail."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from secret_hitler.engine import Game
from secret_hitler.engine.types import Party, Policy
from secret_hitler.talk import (
    CERTAINTIES,
    KINDS,
    LANGUAGES,
    Accuse,
    Claim,
    Conflict,
    Context,
    HitlerGuess,
    Line,
    Question,
    Trust,
    line_from_json,
    recognise,
    render,
)
from secret_hitler.talk.recognise import MAX_CHARS

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import talk_recognizer as bench  # noqa: E402

F, L = Policy.FASCIST, Policy.LIBERAL
PRESIDENT = Context(("president_hand",))
CHANCELLOR = Context(("chancellor_hand",))


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    return bench.load()


def test_the_test_set_is_well_formed(rows: list[dict[str, Any]]) -> None:
    assert len(rows) >= 500
    assert len({row["id"] for row in rows}) == len(rows)
    for lang in LANGUAGES:
        mine = [row for row in rows if row["lang"] == lang]
        assert len(mine) >= 60, lang
        assert {row["split"] for row in mine} == {"tune", "held_out"}, lang
        assert any(not row["expect"] for row in mine), lang  # ordinary lines too
    for row in rows:
        for claim in bench.expected_claims(row):
            line_from_json(claim.to_json(), players=row["players"])
        for key in bench.expected_signals(row):
            seats = [v for v in key[1:] if isinstance(v, int) and not isinstance(v, bool)]
            seats += list(key[1]) if key[0] == "conflict" else []
            assert all(0 <= seat < row["players"] for seat in seats), row["id"]


def test_targets_on_the_test_set(rows: list[dict[str, Any]]) -> None:
    """benchmarks/talk_recognizer.py prints these shares per language and per split."""
    shares = bench.score(rows).shares()
    assert shares["claims"] >= bench.TARGETS["claims"]
    assert shares["false_claims"] <= bench.TARGETS["false_claims"]
    assert shares["signals"] >= bench.TARGETS["signals"]
    assert shares["false_signals"] <= bench.TARGETS["false_signals"]


# -- what a hand means depends on the speaker ------------------------------------------------


def test_a_chancellors_two_and_a_presidents_three() -> None:
    assert recognise("RB", players=7, context=CHANCELLOR) == [Claim("chancellor_hand", (F, L))]
    assert recognise("RB", players=7, context=PRESIDENT) == []  # what he passed: no claim
    assert recognise("RRB", players=7, context=PRESIDENT) == [Claim("president_hand", (F, F, L))]
    assert recognise("BRR", players=7) == [Claim("president_hand", (F, F, L))]
    assert recognise("BBR passed RB", players=7) == [
        Claim("president_hand", (F, L, L), passed=(F, L))
    ]
    assert recognise("ККС, скинул синий", players=7) == [
        Claim("president_hand", (F, F, L), passed=(F, F))
    ]


def test_a_peek_keeps_its_order() -> None:
    peek = Context(("peek",))
    assert recognise("BRB", players=7, context=peek) == [Claim("peek", (L, F, L))]
    assert recognise("top 3: BBR", players=7) == [Claim("peek", (L, L, F))]
    both = Context(("president_hand", "peek"))
    assert recognise("RBR", players=7, context=both) == [Claim("president_hand", (F, F, L))]


def test_a_party_is_an_investigation_only_from_the_investigator() -> None:
    investigated = Context(("investigation",), investigated=3)
    claim = Claim("investigation", target=3, party=Party.FASCIST)
    assert recognise("4 is red", players=7, context=investigated) == [claim]
    assert recognise("fash", players=7, context=investigated) == [claim]
    assert recognise("4 is red", players=7) == [Accuse(3, "known")]
    assert recognise("investigated 4: red", players=7) == [claim]
    assert recognise("I'll investigate 4", players=7) == []
    assert recognise("4 is red", players=7, context=Context(investigated=5)) == [Accuse(3, "known")]


def test_the_claim_is_legal_when_the_speakers_window_is_open() -> None:
    game = Game(7, seed=3)
    seat = game.to_act()[0]
    while "president_hand" not in game.open_claims(seat):
        actor = game.to_act()[0]
        moves = [a for a in game.legal_actions(actor) if a.type != "claim" and a.ja is not False]
        game.apply(moves[0])
    context = Context(game.open_claims(seat))
    for text in ("rrb", "2 reds 1 blue", "ККС", "两红一蓝", "đỏ đỏ xanh"):
        [claim] = recognise(text, players=7, context=context)
        assert isinstance(claim, Claim)
        assert game.is_legal(claim.to_action(seat)), text


def test_seats_are_read_as_people_write_them() -> None:
    names = ["Alice", "Bob", "Оля", "Bot 4", None, "小明", "a.*b"]
    assert recognise("Bob is lying", players=7, names=names) == [Accuse(1, "known")]
    assert recognise("верю Оле", players=7, names=names) == [Trust(2, "hedged")]
    assert recognise("Бот 4, почему против?", players=7) == [Question("vote", to=3, ja=False)]
    assert recognise("小明在骗人", players=7, names=names) == [Accuse(5, "known")]
    assert recognise("a.*b is H", players=7, names=names) == [HitlerGuess(6, "known")]
    assert recognise("8 is lying", players=7) == []  # no seat 8 at seven
    assert recognise("tin số 2", players=7) == [Trust(1, "hedged")]
    assert recognise("3号和5号冲突", players=7) == [Conflict(2, 4)]


def test_ordinary_lines_say_nothing() -> None:
    for text in ("lol", "brb", "bb guys", "2 more games?", "who is hitler?", "ты где?", "哈哈"):
        assert recognise(text, players=7) == [], text
    assert recognise("do mạng lag", players=7, lang="vi") == []


# -- what a bot says reads back --------------------------------------------------------------


def _spoken() -> list[tuple[Line, Context]]:
    hands = {"president_hand": [(F, F, L), (F, L, L), (L, L, L)], "chancellor_hand": [(F, L)]}
    hands["peek"] = [(L, F, L), (F, F, F)]
    out: list[tuple[Line, Context]] = []
    for v in range(4):
        for subject, options in hands.items():
            for hand in options:
                out.append((Claim(subject, hand, variant=v), Context((subject,))))
        out.append((Claim("president_hand", (F, F, L), passed=(F, L), variant=v), PRESIDENT))
        for party in Party:
            claim = Claim("investigation", target=3, party=party, variant=v)
            out.append((claim, Context(("investigation",), 3)))
        for certainty in CERTAINTIES:
            out.append((Accuse(2, certainty, variant=v), Context()))
            out.append((Accuse(2, certainty, "conflict", other=5, variant=v), Context()))
            out.append((Trust(4, certainty, variant=v), Context()))
            out.append((HitlerGuess(5, certainty, variant=v), Context()))
        out.append((Conflict(1, 4, variant=v), Context()))
        out.append((Conflict(variant=v), Context()))
        out.append((Question("vote", to=2, ja=True, variant=v), Context()))
        out.append((Question("vote", ja=False, variant=v), Context()))
        out.append((Question("policy", to=2, variant=v), Context()))
        for topic in ("nomination", "investigation", "execution"):
            out.append((Question(topic, to=1, other=4, variant=v), Context()))
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    "names", [None, ["Alice", "Bob", "Chen", "Dmitri", "Eva", "Felix", "Bot 7"]]
)
def test_what_a_bot_says_reads_back(lang: str, names: list[str] | None) -> None:
    """Every wording of the kinds the recogniser covers, in every language, with numbers and
    with names, is read back as the line said (hands in the engine's order)."""
    for line, context in _spoken():
        text = render(line, lang, names)
        got = recognise(text, players=7, names=names, lang=lang, context=context)
        if isinstance(line, Claim):
            assert [g for g in got if isinstance(g, Claim)] == [_as_read(line)], (lang, text)
        else:
            keys = {bench.signal_key(g) for g in got if not isinstance(g, Claim)}
            assert bench.signal_key(line) in keys, (lang, text, got)


def _as_read(claim: Claim) -> Claim:
    """The claim as recognised: no wording, a hand in the engine's order."""
    if claim.policies is None or claim.is_peek:
        return replace(claim, variant=0)
    passed = None if claim.passed is None else tuple(sorted(claim.passed, key=_fascist_first))
    return Claim(claim.subject, tuple(sorted(claim.policies, key=_fascist_first)), passed=passed)


def _fascist_first(policy: Policy) -> bool:
    return policy is not Policy.FASCIST


# -- hostile input ---------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(max_size=700),
    names=st.one_of(st.none(), st.lists(st.one_of(st.none(), st.text(max_size=40)), max_size=12)),
    lang=st.sampled_from([None, *LANGUAGES, "xx"]),
    players=st.integers(min_value=1, max_value=12),
)
def test_no_text_makes_it_fail(
    text: str, names: list[str | None] | None, lang: str | None, players: int
) -> None:
    got = recognise(text, players=players, names=names, lang=lang)
    for line in got:
        assert line.kind in KINDS
        assert all(0 <= seat < players for seat in line.seats())


@settings(max_examples=100, deadline=None)
@given(
    words=st.lists(
        st.sampled_from(
            [
                "RRB",
                "3",
                "is",
                "lying",
                "红",
                "蓝",
                "号",
                "why",
                "ja",
                "không",
                "tin",
                "số",
                "конфликт",
                "и",
                "5",
                ",",
                "?",
                "passed",
                "RB",
                "hitler",
                "not",
                "@",
                "Bot",
            ]
        ),
        max_size=80,
    )
)
def test_jumbles_of_game_words_give_sound_lines(words: list[str]) -> None:
    for line in recognise(" ".join(words), players=7, context=PRESIDENT):
        assert line_from_json(line.to_json(), players=7) == line


def test_the_work_is_bounded() -> None:
    """Only the first MAX_CHARS characters are read, whatever follows."""
    assert recognise("x" * MAX_CHARS + " RRB", players=7) == []
    assert recognise("RRB " + "\u0301" * 10_000 + "ﷺ" * 5_000, players=7)[0] == Claim(
        "president_hand", (F, F, L)
    )
    assert recognise("RRB\u200b", players=7) == [Claim("president_hand", (F, F, L))]


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="players"):
        recognise("RRB", players=0)
    assert recognise(None, players=7) == []  # type: ignore[arg-type]
    assert recognise("Bob is lying", players=7, names=[None, 42, "Bob"]) == [  # type: ignore[list-item]
        Accuse(2, "known")
    ]
