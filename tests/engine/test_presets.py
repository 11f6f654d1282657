"""RULES.md section 3: every rule a preset changes, each against the official behaviour, and the
refusal of invalid settings with a message naming the setting."""

from __future__ import annotations

import random

import pytest
from engine_helpers import (
    F,
    L,
    assert_illegal,
    elect,
    event_types,
    events_of,
    fail,
    govern,
    legislate,
    new_game,
    nominate,
    play_random,
)

from secret_hitler.engine import (
    PRESETS,
    Action,
    Game,
    InvalidSettings,
    Role,
    Rules,
    game_from_record,
)

HITLER = 6  # default 7-player table: 0-3 Liberal, 4-5 Fascist, 6 Hitler


def with_track(
    preset: str, fascist: int = 0, liberal: int = 0, **extra: object
) -> dict[str, object]:
    return {"preset": preset, "start_track": {"liberal": liberal, "fascist": fascist}, **extra}


def test_presets_exist_and_official_is_the_default():
    assert set(PRESETS) == {
        "official",
        "secrethitler-io",
        "kickstarter",
        "tabletop-tw",
        "forum",
        "summary-zh",
    }
    assert Rules.from_json(None) == Rules.from_json("official") == Rules()
    for name, rules in PRESETS.items():
        assert rules.preset == name
        assert Rules.from_json(name) == rules
        assert Rules.from_json({"preset": name}) == rules
        assert Rules.from_json(rules.to_json()) == rules


# =============================================================================== tracker reset
@pytest.mark.parametrize(
    ("preset", "resets"),
    [
        ("official", False),
        ("secrethitler-io", False),
        ("forum", False),
        ("kickstarter", True),
        ("tabletop-tw", True),
        ("summary-zh", True),
    ],
)
def test_preset_tracker_reset_on_election(preset, resets):
    game = new_game(7, preset, top="LLL")
    fail(game)
    fail(game)
    assert game.tracker == 2
    elect(game, 3)
    assert game.phase.value == "discard"
    assert game.view(None).election_tracker == (0 if resets else 2)


@pytest.mark.parametrize(("preset", "chaos"), [("official", True), ("kickstarter", False)])
def test_preset_kickstarter_veto_after_a_reset_does_not_bring_chaos(preset, chaos):
    game = new_game(7, with_track(preset, fascist=5), top="LLL L")
    fail(game)
    fail(game)
    elect(game, 3)
    game.apply(Action.discard(2, L))
    game.apply(Action.veto(3))
    game.apply(Action.veto_response(2, True))
    assert bool(events_of(game, "chaos")) is chaos
    assert game.tracker == (0 if chaos else 1)


# =============================================================================== tabletop-tw
@pytest.mark.parametrize(("preset", "barred"), [("official", [1, 4]), ("tabletop-tw", [0, 3])])
def test_preset_tabletop_tw_term_limits_bar_the_last_enacting_government(preset, barred):
    game = new_game(7, with_track(preset, fascist=5), top="LLL LLL")
    govern(game, 3, L)  # 0 and 3 enact
    elect(game, 4)  # 1 and 4 veto
    game.apply(Action.discard(1, L))
    game.apply(Action.veto(4))
    game.apply(Action.veto_response(1, True))
    assert (game.president, game.chancellor) == (1, 4)
    assert game.candidate == 2
    assert sorted(game.term_limited()) == barred
    for seat in barred:
        assert_illegal(game, Action.nominate(2, seat), "invalid_target")
    allowed = [s for s in (0, 1, 3, 4) if s not in barred]
    assert all(s in game.eligible_chancellors() for s in allowed)


@pytest.mark.parametrize(("preset", "barred"), [("official", [2]), ("tabletop-tw", [1, 2])])
def test_preset_tabletop_tw_small_table_exception_keyed_to_the_starting_count(preset, barred):
    game = new_game(7, with_track(preset, fascist=3), top="FFF FFF")
    govern(game, 1, F)
    game.apply(Action.execute(0, 5))
    govern(game, 2, F)
    game.apply(Action.execute(1, 4))
    assert game.living == 5 and game.candidate == 2
    assert sorted(game.term_limited()) == barred
    assert (1 in game.eligible_chancellors()) is (preset == "official")


