"""The web client's message catalogs (src/secret_hitler/web/static/i18n/*.json).

Every visible string of the client comes from these catalogs, so they must agree with each other
key for key and placeholder for placeholder, and use the terms of docs/ui-terms.md (the terms
table is binding: each community meets the words it already uses).
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from secret_hitler.bots.base import PLAYER_LEVELS
from secret_hitler.engine.actions import CLAIM_SUBJECTS
from secret_hitler.engine.catalog import catalog
from secret_hitler.engine.types import Party, Phase, Policy, Power, Reason, Role
from secret_hitler.server.table.options import CHOSEN, REACTIONS
from secret_hitler.talk.narrate import game_type_keys

LANGS = ("en", "zh-Hans", "zh-Hant", "ru", "vi")
REFERENCE = "en"
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def _i18n_dir() -> Any:
    return resources.files("secret_hitler.web").joinpath("static", "i18n")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _load(lang: str) -> dict[str, Any]:
    text = _i18n_dir().joinpath(f"{lang}.json").read_text(encoding="utf-8")
    data = json.loads(text, object_pairs_hook=_no_duplicates)
    assert isinstance(data, dict), f"{lang}.json must be a JSON object"
    return data


@pytest.fixture(scope="module")
def catalogs() -> dict[str, dict[str, Any]]:
    return {lang: _load(lang) for lang in LANGS}


def _placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


# -- structure -----------------------------------------------------------------------------------


def test_every_catalog_is_shipped_and_valid_json() -> None:
    names = {entry.name for entry in _i18n_dir().iterdir() if entry.name.endswith(".json")}
    assert names == {f"{lang}.json" for lang in LANGS}
    for lang in LANGS:
        _load(lang)  # raises on invalid JSON or duplicate keys


@pytest.mark.parametrize("lang", LANGS)
def test_flat_object_of_non_empty_strings(catalogs: dict[str, dict[str, Any]], lang: str) -> None:
    for key, value in catalogs[lang].items():
        assert isinstance(key, str) and key and key == key.strip(), f"{lang}: bad key {key!r}"
        assert isinstance(value, str), f"{lang}: {key} is not a string"
        assert value.strip(), f"{lang}: {key} is empty"
        assert value == value.strip() or key == "list.separator", f"{lang}: {key} has stray spaces"


# Plural keys are `base#category`, one per category of Intl.PluralRules for the language (CLDR).
PLURALS = {
    "en": {"one", "other"},
    "ru": {"one", "few", "many", "other"},
    "vi": {"other"},
    "zh-Hans": {"other"},
    "zh-Hant": {"other"},
}


def _plural_bases(catalog: dict[str, Any]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for key in catalog:
        if "#" in key:
            base, category = key.split("#", 1)
            out.setdefault(base, set()).add(category)
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_same_key_set_as_english(catalogs: dict[str, dict[str, Any]], lang: str) -> None:
    ref = {k for k in catalogs[REFERENCE] if "#" not in k}
    cat = {k for k in catalogs[lang] if "#" not in k}
    assert not ref - cat, f"{lang} lacks {sorted(ref - cat)}"
    assert not cat - ref, f"{lang} has extra {sorted(cat - ref)}"
    bases = _plural_bases(catalogs[lang])
    assert set(bases) == set(_plural_bases(catalogs[REFERENCE])), lang
    for base, categories in bases.items():
        assert categories == PLURALS[lang], f"{lang}: {base} has {sorted(categories)}"
        for category in categories:  # the number itself is always shown
            assert "{count}" in catalogs[lang][f"{base}#{category}"], (lang, base, category)


@pytest.mark.parametrize("lang", LANGS)
def test_braces_are_only_placeholders(catalogs: dict[str, dict[str, Any]], lang: str) -> None:
    for key, value in catalogs[lang].items():
        rest = PLACEHOLDER.sub("", value)
        assert "{" not in rest and "}" not in rest, f"{lang}: {key} has a malformed placeholder"


@pytest.mark.parametrize("lang", [lang for lang in LANGS if lang != REFERENCE])
def test_same_placeholders_per_key(catalogs: dict[str, dict[str, Any]], lang: str) -> None:
    for key, ref in catalogs[REFERENCE].items():
        if "#" in key:  # plural forms: every form of every language has the same placeholders
            key = key.split("#")[0] + "#other"
            ref = catalogs[REFERENCE][key]
        assert _placeholders(catalogs[lang][key]) == _placeholders(ref), (
            f"{lang}: {key} has {sorted(_placeholders(catalogs[lang][key]))}, "
            f"en has {sorted(_placeholders(ref))}"
        )


def test_keys_the_client_builds_from_engine_values(catalogs: dict[str, dict[str, Any]]) -> None:
    """The client looks up keys by the engine's and server's codes: all of them must exist."""
    en = catalogs[REFERENCE]
    needed = [f"role.{r.value}" for r in Role]
    needed += [f"party.{p.value}" for p in Party] + [f"party.inline.{p.value}" for p in Party]
    needed += [f"policy.{p.value}" for p in Policy] + [f"policy.short.{p.value}" for p in Policy]
    needed += [f"power.{p.value}" for p in Power] + [f"power.{p.value}.hint" for p in Power]
    needed += [f"phase.{p.value}" for p in Phase]
    needed += [f"gameover.reason.{r.value}" for r in Reason]
    needed += [f"claim.{s}" for s in CLAIM_SUBJECTS] + [f"log.claim.{s}" for s in CLAIM_SUBJECTS]
    needed += [
        f"error.code.{code}"
        for code in (
            "illegal_action",
            "invalid_action",
            "not_your_turn",
            "not_your_seat",
            "game_over",
            "table_full",
            "bad_request",
            "rate_limited",
            "too_large",
            "unauthorized",
            "not_found",
            "invalid_settings",
        )
    ]
    for preset in (
        "official",
        "secrethitler-io",
        "kickstarter",
        "tabletop-tw",
        "forum",
        "summary-zh",
    ):
        needed += [f"preset.{preset}.name", f"preset.{preset}.description"]
    needed += [f"bot.level.{level}" for level in PLAYER_LEVELS]
    needed += [f"bot.level.{level}.description" for level in PLAYER_LEVELS]
    needed += [f"lobby.status.{s}" for s in ("waiting", "playing", "finished")]
    needed += [f"lang.{lang}" for lang in LANGS]
    # the label keys GET /api/rules names: the game types' settings and the categories
    served = catalog()
    for setting in served["settings"].values():
        needed += [setting["label"], *setting["value_labels"].values()]
    categories = served["categories"]
    needed += [*categories["labels"].values(), *(row["label"] for row in categories["forced"])]
    # a game type's name (narrate.game_type_keys), each chat mode, each reaction, the categories
    # a host chooses, what each role of secrethitler.io's game types is for
    for name, setting in served["settings"].items():
        for value in setting["values"]:
            needed += game_type_keys({name: [value] if setting["multiple"] else value})
    needed += [f"lobby.chat_mode.{mode}" for mode in categories["chat_modes"]]
    needed += [f"lobby.on_timeout.{mode}" for mode in categories["on_timeout_modes"]]
    needed += [f"reaction.{r}" for r in REACTIONS] + [f"lobby.category.{c}.hint" for c in CHOSEN]
    needed += [
        f"role.about.{r.value}" for r in Role if r.value not in ("liberal", "fascist", "hitler")
    ]
    needed += ["error.code.chat_reactions_only"]
    missing = [key for key in needed if key not in en]
    assert not missing, f"missing keys: {missing}"


def test_rules_page_sections(catalogs: dict[str, dict[str, Any]]) -> None:
    en = catalogs[REFERENCE]
    for section in (
        "intro",
        "setup",
        "night",
        "election",
        "legislative",
        "powers",
        "veto",
        "chaos",
        "deck",
        "winning",
        "presets",
    ):
        assert f"rules.{section}.p1" in en, section
        if section != "intro":
            assert f"rules.{section}.title" in en, section


def test_language_names_in_their_own_script(catalogs: dict[str, dict[str, Any]]) -> None:
    own = {
        "en": "English",
        "zh-Hans": "简体中文",
        "zh-Hant": "繁體中文",
        "ru": "Русский",
        "vi": "Tiếng Việt",
    }
    for lang in LANGS:
        for code, name in own.items():
            assert catalogs[lang][f"lang.{code}"] == name, (lang, code)


def test_english_prompts_of_the_brief(catalogs: dict[str, dict[str, Any]]) -> None:
    en = catalogs[REFERENCE]
    assert en["prompt.nominate"] == "You are President: choose a Chancellor"
    assert (
        en["prompt.vote"]
        == "Vote on the government of President {president} and Chancellor {chancellor}"
    )
    assert en["know.fellow_fascists"] == "Your fellow fascists: {names}"
    assert en["investigation.result"] == "{name} is a member of the {party} party"
    assert en["chaos.message"] == "The people enacted the top policy"


# -- terminology (docs/ui-terms.md) ---------------------------------------------------------------

TERMS_DOC = Path(__file__).resolve().parents[2] / "docs" / "ui-terms.md"


def _terms_table() -> dict[str, dict[str, str]]:
    """docs/ui-terms.md's table: concept -> {language tag: term}."""
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in TERMS_DOC.read_text(encoding="utf-8").splitlines()
        if line.startswith("|")
    ]
    header, body = rows[0], [r for r in rows[1:] if not set("".join(r)) <= set("-: ")]
    langs = [cell.split(" ")[0] for cell in header[1:]]
    return {row[0]: dict(zip(langs, row[1:], strict=True)) for row in body}


