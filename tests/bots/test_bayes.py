"""The `bayes` bot: always legal, truthful as a liberal, fast enough for a table of 10."""

from __future__ import annotations

from typing import Any

import pytest

from secret_hitler.bots import make_agent
from secret_hitler.engine import Game
from secret_hitler.sim.simulator import Lineup, play_game


@pytest.mark.parametrize("players", [5, 6, 7, 8, 9, 10])
@pytest.mark.parametrize("lineup", [("bayes", "bayes"), ("bayes", "random"), ("random", "bayes")])
def test_bayes_plays_legal_games(players: int, lineup: tuple[str, str]) -> None:
    for i in range(6):
        result, game = play_game(players, Lineup(*lineup), seed=1000 * players + i)
        assert game.finished and result.winner in ("liberal", "fascist")


@pytest.mark.parametrize("players", [5, 7, 10])
def test_act_with_the_full_legal_list(players: int) -> None:
    """Server style: claims mixed into the legal actions; the answer is still legal."""
    for seed in range(5):
        game = Game(players, seed=seed)
        agents = [make_agent("bayes", s, seed) for s in range(players)]
        while not game.finished:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            action = agents[seat].act(game.view(seat), legal)
            assert action in legal
            game.apply(action)


def test_liberals_claim_the_truth() -> None:
    for seed in range(30):
        _, game = play_game(7, Lineup("bayes", "bayes"), seed=seed)
        drew: dict[int, list[str]] = {}
        last_session = None
        for e in game.events:
            if e.type == "legislative_session":
                last_session = (e.data["president"], e.data["chancellor"])
            elif e.type == "drew" and last_session:
                drew[last_session[0]] = sorted(e.data["policies"])
            elif e.type == "claim" and e.data["subject"] == "president_hand":
                seat = e.data["seat"]
                if game.roles[seat].value == "liberal":
                    assert sorted(e.data["policies"]) == drew[seat]


def test_registered() -> None:
    agent = make_agent("bayes", 3, 1)
    assert agent.name == "bayes"
    assert make_agent("bayes-human", 0, 1).name == "bayes-human"


def _sessions_with_claims(game: Game) -> list[dict[str, object]]:
    """Per legislative session: president, chancellor, enacted policy, both hand claims."""
    out: list[dict[str, object]] = []
    cur: dict[str, object] | None = None
    for e in game.events:
        if e.type == "legislative_session":
            cur = {"p": e.data["president"], "c": e.data["chancellor"], "order": []}
            out.append(cur)
        elif cur is not None and e.type == "enacted" and not e.data.get("chaos"):
            cur["enacted"] = e.data["policy"]
        elif (
            cur is not None
            and e.type == "claim"
            and e.data["subject"]
            in (
                "president_hand",
                "chancellor_hand",
            )
        ):
            libs = list(e.data["policies"]).count("liberal")
            key = "c3" if e.data["subject"] == "president_hand" else "c2"
            cur[key] = libs
            cur["order"].append(key)  # type: ignore[attr-defined]
        elif e.type == "nominated":
            cur = None
    return out


def _consistent(c3: int, c2: int) -> bool:
    return c2 in (c3, c3 - 1) or (c3 == 3 and c2 == 2)


def test_fascist_claims_agree_with_the_partner_when_they_can() -> None:
    """A fascist who claims second never contradicts the partner's claim or the enactment if a
    story exists that fits both."""
    checked = 0
    for seed in range(40):
        _, game = play_game(7, Lineup("bayes", "bayes"), seed=seed)
        roles = [r.value for r in game.roles]
        for s in _sessions_with_claims(game):
            if "c3" not in s or "c2" not in s or "enacted" not in s:
                continue
            second = s["order"][1]  # type: ignore[index]
            seat = s["c"] if second == "c2" else s["p"]
            if roles[seat] != "fascist":  # type: ignore[index]
                continue
            c3, c2, enacted = s["c3"], s["c2"], s["enacted"]
            if second == "c2":
                options = [
                    k
                    for k in range(3)
                    if _consistent(c3, k)  # type: ignore[arg-type]
                    and not (enacted == "fascist" and k == 2 or enacted == "liberal" and k == 0)
                ]
            else:
                options = [
                    k
                    for k in range(4)
                    if _consistent(k, c2)  # type: ignore[arg-type]
                    and not (enacted == "liberal" and k == 0 or enacted == "fascist" and k == 3)
                ]
            if options:
                checked += 1
                assert _consistent(c3, c2), (seed, s)  # type: ignore[arg-type]
    assert checked >= 20


def _hitler_suspicion_at_zone(seeds: range, naive: bool = False) -> float:
    """Mean public-eye P(Hitler) of the true Hitler when the third fascist policy lands
    (``naive``: the fascists back every government with a teammate instead)."""
    import random

    from secret_hitler.bots.bayes import BayesAgent
    from secret_hitler.bots.beliefs import HIT, Beliefs

    class NaiveVotes(BayesAgent):
        def _vote(self, view: Any, legal: Any) -> Any:
            p, c = view.candidate, view.nominee
            if self.seat in (p, c) or not self._informed_fascist(view):
                return super()._vote(view, legal)
            team = self._team(view)
            return next(a for a in legal if a.ja is (p in team or c in team))

    total, count = 0.0, 0
    for seed in seeds:
        game = Game(7, seed=seed)
        if naive:
            agents = [NaiveVotes(s, random.Random(100 * seed + s)) for s in range(7)]
        else:
            agents = [make_agent("bayes", s, 100 * seed + s) for s in range(7)]
        observer = Beliefs.for_view(game.view(0), public=True)
        hitler = [r.value for r in game.roles].index("hitler")
        while not game.finished:
            seat = game.to_act()[0]
            legal = [a for a in game.legal_actions(seat) if a.type != "claim"]
            game.apply(agents[seat].act(game.view(seat), legal))
            for s in range(7):
                opts = [a for a in game.legal_actions(s) if a.type == "claim"]
                if opts and not game.finished:
                    for a in agents[s].claims(game.view(s), opts):
                        game.apply(a)
            if game.fascist >= 3 and not game.finished:
                observer.update(game.view(0))
                total += float(observer.marginals()[hitler, HIT])
                count += 1
                break
    return total / max(count, 1)


