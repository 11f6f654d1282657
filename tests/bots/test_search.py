"""The `search` bot: sampled worlds reproduce the seat's view, decisions are legal, seeded,
within their rollout budget, and depend on the seat's view only."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_view_isolation import Checker, Recorder, Replayer, Spy, _Diverged, _swap_two_hidden_roles

from secret_hitler.bots import Agent, make_agent
from secret_hitler.bots.beliefs import BOT_MODEL, ROLE_NAMES, SEARCH_MODEL
from secret_hitler.bots.search import (
    SEARCHED,
    SIDES,
    SearchAgent,
    Tuning,
    _side,
    _Tally,
)
from secret_hitler.engine import PRESETS, Action, Game, View
from secret_hitler.engine import actions as A
from secret_hitler.engine.types import Role
from secret_hitler.engine.worlds import WorldError, sample_world
from secret_hitler.sim.simulator import run_game

#: Search at every decision with a real choice (not only in the endgame), on a tiny budget.
EVERYWHERE = Tuning(
    rollouts=2, max_candidates=2, from_fascist=0, from_liberal=0, from_tracker=0,
    vote_band=(0.0, 1.0), votes_in_zone_only=False,
)  # fmt: skip
#: What the seat's world must show exactly as the real game does (votes aside: the other
#: voters' hidden ballots are left to the rollouts).
SAME = (
    "phase", "round", "role", "party", "alive", "candidate", "nominee", "president",
    "chancellor", "term_limited", "eligible", "liberal_policies", "fascist_policies",
    "election_tracker", "draw_pile", "discard_pile", "hand", "veto_available", "veto_refused",
    "power", "pending_power", "investigated", "not_hitler", "investigations", "open_claims",
)  # fmt: skip


class Probe(Agent):
    """Plays like ``inner`` and, at every decision, builds worlds from the seat's view."""

    def __init__(self, inner: Agent, game: Game, rng: random.Random) -> None:
        super().__init__(inner.seat, inner.rng)
        self.inner, self.game, self.sample_rng = inner, game, rng
        self.built = 0
        self.failed = 0
        self.calls = 0

    def _probe(self, view: View) -> None:
        self.calls += 1
        if self.calls % 3:  # every third decision of the seat: enough moments, a third the time
            return
        true_roles = [r.value for r in self.game.roles]
        for _ in range(2):
            try:
                world = sample_world(view, true_roles, self.sample_rng)
            except WorldError:  # an unlucky deck sample (the search resamples)
                self.failed += 1
                continue
            mine = world.view(self.seat)
            for field in SAME:
                assert getattr(mine, field) == getattr(view, field), field
            assert world.legal_actions(self.seat) == self.game.legal_actions(self.seat)
            self.built += 1

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        self._probe(view)
        return self.inner.act(view, legal)

    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        return self.inner.claims(view, options)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_sampled_worlds_reproduce_the_seat_view(preset: str) -> None:
    """With the true roles, every world replays to the seat's moment: same public state, same
    hand, investigations and legal actions (the deck and hidden discards are sampled)."""
    built = failed = 0
    for players in range(5, 11):
        game = Game(players, preset, seed=players)
        rng = random.Random(players)
        agents: list[Agent] = [
            Probe(make_agent("bayes", s, 100 * players + s), game, rng) for s in range(players)
        ]
        run_game(game, agents)
        built += sum(a.built for a in agents)  # type: ignore[attr-defined]
        failed += sum(a.failed for a in agents)  # type: ignore[attr-defined]
    assert built > 300
    assert failed <= 0.1 * (built + failed)


def _searching_game(
    players: int, preset: str, seed: int, seat_role: Role
) -> tuple[Game, SearchAgent]:
    game = Game(players, preset, seed)
    seat = next(s for s, r in enumerate(game.roles) if r is seat_role)
    agents: list[Agent] = [make_agent("bayes", s, seed + s) for s in range(players)]
    search = SearchAgent(seat, random.Random(seed), EVERYWHERE)
    agents[seat] = Legal(search, game)
    run_game(game, agents)
    return game, search


