"""The secrethitler.io importer: hand-made summaries, the CLI, and every real game in the data set.

The conformance test is the point of the importer: each finished game of the site replays under
the ``official`` rules (custom settings carried over) with no illegal step and the recorded winner.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from secret_hitler.datasets import SECRETHITLER_IO, open_text
from secret_hitler.engine import Game, GameError, game_from_record
from secret_hitler.importers.cli import app, dump_record, import_secrethitler_io, register
from secret_hitler.importers.secrethitler_io import (
    BadSummary,
    Unsupported,
    convert_game,
    convert_game_with_notes,
    iter_records,
)

# The project's copy of the real games (data/README.md); no skip: it is in the repository.
DATA = SECRETHITLER_IO

L, F = "liberal", "fascist"
ROLES5 = [L, L, L, "fascist", "hitler"]
YES5 = [True] * 5
NO5 = [False] * 5
# 6 liberal and 11 fascist policies, top first.
DECK = [F, F, L, F, L, L, F, F, F, L, F, L, F, F, L, F, F]
NO_POWERS: list[str | None] = [None] * 5


def entry(
    president: int,
    chancellor: int | None,
    votes: list[bool],
    deck: list[str],
    hand: list[str] | None = None,
    passed: list[str] | None = None,
    enacted: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """One site log entry, with the empty claim lists the site writes when nobody claimed."""
    log: dict[str, Any] = {
        "votes": votes,
        "presidentHand": hand or [],
        "chancellorHand": passed or [],
        "presidentClaim": [],
        "chancellorClaim": [],
        "policyPeek": [],
        "policyPeekClaim": [],
        "deckState": deck,
        "presidentId": president,
    }
    if chancellor is not None:
        log["chancellorId"] = chancellor
    if enacted is not None:
        log["enactedPolicy"] = enacted
    log.update(extra)
    return log


def summary(
    logs: list[dict[str, Any]],
    *,
    roles: list[str] = ROLES5,
    winner: str | None = None,
    custom: dict[str, Any] | None = None,
    **setting: Any,
) -> dict[str, Any]:
    """A site game summary; ``custom`` enables custom-game settings over the site's defaults."""
    game_setting = {
        "avalonSH": None,
        "rebalance6p": False,
        "rebalance7p": False,
        "rebalance9p": False,
        "casualGame": False,
        "practiceGame": False,
        "unlistedGame": False,
        "noTopdecking": 0,
        **setting,
    }
    custom_settings = {
        "deckState": {"lib": 6, "fas": 11},
        "trackState": {"lib": 0, "fas": 0},
        "powers": [None, None, "deckpeek", "bullet", "bullet"],
        "enabled": False,
        "hitlerZone": 3,
        "vetoZone": 5,
        "fascistCount": roles.count("fascist"),
        "hitKnowsFas": len(roles) < 7,
    }
    if custom is not None:
        custom_settings.update(custom, enabled=True)
    return {
        "id": "HandMadeGame",
        "date": "2025-01-01T00:00:00.000Z",
        "gameSetting": game_setting,
        "customGameSettings": custom_settings,
        "players": [{"seat": i, "role": r} for i, r in enumerate(roles)],
        "logs": logs,
        "winningTeam": winner,
        "hasReplay": True,
    }


def replay(record: dict[str, Any]) -> Game:
    """Replay a record through the engine; any illegal action fails the test."""
    return game_from_record(record)


def types(record: dict[str, Any]) -> list[str]:
    return [a["type"] for a in record["actions"]]


# ------------------------------------------------------------------------ basic conversion


def test_basic_record_fields_and_actions() -> None:
    logs = [
        entry(0, 1, NO5, DECK),
        entry(1, 2, YES5, DECK, hand=DECK[:3], passed=[F, L], enacted=L),
        entry(2, 3, NO5, DECK[3:]),
    ]
    record = convert_game(summary(logs))
    assert record["format"] == "secret-hitler-record"
    assert record["version"] == 1
    assert record["rules"] == "official"
    assert record["players"] == 5
    assert record["roles"] == ROLES5
    assert record["first_president"] == 0
    assert record["deck"] == DECK
    assert record["reshuffles"] == []
    assert record["source"]["site"] == "secrethitler.io"
    assert record["source"]["id"] == "HandMadeGame"
    assert "result" not in record  # no winningTeam: an unfinished game
    assert record["actions"][:6] == [{"seat": 0, "type": "nominate", "target": 1}] + [
        {"seat": s, "type": "vote", "ja": False} for s in range(5)
    ]
    assert record["actions"][12:14] == [
        {"seat": 1, "type": "discard", "policy": F},
        {"seat": 2, "type": "enact", "policy": L},
    ]
    game = replay(record)
    assert (game.liberal, game.fascist, game.tracker) == (1, 0, 1)
    assert game.draw_pile == 14 and game.discard_pile == 2


def test_an_abandoned_game_stops_where_its_log_stops() -> None:
    logs = [
        entry(0, 1, YES5, DECK, hand=DECK[:3], passed=[F, L], enacted=F),
        entry(1, None, [], DECK[3:]),
    ]
    record = convert_game(summary(logs))
    assert types(record)[-1] == "enact"
    game = replay(record)
    assert not game.finished and game.candidate == 1


