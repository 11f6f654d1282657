"""secrethitler.io's game types as engine settings (docs/game-types.md), case by case: the role
cards of every table, what each role is shown and who is shown him, Avalon SH's assassination,
the Monarchist's wins, no top-decking, the rebalanced tables, the refused combinations, the
records, chance, hidden worlds, a timer's forced moves and the categories.

The general properties (every view against the reference at every step, non-interference,
folds, undo) run over every game type in test_game_types_properties.py."""

from __future__ import annotations

import random
from collections import Counter
from math import factorial

import pytest
from engine_helpers import F, L, assert_illegal, elect, fail, govern, new_game, random_action
from game_types import GAME_TYPES, NAMES, TABLES, counts_of, rules_of

from secret_hitler.engine import (
    Action,
    Game,
    IllegalAction,
    InvalidRecord,
    InvalidSettings,
    Rules,
    WorldError,
    replay,
    sample_world,
    speech,
)
from secret_hitler.engine.catalog import catalog, tables
from secret_hitler.engine.categories import FORCED, category_of, forced_by
from secret_hitler.engine.chance import Chance, Deals, deals_of
from secret_hitler.engine.roles import winners_of
from secret_hitler.engine.types import PARTY_OF, Reason, Role

IO = "secrethitler-io"


def rules(**settings: object) -> Rules:
    return Rules.from_json({"preset": IO, **settings})


# ============================================================================ role cards
#: docs/game-types.md "Roles per table", written out: (liberals, fascists) besides the special
#: roles and Hitler, and the special roles, by player count.
ROLE_TABLE: dict[str, dict[int, dict[str, int]]] = {
    "standard": {
        5: {"liberal": 3, "fascist": 1},
        6: {"liberal": 4, "fascist": 1},
        7: {"liberal": 4, "fascist": 2},
        8: {"liberal": 5, "fascist": 2},
        9: {"liberal": 5, "fascist": 3},
        10: {"liberal": 6, "fascist": 3},
    },
    "avalon": {
        5: {"merlin": 1, "liberal": 2, "fascist": 1},
        6: {"merlin": 1, "liberal": 3, "fascist": 1},
        7: {"merlin": 1, "liberal": 3, "fascist": 2},
        8: {"merlin": 1, "liberal": 4, "fascist": 2},
        9: {"merlin": 1, "liberal": 4, "fascist": 3},
        10: {"merlin": 1, "liberal": 5, "fascist": 3},
    },
    "avalon-percival": {
        5: {"merlin": 1, "percival": 1, "liberal": 1, "morgana": 1},
        6: {"merlin": 1, "percival": 1, "liberal": 2, "morgana": 1},
        7: {"merlin": 1, "percival": 1, "liberal": 2, "morgana": 1, "fascist": 1},
        8: {"merlin": 1, "percival": 1, "liberal": 3, "morgana": 1, "fascist": 1},
        9: {"merlin": 1, "percival": 1, "liberal": 3, "morgana": 1, "fascist": 2},
        10: {"merlin": 1, "percival": 1, "liberal": 4, "morgana": 1, "fascist": 2},
    },
    "monarchist": {
        5: {"liberal": 3, "monarchist": 1},
        6: {"liberal": 4, "monarchist": 1},
        7: {"liberal": 4, "monarchist": 1, "fascist": 1},
        8: {"liberal": 5, "monarchist": 1, "fascist": 1},
        9: {"liberal": 5, "monarchist": 1, "fascist": 2},
        10: {"liberal": 6, "monarchist": 1, "fascist": 2},
    },
    "avalon-monarchist": {
        5: {"merlin": 1, "liberal": 2, "monarchist": 1},
        6: {"merlin": 1, "liberal": 3, "monarchist": 1},
        7: {"merlin": 1, "liberal": 3, "monarchist": 1, "fascist": 1},
        8: {"merlin": 1, "liberal": 4, "monarchist": 1, "fascist": 1},
        9: {"merlin": 1, "liberal": 4, "monarchist": 1, "fascist": 2},
        10: {"merlin": 1, "liberal": 5, "monarchist": 1, "fascist": 2},
    },
    "avalon-percival-monarchist": {
        7: {"merlin": 1, "percival": 1, "liberal": 2, "morgana": 1, "monarchist": 1},
        8: {"merlin": 1, "percival": 1, "liberal": 3, "morgana": 1, "monarchist": 1},
        9: {"merlin": 1, "percival": 1, "liberal": 3, "morgana": 1, "monarchist": 1, "fascist": 1},
        10: {"merlin": 1, "percival": 1, "liberal": 4, "morgana": 1, "monarchist": 1, "fascist": 1},
    },
}