class Legal(Agent):
    """Checks that every decision is one of the actions offered, within the budget, and keeps
    the rollouts spent on each."""

    def __init__(self, inner: SearchAgent, game: Game) -> None:
        super().__init__(inner.seat, inner.rng)
        self.inner, self.game = inner, game
        self.spent: list[int] = []

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        before = self.inner.rollouts_done
        action = self.inner.act(view, legal)
        assert action in legal and action.type != A.CLAIM
        spent = self.inner.rollouts_done - before
        assert spent <= self.inner.tuning.rollouts
        assert spent == 0 or (len(legal) > 1 and view.phase in SEARCHED)
        self.spent.append(spent)
        return action

    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        made = self.inner.claims(view, options)
        assert all(c in options for c in made)
        return made


@pytest.mark.parametrize("players", [5, 6, 7, 8, 9, 10])
def test_search_plays_legal_games(players: int) -> None:
    presets = sorted(PRESETS)
    phases: set[str] = set()
    for i, role in enumerate((Role.LIBERAL, Role.FASCIST, Role.HITLER)):
        preset = presets[(players + i) % len(presets)]
        game, search = _searching_game(players, preset, 10 * players + i, role)
        assert game.finished
        assert search.rollouts_done > 0
        phases |= search.phases_searched
    assert {"nominate", "vote"} <= phases


def test_every_searched_phase_is_reached() -> None:
    # Every searched phase but the veto response (a veto at 5 fascist policies is rare here).
    wanted = {"nominate", "vote", "discard", "enact", "investigate", "special_election", "execute"}
    phases: set[str] = set()
    for seed in range(40):  # until every phase was searched (a dozen games or so)
        role = (Role.LIBERAL, Role.FASCIST)[seed % 2]
        _, search = _searching_game(7, "official", seed, role)
        phases |= search.phases_searched
        if phases >= wanted:
            break
    assert phases == wanted


def test_same_seed_same_decisions() -> None:
    def decisions() -> list[Action]:
        game = Game(7, "official", 5)
        seat = next(s for s, r in enumerate(game.roles) if r is Role.LIBERAL)
        agents: list[Agent] = [make_agent("bayes", s, 50 + s) for s in range(7)]
        spy = Spy(SearchAgent(seat, random.Random(3), EVERYWHERE))
        agents[seat] = spy
        run_game(game, agents)
        assert spy.inner.rollouts_done > 0  # type: ignore[attr-defined]
        return [entry[3] for entry in spy.log]

    assert decisions() == decisions()


class Count(Agent):
    """Records how many rollouts each decision with a choice planned (played or given up)."""

    def __init__(self, search: SearchAgent) -> None:
        super().__init__(search.seat, search.rng)
        self.search = search
        self.spent: list[int] = []
        self.played: list[Action] = []

    def _planned(self) -> int:
        return self.search.rollouts_done + 2 * self.search.worlds_lost  # 2 candidates

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        before = self._planned()
        action = self.search.act(view, legal)
        if len(legal) > 1:
            self.spent.append(self._planned() - before)
        self.played.append(action)
        return action

    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        return self.search.claims(view, options)


def _full_budget(tallies: Sequence[_Tally], margin: float) -> int | None:
    """``_Tally.settled`` without the early stop: settled only once every world is in."""
    if all(t.left == 0 for t in tallies):
        return _Tally.decision(tallies, margin)
    return None


def _counted_game(tuning: Tuning, seed: int) -> Count:
    game = Game(7, "official", seed)
    seat = next(s for s, r in enumerate(game.roles) if r is Role.LIBERAL)
    counter = Count(SearchAgent(seat, random.Random(1), tuning))
    agents: list[Agent] = [make_agent("bayes", s, s) for s in range(7)]
    agents[seat] = counter
    run_game(game, agents)
    return counter


