"""The exact role posterior: normalisation, hard evidence, and dependence on the view alone."""

from __future__ import annotations

import random

import numpy as np
import pytest

from secret_hitler.bots.beliefs import FAS, HIT, LIB, Beliefs, hand_prior, worlds_matrix
from secret_hitler.engine import Action, Game


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
    }
    for f in fields(model):  # type: ignore[arg-type]
        if f.name not in skip:
            walk(getattr(model, f.name))
    return out


def test_bot_model_has_floors() -> None:
    """No fitted likelihood is 0 or 1: an action the other side can take never deletes a world."""
    from secret_hitler.bots.beliefs import BOT_MODEL, DEFAULT_MODEL, EYE_MODEL

    assert DEFAULT_MODEL is BOT_MODEL
    for model in (BOT_MODEL, EYE_MODEL):
        probs = _probabilities(model)
        assert probs and all(0.0 < p < 1.0 for p in probs)
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
                    assert beliefs.eligible == list(game.eligible_chancellors())
                    checked += 1
                seat = game.to_act()[0]
                options = [a for a in game.legal_actions(seat) if a.type != "claim"]
                game.apply(rng.choice(options))
    assert checked > 100
