"""What a `bayes` seat does with a hand and with a power, and the thresholds it decides by.

Legislation (``discard``, ``enact``, ``veto_response``): liberals pass and enact liberal
policies and veto two fascists; blind Hitler plays liberal but forces a fascist policy while the
rule liberals' score of him is low (and claims FFF); informed fascists force fascist policies
with a liberal partner and pass them to a teammate, but hand Hitler a liberal early on. Powers
(``investigate``, ``special_election``, ``execute``): a liberal picks by its posterior (the
``*_scores``, which ``BayesAgent.evaluate`` reports); an informed fascist by what the liberal eye
would make of it. Each takes the ``BayesAgent`` (``bots/bayes.py``), whose methods they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine import Action, View
from .likelihood import normalize_log
from .model import FAS, HIT, LIB
from .team import is_monarchist, team_role

if TYPE_CHECKING:
    from .bayes import BayesAgent

LIBERAL = "liberal"
FASCIST = "fascist"


class Tuning:
    """Decision thresholds of the bot (the beliefs model is in ``beliefs.Model``). Set by hand
    and by simulation sweeps at 7 players (docs/bots.md, "Known limits": 300-game sweeps are
    within noise); no level changes them."""

    # A liberal votes ja when P(government liberal-liberal) reaches this share of the average
    # government's, less so as the tracker nears chaos (a top-deck is a coin flip at best).
    vote_share = (1.05, 0.85, 0.55)
    # In the Hitler zone a liberal refuses a chancellor who is Hitler with more than this.
    hitler_risk = 0.12
    # What a fascist protects: his own cover a little, Hitler's a lot (Hitler elected in the
    # zone is the fascists' likeliest win; a burnt fascist can still vote and pass policies).
    self_weight = 0.35
    hitler_weight = 1.0
    # Fascist nominations: the most trusted seat in the liberal eye, unless a teammate's
    # government is predicted to pass (then these bonuses, on the trust scale). Before the zone
    # a fascist president grooms Hitler: nominates him and passes him liberals.
    nominate_mate = 0.3
    nominate_hitler_early = 0.5
    zone_hitler_fallback = 0.3  # Hitler's bonus in the zone when his vote is not predicted to pass
    threat_weight = 0.5  # execution: preference for a liberal who has evidence against the team
    # A liberal president's nomination in the Hitler zone: P(liberal) minus this times
    # P(Hitler). Paired sweeps of bayes vs bayes (``simulate --liberals bayes --fascists bayes``):
    # 30 wins +2.0 to +2.1 points at 7 players (seeds 2 and 1, 4,000 games each), loses 1.5-3.4 at
    # 5, 6, 8 and 10 (seed 3, 2,000 each); 5 gains +1.3 at 7 and nothing elsewhere. Kept at 2.
    nominate_hitler_penalty = 2.0
    # Blind Hitler votes nein unless his own posterior makes the government this clean, and
    # forces FF while his replayed rule score is at or below this.
    hitler_ja_clean = 0.4
    hitler_force_below = 0.0


def _find(legal: Sequence[Action], kind: str, **fields: Any) -> Action | None:
    for a in legal:
        if a.type == kind and all(getattr(a, k) == v for k, v in fields.items()):
            return a
    return None


def _pick(legal: Sequence[Action], scores: Sequence[float], rng: Any) -> Action | None:
    """The best-scoring action; a tiny random jitter (one draw per action, in order) breaks ties."""
    best, top = None, -1e18
    for a, s in zip(legal, scores, strict=True):
        s += 1e-6 * rng.random()
        if s > top:
            best, top = a, s
    return best


def discard(agent: BayesAgent, view: View, legal: Sequence[Action]) -> Action | None:
    agent.forced = False
    hand = list(view.hand)
    libs = hand.count(LIBERAL)
    if libs in (0, 3):
        return legal[0]
    if not agent._informed_fascist(view):
        if view.role == "hitler" and view.liberal_to_win <= 1 and libs == 1:
            # Hitler cannot let the liberals win just to look good.
            agent.forced = agent.shadow is not None  # and tells the FFF story
            return _find(legal, "discard", policy=LIBERAL)
        if (
            view.role == "hitler"
            and libs == 1
            and agent.shadow is not None
            and agent.shadow.pub[agent.seat] <= Tuning.hitler_force_below
        ):
            # Rule liberals forgive an FFF story from deck counting: a blind Hitler whose
            # score is low enough forces a fascist policy and claims FFF.
            agent.forced = True
            return _find(legal, "discard", policy=LIBERAL)
        return _find(legal, "discard", policy=FASCIST)
    team = agent._team(view)
    chan = view.chancellor
    if chan in team:
        blind_hitler = view.known_roles[chan] == "hitler" and view.fascist_policies < 2
        if blind_hitler and view.liberal_to_win > 1:
            # Early on, hand Hitler a liberal to enact: his clean record wins the zone later.
            return _find(legal, "discard", policy=FASCIST)
        return _find(legal, "discard", policy=LIBERAL)
    if libs == 2:
        # A liberal chancellor enacts a liberal either way: look clean.
        return _find(legal, "discard", policy=FASCIST)
    # FFL to a liberal chancellor: pass FF to force a fascist policy, and claim FFF (the
    # rule liberals forgive it by deck counting).
    return _find(legal, "discard", policy=LIBERAL)


def enact(agent: BayesAgent, view: View, legal: Sequence[Action]) -> Action | None:
    hand = list(view.hand)
    libs = hand.count(LIBERAL)
    veto_ok = any(a.type == "veto" for a in legal)

    def choose(policy: str) -> Action | None:
        return _find(legal, "enact", policy=policy)

    if not agent._informed_fascist(view):
        if libs == 0:
            if veto_ok and team_role(view) == LIBERAL:
                return _find(legal, "veto", policy=None) or _find(legal, "veto", policy=FASCIST)
            return choose(FASCIST)
        if view.role == "hitler" and libs == 1:
            if view.fascist_to_win <= 1 or view.liberal_to_win <= 1:
                return choose(FASCIST)
        return choose(LIBERAL)
    if libs == 0:
        return choose(FASCIST)
    if libs == 2:
        return choose(LIBERAL)
    team = agent._team(view)
    if (
        view.president in team
        and view.known_roles[view.president] == "hitler"
        and view.fascist_to_win > 1
        and view.liberal_to_win > 1
    ):
        # Blind Hitler passed a liberal: a fascist enactment would make his truthful
        # claim ("I passed a liberal") read as throwing one away. Keep him clean.
        return choose(LIBERAL)
    # With a teammate president, or a liberal one (FL enacted as F, claimed FF).
    return choose(FASCIST)


def veto_response(agent: BayesAgent, view: View, legal: Sequence[Action]) -> Action | None:
    libs = list(view.hand).count(LIBERAL)
    if agent._informed_fascist(view):
        return _find(legal, "veto_response", accept=False)
    return _find(legal, "veto_response", accept=libs == 0)


def investigate(agent: BayesAgent, view: View, legal: Sequence[Action]) -> Action | None:
    b = agent.beliefs
    assert b is not None
    if agent._informed_fascist(view):
        # One step ahead: the target whose claimed result (a teammate cleared, a liberal
        # framed) leaves the team least suspect in the liberal eye.
        team = set(agent._team(view))
        if agent.shadow is not None:
            # Rule liberals lower a seat's score when it is called liberal: clear Hitler
            # before the zone, where liberals refuse any chancellor with a positive score.
            for a in legal:
                if a.target in team and view.known_roles[a.target] == "hitler":
                    return a
        assert agent.public is not None
        pub = agent.public
        base = np.log(np.maximum(pub.probs(), 1e-300))
        best, score = None, 1e9
        for a in legal:
            t = a.target
            assert t is not None
            party = LIBERAL if t in team else FASCIST
            probs = normalize_log(base + pub.investigation_claim_loglik(agent.seat, t, party))
            s = agent._suspicion(view, probs) + 1e-6 * agent.rng.random()
            if s < score:
                best, score = a, s
        return best
    return _pick(legal, investigation_scores(agent, view, legal), agent.rng)


def investigation_scores(agent: BayesAgent, view: View, legal: Sequence[Action]) -> list[float]:
    """A liberal's value of investigating each target: how uncertain the seat's party is."""
    assert agent.beliefs is not None
    bad = agent.beliefs.p_fascist_party()
    return [float(bad[a.target] * (1 - bad[a.target])) for a in legal]


def special_election(agent: BayesAgent, view: View, legal: Sequence[Action]) -> Action | None:
    b = agent.beliefs
    assert b is not None
    if agent._informed_fascist(view):
        team = agent._team(view)
        mates = [a for a in legal if a.target in team and view.known_roles[a.target] != "hitler"]
        if mates:
            return mates[0]
        assert agent.public is not None
        pub = agent.public.conditioned_marginals(agent.seat)
        return max(legal, key=lambda a: float(pub[a.target, LIB]))
    return _pick(legal, special_election_scores(agent, view, legal), agent.rng)


def special_election_scores(agent: BayesAgent, view: View, legal: Sequence[Action]) -> list[float]:
    """A liberal's value of each next president: P(liberal)."""
    assert agent.beliefs is not None
    m = agent.beliefs.marginals()
    return [float(m[a.target, LIB]) for a in legal]