def test_the_budget_caps_the_rollouts_and_stopping_early_changes_no_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Played to the whole budget, each searched decision plays exactly rollouts // candidates
    worlds per candidate. The search stops once the worlds left cannot change the decision: the
    same game, action for action, with fewer rollouts."""
    for budget, margin in ((2, 0.5), (6, 0.5), (12, 0.25)):
        tuning = Tuning(
            rollouts=budget, max_candidates=2, margin=margin, from_fascist=0, from_liberal=0,
            from_tracker=0, vote_band=(0.0, 1.0), votes_in_zone_only=False,
        )  # fmt: skip
        early = _counted_game(tuning, 11)
        with monkeypatch.context() as patch:
            patch.setattr(_Tally, "settled", staticmethod(_full_budget))
            full = _counted_game(tuning, 11)
        assert full.spent and set(full.spent) == {budget}
        assert early.played == full.played
        assert all(0 < e <= budget for e in early.spent)
        if budget > 2:
            assert sum(early.spent) < sum(full.spent)


@pytest.mark.parametrize(
    ("players", "preset", "seed"),
    [(5, "forum", 100), (6, "kickstarter", 110), (10, "summary-zh", 140)],
)
def test_search_tables_with_the_default_knobs_play_the_same_without_the_early_stop(
    players: int, preset: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every seat a ``search`` agent with its side's default knobs, other sizes and presets: the
    same game, action for action, with fewer rollouts."""

    def play() -> tuple[list[Action], int]:
        game = Game(players, preset, seed)
        agents = [SearchAgent(s, random.Random(seed * 31 + s)) for s in range(players)]
        run_game(game, list(agents))
        return list(game.actions), sum(a.rollouts_done for a in agents)

    early, early_rollouts = play()
    with monkeypatch.context() as patch:
        patch.setattr(_Tally, "settled", staticmethod(_full_budget))
        full, full_rollouts = play()
    assert early == full
    assert 0 < early_rollouts < full_rollouts


outcome = st.one_of(st.none(), st.lists(st.sampled_from([0.0, 1.0]), min_size=3, max_size=3))


@settings(max_examples=400, deadline=None)
@given(
    shares=st.sampled_from([(1.0,), (0.5, 0.5), (0.9, 0.1), (0.3, 0.7), (0.02, 0.98)]),
    counts=st.tuples(st.integers(1, 9), st.integers(1, 9)),
    candidates=st.sampled_from([2, 3]),
    margin=st.sampled_from([0.0, 0.1, 0.25, 0.5, 1.0]),
    worlds=st.lists(outcome, min_size=18, max_size=18),
)
def test_a_settled_search_is_the_decision_of_every_world(
    shares: tuple[float, ...],
    counts: tuple[int, int],
    candidates: int,
    margin: float,
    worlds: list[list[float] | None],
) -> None:
    """``_Tally.settled`` names a decision only when every outcome of the worlds left ends in it
    (any wins, lost worlds, strata without a world)."""
    tallies = [_Tally(s, c, candidates) for s, c in zip(shares, counts[: len(shares)], strict=True)]
    feed = iter(worlds)
    steps: list[tuple[int, int | None]] = []  # (worlds in, settled decision)
    played = 0
    for tally in tallies:
        for _ in range(tally.left):
            wins = next(feed)
            tally.add(None if wins is None else wins[:candidates])
            played += 1
            steps.append((played, _Tally.settled(tallies, margin)))
    final = _Tally.decision(tallies, margin)
    assert steps[-1][1] == final
    for _, settled in steps:
        assert settled is None or settled == final


def test_decisions_depend_only_on_the_view() -> None:
    """Two games whose hidden roles differ where the searching liberal cannot see: its views
    and its decisions are the same until its views differ."""
    compared = 0
    for seed in range(4):
        first = Game(7, "official", seed)
        seat = next(s for s, r in enumerate(first.roles) if r is Role.LIBERAL)
        agents: list[Agent] = [Recorder(make_agent("bayes", s, 1000 + s)) for s in range(7)]
        spy_a = Spy(SearchAgent(seat, random.Random(99), EVERYWHERE))
        agents[seat] = spy_a
        run_game(first, agents)

        roles, swapped = _swap_two_hidden_roles(first.roles, seat)
        second = Game(7, "official", seed, roles=roles)
        spy_b = Checker(SearchAgent(seat, random.Random(99), EVERYWHERE), spy_a.log, swapped)
        replay: list[Agent] = [
            spy_b if s == seat else Replayer(s, agents[s].answers)  # type: ignore[attr-defined]
            for s in range(7)
        ]
        try:
            run_game(second, replay)
        except _Diverged:
            pass
        compared += spy_b.compared
        assert spy_b.inner.rollouts_done > 0  # type: ignore[attr-defined]
    assert compared > 60