def test_preset_tabletop_tw_five_player_game_bars_only_the_chancellor():
    game = new_game(5, "tabletop-tw", top="LLL")
    govern(game, 2, L)
    assert game.term_limited() == (2,)
    nominate(game, 0)


def test_preset_tabletop_tw_chaos_clears_the_last_enacting_government():
    game = new_game(7, "tabletop-tw", top="LLF L")
    govern(game, 2, L)
    for _ in range(3):
        fail(game)
    assert events_of(game, "chaos") and game.term_limited() == ()


# =============================================================================== forum
@pytest.mark.parametrize("n", range(5, 11))
def test_preset_forum_first_president_is_the_first_seat(n):
    assert {Game(n, "forum", seed=s).first_president for s in range(30)} == {0}
    assert len({Game(n, "official", seed=s).first_president for s in range(30)}) > 1
    assert Game(n, "forum", seed=3).candidate == 0


def test_preset_forum_previous_round_government_barred_with_no_small_table_exception():
    game = new_game(5, "forum", top="LLL")
    govern(game, 2, L)
    assert sorted(game.term_limited()) == [0, 2]  # official would bar only 2 at 5 players
    assert_illegal(game, Action.nominate(1, 0), "invalid_target")


@pytest.mark.parametrize(
    ("preset", "barred"), [("official", [0, 2]), ("forum", []), ("summary-zh", [])]
)
def test_preset_previous_round_term_limits_last_one_round_only(preset, barred):
    game = new_game(7, preset, top="LLL")
    govern(game, 2, L)  # round 1
    fail(game, 4)  # round 2 (candidate 1)
    assert game.candidate == 2  # round 3
    assert sorted(game.term_limited()) == barred
    assert (0 in game.eligible_chancellors()) is (not barred)


def test_preset_forum_votes_are_public_one_by_one_and_final():
    game = new_game(7, "forum")
    nominate(game, 2)
    game.apply(Action.vote(3, False))
    for seat in (0, 1, 2, 4, 5, 6, None):
        view = game.view(seat)
        assert view.votes[3] is False
        assert view.voted[3] is True
    assert [e for e in game.view(None).events if e["type"] == "voted"] == [
        {"type": "voted", "seat": 3, "ja": False}
    ]
    assert_illegal(game, Action.vote(3, True), "already_voted")


def test_preset_official_votes_are_not_public_one_by_one():
    game = new_game(7, "official")
    nominate(game, 2)
    game.apply(Action.vote(3, False))
    assert game.view(0).votes[3] is None and game.view(None).votes[3] is None


@pytest.mark.parametrize("n", range(5, 11))
@pytest.mark.parametrize(
    ("preset", "board"),
    [
        ("forum", [None, "investigate", "special_election", "execute", "execute"]),
        ("summary-zh", ["investigate", "special_election", "peek", "execute", None]),
    ],
)
def test_preset_fixed_board_for_every_player_count(preset, board, n):
    assert list(new_game(n, preset).view(None).board) == board


def test_preset_forum_investigate_is_used_by_the_next_elected_president_before_his_session():
    game = new_game(7, with_track("forum", fascist=1), top="FFF LLL")
    govern(game, 1, F)  # slot 2: investigate, pending
    assert game.phase.value == "nominate" and game.candidate == 1
    assert not events_of(game, "power")
    fail(game, 3)  # the next candidate is not elected: still pending
    assert not events_of(game, "power")
    elect(game, 3)  # candidate 2 elected
    assert game.phase.value == "investigate" and game.to_act() == [2]
    assert "legislative_session" not in event_types(game, len(game.events) - 4)
    game.apply(Action.investigate(2, 4))
    assert game.view(2).investigations == ((4, "fascist"),)
    assert game.phase.value == "discard" and game.to_act() == [2]
    legislate(game, L)
    assert game.candidate == 3 and len(events_of(game, "power")) == 1


def test_preset_forum_execution_is_used_before_the_session():
    game = new_game(7, with_track("forum", fascist=3), top="FFF LLL")
    govern(game, 1, F)  # slot 4: execute, pending
    assert game.phase.value == "nominate"
    elect(game, 2)
    assert game.phase.value == "execute" and game.to_act() == [1]
    game.apply(Action.execute(1, 5))
    assert game.alive[5] is False
    assert game.phase.value == "discard" and game.view(1).hand == (L, L, L)


