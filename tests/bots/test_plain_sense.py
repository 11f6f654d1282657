"""Plain sense per role, at every table size and under every preset (issue 13.2).

Every bot level plays whole games at 5 to 10 players under each rules preset; a wrapper checks
each decision against moves no sensible player makes, from the seat's own view only (what it
holds, what it knows from the engine's ``View``): a liberal chancellor holding a liberal enacts
it; a liberal president holding a liberal passes one; once Hitler can win by election a liberal
never nominates a seat it knows is fascist (when another is eligible), nor votes ja on one not
confirmed not Hitler; a liberal tells the truth; an informed fascist elects Hitler in the
zone, wins with a sixth fascist policy when he can, never shoots Hitler and never calls him
fascist. A game that crashes, or plays an illegal move, fails too (``run_game`` raises).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from secret_hitler.bots import Agent, available_bots, make_agent
from secret_hitler.engine import Action, Game, View
from secret_hitler.engine.settings import PRESETS
from secret_hitler.sim.simulator import derive_seed, run_game

LEVELS = [b for b in ("rule", "bayes", "bayes-human") if b in available_bots()]


def _known_fascist(view: View, seat: int) -> bool:
    """This seat knows ``seat`` is of the fascist party (its own investigation or night)."""
    if any(t == seat and party == "fascist" for t, party in view.investigations):
        return True
    return view.known_roles[seat] in ("fascist", "hitler") and seat != view.seat


def _hitler_electable(view: View, seat: int) -> bool:
    return view.fascist_policies >= view.hitler_zone and seat not in view.not_hitler


class Checked(Agent):
    """Delegates to a bot and records every decision that breaks plain sense."""

    def __init__(self, inner: Agent, faults: list[str], counts: Counter[str]) -> None:
        super().__init__(inner.seat, inner.rng)
        self.inner = inner
        self.faults = faults
        self.counts = counts

    def _fault(self, view: View, what: str) -> None:
        self.faults.append(f"{view.role} seat {self.seat}, round {view.round}: {what}")

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        action = self.inner.act(view, legal)
        role = view.role
        informed = role == "fascist" or (
            role == "hitler" and any(r == "fascist" for r in view.known_roles)
        )
        hand = list(view.hand)
        if action.type == "enact":
            self.counts["enact"] += 1
            if role == "liberal" and "liberal" in hand and action.policy != "liberal":
                self._fault(view, f"a liberal chancellor holding {hand} enacted fascist")
            if informed and view.fascist_policies == 5 and "fascist" in hand:
                if action.policy != "fascist":
                    self._fault(view, "a fascist chancellor passed up the sixth fascist policy")
        elif action.type == "discard" and len(hand) == 3:
            self.counts["discard"] += 1
            if role == "liberal" and "fascist" in hand and action.policy != "fascist":
                self._fault(view, f"a liberal president holding {hand} threw a liberal away")
        elif action.type == "nominate":
            self.counts["nominate"] += 1
            c = action.target
            assert c is not None
            others = [
                a.target
                for a in legal
                if a.type == "nominate"
                and a.target is not None
                and not _known_fascist(view, a.target)
            ]
            zone = view.fascist_policies >= view.hitler_zone  # Hitler can win by election
            if role == "liberal" and zone and _known_fascist(view, c) and others:
                self._fault(view, f"a liberal nominated seat {c}, known fascist, in the zone")
        elif action.type == "vote":
            self.counts["vote"] += 1
            p, c = view.candidate, view.nominee
            assert p is not None and c is not None
            if role == "liberal" and action.ja and _known_fascist(view, c):
                if _hitler_electable(view, c):
                    self._fault(view, f"a liberal voted ja on seat {c}, known fascist, in the zone")
            if informed and view.known_roles[c] == "hitler" and _hitler_electable(view, c):
                if not action.ja:
                    self._fault(view, "a fascist voted nein on Hitler's winning chancellorship")
        elif action.type == "execute":
            self.counts["execute"] += 1
            if informed and view.known_roles[action.target or 0] == "hitler":
                self._fault(view, "a fascist shot Hitler")
        return action

    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        made = self.inner.claims(view, options)
        for claim in made:
            self.counts["claim"] += 1
            if view.role == "liberal" and not _true_claim(view, claim):
                self._fault(view, f"a liberal claimed falsely: {claim.to_json()}")
            if (
                claim.subject == "investigation"
                and view.role == "fascist"
                and claim.target is not None
                and view.known_roles[claim.target] == "hitler"
                and claim.party == "fascist"
            ):
                self._fault(view, "a fascist called Hitler fascist")
        return made


def _true_claim(view: View, claim: Action) -> bool:
    """Whether ``claim`` states what this seat saw (its private events in the view)."""
    last: dict[str, Any] = {}
    for e in view.events:
        if e["type"] in ("drew", "received", "peek", "investigation"):
            last[e["type"]] = e
    subject = claim.subject
    if subject == "president_hand":
        return sorted(claim.policies or ()) == sorted(last["drew"]["policies"])
    if subject == "chancellor_hand":
        return sorted(claim.policies or ()) == sorted(last["received"]["policies"])
    if subject == "peek":
        return list(claim.policies or ()) == list(last["peek"]["policies"])
    if subject == "investigation":
        return any(t == claim.target and p == claim.party for t, p in view.investigations)
    return True


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("level", LEVELS)
def test_plain_sense_at_every_size(level: str, preset: str) -> None:
    faults: list[str] = []
    counts: Counter[str] = Counter()
    games = 2 if level == "rule" else 1
    for players in range(5, 11):
        for g in range(games):
            seed = derive_seed("plain-sense", level, preset, players, g)
            game = Game(players, preset, seed)
            agents = [
                Checked(make_agent(level, s, seed + s), faults, counts) for s in range(players)
            ]
            run_game(game, agents)
            assert game.finished
    assert not faults, "\n".join(faults[:10])
    # The checks ran on real decisions of every kind.
    for kind in ("enact", "discard", "nominate", "vote", "claim"):
        assert counts[kind] > 0, kind


def test_the_checks_catch_a_liberal_who_enacts_fascist() -> None:
    """The wrapper is not vacuous: a liberal chancellor who always enacts fascist is caught."""

    class Traitor(Agent):
        def __init__(self, inner: Agent) -> None:
            super().__init__(inner.seat, inner.rng)
            self.inner = inner

        def act(self, view: View, legal: Sequence[Action]) -> Action:
            for a in legal:
                if a.type == "enact" and a.policy == "fascist":
                    return a
            return self.inner.act(view, legal)

        def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
            return self.inner.claims(view, options)

    faults: list[str] = []
    counts: Counter[str] = Counter()
    for seed in range(6):
        game = Game(7, "official", seed)
        agents = [
            Checked(Traitor(make_agent("rule", s, seed + s)), faults, counts) for s in range(7)
        ]
        run_game(game, agents)
    assert any("enacted fascist" in f for f in faults)
