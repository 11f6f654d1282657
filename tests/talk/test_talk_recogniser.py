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

from secret_hitler import talk
from secret_hitler.engine import Game
from secret_hitler.engine.types import Party, Policy
from secret_hitler.talk.lines import CLAIMABLE_ROLES, QUESTION_TOPICS_WITH_OTHER
from secret_hitler.talk.recognise import MAX_CHARS

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import talk_recognizer as bench  # noqa: E402

F, L = Policy.FASCIST, Policy.LIBERAL
PRESIDENT = talk.Context(("president_hand",))
CHANCELLOR = talk.Context(("chancellor_hand",))


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    return bench.load()


def test_the_test_set_is_well_formed(rows: list[dict[str, Any]]) -> None:
    assert len(rows) >= 500
    assert len({row["id"] for row in rows}) == len(rows)
    for lang in talk.LANGUAGES:
        mine = [row for row in rows if row["lang"] == lang]
        assert len(mine) >= 60, lang
        assert {row["split"] for row in mine} == {"tune", "held_out"}, lang
        assert any(not row["expect"] for row in mine), lang  # ordinary lines too
    for row in rows:
        for claim in bench.expected_claims(row):
            talk.line_from_json(claim.to_json(), players=row["players"])
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
    assert talk.recognise("RB", players=7, context=CHANCELLOR) == [
        talk.Claim("chancellor_hand", (F, L))
    ]
    assert talk.recognise("RB", players=7, context=PRESIDENT) == []  # what he passed: no claim
    assert talk.recognise("RRB", players=7, context=PRESIDENT) == [
        talk.Claim("president_hand", (F, F, L))
    ]
    assert talk.recognise("BRR", players=7) == [talk.Claim("president_hand", (F, F, L))]
    assert talk.recognise("BBR passed RB", players=7) == [
        talk.Claim("president_hand", (F, L, L), passed=(F, L))
    ]
    assert talk.recognise("ККС, скинул синий", players=7) == [
        talk.Claim("president_hand", (F, F, L), passed=(F, F))
    ]


def test_a_peek_keeps_its_order() -> None:
    peek = talk.Context(("peek",))
    assert talk.recognise("BRB", players=7, context=peek) == [talk.Claim("peek", (L, F, L))]
    assert talk.recognise("top 3: BBR", players=7) == [talk.Claim("peek", (L, L, F))]
    both = talk.Context(("president_hand", "peek"))
    assert talk.recognise("RBR", players=7, context=both) == [
        talk.Claim("president_hand", (F, F, L))
    ]


def test_a_party_is_an_investigation_only_from_the_investigator() -> None:
    investigated = talk.Context(("investigation",), investigated=3)
    claim = talk.Claim("investigation", target=3, party=Party.FASCIST)
    assert talk.recognise("4 is red", players=7, context=investigated) == [claim]
    assert talk.recognise("fash", players=7, context=investigated) == [claim]
    assert talk.recognise("4 is red", players=7) == [talk.Accuse(3, "known")]
    assert talk.recognise("investigated 4: red", players=7) == [claim]
    assert talk.recognise("I'll investigate 4", players=7) == []
    assert talk.recognise("4 is red", players=7, context=talk.Context(investigated=5)) == [
        talk.Accuse(3, "known")
    ]


def test_the_claim_is_legal_when_the_speakers_window_is_open() -> None:
    game = Game(7, seed=3)
    seat = game.to_act()[0]
    while "president_hand" not in game.open_claims(seat):
        actor = game.to_act()[0]
        moves = [a for a in game.legal_actions(actor) if a.type != "claim" and a.ja is not False]
        game.apply(moves[0])
    context = talk.Context(game.open_claims(seat))
    for text in ("rrb", "2 reds 1 blue", "ККС", "两红一蓝", "đỏ đỏ xanh"):
        [claim] = talk.recognise(text, players=7, context=context)
        assert isinstance(claim, talk.Claim)
        assert game.is_legal(claim.to_action(seat)), text


