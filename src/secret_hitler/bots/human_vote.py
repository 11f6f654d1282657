"""How people vote, for ``bayes-human``: boosted trees fitted to people's votes, on features of
the voting seat's own view (``VOTE_FEATURES``, computed by ``vote_features``).

The trees are data (``bots/data/human_vote.json``, written by ``benchmarks/fit_vote_model.py
--write``); the features are the seat's posterior figures (its own, or for an informed fascist
the liberal eye) and counts over the public record (the engine's fold: every election with its
votes, every legislative session with its claims). docs/bots.md, "Evaluation against people".
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine import View
from ..engine.actions import hand_claims_fit
from ..engine.public import PublicState
from .model import FAS, HIT
from .team import team_role

if TYPE_CHECKING:
    from .bayes import BayesAgent

LIBERAL = "liberal"
FASCIST = "fascist"

# A model of how people vote (boosted trees), on features of the seat's own view only, fitted by
# ``benchmarks/fit_vote_model.py`` on half of the secrethitler.io games (split by a hash of the
# game id) and scored on the other half. ``bayes-human`` votes ja when P(ja) >= 0.5.
VOTE_FEATURES = (
    "bias",
    "fascist_policies",  # /5
    "liberal_policies",  # /5
    "tracker",  # /2
    "hitler_zone",
    "is_president",
    "is_chancellor",
    "role_fascist",  # informed fascist
    "role_hitler",
    "mate_president",  # the president is a known teammate
    "mate_chancellor",
    "zone_mate_hitler_chancellor",  # the chancellor is known to be Hitler, in the zone
    "susp_president",  # P(fascist party) in the seat's posterior (a fascist: the liberal eye)
    "susp_chancellor",
    "zone_p_hitler_chancellor",
    "chancellor_not_hitler",  # confirmed not Hitler
    "liberal_susp_president",  # the two suspicions again, for liberal seats only
    "liberal_susp_chancellor",
    "pair_before_ja",  # this seat's vote the last time this pair was nominated
    "pair_before_nein",
    "last_vote_ja",  # this seat's vote at the previous election
    "last_vote_nein",
    "last_ja_share",  # share of ja at the previous election
    "president_last_ja",  # the president's and chancellor's own votes at the previous election
    "chancellor_last_ja",
    "chancellor_last_fascist_gov",  # the chancellor was in the last government that enacted F
    "president_last_fascist_gov",
    # Added for the 80% target (issue 13.4): the voter's own style so far, seating, claims.
    "own_ja_rate",  # (ja + 1) / (votes + 2) of this seat's earlier votes in this game
    "seat_after_candidate",  # the voter is the next president in turn (view.next_president)
    "conflict_president",  # the president's hand claim contradicted his partner's (or vice versa)
    "conflict_chancellor",
    "called_fascist_president",  # an investigation claim named him fascist
    "called_fascist_chancellor",
    "p_clean_government",  # P(both candidates liberal) in the seat's posterior (as susp_*)
    "president_nein_on_me",  # the president voted nein on the voter's last candidacy
    "chancellor_nein_on_me",
    "own_last_same_president_ja",  # this seat's vote on the president's last candidacy
    "own_last_same_president_nein",
    # Second round for 13.4 (chosen by forward selection on a 2-fold split of the train half):
    # the president's record, nonlinear board counts, the voter's agreement with the chancellor.
    "president_liberal_govs",  # governments he sat in that enacted a liberal policy, /3
    "president_liberal_as_chancellor",  # of those, as chancellor (capped at 3), /3
    "president_fascist_govs",  # governments he sat in that enacted a fascist policy (cap 3), /3
    "president_in_last_liberal_gov",  # he sat in the last government, and it enacted liberal
    "president_called_liberal",  # the last investigation claim about him said liberal
    "president_claimed_3f",  # his last president-hand claim had no liberal
    "president_rejected",  # his earlier candidacies voted down (cap 3), /3
    "chancellor_ja_on_liberal_govs",  # his ja votes for others' governments that enacted L, /3
    "chancellor_next_president",  # the nominee is the next president in turn
    "own_last_same_chancellor_ja",  # this seat's vote the last time this chancellor was nominated
    "agreement_with_chancellor",  # (same votes + 1) / (votes both cast + 2)
    "own_was_chancellor",  # the voter was the last elected chancellor
    "no_fascist_policy",  # no fascist policy on the board yet
    "four_fascist_policies",
    "elections_so_far",  # elections held in this game (cap 15), /15
)


class VoteTrees:
    """Boosted regression trees written as data: ``margin(x)`` is the log-odds that a person
    votes ja given the features ``x`` (``VOTE_FEATURES``). Complete trees of one depth, as
    arrays: node ``n`` sends ``x`` right (to ``2n + 2``) when ``x[feature] >= threshold``, else
    left (``2n + 1``); a few NumPy gathers per level for all trees at once (tens of µs)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.depth = int(data["depth"])
        self.base = float(data["base"])
        self.feature = np.array(data["feature"], dtype=np.intp)  # (trees, 2**depth - 1)
        self.threshold = np.array(data["threshold"], dtype=float)
        self.leaf = np.array(data["leaf"], dtype=float)  # (trees, 2**depth), rate included
        self._trees = np.arange(len(self.feature))

    def margin(self, x: np.ndarray) -> float:
        node = np.zeros(len(self._trees), dtype=np.intp)
        for _ in range(self.depth):
            f = self.feature[self._trees, node]
            node = 2 * node + 1 + (x[f] >= self.threshold[self._trees, node])
        return self.base + float(self.leaf[self._trees, node - (2**self.depth - 1)].sum())


