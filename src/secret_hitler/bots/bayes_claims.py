"""What a `bayes` seat claims it saw (``BayesAgent.claims``): the truth for a liberal; for a
fascist the story that leaves the team least suspect under the public posterior (the "liberal
eye"), and the all-fascist stories the rule liberals forgive (docs/bots.md, "bayes").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..engine import Action, View
from .likelihood import normalize_log

if TYPE_CHECKING:
    from .bayes import BayesAgent

LIBERAL = "liberal"
FASCIST = "fascist"


def choose_claims(agent: BayesAgent, view: View, options: Sequence[Action]) -> list[Action]:
    """The claims ``agent`` makes among ``options``: the truth for a liberal (and blind Hitler,
    but the FFF story of his forced discard); for an informed fascist the story that leaves the
    team least suspect in the liberal eye, after the president's when the chancellor can wait."""
    b = agent._sync(view)
    subjects = dict.fromkeys(a.subject for a in options if a.type == "claim")  # offered order
    out: list[Action] = []
    for subject in subjects:
        opts = [a for a in options if a.type == "claim" and a.subject == subject]
        truth = _truth(view, subject)
        if truth is None:
            continue
        if (
            subject == "president_hand"
            and agent.shadow is not None
            and view.phase == "discard"
            and view.president == agent.seat
        ):
            continue  # decide the discard first: the story depends on it
        if subject == "president_hand" and agent.forced:
            agent.forced = False
            pick = next(
                (a for a in opts if LIBERAL not in [p.value for p in a.policies or ()]), None
            )
        elif not agent._informed_fascist(view):
            pick = _matching(opts, subject, truth)
        else:
            if subject == "chancellor_hand" and b.session is not None:
                s = b.session
                if s.c3 is None and view.round not in agent.deferred:
                    agent.deferred.add(view.round)  # let the president speak first
                    continue
            pick = _lie(agent, view, opts, subject, truth)
        if pick is not None:
            out.append(pick)
    return out


def _truth(view: View, subject: str | None) -> Any:
    """What the view's seat actually saw for ``subject`` (from its private events)."""
    kinds = {
        "president_hand": "drew",
        "chancellor_hand": "received",
        "peek": "peek",
        "investigation": "investigation",
    }
    kind = kinds.get(subject or "")
    for e in reversed(view.events):
        if e["type"] == kind:
            return e
    return None


def _matching(opts: Sequence[Action], subject: str | None, truth: dict[str, Any]) -> Action | None:
    if subject == "investigation":
        return next(
            (a for a in opts if a.party is not None and a.party.value == truth["party"]), None
        )
    want = [str(p) for p in truth["policies"]]
    if subject == "peek":
        return next((a for a in opts if [p.value for p in a.policies or ()] == want), None)
    libs = want.count(LIBERAL)
    return next(
        (a for a in opts if [p.value for p in a.policies or ()].count(LIBERAL) == libs), None
    )


def _lie(
    agent: BayesAgent,
    view: View,
    opts: Sequence[Action],
    subject: str | None,
    truth: dict[str, Any],
) -> Action | None:
    """The claim that leaves the team least suspect under the public posterior."""
    assert agent.public is not None
    if subject == "investigation":
        target = truth["target"]
        team = agent._team(view)
        party = truth["party"]
        if target in team:
            party = LIBERAL
        elif agent._informed_fascist(view):
            # Frame the liberal when the lie leaves the team less suspect than the truth.
            pub = agent.public
            base = np.log(np.maximum(pub.probs(), 1e-300))
            cost = {
                q: agent._suspicion(
                    view,
                    normalize_log(base + pub.investigation_claim_loglik(agent.seat, target, q)),
                )
                for q in (LIBERAL, FASCIST)
            }
            party = FASCIST if cost[FASCIST] < cost[LIBERAL] else LIBERAL
        return next((a for a in opts if a.party is not None and a.party.value == party), None)
    if subject == "peek":
        return _matching(opts, subject, truth)
    session = agent.public.session
    if (
        agent.shadow is not None
        and session is not None
        and session.enacted == FASCIST
        and subject in ("president_hand", "chancellor_hand")
    ):
        # Rule liberals forgive an all-fascist story (deck counting) and blame whoever
        # admits holding a liberal: claim FFF / FF when the partner's story allows it.
        for a in opts:
            libs = [p.value for p in a.policies or ()].count(LIBERAL)
            if libs == 0 and _plausible(subject, 0, session):
                return a
    best, score = None, 1e9
    for a in opts:
        libs = [p.value for p in a.policies or ()].count(LIBERAL)
        if session is not None and not _plausible(subject, libs, session):
            continue
        probs = agent.public.probs_with(
            **({"c3": libs} if subject == "president_hand" else {"c2": libs})
        )
        s = agent._suspicion(view, probs)
        if s < score - 1e-9:
            best, score = a, s
    return best


def _plausible(subject: str | None, libs: int, session: Any) -> bool:
    """A claim that the public record does not refute outright (enactment, partner's claim)."""
    enacted = session.enacted
    if subject == "chancellor_hand":
        if enacted == FASCIST and libs == 2 or enacted == LIBERAL and libs == 0:
            return False
        return (
            session.c3 is None
            or libs in (session.c3, session.c3 - 1)
            or session.c3 == 3
            and libs == 2
        )
    if enacted == LIBERAL and libs == 0 or enacted == FASCIST and libs == 3:
        return False
    if session.c2 is not None:
        return (
            libs == session.c2
            or libs == session.c2 + 1
            and libs < 3
            or libs == 3
            and session.c2 == 2
        )
    return True