def test_registered_and_forced_decisions_are_immediate() -> None:
    agent = make_agent("search", 2, seed=1)
    assert isinstance(agent, SearchAgent)
    game = Game(7, "official", 1)
    seat = game.to_act()[0]
    legal = game.legal_actions(seat)[:1]
    search = SearchAgent(seat, random.Random(0), EVERYWHERE)
    assert search.act(game.view(seat), legal) == legal[0]
    assert search.rollouts_done == 0


def test_without_an_override_it_plays_the_bayes_game() -> None:
    """The bayes part draws on the agent's own random source and the search on another, so a
    search that never overrides plays the very game of a bayes agent of the same seed (the
    strength benchmark compares cells deal by deal on that ground)."""
    never = Tuning(rollouts=2, margin=2.0)
    for seed in range(2):
        played = []
        for level in ("bayes", "search"):
            game = Game(7, "official", seed)
            agents: list[Agent] = []
            searches: list[SearchAgent] = []
            for s in range(7):
                if level == "search" and game.roles[s] is Role.LIBERAL:
                    searches.append(SearchAgent(s, random.Random(seed + s), never))
                    agents.append(searches[-1])
                else:
                    agents.append(make_agent("bayes", s, seed + s))
            run_game(game, agents)
            played.append([a.to_json() for a in game.actions])
        assert played[0] == played[1]
        assert sum(a.rollouts_done for a in searches) > 0


def test_each_side_searches_with_its_own_default_budget() -> None:
    """Without a ``tuning`` the agent takes its side's (``SIDES``): the liberals spend more
    rollouts on a decision than the fascists may."""
    liberal, fascist = SIDES["liberal"].rollouts, SIDES["fascist"].rollouts
    assert liberal > fascist
    most = {"liberal": 0, "fascist": 0}
    for seed in range(6):
        game = Game(7, "official", seed)
        searches = [SearchAgent(s, random.Random(seed + s)) for s in range(7)]
        counted = [Legal(a, game) for a in searches]
        run_game(game, counted)
        for s, role in enumerate(game.roles):
            side = "liberal" if role is Role.LIBERAL else "fascist"
            assert searches[s].tuning is SIDES[side]
            # the liberals' own posterior is the weighted fit, the fascists' bayes's own
            model = SEARCH_MODEL if side == "liberal" else BOT_MODEL
            assert searches[s].base.beliefs is not None
            assert searches[s].base.beliefs.model is model
            most[side] = max(most[side], *counted[s].spent)
        if most["liberal"] > fascist and most["fascist"] > 0:
            break
    assert fascist < most["liberal"] <= liberal
    assert 0 < most["fascist"] <= fascist


@pytest.mark.parametrize("side", ["liberal", "fascist"])
def test_in_the_rollouts_the_seats_team_reads_with_its_model(
    side: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rollout bots of this seat's team read with its model (a liberal's SEARCH_MODEL),
    the other side's with BOT_MODEL, the bayes players the search meets."""
    from secret_hitler.bots import search as S

    seen: list[tuple[str | None, object]] = []

    class Seen(S.BayesAgent):
        def _sync(self, view: View) -> object:  # type: ignore[override]
            seen.append((view.party, self.model))
            return super()._sync(view)

    game = Game(7, "official", 11)
    seat = next(s for s, r in enumerate(game.roles) if (r is Role.LIBERAL) == (side == "liberal"))
    search = SearchAgent(seat, random.Random(1))  # its bayes base is made before the patch
    search._fixed = search.tuning = Tuning(
        rollouts=2, max_candidates=2, from_fascist=0, from_liberal=0, from_tracker=0,
        vote_band=(0.0, 1.0), votes_in_zone_only=False, model=SIDES[side].model,
    )  # fmt: skip
    monkeypatch.setattr(S, "BayesAgent", Seen)
    agents: list[Agent] = [make_agent("bayes", s, s) for s in range(7)]
    agents[seat] = search
    run_game(game, agents)
    assert search.rollouts_done > 0
    own = SEARCH_MODEL if side == "liberal" else BOT_MODEL
    for party, model in seen:
        assert model is (own if party == side else BOT_MODEL)
    assert {party for party, _ in seen} == {"liberal", "fascist"}