def execute(agent: BayesAgent, view: View, legal: Sequence[Action]) -> Action | None:
    b = agent.beliefs
    assert b is not None
    if is_monarchist(view):
        # His own win: Hitler shot. The seat his posterior takes for Hitler likeliest.
        m = b.marginals()
        return max(legal, key=lambda a: float(m[a.target or 0, HIT]))
    if agent._informed_fascist(view):
        team = set(agent._team(view))
        assert agent.public is not None
        pub = agent.public.conditioned_marginals(agent.seat)
        libs = [a for a in legal if a.target not in team]
        if libs:
            # The most trusted liberal (the one the table would follow), or one who holds
            # private evidence against the team.
            threat = threats(agent, view)
            return max(
                libs,
                key=lambda a: (
                    float(pub[a.target, LIB])
                    + Tuning.threat_weight * threat.get(a.target or 0, 0.0)
                ),
            )
        return None
    return _pick(legal, execution_scores(agent, view, legal), agent.rng)


def execution_scores(agent: BayesAgent, view: View, legal: Sequence[Action]) -> list[float]:
    """A liberal's value of shooting each target: P(Hitler) + 0.3 P(fascist)."""
    assert agent.beliefs is not None
    m = agent.beliefs.marginals()
    return [float(m[a.target, HIT] + 0.3 * m[a.target, FAS]) for a in legal]


def threats(agent: BayesAgent, view: View) -> dict[int, float]:
    """Liberals who saw something private against the team: a liberal who investigated a
    teammate, or a liberal president whose teammate chancellor enacted a fascist policy
    although the president claims to have passed a liberal."""
    team = set(agent._team(view)) | {agent.seat}
    out: dict[int, float] = {}
    assert agent.beliefs is not None
    state = agent.beliefs.table  # the public state of the view's events (synced by act)
    for president, target in state.investigations:
        if target in team and president not in team:
            out[president] = out.get(president, 0.0) + 1.0
    for s in state.sessions:
        if s.president in team or s.chancellor not in team or s.enacted != FASCIST:
            continue
        for c in s.claims:
            if (
                c.subject == "president_hand"
                and c.seat == s.president
                and list(c.policies or ()).count(LIBERAL) >= 2
            ):
                out[s.president] = out.get(s.president, 0.0) + 1.0
    return out
