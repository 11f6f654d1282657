"""One or more tests per rule item of RULES.md sections 1 and 2 (the ``official`` preset).

Games are rigged: roles, first president and deck (top first) are fixed, so every test drives
the game into an exact situation. Default 7-player table: seats 0-3 Liberal, 4-5 Fascist,
6 Hitler; board (none, investigate, special election, execute, execute).
"""

from __future__ import annotations

from collections import Counter

import pytest
from engine_helpers import (
    F,
    L,
    all_views,
    assert_illegal,
    cards,
    elect,
    event_types,
    events_of,
    fail,
    govern,
    legislate,
    living,
    new_game,
    nominate,
    vote_all,
)

from secret_hitler.engine import Action, Game, IllegalAction, InvalidRecord, InvalidSettings, Role


def start(fascist: int = 0, liberal: int = 0, **extra: object) -> dict[str, object]:
    """Official rules with policies already on the tracks."""
    return {"preset": "official", "start_track": {"liberal": liberal, "fascist": fascist}, **extra}


HITLER = 6  # in the default 7-player table


# =============================================================================== setup
@pytest.mark.parametrize("n", [0, 4, 11])
def test_S1_player_count_outside_5_to_10_is_refused(n):
    with pytest.raises(InvalidSettings, match="^players"):
        Game(n)


@pytest.mark.parametrize("n", range(5, 11))
def test_S1_deck_holds_6_liberal_and_11_fascist_policies_shuffled(n):
    decks = [Game(n, seed=s).initial_deck for s in range(40)]
    for deck in decks:
        assert len(deck) == 17
        assert deck.count(L) == 6 and deck.count(F) == 11
    assert len(set(decks)) >= 35  # shuffled, not a fixed order
    view = Game(n, seed=1).view(None)
    assert (view.draw_pile, view.discard_pile) == (17, 0)
    assert (view.liberal_policies, view.fascist_policies, view.election_tracker) == (0, 0, 0)


@pytest.mark.parametrize(
    ("n", "liberals", "fascists"),
    [(5, 3, 1), (6, 4, 1), (7, 4, 2), (8, 5, 2), (9, 5, 3), (10, 6, 3)],
)
def test_S2_role_counts_per_player_count(n, liberals, fascists):
    for seed in range(25):
        roles = Game(n, seed=seed).roles
        assert len(roles) == n
        assert roles.count(Role.LIBERAL) == liberals
        assert roles.count(Role.FASCIST) == fascists
        assert roles.count(Role.HITLER) == 1


def test_S2_roles_are_dealt_uniformly_at_random():
    hitler_seats: Counter[int] = Counter()
    fascist_seats: Counter[int] = Counter()
    for seed in range(1000):
        roles = Game(5, seed=seed).roles
        hitler_seats[roles.index(Role.HITLER)] += 1
        fascist_seats[roles.index(Role.FASCIST)] += 1
    for seat in range(5):  # expected 200 each; 150-250 is about 4 standard deviations
        assert 150 <= hitler_seats[seat] <= 250, hitler_seats
        assert 150 <= fascist_seats[seat] <= 250, fascist_seats


def test_S3_each_seat_sees_its_role_and_party_hitler_is_in_the_fascist_party():
    game = new_game(7)
    expected = {0: ("liberal", "liberal"), 4: ("fascist", "fascist"), HITLER: ("hitler", "fascist")}
    for seat, (role, party) in expected.items():
        view = game.view(seat)
        assert (view.role, view.party) == (role, party)
    spectator = game.view(None)
    assert spectator.role is None and spectator.party is None
    assert spectator.known_roles == (None,) * 7


@pytest.mark.parametrize(
    ("n", "board"),
    [
        (5, [None, None, "peek", "execute", "execute"]),
        (6, [None, None, "peek", "execute", "execute"]),
        (7, [None, "investigate", "special_election", "execute", "execute"]),
        (8, [None, "investigate", "special_election", "execute", "execute"]),
        (9, ["investigate", "investigate", "special_election", "execute", "execute"]),
        (10, ["investigate", "investigate", "special_election", "execute", "execute"]),
    ],
)
def test_S4_board_is_chosen_by_the_starting_player_count(n, board):
    game = new_game(n)
    assert list(game.view(None).board) == board
    assert events_of(game, "game_started")[0]["board"] == board


@pytest.mark.parametrize(
    ("n", "slot", "phase"),
    [
        (9, 1, "investigate"),
        (7, 1, None),
        (7, 2, "investigate"),
        (6, 2, None),
        (7, 3, "special_election"),
        (5, 3, "peek"),
        (8, 4, "execute"),
        (6, 5, "execute"),
    ],
)
def test_S4_enacted_fascist_policy_gives_the_power_of_its_slot(n, slot, phase):
    game = new_game(n, start(fascist=slot - 1), top="FFF")
    govern(game, 1, F)
    assert game.fascist == slot
    powers = events_of(game, "power")
    if phase is None:
        assert powers == [] and game.phase.value == "nominate"
    elif phase == "peek":
        assert powers[0]["power"] == "peek" and game.phase.value == "nominate"
    else:
        assert powers[0]["power"] == phase and game.phase.value == phase


def test_S4_board_does_not_change_after_executions():
    # 7 players, custom board: two executions first, then a slot that is a Peek on the
    # 5-6 board would be used by a 5-player table, but this game started with 7.
    rules = start(powers=["execute", "execute", "investigate", None, None])
    game = new_game(7, rules, top="FFF FFF FFF")
    board = game.view(None).board
    govern(game, 1, F)
    game.apply(Action.execute(0, 3))
    govern(game, 2, F)
    game.apply(Action.execute(1, 5))
    assert game.living == 5
    govern(game, 4, F)
    assert game.phase.value == "investigate"
    assert game.view(None).board == board == game.board


def test_S5_first_president_is_uniformly_random():
    firsts = Counter(Game(7, seed=s).first_president for s in range(1400))
    assert set(firsts) == set(range(7))
    for seat in range(7):  # expected 200 each
        assert 140 <= firsts[seat] <= 260, firsts