def test_missing_data_in_the_middle_of_a_game_is_an_inconsistency() -> None:
    logs = [entry(0, 1, YES5, DECK, hand=DECK[:3], passed=[F, L]), entry(1, 2, NO5, DECK[3:])]
    with pytest.raises(BadSummary, match="enacted policy"):
        convert_game(summary(logs))


# ------------------------------------------------------------------------ votes of dead seats


def test_votes_of_dead_seats_are_ignored() -> None:
    custom = {"powers": ["bullet", None, None, None, None]}
    logs = [
        entry(0, 1, YES5, DECK, hand=[F, F, L], passed=[F, F], enacted=F, execution=2),
        # Seat 2 is dead; the site still shows its old "ja". Counted, it would pass the vote (3/5);
        # among the living it is 2 of 4: the vote fails.
        entry(1, 3, [True, True, True, False, False], DECK[3:]),
        entry(3, 0, [True, True, False, True, True], DECK[3:]),
    ]
    record = convert_game(summary(logs, custom=custom))
    after_shot = record["actions"][
        record["actions"].index({"seat": 0, "type": "execute", "target": 2}) + 1 :
    ]
    votes = [a for a in after_shot if a["type"] == "vote"]
    assert len(votes) == 8 and all(a["seat"] != 2 for a in votes)
    assert types(record)[-1] == "vote"  # the log stops before the president's discard
    game = replay(record)
    assert game.alive[2] is False
    # The second nomination failed, the third passed: president 3 is now drawing.
    assert game.tracker == 1 and game.president == 3 and game.chancellor == 0


# ------------------------------------------------------------------------ reshuffles


def small_deck_custom(**more: Any) -> dict[str, Any]:
    """Custom game with a 5-policy deck (3 liberal, 2 fascist), so it runs out quickly.

    The start track (3 liberal, 4 fascist) keeps the deck legal: at most 2 of its policies can
    be enacted before a win, so 3 always remain to draw. The Hitler zone is moved out of reach.
    """
    base = {
        "deckState": {"lib": 6, "fas": 6},  # the site counts the start track in the deck
        "trackState": {"lib": 3, "fas": 4},
        "hitlerZone": 6,
        "powers": NO_POWERS,
    }
    return {**base, **more}


def test_reshuffle_is_read_off_the_next_pile() -> None:
    first = [F, L, L, L, F]
    new = [F, L, L, F]  # what is left (L, F) and the two discards (F, L), in the site's new order
    logs = [
        entry(0, 1, YES5, first, hand=[F, L, L], passed=[L, L], enacted=L),
        entry(1, 2, NO5, new),
        entry(2, 3, NO5, new),
    ]
    record = convert_game(summary(logs, custom=small_deck_custom()))
    assert record["rules"]["deck"] == {"liberal": 3, "fascist": 2}
    assert record["reshuffles"] == [new]
    game = replay(record)
    assert game.draw_pile == 4 and game.discard_pile == 0
    assert [list(p) for p in game.reshuffles] == [new]


def test_a_reshuffled_pile_must_hold_the_draw_and_discard_piles() -> None:
    logs = [
        entry(0, 1, YES5, [F, L, L, L, F], hand=[F, L, L], passed=[L, L], enacted=L),
        entry(1, 2, NO5, [F, F, F, L]),  # 3 fascist policies: one more than exist off the track
    ]
    with pytest.raises(BadSummary, match="reshuffled pile"):
        convert_game(summary(logs, custom=small_deck_custom()))


def test_a_pile_that_changes_without_a_reshuffle_is_refused() -> None:
    logs = [entry(0, 1, NO5, DECK), entry(1, 2, NO5, list(reversed(DECK)))]
    with pytest.raises(BadSummary, match="without a reshuffle"):
        convert_game(summary(logs))


def test_top_deck_after_a_vetoed_session_comes_first_in_the_reshuffle() -> None:
    """A7: our engine reshuffles after the veto and then top-decks; the site top-decked from the
    two policies left and reshuffled after. The record's new pile puts the site's chaos policy
    on top, followed by the pile the site shows next."""
    custom = small_deck_custom(
        deckState={"lib": 6, "fas": 6}, trackState={"lib": 3, "fas": 4}, vetoZone=1
    )
    first = [F, F, L, L, L]
    after = [F, L, F, L]
    logs = [
        entry(0, 1, NO5, first),
        entry(1, 2, NO5, first),
        entry(
            2,
            3,
            YES5,
            first,
            hand=[F, F, L],
            passed=[F, F],
            enacted=L,
            chancellorVeto=True,
            presidentVeto=True,
        ),
        entry(3, 4, NO5, after),
    ]
    record = convert_game(summary(logs, custom=custom))
    assert record["reshuffles"] == [[L, *after]]
    game = replay(record)
    assert (game.liberal, game.fascist, game.tracker) == (4, 4, 1)
    assert game.draw_pile == 4