@pytest.mark.parametrize("game_type", sorted(ROLE_TABLE))
def test_the_role_cards_of_every_table_are_the_docs_table(game_type: str) -> None:
    """``Rules.composition``, every seeded deal, the catalog and the view say the same cards as
    docs/game-types.md's table, with Hitler besides."""
    settings = {} if game_type == "standard" else GAME_TYPES[game_type]
    r = Rules.from_json({"preset": IO, **settings})
    assert set(tables(r)) == {str(n) for n in ROLE_TABLE[game_type]}
    for n, cards in ROLE_TABLE[game_type].items():
        expected = {"hitler": 1, **cards}
        assert dict((role.value, k) for role, k in r.composition(n)) == expected
        assert r.table(n)["composition"] == expected
        for seed in range(3):
            game = Game(n, r, seed)
            assert Counter(role.value for role in game.roles) == expected
            assert dict(game.view(None).composition) == expected


def test_percival_with_the_monarchist_is_refused_where_one_fascist_card_is_dealt() -> None:
    both = rules(avalon="percival", monarchist=True)
    for n in (5, 6):
        with pytest.raises(InvalidSettings, match=r"^monarchist: .*Morgana and the Monarchist"):
            Game(n, both)
    with pytest.raises(InvalidSettings, match="Morgana and the Monarchist"):
        Game(7, {"preset": IO, "avalon": "percival", "monarchist": True, "fascists": 1})
    assert Game(7, both, 1).finished is False  # 7-10 players deal both
    assert set(tables(both)) == {"7", "8", "9", "10"}


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"avalon": "morgana"}, "avalon: must be one of off, merlin, percival"),
        ({"avalon": True}, "avalon: must be one of"),
        ({"monarchist": "yes"}, "monarchist: must be true or false"),
        ({"rebalanced": [8]}, "rebalanced: must be a list of the player counts 6, 7 and 9"),
        ({"rebalanced": 6}, "rebalanced: must be a list"),
        ({"rebalanced": [True]}, "rebalanced: must be a list"),
        ({"top_decking": "never"}, "top_decking: must be one of allowed, forbidden, not_twice"),
        ({"rebalanced": [6], "powers": [None, None, None, "execute", "execute"]}, "powers"),
        ({"rebalanced": [7], "hitler_zone": 4}, "rebalanced: .* changed hitler_zone"),
        ({"rebalanced": [9], "deck": {"liberal": 6, "fascist": 12}}, "changed deck"),
        ({"rebalanced": [6], "hitler_knows_fascists": False}, "hitler_knows_fascists"),
    ],
)
def test_settings_the_site_does_not_play_are_refused_clearly(
    settings: dict[str, object], message: str
) -> None:
    with pytest.raises(InvalidSettings, match=message):
        Game(7, {"preset": IO, **settings})


def test_rebalancing_a_preset_with_its_own_board_is_refused() -> None:
    with pytest.raises(InvalidSettings, match="rebalanced: .*changed powers"):
        Game(7, {"preset": "forum", "rebalanced": [7]})
    assert Rules.from_json({"preset": "kickstarter", "rebalanced": [6, 7, 9]}).deck_for(7) == (
        6,
        10,
    )


def test_a_record_must_deal_the_rules_role_cards() -> None:
    r = {"preset": IO, "avalon": "percival"}
    with pytest.raises(InvalidRecord, match=r"roles\[0\]: must be a role these rules deal"):
        Game(5, r, roles=["monarchist", "merlin", "percival", "morgana", "hitler"])
    with pytest.raises(InvalidRecord, match="these rules deal 1 hitler, 1 morgana, 1 merlin"):
        Game(5, r, roles=["merlin", "merlin", "percival", "morgana", "hitler"])
    with pytest.raises(InvalidRecord, match="must be a role these rules deal"):
        Game(5, IO, roles=["merlin", "liberal", "liberal", "fascist", "hitler"])


# ============================================================================ who is shown whom
def shown(game: Game, seat: int) -> tuple[dict[int, str], dict[int, str], object]:
    """What ``seat``'s view knows of the others: exact roles, parties, Percival's pair."""
    view = game.view(seat)
    roles = {s: r for s, r in enumerate(view.known_roles) if r is not None and s != seat}
    parties = {s: p for s, p in enumerate(view.known_parties) if p is not None and s != seat}
    return roles, parties, view.merlin_candidates


def test_what_each_role_is_shown_at_7_players_with_percival_and_the_monarchist() -> None:
    roles = ["merlin", "liberal", "percival", "liberal", "morgana", "monarchist", "hitler"]
    game = new_game(7, rules(avalon="percival", monarchist=True), roles=roles)
    fascists = {4: F, 5: F, 6: F}
    assert shown(game, 0) == ({}, fascists, None)  # Merlin: the fascist party, not who is who
    assert shown(game, 1) == ({}, {}, None)
    assert shown(game, 2) == ({}, {}, (0, 4))  # Percival: Merlin and Morgana, not which is which
    assert shown(game, 3) == ({}, {}, None)
    # Morgana: Hitler, and her teammate as a fascist only (he is the Monarchist)
    assert shown(game, 4) == ({6: "hitler"}, {5: F, 6: F}, None)
    assert shown(game, 5) == ({}, {4: F}, None)  # the Monarchist: never Hitler
    assert shown(game, 6) == ({}, {}, None)  # Hitler at 7 players knows nobody
    spectator = game.view(None)
    assert set(spectator.known_roles) == {None} and spectator.merlin_candidates is None
    # a seat's own party is its own role's
    assert [game.view(s).known_parties[s] for s in range(7)] == [L, L, L, L, F, F, F]