# The catalog key that carries each concept of the table as its whole text.
CONCEPT_KEYS = {
    "President": "office.president",
    "Chancellor": "office.chancellor",
    "Liberal": "role.liberal",
    "Fascist": "role.fascist",
    "Hitler": "role.hitler",
    "election tracker": "term.election_tracker",
    "legislative session": "term.legislative_session",
    "Investigate Loyalty": "power.investigate",
    "Special Election": "power.special_election",
    "Policy Peek": "power.peek",
    "Execution": "power.execute",
    "Veto": "term.veto",
    "chaos (top-deck)": "term.chaos",
}

# Keys whose whole text is the term (compared case-insensitively: a label may capitalise it).
EXACT_TERMS: dict[str, dict[str, str]] = {
    "office.president": {
        "en": "President",
        "zh-Hans": "总统",
        "zh-Hant": "總統",
        "ru": "Президент",
        "vi": "Tổng thống",
    },
    "office.chancellor": {
        "en": "Chancellor",
        "zh-Hans": "总理",
        "zh-Hant": "總理",
        "ru": "Канцлер",
        "vi": "Thủ tướng",
    },
    "role.liberal": {
        "en": "Liberal",
        "zh-Hans": "自由派",
        "zh-Hant": "自由黨",
        "ru": "Либерал",
        "vi": "Tự do",
    },
    "role.fascist": {
        "en": "Fascist",
        "zh-Hans": "法西斯",
        "zh-Hant": "法西斯",
        "ru": "Фашист",
        "vi": "Phát xít",
    },
    "role.hitler": {
        "en": "Hitler",
        "zh-Hans": "希特勒",
        "zh-Hant": "希特勒",
        "ru": "Гитлер",
        "vi": "Hitler",
    },
    "term.election_tracker": {
        "en": "Election Tracker",
        "zh-Hans": "选举追踪标记",
        "zh-Hant": "選舉標記",
        "ru": "счётчик выборов",
        "vi": "bộ đếm bầu cử",
    },
    "term.legislative_session": {
        "en": "Legislative Session",
        "zh-Hans": "立法阶段",
        "zh-Hant": "國會階段",
        "ru": "фаза принятия закона",
        "vi": "phiên lập pháp",
    },
    "power.investigate": {
        "en": "Investigate Loyalty",
        "zh-Hans": "调查忠诚",
        "zh-Hant": "調查忠誠",
        "ru": "Проверить лояльность",
        "vi": "Điều tra lòng trung thành",
    },
    "power.special_election": {
        "en": "Call Special Election",
        "zh-Hans": "特别选举",
        "zh-Hant": "特別選舉",
        "ru": "Специальные выборы",
        "vi": "Bầu cử đặc biệt",
    },
    "power.peek": {
        "en": "Policy Peek",
        "zh-Hans": "政策预览",
        "zh-Hant": "法案預覽",
        "ru": "Просмотр законов",
        "vi": "Xem trước chính sách",
    },
    "power.execute": {
        "en": "Execution",
        "zh-Hans": "处决",
        "zh-Hant": "處決",
        "ru": "Казнь",
        "vi": "Hành quyết",
    },
    "term.veto": {
        "en": "Veto",
        "zh-Hans": "否决权",
        "zh-Hant": "否決權",
        "ru": "Право вето",
        "vi": "Quyền phủ quyết",
    },
    "term.chaos": {
        "en": "chaos",
        "zh-Hans": "混乱（自动颁布）",
        "zh-Hant": "人民自行推進議事",
        "ru": "возмущённый народ (случайный закон)",
        "vi": "hỗn loạn",
    },
}


