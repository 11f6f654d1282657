"""Records (RECORD-FORMAT.md): export, exact replay, seeds and fixings, malformed records."""

from __future__ import annotations

import copy
import json
import random

import pytest
from engine_helpers import F, L, govern, new_game, play_random, random_action, snapshot

from secret_hitler.engine import (
    PRESETS,
    Action,
    Game,
    IllegalAction,
    InvalidRecord,
    game_from_record,
    parse_record,
    replay,
    replay_summary,
    write_record,
)
from secret_hitler.engine.writer import with_talk


def played(preset: str, n: int, seed: int, stop: int | None = None) -> Game:
    game = Game(n, preset, seed)
    rng = random.Random(seed * 1000 + n)
    steps = 0
    while not game.finished and (stop is None or steps < stop):
        game.apply(random_action(game, rng, claim_prob=0.2))
        steps += 1
    return game


def without_record(snap: dict) -> dict:
    return {k: v for k, v in snap.items() if k != "record"}


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("n", [5, 7, 10])
def test_record_round_trip_replays_to_the_identical_state(preset, n):
    for seed, stop in ((1, None), (2, None), (3, 40)):
        game = played(preset, n, seed, stop)
        assert game.finished is (stop is None)
        record = json.loads(json.dumps(game.to_record()))  # JSON values only
        assert record["format"] == "secret-hitler-record" and record["version"] == 1
        assert len(record["actions"]) == len(game.actions)
        again = game_from_record(record)
        assert snapshot(again) == snapshot(game)
        assert again.to_record() == record
        # Every chance event is fixed in the record: no seed needed.
        record.pop("seed")
        unseeded = game_from_record(record)
        assert without_record(snapshot(unseeded)) == without_record(snapshot(game))


@pytest.mark.parametrize("preset", ["official", "summary-zh"])
def test_replayed_seeded_game_continues_like_the_original(preset):
    """A server restores a game from its record and plays on: with the seed in the record, the
    rest of the game (later reshuffles included) is the one the original game would have had."""
    checked = 0
    for seed in range(300):
        game = Game(7, preset, seed)
        rng = random.Random(seed)
        while not game.finished and not game.reshuffles:  # stop right after a reshuffle
            game.apply(random_action(game, rng))
        if game.finished:
            continue
        again = game_from_record(game.to_record())
        while not game.finished:
            action = random_action(game, rng)
            game.apply(action)
            again.apply(action)
            assert again.reshuffles == game.reshuffles, "a later reshuffle differs"
        if len(game.reshuffles) < 2:
            continue
        assert again.reshuffles == game.reshuffles
        assert snapshot(again) == snapshot(game)
        checked += 1
        if checked == 3:
            break
    assert checked, "no game with two reshuffles to check"


def test_record_of_a_finished_game_has_its_result():
    game = played("official", 7, 5)
    record = game.to_record()
    assert record["result"] == {"winner": game.winner.value, "reason": game.reason.value}
    assert replay(record).ok


def test_record_of_a_game_in_progress_has_no_result():
    game = played("official", 7, 5, stop=10)
    assert "result" not in game.to_record()


def test_record_rules_are_written_as_preset_name_or_overrides():
    assert Game(7, "forum", 1).to_record()["rules"] == "forum"
    custom = Game(7, {"preset": "forum", "veto_limit": 2}, 1).to_record()["rules"]
    assert custom == {"preset": "forum", "veto_limit": 2}


def test_record_with_player_names():
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]
    game = Game(names, "official", seed=4)
    play_random(game, random.Random(4))
    record = game.to_record()
    assert record["players"] == names
    assert snapshot(game_from_record(record)) == snapshot(game)
    assert game.view(0).names == tuple(names)


def test_same_seed_same_game_different_seed_different_game():
    assert played("official", 8, 11).to_record() == played("official", 8, 11).to_record()
    records = {json.dumps(Game(8, seed=s).to_record()) for s in range(20)}
    assert len(records) == 20


