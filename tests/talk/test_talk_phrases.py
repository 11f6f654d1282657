"""Phrase sets: every line of every kind says everything it carries, in every language and every
wording, in the web client's catalog format (same keys, same placeholders, every plural form)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from collections.abc import Iterator
from importlib import resources

import pytest

from secret_hitler import talk
from secret_hitler.engine.actions import CLAIM_SIZES
from secret_hitler.engine.types import Party, Policy
from secret_hitler.talk.lines import CLAIMABLE_ROLES, QUESTION_TOPICS_WITH_OTHER
from secret_hitler.talk.phrases import (
    LANGUAGES,
    PLACEHOLDER,
    family_sizes,
    plural_category,
    seat_name,
)

NAMES = [f"Seat{s}x" for s in range(10)]  # a seat's name, easy to find in the text


COUNTS = (1, 2, 3, 5)  # a plural's forms: one, few and many in Russian, one and other in English


def _reason_lines(kind: str) -> Iterator[talk.Line]:
    for reason, needs in [(None, ())] + list(talk.REASONS[kind].items()):
        for count, variant in itertools.product(COUNTS if "count" in needs else (None,), range(4)):
            extra = {"other": 5, "count": count, "against": 6}
            fields = {n: extra[n] for n in needs}
            if kind == "accuse" or kind == "trust":
                cls = talk.Accuse if kind == "accuse" else talk.Trust
                for certainty in talk.CERTAINTIES:
                    yield cls(3, certainty, reason, variant=variant, **fields)
            elif kind == "defend":
                yield talk.Defend(reason, variant=variant, **fields)
            elif kind == "explain_vote":
                for ja in (True, False):
                    yield talk.ExplainVote(ja, reason, variant=variant, **fields)
            elif kind == "explain_nomination":
                yield talk.ExplainNomination(3, reason, variant=variant, **fields)


def every_line() -> Iterator[talk.Line]:
    """Every kind, subject, reason, certainty and wording (variants past a family's size wrap)."""
    for variant in range(5):
        for subject, size in CLAIM_SIZES.items():
            for hand in itertools.product((Policy.FASCIST, Policy.LIBERAL), repeat=size):
                yield talk.Claim(subject, hand, variant=variant)
        for hand in itertools.product((Policy.FASCIST, Policy.LIBERAL), repeat=3):
            passed = hand[1:]
            yield talk.Claim("president_hand", hand, passed=passed, variant=variant)
        for party in Party:
            yield talk.Claim("investigation", target=4, party=party, variant=variant)
        for certainty in talk.CERTAINTIES:
            yield talk.HitlerGuess(2, certainty, variant=variant)
        yield talk.Conflict(variant=variant)
        yield talk.Conflict(1, 4, variant=variant)
        yield talk.Conflict(1, 4, believe=4, variant=variant)
        for topic in talk.QUESTION_TOPICS:
            other = 5 if topic in QUESTION_TOPICS_WITH_OTHER else None
            yield talk.Question(topic, other=other, variant=variant)
            yield talk.Question(topic, to=2, other=other, variant=variant)
        for ja in (True, False):
            yield talk.Question("vote", to=7, ja=ja, variant=variant)
    for kind in ("accuse", "trust", "defend", "explain_vote", "explain_nomination"):
        yield from _reason_lines(kind)
    yield talk.Answer(talk.ExplainVote(False, "distrust", other=5), to=1)
    yield talk.Answer(talk.Claim("chancellor_hand", (Policy.FASCIST, Policy.FASCIST)))
    yield from _new_kinds()
    yield from _game_type_kinds()
    yield from _said_to_them()


def _said_to_them() -> Iterator[talk.Line]:
    """Every read of a seat (accusation, trust, Hitler guess) as the answer to that seat's
    question, which is said to it in the second person."""
    for kind in ("accuse", "trust"):
        for line in _reason_lines(kind):
            assert isinstance(line, (talk.Accuse, talk.Trust))
            yield talk.Answer(line, to=line.target)
    for variant in range(3):
        for certainty in talk.CERTAINTIES:
            yield talk.Answer(talk.HitlerGuess(2, certainty, variant=variant), to=2)


def _game_type_kinds() -> Iterator[talk.Line]:
    """The game types' lines (issue 41): Merlin guesses, role claims, in every wording."""
    for variant in range(4):
        for certainty in talk.CERTAINTIES:
            yield talk.MerlinGuess(2, certainty, variant=variant)
        for role in CLAIMABLE_ROLES:
            yield talk.RoleClaim(role, variant=variant)
        yield talk.Answer(talk.RoleClaim("percival", variant=variant), to=1)


def _new_kinds() -> Iterator[talk.Line]:
    """Corrections, call-outs and suggestions in every family and wording (issue 39)."""
    for variant in range(4):
        for ja in (True, False):
            yield talk.Correct("vote", talk.ExplainVote(ja, "distrust", other=5), variant=variant)
            yield talk.Correct("vote", talk.ExplainVote(ja), variant=variant)
        yield talk.Correct("vote", variant=variant)
        explained = talk.ExplainNomination(4, "enacted_liberal", count=2)
        yield talk.Correct("nomination", explained, other=5, variant=variant)
        yield talk.Correct("nomination", talk.ExplainNomination(4), other=5, variant=variant)
        yield talk.Correct("nomination", other=5, variant=variant)
        for topic in ("investigation", "execution"):
            yield talk.Correct(topic, other=5, target=4, variant=variant)
            yield talk.Correct(topic, other=5, variant=variant)
        yield talk.Correct("accusation", other=5, variant=variant)
        for topic in ("policy", "claim"):
            yield talk.Correct(topic, variant=variant)
        for subject, size in (("president_hand", 3), ("chancellor_hand", 2)):
            for policy in Policy:
                yield talk.CallOut(4, subject, (policy,) * size, "enacted", variant=variant)
        yield talk.CallOut(4, "peek", (Policy.FASCIST, Policy.LIBERAL, Policy.FASCIST), "drew")
        yield talk.Suggest(4, variant=variant)
        yield talk.Answer(talk.Correct("vote", talk.ExplainVote(True, "tracker")), to=1)
        yield talk.Answer(talk.Suggest(3, variant=variant), to=1)


LINES = list(every_line())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_line_renders_everything_it_carries(lang: str) -> None:
    for line in LINES:
        text = talk.render(line, lang, NAMES)
        assert "{" not in text and "}" not in text and "⟦" not in text, (lang, line, text)
        for seat in line.seats():
            assert NAMES[seat] in text, (lang, line, text)
        count = getattr(line, "count", None)
        if count is not None:
            assert str(count) in text, (lang, line, text)


def test_every_kind_is_rendered() -> None:
    assert {line.kind for line in LINES} == set(talk.KINDS)


# -- every line as a native speaker writes it (issue 39 point 6) -----------------------------------

PEOPLE = ["ann", "Bob", "Chen", "dmitri", "Eva", "felix", "Gus", "hana", "Ivo", "Jo"]  # as typed
BOTS = [f"Bot {s + 1}" for s in range(10)]
_HAN = re.compile(r"[\u3400-\u9fff]")
_DOUBLED = re.compile(r"[.,:;!?。，：；！？]\s*[.,:;。，：；]|[!?！？]{2}|\.\.")
_SPACE_BEFORE = re.compile(r"\s[.,:;!?]|  ")


def _sentence(text: str, names: list[str] | None, line: talk.Line) -> str:
    """The sentence of a rendered line: an addressed one ("@Bob Why Nein?") after its name."""
    to = getattr(line, "to", None)
    if to is not None and text.startswith("@"):
        shown = text[1:].split(" ", 1)
        if names and names[to].startswith("Bot "):  # "@Bot 3 ..." / "@Бот 3 ..."
            shown = text[1:].split(" ", 2)[1:]
        return shown[-1]
    return text


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("names", [None, PEOPLE, BOTS], ids=["numbers", "people", "bots"])
def test_every_line_reads_as_a_sentence(lang: str, names: list[str] | None) -> None:
    """Every wording of every kind, with seats by number, by a person's name and by a bot's:
    a capital first (a person's name as typed, a seat number, or Chinese), every placeholder
    filled, no doubled punctuation or stray spaces."""
    for line in LINES:
        text = talk.render(line, lang, names)
        assert "{" not in text and "}" not in text and "⟦" not in text, (lang, line, text)
        sentence = _sentence(text, names, line).lstrip('«“"')
        first = sentence[:1]
        typed = names is PEOPLE and any(sentence.startswith(n) for n in PEOPLE)
        assert typed or first.isdigit() or _HAN.match(first) or first.isupper(), (lang, text)
        assert not _DOUBLED.search(text), (lang, text)
        if lang in ("en", "ru", "vi"):
            assert not _SPACE_BEFORE.search(text), (lang, text)


_COUNTED = [line for line in LINES if getattr(line, "count", None) is not None]
_RU_NOUN = {1: "закон", 2: "закона", 3: "закона", 5: "законов"}


def test_counts_take_their_plural_forms() -> None:
    """Counts 1, 2, 3 and 5: English policy/policies, Russian закон/закона/законов; Chinese and
    Vietnamese do not inflect (the same words whatever the count)."""
    assert {getattr(line, "count", None) for line in _COUNTED} == set(COUNTS)
    for line in _COUNTED:
        count = line.count  # type: ignore[union-attr]
        en = talk.render(line, "en", PEOPLE)
        assert re.search(rf"\b{count} \w+ {'policy' if count == 1 else 'policies'}\b", en), en
        ru = talk.render(line, "ru", PEOPLE)
        assert re.search(rf"\b{count} (\w+ )+{_RU_NOUN[count]}\b", ru), ru
        for lang in ("zh-Hans", "zh-Hant", "vi"):
            one = talk.render(dataclasses.replace(line, count=1), lang, PEOPLE)
            assert talk.render(line, lang, PEOPLE) == one.replace("1", str(count)), (lang, one)


def _texts(lang: str) -> list[str]:
    return [talk.render(line, lang, PEOPLE) for line in LINES]


def test_the_vote_words_are_the_tables() -> None:
    """Ja and Nein as each web catalog says them: en, ru, vi and zh-Hant the German words (ru in
    «», as «Ja» сказали), zh-Hans 赞成 and 反对; never a second pair beside them."""
    for lang in ("en", "vi", "zh-Hant", "ru"):
        for text in _texts(lang):
            assert not re.search(r"\b(ja|nein|JA|NEIN)\b", text), (lang, text)
    for text in _texts("ru"):
        assert len(re.findall(r"«(Ja|Nein)»", text)) == len(re.findall(r"Ja|Nein", text)), text
    for text in _texts("zh-Hant"):
        assert not re.search("贊成|反對|同意", text), text
    for text in _texts("zh-Hans"):
        assert not re.search("Ja|Nein", text), text
    for text in _texts("vi"):
        assert "thuận" not in text and "Nein cho" not in text, text  # "bỏ phiếu chống ..."


def test_the_wordings_the_issue_found_are_gone() -> None:
    """Issue 39's examples of what a good player would not write."""
    wrong = {
        "en": ["lie about it", "Ja from me", "Nein from me"],
        "zh-Hans": ["两蓝", "两红", "三蓝", "这是在骗人", "：提名了"],
        "zh-Hant": ["兩藍", "兩紅", "人民自行推進議事", "這是在騙人"],
        "ru": ["— верю", "стол провалил", "Кандидат в канцлеры"],
        "vi": [": đang nói dối", ", đang nói dối", "thuận"],
    }
    for lang, words in wrong.items():
        for text in _texts(lang):
            assert not any(word in text for word in words), (lang, text)
    nominated = talk.ExplainNomination(2, "investigated")
    assert "liberal" in talk.render(nominated, "en")  # the result, not "I investigated them"


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_chinese_reasons_say_who(lang: str) -> None:
    """A reason about what the target did says so (他 ...): "我不信2号：他提名了5号"."""
    for key, text in talk.catalog(lang).items():
        if re.match(r"talk\.(accuse|trust|explain_nomination)\.reason\.", key):
            assert re.search("他|我|\\{other\\}", text), (key, text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_seats_read_as_people_see_them(lang: str) -> None:
    """No name: the 1-based number in the community's form; a bot's server name in the
    reader's language."""
    line = talk.Accuse(2)
    shown = {"en": "3", "zh-Hans": "3号", "zh-Hant": "3號", "ru": "3", "vi": "số 3"}[lang]
    assert shown in talk.render(line, lang)
    bot = {
        "en": "Bot 3",
        "zh-Hans": "机器人 3",
        "zh-Hant": "機器人 3",
        "ru": "Бот 3",
        "vi": "Bot 3",
    }
    assert bot[lang] in talk.render(line, lang, [None, None, "Bot 3"])
    assert "Alice" in talk.render(line, lang, [None, None, "Alice"])


def test_a_variant_picks_one_wording_and_wraps() -> None:
    sizes = family_sizes()
    size = sizes["talk.accuse.hedged.plain"]
    texts = {talk.render(talk.Accuse(1, variant=v), "en") for v in range(size)}
    assert len(texts) == size  # each variant its own wording
    assert talk.render(talk.Accuse(1, variant=size + 1), "en") == talk.render(
        talk.Accuse(1, variant=1), "en"
    )


def test_message_json_is_what_a_client_renders() -> None:
    line = talk.Answer(talk.ExplainVote(False, "distrust", other=3), to=5)
    assert talk.message(line).to_json() == {
        "key": "talk.address",
        "params": {
            "to": {"seat": 5},
            "text": {
                "key": "talk.explain_vote.nein.0",
                "params": {
                    "reason": {
                        "key": "talk.explain_vote.reason.distrust",
                        "params": {"other": {"seat": 3}},
                    }
                },
            },
        },
    }
    counted = talk.message(talk.Trust(1, reason="enacted_liberal", count=2)).to_json()
    assert counted["params"]["reason"]["count"] == 2


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_answer_that_names_its_asker_is_said_to_the_table(lang: str) -> None:
    """ "@Bot 3 I voted Nein: I don't trust Bot 3" speaks of the asker in the third person to
    his face; a player says "I voted Nein: I don't trust Bot 3" to the table. An answer naming
    another seat stays addressed."""
    names = [f"Bot {s + 1}" for s in range(7)]
    asker = seat_name(2, lang, names)
    for inner in (
        talk.ExplainVote(False, "distrust", other=2),
        talk.Correct("vote", talk.ExplainVote(True, "trust", other=2)),
        talk.Accuse(4, talk.HEDGED, "conflict", other=2),
    ):
        text = talk.render(talk.Answer(inner, to=2), lang, names)
        assert text == talk.render(inner, lang, names) and asker in text, (lang, text)
        assert not text.startswith("@"), (lang, text)
    other = talk.render(talk.Answer(talk.Accuse(4, talk.HEDGED), to=2), lang, names)
    assert other.startswith(f"@{asker} "), (lang, other)


_YOU = {
    "en": r"\b(you|your|you're)\b",
    "ru": r"\b(ты|тебе|тебя|твой|твои|тебе)\b|при тебе",
    "zh-Hans": "你",
    "zh-Hant": "你",
    "vi": r"\bbạn\b",
}
_THIRD = {
    "en": r"\b(they|them|their|they're)\b",
    "ru": "этот игрок|этого игрока",
    "zh-Hans": "他",
    "zh-Hant": "他",
    "vi": "người này",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_read_of_the_asker_is_said_to_him(lang: str) -> None:
    """Asked whom one suspects, trusts or takes for Hitler, a seat that names the asker says it
    to him, as a player does: "@Bot 3 I don't trust you: you nominated Bot 6", named once, in
    the second person, its reason too, in every wording, reason and plural form."""
    names = [f"Bot {s + 1}" for s in range(7)]
    reads = [r for r in LINES if isinstance(r, (talk.Accuse, talk.Trust, talk.HitlerGuess))]
    assert {r.kind for r in reads} == {"accuse", "trust", "hitler_guess"}
    for read in reads:
        asker = seat_name(read.target, lang, names)
        text = talk.render(talk.Answer(read, to=read.target), lang, names)
        assert text.startswith(f"@{asker} ") and text.count(asker) == 1, (lang, read, text)
        said = text.removeprefix(f"@{asker} ")
        assert re.search(_YOU[lang], said, re.IGNORECASE), (lang, read, text)
        assert not re.search(_THIRD[lang], said, re.IGNORECASE), (lang, read, text)
        assert talk.render(read, lang, names) != said  # the table's own wording is another


def test_grammar_of_the_counts() -> None:
    line = talk.Trust(1, reason="enacted_liberal", count=1)
    assert "1 liberal policy" in talk.render(line, "en")
    assert "2 liberal policies" in talk.render(
        talk.Trust(1, reason="enacted_liberal", count=2), "en"
    )
    ru = {
        n: talk.render(talk.Trust(1, reason="enacted_liberal", count=n), "ru")
        for n in (1, 3, 5, 21)
    }
    assert "1 либеральный закон" in ru[1] and "21 либеральный закон" in ru[21]
    assert "3 либеральных закона" in ru[3] and "5 либеральных законов" in ru[5]
    hand = talk.Claim("president_hand", [Policy.FASCIST, Policy.FASCIST, Policy.LIBERAL], variant=2)
    assert "два красных и синий" in talk.render(hand, "ru")
    assert "两张红一张蓝" in talk.render(hand, "zh-Hans")
    assert "兩張紅一張藍" in talk.render(hand, "zh-Hant")
    assert "hai đỏ một xanh" in talk.render(hand, "vi")


def test_plural_categories_follow_cldr() -> None:
    assert [plural_category("en", n) for n in (0, 1, 2)] == ["other", "one", "other"]
    got = [plural_category("ru", n) for n in (1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111)]
    assert got == ["one", "few", "few", "many", "many", "many", "many", "one", "few", "many"] + [
        "one",
        "many",
    ]
    assert {plural_category(lang, n) for lang in ("zh-Hans", "zh-Hant", "vi") for n in (1, 2)} == {
        "other"
    }


# -- the catalogs themselves -----------------------------------------------------------------------


def _raw(lang: str) -> dict[str, str]:
    def no_duplicates(pairs: list[tuple[str, str]]) -> dict[str, str]:
        keys = [k for k, _ in pairs]
        assert len(keys) == len(set(keys)), f"{lang}: a key appears twice"
        return dict(pairs)

    path = resources.files("secret_hitler.talk").joinpath("phrases", f"{lang}.json")
    return json.loads(path.read_text("utf-8"), object_pairs_hook=no_duplicates)


def _base(key: str) -> str:
    return key.split("#")[0]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_format_is_the_web_clients(lang: str) -> None:
    texts = _raw(lang)
    assert texts == talk.catalog(lang)
    for key, text in texts.items():
        assert key.startswith("talk.") and isinstance(text, str) and text.strip() == text != ""
        rest = PLACEHOLDER.sub("", text)
        assert "{" not in rest and "}" not in rest, (lang, key)
    # Every category the language's whole numbers fall in, and "other" (fractions), as
    # Intl.PluralRules has them: so tn() always finds its form.
    categories = {plural_category(lang, n) for n in range(200)} | {"other"}
    bases = {_base(key) for key in texts if "#" in key}
    for base in bases:
        forms = {key.split("#")[1] for key in texts if _base(key) == base and "#" in key}
        assert forms == categories, (lang, base, forms)
        assert all("{count}" in texts[f"{base}#{form}"] for form in forms), (lang, base)


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_same_keys_and_placeholders_as_english(lang: str) -> None:
    en, other = _raw("en"), _raw(lang)
    assert {_base(k) for k in en} == {_base(k) for k in other}
    for key, text in other.items():
        ref = en.get(key) or en[_base(key) + "#other"]
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(ref)), (lang, key)


def test_community_words() -> None:
    """The colours and forms each community uses (docs/ui-terms.md, shared UI notes)."""
    hand = talk.Claim("president_hand", [Policy.FASCIST, Policy.FASCIST, Policy.LIBERAL])
    assert [talk.render(hand, lang) for lang in LANGUAGES] == [
        "RRB",
        "红红蓝",
        "紅紅藍",
        "ККС",
        "Đỏ đỏ xanh",  # a sentence: a capital first
    ]
    texts = {lang: " ".join(talk.catalog(lang).values()) for lang in LANGUAGES}
    for word in ("Tổng thống", "Thủ tướng", "Phát xít", "Tự do"):
        assert word in texts["vi"]
    assert "自由派" in texts["zh-Hans"] and "自由派" not in texts["zh-Hant"]
    assert "自由黨" in texts["zh-Hant"] and "法案" not in texts["zh-Hans"]
    assert "政策" not in texts["zh-Hant"]


SIMPLIFIED_ONLY = (
    "总统选举党国会议个这们为说时将对决处调预览颁认发开关连线机设规则输赢轮轨弃择录视观战于湾"
)
TRADITIONAL_ONLY = (
    "總統選舉黨國會議個這們為說時將對決處調預覽頒認發開關連線機設規則輸贏輪軌棄擇錄視觀戰於灣"
)


@pytest.mark.parametrize(
    ("lang", "wrong"), [("zh-Hans", TRADITIONAL_ONLY), ("zh-Hant", SIMPLIFIED_ONLY)]
)
def test_chinese_script_and_punctuation(lang: str, wrong: str) -> None:
    han = r"[\u3400-\u9fff]"
    ascii_next_to_han = re.compile(rf"{han}\s?[:,;?(!]|[:,;?)!]\s?{han}")
    for key, text in talk.catalog(lang).items():
        assert not set(text) & set(wrong), (lang, key)
        assert not ascii_next_to_han.search(PLACEHOLDER.sub("", text)), (lang, key)


def test_russian_names_stay_in_the_nominative() -> None:
    """A seat's name is never declined: it stands where the nominative is right (sentence
    start, after a colon or dash, "что", a conjunction, or as the subject after the verb)."""
    allowed = re.compile(r"(^|: |— |, |что |и |или |говорит |нравится |именно |@)$")
    for key, text in talk.catalog("ru").items():
        for m in re.finditer(r"\{(target|other|against|president|chancellor|believe|to)\}", text):
            assert allowed.search(text[: m.start()]), (key, text)