def test_what_each_role_is_shown_at_5_and_6_players() -> None:
    avalon = new_game(
        5, rules(avalon="percival"), roles=["merlin", "percival", "liberal", "morgana", "hitler"]
    )
    assert shown(avalon, 0) == ({}, {3: F, 4: F}, None)
    assert shown(avalon, 1) == ({}, {}, (0, 3))
    assert shown(avalon, 3) == ({4: "hitler"}, {4: F}, None)
    assert shown(avalon, 4) == ({}, {3: F}, None)  # Hitler knows his fascist, not her card
    monarchist = new_game(6, rules(monarchist=True), roles=[L, L, L, L, "monarchist", "hitler"])
    assert shown(monarchist, 4) == ({}, {}, None)  # the only fascist besides Hitler: nothing
    assert not [e for e in monarchist.view(4).events if e["type"] == "night"]
    assert shown(monarchist, 5) == ({}, {4: F}, None)  # Hitler sees him as a fascist


def test_where_every_teammate_is_a_plain_fascist_the_team_is_shown_by_role() -> None:
    """Avalon SH without Percival or the Monarchist: the fascists' night is the official one
    (their exact roles), and Merlin alone is shown more."""
    roles = ["merlin", L, L, L, L, F, F, F, "hitler"]
    game = new_game(9, rules(avalon="merlin"), roles=roles)
    for fascist in (5, 6, 7):
        known = {s: r for s in (5, 6, 7, 8) if s != fascist for r in [roles[s]]}
        assert shown(game, fascist) == (known, {s: F for s in known}, None)
    assert shown(game, 0) == ({}, {5: F, 6: F, 7: F, 8: F}, None)
    assert shown(game, 8) == ({}, {}, None)
    official = new_game(9, IO, roles=[L, L, L, L, L, F, F, F, "hitler"])
    assert nights(official) == nights(game)[1:]  # the same nights, Merlin's before them


def nights(game: Game) -> list[dict[str, object]]:
    return [e.to_json(with_audience=True) for e in game.events if e.type == "night"]


def test_hitler_who_knows_his_team_sees_it_by_party_where_morgana_or_the_monarchist_is() -> None:
    roles = ["merlin", "percival", L, L, L, "morgana", "monarchist", F, "hitler"]
    game = new_game(
        9,
        {
            "preset": "official",
            "avalon": "percival",
            "monarchist": True,
            "hitler_knows_fascists": True,
        },
        roles=roles,
    )
    assert shown(game, 8) == ({}, {5: F, 6: F, 7: F}, None)
    assert shown(game, 7) == ({8: "hitler"}, {5: F, 6: F, 8: F}, None)


def test_an_investigation_shows_the_party_of_every_role() -> None:
    # 7 players, Avalon with the Monarchist: the second fascist policy lets seat 1 investigate
    roles = [L, L, L, "merlin", "monarchist", F, "hitler"]
    game = new_game(7, rules(avalon="merlin", monarchist=True), roles=roles, top="FFL FFL")
    govern(game, 1, F)
    govern(game, 2, F)
    game.apply(Action.investigate(1, 4))
    assert game.view(1).investigations == ((4, F),)
    assert game.view(1).known_parties[4] == F and game.view(1).known_roles[4] is None


# ============================================================================ the assassination
SEVEN = ["merlin", L, "percival", L, "morgana", "monarchist", "hitler"]


def five_liberal_policies(game: Game) -> None:
    """Five governments that enact a liberal policy each (the deck's top: LFF five times)."""
    for _ in range(5):
        chancellor = next(
            s for s in game.eligible_chancellors() if game.roles[s] is not Role.HITLER
        )
        govern(game, chancellor, L)


def test_the_fifth_liberal_policy_opens_hitlers_assassination() -> None:
    game = new_game(7, rules(avalon="percival", monarchist=True), roles=SEVEN, top="LFF" * 5)
    five_liberal_policies(game)
    assert game.phase.value == "assassinate" and not game.finished and game.winner is None
    assert game.to_act() == [6]
    expected = {"hitler": 6, "trigger": "five_liberal_policies", "target": None}
    for seat in [*range(7), None]:
        view = game.view(seat)
        assert dict(view.assassination) == expected
        assert view.known_roles[6] == "hitler"  # his card is face up for all
        assert view.proven_not_hitler == (0, 1, 2, 3, 4, 5)
        assert view.next_president is None and view.power is None
    # Hitler alone is shown his team's cards (not the Monarchist's) and the liberal party
    sight = game.view(6)
    assert sight.known_roles == (None, None, None, None, "morgana", None, "hitler")
    assert sight.known_parties == (L, L, L, L, F, None, F)
    assert [e for e in game.view(1).events if e["type"] == "assassin_sight"] == []
    targets = [a.target for a in game.legal_actions(6) if a.type == "assassinate"]
    assert targets == [0, 1, 2, 3]
    for seat in range(6):
        assert not [a for a in game.legal_actions(seat) if a.type != "claim"]
        assert speech.may_speak(game, seat)