def test_top_deck_that_ends_the_game_right_after_a_reshuffle() -> None:
    custom = small_deck_custom(
        deckState={"lib": 7, "fas": 3}, trackState={"lib": 4, "fas": 1}, vetoZone=1
    )
    first = [F, F, L, L, L]
    logs = [
        entry(0, 1, NO5, first),
        entry(1, 2, NO5, first),
        entry(
            2,
            3,
            YES5,
            first,
            hand=[F, F, L],
            passed=[F, F],
            enacted=L,
            chancellorVeto=True,
            presidentVeto=True,
        ),
    ]
    record, notes = convert_game_with_notes(summary(logs, custom=custom, winner=L))
    assert record["reshuffles"] == [[L, L, L, F, F]]
    assert record["result"] == {"winner": L, "reason": "five_liberal_policies"}
    assert any("reshuffle" in n for n in notes)
    game = replay(record)
    assert game.winner == L and game.reason == "five_liberal_policies"


def test_a_peek_right_after_a_reshuffle_puts_the_peeked_policies_on_top() -> None:
    """The log ends after a peek of a pile the site never shows in full: the peek is its top."""
    custom = small_deck_custom(powers=[None, None, None, None, "deckpeek"])
    first = [F, L, L, L, F]
    logs = [
        entry(
            0,
            1,
            YES5,
            first,
            hand=[F, L, L],
            passed=[F, L],
            enacted=F,
            policyPeek=[L, F, L],
            policyPeekClaim=[L, L, L],
        )
    ]
    record, notes = convert_game_with_notes(summary(logs, custom=custom))
    # Left over (L, F) and the two discarded liberal policies: the peek, then the rest.
    assert record["reshuffles"] == [[L, F, L, L]]
    assert any("only partly shown" in n for n in notes)
    game = replay(record)
    peeks = [e.data["policies"] for e in game.events if e.type == "peek"]
    assert peeks == [[L, F, L]]
    assert record["actions"][-1] == {
        "seat": 0,
        "type": "claim",
        "subject": "peek",
        "policies": [L, L, L],
    }


def test_a_reshuffle_the_site_never_shows_is_left_to_the_replay() -> None:
    first = [F, L, L, L, F]
    logs = [entry(0, 1, YES5, first, hand=[F, L, L], passed=[L, L], enacted=L)]
    record, notes = convert_game_with_notes(summary(logs, custom=small_deck_custom()))
    assert record["reshuffles"] == [] and notes == []
    assert convert_game(summary(logs, custom=small_deck_custom())) == record
    game = replay(record)
    assert len(game.reshuffles) == 1 and game.draw_pile == 4


def test_a_top_deck_that_is_not_the_top_of_the_pile_is_refused() -> None:
    logs = [entry(0, 1, NO5, DECK), entry(1, 2, NO5, DECK), entry(2, 3, NO5, DECK, enacted=L)]
    with pytest.raises(BadSummary, match=r"logs\[2\]: the top-decked liberal is not the top"):
        convert_game(summary(logs))


def test_a_peek_that_is_not_the_top_of_the_pile_is_refused() -> None:
    custom = {"powers": ["deckpeek", None, None, None, None]}
    logs = [
        entry(0, 1, YES5, DECK, hand=DECK[:3], passed=[F, L], enacted=F, policyPeek=[L, L, L]),
        entry(1, 2, NO5, DECK[3:]),
    ]
    with pytest.raises(BadSummary, match=r"logs\[0\].policyPeek .* is not the top of the pile"):
        convert_game(summary(logs, custom=custom))


def test_a_move_the_engine_refuses_names_the_entry_and_the_reason() -> None:
    """The presidency passes to seat 1; a log that has seat 2 nominate is not this game."""
    logs = [entry(0, 1, NO5, DECK), entry(2, 3, NO5, DECK)]
    with pytest.raises(BadSummary, match=r"logs\[1\]: the engine refuses nominate by seat 2"):
        convert_game(summary(logs))
    out = list(iter_records([json.dumps(summary(logs))]))
    assert out[0].record is None and out[0].skipped == "inconsistent"
    assert "seat 1's decision" in out[0].detail


# ------------------------------------------------------------------------ vetoes


def veto_custom() -> dict[str, Any]:
    """The veto is on from the first session (one fascist policy on the track, veto zone 1)."""
    return {"trackState": {"lib": 0, "fas": 1}, "vetoZone": 1, "powers": NO_POWERS}


def test_veto_refused_enacts_the_policy_the_chancellor_chose() -> None:
    pile = [F, F, L, *DECK[4:]]  # 16 policies: one fascist policy is on the track
    logs = [
        entry(
            0,
            1,
            YES5,
            pile,
            hand=[F, F, L],
            passed=[F, L],
            enacted=L,
            chancellorVeto=True,
            presidentVeto=False,
        ),
        entry(1, 2, NO5, pile[3:]),
    ]
    record = convert_game(summary(logs, custom=veto_custom()))
    assert record["rules"]["start_track"] == {"liberal": 0, "fascist": 1}
    assert record["actions"][6:10] == [
        {"seat": 0, "type": "discard", "policy": F},
        {"seat": 1, "type": "veto"},
        {"seat": 0, "type": "veto_response", "accept": False},
        {"seat": 1, "type": "enact", "policy": L},
    ]
    game = replay(record)
    assert (game.liberal, game.fascist, game.tracker) == (1, 1, 1)