@functools.cache
def human_vote_trees() -> VoteTrees:
    """The trees fitted to people's votes on the train half (``bots/data/human_vote.json``,
    written by ``benchmarks/fit_vote_model.py --write``; docs/bots.md). Read when the first
    ``bayes-human`` is made, so that the fit script still runs after the features changed."""
    from importlib.resources import files

    data = json.loads(files(__package__).joinpath("data", "human_vote.json").read_text("utf-8"))
    if tuple(data["features"]) != VOTE_FEATURES:
        raise RuntimeError("human_vote.json was fitted on other features: rerun its command")
    return VoteTrees(data["trees"])


@dataclass(slots=True)
class _Elections:
    """What the voter's features read from the elections so far (``PublicState.elections``)."""

    pair_before: bool | None = None  # my vote the last time this pair was nominated
    on_me: dict[int, bool] = field(default_factory=dict)  # seat -> ja on my last candidacy
    same_president: bool | None = None  # my vote on the president's last candidacy
    same_chancellor: bool | None = None  # my vote the last time this chancellor was nominated
    own_ja: int = 0
    own_votes: int = 0
    president_rejected: int = 0
    agree: int = 0  # elections where the chancellor and I voted alike
    both: int = 0  # ...of those where we both voted


def _elections(table: PublicState, me: int, p: int, c: int) -> _Elections:
    out = _Elections()
    for el in table.elections:
        votes = el.votes
        if el.president == p and not el.passed:
            out.president_rejected += 1
        if c != me and votes[me] is not None and votes[c] is not None:
            out.both += 1
            out.agree += votes[me] == votes[c]
        mine = votes[me]
        if mine is not None:
            if el.chancellor == c:
                out.same_chancellor = bool(mine)
                if el.president == p:
                    out.pair_before = bool(mine)
            out.own_votes += 1
            out.own_ja += bool(mine)
            if el.president == p:
                out.same_president = bool(mine)
        if me in (el.president, el.chancellor):
            out.on_me = {s: bool(v) for s, v in enumerate(votes) if v is not None}
    return out


@dataclass(slots=True)
class _Sessions:
    """What the voter's features read from the legislative sessions so far, with their claims
    (``PublicState.sessions``)."""

    bad_gov: tuple[int, int] | None = None  # the last enacting government, if it was fascist
    conflict: set[int] = field(default_factory=set)  # a government whose hand claims do not fit
    called: set[int] = field(default_factory=set)  # seats claimed investigated fascist
    p_liberal: int = 0  # liberal enactments of governments with the president in them
    p_liberal_as_chancellor: int = 0
    p_fascist: int = 0
    c_ja_liberal: int = 0  # the chancellor's ja votes for others' liberal governments
    p_last_liberal: bool = False
    p_called: str | None = None  # the party the last investigation claim gave the president
    p_claim: int | None = None  # liberals in the president's last president-hand claim