def test_partial_fixings_keep_the_rest_of_a_seeded_game():
    base = Game(7, seed=9)
    roles = ["liberal"] * 4 + ["fascist", "fascist", "hitler"]
    fixed_roles = Game(7, seed=9, roles=roles)
    assert fixed_roles.initial_deck == base.initial_deck
    assert fixed_roles.first_president == base.first_president
    fixed_first = Game(7, seed=9, first_president=(base.first_president + 1) % 7)
    assert fixed_first.roles == base.roles and fixed_first.initial_deck == base.initial_deck
    deck = list(reversed(base.initial_deck))
    fixed_deck = Game(7, seed=9, deck=deck)
    assert fixed_deck.roles == base.roles and fixed_deck.first_president == base.first_president
    assert list(fixed_deck.initial_deck) == deck


def _game_with_reshuffles(count: int) -> Game:
    for seed in range(200):
        game = played("official", 7, seed)
        if len(game.reshuffles) >= count:
            return game
    raise AssertionError("no game with enough reshuffles")


def test_record_without_reshuffles_takes_them_from_the_seed():
    game = _game_with_reshuffles(1)
    record = game.to_record()
    del record["reshuffles"]
    assert snapshot(game_from_record(record)) == snapshot(game)


def test_record_with_some_reshuffles_takes_the_rest_from_the_seed_unchanged():
    """docs/engine.md: the seed is consumed in the same order either way, so partial fixings keep
    the rest of a seeded game unchanged. Fixing only the first reshuffle must not change the
    later ones that come from the seed."""
    game = _game_with_reshuffles(2)
    record = game.to_record()
    record["reshuffles"] = record["reshuffles"][:1]
    again = game_from_record(record)
    assert again.reshuffles == game.reshuffles
    assert snapshot(again) == snapshot(game)


def test_record_with_a_wrong_reshuffle_is_an_invalid_record():
    game = _game_with_reshuffles(1)
    record = game.to_record()
    pile = record["reshuffles"][0]
    record["reshuffles"][0] = pile[:-1] + [L if pile[-1] == F else F]
    with pytest.raises(InvalidRecord, match=r"^reshuffles\[0\]"):
        game_from_record(record)


def test_replay_stops_at_the_first_illegal_action():
    game = played("official", 7, 3)
    record = game.to_record()
    bad = {"seat": 0, "type": "vote", "ja": True}
    record["actions"] = record["actions"][:5] + [bad] + record["actions"][5:]
    result = replay(record)
    assert not result.ok
    assert result.applied == 5
    assert result.error["index"] == 5 and result.error["code"] in ("wrong_phase", "already_voted")
    assert result.error["message"]
    with pytest.raises(IllegalAction, match=r"actions\[5\]"):
        game_from_record(record)
    partial = game_from_record({**record, "actions": record["actions"][:5]})
    assert snapshot(result.game) == snapshot(partial)


def test_replay_checks_the_expected_result():
    game = played("official", 7, 3)
    record = game.to_record()
    record["result"] = {"winner": "liberal" if game.winner.value == "fascist" else "fascist"}
    result = replay(record)
    assert not result.ok
    assert result.applied == len(record["actions"])
    assert result.error["code"] == "result_mismatch" and result.error["index"] == len(
        record["actions"]
    )
    record["result"] = {"winner": game.winner.value, "reason": "nonsense"}
    assert replay(record).error["code"] == "result_mismatch"
    record["result"] = {"winner": game.winner.value}
    assert replay(record).ok


def test_replay_summary_fields():
    game = new_game(7, top="FLL")
    govern(game, 2, L)
    game.apply(Action.nominate(1, 3))
    summary = replay_summary(game)
    assert summary == {
        "finished": False,
        "winner": None,
        "reason": None,
        "winners": None,
        "assassination": None,
        "liberal_policies": 1,
        "fascist_policies": 0,
        "election_tracker": 0,
        "draw_pile": 14,
        "discard_pile": 2,
        "alive": [True] * 7,
        "president": 0,
        "chancellor": 2,
        "next": {"phase": "vote", "seats": list(range(7))},
    }


# =============================================================================== malformed
BASE = {
    "format": "secret-hitler-record",
    "version": 1,
    "rules": "official",
    "players": 7,
    "roles": ["liberal", "liberal", "liberal", "liberal", "fascist", "fascist", "hitler"],
    "first_president": 0,
    "deck": ["liberal"] * 6 + ["fascist"] * 11,
    "reshuffles": [],
    "seed": 1,
    "actions": [
        {"seat": 0, "type": "nominate", "target": 2},
        {"seat": 0, "type": "vote", "ja": True},
    ],
}