def test_the_exact_terms_are_the_documented_table() -> None:
    """EXACT_TERMS restates docs/ui-terms.md; the two must not drift apart."""
    table = _terms_table()
    assert set(table) == set(CONCEPT_KEYS) | {"policy", "Ja! / Nein!"}
    for concept, key in CONCEPT_KEYS.items():
        assert EXACT_TERMS[key] == table[concept], concept
    for lang, word in table["policy"].items():
        assert word in CONTAINS_TERMS["policy.liberal"][lang], lang


# Keys whose text must contain every listed word (case-insensitively).
CONTAINS_TERMS: dict[str, dict[str, tuple[str, ...]]] = {
    "policy.liberal": {
        "en": ("Liberal", "policy"),
        "zh-Hans": ("自由派", "政策"),
        "zh-Hant": ("自由黨", "法案"),
        "ru": ("Либерал", "закон"),
        "vi": ("Tự do", "chính sách"),
    },
    "policy.fascist": {
        "en": ("Fascist", "policy"),
        "zh-Hans": ("法西斯", "政策"),
        "zh-Hant": ("法西斯", "法案"),
        "ru": ("Фашист", "закон"),
        "vi": ("Phát xít", "chính sách"),
    },
    "vote.ja": {
        "en": ("Ja!",),
        "zh-Hans": ("赞成", "Ja"),
        "zh-Hant": ("Ja!",),
        "ru": ("Ja", "Согласен"),
        "vi": ("Ja!",),
    },
    "vote.nein": {
        "en": ("Nein!",),
        "zh-Hans": ("反对", "Nein"),
        "zh-Hant": ("Nein!",),
        "ru": ("Nein", "Не согласен"),
        "vi": ("Nein!",),
    },
    "prompt.nominate": {
        "en": ("President", "Chancellor"),
        "zh-Hans": ("总统", "总理"),
        "zh-Hant": ("總統", "總理"),
        "ru": ("Президент", "Канцлер"),
        "vi": ("Tổng thống", "Thủ tướng"),
    },
    "gameover.liberals_win": {
        "en": ("Liberal",),
        "zh-Hans": ("自由派",),
        "zh-Hant": ("自由黨",),
        "ru": ("либерал",),
        "vi": ("Tự do",),
    },
    "gameover.fascists_win": {
        "en": ("Fascist",),
        "zh-Hans": ("法西斯",),
        "zh-Hant": ("法西斯",),
        "ru": ("фашист",),
        "vi": ("Phát xít",),
    },
    "chaos.title": {
        "en": ("chaos",),
        "zh-Hans": ("混乱",),
        "zh-Hant": ("人民自行推進議事",),
        "ru": ("возмущённый народ",),
        "vi": ("hỗn loạn",),
    },
}