def test_S5_start_state_tracker_zero_no_term_limits():
    game = new_game(7, first=3)
    view = game.view(0)
    assert view.candidate == 3 and game.to_act() == [3]
    assert view.election_tracker == 0
    assert view.term_limited == ()
    assert view.president is None and view.chancellor is None
    assert game.eligible_chancellors() == (0, 1, 2, 4, 5, 6)


# =============================================================================== night
@pytest.mark.parametrize("n", range(5, 11))
def test_N1_fascists_know_all_fascists_and_hitler(n):
    game = new_game(n)
    roles = game.roles
    team = {s: r.value for s, r in enumerate(roles) if r is not Role.LIBERAL}
    for seat in (s for s, r in enumerate(roles) if r is Role.FASCIST):
        known = game.view(seat).known_roles
        assert {s: r for s, r in enumerate(known) if r is not None} == team
        night = [e for e in game.view(seat).events if e["type"] == "night"]
        assert len(night) == 1
        assert {int(k): v for k, v in night[0]["known"].items()} == {
            s: r for s, r in team.items() if s != seat
        }


@pytest.mark.parametrize("n", range(5, 11))
def test_N2_hitler_knows_the_fascist_only_with_5_or_6_players(n):
    game = new_game(n)
    hitler = game.roles.index(Role.HITLER)
    known = {s: r for s, r in enumerate(game.view(hitler).known_roles) if r is not None}
    if n <= 6:
        assert known == {s: r.value for s, r in enumerate(game.roles) if r is not Role.LIBERAL}
    else:
        assert known == {hitler: "hitler"}
        assert not [e for e in game.view(hitler).events if e["type"] == "night"]


@pytest.mark.parametrize("n", range(5, 11))
def test_N3_liberals_learn_nothing(n):
    game = new_game(n)
    for seat in (s for s, r in enumerate(game.roles) if r is Role.LIBERAL):
        view = game.view(seat)
        assert {s: r for s, r in enumerate(view.known_roles) if r is not None} == {seat: "liberal"}
        assert [e["type"] for e in view.events if e["type"] in ("night", "role")] == ["role"]


# =============================================================================== election
def test_E1_candidacy_moves_left_after_a_failed_and_a_passed_vote():
    game = new_game(7, first=5)
    assert game.candidate == 5
    fail(game)
    assert game.candidate == 6
    govern(game, 2, L)
    assert game.candidate == 0  # wraps from the last seat to seat 0
    fail(game)
    assert game.candidate == 1
    assert [e["seat"] for e in events_of(game, "candidate")] == [5, 6, 0, 1]


def test_E1_dead_players_are_skipped_as_candidates():
    game = new_game(7, start(fascist=3), top="FFF")
    govern(game, 1, F)  # slot 4: execute
    game.apply(Action.execute(0, 1))  # the next candidate in line dies
    assert game.candidate == 2
    assert_illegal(game, Action.nominate(1, 3), "not_your_turn")


def test_E2_candidate_may_not_nominate_himself_a_dead_player_or_a_stranger():
    game = new_game(7, start(fascist=3), top="FFF")
    assert_illegal(game, Action.nominate(0, 0), "invalid_target")
    assert_illegal(game, Action.nominate(0, 7), "invalid_target")
    assert_illegal(game, Action.nominate(0, -1), "invalid_target")
    assert_illegal(game, Action.nominate(1, 2), "not_your_turn")
    govern(game, 1, F)
    game.apply(Action.execute(0, 3))
    assert game.candidate == 1
    assert 3 not in game.eligible_chancellors()
    assert_illegal(game, Action.nominate(1, 3), "invalid_target")
    nominate(game, 2)
    assert game.phase.value == "vote"


def test_E3_last_elected_president_and_chancellor_may_not_be_nominated():
    game = new_game(7)
    govern(game, 2, L)
    assert game.candidate == 1
    assert sorted(game.view(1).term_limited) == [0, 2]
    assert game.eligible_chancellors() == (3, 4, 5, 6)
    assert_illegal(game, Action.nominate(1, 0), "invalid_target")
    assert_illegal(game, Action.nominate(1, 2), "invalid_target")
    nominate(game, 3)


def test_E3_anyone_may_be_presidential_candidate_even_the_last_chancellor():
    game = new_game(7)
    govern(game, 1, L)
    assert game.candidate == 1 == game.chancellor  # the last chancellor runs for president
    assert game.eligible_chancellors() == (2, 3, 4, 5, 6)
    govern(game, 2, L)
    assert (game.president, game.chancellor) == (1, 2)


def test_E3_with_5_players_only_the_last_chancellor_is_barred():
    game = new_game(5)
    govern(game, 2, L)
    assert game.candidate == 1
    assert game.view(1).term_limited == (2,)
    assert game.eligible_chancellors() == (0, 3, 4)
    nominate(game, 0)  # the last president is not barred at a 5-player table


def test_E3_A6_with_5_living_of_7_only_the_last_chancellor_is_barred():
    game = new_game(7, start(fascist=3), top="FFF FFF")
    govern(game, 1, F)  # slot 4
    game.apply(Action.execute(0, 5))
    assert game.candidate == 1 and game.living == 6
    assert_illegal(game, Action.nominate(1, 0), "invalid_target")  # 6 alive: both barred
    govern(game, 2, F)  # slot 5
    game.apply(Action.execute(1, 4))
    assert game.living == 5 and game.candidate == 2
    assert game.term_limited() == (2,)
    assert 1 in game.eligible_chancellors()
    nominate(game, 1)  # the last president, allowed with 5 alive


def test_E4_failed_vote_does_not_clear_term_limits():
    game = new_game(7)
    govern(game, 2, L)  # last elected: 0 and 2
    fail(game, 3)  # candidate 1 fails
    fail(game, 3)  # candidate 2 fails
    assert game.candidate == 3 and game.tracker == 2
    assert sorted(game.term_limited()) == [0, 2]
    assert (game.president, game.chancellor) == (0, 2)
    assert_illegal(game, Action.nominate(3, 0), "invalid_target")
    assert_illegal(game, Action.nominate(3, 2), "invalid_target")


