"""The `search` level: flat Monte-Carlo search over worlds sampled from the `bayes` posterior.

At a decision with a real choice, the agent samples determinized worlds consistent with its own
``View``: a role assignment drawn from its ``bayes`` posterior (``BayesAgent.posterior``), and,
by the engine's sampler (``engine.worlds.sample_world``, OpenSpiel's ResampleFromInfostate), a
deck with the hidden discards consistent with what the seat saw, as an engine ``Game`` replayed
to this moment. Every candidate action
is then played out to the end of the game in the same worlds with the same rollout seeds (common
random numbers), every seat played by a ``bayes`` agent of its world role that reads its own view
of the world (``Tuning.rollout_bot``: the opponents the search meets; this seat and its teammates
read with this seat's model, ``Tuning.model``), and scored by the win rate of the seat's team.
The ``bayes`` choice is kept unless another candidate beats it by ``Tuning.margin``.

Forced decisions (one legal action) and claims are the ``bayes`` agent's, immediately. The budget
is a number of rollouts per decision (``Tuning.rollouts``), never a clock, so a seeded agent is
reproducible; a search stops early once the worlds left cannot change its decision. The agent
sees only its view: the worlds are built from the view's events alone.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from ..engine import Action, Game, Phase, View
from ..engine import actions as A
from ..engine.events import PRIVATE_EVENT_TYPES
from ..engine.worlds import WorldError, sample_world
from ..talk.lines import Line
from ..talk.said import Said
from .base import Agent, play_out, register
from .bayes import BayesAgent
from .beliefs import BOT_MODEL, HIT, HUMAN_MODEL, SEARCH_MODEL
from .rule import RuleAgent
from .team import team_of


@dataclass(frozen=True, slots=True)
class Tuning:
    """The search's knobs (set by hand; strength measured by ``benchmarks/search_strength.py``)."""

    # Rollouts per decision at most, split evenly over the candidates (>= 1 each); fewer when
    # the worlds left cannot change the decision (``_Tally.settled``).
    rollouts: int = 8
    # At most this many candidates: the bayes choice and the options bayes scores best after it
    # (nominations, a liberal's powers), else the first others.
    max_candidates: int = 2
    # Another candidate must beat the bayes choice's win rate by this much: with 4 worlds, by
    # 2 of them (with 0.2, one world was enough and noise overrode: search liberals -7.5 points
    # over 80 paired deals of benchmarks/search_strength.py).
    margin: float = 0.5
    world_tries: int = 4  # attempts per world before a sample is given up (rejected worlds)
    # Search only near the end, where one decision often decides the game and rollouts are
    # short: once this many fascist policies are down, or this many liberal ones, or at this
    # election tracker (the bayes choice elsewhere).
    from_fascist: int = 3
    from_liberal: int = 4
    from_tracker: int = 2
    # Votes (most decisions) are searched only in the Hitler zone, when this seat's posterior is
    # unsure whether the nominee is Hitler: P(nominee is Hitler) within this band (the bayes
    # liberals refuse above 0.12, ``bayes.Tuning``).
    vote_band: tuple[float, float] = (0.06, 0.2)
    votes_in_zone_only: bool = True  # False: search votes outside the Hitler zone too (tests)
    # The level that plays every seat in the rollouts: "bayes" (the players the search meets)
    # or "rule" (cheaper, but rule bots are far weaker than bayes ones). Over 2,000 paired
    # deals of benchmarks/search_strength.py: with rule rollouts the search liberals gained
    # -0.9 points and the fascists +0.7; with bayes rollouts +2.1 and +13.2 (the bot models
    # before the 2026-12-02 refit), and with the refitted ones +0.1 (-1.5 to +1.7) and +10.2
    # (+8.5 to +11.9).
    rollout_bot: Literal["bayes", "rule"] = "bayes"
    # The behaviour model of the seat's own posterior (the worlds it samples and its bayes
    # choices): "bot" is bayes's ``BOT_MODEL``; "search" is ``SEARCH_MODEL``, the same counting
    # with one weight per likelihood term fitted by likelihood (better calibrated on today's
    # bots). In the rollouts this seat and its teammates read with it too (they play as it will,
    # and at a table of search bots as its teammates do); the other side keeps ``BOT_MODEL``,
    # the bayes players the search meets. Rollout liberals reading with it instead of
    # ``BOT_MODEL``: the search liberals +3.1 points (+1.4 to +4.9) over 2,000 paired deals of
    # ``benchmarks/search_strength.py`` (docs/bots.md, "Search results").
    model: Literal["bot", "search"] = "bot"