@pytest.mark.parametrize("key", sorted(EXACT_TERMS))
def test_exact_terms(catalogs: dict[str, dict[str, Any]], key: str) -> None:
    for lang, term in EXACT_TERMS[key].items():
        assert catalogs[lang][key].casefold() == term.casefold(), (lang, key, catalogs[lang][key])


@pytest.mark.parametrize("key", sorted(CONTAINS_TERMS))
def test_terms_used_in_phrases(catalogs: dict[str, dict[str, Any]], key: str) -> None:
    for lang, words in CONTAINS_TERMS[key].items():
        text = catalogs[lang][key].casefold()
        for word in words:
            assert word.casefold() in text, (lang, key, word, catalogs[lang][key])


# Words of the other community or of the machine translation that must not leak in.
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "zh-Hans": ("法案", "自由党", "国会", "选举标记"),
    "zh-Hant": ("政策", "自由派", "立法階段", "選舉追蹤"),
    "ru": ("Фашистский Канцлер", "политик"),
    "vi": ("Chủ tịch", "cầu thủ", "cà vạt", "Chancellor", "President", "boong", "máy nghe nhạc"),
}

# Characters that exist only in the simplified or only in the traditional script.
SIMPLIFIED_ONLY = (
    "总统选举党国会议个这们为说时将对决处调预览颁认发开关连线机设规则输赢轮轨弃择录视观战于湾"
)
TRADITIONAL_ONLY = (
    "總統選舉黨國會議個這們為說時將對決處調預覽頒認發開關連線機設規則輸贏輪軌棄擇錄視觀戰於灣"
)


@pytest.mark.parametrize("lang", sorted(FORBIDDEN))
def test_no_foreign_or_mistranslated_terms(catalogs: dict[str, dict[str, Any]], lang: str) -> None:
    for key, value in catalogs[lang].items():
        text = PLACEHOLDER.sub("", value).casefold()
        for word in FORBIDDEN[lang]:
            assert word.casefold() not in text, (lang, key, word)