def test_E4_special_election_does_not_clear_term_limits():
    game = new_game(7, start(fascist=2), top="FFF")
    govern(game, 1, F)  # slot 3: special election
    game.apply(Action.special_election(0, 4))
    assert game.candidate == 4
    assert sorted(game.term_limited()) == [0, 1]
    assert_illegal(game, Action.nominate(4, 1), "invalid_target")
    assert_illegal(game, Action.nominate(4, 0), "invalid_target")


def test_E4_vetoing_government_stays_the_last_elected_government():
    game = new_game(7, start(fascist=5), top="LLL")
    elect(game, 2)
    game.apply(Action.discard(0, L))
    game.apply(Action.veto(2))
    game.apply(Action.veto_response(0, True))
    assert (game.president, game.chancellor) == (0, 2)
    assert game.candidate == 1
    assert sorted(game.term_limited()) == [0, 2]
    assert_illegal(game, Action.nominate(1, 2), "invalid_target")


def test_E5_every_living_player_votes_candidates_included():
    game = new_game(7)
    nominate(game, 3)
    assert game.to_act() == list(range(7))
    for s in range(7):
        assert [a.to_json() for a in game.legal_actions(s)] == [
            {"seat": s, "type": "vote", "ja": True},
            {"seat": s, "type": "vote", "ja": False},
        ]
    for s in (1, 2, 4, 5, 6):
        game.apply(Action.vote(s, True))
    assert game.phase.value == "vote"  # the candidates have not voted yet
    assert game.to_act() == [0, 3]
    game.apply(Action.vote(3, False))
    game.apply(Action.vote(0, True))
    assert game.phase.value == "discard"


def test_E5_votes_are_secret_until_all_are_cast_then_public():
    game = new_game(7)
    nominate(game, 3)
    game.apply(Action.vote(2, False))
    game.apply(Action.vote(5, True))
    own = game.view(2)
    assert own.votes[2] is False
    assert [v for s, v in enumerate(own.votes) if s != 2] == [None] * 6
    for seat in (0, 1, 3, 4, 6, None):
        view = game.view(seat)
        assert view.votes == (None,) * 7
        assert view.voted == (False, False, True, False, False, True, False)
        assert all("ja" not in e for e in view.events if e["type"] == "voted")
    assert_illegal(game, Action.vote(2, True), "already_voted")
    for s in (0, 1, 3, 4, 6):
        game.apply(Action.vote(s, s != 1))
    expected = (True, False, False, True, True, True, True)
    for view in [game.view(s) for s in range(7)] + [game.view(None)]:
        assert view.votes == expected
        assert [e for e in view.events if e["type"] == "votes"][-1]["votes"] == list(expected)


def test_E5_dead_players_do_not_vote():
    game = new_game(7, start(fascist=3), top="FFF")
    govern(game, 1, F)
    game.apply(Action.execute(0, 3))
    nominate(game, 2)
    assert 3 not in game.to_act()
    assert game.legal_actions(3) == []
    assert_illegal(game, Action.vote(3, True), "dead_player")
    vote_all(game, True)
    assert game.last_votes is not None and game.last_votes[3] is None
    assert game.phase.value == "discard"


@pytest.mark.parametrize(
    ("n", "ja", "passed"),
    [(7, 4, True), (7, 3, False), (6, 3, False), (6, 4, True), (5, 3, True), (10, 5, False)],
)
def test_E6_majority_of_living_players_needed_a_tie_fails(n, ja, passed):
    game = new_game(n)
    nominate(game, 1)
    vote_all(game, {s: s < ja for s in range(n)})
    assert (game.president == 0) is passed
    assert game.view(None).votes.count(True) == ja
    assert events_of(game, "votes")[0]["passed"] is passed


def test_E6_dead_players_do_not_count_for_the_majority():
    game = new_game(6, start(fascist=3), top="FFF LLL")
    govern(game, 1, F)  # 5-6 board, slot 4: execute
    game.apply(Action.execute(0, 4))
    assert game.living == 5
    nominate(game, 2)
    vote_all(game, {0: True, 1: True, 2: True, 3: False, 5: False})  # 3 of 5 living
    assert (game.president, game.chancellor) == (1, 2)


def test_E7_failed_vote_advances_tracker_and_presidency_moves_on():
    game = new_game(7, top="F")
    fail(game, 2)
    assert game.tracker == 1 and game.candidate == 1
    assert game.view(4).election_tracker == 1
    fail(game, 2)
    assert game.tracker == 2 and game.candidate == 2
    fail(game, 3)
    assert game.tracker == 0 and game.candidate == 3  # chaos at three
    assert [e["policy"] for e in events_of(game, "chaos")] == [F]


def test_E8_hitler_elected_chancellor_with_3_fascist_policies_wins():
    game = new_game(7, start(fascist=3), top="FFF")
    elect(game, HITLER)
    assert game.finished
    assert (game.winner.value, game.reason.value) == ("fascist", "hitler_elected")
    assert "legislative_session" not in event_types(game)


def test_E8_hitler_elected_with_2_fascist_policies_does_not_win():
    game = new_game(7, start(fascist=2), top="FFF")
    elect(game, HITLER)
    assert not game.finished and game.phase.value == "discard"
    assert HITLER not in game.not_hitler


def test_E8_elected_chancellor_in_hitler_zone_is_publicly_not_hitler():
    game = new_game(7, start(fascist=3), top="FFF")
    elect(game, 4)
    assert not game.finished
    for view in all_views(game):
        assert view["not_hitler"] == [4]
    assert events_of(game, "not_hitler") == [{"type": "not_hitler", "seat": 4}]
    for view in all_views(game):
        assert view["proven_not_hitler"] == [4]


def test_E9_electing_a_government_does_not_reset_the_tracker():
    game = new_game(7)
    fail(game)
    fail(game)
    elect(game, 3)
    assert game.tracker == 2
    assert game.view(None).election_tracker == 2