def test_preset_forum_execution_before_the_session_never_leaves_a_dead_player_in_office():
    """P4: dead players never vote, run or get nominated. Under power_timing next_president the
    execution comes after the election, so the president could kill his own chancellor, who
    would then still have to enact a policy."""
    game = new_game(7, with_track("forum", fascist=3), top="FFF LLL")
    govern(game, 1, F)
    elect(game, 2)
    assert game.phase.value == "execute"
    for target in game.power_targets:
        trial = game.clone()
        trial.apply(Action.execute(1, target))
        if trial.phase.value == "discard":  # the session goes on: its chancellor must be alive
            assert trial.alive[trial.chancellor], f"seat {target} executed, still chancellor"
            trial.apply(Action.discard(1, trial.hand[0]))
        assert all(trial.alive[s] for s in trial.to_act()), (target, trial.to_act())


def test_preset_forum_special_election_is_used_after_the_session():
    game = new_game(7, with_track("forum", fascist=2), top="FFF LLL")
    govern(game, 1, F)  # slot 3: special election, pending
    elect(game, 2)
    assert game.phase.value == "discard"
    legislate(game, L)
    assert game.phase.value == "special_election" and game.to_act() == [1]
    game.apply(Action.special_election(1, 5))
    assert game.candidate == 5
    fail(game)
    assert game.candidate == 2  # left of the caller


def test_preset_official_powers_are_immediate_for_comparison():
    game = new_game(7, with_track("official", fascist=1), top="FFF")
    govern(game, 1, F)
    assert game.phase.value == "investigate" and game.to_act() == [0]


@pytest.mark.parametrize(("preset", "second_veto"), [("official", True), ("forum", False)])
def test_preset_forum_veto_once_per_game(preset, second_veto):
    game = new_game(7, with_track(preset, fascist=5), top="LLL LLL")
    elect(game, 1)
    game.apply(Action.discard(0, L))
    game.apply(Action.veto(1))
    game.apply(Action.veto_response(0, True))
    elect(game, 2)
    game.apply(Action.discard(1, L))
    assert game.view(2).veto_available is second_veto
    if second_veto:
        game.apply(Action.veto(2))
    else:
        assert_illegal(game, Action.veto(2), "veto_unavailable")


# =============================================================================== summary-zh
@pytest.mark.parametrize(("preset", "knows"), [("official", True), ("summary-zh", False)])
@pytest.mark.parametrize("n", [5, 6])
def test_preset_summary_zh_hitler_never_knows_the_fascists(preset, knows, n):
    game = new_game(n, preset)
    hitler = game.roles.index(Role.HITLER)
    fascist = game.roles.index(Role.FASCIST)
    assert (game.view(hitler).known_roles[fascist] == "fascist") is knows
    assert game.view(fascist).known_roles[hitler] == "hitler"


def test_preset_summary_zh_previous_government_barred_with_no_small_table_exception():
    game = new_game(5, "summary-zh", top="LLL")
    govern(game, 2, L)
    assert sorted(game.term_limited()) == [0, 2]
    assert_illegal(game, Action.nominate(1, 0), "invalid_target")


@pytest.mark.parametrize(("preset", "power"), [("official", False), ("summary-zh", True)])
def test_preset_summary_zh_chaos_power_is_used_by_the_failed_candidate(preset, power):
    game = new_game(7, preset, top="F")
    for _ in range(3):
        fail(game)  # candidates 0, 1, 2
    # summary-zh keeps the term limits through chaos, and its chaos event says so
    cleared = not power
    assert events_of(game, "chaos") == [
        {"type": "chaos", "policy": F, "term_limits_cleared": cleared}
    ]
    if power:  # summary-zh board slot 1: investigate, by the candidate whose election failed
        assert game.phase.value == "investigate" and game.to_act() == [2]
        game.apply(Action.investigate(2, 0))
        assert game.view(2).investigations == ((0, "liberal"),)
    assert game.phase.value == "nominate" and game.candidate == 3