def test_mimicking_votes_hide_hitler_better_than_team_votes() -> None:
    """Fascists who vote like a liberal reading the public record leave Hitler less suspect in
    the liberal eye than fascists who back every team government (the naive policy)."""

    seeds = range(60)
    mimic = _hitler_suspicion_at_zone(seeds)
    naive = _hitler_suspicion_at_zone(seeds, naive=True)
    assert mimic < naive, (mimic, naive)


def test_human_vote_model_features_and_level() -> None:
    """``bayes-human`` votes by the trees fitted to people; ``bayes`` does not."""
    import numpy as np

    from secret_hitler.bots.bayes import VOTE_FEATURES, human_vote_trees

    trees = human_vote_trees()
    assert trees.feature.shape == trees.threshold.shape
    assert trees.leaf.shape == (len(trees.feature), 2**trees.depth)
    assert trees.feature.min() >= 0 and trees.feature.max() < len(VOTE_FEATURES)
    assert make_agent("bayes", 0, 0).vote_model is None  # type: ignore[attr-defined]
    assert make_agent("bayes-human", 0, 0).vote_model is trees  # type: ignore[attr-defined]
    votes = 0
    for seed in range(3):
        game = Game(7, seed=seed)
        agents = [make_agent("bayes-human", s, seed) for s in range(7)]
        while not game.finished:
            seat = game.to_act()[0]
            legal = [a for a in game.legal_actions(seat) if a.type != "claim"]
            view = game.view(seat)
            if game.phase.value == "vote":
                x = agents[seat].vote_features(view)  # type: ignore[attr-defined]
                assert x.shape == (len(VOTE_FEATURES),) and np.isfinite(x).all()
                votes += 1
            action = agents[seat].act(view, legal)
            assert action in legal
            game.apply(action)
    assert votes > 0


def test_rule_eye_stories_stay_consistent() -> None:
    """Against rule liberals: a blind Hitler who forces FF from FFL claims FFF, and a fascist
    chancellor who enacts a fascist policy from a liberal president's FL claims FF."""
    forced = betrayed = 0
    for seed in range(40):
        _, game = play_game(7, Lineup("rule", "bayes"), seed=seed)
        roles = [r.value for r in game.roles]
        gov = None
        passed: list[str] = []
        enacted = None
        for e in game.events:
            d = e.data
            if e.type == "legislative_session":
                gov, passed, enacted = (d["president"], d["chancellor"]), [], None
            elif e.type == "passed":
                passed = sorted(d["policies"])
            elif e.type == "enacted" and not d.get("chaos"):
                enacted = d["policy"]
            elif e.type == "claim" and gov is not None and passed:
                p, c = gov
                libs = list(d.get("policies") or ()).count("liberal")
                if d["subject"] == "president_hand" and d["seat"] == p and roles[p] == "hitler":
                    if passed == ["fascist", "fascist"] and roles[c] == "liberal":
                        forced += 1
                        assert libs == 0
                if d["subject"] == "chancellor_hand" and d["seat"] == c and roles[c] == "fascist":
                    if roles[p] == "liberal" and "liberal" in passed and enacted == "fascist":
                        betrayed += 1
                        assert libs == 0
    assert forced and betrayed


@pytest.mark.parametrize(
    ("people", "reads_people"),
    [
        ([1, 0, 1, 1, 0, 0, 0], True),  # 3 of the 6 others
        ([0, 0, 1, 1, 1, 1, 1], True),
        ([1, 0, 1, 0, 0, 0, 0], False),  # 2 of 6
        ([0, 1, 0, 0, 0, 0, 0], False),  # only its own seat
    ],
)
def test_bayes_reads_with_the_people_model_when_people_hold_half_the_other_seats(
    people: list[int], reads_people: bool
) -> None:
    from secret_hitler.bots.beliefs import BOT_MODEL, HUMAN_MODEL

    agent = make_agent("bayes", 1, 0)
    agent.seated_with([bool(p) for p in people])
    assert agent.model is (HUMAN_MODEL if reads_people else BOT_MODEL)  # type: ignore[attr-defined]
    # the human-like level keeps its model, and one that has read the game keeps its own
    human = make_agent("bayes-human", 1, 0)
    human.seated_with([True] * 7)
    assert human.model is HUMAN_MODEL  # type: ignore[attr-defined]
    playing = make_agent("bayes", 1, 0)
    playing.posterior(Game(7, seed=3).view(1))  # type: ignore[attr-defined]
    playing.seated_with([True] * 7)
    assert playing.model is BOT_MODEL  # type: ignore[attr-defined]