@pytest.mark.parametrize(
    ("target", "winner", "reason"), [(0, F, "merlin_assassinated"), (3, L, "five_liberal_policies")]
)
def test_hitler_wins_by_naming_merlin_and_only_so(target: int, winner: str, reason: str) -> None:
    game = new_game(7, rules(avalon="percival", monarchist=True), roles=SEVEN, top="LFF" * 5)
    five_liberal_policies(game)
    game.apply(Action.assassinate(6, target))
    assert game.finished and (game.winner.value, game.reason.value) == (winner, reason)
    seen = [e.to_json() for e in game.events if e.type == "assassinated"]
    assert seen == [{"type": "assassinated", "hitler": 6, "target": target, "role": SEVEN[target]}]
    assert game.view(None).assassination["target"] == target
    # the Monarchist never wins after five liberal policies
    assert game.winners == ((4, 6) if winner == F else (0, 1, 2, 3))
    record = game.to_record()
    assert record["result"] == {"winner": winner, "reason": reason, "winners": list(game.winners)}
    result = replay(record)
    assert result.ok and result.game is not None and result.game.events == game.events


def test_only_hitler_names_only_a_liberal_and_a_refusal_changes_nothing() -> None:
    game = new_game(7, rules(avalon="percival", monarchist=True), roles=SEVEN, top="LFF" * 5)
    five_liberal_policies(game)
    error = assert_illegal(game, Action.assassinate(6, 5), "invalid_target")
    assert "not of the liberal party" in error.message
    assert_illegal(game, Action.assassinate(6, 4), "invalid_target")
    assert_illegal(game, Action.assassinate(6, 6), "invalid_target")
    assert_illegal(game, Action.assassinate(6, 7), "invalid_target")
    assert_illegal(game, Action.assassinate(0, 1), "not_your_turn")
    assert_illegal(game, Action.execute(6, 0), "wrong_phase")
    assert_illegal(game, Action.nominate(6, 0), "wrong_phase")


def hitler_shot(settings: dict[str, object], roles: list[str]) -> Game:
    """5 players, first president seat 0: four governments enact fascist policies (the third
    peeks); the fourth president, seat 3, executes Hitler in seat 4."""
    game = new_game(5, {"preset": IO, **settings}, roles=roles, top="FFL " * 4)
    for chancellor in (1, 2, 3, 0):
        govern(game, chancellor, F)
    game.apply(Action.execute(3, 4))
    return game


def test_hitlers_execution_opens_the_assassination_and_the_dead_hitler_chooses() -> None:
    game = hitler_shot({"avalon": "percival"}, [L, "merlin", "morgana", "percival", "hitler"])
    assert game.phase.value == "assassinate" and not game.alive[4]
    assert game.to_act() == [4]
    assert dict(game.view(0).assassination) == {
        "hitler": 4,
        "trigger": "hitler_executed",
        "target": None,
    }
    assert speech.silenced(game, 4) is None  # the dead talk through the assassination
    assert game.view(4).may_speak
    game.apply(Action.assassinate(4, 1))
    assert (game.winner.value, game.reason.value) == (F, "merlin_assassinated")
    assert speech.silenced(game, 4) is None


def test_a_missed_merlin_after_hitlers_execution_is_a_liberal_win_for_the_execution() -> None:
    game = hitler_shot({"avalon": "merlin"}, [L, "merlin", F, L, "hitler"])
    game.apply(Action.assassinate(4, 3))
    assert (game.winner.value, game.reason.value) == (L, "hitler_executed")
    assert game.winners == (0, 1, 3)


def test_the_fascists_immediate_wins_stay_immediate_under_avalon() -> None:
    roles = ["merlin", L, "percival", L, "morgana", F, "hitler"]
    game = new_game(7, rules(avalon="percival"), roles=roles, top="FFL " * 3)
    govern(game, 1, F)
    govern(game, 2, F)
    game.apply(Action.investigate(1, 0))
    govern(game, 3, F)
    game.apply(Action.special_election(2, 4))
    elect(game, 6)  # Hitler elected chancellor with three fascist policies
    assert (game.winner.value, game.reason.value) == (F, "hitler_elected")
    assert not [e for e in game.events if e.type.startswith("assassin")]


@pytest.mark.parametrize(("preset", "may"), [(IO, False), ("official", True)])
def test_morgana_may_execute_hitler_only_where_a_fascist_may(preset: str, may: bool) -> None:
    """Under ``fascist_may_execute_hitler: false`` (the site's preset) plain Fascists and Morgana
    may not shoot Hitler; the Monarchist always may (docs/game-types.md, disagreement 2)."""
    cases = {
        "morgana": ({"avalon": "percival"}, ["percival", "merlin", L, "morgana", "hitler"]),
        "monarchist": ({"monarchist": True}, [L, L, L, "monarchist", "hitler"]),
    }
    for shooter, (settings, roles) in cases.items():
        game = new_game(5, {"preset": preset, **settings}, roles=roles, top="FFL " * 4)
        for chancellor in (1, 2, 0, 1):
            govern(game, chancellor, F)
        assert game.phase.value == "execute" and game.power_president == 3
        targets = {a.target for a in game.legal_actions(3)}
        assert (4 in targets) == (may or shooter == "monarchist"), shooter