# =============================================================================== legislative session
def test_L1_president_draws_top_3_discards_1_chancellor_enacts_1_of_2():
    game = new_game(7, top="FLF LLL")
    elect(game, 3)
    assert game.view(0).hand == (F, L, F)
    assert game.view(3).hand == () and game.view(1).hand == ()
    assert game.view(None).draw_pile == 14
    assert game.to_act() == [0]
    assert_illegal(game, Action.enact(3, L), "wrong_phase")
    game.apply(Action.discard(0, F))
    assert game.view(3).hand == (L, F)
    assert game.to_act() == [3]
    assert_illegal(game, Action.discard(0, F), "wrong_phase")
    game.apply(Action.enact(3, F))
    assert (game.liberal, game.fascist, game.discard_pile) == (0, 1, 2)
    enacted = events_of(game, "enacted")[-1]
    assert (enacted["policy"], enacted["chaos"]) == (F, False)
    assert game.view(None).hand == () and game.view(0).hand == () and game.view(3).hand == ()


def test_L1_only_policies_in_hand_may_be_discarded_or_enacted():
    game = new_game(7, top="LLL FFL")
    elect(game, 3)
    assert_illegal(game, Action.discard(0, F), "not_in_hand")
    game.apply(Action.discard(0, L))
    assert_illegal(game, Action.enact(3, F), "not_in_hand")
    game.apply(Action.enact(3, L))
    assert game.liberal == 1


def _after_session(deck_top: str, discard: str, enact: str) -> Game:
    game = new_game(7, top=deck_top)
    elect(game, 3)
    game.apply(Action.discard(0, discard))
    game.apply(Action.enact(3, enact))
    return game


@pytest.mark.parametrize(
    ("a", "b", "same_for"),
    [
        # The president's discard differs: nobody but the president can tell.
        (("LLF LF", F, L), ("LLL FF", L, L), [1, 2, 3, 4, 5, 6, None]),
        # What the chancellor receives differs: only the two of them can tell.
        (("FLF L", F, L), ("LLF F", F, L), [1, 2, 4, 5, 6, None]),
    ],
)
def test_L2_discards_and_hands_are_never_revealed(a, b, same_for):
    game_a, game_b = _after_session(*a), _after_session(*b)
    for seat in same_for:
        assert game_a.view(seat).to_json() == game_b.view(seat).to_json(), seat
    assert game_a.view(0).to_json() != game_b.view(0).to_json()


def test_L2_draw_and_passed_policies_are_seen_only_by_the_government():
    game = new_game(7, top="FLF")
    elect(game, 3)
    game.apply(Action.discard(0, L))
    drew = [e for e in game.events if e.type == "drew"]
    received = [e for e in game.events if e.type == "received"]
    assert [e.audience for e in drew] == [(0,)] and drew[0].data["policies"] == [F, L, F]
    assert [e.audience for e in received] == [(3,)] and received[0].data["policies"] == [F, F]
    for seat in (1, 2, 4, 5, 6, None):
        assert not [e for e in game.view(seat).events if "policies" in e]
    game.apply(Action.enact(3, F))
    secret = {"drew", "passed", "received", "chancellor_discarded"}
    for e in game.events:
        if e.type in secret:
            assert e.audience is not None and set(e.audience) <= {0, 3}


def test_L3_enacting_a_policy_resets_the_tracker():
    game = new_game(7)
    fail(game)
    fail(game)
    govern(game, 4, L)
    assert game.tracker == 0


def test_L4_five_liberal_policies_win():
    game = new_game(7, top="LFF LFF LFF LFF LFF")
    for chancellor in (1, 2, 3, 0, 1):
        assert not game.finished
        govern(game, chancellor, L)
    assert game.liberal == 5
    assert (game.winner.value, game.reason.value) == ("liberal", "five_liberal_policies")


def test_L4_six_fascist_policies_win_and_no_power_is_used():
    game = new_game(7, start(fascist=5), top="FFF")
    govern(game, 1, F)
    assert (game.winner.value, game.reason.value) == ("fascist", "six_fascist_policies")
    assert event_types(game)[-2:] == ["enacted", "game_over"]


def test_L6_power_is_used_by_the_sitting_president_before_the_next_round():
    game = new_game(7, start(fascist=1), top="FFF LLL")
    rounds = len(events_of(game, "candidate"))
    govern(game, 1, F)  # slot 2: investigate
    assert game.phase.value == "investigate" and game.to_act() == [0]
    assert len(events_of(game, "candidate")) == rounds  # the next round has not begun
    assert_illegal(game, Action.nominate(1, 2), "wrong_phase")
    game.apply(Action.investigate(0, 5))
    assert game.candidate == 1 and game.phase.value == "nominate"
    # Powers do not carry over: a liberal policy afterwards gives no power.
    govern(game, 2, L)
    assert game.phase.value == "nominate" and len(events_of(game, "power")) == 1


# =============================================================================== powers
def test_P1_investigate_reveals_the_party_to_the_president_alone():
    game = new_game(7, start(fascist=1), top="FFF")
    govern(game, 1, F)
    assert game.power_targets == (1, 2, 3, 4, 5, 6)
    game.apply(Action.investigate(0, HITLER))
    president = game.view(0)
    assert president.investigations == ((HITLER, "fascist"),)  # the party, never the role
    result = [e for e in game.events if e.type == "investigation"]
    assert result[0].audience == (0,) and result[0].data == {"target": HITLER, "party": "fascist"}
    assert "hitler" not in str(result[0].data)
    for seat in (1, 2, 3, 4, 5, HITLER, None):
        view = game.view(seat)
        assert view.investigations == ()
        assert view.investigated[HITLER] is True
        assert not [e for e in view.events if e["type"] == "investigation"]
    assert president.known_roles[HITLER] is None


def test_P1_a_player_may_be_investigated_only_once():
    game = new_game(9, top="FFF FFF")  # 9-10 board: investigate at slots 1 and 2
    govern(game, 1, F)
    game.apply(Action.investigate(0, 4))
    govern(game, 2, F)
    assert game.phase.value == "investigate" and game.to_act() == [1]
    assert 4 not in game.power_targets
    assert_illegal(game, Action.investigate(1, 4), "invalid_target")
    game.apply(Action.investigate(1, 0))
    assert game.view(1).investigations == ((0, "liberal"),)


