"""The governments of a game and the claims filed under them (engine/history.py), the public
judgement of hand claims (``claims.hand_conflicts``), and the chaos event's word on term limits.

The property test plays random games of every preset at 5-10 seats, claims made often, and
checks that every log of a moment (each seat's, the spectator's, the game's) gives the same
governments, one per candidacy, every claim filed once, and that an update's suffix
(``changed_from``) leaves the rest as it was; the scripted ones pin known cases.
"""

from __future__ import annotations

import random

import pytest
from engine_helpers import F, L, elect, fail, govern, new_game, nominate, random_action, vote_all
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from secret_hitler.engine import PRESETS, Action, Game
from secret_hitler.engine.claims import hand_conflicts
from secret_hitler.engine.history import History, changed_from, governments

_checks = [HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large]


@settings(max_examples=25, deadline=None, suppress_health_check=_checks)
@given(
    preset=st.sampled_from(list(PRESETS)),
    n=st.sampled_from(list(range(5, 11))),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    rng=st.randoms(use_true_random=True),
)
def test_every_log_gives_the_same_governments_and_updates_only_add_to_them(
    preset: str, n: int, seed: int, rng: random.Random
) -> None:
    """One government per candidacy, every claim filed once (a hand claim under an elected
    government its claimant sat in, a power's claim under the government its claimant used
    it in); an update's suffix (``changed_from``) leaves the governments before it as they
    were; a fold fed action by action (``History``) says what one from scratch says; each
    seat's log and the spectator's give the game's governments."""
    game = Game(n, preset, seed)
    before = governments(e.json for e in game.events)
    follower, read = History(), 0  # the server's way: fed each action's events as they come
    while not game.finished:
        game.apply(random_action(game, rng, claim_prob=0.3))
        after = governments(e.json for e in game.events)
        for e in game.events[read:]:
            follower.feed(e.json)
        read = len(game.events)
        assert follower.governments() == after
        k = changed_from(before, after)
        assert after[:k] == before[:k]
        assert k == len(after) or k >= len(before) or after[k] != before[k]
        before = after
    for seat in [None, *range(n)]:
        assert governments(game.view(seat).events) == before
    events = [e.json for e in game.events]
    assert [g.round for g in before] == [e.round for e in events if e.kind == "candidate"]
    claims = [e for e in events if e.kind == "claim"]
    filed = [c for g in before for c in g.claims]
    assert sorted(map(id, filed)) == sorted(map(id, claims))
    for g in before:
        for c in g.claims:
            if c.subject in ("president_hand", "chancellor_hand"):
                assert g.passed and c.seat in (g.president, g.chancellor)
            else:
                assert c.seat == g.president
        assert all(0 <= i < len(g.claims) for i in g.conflicts)


def test_a_government_with_its_vote_policy_power_and_claims() -> None:
    game = new_game(7, {"preset": "official", "start_track": {"fascist": 1}}, top="FFL FFL")
    fail(game, 1)  # round 1: candidate 0 nominates 1, all Nein
    govern(game, 3, F)  # round 2: 1 and 3 enact a fascist policy; slot 1: investigate
    game.apply(Action.investigate(1, 5))
    game.apply(Action.claim_policies(1, "president_hand", [F, F, L]))
    game.apply(Action.claim_policies(3, "chancellor_hand", [F, L]))
    first, second, third = governments(e.json for e in game.events)
    assert (first.round, first.president, first.chancellor, first.passed) == (1, 0, 1, False)
    assert (first.ja, first.nein, first.claims) == (0, 7, ())
    assert (second.president, second.chancellor, second.ja, second.passed) == (1, 3, 7, True)
    assert (second.policy, second.chaos, second.power) == (F, False, ("investigate", 5))
    assert [c.subject for c in second.claims] == ["president_hand", "chancellor_hand"]
    assert second.conflicts == ()  # one liberal of three, then of two: they fit
    assert (third.round, third.president, third.chancellor) == (3, 2, None)
    json = second.to_json()
    assert json["power"] == {"type": "investigate", "target": 5}
    assert [c["conflict"] for c in json["claims"]] == [False, False]
    assert json["claims"][0] == {
        "type": "claim",
        "seat": 1,
        "subject": "president_hand",
        "policies": [F, F, L],
        "conflict": False,
    }