def test_veto_accepted_discards_both_and_advances_the_tracker() -> None:
    pile = [F, F, L, *DECK[4:]]
    logs = [
        entry(
            0, 1, YES5, pile, hand=[F, F, L], passed=[F, L], chancellorVeto=True, presidentVeto=True
        ),
        entry(1, 2, NO5, pile[3:]),
    ]
    record = convert_game(summary(logs, custom=veto_custom()))
    assert types(record)[6:9] == ["discard", "veto", "veto_response"]
    assert record["actions"][8]["accept"] is True
    assert types(record)[9] == "nominate"
    game = replay(record)
    assert (game.liberal, game.fascist, game.tracker) == (0, 1, 2)
    assert game.discard_pile == 3


def test_veto_offered_but_not_used_is_a_plain_enactment() -> None:
    pile = [F, F, L, *DECK[4:]]
    logs = [entry(0, 1, YES5, pile, hand=[F, F, L], passed=[F, L], enacted=F, chancellorVeto=False)]
    record = convert_game(summary(logs, custom=veto_custom()))
    assert types(record)[6:] == ["discard", "enact"]
    assert replay(record).fascist == 2


# ------------------------------------------------------------------------ claims


def test_claims_are_carried_over_after_the_event_they_are_about() -> None:
    custom = {"powers": ["investigate", "deckpeek", "bullet", None, None]}
    logs = [
        entry(
            0,
            1,
            YES5,
            DECK,
            hand=DECK[0:3],
            passed=[F, L],
            enacted=F,
            investigatorId=0,
            investigationId=3,
            investigationClaim="liberal",
            presidentClaim=[F, F, F],
            chancellorClaim=[F, F],
        ),
        entry(
            1,
            2,
            YES5,
            DECK[3:],
            hand=DECK[3:6],
            passed=[F, L],
            enacted=F,
            policyPeek=DECK[6:9],
            policyPeekClaim=[F, L, F],
            chancellorClaim=[L, L],
        ),
        # The president shoots his own chancellor, who had claimed first.
        entry(
            2,
            0,
            YES5,
            DECK[6:],
            hand=DECK[6:9],
            passed=[F, F],
            enacted=F,
            execution=0,
            presidentClaim=[F, F, F],
            chancellorClaim=[F, F],
        ),
        # A late claim filed under a nomination that failed: it has no place and is dropped.
        entry(3, 4, [True, False, False, False, True], DECK[9:], presidentClaim=[F, F, L]),
    ]
    record, notes = convert_game_with_notes(summary(logs, custom=custom))
    claims = [a for a in record["actions"] if a["type"] == "claim"]
    assert claims == [
        {"seat": 0, "type": "claim", "subject": "president_hand", "policies": [F, F, F]},
        {"seat": 1, "type": "claim", "subject": "chancellor_hand", "policies": [F, F]},
        {"seat": 0, "type": "claim", "subject": "investigation", "target": 3, "party": L},
        {"seat": 2, "type": "claim", "subject": "chancellor_hand", "policies": [L, L]},
        {"seat": 1, "type": "claim", "subject": "peek", "policies": [F, L, F]},
        {"seat": 0, "type": "claim", "subject": "chancellor_hand", "policies": [F, F]},
        {"seat": 2, "type": "claim", "subject": "president_hand", "policies": [F, F, F]},
    ]
    kinds = types(record)
    # Each claim comes after what it is about, before the next nomination.
    assert kinds[kinds.index("investigate") + 1 : kinds.index("investigate") + 4] == ["claim"] * 3
    shot = record["actions"].index({"seat": 2, "type": "execute", "target": 0})
    assert record["actions"][shot - 1]["seat"] == 0  # the chancellor's claim, while alive
    assert record["actions"][shot + 1]["subject"] == "president_hand"
    assert any("no legislative session" in n for n in notes)
    game = replay(record)
    assert game.fascist == 3 and game.alive[0] is False


def test_claims_in_other_encodings_and_unreadable_ones() -> None:
    logs = [
        entry(
            0,
            1,
            YES5,
            DECK,
            hand=DECK[:3],
            passed=[F, L],
            enacted=L,
            presidentClaim="rrb",
            chancellorClaim={"reds": 1, "blues": 1},
        ),
        entry(
            1,
            2,
            YES5,
            DECK[3:],
            hand=DECK[3:6],
            passed=[F, L],
            enacted=L,
            presidentClaim=["purple", F, F],
            chancellorClaim=[],
        ),
    ]
    record, notes = convert_game_with_notes(summary(logs))
    claims = [a for a in record["actions"] if a["type"] == "claim"]
    assert claims == [
        {"seat": 0, "type": "claim", "subject": "president_hand", "policies": [F, F, L]},
        {"seat": 1, "type": "claim", "subject": "chancellor_hand", "policies": [F, L]},
    ]
    assert any("unreadable presidentClaim" in n for n in notes)
    replay(record)


# ------------------------------------------------------------------------ results


def one_session(enacted: str, **extra: Any) -> list[dict[str, Any]]:
    hand = [F, F, L]
    return [
        entry(0, 1, YES5, [*hand, *DECK[3:]], hand=hand, passed=[F, L], enacted=enacted, **extra)
    ]