def test_seats_are_read_as_people_write_them() -> None:
    names = ["Alice", "Bob", "Оля", "Bot 4", None, "小明", "a.*b"]
    assert talk.recognise("Bob is lying", players=7, names=names) == [talk.Accuse(1, "known")]
    assert talk.recognise("верю Оле", players=7, names=names) == [talk.Trust(2, "hedged")]
    assert talk.recognise("Бот 4, почему против?", players=7) == [
        talk.Question("vote", to=3, ja=False)
    ]
    assert talk.recognise("小明在骗人", players=7, names=names) == [talk.Accuse(5, "known")]
    assert talk.recognise("a.*b is H", players=7, names=names) == [talk.HitlerGuess(6, "known")]
    assert talk.recognise("8 is lying", players=7) == []  # no seat 8 at seven
    assert talk.recognise("tin số 2", players=7) == [talk.Trust(1, "hedged")]
    assert talk.recognise("3号和5号冲突", players=7) == [talk.Conflict(2, 4)]
    # a name in any case, a Russian one in its case forms too; a name glued to Han text
    assert talk.recognise("BOB is lying", players=7, names=names) == [talk.Accuse(1, "known")]
    assert talk.recognise("ВЕРЮ ОЛЕ", players=7, names=names) == [talk.Trust(2, "hedged")]
    assert talk.recognise("alice是法西斯", players=7, names=names) == [talk.Accuse(0, "known")]
    assert talk.recognise("Alicea is lying", players=7, names=names) == []  # another word


def test_the_longest_name_wins_whatever_its_script() -> None:
    """Names that begin one another, Latin, Han and both: the longest one written is read, and
    a name is a word of its own except beside Han characters."""
    names = ["Li", "Li王", "王小", "王小明", "Anna", "Ann"]
    said = {
        "Li王 is lying": 1,
        "Li is lying": 0,
        "王小明是法西斯": 3,
        "王小是法西斯": 2,
        "Anna is lying": 4,
        "ann是法西斯": 5,
        "我觉得Li王在骗人": 1,
    }
    for text, seat in said.items():
        (line,) = talk.recognise(text, players=7, names=names)
        assert isinstance(line, talk.Accuse) and line.target == seat, text
    assert talk.recognise("Annabel is lying", players=7, names=names) == []


def test_passed_counts_are_the_passed_pair_never_a_seat() -> None:
    """ "passed 1 fascist and 1 liberal" names cards: with the hand, its passed pair; alone, a
    president's words on what he passed (no claim of his own three); never seat 1's party."""
    for text, lang in [
        ("passed 1 fascist and 1 liberal", "en"),
        ("отдал 1 красный 1 синий", "ru"),
        ("给了1红1蓝", "zh-Hans"),
        ("tôi đưa 1 đỏ 1 xanh", "vi"),
    ]:
        for context in (PRESIDENT, talk.Context()):
            assert talk.recognise(text, players=7, lang=lang, context=context) == [], text
    for text in ("RRB, passed 1 fascist and 1 liberal", "ККС, отдал 1 красный 1 синий"):
        assert talk.recognise(text, players=7, context=PRESIDENT) == [
            talk.Claim("president_hand", (F, F, L), passed=(F, L))
        ], text
    assert talk.recognise("got 1 red and 1 blue", players=7, context=CHANCELLOR) == [
        talk.Claim("chancellor_hand", (F, L))
    ]


def test_a_hand_in_a_wish_or_a_plan_is_no_claim() -> None:
    for text in (
        "hoping for BB",
        "need LL next time",
        "надеюсь на СС",
        "希望两蓝",
        "mong xanh xanh",
    ):
        for context in (CHANCELLOR, talk.Context()):
            assert talk.recognise(text, players=7, context=context) == [], text
    # a report beside a wish is still read
    assert talk.recognise("got RB, hoping for BB next time", players=7, context=CHANCELLOR) == [
        talk.Claim("chancellor_hand", (F, L))
    ]