# ============================================================================ the Monarchist
def test_the_monarchist_wins_on_six_fascist_policies_or_hitler_executed_only() -> None:
    roles = [Role.LIBERAL, Role.MERLIN, Role.MONARCHIST, Role.FASCIST, Role.HITLER]
    table = [
        # winner, reason, Hitler executed: the winners
        (F, Reason.SIX_FASCIST_POLICIES, False, (2, 3, 4)),
        (F, Reason.HITLER_ELECTED, False, (3, 4)),
        (F, Reason.TOP_DECKED, False, (3, 4)),
        (L, Reason.FIVE_LIBERAL_POLICIES, False, (0, 1)),
        (L, Reason.HITLER_EXECUTED, True, (0, 1, 2)),
        (F, Reason.MERLIN_ASSASSINATED, False, (3, 4)),  # after five liberal policies
        (F, Reason.MERLIN_ASSASSINATED, True, (2, 3, 4)),  # after Hitler's execution
    ]
    for winner, reason, shot, winners in table:
        assert winners_of(roles, winner, reason, shot) == winners, reason


def test_the_monarchist_shoots_hitler_and_wins_with_the_liberals() -> None:
    game = new_game(
        5, rules(monarchist=True), roles=[L, L, L, "monarchist", "hitler"], top="FFL " * 4
    )
    for chancellor in (1, 2, 0, 1):
        govern(game, chancellor, F)
    game.apply(Action.execute(3, 4))
    assert (game.winner.value, game.reason.value) == (L, "hitler_executed")
    assert game.winners == (0, 1, 2, 3)
    over = game.events[-1].to_json()
    assert over["winners"] == [0, 1, 2, 3] and game.view(3).winners == (0, 1, 2, 3)


def test_a_game_without_a_monarchist_names_no_winners_in_its_log_or_record() -> None:
    game = Game(7, "official", 3)
    rng = random.Random(3)
    while not game.finished:
        game.apply(random_action(game, rng))
    assert "winners" not in game.events[-1].data and "winners" not in game.to_record()["result"]
    party = game.winner.value
    assert game.winners == tuple(s for s, r in enumerate(game.roles) if r.party.value == party)


def test_a_record_whose_winners_differ_is_a_result_mismatch() -> None:
    game = new_game(
        5, rules(monarchist=True), roles=[L, L, L, "monarchist", "hitler"], top="FFL " * 4
    )
    for chancellor in (1, 2, 0, 1):
        govern(game, chancellor, F)
    game.apply(Action.execute(3, 4))
    record = game.to_record()
    record["result"]["winners"] = [0, 1, 2]
    result = replay(record)
    assert result.error is not None and result.error["code"] == "result_mismatch"
    assert "seats [0, 1, 2]" in result.error["message"]
    record["result"]["winners"] = [0, 0]
    with pytest.raises(InvalidRecord, match="result.winners"):
        replay(record)


# ============================================================================ no top-decking
def test_forbidden_top_decking_ends_the_game_at_the_third_failed_election() -> None:
    game = new_game(7, rules(top_decking="forbidden"))
    assert game.view(None).top_deck_forbidden
    fail(game)
    fail(game)
    pile = game.draw_pile
    fail(game)
    assert (game.winner.value, game.reason.value) == (F, "top_decked")
    assert game.tracker == 3 and game.draw_pile == pile and game.fascist == 0
    assert [e.type for e in game.events[-3:]] == ["votes", "tracker", "game_over"]
    assert game.winners == (4, 5, 6)  # make_roles: Hitler and the fascists sit last


def test_no_double_top_decking_forbids_the_second_chaos_with_no_election_passed_between() -> None:
    game = new_game(7, rules(top_decking="not_twice"), top="FLL LFF LFF")
    assert not game.view(None).top_deck_forbidden
    for _ in range(3):
        fail(game)
    assert [e.type for e in game.events if e.type in ("chaos", "enacted")] == ["chaos", "enacted"]
    assert game.view(None).top_deck_forbidden and not game.finished
    govern(game, next(iter(game.eligible_chancellors())), L)  # an election passes: counted anew
    assert not game.view(None).top_deck_forbidden
    for _ in range(3):
        fail(game)
    assert not game.finished and game.view(None).top_deck_forbidden
    for _ in range(3):
        fail(game)
    assert (game.winner.value, game.reason.value) == (F, "top_decked")