@pytest.mark.parametrize(
    ("custom", "logs", "winner", "reason"),
    [
        (
            {"trackState": {"lib": 4, "fas": 0}, "deckState": {"lib": 10, "fas": 11}},
            one_session(L),
            L,
            "five_liberal_policies",
        ),
        (
            {"trackState": {"lib": 0, "fas": 5}, "deckState": {"lib": 6, "fas": 16}},
            one_session(F),
            F,
            "six_fascist_policies",
        ),
        (
            {"powers": ["bullet", None, None, None, None]},
            one_session(F, execution=4, presidentClaim=[F, F, L]),
            L,
            "hitler_executed",
        ),
        (
            {"trackState": {"lib": 0, "fas": 3}, "deckState": {"lib": 6, "fas": 14}},
            [entry(0, 4, YES5, DECK)],
            F,
            "hitler_elected",
        ),
    ],
)
def test_the_reason_of_the_win_is_derived_from_the_game(
    custom: dict[str, Any], logs: list[dict[str, Any]], winner: str, reason: str
) -> None:
    record = convert_game(summary(logs, custom=custom, winner=winner))
    assert record["result"] == {"winner": winner, "reason": reason}
    game = replay(record)
    assert game.winner == winner and game.reason == reason


def test_hand_claims_before_a_shot_that_ends_the_game() -> None:
    custom = {"powers": ["bullet", None, None, None, None]}
    record = convert_game(
        summary(one_session(F, execution=4, presidentClaim=[F, F, L]), custom=custom, winner=L)
    )
    assert types(record)[-2:] == ["claim", "execute"]


def test_a_winner_the_logs_do_not_reach_is_refused() -> None:
    with pytest.raises(BadSummary, match="winningTeam"):
        convert_game(summary(one_session(L), winner=F))


# ------------------------------------------------------------------------ rules and skips


def test_custom_settings_are_translated() -> None:
    roles7 = [L, L, L, L, "fascist", "fascist", "hitler"]
    deck25 = [F] * 19 + [L] * 6
    custom = {
        "deckState": {"lib": 6, "fas": 19},
        "powers": ["election", "bullet", "election", "deckpeek", "investigate"],
        "hitlerZone": 4,
        "vetoZone": 5,
        "fascistCount": 2,
        "hitKnowsFas": True,
    }
    record = convert_game(summary([entry(0, 1, [False] * 7, deck25)], roles=roles7, custom=custom))
    assert record["rules"] == {
        "preset": "official",
        "powers": ["special_election", "execute", "special_election", "peek", "investigate"],
        "hitler_zone": 4,
        "veto_zone": 5,
        "fascists": 2,
        "hitler_knows_fascists": True,
        "deck": {"liberal": 6, "fascist": 19},
        "start_track": {"liberal": 0, "fascist": 0},
    }
    replay(record)


def test_custom_settings_are_ignored_unless_enabled() -> None:
    assert convert_game(summary([entry(0, 1, NO5, DECK)]))["rules"] == "official"


# A pile of 6 liberal and 10 fascist policies (a rebalanced table's), top first.
DECK16 = DECK[1:]


def test_six_player_rebalance_starts_with_a_fascist_policy() -> None:
    """The site's rebalance6p is the engine's rebalanced table at 6: a fascist policy on the
    track, the pile without it."""
    roles6 = [L, L, L, L, "fascist", "hitler"]
    record = convert_game(
        summary([entry(0, 1, [False] * 6, DECK16)], roles=roles6, rebalance6p=True)
    )
    assert record["rules"] == {"preset": "official", "rebalanced": [6]}
    game = replay(record)
    assert game.fascist == 1 and game.draw_pile == 16