def test_an_investigators_count_and_colour_is_his_investigation() -> None:
    """ "3 red" from the seat that investigated 3 is 3's party, even while his hand claim is
    open too; "3 reds" stays a hand; from anyone else with a hand open, three reds."""
    both = talk.Context(("investigation", "president_hand"), investigated=2)
    fascist = talk.Claim("investigation", target=2, party=Party.FASCIST)
    for text, lang in [("3 red", "en"), ("3 красный", "ru"), ("3红", "zh-Hans"), ("3 đỏ", "vi")]:
        assert talk.recognise(text, players=7, lang=lang, context=both) == [fascist], text
        assert talk.recognise(text, players=7, lang=lang, context=PRESIDENT) == [
            talk.Claim("president_hand", (F, F, F))
        ], text
    assert talk.recognise("3 reds", players=7, context=both) == [
        talk.Claim("president_hand", (F, F, F))
    ]


def test_vietnamese_without_its_marks_or_with_a_wrong_one() -> None:
    """At a Vietnamese table (the speaker's or the table's language), words typed bare or with
    a mark missing or wrong read as the words; an ambiguous bare word ("ban": bạn or bắn) as
    nothing. Without Vietnamese among the languages, bare words are other languages' words."""
    hand = [talk.Claim("president_hand", (F, F, L))]
    for text in ("toi boc 2 do 1 xanh", "tôi bôc 2 dỏ 1 xanh", "boc do do xanh"):
        assert talk.recognise(text, players=7, lang="vi", context=PRESIDENT) == hand, text
        assert talk.recognise(text, players=7, lang=["en", "vi"], context=PRESIDENT) == hand
    assert talk.recognise("toi boc 2 do 1 xanh", players=7, lang="en") != hand
    assert talk.recognise("sô 3 nói dôi", players=7, lang="vi") == [talk.Accuse(2, "known")]
    assert talk.recognise("tin sô 5", players=7, lang="vi") == [talk.Trust(4)]
    assert talk.recognise("xem truoc do do xanh", players=7, lang="vi") == [
        talk.Claim("peek", (F, F, L))
    ]
    assert talk.recognise("ban so 3", players=7, lang="vi") == []


@pytest.mark.parametrize(
    ("text", "question"),
    [
        ("who do you suspect?", talk.Question("who_suspect")),
        ("кого вы подозреваете?", talk.Question("who_suspect")),
        ("你们怀疑谁？", talk.Question("who_suspect")),
        ("你們懷疑誰？", talk.Question("who_suspect")),
        ("các bạn nghi ai?", talk.Question("who_suspect")),
        ("Bot 3, who do you trust?", talk.Question("who_trust", to=2)),
        ("who should I nominate?", talk.Question("who_nominate")),
        ("кого мне выбрать канцлером?", talk.Question("who_nominate")),
        ("ai là Hitler?", talk.Question("who_hitler")),
        ("what did you get?", talk.Question("claim")),
        ("Бот 5, что пришло?", talk.Question("claim", to=4)),
        ("why do you suspect 3?", talk.Question("accusation", other=2)),
        ("为什么怀疑3号？", talk.Question("accusation", other=2)),
        ("Bot 5, why did you vote Nein?", talk.Question("vote", to=4, ja=False)),
        ("Bot 8, why did you nominate 3?", talk.Question("nomination", to=7, other=2)),
    ],
)
def test_questions_to_a_seat_or_the_table(text: str, question: talk.Question) -> None:
    assert talk.recognise(text, players=10) == [question]


def test_a_call_for_the_presidents_claim_is_put_to_the_president() -> None:
    government = talk.Context(government=(1, 4))
    assert talk.recognise("pres claim?", players=7, context=government) == [
        talk.Question("claim", to=1)
    ]
    assert talk.recognise("chanc claim?", players=7, context=government) == [
        talk.Question("claim", to=4)
    ]
    for text in (
        "their claim conflicts with 3's",
        "claims incoming",
        "wait what",
        "3 who passed red is lying",
    ):
        assert not any(isinstance(line, talk.Question) for line in talk.recognise(text, players=7))


def test_ordinary_lines_say_nothing() -> None:
    for text in ("lol", "brb", "bb guys", "2 more games?", "who wants another game?", "ты где?"):
        assert talk.recognise(text, players=7) == [], text
    assert talk.recognise("do mạng lag", players=7, lang="vi") == []