def _sessions(table: PublicState, p: int, c: int) -> _Sessions:
    out = _Sessions()
    for session in table.sessions:
        gov = (session.president, session.chancellor)
        if session.enacted is not None:
            liberal = session.enacted == LIBERAL
            out.bad_gov = None if liberal else gov
            out.p_last_liberal = liberal and p in gov
            out.p_liberal += liberal and p in gov
            out.p_liberal_as_chancellor += liberal and p == gov[1]
            out.p_fascist += not liberal and p in gov
            if liberal and c not in gov:
                out.c_ja_liberal += bool(session.votes[c])
        claim3: int | None = None  # liberals the president claimed of three
        for e in session.claims:
            subject = e.subject
            if subject == "president_hand" and e.seat == p:
                out.p_claim = list(e.policies or ()).count(LIBERAL)
            if subject == "investigation" and e.target == p:
                out.p_called = e.party
            if subject == "president_hand" and e.seat == gov[0]:
                claim3 = list(e.policies or ()).count(LIBERAL)
            elif subject == "chancellor_hand" and e.seat == gov[1] and claim3 is not None:
                if not hand_claims_fit(claim3, list(e.policies or ()).count(LIBERAL)):
                    out.conflict.update(gov)
            elif subject == "investigation" and e.party == FASCIST:
                out.called.add(e.target)  # type: ignore[arg-type]
    return out


def _last_election(
    table: PublicState, me: int, p: int, c: int
) -> tuple[bool | None, float, bool, bool]:
    """The previous election: my vote (None: none), its share of ja (0.5 without one), and
    whether the president and the chancellor voted ja in it."""
    last = table.elections[-1].votes if table.elections else None
    if last is None:
        return None, 0.5, False, False
    cast = [v for v in last if v is not None]
    share = sum(1 for v in cast if v) / len(cast) if cast else 0.5
    pj = bool(last[p]) if last[p] is not None else False
    cj = bool(last[c]) if last[c] is not None else False
    return last[me], share, pj, cj


def vote_features(agent: BayesAgent, view: View) -> np.ndarray:
    """The features of ``VOTE_FEATURES`` for the open election, from ``agent``'s view."""
    b = agent._sync(view)
    p, c = view.candidate, view.nominee
    assert p is not None and c is not None
    me = agent.seat
    zone = view.hitler_zone_active
    informed = agent._informed_fascist(view)
    team = set(agent._team(view)) if informed else set()
    eye = agent.public if informed and agent.public is not None else None
    probs = eye.conditioned_liberal(me) if eye is not None else None
    m = eye.marginals(probs) if eye is not None else b.marginals()
    clean = eye.p_both_liberal(p, c, probs) if eye is not None else b.p_both_liberal(p, c)
    sp = float(m[p, FAS] + m[p, HIT])
    sc = float(m[c, FAS] + m[c, HIT])
    hc = float(m[c, HIT])
    lib = team_role(view) == LIBERAL
    table = b.table  # the public state after the view's events (the engine's fold)
    el = _elections(table, me, p, c)
    ss = _sessions(table, p, c)
    after = view.next_president  # the engine's A10 (special elections, the dead skipped)
    last_me, share, pj, cj = _last_election(table, me, p, c)
    bad_gov = ss.bad_gov
    x = (
        1.0,
        view.fascist_policies / 5,
        view.liberal_policies / 5,
        view.election_tracker / 2,
        float(zone),
        float(me == p),
        float(me == c),
        float(informed and team_role(view) == FASCIST),
        float(view.role == "hitler"),
        float(p in team),
        float(c in team),
        float(zone and c in team and view.known_roles[c] == "hitler"),
        sp,
        sc,
        hc if zone else 0.0,
        float(c in view.not_hitler),
        sp if lib else 0.0,
        sc if lib else 0.0,
        float(el.pair_before is True),
        float(el.pair_before is False),
        float(last_me is True),
        float(last_me is False),
        share,
        float(pj),
        float(cj),
        float(bad_gov is not None and c in bad_gov),
        float(bad_gov is not None and p in bad_gov),
        (el.own_ja + 1) / (el.own_votes + 2),
        float(me == after and me not in (p, c)),
        float(p in ss.conflict),
        float(c in ss.conflict),
        float(p in ss.called),
        float(c in ss.called),
        clean,
        float(el.on_me.get(p) is False),
        float(el.on_me.get(c) is False),
        float(el.same_president is True),
        float(el.same_president is False),
        ss.p_liberal / 3,
        min(ss.p_liberal_as_chancellor, 3) / 3,
        min(ss.p_fascist, 3) / 3,
        float(ss.p_last_liberal),
        float(ss.p_called == LIBERAL),
        float(ss.p_claim == 0),
        min(el.president_rejected, 3) / 3,
        min(ss.c_ja_liberal, 3) / 3,
        float(c == after),
        float(el.same_chancellor is True),
        (el.agree + 1) / (el.both + 2),
        float(view.chancellor == me),
        float(view.fascist_policies == 0),
        float(view.fascist_policies == 4),
        min(len(table.elections), 15) / 15,
    )
    return np.array(x)


__all__ = ["VOTE_FEATURES", "VoteTrees", "human_vote_trees", "vote_features"]