@pytest.mark.parametrize(("players", "flags"), [(7, {"rebalance7p": True}), (7, {}), (9, {})])
def test_a_rebalanced_pile_is_the_rebalanced_table(players: int, flags: dict[str, bool]) -> None:
    """A standard 7- or 9-player game that starts with one fascist policy fewer is the site's
    rebalanced table (its summary keeps no flag for 9 players): the engine's ``rebalanced``."""
    roles = [L] * (players - players // 2) + ["fascist"] * (players // 2 - 1) + ["hitler"]
    record = convert_game(summary([entry(0, 1, [False] * players, DECK16)], roles=roles, **flags))
    assert record["rules"] == {"preset": "official", "rebalanced": [players]}
    assert replay(record).draw_pile == 16


def test_an_old_nine_player_rebalance_starts_with_a_liberal_policy() -> None:
    """An old summary's rebalance9p (a liberal policy enacted at the start) is no rebalanced
    table of today: it is carried over as the official rules with that track and deck."""
    roles9 = [L] * 5 + ["fascist"] * 3 + ["hitler"]
    pile = DECK[:4] + DECK[5:]  # the liberal policy at index 4 went to the track
    record = convert_game(summary([entry(0, 1, [False] * 9, pile)], roles=roles9, rebalance9p=True))
    assert record["rules"] == {
        "preset": "official",
        "deck": {"liberal": 5, "fascist": 11},
        "start_track": {"liberal": 1, "fascist": 0},
    }
    assert replay(record).liberal == 1


# ------------------------------------------------------------------------ the site's game types
AVALON5 = ["merlin", "percival", L, "morgana", "hitler"]  # Avalon SH with Percival, 5 players
BULLET_FIRST = {
    "powers": ["bullet", None, None, None, None],
    "fascistCount": 1,
    "hitKnowsFas": True,
}


def shot(president: int, target: int, **extra: Any) -> list[dict[str, Any]]:
    """One government that enacts a fascist policy whose power (slot 1: execution) is used."""
    return [entry(president, 1, YES5, DECK, DECK[:3], [F, L], F, execution=target, **extra)]


@pytest.mark.parametrize(
    ("named", "winner", "reason"),
    [(0, F, "merlin_assassinated"), (2, L, "hitler_executed")],
)
def test_avalon_hitlers_execution_opens_the_assassination(
    named: int, winner: str, reason: str
) -> None:
    """avalonSH with withPercival is the engine's ``avalon: percival``; Merlin, Percival and
    Morgana are dealt as the summary names them, and the seat the site logs as the
    ``assassination`` on the last entry is Hitler's ``assassinate``: Merlin named, the
    fascists win; anyone else, the liberals win for Hitler's execution."""
    site = summary(
        shot(2, 4, assassination=named),
        roles=AVALON5,
        custom=BULLET_FIRST,
        winner=winner,
        avalonSH={"withPercival": True},
    )
    record = convert_game(site)
    assert record["rules"]["avalon"] == "percival"
    assert record["roles"] == AVALON5
    assert record["actions"][-2:] == [
        {"seat": 2, "type": "execute", "target": 4},
        {"seat": 4, "type": "assassinate", "target": named},
    ]
    assert record["result"] == {"winner": winner, "reason": reason}
    game = replay(record)
    assert game.winner == winner and game.reason == reason


def test_avalon_five_liberal_policies_open_the_assassination() -> None:
    """Avalon SH without Percival (``avalon: merlin``): the fifth liberal policy opens it."""
    roles = ["merlin", L, L, "fascist", "hitler"]
    custom = {"powers": [None] * 5, "trackState": {"lib": 4, "fas": 0}}
    custom |= {"deckState": {"lib": 10, "fas": 11}, "fascistCount": 1, "hitKnowsFas": True}
    logs = [entry(0, 1, YES5, DECK, DECK[:3], [F, L], L, assassination=3)]
    with pytest.raises(BadSummary, match="engine refuses assassinate"):  # a fascist: no target
        convert_game(summary(logs, roles=roles, custom=custom, avalonSH={"withPercival": False}))
    logs[0]["assassination"] = 2
    site = summary(logs, roles=roles, custom=custom, winner=L, avalonSH={"withPercival": False})
    record = convert_game(site)
    assert record["rules"]["avalon"] == "merlin"
    assert record["result"] == {"winner": L, "reason": "five_liberal_policies"}
    assert replay(record).assassination == {
        "hitler": 4,
        "trigger": "five_liberal_policies",
        "target": 2,
    }


def test_a_game_left_at_the_assassination_stops_there() -> None:
    site = summary(shot(2, 4), roles=AVALON5, custom=BULLET_FIRST, avalonSH={"withPercival": True})
    record = convert_game(site)
    assert "result" not in record and types(record)[-1] == "execute"
    assert replay(record).phase == "assassinate"
    # the site logs it on the last entry: an entry after it contradicts the summary
    late = shot(2, 4, assassination=0) + [entry(3, 0, YES5, DECK[3:])]
    site = summary(late, roles=AVALON5, custom=BULLET_FIRST, avalonSH={"withPercival": True})
    with pytest.raises(BadSummary, match="the assassination ends the game but the log goes on"):
        convert_game(site)


def test_the_monarchist_wins_by_executing_hitler() -> None:
    """monarchistSH is the engine's ``monarchist``; the record's winners are the Monarchist's
    own (he wins with the liberals when Hitler is executed), the summary's winner the party's."""
    roles7 = [L, L, L, L, "monarchist", "fascist", "hitler"]
    custom = BULLET_FIRST | {"fascistCount": 2, "hitKnowsFas": False}
    logs = [entry(4, 1, [True] * 7, DECK, DECK[:3], [F, L], F, execution=6)]
    record = convert_game(summary(logs, roles=roles7, custom=custom, winner=L, monarchistSH=True))
    assert record["rules"]["monarchist"] is True
    assert record["result"] == {
        "winner": L,
        "reason": "hitler_executed",
        "winners": [0, 1, 2, 3, 4],
    }
    assert replay(record).winners == (0, 1, 2, 3, 4)


def _failed(presidents: range, pile: list[str], **last: Any) -> list[dict[str, Any]]:
    """Failed elections, one an entry (president p nominates p + 1); ``last`` on the last."""
    logs = [entry(p % 5, (p + 1) % 5, NO5, pile) for p in presidents]
    logs[-1].update(last)
    return logs


def test_no_top_decking_ends_the_game_at_the_third_failed_election() -> None:
    """noTopdecking 1 is ``top_decking: forbidden``: the chaos is a fascist win, no policy."""
    record = convert_game(summary(_failed(range(3), DECK), winner=F, noTopdecking=1))
    assert record["rules"] == {"preset": "official", "top_decking": "forbidden"}
    assert record["result"] == {"winner": F, "reason": "top_decked"}
    game = replay(record)
    assert game.fascist == 0 and game.draw_pile == 17


def test_no_double_top_decking_plays_the_first_chaos() -> None:
    """noTopdecking 2 is ``not_twice``: the first chaos plays the top policy (the site logs it
    as the entry's enactedPolicy); a second with no election passed between is a fascist win."""
    logs = _failed(range(3), DECK, enactedPolicy=F) + _failed(range(3, 6), DECK[1:])
    record = convert_game(summary(logs, winner=F, noTopdecking=2))
    assert record["rules"] == {"preset": "official", "top_decking": "not_twice"}
    assert record["result"] == {"winner": F, "reason": "top_decked"}
    assert replay(record).fascist == 1


def test_a_summary_that_calls_a_played_chaos_a_top_deck_is_skipped_by_name() -> None:
    """Under no double top-decking the first chaos plays: here the fifth liberal policy, a
    liberal win on the server; the site's summary calls any game whose last turn maxed the
    tracker a fascist top-deck win (docs/game-types.md decision 5)."""
    pile = [L, F, F, F, L, L, F, F, F, L, F, L, F, F, L, F, F]
    custom = {"powers": [None] * 5, "trackState": {"lib": 4, "fas": 0}}
    custom |= {"deckState": {"lib": 10, "fas": 11}}
    logs = _failed(range(3), pile, enactedPolicy=L)
    record = convert_game(summary(logs, custom=custom, winner=L, noTopdecking=2))
    assert record["result"] == {"winner": L, "reason": "five_liberal_policies"}
    with pytest.raises(Unsupported) as info:
        convert_game(summary(logs, custom=custom, winner=F, noTopdecking=2))
    assert info.value.reason == "summary_top_deck"
    assert "the server played it (liberal win" in info.value.detail


@pytest.mark.parametrize(
    ("roles", "setting", "reason"),
    [
        # #1989's deal: every fascist card a Monarchist
        (
            [L, L, L, L, "monarchist", "monarchist", "hitler"],
            {"monarchistSH": True},
            "earlier_deal",
        ),
        # #1989 to #2010 at 5-6 players: Percival without Morgana
        (
            ["merlin", "percival", L, "fascist", "hitler"],
            {"avalonSH": {"withPercival": True}},
            "earlier_deal",
        ),
        # Percival and the Monarchist at 5 players: the engine refuses the combination
        (
            ["merlin", "percival", L, "morgana", "hitler"],
            {"avalonSH": {"withPercival": True}, "monarchistSH": True},
            "rules_refused",
        ),
    ],
)
def test_deals_the_site_no_longer_makes_are_skipped_by_name(
    roles: list[str], setting: dict[str, Any], reason: str
) -> None:
    with pytest.raises(Unsupported) as info:
        convert_game(summary([entry(0, 1, [False] * len(roles), DECK)], roles=roles, **setting))
    assert info.value.reason == reason


def test_morgana_executing_hitler_is_skipped_by_name() -> None:
    """The site's server let Morgana shoot Hitler; the game type's intent does not (decision 2)."""
    site = summary(shot(3, 4, assassination=0), roles=AVALON5, custom=BULLET_FIRST, winner=F)
    site["gameSetting"]["avalonSH"] = {"withPercival": True}
    with pytest.raises(Unsupported) as info:
        convert_game(site)
    assert info.value.reason == "morgana_executed_hitler"
    assert "Morgana (seat 3) executed Hitler (seat 4)" in info.value.detail


@pytest.mark.parametrize("power", ["reverseinv", "peekdrop"])
def test_the_sites_custom_powers_without_an_equivalent_are_skipped(power: str) -> None:
    custom = {"powers": [power, None, None, "bullet", "bullet"]}
    with pytest.raises(Unsupported) as info:
        convert_game(summary([entry(0, 1, NO5, DECK)], custom=custom))
    assert info.value.reason == "unknown_power"


@pytest.mark.parametrize(
    ("setting", "problem"),
    [
        ({"avalonSH": True}, "avalonSH: expected null or {withPercival}"),
        ({"noTopdecking": 3}, "noTopdecking: expected 0, 1 or 2"),
        ({"monarchistSH": "yes"}, "monarchistSH: expected true or false"),
    ],
)
def test_bad_game_type_settings_are_an_inconsistency(setting: dict[str, Any], problem: str) -> None:
    with pytest.raises(BadSummary, match=problem):
        convert_game(summary([entry(0, 1, NO5, DECK)], **setting))


def test_iter_records_yields_records_and_reasons() -> None:
    good = summary([entry(0, 1, NO5, DECK)])
    old = summary(
        [entry(0, 1, NO5, DECK)],
        roles=["merlin", "percival", L, "fascist", "hitler"],
        avalonSH={"withPercival": True},
    )
    broken = summary([entry(0, 1, NO5, DECK), entry(1, 2, NO5, DECK[::-1])])
    lines = [json.dumps(good), "", json.dumps(old), json.dumps(broken)]
    out = list(iter_records(lines))
    assert [o.skipped for o in out] == [None, "earlier_deal", "inconsistent"]
    assert out[0].record is not None and out[1].record is None
    with pytest.raises(BadSummary, match="line 2"):
        list(iter_records([json.dumps(good), "{not json"]))


# ------------------------------------------------------------------------ the command


def test_import_writes_one_record_per_convertible_game(tmp_path: Path) -> None:
    src = tmp_path / "games.jsonl"
    games = [
        summary([entry(0, 1, NO5, DECK)]) | {"id": "GameOne"},
        summary([entry(0, 1, NO5, DECK)], custom={"powers": ["peekdrop", None, None, None, None]})
        | {"id": "GameTwo"},
    ]
    src.write_text("\n".join(json.dumps(g) for g in games) + "\n", encoding="utf-8")
    written, skipped = import_secrethitler_io(src, tmp_path / "out")
    assert (written, skipped) == (1, {"unknown_power": 1})
    record = json.loads((tmp_path / "out" / "GameOne.json").read_text(encoding="utf-8"))
    assert record == convert_game(games[0])
    assert json.loads(dump_record(record)) == record

    result = CliRunner().invoke(app, ["secrethitler-io", str(src), str(tmp_path / "out2")])
    assert result.exit_code == 0, result.output
    assert "unknown_power" in result.output
    assert (tmp_path / "out2" / "GameOne.json").exists()


@pytest.mark.parametrize("content", [None, "{oops\n", "[1, 2]\n"])
def test_import_refuses_a_missing_or_malformed_file(tmp_path: Path, content: str | None) -> None:
    src = tmp_path / "games.jsonl"
    if content is not None:
        src.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(app, ["secrethitler-io", str(src), str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "error" in result.output and "Traceback" not in result.output
    assert str(src.name) in result.output
    assert not (tmp_path / "out").exists()


def test_import_reads_gzip_like_plain_text(tmp_path: Path) -> None:
    """A .jsonl.gz input (the project's own sample is one) gives the same records as plain JSONL."""
    with open_text(DATA) as fh:
        lines = [next(fh) for _ in range(12)]
    plain = tmp_path / "some.jsonl"
    plain.write_text("".join(lines), encoding="utf-8")
    packed = tmp_path / "some.jsonl.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    for src, out in ((plain, tmp_path / "a"), (packed, tmp_path / "b")):
        result = CliRunner().invoke(app, ["secrethitler-io", str(src), str(out)])
        assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert len(names) >= 10 and names == sorted(p.name for p in (tmp_path / "b").iterdir())
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


@pytest.mark.parametrize("damage", ["truncated", "corrupt"])
def test_import_refuses_a_damaged_gzip_file(tmp_path: Path, damage: str) -> None:
    with open_text(DATA) as fh:
        packed = gzip.compress("".join(next(fh) for _ in range(30)).encode())
    data = packed[: len(packed) // 2] if damage == "truncated" else packed[:12] + b"\xff" * 40
    src = tmp_path / "games.jsonl.gz"
    src.write_bytes(data)
    result = CliRunner().invoke(app, ["secrethitler-io", str(src), str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "damaged gzip" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_register_mounts_the_import_group(tmp_path: Path) -> None:
    parent = typer.Typer()

    @parent.command()
    def other() -> None:  # a second command keeps the parent a group
        pass

    register(parent)
    result = CliRunner().invoke(
        parent, ["import", "secrethitler-io", str(tmp_path / "x.jsonl"), str(tmp_path)]
    )
    assert result.exit_code == 2 and "no such file" in result.output


# ------------------------------------------------------------------------ every real game


def test_every_finished_site_game_replays_with_its_recorded_winner() -> None:
    with open_text(DATA) as fh:
        lines = fh.readlines()
    finished = replayed = 0
    skipped: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    failures: list[str] = []
    unfinished_ok = 0
    game_types: Counter[str] = Counter()  # the site's game types among the games that import
    for line in lines:
        site = json.loads(line)
        try:
            record = convert_game(site)
        except Unsupported as exc:
            if site["winningTeam"] is not None:
                finished += 1
                skipped[exc.reason] += 1
            continue
        try:
            game = game_from_record(record)
        except GameError as exc:
            failures.append(f"{site['id']}: {type(exc).__name__}: {exc}")
            continue
        rules = record["rules"] if isinstance(record["rules"], dict) else {}
        for setting in ("avalon", "monarchist", "rebalanced", "top_decking"):
            if setting in rules:
                game_types[f"{setting}={rules[setting]}"] += 1
        if site["winningTeam"] is None:
            unfinished_ok += 1
            continue
        finished += 1
        replayed += 1
        if game.winner != site["winningTeam"] or game.reason != record["result"]["reason"]:
            failures.append(
                f"{site['id']}: site says {site['winningTeam']}, replay ends {game.winner} ({game.reason})"
            )
        reasons[str(game.reason.value if game.reason else None)] += 1
    assert failures == []
    assert finished == 929
    assert replayed == 929
    assert skipped == {}
    assert unfinished_ok == 93  # and every unfinished game replays as far as its log goes
    # The sample's game types: three games without top-decking (finished) and one Avalon SH
    # with Percival and no double top-decking (unfinished); none rebalanced or Monarchist.
    assert game_types == {
        "top_decking=forbidden": 2,
        "top_decking=not_twice": 2,
        "avalon=percival": 1,
    }
    assert reasons == {
        "five_liberal_policies": 384,
        "hitler_elected": 324,
        "six_fascist_policies": 150,
        "hitler_executed": 71,
    }