def test_P2_special_election_then_rotation_resumes_left_of_the_caller():
    game = new_game(7, start(fascist=2), top="FFF")
    govern(game, 1, F)  # slot 3
    assert game.phase.value == "special_election"
    assert game.power_targets == (1, 2, 3, 4, 5, 6)  # term limits do not apply to the presidency
    game.apply(Action.special_election(0, 4))
    assert game.candidate == 4
    fail(game, 2)
    assert game.candidate == 1  # left of the caller (0), nobody skipped
    fail(game, 3)
    assert game.candidate == 2


def test_P2_special_election_of_the_next_player_makes_him_candidate_twice():
    game = new_game(7, start(fascist=2), top="FFF")
    govern(game, 2, F)
    game.apply(Action.special_election(0, 1))
    assert game.candidate == 1
    fail(game, 3)
    assert game.candidate == 1
    fail(game, 3)
    assert game.candidate == 2
    assert [e["seat"] for e in events_of(game, "candidate")] == [0, 1, 1, 2]


def test_P3_policy_peek_shows_top_3_to_the_president_alone_order_unchanged():
    game = new_game(6, start(fascist=2), top="FFF LFL")
    govern(game, 1, F)  # 5-6 board, slot 3: peek
    peek = [e for e in game.events if e.type == "peek"]
    assert len(peek) == 1 and peek[0].audience == (0,) and peek[0].data["policies"] == [L, F, L]
    assert game.phase.value == "nominate" and game.candidate == 1  # no decision needed
    for seat in (1, 2, 3, 4, 5, None):
        assert not [e for e in game.view(seat).events if e["type"] == "peek"]
    assert [e for e in game.view(0).events if e["type"] == "peek"][0]["policies"] == [L, F, L]
    elect(game, 2)
    assert game.view(1).hand == (L, F, L)


def test_P4_execution_kills_and_reveals_nothing():
    game = new_game(7, start(fascist=3), top="FFF")
    board = game.view(None).board
    govern(game, 1, F)  # slot 4
    assert game.phase.value == "execute" and game.to_act() == [0]
    game.apply(Action.execute(0, 4))  # a fascist
    assert not game.finished
    assert game.alive == [True, True, True, True, False, True, True]
    executed = events_of(game, "executed")
    assert executed == [{"type": "executed", "president": 0, "target": 4}]
    for seat in (1, 2, 3, None):
        assert game.view(seat).known_roles[4] is None
    assert game.view(None).board == board  # S4
    assert game.candidate == 1
    assert 4 not in game.eligible_chancellors()
    # the game went on, so the executed seat was not Hitler: public proof beside E8's chancellor 1
    assert [game.view(s).proven_not_hitler for s in (0, 4, None)] == [(1, 4)] * 3
    assert game.view(None).not_hitler == (1,)
    nominate(game, 2)
    assert game.to_act() == [0, 1, 2, 3, 5, 6]
    vote_all(game, {0: True, 1: True, 2: True, 3: True, 5: False, 6: False})  # 4 of 6 living
    assert game.phase.value == "discard"


def test_P4_A2_executing_hitler_wins_for_the_liberals_even_by_a_fascist_president():
    game = new_game(7, start(fascist=3), top="FFF", first=4)
    govern(game, 0, F)
    assert game.to_act() == [4] and game.roles[4] is Role.FASCIST
    game.apply(Action.execute(4, HITLER))
    assert (game.winner.value, game.reason.value) == ("liberal", "hitler_executed")
    assert game.alive[HITLER] is False
    # W2: every role revealed, so everyone but Hitler is proven not Hitler, Hitler is not
    assert game.view(None).proven_not_hitler == tuple(s for s in range(7) if s != HITLER)


# =============================================================================== veto
def test_V1_veto_only_from_a_session_that_starts_with_5_fascist_policies():
    game = new_game(7, start(fascist=4), top="FFF LLF LLF")
    elect(game, 1)
    game.apply(Action.discard(0, F))
    assert game.view(1).veto_available is False
    assert_illegal(game, Action.veto(1), "veto_unavailable")
    game.apply(Action.enact(1, F))  # the 5th fascist policy: no veto in this session
    game.apply(Action.execute(0, 4))
    elect(game, 2)
    assert all(v["veto_available"] for v in all_views(game))
    game.apply(Action.discard(1, F))
    assert Action.veto(2) in game.legal_actions(2)
    game.apply(Action.veto(2))
    game.apply(Action.veto_response(1, False))
    game.apply(Action.enact(2, L))
    elect(game, 3)  # permanently
    game.apply(Action.discard(2, F))
    assert Action.veto(3) in game.legal_actions(3)


def test_V2_only_the_chancellor_proposes_the_veto_after_receiving_the_policies():
    game = new_game(7, start(fascist=5), top="LLL")
    elect(game, 1)
    assert_illegal(game, Action.veto(1), "wrong_phase")  # before the president passes
    assert_illegal(game, Action.veto(0), "wrong_phase")
    game.apply(Action.discard(0, L))
    assert_illegal(game, Action.veto(0), "not_your_turn")
    assert_illegal(game, Action.veto(2), "not_your_turn")
    game.apply(Action.veto(1))
    assert game.phase.value == "veto_response" and game.to_act() == [0]
    assert all(v["veto_proposed"] for v in all_views(game))
    assert_illegal(game, Action.enact(1, L), "wrong_phase")
    assert_illegal(game, Action.veto_response(1, True), "not_your_turn")


def test_V3_consented_veto_discards_both_and_advances_the_tracker():
    game = new_game(7, start(fascist=5), top="LFL")
    fail(game)
    assert game.tracker == 1
    elect(game, 3)
    game.apply(Action.discard(1, F))
    game.apply(Action.veto(3))
    game.apply(Action.veto_response(1, True))
    assert (game.liberal, game.fascist) == (0, 5)
    assert game.discard_pile == 3 and game.draw_pile == 14
    assert game.tracker == 2
    assert game.candidate == 2 and game.phase.value == "nominate"
    assert not events_of(game, "enacted")


