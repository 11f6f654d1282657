"""bayes and search play secrethitler.io's game types (issue 41 point 2; docs/bots.md "Game
types"): whole games legally at every table size, a posterior that holds exactly what the engine
showed the seat (Merlin's sight, Percival's pair, the Monarchist's teammates), and Hitler's
assassination by the posterior's P(Merlin)."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import permutations
from typing import Any

import numpy as np
import pytest
from bot_games import claims_after_a_step
from test_posterior_presets import _single_world_loglik

from secret_hitler.bots import make_agent
from secret_hitler.bots.base import play_out
from secret_hitler.bots.bayes import BayesAgent
from secret_hitler.bots.beliefs import BOT_MODEL, EYE_MODEL, FAS, HIT, LIB, ROLE_INDEX, Beliefs
from secret_hitler.bots.posterior import _normalize
from secret_hitler.engine import Game, Rules, View, game_from_record
from secret_hitler.engine.record import parse_record
from secret_hitler.engine.roles import night
from secret_hitler.engine.types import Phase, Role
from secret_hitler.sim import Lineup
from secret_hitler.sim.simulator import play_game

AVALON = {"preset": "secrethitler-io", "avalon": "merlin"}
PERCIVAL = {"preset": "secrethitler-io", "avalon": "percival"}
MONARCHIST = {"preset": "secrethitler-io", "monarchist": True}
BOTH = {"preset": "secrethitler-io", "avalon": "percival", "monarchist": True}
REBALANCED = {"preset": "secrethitler-io", "rebalanced": [6, 7, 9]}
#: The endings of an Avalon SH game that went through the assassination (a liberal trigger).
ASSASSINATION_ENDS = ("merlin_assassinated", "five_liberal_policies", "hitler_executed")
TYPES = {
    "avalon": AVALON,
    "percival": PERCIVAL,
    "monarchist": MONARCHIST,
    "both": BOTH,
    "rebalanced": REBALANCED,
}


def _tables() -> list[tuple[str, int]]:
    """Every (game type, table size) the engine allows."""
    out = []
    for name, rules in TYPES.items():
        for n in range(5, 11):
            try:
                Rules.from_json(rules).validate(n)
            except Exception:
                continue
            out.append((name, n))
    return out


def _play(rules: Any, n: int, seed: int, levels: list[str]) -> Game:
    """A whole game, each seat played by ``levels[seat % len(levels)]``: ``play_out`` checks
    every answer is one of the legal actions (``AgentError`` otherwise)."""
    game = Game(n, rules, seed=seed)
    agents = [make_agent(levels[s % len(levels)], s, seed * 100 + s) for s in range(n)]
    play_out(game, agents)
    return game


@pytest.mark.parametrize(("name", "n"), _tables())
def test_bayes_plays_every_game_type_at_every_table_size(name: str, n: int) -> None:
    """Four whole games each to their end: bayes in every seat, bayes beside rule, and
    bayes-human (the model fitted to people) beside rule."""
    lineups = (["bayes"], ["bayes"], ["bayes", "rule"], ["bayes-human", "rule"])
    for seed, levels in enumerate(lineups):
        game = _play(TYPES[name], n, seed, levels)
        assert game.finished and game.winner is not None


@pytest.mark.parametrize(
    ("name", "n", "seed"),
    [
        ("avalon", 5, 1),
        ("percival", 7, 2),
        ("monarchist", 6, 3),
        ("both", 7, 4),
        ("rebalanced", 9, 5),
    ],
)
def test_search_plays_the_game_types(name: str, n: int, seed: int) -> None:
    """search beside bayes (every other seat) plays whole games of each kind of game type."""
    game = _play(TYPES[name], n, seed, ["search", "bayes"])
    assert game.finished and game.winner is not None


def _after_night(rules: Any, n: int, seed: int) -> tuple[Game, list[Beliefs]]:
    game = Game(n, rules, seed=seed)
    out = []
    for s in range(n):
        b = Beliefs.for_view(game.view(s))
        b.update(game.view(s))
        out.append(b)
    return game, out


def _team(roles: Any) -> tuple[int, ...]:
    return tuple(ROLE_INDEX[r.value] for r in roles)


def _shown_worlds(game: Game, seat: int) -> set[tuple[int, ...]]:
    """By brute force over every deal of the rules' cards: the team-level worlds of the deals
    that give the seat its role and show it the night it saw (the engine's ``night``)."""
    view = game.view(seat)
    saw = next(
        ({k: v for k, v in e.items() if k != "type"} for e in view.events if e.kind == "night"),
        None,
    )
    cards = [r for r, k in game.rules.composition(game.n) for _ in range(k)]
    knows = game.rules.hitler_knows(game.n)
    out = set()
    for deal in set(permutations(cards)):
        if deal[seat] is not game.roles[seat]:
            continue
        if dict(night(deal, knows)).get(seat) == saw:
            out.add(_team(deal))
    return out


@pytest.mark.parametrize(
    ("rules", "n"),
    [
        (AVALON, 5),
        (AVALON, 7),
        (PERCIVAL, 5),
        (PERCIVAL, 7),
        (MONARCHIST, 6),
        (MONARCHIST, 7),
        (BOTH, 7),
    ],
)
def test_the_night_keeps_exactly_the_worlds_some_deal_shows(rules: Any, n: int) -> None:
    """Every seat's posterior after the deal keeps exactly the team-level worlds in which some
    deal of the rules' cards shows it what the engine showed it, by brute force over the deals
    (the Monarchist's teammates are never Hitler, Merlin's sight, Percival's pair)."""
    for seed in range(4):
        game, beliefs = _after_night(rules, n, seed)
        for s, b in enumerate(beliefs):
            kept = {tuple(int(x) for x in b.R[w]) for w in np.nonzero(np.isfinite(b.logw))[0]}
            assert kept == _shown_worlds(game, s), (seed, s, game.roles[s])


@pytest.mark.parametrize("n", [5, 7, 9, 10])
def test_merlin_reads_the_fascists_he_is_shown_as_the_truth(n: int) -> None:
    for seed in range(5):
        game, beliefs = _after_night(PERCIVAL if n != 9 else AVALON, n, seed)
        merlin = game.roles.index(Role.MERLIN)
        truth = [float(r.party.value == "fascist") for r in game.roles]
        assert beliefs[merlin].p_fascist_party() == pytest.approx(truth)


@pytest.mark.parametrize("n", [5, 6, 7, 8, 9, 10])
def test_percival_holds_exactly_one_fascist_in_his_pair(n: int) -> None:
    """Merlin and Morgana, in some order: exactly one of the two is a fascist (never Hitler),
    in every world Percival keeps, after the deal and after a game's worth of evidence."""
    for seed in range(3):
        game = Game(n, PERCIVAL, seed=seed)
        percival = game.roles.index(Role.PERCIVAL)
        agents = [make_agent("bayes", s, seed * 10 + s) for s in range(n)]
        b = Beliefs.for_view(game.view(percival))
        a, c = game.view(percival).merlin_candidates or (0, 0)
        for _ in range(40):
            if game.finished:
                break
            seat = game.to_act()[0]
            agents[seat].act(game.view(seat), game.legal_actions(seat))
            game.apply(agents[seat].act(game.view(seat), game.legal_actions(seat)))
            b.update(game.view(percival))
            probs = b.probs()
            one = ((b.R[:, a] == LIB) & (b.R[:, c] == FAS)) | (
                (b.R[:, a] == FAS) & (b.R[:, c] == LIB)
            )
            assert float(probs[one].sum()) == pytest.approx(1.0)
            assert b.marginals()[[a, c], HIT].sum() == pytest.approx(0.0)


def test_merlin_cover_does_not_read_his_sight() -> None:
    """The plain liberal Merlin passes for reads his role and nothing of his night."""
    game = Game(7, AVALON, seed=3)
    merlin = game.roles.index(Role.MERLIN)
    view = game.view(merlin)
    cover = Beliefs.for_view(view, sight=False)
    cover.update(view)
    plain = cover.p_fascist_party()
    assert plain[merlin] == 0.0
    others = [s for s in range(7) if s != merlin]
    assert all(0.0 < plain[s] < 1.0 for s in others)


def _played(rules: Any, n: int, seed: int, model: Any = None) -> Game:
    """A whole game of bayes bots (all reading with ``model`` if given)."""
    game = Game(n, rules, seed=seed)
    eye = EYE_MODEL if model is not None else None
    agents = [BayesAgent(s, random.Random(seed * 100 + s), model, eye) for s in range(n)]
    play_out(game, agents)
    return game


def _before_assassination(game: Game) -> Game | None:
    """The game replayed from its record to Hitler's assassination (None: it had none)."""
    record = game.to_record()
    actions = parse_record(record).actions
    if not actions or actions[-1].type != "assassinate":
        return None
    out = game_from_record(record, apply_actions=False)
    for action in actions[:-1]:
        out.apply(action)
    assert out.phase is Phase.ASSASSINATE
    return out


def test_the_assassin_names_the_likeliest_merlin() -> None:
    """At the assassination Hitler knows the liberal party exactly (his targets), and names
    the target with the highest P(Merlin); P(Merlin) is a distribution over his targets."""
    checked = 0
    for seed in range(40):
        game = _before_assassination(_played(PERCIVAL, 7, seed))
        if game is None:
            continue
        hitler = game.roles.index(Role.HITLER)
        view: View = game.view(hitler)
        legal = game.legal_actions(hitler)
        agent = BayesAgent(hitler, random.Random(seed))
        choice = agent.act(view, legal)
        assert agent.beliefs is not None
        p = agent.beliefs.p_merlin()
        targets = [a.target for a in legal]
        assert p.sum() == pytest.approx(1.0)
        assert p[[s for s in range(7) if s not in targets]].sum() == pytest.approx(0.0)
        assert p[choice.target] == pytest.approx(max(p[t] for t in targets))
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_a_sighted_merlin_is_found_more_often_than_at_random() -> None:
    """A Merlin who votes and nominates on his sight every time is found far more often than a
    seat drawn at random (1 in 3 at 5 players): the assassin reads his votes and nominations;
    the default Merlin, who votes and nominates as a plain liberal, is found less often."""
    sighted = replace(BOT_MODEL, merlin_sight=1.0, merlin_sight_zone=1.0)
    rates = []
    for model in (sighted, None):
        hits = shots = 0
        for seed in range(80):
            game = _played(AVALON, 5, seed, model)
            if game.reason is None or game.reason.value not in ASSASSINATION_ENDS:
                continue
            shots += 1
            hits += game.reason.value == "merlin_assassinated"
        assert shots >= 20
        rates.append(hits / shots)
    assert rates[0] > 1 / 3 + 0.15
    assert rates[1] < rates[0]


def test_the_monarchist_never_takes_a_teammate_for_hitler() -> None:
    """The Monarchist is never shown Hitler: the teammates he is shown are fascists, not
    Hitler, and Hitler is among the seats he was not shown."""
    for seed in range(6):
        game, beliefs = _after_night(MONARCHIST, 9, seed)
        m = game.roles.index(Role.MONARCHIST)
        night_event = next(e for e in game.view(m).events if e.kind == "night")
        shown = [int(k) for k in night_event.get("parties") or {}]
        marg = beliefs[m].marginals()
        assert shown and all(marg[s, FAS] == pytest.approx(1.0) for s in shown)
        assert marg[game.roles.index(Role.HITLER), HIT] > 0.0


def test_merlin_talks_mostly_as_the_liberal_he_passes_for() -> None:
    """Merlin's talk reads his sight only with ``merlin_talk_sight``: the fascist read he
    voices of each seat is that mix of his sight and his cover's, never his sight alone."""
    game = Game(7, PERCIVAL, seed=5)
    merlin = game.roles.index(Role.MERLIN)
    agent = BayesAgent(merlin, random.Random(1))
    view = game.view(merlin)
    agent.speak(view)
    assert agent.beliefs is not None and agent.cover is not None
    a = BOT_MODEL.merlin_talk_sight
    sight, cover = agent.beliefs.p_fascist_party(), agent.cover.p_fascist_party()
    said = agent.reading(view).suspicion
    assert said == pytest.approx(list(a * sight + (1 - a) * cover))
    # each read within ``a`` of the plain liberal's, far from his sight's certainty
    assert all(abs(said[s] - cover[s]) <= a + 1e-9 for s in range(7))
    assert max(abs(said[s] - sight[s]) for s in range(7)) > 0.3


@pytest.mark.parametrize("rules", [AVALON, PERCIVAL, MONARCHIST])
def test_talking_bots_play_the_game_types(rules: Any) -> None:
    """bayes bots that speak and listen play whole games of the game types."""
    for seed in range(2):
        result, game = play_game(7, Lineup("bayes", "bayes"), rules, seed, talk="listen")
        assert game.finished and result.talk is not None


@pytest.mark.parametrize(("rules", "n"), [(AVALON, 5), (PERCIVAL, 7), (MONARCHIST, 6), (BOTH, 7)])
def test_the_posterior_is_bayes_rule_world_by_world(rules: Any, n: int) -> None:
    """Along whole games (and Hitler's at the assassination where one comes), each seat's
    posterior equals Bayes' rule computed world by world: each world's weight from a posterior
    that holds that world only (``test_posterior_presets._single_world_loglik``), so the
    night's masks, the assassination's and the behaviour terms combine as one likelihood."""
    checked = 0
    for seed in range(2):
        game = Game(n, rules, seed=seed)
        agents = [make_agent("bayes", s, seed * 10 + s) for s in range(n)]
        beliefs = [Beliefs.for_view(game.view(s)) for s in range(n)]
        step = 0
        while not game.finished:
            seat = game.to_act()[0]
            legal = [a for a in game.legal_actions(seat) if a.type != "claim"]
            game.apply(agents[seat].act(game.view(seat), legal))
            claims_after_a_step(game, agents)
            step += 1
            assassinating = game.phase is Phase.ASSASSINATE
            if game.finished or (step % 11 and not assassinating):
                continue
            s = game.roles.index(Role.HITLER) if assassinating else (step // 11) % n
            view = game.view(s)
            b = beliefs[s]
            b.update(view)
            brute = np.array([_single_world_loglik(view, w, b.model) for w in b.R])
            assert np.allclose(_normalize(brute), b.probs(), atol=1e-9), (seed, s, game.roles[s])
            checked += 1
    assert checked >= 4