#: The default knobs of each side. The liberals, who sample the roles as well as the deck, need
#: more worlds to see a difference and gain mostly at votes: 16 worlds per candidate, a margin of
#: 0.25 (4 of 16 worlds) and every zone vote whose nominee is Hitler with 0.02 to 0.5 (screens of
#: 200 paired deals of benchmarks/search_strength.py's deals: the fascist knobs +1.0 points;
#: 32 rollouts and margin 0.25 +2.0; with the band 0.03-0.35 +6.0, of which votes +5.0).
#: The fascists keep the knobs of the 2,000-deal row in docs/bots.md.
SIDES: dict[str, Tuning] = {
    "liberal": Tuning(rollouts=32, margin=0.25, vote_band=(0.02, 0.5), model="search"),
    "fascist": Tuning(),
}


#: Float slack of the early stop's bounds (``_Tally.settled``): a bound this close to the margin
#: does not settle, so rounding never decides.
_SLACK = 1e-9

SEARCHED = frozenset(
    {
        Phase.NOMINATE,
        Phase.VOTE,
        Phase.DISCARD,
        Phase.ENACT,
        Phase.VETO_RESPONSE,
        Phase.INVESTIGATE,
        Phase.SPECIAL_ELECTION,
        Phase.EXECUTE,
    }
)