@pytest.mark.parametrize(
    ("rules", "barred"),
    [
        ("official", []),
        ({"preset": "official", "chaos_clears_term_limits": False}, [0, 2]),
        # summary-zh with its term limits measured over elections instead of rounds, so
        # that its chaos rule can be observed: the old government stays barred.
        ({"preset": "summary-zh", "term_limits": "last_elected"}, [0, 2]),
    ],
)
def test_preset_summary_zh_chaos_does_not_clear_term_limits(rules, barred):
    game = new_game(7, rules, top="LLL L")
    govern(game, 2, L)
    for _ in range(3):
        fail(game)
    assert events_of(game, "chaos")
    assert sorted(game.term_limited()) == barred
    assert PRESETS["summary-zh"].chaos_clears_term_limits is False


@pytest.mark.parametrize(("preset", "veto_power"), [("official", "execute"), ("summary-zh", None)])
def test_preset_summary_zh_slot_5_is_veto_only(preset, veto_power):
    game = new_game(7, with_track(preset, fascist=4), top="FFF LLL")
    govern(game, 1, F)
    assert game.fascist == 5
    powers = events_of(game, "power")
    assert (powers[-1]["power"] if powers else None) == veto_power
    if veto_power:
        game.apply(Action.execute(0, 5))
    elect(game, 2)
    game.apply(Action.discard(1, L))
    assert Action.veto(2) in game.legal_actions(2)


def test_preset_summary_zh_slot_1_investigates_at_five_players():
    game = new_game(5, "summary-zh", top="FFF")
    govern(game, 1, F)
    assert game.phase.value == "investigate"


@pytest.mark.parametrize(("preset", "revealed"), [("official", False), ("summary-zh", True)])
def test_preset_summary_zh_executed_role_is_revealed(preset, revealed):
    game = new_game(7, with_track(preset, fascist=3), top="FFF")
    govern(game, 1, F)
    game.apply(Action.execute(0, 5))
    executed = events_of(game, "executed")[0]
    assert ("role" in executed) is revealed
    for seat in (0, 1, 2, 3, None):  # seats that did not know seat 5's role
        assert game.view(seat).known_roles[5] == ("fascist" if revealed else None)


# =============================================================================== secrethitler-io
@pytest.mark.parametrize(("preset", "allowed"), [("official", True), ("secrethitler-io", False)])
def test_preset_secrethitler_io_fascist_president_may_not_execute_hitler(preset, allowed):
    game = new_game(7, with_track(preset, fascist=3), top="FFF", first=4)
    govern(game, 0, F)
    assert game.to_act() == [4]
    assert (HITLER in game.power_targets) is allowed
    if allowed:
        game.apply(Action.execute(4, HITLER))
        assert game.reason.value == "hitler_executed"
    else:
        assert_illegal(game, Action.execute(4, HITLER), "invalid_target")
        game.apply(Action.execute(4, 3))


def test_preset_secrethitler_io_liberal_president_may_execute_hitler():
    game = new_game(7, with_track("secrethitler-io", fascist=3), top="FFF")
    govern(game, 1, F)
    game.apply(Action.execute(0, HITLER))
    assert game.reason.value == "hitler_executed"


def test_preset_secrethitler_io_chancellor_picks_then_vetoes_refusal_enacts_the_pick():
    game = new_game(7, with_track("secrethitler-io", fascist=5), top="LFL")
    elect(game, 1)
    game.apply(Action.discard(0, L))
    legal = {(a.type, a.policy) for a in game.legal_actions(1)}
    assert legal == {("enact", L), ("enact", F), ("veto", L), ("veto", F)}
    assert_illegal(game, Action.veto(1), "not_in_hand")
    game.apply(Action.veto(1, L))
    assert game.phase.value == "veto_response"
    game.apply(Action.veto_response(0, False))
    assert game.liberal == 1 and game.phase.value == "nominate"  # the pick, no second choice
    assert game.candidate == 1


def test_preset_secrethitler_io_consented_veto_discards_both():
    game = new_game(7, with_track("secrethitler-io", fascist=5), top="LFL")
    elect(game, 1)
    game.apply(Action.discard(0, F))
    game.apply(Action.veto(1, L))
    game.apply(Action.veto_response(0, True))
    assert (game.liberal, game.fascist, game.tracker, game.discard_pile) == (0, 5, 1, 3)