def test_a_vetos_chaos_plays_on_under_no_top_decking() -> None:
    """The site's server plays a consented veto's chaos as usual (docs/game-types.md, open
    question 5): only failed elections count."""
    settings = {"preset": "official", "top_decking": "forbidden", "veto_zone": 1}
    game = new_game(7, settings, top="FFF LLF L")
    govern(game, 1, F)  # the veto is on from the first fascist policy (7 players: no power)
    fail(game)
    fail(game)
    elect(game, 4)
    game.apply(Action.discard(3, F))
    game.apply(Action.veto(4))
    game.apply(Action.veto_response(3, True))
    assert not game.finished and game.liberal == 1  # the chaos policy, the top one, liberal
    assert [e.type for e in game.events if e.type == "chaos"] == ["chaos"]


# ============================================================================ rebalanced tables
def test_rebalanced_tables_play_the_sites_deck_and_track_at_their_counts_only() -> None:
    r = rules(rebalanced=[6, 7, 9])
    expected = {6: ((6, 10), (0, 1)), 7: ((6, 10), (0, 0)), 9: ((6, 10), (0, 0))}
    for n in range(5, 11):
        deck, start = expected.get(n, ((6, 11), (0, 0)))
        assert (r.deck_for(n), r.start_track_for(n)) == (deck, start)
        game = Game(n, r, seed=n)
        view = game.view(None)
        assert (view.liberal_policies, view.fascist_policies) == start
        assert view.draw_pile == sum(deck) == len(game.initial_deck)
        assert game.initial_deck.count("fascist") == deck[1]
        assert tables(r)[str(n)]["deck"] == {"liberal": deck[0], "fascist": deck[1]}
    only_seven = rules(rebalanced=[7])
    assert only_seven.deck_for(6) == (6, 11) and only_seven.start_track_for(6) == (0, 0)
    assert only_seven.to_json() == {"preset": IO, "rebalanced": [7]}
    assert Rules.from_json({"preset": IO, "rebalanced": [9, 7, 7]}).rebalanced == (7, 9)


def test_the_six_player_rebalances_fascist_policy_counts_for_the_hitler_zone() -> None:
    game = new_game(6, rules(rebalanced=[6]), top="FFL FFL")
    assert not game.view(None).hitler_zone_active
    govern(game, 1, F)  # the second fascist policy: slot 2, no power
    assert game.phase.value == "nominate" and game.fascist == 2
    govern(game, 2, F)  # the third: slot 3, a peek, and the Hitler zone
    assert [e.type for e in game.events if e.type == "power"] == ["power"]
    assert game.view(None).hitler_zone_active
    elect(game, 5)  # make_roles: Hitler in the last seat
    assert (game.winner.value, game.reason.value) == (F, "hitler_elected")


# ============================================================================ records
@pytest.mark.parametrize(("game_type", "n"), TABLES[::3])
def test_a_record_keeps_the_game_type_and_replays_it(game_type: str, n: int) -> None:
    game = Game(n, rules_of(game_type), 11)
    rng = random.Random(11)
    while not game.finished:
        game.apply(random_action(game, rng, claim_prob=0.1))
    record = game.to_record()
    assert Rules.from_json(record["rules"]) == game.rules
    assert record["roles"] == [r.value for r in game.roles]
    result = replay(record)
    assert result.ok and result.game is not None and result.game.events == game.events


def test_a_records_table_section_is_checked_and_never_changes_the_replay() -> None:
    game = Game(5, IO, 4)
    rng = random.Random(4)
    while not game.finished:
        game.apply(random_action(game, rng))
    table = {
        "chat": "emotes",
        "blind": True,
        "aliases": ["Calm Otter", "Brave Lynx", "Quiet Heron", "Bold Ibex", "Sly Fox"],
        "turn_timer": 120,
        "on_timeout": "random",
        "category": "casual",
    }
    record = {**game.to_record(), "table": table}
    result = replay(record)
    assert result.ok and result.game is not None and result.game.events == game.events
    bad = [
        ({"chat": "loud"}, "table.chat"),
        ({"blind": "yes"}, "table.blind"),
        ({"aliases": ["A"]}, "table.aliases"),
        ({"turn_timer": 0}, "table.turn_timer"),
        ({"turn_timer": True}, "table.turn_timer"),
        ({"on_timeout": "bot"}, "table.on_timeout"),
        ({"category": "ranked"}, "table.category"),
        ({"timer": 30}, "table: no field 'timer'"),
    ]
    for section, message in bad:
        with pytest.raises(InvalidRecord, match=message):
            replay({**record, "table": section})


# ============================================================================ chance
@pytest.mark.parametrize("game_type", ["avalon-percival-monarchist", "avalon-monarchist"])
def test_the_deal_outcomes_are_every_distinct_deal_of_the_cards_each_once(game_type: str) -> None:
    cards = rules_of(game_type).composition(7)
    deals = deals_of(cards)
    distinct = factorial(7)
    for _, count in cards:
        distinct //= factorial(count)
    assert len(deals) == distinct
    seen = set()
    for i, outcome in enumerate(deals):
        assert Counter(outcome.roles) == dict(cards)
        assert deals.index(outcome) == i
        seen.add(outcome.roles)
    assert len(seen) == distinct
    with pytest.raises(ValueError):
        deals.index(Chance.deal(["liberal"] * 5 + ["fascist", "hitler"]))


