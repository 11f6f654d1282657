"""The exact role posterior: normalisation, hard evidence, and dependence on the view alone."""

from __future__ import annotations

import random

import numpy as np
import pytest

from secret_hitler.bots.beliefs import FAS, HIT, LIB, Beliefs, hand_prior, worlds_matrix
from secret_hitler.bots.beliefs import TERMS as TERMS_
from secret_hitler.engine import Action, Game
from secret_hitler.engine.events import typed


def _play(game: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if game.finished:
            return
        seat = game.to_act()[0]
        game.apply(rng.choice(game.legal_actions(seat)))


@pytest.mark.parametrize(
    "players,worlds", [(5, 20), (6, 30), (7, 105), (8, 168), (9, 504), (10, 840)]
)
def test_world_count(players: int, worlds: int) -> None:
    fascists = {5: 1, 6: 1, 7: 2, 8: 2, 9: 3, 10: 3}[players]
    R = worlds_matrix(players, fascists)
    assert R.shape == (worlds, players)
    assert ((R == HIT).sum(axis=1) == 1).all()
    assert ((R == FAS).sum(axis=1) == fascists).all()


def test_hand_prior_is_hypergeometric() -> None:
    p = hand_prior(6, 11)
    assert sum(p) == pytest.approx(1)
    assert p[0] == pytest.approx(11 * 10 * 9 / (17 * 16 * 15))
    assert hand_prior(0, 5)[0] == pytest.approx(1)


@pytest.mark.parametrize("players", [5, 7, 10])
def test_posterior_sums_to_one_and_keeps_the_truth(players: int) -> None:
    rng = random.Random(players)
    for seed in range(4):
        game = Game(players, seed=seed)
        beliefs = [Beliefs.for_view(game.view(s)) for s in range(players)]
        while not game.finished:
            _play(game, rng, 1)
            if game.finished:
                break
            truth = [r.value for r in game.roles]
            for s, b in enumerate(beliefs):
                b.update(game.view(s))
                p = b.probs()
                assert p.sum() == pytest.approx(1)
                assert (p >= 0).all()
                assert np.isfinite(b.logw[b.world_index(truth)])  # hard evidence is never wrong


def test_own_role_and_night_knowledge() -> None:
    game = Game(7, seed=3)
    for s in range(7):
        b = Beliefs.for_view(game.view(s))
        b.update(game.view(s))
        role = game.roles[s].value
        m = b.marginals()
        assert m[s, {"liberal": LIB, "fascist": FAS, "hitler": HIT}[role]] == pytest.approx(1)
        if role == "fascist":  # N1: a fascist knows everything
            assert b.possible() == 1
        elif role == "liberal":
            assert b.possible() == 60
        else:  # Hitler at 7 players knows nobody
            assert b.possible() == 15


def test_own_investigation_is_hard_evidence() -> None:
    rng = random.Random(0)
    for seed in range(200):
        game = Game(7, seed=seed)
        while not game.finished and game.phase.value != "investigate":
            _play(game, rng, 1)
        if game.finished:
            continue
        pres = game.to_act()[0]
        target = game.power_targets[0]
        game.apply(Action.investigate(pres, target))
        b = Beliefs.for_view(game.view(pres))
        b.update(game.view(pres))
        bad = b.p_fascist_party()[target]
        assert bad == pytest.approx(1.0 if game.roles[target].value != "liberal" else 0.0)
        # The public does not know the result.
        pub = Beliefs.for_view(game.view(pres), public=True)
        pub.update(game.view(pres))
        assert 0 < pub.p_fascist_party()[target] < 1
        return
    pytest.fail("no investigation reached")


def test_not_hitler_confirmation_zeroes_hitler() -> None:
    rng = random.Random(1)
    for seed in range(300):
        game = Game(7, seed=seed)
        while not game.finished and not game.not_hitler:
            _play(game, rng, 1)
        if game.finished:
            continue
        seat = next(iter(game.not_hitler))
        liberal = game.roles.index(next(r for r in game.roles if r.value == "liberal"))
        b = Beliefs.for_view(game.view(liberal))
        b.update(game.view(liberal))
        assert b.marginals()[seat, HIT] == 0
        return
    pytest.fail("no Hitler-zone election reached")


def test_posterior_depends_only_on_the_view() -> None:
    """Two games that differ in hidden roles only: the same view gives the same posterior."""
    roles_a = ["liberal", "hitler", "fascist", "fascist", "liberal", "liberal", "liberal"]
    roles_b = ["liberal", "liberal", "liberal", "fascist", "hitler", "fascist", "liberal"]
    a = Game(7, seed=9, roles=roles_a, first_president=0)
    b = Game(7, seed=9, roles=roles_b, first_president=0)
    rng = random.Random(5)
    compared = 0
    for _ in range(60):
        if a.finished or b.finished or a.phase != b.phase:
            break
        seat = a.to_act()[0]
        legal = [x for x in a.legal_actions(seat) if b.is_legal(x) and x.type != "claim"]
        if not legal:
            break
        action = rng.choice(legal)
        a.apply(action)
        b.apply(action)
        va, vb = a.view(0), b.view(0)
        if va.events != vb.events:
            break
        pa, pb = Beliefs.for_view(va), Beliefs.for_view(vb)
        pa.update(va)
        pb.update(vb)
        assert np.allclose(pa.probs(), pb.probs())
        compared += 1
    assert compared >= 5


def test_public_beliefs_ignore_private_events() -> None:
    rng = random.Random(2)
    game = Game(7, seed=11)
    _play(game, rng, 40)
    posts = []
    for s in range(7):
        b = Beliefs.for_view(game.view(s), public=True)
        b.update(game.view(s))
        posts.append(b.probs())
    for p in posts[1:]:
        assert np.allclose(p, posts[0])


def _probabilities(model: object) -> list[float]:
    """Every behaviour probability of a model (nested tuples flattened)."""
    from dataclasses import fields

    out: list[float] = []

    def walk(v: object) -> None:
        if isinstance(v, tuple):
            for x in v:
                walk(x)
        elif isinstance(v, float):
            out.append(v)

    skip = {
        "nominate_fascist",
        "nominate_fascist_zone",
        "execute_fascist",
        "special_fascist",
        "temper",  # a weight, not a probability
        "weights",  # the same, one per term
        # mixture weights of a fascist's claim: each may be 0, the uniform rest never is
        "cover_lie",
        "cover_truth",
        "cover_lie_chancellor",
        "cover_truth_chancellor",
        # Merlin's shares of decisions on his sight: each may be 0 or 1, the rates they mix
        # (``liberal_*``, ``sighted_*``) never are
        "merlin_sight",
        "merlin_sight_zone",
        "merlin_sight_powers",
        "merlin_talk_sight",
    }
    for f in fields(model):  # type: ignore[arg-type]
        if f.name not in skip:
            walk(getattr(model, f.name))
    return out


def test_bot_model_has_floors() -> None:
    """No fitted likelihood is 0 or 1: an action the other side can take never deletes a world."""
    from secret_hitler.bots.beliefs import BOT_MODEL, DEFAULT_MODEL, EYE_MODEL, SEARCH_MODEL

    assert DEFAULT_MODEL is BOT_MODEL
    for model in (BOT_MODEL, EYE_MODEL, SEARCH_MODEL):
        probs = _probabilities(model)
        assert probs and all(0.0 < p < 1.0 for p in probs)
        for lie, truth in (
            (model.cover_lie, model.cover_truth),
            (model.cover_lie_chancellor, model.cover_truth_chancellor),
        ):
            assert lie is not None and truth is not None
            assert lie >= 0 and truth >= 0 and lie + truth < 1  # any claim keeps a chance
        for w in (*model.nominate_fascist, *model.nominate_fascist_zone, *model.execute_fascist):
            assert w > 0
        for players in (5, 7, 10):
            b = Beliefs(players, {5: 1, 7: 2, 10: 3}[players], 0, model=model)
            for no, yes in b._vote_logs.values():
                assert np.isfinite(no).all() and np.isfinite(yes).all()


def test_relative_votes_ignore_liberal_voters() -> None:
    """With ``vote_relative`` a liberal's vote is the same constant whatever the government."""
    from secret_hitler.bots.beliefs import BOT_MODEL

    b = Beliefs(7, 2, 0, model=BOT_MODEL)
    for no, yes in b._vote_logs.values():
        assert np.allclose(yes[LIB], yes[LIB, 0, 0]) and np.allclose(no[LIB], no[LIB, 0, 0])
    # Fascists backing Hitler in the Hitler zone is evidence; so is a fascist backing a clean
    # government once 4 liberal policies are down (they refuse those).
    zone_no, zone_yes = b._vote_logs[1]
    assert zone_yes[FAS, FAS, HIT] > zone_yes[LIB, FAS, HIT]
    late_no, late_yes = b._vote_logs[2]
    assert late_yes[FAS, LIB, LIB] < late_yes[LIB, LIB, LIB]


def test_bad_pass_depends_on_the_hand() -> None:
    """A bot fascist forces FF from FFL but passes LL from FLL (``bad_pass_hand``)."""
    from secret_hitler.bots.beliefs import BOT_MODEL, FAS, LIB

    assert BOT_MODEL.bad_pass_hand is not None
    ffl, fll = BOT_MODEL.bad_pass_hand[FAS][LIB]
    assert ffl > 0.5 > fll > 0


def test_temper_scales_behaviour_but_not_hard_evidence() -> None:
    from dataclasses import replace

    from secret_hitler.bots.beliefs import BOT_MODEL

    rng = random.Random(4)
    game = Game(7, seed=4)
    _play(game, rng, 60)
    seat = next(s for s, r in enumerate(game.roles) if r.value == "liberal")
    full = Beliefs.for_view(game.view(seat), model=replace(BOT_MODEL, temper=1.0))
    half = Beliefs.for_view(game.view(seat), model=replace(BOT_MODEL, temper=0.5))
    full.update(game.view(seat))
    half.update(game.view(seat))
    assert full.possible() == half.possible()  # the same worlds are ruled out
    live = np.isfinite(full.logw)
    spread = lambda lw: float(lw[live].max() - lw[live].min())  # noqa: E731
    assert spread(half.logw) == pytest.approx(0.5 * spread(full.logw))


@pytest.mark.parametrize("preset", ["official", "tabletop-tw", "forum", "summary-zh"])
def test_beliefs_know_the_engines_chancellor_candidates_under_every_term_limit_rule(preset):
    """The posterior's nomination model weighs exactly the seats the engine allows."""
    rng = random.Random(preset)
    checked = 0
    for n in (5, 7, 10):
        for seed in range(6):
            game = Game(n, preset, seed)
            beliefs = Beliefs.for_view(game.view(0))
            while not game.finished:
                if game.phase.value == "nominate":
                    beliefs.update(game.view(0))
                    assert beliefs.table.eligible == game.eligible_chancellors()
                    checked += 1
                seat = game.to_act()[0]
                options = [a for a in game.legal_actions(seat) if a.type != "claim"]
                game.apply(rng.choice(options))
    assert checked > 100


# ---------------------------------------------------------------- people's terms (HUMAN_MODEL)


class _Events:
    """A stand-in view: ``Beliefs.update`` reads only its events."""

    def __init__(self, events: list[dict]) -> None:
        self.events = [typed(e) for e in events]  # as a view holds them: typed events


def _human(
    events: list[dict], seat: int = 0, fascist_policies: int = 0, **changes: object
) -> Beliefs:
    """A liberal seat's HUMAN_MODEL beliefs (``changes`` to the model) after ``events``."""
    from dataclasses import replace

    from secret_hitler.bots.beliefs import HUMAN_MODEL

    b = Beliefs(7, 2, seat, hitler_knows=False, model=replace(HUMAN_MODEL, **changes))
    start = [{"type": "role", "seat": seat, "role": "liberal"}]
    if fascist_policies:
        start.append(
            {
                "type": "enacted",
                "policy": "fascist",
                "chaos": False,
                "liberal_policies": 0,
                "fascist_policies": fascist_policies,
            }
        )
    b.update(_Events(start + events))
    return b


def _fascist_party(b: Beliefs, seat: int) -> float:
    return float(b.p_fascist_party()[seat])


def test_human_model_terms_are_on_floored_and_weighted_one_by_one() -> None:
    """HUMAN_MODEL reads what people do that the bots' model leaves out; BOT_MODEL does not
    (the bayes level plays the same games as before)."""
    from secret_hitler.bots.beliefs import BOT_MODEL, HUMAN_MODEL

    assert HUMAN_MODEL.weights is not None
    assert {k for k, _ in HUMAN_MODEL.weights} == set(TERMS_)
    assert all(0 < w < 2 for _, w in HUMAN_MODEL.weights)
    for table in (HUMAN_MODEL.nominate_by_role, HUMAN_MODEL.execute_by_role):
        assert table is not None and min(np.ravel(table)) > 0
    votes = np.ravel(HUMAN_MODEL.candidate_vote)
    assert 0 < votes.min() <= votes.max() < 1
    assert HUMAN_MODEL.eps_claim is not None and HUMAN_MODEL.eps_claim > BOT_MODEL.eps
    for name in ("nominate_by_role", "execute_by_role", "investigate_by_role", "candidate_vote"):
        assert getattr(BOT_MODEL, name) is None, name
    assert BOT_MODEL.weights is None and not BOT_MODEL.liberal_votes


def test_people_shoot_across_the_teams() -> None:
    """People's presidents of every role pick targets by role (``execute_by_role``): liberals
    shoot fascists more than chance and fascists spare teammates, so after an execution the
    president and the target are likelier on opposite teams; one's own pick says nothing to
    oneself."""

    def same_team(b: Beliefs) -> float:
        party = b.R != LIB
        return float(b.probs()[party[:, 1] == party[:, 3]].sum())

    before = _human([{"type": "not_hitler", "seat": 3}])  # the game went on: not Hitler
    shot = _human([{"type": "executed", "president": 1, "target": 3}])
    assert same_team(shot) < same_team(before) - 0.05
    own = _human([{"type": "executed", "president": 0, "target": 3}])
    assert np.allclose(own.probs(), before.probs())


def test_a_candidate_refusing_his_own_government_is_a_vote_against_his_partner() -> None:
    """In the Hitler zone a liberal chancellor often votes down a fascist president's
    government (``candidate_vote``); the weight of each term scales that term only."""
    events = [
        {"type": "candidate", "seat": 1, "round": 1, "eligible": [2, 3, 4, 5, 6]},
        {"type": "nominated", "president": 1, "chancellor": 2},
        {
            "type": "votes",
            "votes": [True, True, False, True, True, True, True],
            "ja": 6,
            "nein": 1,
            "passed": True,
        },
    ]
    before = _fascist_party(_human([], fascist_policies=3), 1)
    assert _fascist_party(_human(events, fascist_policies=3), 1) > before
    only = tuple((t, float(t == "candidate_votes")) for t in TERMS_)
    assert _fascist_party(_human(events, fascist_policies=3, weights=only), 1) > before
    nothing = tuple((t, 0.0) for t in TERMS_)
    after = _human(events, fascist_policies=3, weights=nothing)
    assert _fascist_party(after, 1) == pytest.approx(before)


def test_liberal_claim_error_makes_a_conflict_less_damning() -> None:
    """People's liberals get a claim wrong 7% of the time (``eps_claim``): a president whose
    claim contradicts what this chancellor received is suspect, less so than if liberals never
    erred."""
    from secret_hitler.bots.beliefs import HUMAN_MODEL

    session = [
        {
            "type": "legislative_session",
            "president": 1,
            "chancellor": 2,
            "veto": False,
            "draw_pile": 14,
        },
        {"type": "received", "policies": ["fascist", "fascist"]},
        {
            "type": "enacted",
            "policy": "fascist",
            "chaos": False,
            "liberal_policies": 0,
            "fascist_policies": 1,
        },
        {
            "type": "claim",
            "subject": "president_hand",
            "seat": 1,
            "policies": ["liberal", "fascist", "fascist"],
        },
    ]
    prior = _fascist_party(_human([], seat=2), 1)
    people = _fascist_party(_human(session, seat=2, eps_claim=HUMAN_MODEL.eps_claim), 1)
    strict = _fascist_party(_human(session, seat=2, eps_claim=0.03), 1)
    assert prior < people < strict


def test_two_executions_read_in_one_update_both_clear_their_seat() -> None:
    """A belief that reads two executions in one update (the game going on after each) ends
    where one updated after every action does: each rules its seat out as Hitler, not only the
    last one read."""
    from secret_hitler.sim.simulator import Lineup, play_game

    for seed in range(400):
        _, game = play_game(5, Lineup("rule", "rule"), seed=seed)
        replay = Game(5, "official", seed)
        for action in game.actions:
            replay.apply(action)
            view = replay.view(None)
            shot = [e["target"] for e in view.events if e["type"] == "executed"]
            if len(shot) == 2 and not replay.finished and view.events[-1]["type"] != "executed":
                break  # the game went on after the second execution
        else:
            continue
        if shot[0] not in view.not_hitler:  # only its execution clears the first seat
            break
    else:
        raise AssertionError("no such game among 400 seeds")
    seat = next(s for s in range(5) if s not in shot and replay.roles[s].value == "liberal")
    stepwise = Game(5, "official", seed)
    step = Beliefs.for_view(stepwise.view(seat))
    for action in replay.actions:
        stepwise.apply(action)
        step.update(stepwise.view(seat))
    whole = Beliefs.for_view(replay.view(seat))
    whole.update(replay.view(seat))
    assert np.array_equal(np.isfinite(whole.logw), np.isfinite(step.logw))
    for target in shot:
        assert not np.isfinite(whole.logw[whole.R[:, target] == HIT]).any()


def test_beliefs_of_a_table_share_read_only_tables_and_a_bounded_memo() -> None:
    """Every ``Beliefs`` of one table size and model shares the same tables (a search makes
    thousands), no holder can change them, and the memo of terms stays bounded in a server
    that lives for weeks."""
    from secret_hitler.bots import beliefs as B

    a, b = Beliefs(7, 2, 0), Beliefs(7, 2, 3)
    assert a._memo is b._memo and a._onehot is b._onehot
    assert Beliefs(8, 2, 0)._memo is not a._memo
    no, yes = a._vote_logs[1]
    with pytest.raises(ValueError):
        yes[0, 0, 0] = 0.0
    memo = a._memo
    for i in range(B.MEMO_SIZE + 10):
        B._remember(memo, ("test", i), np.zeros(3))
    assert 0 < len(memo) <= B.MEMO_SIZE
    with pytest.raises(ValueError):
        memo["test", B.MEMO_SIZE + 9][0] = 1.0
    memo.clear()


def test_a_hand_claim_made_after_the_next_nomination_is_read() -> None:
    """The engine keeps a session's claim window open until the next session begins; a
    president who claims only while the next government is being voted on is still read as
    that session's claim (a person at a table often claims that late)."""
    checked = changed = 0
    for seed in range(40):
        game = Game(7, "official", seed)
        rng = random.Random(seed)
        while not game.finished and not (
            game.phase.value == "vote"
            and any("president_hand" in game.open_claims(s) for s in game.claimants())
        ):
            seat = game.to_act()[0]
            game.apply(rng.choice([a for a in game.legal_actions(seat) if a.type != "claim"]))
        if game.finished:
            continue
        president = next(s for s in game.claimants() if "president_hand" in game.open_claims(s))
        liberals = [s for s in range(7) if s != president and game.roles[s].value == "liberal"]
        watcher = liberals[0]  # knows no role but its own: a claim moves its belief
        silent = Beliefs.for_view(game.view(watcher))
        silent.update(game.view(watcher))
        claim = next(
            a
            for a in game.legal_actions(president)
            if a.type == "claim" and a.subject == "president_hand"
        )
        game.apply(claim)
        heard = Beliefs.for_view(game.view(watcher))
        heard.update(game.view(watcher))
        assert heard.session is not None and heard.session.president == president
        assert heard.session.c3 == [p.value for p in claim.policies or ()].count("liberal")
        changed += not np.allclose(heard.probs(), silent.probs())
        checked += 1
    assert checked >= 10 and changed >= checked // 2