class SearchAgent(Agent):
    """``bayes`` decisions, overridden where rollouts in sampled worlds find a clearly better one."""

    name = "search"

    def __init__(self, seat: int, rng: random.Random | None = None, tuning: Tuning | None = None):
        super().__init__(seat, rng)
        # One ``tuning`` for both sides if given, else the side's own (``SIDES``), taken at each
        # decision from the view (the party is not known before the first one).
        self._fixed = tuning
        self.tuning = tuning if tuning is not None else SIDES["fascist"]
        # The bayes agent gets this agent's own random source, so that it plays exactly like a
        # bayes agent of the same seed; the search draws from a source derived from it (games
        # of `search` and `bayes` on the same seeds stay the same until a search overrides).
        self.base = BayesAgent(seat, self.rng)
        twin = random.Random()
        twin.setstate(self.rng.getstate())
        self.search_rng = random.Random(twin.getrandbits(64) ^ 0x5EA4C4)
        # Counters for tests and benchmarks: rollouts played, sampled worlds that could not
        # explain the view (resampled), samples given up after ``world_tries``, searched phases.
        self.rollouts_done = 0
        self.worlds_rejected = 0
        self.worlds_lost = 0
        self.phases_searched: set[str] = set()
        self.people = False  # people hold half the other seats or more (``seated_with``)

    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        return self.base.claims(view, options)

    def speak(self, view: View) -> list[Line]:
        """The talk of its ``bayes`` self (the same posterior its decisions read)."""
        self._start(view)
        return self.base.speak(view)

    def listen(self, view: View, said: Sequence[Said]) -> None:
        self._start(view)
        self.base.listen(view, said)

    def _start(self, view: View) -> None:
        """The side's knobs, and before the posterior is first made, the side's model."""
        if self._fixed is None:
            self.tuning = SIDES[_side(view)]
        if self.base.beliefs is None:
            own = SEARCH_MODEL if self.tuning.model == "search" else BOT_MODEL
            self.base.model = HUMAN_MODEL if self.people else own

    def seated_with(self, people: Sequence[bool]) -> None:
        """With people in at least half of the other seats, read with ``HUMAN_MODEL`` (as
        ``BayesAgent.seated_with``), in the seat's own posterior and its team's rollout bots: on
        people's held-out games its liberals would vote ja for Hitler in the zone 7% of the time
        instead of 17% (docs/bots.md, "Bots at a table with people")."""
        self.people = self.people_hold_half(people)

    def posterior(self, view: View) -> tuple[np.ndarray, np.ndarray]:
        """(worlds matrix, probabilities): the belief this seat's decisions use (evaluation)."""
        self._start(view)
        return self.base.posterior(view)

    @property
    def initial_possible(self) -> int | None:
        return self.base.initial_possible

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        self._start(view)
        choice = self.base.act(view, legal)
        turn = [a for a in legal if a.type != A.CLAIM]
        if len(turn) <= 1 or view.phase not in SEARCHED or choice not in turn:
            return choice
        if self.base.cover is not None:
            return choice  # Merlin: worlds drawn on his sight would play it, and find him
        if not self.matters(view):
            return choice
        if view.phase == Phase.VOTE and not self._unsure(view):
            return choice
        others = [a for a in turn if a != choice]
        scores = self.base.evaluate(view, legal)["scores"]
        if scores is not None:  # best-scored first (the bayes ranking of the options)
            rank = {a: s for a, s in zip(turn, scores, strict=True)}
            others.sort(key=lambda a: -rank[a])
        candidates = [choice, *others][: self.tuning.max_candidates]
        per = max(1, self.tuning.rollouts // len(candidates))
        return candidates[self._search(view, candidates, per)]

    def matters(self, view: View) -> bool:
        """Whether this moment is worth a search (the endgame, ``Tuning.from_*``)."""
        t = self.tuning
        return (
            view.fascist_policies >= t.from_fascist
            or view.liberal_policies >= t.from_liberal
            or view.election_tracker >= t.from_tracker
        )

    def _unsure(self, view: View) -> bool:
        """In the Hitler zone, whether this seat cannot tell if the nominee is Hitler."""
        if view.nominee is None:
            return False
        if self.tuning.votes_in_zone_only and not view.hitler_zone_active:
            return False
        R, probs = self.base.posterior(view)
        p_hitler = float(probs[R[:, view.nominee] == HIT].sum())
        lo, hi = self.tuning.vote_band
        return lo <= p_hitler <= hi

    def _search(self, view: View, candidates: Sequence[Action], per: int) -> int:
        """The index of the candidate to play: the bayes choice (0) unless another one's mean
        team win rate over ``per`` sampled worlds beats it by ``Tuning.margin``.

        At a vote the worlds are stratified by whether the nominee is Hitler (half of them each
        way, weighted by the posterior): a few i.i.d. worlds would often miss the rare world
        where a ja loses the game at once. The heavier stratum is played first, and the search
        stops as soon as the worlds left could not change the decision (``_Tally``): the same
        decision as playing every world, for fewer rollouts.
        """
        R, probs = self.base.posterior(view)
        strata = [(1.0, probs, per)]
        if view.phase == Phase.VOTE and view.nominee is not None and per >= 2:
            hitler = R[:, view.nominee] == HIT
            p = float(probs[hitler].sum())
            if 0.0 < p < 1.0:
                strata = [(p, probs * hitler, per // 2), (1.0 - p, probs * ~hitler, per - per // 2)]
                strata.sort(key=lambda stratum: -stratum[0])
        tallies = [_Tally(share, count, len(candidates)) for share, _, count in strata]
        margin = self.tuning.margin
        read: dict[tuple[Any, ...], BayesAgent] = {}  # rollout bots that have read the past
        # One draw of the search's source per decision, however many worlds it takes: a search
        # that stops early leaves the later decisions' worlds as they would have been.
        rng = random.Random(self.search_rng.getrandbits(64))
        for tally, (_, weights, count) in zip(tallies, strata, strict=True):
            for wins in self._worlds(view, candidates, R, weights, count, read, rng):
                tally.add(wins)
                settled = _Tally.settled(tallies, margin)
                if settled is not None:
                    return settled
        return _Tally.decision(tallies, margin)

    def _worlds(
        self,
        view: View,
        candidates: Sequence[Action],
        R: np.ndarray,
        weights: np.ndarray,
        count: int,
        read: dict[tuple[Any, ...], BayesAgent],
        rng: random.Random,
    ) -> Iterator[list[float] | None]:
        """For each of ``count`` worlds drawn with ``weights``, each candidate's team win (1 or
        0) there, or None for a world that could not be built (lazily: a settled search stops
        drawing). ``read``: the decision's reader cache (``_reader``); ``rng``: its random source."""
        mine = _side(view)
        beliefs = self.base.beliefs
        assert beliefs is not None
        cum = np.cumsum(weights)
        for _ in range(count):
            world = None
            roles: list[str] = []
            for _ in range(self.tuning.world_tries):
                w = int(np.searchsorted(cum, rng.random() * cum[-1], side="right"))
                # the roles of that world: secrethitler.io's special cards placed as this
                # seat's knowledge allows (``Beliefs.sample_deal``)
                deal = beliefs.sample_deal(min(w, len(R) - 1), rng, view.known_roles)
                if deal is None:
                    self.worlds_rejected += 1
                    continue
                roles = deal
                try:
                    world = sample_world(view, roles, rng)
                    if all(world.is_legal(a) for a in candidates):
                        break
                    world = None  # not at this seat's decision: cannot happen unless a bug
                    self.worlds_rejected += 1
                except WorldError:
                    self.worlds_rejected += 1
            if world is None:
                self.worlds_lost += 1
                yield None
                continue
            self.phases_searched.add(str(view.phase))
            seed = rng.getrandbits(63)
            # The rollout bots read the shared past once per world; each candidate gets copies.
            agents: list[Any]
            if self.tuning.rollout_bot == "bayes":
                agents = [
                    self._reader(world.view(s), roles, mine, seed, read) for s in range(world.n)
                ]
            else:
                agents = [RuleAgent(s, random.Random(seed + s)) for s in range(world.n)]
                for s, agent in enumerate(agents):
                    agent._update(world.view(s))
            last = len(candidates) - 1
            wins = []
            for i, action in enumerate(candidates):
                game = world if i == last else world.clone()
                copies = agents if i == last else [a.fork() for a in agents]
                wins.append(_rollout(game, copies, action, self.seat))
                self.rollouts_done += 1
            yield wins

    def _reader(
        self,
        view: View,
        roles: Sequence[str],
        mine: str,
        seed: int,
        read: dict[tuple[Any, ...], BayesAgent],
    ) -> BayesAgent:
        """A rollout bot of ``view``'s seat that has read its view of the world so far.

        A bot's state after reading is a function of its model and its view's events. Across the
        worlds of one decision the public events are the same, so two worlds where the seat has
        the same private events (its role, night, hands, peeks, investigations) give the same
        reader: it is forked from the ``read`` cache instead of read again (exact: the game plays
        the same; ``tests/bots/test_search.py``).
        """
        s = view.seat
        assert s is not None
        # this seat and its teammates read as it does; the other side as the bayes it meets
        model = self.base.model if _party(roles[s]) == mine else None
        key = (s, id(model), *(repr(e) for e in view.events if e["type"] in PRIVATE_EVENT_TYPES))
        known = read.get(key)
        if known is not None:
            return known.fork(random.Random(seed + s))
        agent = BayesAgent(s, random.Random(seed + s))
        if model is not None:
            agent.model = model
        agent._sync(view)
        read[key] = agent.fork()
        return agent


class _Tally:
    """One stratum's rollout results so far, and what the rest of its worlds could still do.

    The decision is made on the strata's share-weighted mean win rates (a stratum without a
    world is left out); ``settled`` bounds it over every way the worlds not yet played could
    turn out (each world moves a candidate's win count against the bayes choice's by at most
    one, or is lost), so a search can stop once no outcome changes it.
    """

    __slots__ = ("share", "left", "found", "totals")

    def __init__(self, share: float, count: int, candidates: int) -> None:
        self.share, self.left, self.found = share, count, 0
        self.totals = [0.0] * candidates

    def add(self, wins: list[float] | None) -> None:
        self.left -= 1
        if wins is not None:
            self.found += 1
            self.totals = [t + w for t, w in zip(self.totals, wins, strict=True)]

    @staticmethod
    def decision(tallies: Sequence[_Tally], margin: float) -> int:
        """The candidate to play once every world is in."""
        rates = [0.0] * len(tallies[0].totals)
        weight = 0.0
        for t in tallies:
            if t.found:
                rates = [r + t.share * (x / t.found) for r, x in zip(rates, t.totals, strict=True)]
                weight += t.share
        if weight == 0.0:
            return 0
        rates = [r / weight for r in rates]
        best = max(range(len(rates)), key=lambda i: (rates[i], -i))
        return best if rates[best] >= rates[0] + margin else 0

    @staticmethod
    def settled(tallies: Sequence[_Tally], margin: float) -> int | None:
        """The decision if the worlds left cannot change it, else None."""
        if all(t.left == 0 for t in tallies):
            return _Tally.decision(tallies, margin)
        n = len(tallies[0].totals)
        if all(_Tally._bound(tallies, i, +1) < margin - _SLACK for i in range(1, n)):
            return 0  # no other candidate can reach the margin
        if n == 2 and _Tally._bound(tallies, 1, -1) > max(margin, 0.0) + _SLACK:
            return 1  # the other candidate reaches it however the rest turns out
        return None

    @staticmethod
    def _bound(tallies: Sequence[_Tally], i: int, sign: int) -> float:
        """The highest (``sign`` +1) or lowest (-1) final rate of candidate ``i`` minus the
        bayes choice's, over the outcomes where some stratum has a world (the lowest is -inf
        when every stratum may end without one: then the bayes choice is played)."""
        options: list[list[tuple[float, float] | None]] = []
        for t in tallies:
            d, f, r = t.totals[i] - t.totals[0], t.found, t.left
            # (d + x) / (f + y) over y <= r found worlds and |x| <= y: at y = r when f >= |d|
            value = (d + sign * r) / (f + r) if f + r else 0.0
            choices: list[tuple[float, float] | None] = [(t.share, value)] if f + r else []
            if f == 0:
                choices.append(None)  # every world left may be lost: the stratum drops out
            options.append(choices)
        best = -sign * float("inf")
        for pick in itertools.product(*options):
            kept = [c for c in pick if c is not None]
            if not kept:  # no world at all: the bayes choice, so no override is certain
                if sign < 0:
                    return -float("inf")
                continue
            value = sum(share * v for share, v in kept) / sum(share for share, _ in kept)
            best = max(best, value) if sign > 0 else min(best, value)
        return best


def _side(view: View) -> str:
    """The seat's team as ``SIDES`` and the game's winner name it."""
    return _party(view.party)


def _party(role: str | None) -> str:
    """The team of a role or party name: "liberal" (Merlin and Percival too), else "fascist"."""
    return "liberal" if team_of(role) == "liberal" else "fascist"


def _rollout(game: Game, agents: list[Any], action: Action, seat: int) -> float:
    """1 if ``seat`` wins after ``action`` in ``game`` played on by the rollout bots ``agents``:
    its team's win (the engine's ``winners``: the Monarchist's own way)."""
    game.apply(action)
    if not game.finished:
        play_out(game, agents)  # the agents' contract: their turns and claims
    winners = game.winners
    return 1.0 if winners is not None and seat in winners else 0.0


register("search", SearchAgent)