def _set(path: str, value: object):
    def mutate(record: dict) -> None:
        keys = path.split(".")
        target = record
        for key in keys[:-1]:
            target = target[int(key)] if isinstance(target, list) else target[key]
        last = keys[-1]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return mutate


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (_set("format", "pgn"), "format"),
        (_set("version", 2), "version"),
        (_set("rules", "chess"), "rules"),
        (_set("rules", {"preset": "official", "hitler_zone": "three"}), "rules"),
        (_set("rules", ["official"]), "rules"),
        (_set("players", "seven"), "players"),
        (_set("players", 4), "players"),
        (_set("players", True), "players"),
        (_set("players", ["a", "b", "c"]), "players"),
        (_set("players", ["a", "b", "c", "d", "e", "f", 7]), "players"),
        (_set("roles", "liberal"), "roles"),
        (_set("roles", ["liberal"] * 7), "roles"),
        (_set("roles", ["liberal"] * 6), "roles"),
        (_set("roles.2", "communist"), "roles[2]"),
        (_set("first_president", "0"), "first_president"),
        (_set("first_president", 7), "first_president"),
        (_set("first_president", -1), "first_president"),
        (_set("deck", "shuffled"), "deck"),
        (_set("deck", ["liberal"] * 17), "deck"),
        (_set("deck.3", "green"), "deck[3]"),
        (_set("reshuffles", "none"), "reshuffles"),
        (_set("reshuffles", [["liberal", 5]]), "reshuffles[0]"),
        (_set("seed", "abc"), "seed"),
        (_set("seed", 1.5), "seed"),
        (_set("actions", {"seat": 0}), "actions"),
        (_set("actions.1", {"seat": 0, "type": "dance"}), "actions[1]"),
        (_set("actions.1", {"seat": 0, "type": "vote"}), "actions[1]"),
        (_set("actions.0", {"seat": "0", "type": "nominate", "target": 2}), "actions[0]"),
        (_set("actions.0", {"seat": 0, "type": "nominate", "target": "2"}), "actions[0]"),
        (_set("actions.0", ["nominate"]), "actions[0]"),
        (_set("result", {"winner": "nobody"}), "result"),
        (_set("result", "liberal"), "result"),
    ],
)
def test_malformed_record_raises_invalid_record_naming_the_field(mutate, field):
    record = copy.deepcopy(BASE)
    game_from_record(record)  # the base record is valid
    mutate(record)
    for load in (game_from_record, replay):
        with pytest.raises(InvalidRecord) as info:
            load(record)
        assert info.value.message.startswith(field), info.value.message
        assert info.value.code == "invalid_record"


@pytest.mark.parametrize("record", [None, [], "record", 7])
def test_record_that_is_not_an_object_is_invalid(record):
    with pytest.raises(InvalidRecord, match="^record"):
        game_from_record(record)


def test_minimal_record_draws_the_rest_from_the_seed():
    record = {"players": 7, "seed": 12, "actions": []}
    game = game_from_record(record)
    assert game.to_record()["roles"] == Game(7, seed=12).to_record()["roles"]
    assert game_from_record(record).to_record() == game.to_record()


HUGE_INT = int("9" * 4000)
LONG_TEXT = "x" * 100_000


@pytest.mark.parametrize(
    "record",
    [
        {"players": 7, "seed": 1, "actions": [{"seat": HUGE_INT, "type": "nominate", "target": 1}]},
        {"players": 7, "seed": 1, "actions": [{"seat": 0, "type": LONG_TEXT}]},
        {"players": LONG_TEXT, "seed": 1, "actions": []},
        {"players": HUGE_INT, "seed": 1, "actions": []},
        {"players": 7, "seed": 1, "roles": [LONG_TEXT] * 7, "actions": []},
        {"players": 7, "seed": 1, "deck": [LONG_TEXT] * 17, "actions": []},
        {"players": 7, "seed": 1, "rules": {"preset": LONG_TEXT}, "actions": []},
        {"players": 7, "seed": 1, "rules": {"preset": "official", "hitler_zone": LONG_TEXT}},
    ],
)
def test_a_refusal_never_quotes_a_huge_value(record):
    """A record from anywhere (a file, an upload) is refused with a message of a line, whatever
    the size of the bad value in it."""
    try:
        result = replay(record)
    except InvalidRecord as exc:
        message = exc.message
    else:
        assert result.error is not None, "the record was accepted"
        message = result.error["message"]
    assert len(message) < 200, message[:300]