def test_two_hand_claims_that_do_not_fit_are_both_marked() -> None:
    game = new_game(7, top="FFL")
    govern(game, 1, F)
    game.apply(Action.claim_policies(0, "president_hand", [F, F, L]))
    game.apply(Action.claim_policies(1, "chancellor_hand", [L, L]))  # two liberals of one
    (government, _next) = governments(e.json for e in game.events)
    assert government.conflicts == (0, 1)
    assert [c["conflict"] for c in government.to_json()["claims"]] == [True, True]


def test_a_claim_is_filed_under_the_last_government_its_claimant_sat_in() -> None:
    game = new_game(7, top="FFL LLF")
    govern(game, 1, F)  # round 1: 0 and 1
    nominate(game, 3)  # round 2: candidate 1, the last chancellor, names 3
    game.apply(Action.claim_policies(1, "chancellor_hand", [F, F]))  # during the vote
    vote_all(game, True)  # 1 and 3 elected
    first, second = governments(e.json for e in game.events)
    assert [c.seat for c in first.claims] == [1]
    assert (second.president, second.passed, second.claims) == (1, True, ())


@pytest.mark.parametrize(
    ("president", "chancellor", "enacted", "judged"),
    [
        ([F, F, L], [F, F], F, (False, False)),
        ([F, F, L], [F, L], L, (False, False)),
        ([F, F, L], [L, L], L, (True, True)),  # do not fit
        ([F, F, F], [F, F], L, (True, True)),  # fit, but neither holds the liberal enacted
        ([F, F, L], [F, F], L, (False, True)),  # the chancellor's two lack the liberal
        ([F, F, F], [F, F], None, (False, False)),  # chaos or a veto enacted nothing of it
        ([F, F, F], None, L, (True, False)),
        (None, [L, L], F, (False, True)),
        (None, None, F, (False, False)),
    ],
)
def test_hand_conflicts_judge_in_public(
    president: list[str] | None,
    chancellor: list[str] | None,
    enacted: str | None,
    judged: tuple[bool, bool],
) -> None:
    assert hand_conflicts(president, chancellor, enacted) == judged


def test_a_vetoed_government_whose_round_ends_in_chaos_enacted_nothing_its_hands_must_hold() -> (
    None
):
    rules = {"preset": "official", "start_track": {"liberal": 0, "fascist": 5}}
    game = new_game(7, rules, top="LLF LLF L")
    govern(game, 2, L)
    fail(game, 3)
    fail(game, 3)
    elect(game, 4)  # the third government in a row to enact nothing: it vetoes
    game.apply(Action.discard(3, L))
    game.apply(Action.veto(4))
    game.apply(Action.veto_response(3, True))  # chaos: the liberal on top
    game.apply(Action.claim_policies(3, "president_hand", [F, F, F]))
    game.apply(Action.claim_policies(4, "chancellor_hand", [F, F]))
    vetoed = governments(e.json for e in game.events)[3]
    assert (vetoed.president, vetoed.vetoed, vetoed.chaos, vetoed.policy) == (3, True, True, L)
    assert len(vetoed.claims) == 2 and vetoed.conflicts == ()


@pytest.mark.parametrize(("preset", "cleared"), [("official", True), ("summary-zh", False)])
def test_the_chaos_event_says_whether_it_lifted_the_term_limits(preset: str, cleared: bool) -> None:
    game = new_game(7, preset, top="LLL L")
    govern(game, 2, L)
    for _ in range(3):
        fail(game)
    (chaos,) = [e.json for e in game.events if e.type == "chaos"]
    assert chaos.term_limits_cleared is cleared is game.rules.chaos_clears_term_limits