def test_the_official_deals_keep_their_order() -> None:
    """Hitler's seat, then the fascists' seats among the others: an OpenSpiel chance action of
    an official game means what it meant before the game types."""
    deals = Deals(7, 2)
    assert len(deals) == 7 * 15
    assert deals[0].roles[:3] == (Role.HITLER, Role.FASCIST, Role.FASCIST)
    assert deals[15].roles[:4] == (Role.FASCIST, Role.HITLER, Role.FASCIST, Role.LIBERAL)
    assert deals_of(Rules().composition(7)).groups == deals.groups


# ============================================================================ hidden worlds
@pytest.mark.parametrize("game_type", ["avalon-percival-monarchist", "everything", "avalon"])
def test_a_sampled_world_shows_each_role_its_own_view(game_type: str) -> None:
    built = 0
    for n in counts_of(game_type)[:2]:
        game = Game(n, rules_of(game_type), 5)
        rng, sample_rng = random.Random(5), random.Random(6)
        roles = [r.value for r in game.roles]
        while not game.finished:
            seat = rng.choice(game.to_act())
            view = game.view(seat)
            if view.phase != "vote":
                try:
                    world = sample_world(view, roles, sample_rng)
                except WorldError:
                    pass
                else:
                    assert world.view(seat).to_json() == view.to_json()
                    built += 1
            game.apply(random_action(game, rng, claim_prob=0.2))
    assert built > 20


def swapped(a: int, b: int) -> list[str]:
    """``SEVEN`` with seats ``a`` and ``b``'s roles exchanged."""
    roles = list(SEVEN)
    roles[a], roles[b] = roles[b], roles[a]
    return roles


def test_a_world_must_keep_what_each_role_was_shown() -> None:
    game = new_game(7, rules(avalon="percival", monarchist=True), roles=SEVEN, first=2)
    percival = game.view(2)  # a candidate's decision: seat 2 nominates
    assert sample_world(percival, swapped(0, 4), random.Random(1)).roles[4] is Role.MERLIN
    with pytest.raises(WorldError, match="Merlin and Morgana"):
        sample_world(percival, swapped(0, 1), random.Random(1))
    game = new_game(7, rules(avalon="percival", monarchist=True), roles=SEVEN, first=0)
    merlin = game.view(0)
    with pytest.raises(WorldError, match="party"):
        sample_world(merlin, swapped(1, 5), random.Random(1))
    assert sample_world(merlin, swapped(4, 6), random.Random(1)).roles[4] is Role.HITLER
    with pytest.raises(ValueError, match="these rules deal"):
        sample_world(
            merlin, ["merlin", L, L, L, "morgana", "monarchist", "hitler"], random.Random(1)
        )


def test_a_world_must_show_the_monarchist_the_night_he_saw() -> None:
    """The Monarchist is shown his teammates by party, never Hitler: a deal that puts Hitler on
    a seat he was shown (and the teammate elsewhere) agrees with the parties he knows but not
    with his night, and is refused (OpenSpiel's resampler found such worlds)."""
    game = new_game(7, rules(avalon="percival", monarchist=True), roles=SEVEN, first=5)
    monarchist = game.view(5)
    assert [s for s, p in enumerate(monarchist.known_parties) if p == F] == [4, 5]
    with pytest.raises(WorldError, match="another night"):
        sample_world(monarchist, swapped(4, 6), random.Random(1))
    assert sample_world(monarchist, swapped(0, 1), random.Random(1)).roles[1] is Role.MERLIN


# ============================================================================ forced moves
@pytest.mark.parametrize("game_type", ["everything", "avalon-percival", "no-double-top-decking"])
def test_a_forced_move_is_a_legal_decision_never_a_claim(game_type: str) -> None:
    """Every decision of random games is made by ``forced_action``: always legal, never a claim;
    a fascist president other than Hitler is never made to shoot Hitler while another target is
    left; a seat with nothing to decide gets a clear refusal."""
    forced_kinds: Counter[str] = Counter()
    spared = 0
    for n in counts_of(game_type):
        game = Game(n, rules_of(game_type), n)
        rng = random.Random(n)
        while not game.finished:
            idle = next((s for s in range(n) if s not in game.to_act()), None)
            if idle is not None:
                with pytest.raises(IllegalAction, match="no decision"):
                    game.forced_action(idle, rng)
            seat = game.to_act()[0]
            action = game.forced_action(seat, rng)
            assert action.type != "claim" and game.is_legal(action)
            if action.type == "execute":
                president = game.roles[seat]
                if president is not Role.HITLER and PARTY_OF[president].value == F:
                    assert game.roles[action.target] is not Role.HITLER
                    spared += 1
            forced_kinds[action.type] += 1
            game.apply(action)
        with pytest.raises(IllegalAction, match="over"):
            game.forced_action(0, rng)
    assert {"nominate", "vote", "discard", "enact"} <= set(forced_kinds)
    assert forced_kinds["assassinate"] > 0 or game_type == "no-double-top-decking"