# =============================================================================== invalid settings
@pytest.mark.parametrize(
    ("rules", "players", "setting"),
    [
        ("nonsense", 7, "rules"),
        (42, 7, "rules"),
        ({"preset": "chess"}, 7, "rules"),
        ({"preset": "official", "colour": "red"}, 7, "colour"),
        ({"powers": "investigate"}, 7, "powers"),
        ({"powers": [None, None, None, None]}, 7, "powers"),
        ({"powers": [None, None, "teleport", None, None]}, 7, "powers"),
        ({"powers": ["execute"] * 3 + [None, None]}, 5, "powers"),
        ({"hitler_zone": "3"}, 7, "hitler_zone"),
        ({"hitler_zone": 0}, 7, "hitler_zone"),
        ({"hitler_zone": 7}, 7, "hitler_zone"),
        ({"veto_zone": 9}, 7, "veto_zone"),
        ({"veto_zone": True}, 7, "veto_zone"),
        ({"fascists": 3}, 7, "fascists"),
        ({"fascists": 0}, 7, "fascists"),
        ({"fascists": "two"}, 7, "fascists"),
        ({"hitler_knows_fascists": "maybe"}, 7, "hitler_knows_fascists"),
        ({"deck": [6, 11]}, 7, "deck"),
        ({"deck": {"liberal": -1, "fascist": 11}}, 7, "deck"),
        ({"deck": {"liberal": 1, "fascist": 1}}, 7, "deck"),
        ({"deck": {"liberal": 6, "red": 11}}, 7, "deck"),
        ({"start_track": {"liberal": 5, "fascist": 0}}, 7, "start_track"),
        ({"start_track": {"liberal": 0, "fascist": 6}}, 7, "start_track"),
        ({"tracker_resets_on_election": "yes"}, 7, "tracker_resets_on_election"),
        ({"term_limits": "never"}, 7, "term_limits"),
        ({"small_table_exception": 5}, 7, "small_table_exception"),
        ({"first_president": "last_seat"}, 7, "first_president"),
        ({"voting": "open"}, 7, "voting"),
        ({"power_timing": "later"}, 7, "power_timing"),
        ({"veto_limit": -1}, 7, "veto_limit"),
        ({"chaos_power": 1}, 7, "chaos_power"),
        ({"reveal_executed_role": None}, 7, "reveal_executed_role"),
        ({"fascist_may_execute_hitler": "no"}, 7, "fascist_may_execute_hitler"),
        ({"veto_after_choice": []}, 7, "veto_after_choice"),
        ("official", 4, "players"),
        ("forum", 11, "players"),
    ],
)
def test_invalid_settings_are_refused_naming_the_setting(rules, players, setting):
    with pytest.raises(InvalidSettings) as info:
        Game(players, rules, seed=1)
    assert info.value.message.startswith(f"{setting}:"), info.value.message
    assert info.value.code == "invalid_settings"


@pytest.mark.parametrize(
    "rules",
    [
        {"preset": "summary-zh", "powers": ["bullet", "election", "deckpeek", None, None]},
        {"preset": "official", "fascists": 2, "hitler_knows_fascists": True},
        {"preset": "forum", "veto_limit": None, "deck": {"liberal": 8, "fascist": 9}},
        {"preset": "official", "start_track": {"fascist": 1}},
    ],
)
def test_valid_custom_settings_are_accepted_and_round_trip(rules):
    game = Game(7, rules, seed=1)
    assert Rules.from_json(game.rules.to_json()) == game.rules
    record = game.to_record()
    assert game_from_record(record).rules == game.rules


@pytest.mark.parametrize(
    ("players", "deck"), [(5, {"liberal": 1, "fascist": 2}), (7, {"liberal": 2, "fascist": 4})]
)
def test_custom_deck_too_small_for_a_whole_game_is_refused_or_plays_out(players, deck):
    """D1 promises that every draw finds 3 policies. A deck that cannot keep that promise until
    the game is over must be refused as a setting (naming ``deck``), not crash mid-game."""
    rules = {"preset": "official", "deck": deck}
    try:
        Game(players, rules, seed=0)
    except InvalidSettings as exc:
        assert exc.message.startswith("deck:")
        return
    for seed in range(30):
        play_random(Game(players, rules, seed=seed), random.Random(seed))
