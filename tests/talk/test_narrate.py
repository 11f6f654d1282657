"""The narrator: every event of a game in the web catalogs' words, one message decided in one
place (talk/narrate.py), which the server sends with each event (``told``), the page renders
(tests/web/js/narrate.test.mjs) and the prompts say (tests/llm/test_format.py)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from narration_cases import AVALON, FIXTURE, NAMES, fixture, logs, played, played_game

from secret_hitler.engine import Game, game_from_record
from secret_hitler.engine.events import EVENT_TYPES, Event, typed
from secret_hitler.talk.narrate import (
    DETAIL,
    HEADING,
    KEY_PREFIXES,
    LINE,
    TOLD_KINDS,
    Narrations,
    Narrator,
    catalog,
    heard,
    narrate,
    render,
    rules_name,
    rules_named,
)
from secret_hitler.talk.phrases import LANGUAGES, Listed, Message, SeatRef


def test_the_page_fixture_says_what_the_narrator_says() -> None:
    """tests/web/js/narration.json, whose texts the page's renderer is checked against, is what
    this narrator tells now (``python tests/talk/narration_cases.py`` writes it anew)."""
    assert json.loads(FIXTURE.read_text(encoding="utf-8")) == json.loads(json.dumps(fixture()))


def _keys(message: Message) -> list[str]:
    out = [message.key]
    for value in message.params.values():
        items = value.items if isinstance(value, Listed) else (value,)
        out.extend(k for item in items if isinstance(item, Message) for k in _keys(item))
    return out


@pytest.mark.parametrize("players", [5, 7, 10])
def test_every_message_is_in_every_catalog_with_its_fields(players: int) -> None:
    """Whole games' every event in the five languages: each key (and each word's) is in every
    catalog among the narrator's families, and the text has no field left unfilled."""
    events = played(players, 3 + players)
    told = narrate(events)
    assert len(told) == len(events)
    assert all(lines or e.kind == "voted" for e, lines in zip(events, told, strict=True))
    for lines in told:
        for t in lines:
            for key in _keys(t.message):
                assert key.startswith(KEY_PREFIXES), key
            for lang in LANGUAGES:
                text = render(t, lang, NAMES)
                assert text and not re.search(r"\{\w+\}", text), (lang, t)


def test_every_kind_of_event_is_told() -> None:
    assert set(EVENT_TYPES) == TOLD_KINDS
    kinds = {e.kind for events in logs().values() for e in events}
    assert kinds >= TOLD_KINDS, TOLD_KINDS - kinds  # the fixture's logs show every one


def _told(*events: dict[str, object]) -> list[list[tuple[str, str, Any]]]:
    narrator = Narrator()
    return [
        [(t.part, t.message.key, t.to_json().get("params", {})) for t in narrator.tell(typed(e))]
        for e in events
    ]


def test_a_line_names_what_an_earlier_event_said() -> None:
    """The chancellor a president passes to is the session's; a candidate named by a special
    election says so, the next one not; the veto is unlocked once, at the first session that
    has it."""
    session = {"type": "legislative_session", "president": 1, "chancellor": 4, "draw_pile": 10}
    told = _told(
        {"type": "president_discarded", "president": 1},
        {**session, "veto": False},
        {"type": "president_discarded", "president": 1},
        {"type": "special_election", "president": 1, "target": 3},
        {"type": "candidate", "seat": 3, "round": 5, "eligible": [0]},
        {"type": "candidate", "seat": 2, "round": 6, "eligible": [0]},
        {**session, "veto": True},
        {**session, "veto": True},
    )
    assert told[0][0][2]["chancellor"] == "?"  # no session read yet
    assert told[2][0][2] == {"president": {"seat": 1}, "chancellor": {"seat": 4}}
    assert [key for _, key, _ in told[4]] == ["table.round", "log.candidate_special"]
    assert told[4][0][0] == HEADING and told[5][1][1] == "log.candidate"
    assert [key for _, key, _ in told[6]] == ["log.veto_unlocked", "log.legislative_started"]
    assert [key for _, key, _ in told[7]] == ["log.legislative_started"]


def test_what_the_engine_says_is_said_and_nothing_more() -> None:
    """A secret ballot is not told; one cast in public is. Chaos says the term limits are lifted
    only when the engine's event says so. The votes' lists are details of the result."""
    told = _told(
        {"type": "voted", "seat": 2},
        {"type": "voted", "seat": 2, "ja": False},
        {"type": "chaos", "policy": "liberal", "term_limits_cleared": False},
        {"type": "chaos", "policy": "liberal", "term_limits_cleared": True},
        {"type": "votes", "votes": [True, None, False], "ja": 1, "nein": 1, "passed": False},
    )
    assert told[0] == [] and told[1] == [(LINE, "log.voted_nein", {"name": {"seat": 2}})]
    assert [key for _, key, _ in told[2]] == ["log.chaos"]
    assert told[3][1][:2] == (DETAIL, "log.term_limits_cleared")
    assert [(part, key) for part, key, _ in told[4]] == [
        (LINE, "log.votes_revealed"),
        (DETAIL, "votes.ja_list"),
        (DETAIL, "votes.nein_list"),
        (LINE, "log.rejected"),
    ]
    assert told[4][2][2] == {"names": {"list": [{"seat": 2}]}}