def test_a_forced_discard_draws_a_card_so_a_pair_is_twice_as_likely() -> None:
    game = new_game(7, IO, top="LFF")
    elect(game, 1)
    counts = Counter(game.forced_action(0, random.Random(seed)).policy for seed in range(600))
    assert 340 < counts[F] < 460 and counts[F] + counts[L] == 600  # 2/3 of 600 is 400


def test_a_forced_veto_names_the_policy_drawn_first() -> None:
    game = new_game(7, {"preset": IO, "veto_zone": 1}, top="FFF LFF")
    govern(game, 1, F)
    elect(game, 2)
    game.apply(Action.discard(1, F))
    kinds = Counter()
    for seed in range(200):
        action = game.forced_action(2, random.Random(seed))
        assert game.is_legal(action)
        kinds[(action.type, action.policy)] += 1
    assert set(kinds) == {("veto", L), ("veto", F), ("enact", L), ("enact", F)}


# ============================================================================ categories
@pytest.mark.parametrize(
    ("settings", "table", "category"),
    [
        ("official", {}, "rated"),
        (IO, {}, "rated"),
        ({"preset": IO, "rebalanced": [6, 7, 9]}, {}, "rated"),
        (IO, {"turn_timer": 30}, "rated"),
        (IO, {"turn_timer": 29.5}, "casual"),
        ({"preset": IO, "avalon": "merlin"}, {}, "casual"),
        ({"preset": IO, "monarchist": True}, {}, "casual"),
        ({"preset": IO, "top_decking": "not_twice"}, {}, "casual"),
        (IO, {"chat": "emotes"}, "casual"),
        (IO, {"chat": "silent"}, "practice"),
        ({"preset": IO, "avalon": "percival"}, {"chat": "silent"}, "casual"),
        ("forum", {}, "custom"),
        ({"preset": "official", "fascist_may_execute_hitler": False}, {}, "custom"),
        ({"preset": IO, "avalon": "merlin", "hitler_zone": 4}, {"chat": "silent"}, "custom"),
        (IO, {"chosen": "practice"}, "practice"),
        ({"preset": IO, "monarchist": True}, {"chosen": "practice"}, "casual"),
    ],
)
def test_the_category_table(settings: object, table: dict[str, object], category: str) -> None:
    assert category_of(Rules.from_json(settings), **table) == category  # type: ignore[arg-type]


def test_the_category_table_refuses_unknown_table_settings() -> None:
    with pytest.raises(ValueError, match="chat"):
        category_of(Rules(), chat="loud")
    with pytest.raises(ValueError, match="turn_timer"):
        forced_by(Rules(), turn_timer=0)
    with pytest.raises(ValueError, match="category"):
        category_of(Rules(), chosen="ranked")
    reasons = [row.setting for row in forced_by(rules(avalon="merlin", monarchist=True))]
    assert reasons == ["avalon", "monarchist"]


# ============================================================================ catalog, speech
def test_the_catalog_serves_the_game_types_settings_roles_and_categories() -> None:
    info = catalog()
    for name, setting in info["settings"].items():
        for value in setting["values"]:
            chosen = [value] if setting["multiple"] else value
            assert getattr(Rules.from_json({"preset": IO, name: chosen}), name) is not None
        default = Rules.from_json({"preset": IO, name: setting["default"]})
        assert default == Rules.from_json(IO)
    assert {r: v["party"] for r, v in info["roles"].items()} == {
        r.value: p.value for r, p in PARTY_OF.items()
    }
    assert [row["setting"] for row in info["categories"]["forced"]] == [r.setting for r in FORCED]
    assert set(info["reasons"]) == {r.value for r in Reason}
    seven = info["tables"][IO]["7"]  # the presets' tables name their role cards too
    assert seven["composition"] == {"hitler": 1, "fascist": 2, "liberal": 4}


def test_a_silent_table_keeps_its_seats_quiet_while_the_game_runs() -> None:
    game = new_game(5)
    assert speech.silenced(game, 0, chat="silent") == speech.SILENT_GAME
    assert speech.silenced(game, None, chat="silent") == speech.SPECTATOR
    assert speech.may_speak(game, 0, chat="emotes")  # what an emote line may hold is the host's
    assert any(a.type == "nominate" for a in game.legal_actions(game.candidate))


@pytest.mark.parametrize("game_type", NAMES)
def test_every_game_type_is_a_setting_the_default_leaves_off(game_type: str) -> None:
    r = rules_of(game_type)
    plain = Rules.from_json(GAME_TYPES[game_type]["preset"])
    assert r != plain and r.to_json() == GAME_TYPES[game_type] | {
        k: sorted(v) if isinstance(v, list) else v
        for k, v in GAME_TYPES[game_type].items()
        if k == "rebalanced"
    }
    assert (Rules().avalon, Rules().monarchist, Rules().rebalanced, Rules().top_decking) == (
        "off",
        False,
        (),
        "allowed",
    )
