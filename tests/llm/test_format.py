"""The endpoints file, the answer format and the prompts (no server needed)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from prompt_transcript import GOLDEN, golden, transcript

from chat_server import instance
from secret_hitler.bots.base import make_agent
from secret_hitler.engine import Action, Game, game_from_record
from secret_hitler.engine import actions as A
from secret_hitler.engine.events import typed
from secret_hitler.llm.answers import (
    AnswerError,
    actions_schema,
    claims_schema,
    extract_json,
    read_claims,
    read_decision,
)
from secret_hitler.llm.endpoints import LANGUAGES, PROMPT_VERSION, EndpointError, load_endpoints
from secret_hitler.llm.prompts import (
    PROMPTS_DIR,
    SHARED_WORDS,
    PromptError,
    Renderer,
    load_prompts,
    prompt_versions,
    rules_problem,
)
from secret_hitler.talk import narrate as narration
from secret_hitler.talk.narrate import narrate
from secret_hitler.talk.phrases import plural_category

GOOD = """
[[endpoint]]
name = "local"
base_url = "http://127.0.0.1:11434/v1/"
model = "qwen2.5:7b"

[[endpoint]]
name = "hosted"
base_url = "https://api.example.invalid/v1"
model = "big"
key_env = "EXAMPLE_API_KEY"
language = "zh-Hans"
retries = 0
"""


def test_endpoints_load_from_a_file_or_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "endpoints.toml"
    path.write_text(GOOD)
    endpoints = load_endpoints(path)
    assert list(endpoints) == ["local", "hosted"]
    assert endpoints["local"].base_url == "http://127.0.0.1:11434/v1"
    assert endpoints["local"].level == "llm:local" and endpoints["local"].fallback == "rule"
    monkeypatch.setenv("EXAMPLE_API_KEY", "sk-from-env")
    assert endpoints["hosted"].api_key() == "sk-from-env"
    assert "sk-from-env" not in repr(endpoints["hosted"]) + json.dumps(
        endpoints["hosted"].describe()
    )
    monkeypatch.setenv("SH_LLM_ENDPOINTS", str(path))
    assert list(load_endpoints()) == ["local", "hosted"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('[[endpoint]]\nname = "a"\nmodel = "m"\n', "base_url is required"),
        ('[[endpoint]]\nname = "a"\nbase_url = "file:///etc"\nmodel = "m"\n', "base_url must be"),
        ('[[endpoint]]\nname = "a"\nbase_url = "http://h/v1?x=1"\nmodel = "m"\n', "base_url"),
        (
            '[[endpoint]]\nname = "a"\nbase_url = "http://h"\nmodel = "m"\nkey = "sk"\n',
            "unknown key 'key'",
        ),
        (
            '[[endpoint]]\nname = "a"\nbase_url = "http://h"\nmodel = "m"\nkey_env = "sk-123"\n',
            "not the key",
        ),
        (
            '[[endpoint]]\nname = "a"\nbase_url = "http://h"\nmodel = "m"\nretries = 99\n',
            "retries must be 0 to 10",
        ),
        (
            '[[endpoint]]\nname = "a"\nbase_url = "http://h"\nmodel = "m"\nlanguage = "fr"\n',
            "language",
        ),
        ('[[endpoint]]\nname = "A B"\nbase_url = "http://h"\nmodel = "m"\n', "name must be"),
        (
            '[[endpoint]]\nname = "a"\nbase_url = "http://h"\nmodel = "m"\nextra = {model = "x"}\n',
            "extra may not set 'model'",
        ),
        ('[[endpoint]]\nname = "a"\nbase_url = "http://h"\nmodel = "m"\n' * 2, "named twice"),
        ("[server]\n", "unknown table 'server'"),
        ("endpoint = 3", "no [[endpoint]] table"),
        ("[[endpoint]\n", "not valid TOML"),
    ],
)
def test_a_bad_endpoints_file_is_refused_with_its_reason(
    tmp_path: Path, text: str, problem: str
) -> None:
    path = tmp_path / "e.toml"
    path.write_text(text)
    with pytest.raises(EndpointError, match=re.escape(problem)):
        load_endpoints(path)


def test_no_endpoints_file_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("SH_LLM_ENDPOINTS", raising=False)
    with pytest.raises(EndpointError, match="--endpoints FILE or set SH_LLM_ENDPOINTS"):
        load_endpoints()
    with pytest.raises(EndpointError, match="no such file"):
        load_endpoints(tmp_path / "missing.toml")


@pytest.mark.parametrize(
    "text",
    [
        '{"action": {"type": "vote", "ja": true}}',
        'I will vote yes. {"action": {"type": "vote", "ja": true}} Good luck!',
        '```json\n{"action": {"type": "vote", "ja": true}}\n```',
        '<think>{"action": {"type": "vote", "ja": false}}</think>{"type": "vote", "ja": true}',
        '{"type": "vote", "ja": true, "seat": 5}',  # the seat is always the agent's own
    ],
)
def test_answers_are_read_in_every_wrapping(text: str) -> None:
    legal = [Action.vote(2, True), Action.vote(2, False)]
    assert read_decision(text, 2, legal).action == Action.vote(2, True)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("no json here", "malformed"),
        ('{"action": {"type": "vote"', "malformed"),
        ('{"say": "hi"}', "malformed"),
        ('{"action": {"type": "vote", "ja": "yes"}}', "malformed"),
        ('{"action": {"type": "nominate", "target": 3}}', "illegal"),
    ],
)
def test_answers_that_cannot_be_played(text: str, kind: str) -> None:
    legal = [Action.vote(2, True), Action.vote(2, False)]
    with pytest.raises(AnswerError) as info:
        read_decision(text, 2, legal)
    assert info.value.kind == kind


def test_hand_claims_in_any_order_and_one_per_subject() -> None:
    options = [
        Action.claim_policies(0, A.CLAIM_PRESIDENT_HAND, p)
        for p in (["fascist"] * 3, ["fascist", "fascist", "liberal"])
    ]
    said = {
        "type": "claim",
        "subject": "president_hand",
        "policies": ["liberal", "fascist", "fascist"],
    }
    made = read_claims(json.dumps({"claims": [said, said]}), 0, options)
    assert made == [options[1]]


def test_the_schemas_admit_exactly_the_legal_actions() -> None:
    """Drawing from a schema (as a constrained decoder would) gives legal actions only, and
    every legal action can be drawn: over every decision of whole games."""
    rng = random.Random(0)
    for seed in range(3):
        game = Game(9, seed=seed)
        agents = [make_agent("rule", s, s) for s in range(9)]
        while not game.finished:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            turn = [a for a in legal if a.type != A.CLAIM]
            claims = [a for a in legal if a.type == A.CLAIM]
            for options, schema in ((turn, actions_schema(turn)),) + (
                ((claims, claims_schema(claims)["properties"]["claims"]["items"]),)
                if claims
                else ()
            ):
                drawn = {json.dumps(instance(schema, rng), sort_keys=True) for _ in range(60)}
                offered = {
                    json.dumps(
                        {k: v for k, v in a.to_json().items() if k != "seat"}, sort_keys=True
                    )
                    for a in options
                }
                assert drawn <= offered
                if len(offered) <= 4:
                    assert drawn == offered
            game.apply(agents[seat].act(game.view(seat), turn))


def test_a_claim_window_of_several_subjects_has_one_schema() -> None:
    """A president who also peeked or investigated may claim both at once."""
    rng = random.Random(1)
    hands = [
        Action.claim_policies(0, A.CLAIM_PRESIDENT_HAND, ["fascist"] * (3 - k) + ["liberal"] * k)
        for k in range(4)
    ]
    others = [Action.claim_investigation(0, 3, p) for p in ("liberal", "fascist")]
    options = hands + others
    items = claims_schema(options)["properties"]["claims"]["items"]
    offered = {json.dumps(a.to_json() | {"seat": 0}, sort_keys=True) for a in options}
    drawn = {json.dumps(instance(items, rng) | {"seat": 0}, sort_keys=True) for _ in range(200)}
    assert drawn == offered


def test_extract_json_skips_objects_that_do_not_parse() -> None:
    assert extract_json('{bad} then {"a": 1}') == {"a": 1}


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def _base(key: str) -> str:
    return key.split("#", 1)[0]


def _categories(lang: str) -> set[str]:
    """The plural categories a language has (``talk.phrases.plural_category``)."""
    return {plural_category(lang, n) for n in range(200)}


def test_every_language_has_every_phrase_and_template_field() -> None:
    """Every phrase of English in every language, with the same fields; a phrase with plural
    forms has one for each category of its language (or none: one form for every count)."""
    for version in prompt_versions():
        reference = load_prompts(version, "en")
        fields: dict[str, set[str]] = {}
        for key, text in reference.phrases.items():
            fields.setdefault(_base(key), set()).update(_placeholders(text))
        for lang in LANGUAGES:
            p = load_prompts(version, lang)
            forms: dict[str, set[str]] = {}
            for key, text in p.phrases.items():
                forms.setdefault(_base(key), set()).add(key.partition("#")[2])
                assert _placeholders(text) <= fields[_base(key)], (lang, key)
            assert set(forms) == set(fields), lang
            for base, found in forms.items():
                assert found in ({""}, _categories(lang)), (version, lang, base, found)
            for name, template in reference.templates.items():
                identifiers = set(template.get_identifiers())
                assert set(p.templates[name].get_identifiers()) == identifiers, (lang, name)
    assert prompt_versions() == ["v1", "v2"] and PROMPT_VERSION == "v2"
    assert (PROMPTS_DIR / "v1" / "en" / "system.txt").is_file()


#: The players line of the rules at 5 to 10 players (official rules), in each language.
PLAYERS_LINE = {
    "en": [
        "5 players: 3 Liberals, 1 Fascist and Hitler.",
        "6 players: 4 Liberals, 1 Fascist and Hitler.",
        "7 players: 4 Liberals, 2 Fascists and Hitler.",
        "8 players: 5 Liberals, 2 Fascists and Hitler.",
        "9 players: 5 Liberals, 3 Fascists and Hitler.",
        "10 players: 6 Liberals, 3 Fascists and Hitler.",
    ],
    "ru": [
        "Игроков: 5. 3 либерала, 1 фашист и Гитлер.",
        "Игроков: 6. 4 либерала, 1 фашист и Гитлер.",
        "Игроков: 7. 4 либерала, 2 фашиста и Гитлер.",
        "Игроков: 8. 5 либералов, 2 фашиста и Гитлер.",
        "Игроков: 9. 5 либералов, 3 фашиста и Гитлер.",
        "Игроков: 10. 6 либералов, 3 фашиста и Гитлер.",
    ],
    "vi": [
        f"{n} người chơi: {lib} Tự do, {fas} Phát xít và Hitler."
        for n, lib, fas in [(5, 3, 1), (6, 4, 1), (7, 4, 2), (8, 5, 2), (9, 5, 3), (10, 6, 3)]
    ],
    "zh-Hans": [
        f"{n}名玩家：{lib}名自由派、{fas}名法西斯和希特勒。"
        for n, lib, fas in [(5, 3, 1), (6, 4, 1), (7, 4, 2), (8, 5, 2), (9, 5, 3), (10, 6, 3)]
    ],
    "zh-Hant": [
        f"{n}名玩家：{lib}名自由黨、{fas}名法西斯和希特勒。"
        for n, lib, fas in [(5, 3, 1), (6, 4, 1), (7, 4, 2), (8, 5, 2), (9, 5, 3), (10, 6, 3)]
    ],
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_line_counts_players_in_the_right_plural(lang: str) -> None:
    render = Renderer(load_prompts(PROMPT_VERSION, lang))
    for n, want in zip(range(5, 11), PLAYERS_LINE[lang], strict=True):
        lines = render.rules(Game(n, "official", seed=1).view(0)).splitlines()
        assert lines[1] == f"- {want}", (n, lines[1])


#: Sentences with counts at one, few and many, in the languages whose words change with them.
COUNTED = {
    "en": {
        1: [
            "once 1 fascist policy is enacted",
            "The deck holds 1 liberal policy and",
            "(1 policy)",
        ],
        2: ["once 2 fascist policies are enacted", "(at most 2 characters)", "(2 policies)"],
        21: ["The deck holds 21 liberal policies and", "(at most 21 characters)"],
    },
    "ru": {
        1: [
            "после принятия 1 фашистского закона",
            "В колоде 1 либеральный закон",
            "в ней 1 закон)",
        ],
        2: [
            "после принятия 2 фашистских законов",
            "В колоде 2 либеральных закона",
            "в ней 2 закона)",
        ],
        21: ["В колоде 21 либеральный закон", "(не более 21 символа)", "в ней 21 закон)"],
        25: ["В колоде 25 либеральных законов", "(не более 25 символов)", "в ней 25 законов)"],
    },
}


@pytest.mark.parametrize("lang", sorted(COUNTED))
def test_every_count_is_said_in_its_plural_form(lang: str) -> None:
    """The rules, a reshuffle and the answer's line limit at counts of each plural category
    of the language (rules that reach them: a Hitler zone of 1, a deck of 21 liberal
    policies), and the lines that count two things ("1 liberal policy and 2 fascist
    policies already on the tracks")."""
    render = Renderer(load_prompts(PROMPT_VERSION, lang))
    for count, wants in COUNTED[lang].items():
        rules = {
            "preset": "official",
            "hitler_zone": min(count, 6),
            "veto_zone": min(max(count, 2), 6),
            "deck": {"liberal": count, "fascist": 30},
            "start_track": {"liberal": 1, "fascist": 2},
        }
        game = Game(5, rules, seed=1)
        view = game.view(0)
        legal = game.legal_actions(game.to_act()[0])
        text = "\n".join(
            [
                render.rules(view),
                render.decide(view, legal, say_chars=count)[0],
                str(render.event(view, typed({"type": "reshuffled", "draw_pile": count}))),
            ]
        )
        for want in wants:
            assert want in text, (count, want)
        tracks = {
            "en": "starts with 1 liberal policy and 2 fascist policies already",
            "ru": "уже лежат 1 либеральный закон и 2 фашистских закона",
        }
        assert tracks[lang] in text
    if lang == "en":  # nowhere "1 <noun>s"
        game = Game(5, {"preset": "official", "hitler_zone": 1, "veto_zone": 1}, seed=1)
        text = render.rules(game.view(0)) + render.state(game.view(0))
        assert not re.search(r"\b1 [a-z]+s\b", text, re.I), text


@pytest.mark.parametrize("version", ["v1", "v2"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_decision_of_a_game_renders(lang: str, version: str) -> None:
    render = Renderer(load_prompts(version, lang))
    game = Game(7, {"preset": "official", "reveal_executed_role": True}, seed=5)
    agents = [make_agent("rule", s, s) for s in range(7)]
    texts = []
    while not game.finished:
        seat = game.to_act()[0]
        legal = [a for a in game.legal_actions(seat) if a.type != A.CLAIM]
        view = game.view(seat)
        text, _ = render.decide(view, legal, say_chars=100, beliefs=[(seat + 1) % 7])
        texts.append(text)
        for s in game.claimants():
            options = [a for a in game.legal_actions(s) if a.type == A.CLAIM]
            texts.append(render.claims(game.view(s), options)[0])
            for c in agents[s].claims(game.view(s), options):
                if game.is_legal(c):
                    game.apply(c)
        if not game.finished and seat in game.to_act():
            game.apply(agents[seat].act(view, legal))
    assert texts and all("{" not in t.split("\n")[0] for t in texts)
    assert "reveal_executed_role" in render.system(game.view(0))


def test_a_prompt_holds_only_what_the_seat_may_know() -> None:
    """Two deals that differ only in roles seat 0 (a liberal at 7) cannot see give seat 0
    the same prompt, word for word."""
    base = {"players": 7, "seed": 4, "first_president": 0, "actions": []}
    one = ["liberal", "fascist", "hitler", "fascist", "liberal", "liberal", "liberal"]
    two = ["liberal", "liberal", "fascist", "liberal", "hitler", "fascist", "liberal"]
    render = Renderer(load_prompts(PROMPT_VERSION, "en"))
    prompts = []
    for roles in (one, two):
        game = game_from_record({**base, "roles": roles})
        view = game.view(0)
        legal = game.legal_actions(0)
        prompts.append((render.system(view), render.decide(view, legal)[0]))
    assert prompts[0] == prompts[1]


# ---------------------------------------------------------------------- versions and the narrator
def test_prompt_version_v1_says_what_it_said() -> None:
    """v1 is frozen (records name it): every prompt of two whole games in the five languages is
    what it was when v1's events got their own module (prompts_v1.py), byte for byte;
    prompts_v1_golden.json holds each transcript's digest and the English histories."""
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    got = golden("v1")
    assert got["histories_en_6p"] == want["histories_en_6p"]
    assert got["digests"] == want["digests"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_v2_says_the_events_as_the_table_log_does(lang: str) -> None:
    """From v2 on, a prompt's history is the narrator's messages (the page's log's), in the web
    catalog's words, each seat named as the prompt names it; the chat lines stay in place."""
    render = Renderer(load_prompts("v2", lang))
    _, histories, game = transcript("v2", lang, "6p")
    view = game.view(0)
    names = render.names(view)
    told = [narration.render(t, lang, names) for lines in narrate(view.events) for t in lines]
    history = histories[0].splitlines()
    chat = [line for line in history if re.search(r"line \d+: I trust", line)]
    assert chat and [line for line in history if line not in chat] == [f"- {t}" for t in told]
    if lang == "en":
        assert "- President seat 5 (Fay) passes two policies to Chancellor seat 0 (Ann)." in history


def test_v2_depends_on_the_catalog_entries_it_narrates_with(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A log sentence edited in a web catalog changes what v2 says and its digest (so a record
    tells the two apart); a page text the narrator never uses changes neither."""
    original = narration.catalog("en")
    game = Game(7, "official", seed=3)
    view = game.view(0)

    def prompt(texts: dict[str, str]) -> tuple[str, str]:
        monkeypatch.setattr(narration, "catalog", lambda lang: texts)
        load_prompts.cache_clear()
        try:
            p = load_prompts("v2", "en")
            return p.digest, Renderer(p).history(view)
        finally:
            load_prompts.cache_clear()

    before = prompt(dict(original))
    elsewhere = prompt({**original, "lobby.title": "Another lobby"})
    edited = prompt({**original, "log.game_started": "A new game of {count}: {rules}."})
    assert elsewhere == before
    assert edited[0] != before[0] and "A new game of 7: Official." in edited[1]
    assert load_prompts("v1", "en").digest == load_prompts("v1", "en").digest


def test_v2_keeps_no_copy_of_the_catalogs_words() -> None:
    """v2's phrases hold no event sentence (but a chat line's and an unknown event's) and none of
    the game's terms it reads from the web catalogs (``SHARED_WORDS``), which it says as the
    page does."""
    for lang in LANGUAGES:
        raw = json.loads((PROMPTS_DIR / "v2" / lang / "phrases.json").read_text(encoding="utf-8"))
        events = {k for k in raw if k.startswith("event.")}
        assert events == {"event.chat", "event.other"}, lang
        assert not set(raw) & set(SHARED_WORDS), lang
        p = load_prompts("v2", lang)
        for key, word in SHARED_WORDS.items():
            assert p.say(key) == narration.catalog(lang)[word]
    assert load_prompts("v1", "en").say("role.hitler") == "Hitler"  # v1 keeps its own


def test_v2_says_an_event_the_narrator_does_not_know_by_its_json() -> None:
    render = Renderer(load_prompts("v2", "en"))
    view = Game(5, "official", seed=1).view(0)
    told = render.event(view, _Unknown({"type": "coronation", "hitler": 2}))  # type: ignore[arg-type]
    assert told == 'coronation: {"hitler": 2}'


class _Unknown(dict):  # type: ignore[type-arg]
    """An event of a kind the narrator has no sentence for (as a typed event reads)."""

    @property
    def kind(self) -> str:
        return str(self["type"])


# ---------------------------------------------------------------------- secrethitler.io's game types
#: A table of every game type at once (docs/game-types.md), and the moment of its assassination:
#: seed 4 of rule bots reaches it (Hitler, seat 4, executed by a liberal president).
GAME_TYPES = {
    "preset": "secrethitler-io",
    "avalon": "percival",
    "monarchist": True,
    "rebalanced": [7],
    "top_decking": "not_twice",
}
SEVEN = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus"]


def _to_assassination(rules: dict[str, object] = GAME_TYPES, seed: int = 4) -> Game:
    game = Game(SEVEN, rules, seed=seed)
    agents = [make_agent("rule", s, s) for s in range(7)]
    while game.phase != "assassinate":
        assert not game.finished, "the seeded game must reach the assassination"
        seat = game.to_act()[0]
        legal = [a for a in game.legal_actions(seat) if a.type != A.CLAIM]
        game.apply(agents[seat].act(game.view(seat), legal))
    return game


def _seat_of(game: Game, role: str) -> int:
    return next(s for s in range(game.n) if game.view(s).role == role)


def test_v2_states_each_game_type_in_its_rules() -> None:
    """The system prompt names the role cards dealt and each game type's rule, and states the
    deck and tracks the engine resolves for a rebalanced table (6/10 at 7 players, a fascist
    policy already on the track at 6), never the setting's name as JSON."""
    render = Renderer(load_prompts("v2", "en"))
    seven = render.system(Game(7, GAME_TYPES, seed=1).view(0))
    assert (
        "The role cards dealt: Hitler, Morgana, Monarchist, Merlin, Percival, 2 Liberals." in seven
    )
    for sentence in (
        "Avalon SH: Merlin is a Liberal who knows every member of the Fascist party",
        "Percival is a Liberal who is shown Merlin and Morgana as a pair",
        "he wins exactly when the sixth fascist policy is enacted or Hitler is executed",
        "Of the Fascist party, only the Monarchist may execute Hitler.",
        "rebalanced 7-player table",
        "The deck holds 6 liberal policies and 10 fascist policies.",
        "No double top-decking:",
    ):
        assert sentence in seven, sentence
    assert '"avalon"' not in seven and '"top_decking"' not in seven and '"rebalanced"' not in seven
    six = render.system(Game(6, {"preset": "official", "rebalanced": [6]}, seed=1).view(0))
    assert "The deck holds 6 liberal policies and 10 fascist policies." in six
    assert "starts with 0 liberal policies and 1 fascist policy already on the tracks" in six
    assert "role cards dealt" not in six  # no special role: the players line says it all
    five = render.system(
        Game(5, {"preset": "official", "top_decking": "forbidden"}, seed=1).view(0)
    )
    assert "No top-decking: when failed elections would enact the top policy" in five
    merlin = render.system(Game(5, {"preset": "official", "avalon": "merlin"}, seed=1).view(0))
    assert "The role cards dealt: Hitler, 1 Fascist, Merlin, 2 Liberals." in merlin
    assert "Percival is" not in merlin and "Monarchist" not in merlin
    assert "only the Monarchist may execute" not in render.system(
        Game(7, {"preset": "official", "monarchist": True}, seed=1).view(0)
    )  # the official rules let any president execute Hitler


def test_v2_tells_each_role_what_its_game_type_shows_it() -> None:
    """Merlin is told the Fascist party by party, Percival his pair, the Fascists a teammate
    they know by party only, Hitler at the assassination his targets, the task and each
    target's meaning; a plain Liberal is told nothing more."""
    render = Renderer(load_prompts("v2", "en"))
    game = Game(SEVEN, GAME_TYPES, seed=4)
    state = {game.view(s).role: render.state(game.view(s)) for s in range(7)}
    fascist_party = [s for s in range(7) if game.view(s).party == "fascist"]
    merlin_line = "Parties you know (not the roles): " + ", ".join(
        f"{render.seat(game.view(0), s)}: Fascist party" for s in fascist_party
    )
    assert merlin_line in state["merlin"]
    pair = game.view(_seat_of(game, "percival")).merlin_candidates
    assert pair is not None
    first, second = (render.seat(game.view(0), s) for s in pair)
    assert f"Merlin is {first} or {second}; the other one is Morgana." in state["percival"]
    monarchist = render.seat(game.view(0), _seat_of(game, "monarchist"))
    assert f"Parties you know (not the roles): {monarchist}: Fascist party." in state["morgana"]
    assert "Parties you know" not in state["liberal"] and "Merlin is" not in state["liberal"]
    assert "Parties you know" not in state["hitler"]  # at 7 players he knows nobody

    game = _to_assassination()
    hitler = game.to_act()[0]
    view = game.view(hitler)
    legal = game.legal_actions(hitler)
    text, schema = render.decide(view, legal)
    targets = [a.target for a in legal]
    assert targets and all(a.type == A.ASSASSINATE for a in legal)
    assert "You are Hitler and the Liberals are about to win: name the member" in text
    assert f"The assassination: Hitler, {render.seat(view, hitler)}, now names" in text
    liberal_party = ", ".join(f"{render.seat(view, s)}: Liberal party" for s in targets)
    assert f"Parties you know (not the roles): {liberal_party}." in text
    for t in targets:
        line = f'- {{"type": "assassinate", "target": {t}}}: assassinate {render.seat(view, t)}, whom you take for Merlin'
        assert line in text
    assert schema["properties"]["action"]["properties"]["target"]["enum"] == targets
    answer = json.dumps({"action": {"type": "assassinate", "target": targets[-1]}})
    assert read_decision(answer, hitler, legal).action == legal[-1]
    wrong = json.dumps({"action": {"type": "assassinate", "target": hitler}})
    with pytest.raises(AnswerError) as info:
        read_decision(wrong, hitler, legal)
    assert info.value.kind == "illegal"


def test_v2_says_no_game_type_line_at_an_official_table() -> None:
    """The game types' sentences are said only where a game type is played: at an official
    table v2 says what it said before them (the investigations say the parties they found)."""
    render = Renderer(load_prompts("v2", "en"))
    new = [
        text.split("{", 1)[0]
        for key, text in render.p.phrases.items()
        if key.split("#")[0]
        in {
            "rules.composition",
            "rules.avalon",
            "rules.percival",
            "rules.monarchist",
            "rules.monarchist_executes",
            "rules.rebalanced",
            "rules.top_decking.forbidden",
            "rules.top_decking.not_twice",
            "state.known_parties",
            "state.merlin_candidates",
            "state.top_deck_forbidden",
            "state.assassination",
        }
    ]
    assert len(new) == 12
    _, histories, game = transcript("v2", "en", "6p")
    texts = [render.system(game.view(s)) + render.state(game.view(s)) for s in range(6)]
    texts += histories.values()
    for text in texts:
        assert not [n for n in new if n in text]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_decision_of_a_game_type_game_renders(lang: str) -> None:
    """Every decision and claim window of a game of every game type (a chaos that would end
    it, then an assassination: seed 21 of rule bots that claim) renders in each language,
    every field filled."""
    render = Renderer(load_prompts("v2", lang))
    game = Game(SEVEN, GAME_TYPES, seed=21)
    agents = [make_agent("rule", s, s) for s in range(7)]
    kinds = set()
    top_deck = render.p.say("state.top_deck_forbidden", chaos_at=3)
    warned = False
    while not game.finished:
        seat = game.to_act()[0]
        legal = [a for a in game.legal_actions(seat) if a.type != A.CLAIM]
        view = game.view(seat)
        text, _ = render.decide(view, legal, say_chars=100)
        assert "{" not in text.split("\n")[0] and "$" not in text
        assert (top_deck in text) == view.top_deck_forbidden
        warned |= view.top_deck_forbidden
        kinds.add(legal[0].type)
        for s in game.claimants():
            options = [a for a in game.legal_actions(s) if a.type == A.CLAIM]
            render.claims(game.view(s), options)
            for c in agents[s].claims(game.view(s), options):
                if game.is_legal(c):
                    game.apply(c)
        if not game.finished and seat in game.to_act():
            game.apply(agents[seat].act(view, legal))
    assert A.ASSASSINATE in kinds and warned
    assert render.system(game.view(0)).count("\n- ") >= 14


def test_merlins_prompt_holds_only_what_merlin_may_know() -> None:
    """Two deals that differ only in which of the fascist party Merlin sees is Hitler, Morgana
    or the Monarchist give Merlin the same prompt, word for word."""
    base = {"players": 7, "seed": 4, "first_president": 0, "actions": [], "rules": GAME_TYPES}
    one = ["merlin", "hitler", "percival", "morgana", "liberal", "monarchist", "liberal"]
    two = ["merlin", "monarchist", "percival", "hitler", "liberal", "morgana", "liberal"]
    render = Renderer(load_prompts("v2", "en"))
    prompts = []
    for roles in (one, two):
        game = game_from_record({**base, "roles": roles})
        view = game.view(0)
        prompts.append((render.system(view), render.decide(view, game.legal_actions(0))[0]))
    assert prompts[0] == prompts[1]
    assert "Parties you know (not the roles): seat 1: Fascist party" in prompts[0][1]


def test_v1_refuses_a_game_type_it_has_no_words_for() -> None:
    """v1 is frozen from before the game types: a table that plays one is refused with a clear
    error naming the settings (rules_problem), not misdescribed; v2 describes every one."""
    v1, v2 = load_prompts("v1", "en"), load_prompts("v2", "en")
    assert rules_problem(v1, "official") is None and rules_problem(v1, "secrethitler-io") is None
    assert rules_problem(v2, GAME_TYPES) is None
    problem = rules_problem(v1, {"preset": "official", "avalon": "merlin", "rebalanced": [7]})
    assert problem is not None and "avalon, rebalanced" in problem and "v2" in problem
    view = Game(7, GAME_TYPES, seed=1).view(0)
    with pytest.raises(PromptError, match="cannot describe a table with avalon, monarchist"):
        Renderer(v1).system(view)
    with pytest.raises(PromptError):
        Renderer(v1).decide(view, [])