def test_chinese_scripts_are_not_mixed(catalogs: dict[str, dict[str, Any]]) -> None:
    for lang, wrong in (("zh-Hans", TRADITIONAL_ONLY), ("zh-Hant", SIMPLIFIED_ONLY)):
        for key, value in catalogs[lang].items():
            if key.startswith("lang."):
                continue  # language names are written in their own script
            bad = sorted({ch for ch in value if ch in wrong})
            assert not bad, (lang, key, bad)


def test_translations_are_translated(catalogs: dict[str, dict[str, Any]]) -> None:
    """Long English sentences must not be left untranslated (placeholders are not words)."""
    en = catalogs[REFERENCE]
    for lang in LANGS:
        if lang == REFERENCE:
            continue
        same = [
            k  # (a plural form English has, "#one", may be one another language lacks)
            for k, v in en.items()
            if len(PLACEHOLDER.sub("", v)) > 24 and catalogs[lang].get(k) == v
        ]
        assert not same, (lang, same)


def test_russian_names_stay_in_the_nominative(catalogs: dict[str, dict[str, Any]]) -> None:
    """Names are not declined ("предлагает Алису" would need case forms of every name): a name
    stands at the start, after a colon, dash or arrow, after the title it goes with, or as the
    subject of a clause ("что {target} — ...")."""
    name = re.compile(r"\{(name|names|president|chancellor|target)\}")
    allowed = re.compile(r"(^|: |— |→ |Президент |Канцлер |, |что )$")
    for key, value in catalogs["ru"].items():
        for m in name.finditer(value):
            before = value[: m.start()]
            assert allowed.search(before), f"ru: {key}: {value!r}"


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
def test_chinese_uses_full_width_punctuation(
    catalogs: dict[str, dict[str, Any]], lang: str
) -> None:
    """Colons, commas, semicolons, question marks and brackets next to Chinese text are full
    width (，：；？（）); ASCII stays inside Latin text (URLs, "Ja!", the name rule)."""
    han = r"[\u3400-\u9fff]"
    bad = re.compile(rf"{han}\s?[:,;?(]|[:,;?)]\s?{han}|\({han}|{han}\)")
    for key, value in catalogs[lang].items():
        if key == "error.code.invalid_name":  # lists the ASCII characters a name may use
            continue
        assert not bad.search(PLACEHOLDER.sub("", value)), f"{lang}: {key}: {value!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_no_stop_after_an_exclamation_word(catalogs: dict[str, dict[str, Any]], lang: str) -> None:
    """The words "Ja!" and "Nein!" end a sentence by themselves: never "Nein!." nor "Ja!。"."""
    for key, value in catalogs[lang].items():
        assert not re.search(r"![.。]", value), f"{lang}: {key}: {value!r}"


# A text that names a control in quotes, and the control whose label it quotes.
QUOTED_CONTROLS = {
    "analysis.spectator_moves": "replay.view_as",
    "aids.marks": "status.not_hitler",
    "tutorial.step.night.text": "table.reveal",
}


@pytest.mark.parametrize("lang", LANGS)
def test_a_hint_quotes_the_control_it_names(catalogs: dict[str, dict[str, Any]], lang: str) -> None:
    """A hint that tells where to tap quotes that control's own label ("«Смотреть глазами»", not
    another wording of it), so that the player finds it."""
    quote = re.compile(r"[“«「\"]([^”»」\"]+)[”»」\"]")
    for hint, control in QUOTED_CONTROLS.items():
        quoted = quote.findall(catalogs[lang][hint])
        assert catalogs[lang][control] in quoted, (lang, hint, quoted, catalogs[lang][control])


@pytest.mark.parametrize("lang", LANGS)
def test_the_tutorial_tells_keys_only_to_a_keyboard(
    catalogs: dict[str, dict[str, Any]], lang: str
) -> None:
    """The vote's step has two texts (tutorial.js stepText): the one for a phone names no key,
    the one for a device with a keyboard names J and N."""
    key = re.compile(r"(?<![A-Za-z])([JN])(?![A-Za-z])")
    touch = catalogs[lang]["tutorial.step.vote.text"]
    keys = catalogs[lang]["tutorial.step.vote.text_keys"]
    assert not key.search(touch), (lang, touch)
    assert {m.group(1) for m in key.finditer(keys)} == {"J", "N"}, (lang, keys)