def test_V4_refused_veto_the_chancellor_must_enact_and_cannot_veto_again():
    game = new_game(7, start(fascist=5), top="LFL")
    elect(game, 1)
    game.apply(Action.discard(0, F))
    game.apply(Action.veto(1))
    game.apply(Action.veto_response(0, False))
    assert game.phase.value == "enact" and game.to_act() == [1]
    assert game.view(1).veto_available is False
    assert [a.type for a in game.legal_actions(1)] == ["enact"]
    assert_illegal(game, Action.veto(1), "veto_unavailable")
    game.apply(Action.enact(1, L))
    assert game.liberal == 1 and game.tracker == 0


def test_A3_the_chancellor_proposes_the_veto_before_choosing_a_policy():
    game = new_game(7, start(fascist=5), top="LFL")
    elect(game, 1)
    game.apply(Action.discard(0, F))
    assert_illegal(game, Action.veto(1, L), "invalid_action")
    game.apply(Action.veto(1))
    game.apply(Action.veto_response(0, False))
    assert sorted(a.policy.value for a in game.legal_actions(1)) == [L]


# =============================================================================== chaos
def test_C1_three_inactive_governments_in_any_mix_bring_chaos():
    game = new_game(7, start(fascist=5), top="LLF L")
    fail(game)
    elect(game, 3)
    game.apply(Action.discard(1, F))
    game.apply(Action.veto(3))
    game.apply(Action.veto_response(1, True))
    assert game.tracker == 2 and not events_of(game, "chaos")
    fail(game)
    assert events_of(game, "chaos") == [{"type": "chaos", "policy": L, "term_limits_cleared": True}]
    assert game.liberal == 1 and game.tracker == 0


def test_C1_an_enactment_in_between_restarts_the_count():
    game = new_game(7)
    fail(game)
    fail(game)
    govern(game, 4, L)
    fail(game)
    fail(game)
    assert game.tracker == 2 and not events_of(game, "chaos")


def test_C2_chaos_enacts_the_top_policy_ignores_its_power_and_clears_term_limits():
    game = new_game(7, start(fascist=1), top="LLF F")
    govern(game, 2, L)
    assert sorted(game.term_limited()) == [0, 2]
    for _ in range(3):
        fail(game)
    enacted = events_of(game, "enacted")[-1]
    assert (enacted["policy"], enacted["chaos"]) == (F, True)
    assert game.fascist == 2  # slot 2 is Investigate on this board: ignored
    assert game.phase.value == "nominate" and not events_of(game, "power")
    assert game.tracker == 0
    assert game.candidate == 4
    assert game.term_limited() == ()
    assert game.eligible_chancellors() == (0, 1, 2, 3, 5, 6)


def test_C2_A8_term_limits_stay_cleared_until_the_next_government_is_elected():
    game = new_game(7, top="LLF LLL")
    govern(game, 2, L)
    for _ in range(3):
        fail(game)  # chaos
    fail(game)  # a failed vote after chaos: still no term limits
    assert game.candidate == 5 and game.term_limited() == ()
    nominate(game, 0)  # the old government's president
    vote_all(game, True)
    assert (game.president, game.chancellor) == (5, 0)
    legislate(game, L)
    assert game.candidate == 6 and sorted(game.term_limited()) == [0, 5]


@pytest.mark.parametrize(
    ("track", "chaos_card", "winner", "reason"),
    [
        ({"liberal": 4}, "L", "liberal", "five_liberal_policies"),
        ({"fascist": 5}, "F", "fascist", "six_fascist_policies"),
    ],
)
def test_C3_chaos_policy_counts_for_the_win(track, chaos_card, winner, reason):
    game = new_game(7, start(**track), top=chaos_card)
    for _ in range(3):
        fail(game)
    assert (game.winner.value, game.reason.value) == (winner, reason)
    assert "reshuffled" not in event_types(game)


def test_C3_chaos_policy_counts_for_the_hitler_zone():
    game = new_game(7, start(fascist=2), top="F")
    for _ in range(3):
        fail(game)
    assert game.fascist == 3
    elect(game, HITLER)
    assert (game.winner.value, game.reason.value) == ("fascist", "hitler_elected")


def test_C3_A5_fifth_fascist_policy_by_chaos_unlocks_the_veto():
    game = new_game(7, start(fascist=4), top="F LLL")
    for _ in range(3):
        fail(game)
    assert game.fascist == 5 and not events_of(game, "power")
    elect(game, 1)
    game.apply(Action.discard(game.president, L))
    assert Action.veto(1) in game.legal_actions(1)


def test_C4_deck_check_runs_after_chaos():
    # 4 sessions leave 5 policies; chaos takes 1 (4 left), 1 (3 left: no reshuffle), 1 (2 left).
    game = new_game(7, top="LLF LLF LLF FFF F F F")
    for chancellor, policy in ((1, L), (2, L), (3, L), (4, F)):
        govern(game, chancellor, policy)
    assert game.draw_pile == 5
    for expected in (4, 3):
        for _ in range(3):
            fail(game)
        assert game.draw_pile == expected and "reshuffled" not in event_types(game)
    for _ in range(3):
        fail(game)
    types = event_types(game)
    chaos_at = max(i for i, t in enumerate(types) if t == "chaos")
    assert types[chaos_at : chaos_at + 3] == ["chaos", "enacted", "reshuffled"]
    assert game.draw_pile == 10 and game.discard_pile == 0
    assert (game.liberal, game.fascist) == (3, 4)


# =============================================================================== deck
def _five_sessions(reshuffles=None) -> Game:
    game = new_game(7, top="LLF LLF LFF LFF FFF", reshuffles=reshuffles)
    for chancellor, policy in ((1, L), (2, L), (3, L), (0, L)):
        govern(game, chancellor, policy)
    assert game.draw_pile == 5 and "reshuffled" not in event_types(game)
    return game