# -- secrethitler.io's game types ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lang", "lines"),
    [
        ("5 is merlin", "en", [talk.MerlinGuess(4, "known")]),
        ("i think 2 is merlin", "en", [talk.MerlinGuess(1)]),
        ("3 and 6 are my merlins", "en", [talk.MerlinGuess(5), talk.MerlinGuess(2)]),
        ("perc claim", "en", [talk.RoleClaim("percival")]),
        ("Мерлин — это я", "ru", [talk.RoleClaim("merlin")]),
        ("我是保皇派", "zh-Hans", [talk.RoleClaim("monarchist")]),
        ("梅林是4號吧", "zh-Hant", [talk.MerlinGuess(3)]),
        ("mình là Percival", "vi", [talk.RoleClaim("percival")]),
        # what names a role but claims or guesses nothing
        ("if i were merlin i'd hide", "en", []),
        ("im not merlin", "en", []),
        ("3 isn't merlin", "en", []),
        ("who is merlin?", "en", []),
        ("am i merlin?", "en", []),
        ("4 is percival", "en", []),  # another seat's Percival: no line holds it
        ("кто Мерлин?", "ru", []),
        ("谁是梅林", "zh-Hans", []),
    ],
)
def test_merlin_guesses_and_role_claims(text: str, lang: str, lines: list[talk.Line]) -> None:
    """A game type's role said of a seat is a Merlin guess ("3 or 5" hedged for each: Percival's
    pair), said of the speaker a role claim; a wish, a denial or a question is neither."""
    assert talk.recognise(text, players=7, lang=lang) == lines


# -- what a bot says reads back --------------------------------------------------------------


def _spoken() -> list[tuple[talk.Line, talk.Context]]:
    hands = {"president_hand": [(F, F, L), (F, L, L), (L, L, L)], "chancellor_hand": [(F, L)]}
    hands["peek"] = [(L, F, L), (F, F, F)]
    out: list[tuple[talk.Line, talk.Context]] = []
    for v in range(4):
        for subject, options in hands.items():
            for hand in options:
                out.append((talk.Claim(subject, hand, variant=v), talk.Context((subject,))))
        out.append((talk.Claim("president_hand", (F, F, L), passed=(F, L), variant=v), PRESIDENT))
        for party in Party:
            claim = talk.Claim("investigation", target=3, party=party, variant=v)
            out.append((claim, talk.Context(("investigation",), 3)))
        for certainty in talk.CERTAINTIES:
            out.append((talk.Accuse(2, certainty, variant=v), talk.Context()))
            out.append((talk.Accuse(2, certainty, "conflict", other=5, variant=v), talk.Context()))
            out.append((talk.Trust(4, certainty, variant=v), talk.Context()))
            out.append((talk.HitlerGuess(5, certainty, variant=v), talk.Context()))
            out.append((talk.MerlinGuess(3, certainty, variant=v), talk.Context()))
        for role in CLAIMABLE_ROLES:
            out.append((talk.RoleClaim(role, variant=v), talk.Context()))
        out.append((talk.Conflict(1, 4, variant=v), talk.Context()))
        out.append((talk.Conflict(variant=v), talk.Context()))
        out.append((talk.Question("vote", to=2, ja=True, variant=v), talk.Context()))
        out.append((talk.Question("vote", ja=False, variant=v), talk.Context()))
        out.append((talk.Question("policy", to=2, variant=v), talk.Context()))
        for topic in talk.QUESTION_TOPICS:
            other = 4 if topic in QUESTION_TOPICS_WITH_OTHER else None
            for to in (None, 1):  # to the table, to one seat
                out.append((talk.Question(topic, to=to, other=other, variant=v), talk.Context()))
    return out