# =============================================================================== talk
TALK = [
    {"after": 0, "seat": None, "name": "Ann", "text": "gl hf"},
    {"after": 1, "seat": 2, "line": {"kind": "trust", "target": 0, "certainty": "hedged"}},
    {"after": 2, "seat": 0, "text": "RRB"},
]


def test_a_record_with_talk_replays_to_the_same_state_as_without():
    """The talk section is kept as said and never changes what a replay computes."""
    game = played("official", 7, 4)
    plain = game.to_record()
    n = len(plain["actions"])
    talk = [dict(TALK[0]), {**TALK[1], "after": n // 2}, {**TALK[2], "after": n}]
    talking = with_talk(plain, talk)
    assert list(talking)[list(talking).index("actions") + 1] == "talk"
    assert talking["talk"] == talk and "talk" not in plain
    assert snapshot(game_from_record(talking)) == snapshot(game_from_record(plain))
    a, b = replay(talking), replay(plain)
    assert a.ok and b.ok and a.applied == b.applied
    assert replay_summary(a.game) == replay_summary(b.game)
    assert parse_record(talking).talk == talk and parse_record(plain).talk is None
    assert with_talk(talking, []) == {**talking, "talk": []}  # replaced, not added twice


def test_the_writer_puts_talk_after_the_actions():
    record = write_record(
        rules="official",
        players=7,
        roles=BASE["roles"],
        first_president=0,
        deck=BASE["deck"],
        reshuffles=[],
        actions=BASE["actions"],
        winner="liberal",
        reason="hitler_executed",
        talk=TALK[:2],
    )
    assert list(record)[-3:] == ["actions", "talk", "result"]
    assert "talk" not in write_record(
        rules="official", players=7, roles=[], first_president=0, deck=[], reshuffles=[], actions=[]
    )


@pytest.mark.parametrize(
    ("talk", "field"),
    [
        ("hello", "talk"),
        (["hello"], "talk[0]"),
        ([{"after": 0, "seat": 1, "text": "x", "mood": "happy"}], "talk[0]: no field 'mood'"),
        ([{"seat": 1, "text": "x"}], "talk[0].after"),
        ([{"after": 3, "seat": 1, "text": "x"}], "talk[0].after"),
        ([{"after": True, "seat": 1, "text": "x"}], "talk[0].after"),
        (
            [{"after": 2, "seat": 1, "text": "x"}, {"after": 1, "seat": 1, "text": "y"}],
            "talk[1].after",
        ),
        ([{"after": 0, "seat": 7, "text": "x"}], "talk[0].seat"),
        ([{"after": 0, "seat": "1", "text": "x"}], "talk[0].seat"),
        ([{"after": 0, "seat": None, "text": "x"}], "talk[0]: a line by no seat"),
        ([{"after": 0, "seat": None, "name": 5, "text": "x"}], "talk[0].name"),
        ([{"after": 0, "seat": 1}], "talk[0]: holds exactly one"),
        ([{"after": 0, "seat": 1, "text": "x", "line": {"kind": "claim"}}], "talk[0]: holds"),
        ([{"after": 0, "seat": 1, "line": "RRB"}], "talk[0].line"),
        ([{"after": 0, "seat": 1, "line": {"target": 2}}], "talk[0].line"),
        ([{"after": 0, "seat": 1, "text": 42}], "talk[0].text"),
        ([{"after": 0, "seat": 1, "text": LONG_TEXT}], "talk[0].text"),
    ],
)
def test_a_malformed_talk_section_is_an_invalid_record_naming_the_entry(talk, field):
    record = copy.deepcopy(BASE)
    record["talk"] = talk
    for load in (game_from_record, replay):
        with pytest.raises(InvalidRecord) as info:
            load(record)
        assert info.value.message.startswith(field), info.value.message
        assert len(info.value.message) < 200