def test_D1_L5_reshuffle_after_a_session_when_fewer_than_3_policies_are_left():
    pile = cards("LFF LFFFFFFFF")
    game = _five_sessions(reshuffles=[pile])
    govern(game, 1, F)
    assert events_of(game, "reshuffled") == [{"type": "reshuffled", "draw_pile": 12}]
    assert (game.draw_pile, game.discard_pile) == (12, 0)
    assert game.reshuffles == [tuple(pile)]
    elect(game, 2)
    assert game.view(game.president).hand == (L, F, F)


def test_D1_reshuffled_pile_holds_the_draw_and_discard_piles():
    for seed in range(5):
        game = new_game(7, top="LLF LLF LFF LFF FFF", seed=seed)
        for chancellor, policy in ((1, L), (2, L), (3, L), (0, L), (1, F)):
            govern(game, chancellor, policy)
        (pile,) = game.reshuffles
        assert Counter(pile) == Counter({F: 10, L: 2})


def test_D1_a_fixed_reshuffle_must_hold_the_right_policies():
    game = _five_sessions(reshuffles=[cards("LLL FFFFFFFFF")])  # 3 liberals: wrong
    elect(game, 1)
    game.apply(Action.discard(4, F))
    before = game.to_record()
    with pytest.raises(InvalidRecord, match=r"reshuffles\[0\]"):
        game.apply(Action.enact(1, F))
    assert game.to_record() == before


def test_D1_A7_consented_veto_runs_the_deck_check_before_chaos():
    # A small deck: the vetoed session leaves 2 policies, the veto is the third inactive
    # government, so the pile is reshuffled before the chaos policy is drawn.
    rules = start(fascist=5, deck={"liberal": 4, "fascist": 4})
    pile = cards("FLLLFFF")  # 2 left in the pile + 5 discards
    game = new_game(7, rules, top="LLF LFF LF", reshuffles=[pile])
    govern(game, 4, L)  # seat 0 and 4 enact a liberal policy; 5 policies left
    fail(game)
    fail(game)
    elect(game, 5)  # seat 3's government draws LFF and leaves 2
    game.apply(Action.discard(3, L))
    game.apply(Action.veto(5))
    game.apply(Action.veto_response(3, True))
    types = event_types(game)
    assert types.index("reshuffled") < types.index("chaos")
    assert events_of(game, "chaos") == [{"type": "chaos", "policy": F, "term_limits_cleared": True}]
    assert game.winner is not None and game.reason.value == "six_fascist_policies"


# =============================================================================== winning
def test_W1_nothing_happens_after_the_win_no_deck_check():
    game = new_game(7, top="LFF LFF LFF LFF LFF")
    for chancellor in (1, 2, 3, 0, 1):
        govern(game, chancellor, L)
    assert game.finished and game.draw_pile == 2
    assert "reshuffled" not in event_types(game)
    assert event_types(game)[-2:] == ["enacted", "game_over"]


def test_W1_game_over_refuses_every_action():
    game = new_game(7, start(fascist=3), top="FFF")
    elect(game, HITLER)
    assert game.phase.value == "game_over" and game.to_act() == []
    for seat in range(7):
        assert game.legal_actions(seat) == []
    for action in (
        Action.nominate(1, 2),
        Action.vote(3, True),
        Action.discard(0, F),
        Action.claim_policies(0, "president_hand", [F, F, F]),
    ):
        assert_illegal(game, action, "game_over")


def test_W2_every_role_is_revealed_to_everyone_at_the_end():
    game = new_game(7, start(fascist=3), top="FFF")
    elect(game, HITLER)
    roles = [r.value for r in game.roles]
    for view in all_views(game):
        assert view["known_roles"] == roles
        assert view["winner"] == "fascist" and view["reason"] == "hitler_elected"
    assert events_of(game, "game_over")[0]["roles"] == roles


# =============================================================================== ambiguities
@pytest.mark.parametrize(
    ("slot", "make"),
    [(2, Action.investigate), (3, Action.special_election), (4, Action.execute)],
)
def test_A1_no_power_may_target_the_president_himself(slot, make):
    game = new_game(7, start(fascist=slot - 1), top="FFF")
    govern(game, 1, F)
    assert 0 not in game.power_targets
    assert_illegal(game, make(0, 0), "invalid_target")
    assert_illegal(game, make(1, 2), "not_your_turn")


def test_A4_consented_veto_as_third_inactive_government_causes_full_chaos():
    game = new_game(7, start(fascist=5), top="LLF LLF L")
    govern(game, 2, L)  # last elected government: 0 and 2
    fail(game, 3)
    fail(game, 3)
    elect(game, 4)  # candidate 3 with chancellor 4
    game.apply(Action.discard(3, L))
    game.apply(Action.veto(4))
    game.apply(Action.veto_response(3, True))
    assert events_of(game, "chaos") == [{"type": "chaos", "policy": L, "term_limits_cleared": True}]
    assert game.tracker == 0 and game.liberal == 2
    assert game.candidate == 4 and game.term_limited() == ()  # 3 and 4 are not barred


def test_A9_claims_are_never_checked_for_truth():
    game = new_game(7, top="FFF")
    govern(game, 1, F)
    assert game.is_legal(Action.claim_policies(0, "president_hand", [L, L, L]))
    game.apply(Action.claim_policies(0, "president_hand", [L, L, L]))
    game.apply(Action.claim_policies(1, "chancellor_hand", [L, L]))
    claims = events_of(game, "claim")
    assert [c["policies"] for c in claims] == [[L, L, L], [L, L]]
    assert all(e.audience is None for e in game.events if e.type == "claim")
    assert_illegal(game, Action.claim_policies(0, "president_hand", [F, F, F]), "claim_unavailable")
    assert_illegal(game, Action.claim_policies(2, "president_hand", [F, F, F]), "claim_unavailable")