@pytest.mark.parametrize("lang", talk.LANGUAGES)
@pytest.mark.parametrize(
    "names", [None, ["Alice", "Bob", "Chen", "Dmitri", "Eva", "Felix", "Bot 7"]]
)
def test_what_a_bot_says_reads_back(lang: str, names: list[str] | None) -> None:
    """Every wording of the kinds the recogniser covers, in every language, with numbers and
    with names, is read back as the line said (hands in the engine's order)."""
    for line, context in _spoken():
        text = talk.render(line, lang, names)
        got = talk.recognise(text, players=7, names=names, lang=lang, context=context)
        if isinstance(line, talk.Claim):
            assert [g for g in got if isinstance(g, talk.Claim)] == [_as_read(line)], (lang, text)
        else:
            keys = {bench.signal_key(g) for g in got if not isinstance(g, talk.Claim)}
            assert bench.signal_key(line) in keys, (lang, text, got)


def _as_read(claim: talk.Claim) -> talk.Claim:
    """The claim as recognised: no wording, a hand in the engine's order."""
    if claim.policies is None or claim.is_peek:
        return replace(claim, variant=0)
    passed = None if claim.passed is None else tuple(sorted(claim.passed, key=_fascist_first))
    return talk.Claim(
        claim.subject, tuple(sorted(claim.policies, key=_fascist_first)), passed=passed
    )


def _fascist_first(policy: Policy) -> bool:
    return policy is not Policy.FASCIST


# -- hostile input ---------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(max_size=700),
    names=st.one_of(st.none(), st.lists(st.one_of(st.none(), st.text(max_size=40)), max_size=12)),
    lang=st.sampled_from([None, *talk.LANGUAGES, "xx"]),
    players=st.integers(min_value=1, max_value=12),
)
def test_no_text_makes_it_fail(
    text: str, names: list[str | None] | None, lang: str | None, players: int
) -> None:
    got = talk.recognise(text, players=players, names=names, lang=lang)
    for line in got:
        assert line.kind in talk.KINDS
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
    for line in talk.recognise(" ".join(words), players=7, context=PRESIDENT):
        assert talk.line_from_json(line.to_json(), players=7) == line


def test_the_work_is_bounded() -> None:
    """Only the first MAX_CHARS characters are read, whatever follows."""
    assert talk.recognise("x" * MAX_CHARS + " RRB", players=7) == []
    assert talk.recognise("RRB " + "\u0301" * 10_000 + "ﷺ" * 5_000, players=7)[0] == talk.Claim(
        "president_hand", (F, F, L)
    )
    assert talk.recognise("RRB\u200b", players=7) == [talk.Claim("president_hand", (F, F, L))]


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="players"):
        talk.recognise("RRB", players=0)
    assert talk.recognise(None, players=7) == []  # type: ignore[arg-type]
    assert talk.recognise("Bob is lying", players=7, names=[None, 42, "Bob"]) == [  # type: ignore[list-item]
        talk.Accuse(2, "known")
    ]


def test_seat_numbers_are_read_from_the_writers_first_seat() -> None:
    """People number seats from 1; a language model numbers them from 0, as its prompts do
    (``first_seat=0``): the same words name the seat the writer meant. A name is a name either
    way ("Alpha 2" at the second seat is not seat 2), and a number outside the table none."""
    names = ["Host", "Alpha 2", "Bot 3", "Cy", "Dee"]
    for text, person, model in [
        ("seat 2 is Hitler", talk.HitlerGuess(1, "known"), talk.HitlerGuess(2, "known")),
        ("seat 0 is Hitler", None, talk.HitlerGuess(0, "known")),
        ("I trust seat 4", talk.Trust(3), talk.Trust(4)),
        ("seat 5 is a fascist", talk.Accuse(4, "known"), None),
    ]:
        assert talk.recognise(text, players=5) == ([person] if person else []), text
        read = talk.recognise(text, players=5, first_seat=0, names=names)
        assert read == ([model] if model else []), text
    for text, seat in [("Alpha 2 is Hitler", 1), ("Bot 3 is Hitler", 2)]:
        for first in (0, 1):
            found = talk.recognise(text, players=5, names=names, first_seat=first)
            assert found == [talk.HitlerGuess(seat, "known")], (text, first)
    with pytest.raises(ValueError, match="first_seat"):
        talk.recognise("seat 2", players=5, first_seat=2)