def test_veto_responses_are_searched_and_worlds_hold_with_a_start_track() -> None:
    """Five fascist policies on the board from the start: every session may be vetoed."""
    rules = {"start_track": {"liberal": 0, "fascist": 5}}
    phases: set[str] = set()
    for seed in range(6):
        game = Game(7, rules, seed)
        searches = [SearchAgent(s, random.Random(seed + s), EVERYWHERE) for s in range(7)]
        run_game(game, [Legal(s, game) for s in searches])
        assert game.finished
        phases = phases.union(*(s.phases_searched for s in searches))
    assert "veto_response" in phases
    game = Game(7, rules, 1)
    rng = random.Random(1)
    probes = [Probe(make_agent("bayes", s, s), game, rng) for s in range(7)]
    run_game(game, probes)
    assert sum(p.built for p in probes) > 0


class ReaderCheck(Agent):
    """Plays like ``inner``; at a few endgame decisions, plays rollouts in sampled worlds twice:
    with rollout bots from the search's reader cache and with bots that read from scratch."""

    def __init__(self, inner: Agent) -> None:
        super().__init__(inner.seat, inner.rng)
        self.inner = inner
        self.checked = self.reused = 0

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        if view.fascist_policies >= 2 and not self.checked:
            self._check(view)
        return self.inner.act(view, legal)

    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        return self.inner.claims(view, options)

    def _check(self, view: View) -> None:
        search = SearchAgent(self.seat, random.Random(3))
        search._start(view)
        R, probs = search.base.posterior(view)
        rng = random.Random(self.checked)
        cache: dict = {}  # type: ignore[type-arg]
        calls = 0
        for _ in range(6):
            roles = [ROLE_NAMES[r] for r in R[rng.choices(range(len(R)), probs)[0]]]
            try:
                world = sample_world(view, roles, rng)
            except WorldError:
                continue
            seed = rng.getrandbits(63)
            mine = _side(view)
            games, states = [], []
            for readers in (cache, {}):
                agents = [
                    search._reader(world.view(s), roles, mine, seed, readers)
                    for s in range(world.n)
                ]
                states.append([a.rng.getstate() for a in agents])
                games.append(world.clone())
                run_game(games[-1], agents)
            calls += world.n
            assert states[0] == states[1]  # the same random sources too
            assert games[0].actions == games[1].actions
            assert games[0].finished and games[0].winner == games[1].winner
        self.checked += 1
        self.reused += calls - len(cache)


@pytest.mark.parametrize(("players", "seed"), [(7, 21), (10, 23)])  # games that reach 2+ F
def test_rollout_bots_forked_from_the_reader_cache_play_as_fresh_ones(
    players: int, seed: int
) -> None:
    """The search reads each seat's view of the past once per private history and forks that
    reader in the other worlds of the decision (``SearchAgent._reader``): exact, the rollouts
    play action for action as with bots that read the whole log themselves."""
    game = Game(players, "official", seed)
    agents: list[Agent] = [make_agent("bayes", s, s) for s in range(players)]
    checks = [ReaderCheck(a) for a in agents]
    run_game(game, list(checks))
    assert sum(c.checked for c in checks) >= 3
    assert sum(c.reused for c in checks) > 0  # some readers came from the cache


def test_seated_with_people_the_search_reads_with_the_people_model() -> None:
    """As ``bayes``: with people in half of the other seats or more, the seat's posterior and its
    team's rollout bots read with ``HUMAN_MODEL``; among bots, each side's own model."""
    from secret_hitler.bots.beliefs import HUMAN_MODEL

    game = Game(7, "official", 5)
    for seat in range(7):
        side = "liberal" if game.roles[seat] is Role.LIBERAL else "fascist"
        among_bots, with_people = SearchAgent(seat, random.Random(1)), SearchAgent(seat)
        with_people.seated_with([s != seat and s % 2 == 0 for s in range(7)])  # 3 or 4 of 6
        among_bots.seated_with([s == (seat + 1) % 7 for s in range(7)])  # 1 of 6
        among_bots.posterior(game.view(seat))
        with_people.posterior(game.view(seat))
        own = SEARCH_MODEL if SIDES[side].model == "search" else BOT_MODEL
        assert among_bots.base.model is own
        assert with_people.base.model is HUMAN_MODEL