def test_claim_windows_stay_open_until_the_next_legislative_session_begins():
    """A government's hand claims stay open through the next nominations, votes, failed
    elections and chaos; the next legislative session closes them (docs/engine.md, Claims)."""
    game = new_game(7, top="FFF L LLF")
    govern(game, 1, F)  # president 0, chancellor 1; the first fascist slot has no power
    hand = [Action.claim_policies(0, "president_hand", [F, F, F])]
    for _ in range(3):  # three failed elections: the third enacts the chaos policy
        nominate(game, game.eligible_chancellors()[0])
        assert game.open_claims(0) == ("president_hand",)
        assert game.open_claims(1) == ("chancellor_hand",)
        assert hand[0] in game.legal_actions(0)  # a claim may be made during a vote
        vote_all(game, False)
    assert events_of(game, "chaos") == [{"type": "chaos", "policy": L, "term_limits_cleared": True}]
    assert game.claimants() == (0, 1)
    nominate(game, game.eligible_chancellors()[0])
    game.apply(Action.vote(2, True))
    game.apply(hand[0])  # between two ballots of a secret vote
    assert game.open_claims(0) == () and game.open_claims(1) == ("chancellor_hand",)
    for s in living(game):
        if game.votes[s] is None:
            game.apply(Action.vote(s, True))
    assert game.phase.value == "discard"  # the session began: every window closed
    assert game.claimants() == ()
    assert_illegal(game, Action.claim_policies(1, "chancellor_hand", [F, F]), "claim_unavailable")


def test_a_power_window_lasts_until_the_next_session_even_when_the_power_comes_before_one():
    official = new_game(7, start(fascist=1), top="FFF LLF")
    govern(official, 1, F)  # investigate, after the session
    official.apply(Action.investigate(0, 3))
    assert official.open_claims(0) == ("president_hand", "investigation")
    fail(official)
    assert official.open_claims(0) == ("president_hand", "investigation")
    elect(official, 3)
    assert official.open_claims(0) == ()

    # forum: the power is used by the next elected president, before his session
    rules = {"preset": "forum", "start_track": {"liberal": 0, "fascist": 1}}
    forum = new_game(7, rules, top="FFF LLF LLF")
    govern(forum, 2, F)  # slot 2: investigate, pending for the next president
    elect(forum, 3)
    president = forum.power_president
    assert forum.phase.value == "investigate"
    forum.apply(Action.investigate(president, 5))
    assert forum.phase.value == "discard"  # the session opened after the power
    assert forum.open_claims(president) == ("investigation",)
    legislate(forum, L)
    assert forum.open_claims(president) == ("president_hand", "investigation")
    elect(forum, 4)
    assert forum.open_claims(president) == ()


def test_A10_special_election_called_in_a_special_election_round():
    rules = start(powers=["special_election", "special_election", None, None, None])
    game = new_game(7, rules, top="FFF FFF")
    govern(game, 1, F)
    game.apply(Action.special_election(0, 3))
    assert game.candidate == 3
    govern(game, 4, F)
    game.apply(Action.special_election(3, 5))
    assert game.candidate == 5
    fail(game)
    assert game.candidate == 4  # left of the latest caller (3)
    assert [e["seat"] for e in events_of(game, "candidate")] == [0, 3, 5, 4]


def test_A11_term_limits_are_lifted_when_nobody_is_eligible():
    rules = start(small_table_exception="none", powers=["execute", "execute", None, None, None])
    game = new_game(5, rules, top="FFF FFF")  # seats 0-2 liberal, 3 fascist, 4 Hitler
    govern(game, 1, F)
    game.apply(Action.execute(0, 2))
    assert game.candidate == 1
    govern(game, 4, F)  # Hitler elected with 1 fascist policy: no win
    game.apply(Action.execute(1, 0))
    assert game.living == 3 and game.candidate == 3
    assert sorted(game.term_limited()) == [1, 4]
    assert game.eligible_chancellors() == (1, 4)
    nominate(game, 1)


def test_A11_power_without_a_legal_target_is_skipped():
    rules = start(powers=["investigate"] * 5)
    game = new_game(5, rules, top="FLL FLL FLL FFF FFF")
    for chancellor, target in ((1, 1), (2, 2), (0, 3), (1, 0)):
        govern(game, chancellor, F)
        game.apply(Action.investigate(game.power_president, target))
    assert game.candidate == 4 and game.investigated == [True, True, True, True, False]
    govern(game, 2, F)
    assert events_of(game, "power_skipped") == [
        {"type": "power_skipped", "power": "investigate", "president": 4}
    ]
    assert game.phase.value == "nominate" and game.candidate == 0


@pytest.mark.parametrize(
    ("n", "executions", "ok"), [(5, 2, True), (5, 3, False), (7, 4, True), (7, 5, False)]
)
def test_A12_custom_board_must_keep_3_players_alive(n, executions, ok):
    rules = {"preset": "official", "powers": ["execute"] * executions + [None] * (5 - executions)}
    if ok:
        Game(n, rules, seed=1)
    else:
        with pytest.raises(InvalidSettings, match="^powers"):
            Game(n, rules, seed=1)


def test_illegal_action_codes_cover_every_refusal():
    game = new_game(7, start(fascist=3), top="FFF")
    assert_illegal(game, Action.nominate(9, 1), "bad_seat")
    assert_illegal(game, Action.vote(0, True), "wrong_phase")
    assert_illegal(game, Action.investigate(0, 1), "wrong_phase")
    assert_illegal(game, Action.claim_policies(0, "peek", [F, F, F]), "claim_unavailable")
    nominate(game, 1)
    assert_illegal(game, Action.nominate(0, 2), "wrong_phase")
    assert_illegal(game, Action(0, "vote", ja=None), "invalid_action")
    vote_all(game, True)
    assert_illegal(game, Action.discard(1, F), "not_your_turn")
    game.apply(Action.discard(0, F))
    game.apply(Action.enact(1, F))
    assert_illegal(game, Action.execute(0, 9), "invalid_target")
    game.apply(Action.execute(0, 2))
    assert_illegal(game, Action.claim_investigation(0, 2, "liberal"), "claim_unavailable")
    nominate(game, 3)
    assert_illegal(game, Action.vote(2, True), "dead_player")
    with pytest.raises(IllegalAction):
        game.apply(Action.vote(7, True))