def test_the_texts_are_the_page_catalogs_sentences() -> None:
    """The words are the web catalog's own, seats named as the reader names them, lists joined
    by the language's separator and counts in their plural form."""
    game = Game(NAMES[:5], "official", seed=2)
    started = narrate([game.events[0].json])[0][0]
    assert render(started, "en", NAMES) == "The game begins with 5 players. Rules: Official."
    elected = Message("log.elected", {"president": SeatRef(0), "chancellor": SeatRef(3)})
    for lang in LANGUAGES:
        want = catalog(lang)["log.elected"].format(president="Ann", chancellor="Dee")
        assert render(elected, lang, NAMES) == want
    ja = Message("votes.ja_list", {"names": Listed((SeatRef(0), SeatRef(1)))})
    assert render(ja, "zh-Hans", NAMES) == "赞成：Ann、Bob"
    one = narrate([typed({"type": "reshuffled", "draw_pile": 1})])[0][0]
    assert render(one, "en").endswith("(1 policy).")
    assert render(one, "ru").endswith("в ней 1 закон).")
    changed = {**game.events[0].json, "rules": {"preset": "official", "voting": "public"}}
    assert render(narrate([typed(changed)])[0][0], "zh-Hans").endswith("官方规则（自定义）。")


@pytest.mark.parametrize(
    ("players", "rules"),
    [(6, None), (10, None), (7, AVALON), (9, {"preset": "secrethitler-io", "avalon": "merlin"})],
    ids=["6p", "10p", "avalon-percival", "avalon-9p"],
)
def test_a_table_tells_each_event_once_and_each_reader_its_own_narration(
    players: int, rules: Any
) -> None:
    """``Narrations`` (a live table's: each event told once, a private one by its reader's
    narrator alone) tells every seat and a spectator, update by update, what ``narrate`` of
    that reader's own log says; a log read from another point is read again from its start."""
    played = played_game(players, 11 + players, *([rules] if rules else []))
    game = game_from_record(played.to_record(), apply_actions=False)  # played again, move by move
    narrations = Narrations()
    tellings = narrations.tell_from(game.events, 0)
    for action in played.actions:
        start = len(game.events)
        game.apply(action)
        tellings += narrations.tell_from(game.events, start)
    assert len(tellings) == len(game.events)
    private = 0
    for seat in [*range(players), None]:
        seen = [(e, t) for e, t in zip(game.events, tellings, strict=True) if e.visible_to(seat)]
        assert [heard(t, seat) for _, t in seen] == narrate(game.view(seat).events), seat
        private += sum(e.audience is not None for e, _ in seen)
    assert private > 3 * players  # roles, nights, hands, peeks, investigations
    again = Narrations()
    again.tell_from(game.events, 0)
    tail = again.tell_from(game.events, len(game.events) - 5)  # as it read: nothing read again
    assert tail == tellings[-5:] == Narrations().tell_from(game.events, len(game.events) - 5)


def test_rules_are_named_for_the_page_as_the_log_names_them() -> None:
    """A table's or a game's rules as the server sends them with it (``rules_named``): the
    message the first log line names them by, and the game types the lobby filters by (the
    messages tests/web/js/format.test.mjs renders)."""
    changed = rules_named({"preset": "official", "hitler_zone": 4})
    assert changed == {
        "rules_name": {
            "key": "preset.changed",
            "params": {
                "name": {"key": "preset.official.name"},
                "custom": {"key": "preset.custom.name"},
            },
        },
        "game_types": [],
    }
    avalon = rules_named({"preset": "secrethitler-io", "avalon": "merlin", "monarchist": True})
    assert avalon["game_types"] == ["avalon", "monarchist"]
    assert render(rules_name({"preset": "secrethitler-io", "avalon": "merlin"}), "en") == (
        f"{catalog('en')['preset.secrethitler-io.name']}: {catalog('en')['gametype.avalon.merlin']}"
    )
    assert rules_named("forum") == {"rules_name": {"key": "preset.forum.name"}, "game_types": []}
    game = Game(NAMES[:7], {"preset": "secrethitler-io", "avalon": "merlin"}, seed=1)
    started = narrate([game.events[0].json])[0][0].message
    assert started.params["rules"] == rules_name(game.events[0].json.rules)


def test_a_table_reads_again_a_log_that_lost_events_it_had_read() -> None:
    """An action undone after its events were read (its commit failed): the table's narration
    reads the log again from its start, so the special election that never happened names no
    candidate as specially elected."""
    log: list[Event] = [Event("special_election", {"president": 1, "target": 3})]
    narrations = Narrations()
    assert [t.message.key for t in heard(narrations.tell_from(log, 0)[0], None)] == [
        "log.special_election"
    ]
    del log[:]  # undone
    log.append(Event("candidate", {"seat": 3, "round": 5, "eligible": [0]}))
    told = heard(narrations.tell_from(log, 0)[0], None)
    assert [t.message.key for t in told] == ["table.round", "log.candidate"]
