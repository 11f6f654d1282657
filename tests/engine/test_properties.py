"""Property-based tests: random legal play for every preset and player count.

Hypothesis draws the game seed and the random choices. Each property re-derives what the rules
say from the public event log (an independent model of rotation and term limits) and checks the
engine against it at every step.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from engine_helpers import random_action, snapshot
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from reference_view import PARTY, dealt_knowledge

from secret_hitler.engine import PRESETS, Action, Game, IllegalAction, Phase, Policy, Reason
from secret_hitler.engine.actions import ACTION_TYPES, CLAIM_SUBJECTS, TARGETED

PRESET_NAMES = list(PRESETS)
COUNTS = list(range(5, 11))
MAX_ACTIONS = 3000

_checks = [HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large]
fast = settings(max_examples=10, deadline=None, suppress_health_check=_checks)
slow = settings(max_examples=100, deadline=None, suppress_health_check=_checks)

seeds = st.integers(min_value=0, max_value=2**32 - 1)
# A game takes hundreds of choices: a Random seeded by Hypothesis keeps the examples small
# (Hypothesis-generated values for every choice overrun its buffer on long games).
choices = st.randoms(use_true_random=True)


# =============================================================================== the model
class Model:
    """Rotation (E1, P2, A10) and term limits (E3, E4, C2, A8, A11, presets) from public events."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.rules = game.rules
        self.alive = [True] * game.n
        self.round = 0
        self.anchor: int | None = None
        self.special: int | None = None
        self.government: tuple[int, int] | None = None
        self.elected: tuple[int, int, int] | None = None  # president, chancellor, round
        self.enacted: tuple[int, int] | None = None
        self.seen = 0
        self.feed()

    def feed(self) -> None:
        game = self.game
        for event in game.events[self.seen :]:
            kind, data = event.type, event.data
            if kind == "candidate":
                assert data["seat"] == self.next_candidate(), (data, self.anchor, self.special)
                assert self.alive[data["seat"]]
                self.round = data["round"]
            elif kind == "elected":
                self.government = (data["president"], data["chancellor"])
                self.elected = (data["president"], data["chancellor"], self.round)
            elif kind == "enacted" and not data["chaos"]:
                self.enacted = self.government
            elif kind == "chaos" and self.rules.chaos_clears_term_limits:
                self.elected = self.enacted = None
            elif kind == "executed":
                self.alive[data["target"]] = False
            elif kind == "special_election":
                self.special = data["target"]
                self.anchor = data["president"]
        self.seen = len(game.events)

    def next_candidate(self) -> int:
        if self.anchor is None:
            first = 0 if self.rules.first_president == "first_seat" else self.game.first_president
            self.anchor = first
            return first
        if self.special is not None:
            seat, self.special = self.special, None
            return seat
        seat = self.anchor
        while True:
            seat = (seat + 1) % self.game.n
            if self.alive[seat]:
                self.anchor = seat
                return seat

    def barred(self) -> set[int]:
        rules = self.rules
        if rules.term_limits == "last_enacted":
            government = self.enacted
        elif rules.term_limits == "last_elected":
            government = self.elected[:2] if self.elected else None
        else:  # previous_round
            government = (
                self.elected[:2] if self.elected and self.elected[2] == self.round - 1 else None
            )
        if government is None:
            return set()
        president, chancellor = government
        exception = rules.small_table_exception
        if (exception == "living" and sum(self.alive) <= 5) or (
            exception == "started" and self.game.n == 5
        ):
            return {chancellor}
        return {president, chancellor}

    def eligible(self) -> set[int]:
        candidate = self.game.candidate
        others = {s for s in range(self.game.n) if self.alive[s] and s != candidate}
        return (others - self.barred()) or others  # A11


def check_state(game: Game, model: Model) -> None:
    rules = game.rules
    model.feed()
    assert model.alive == game.alive
    # Policies are conserved: draw pile + discard pile + hand + tracks.
    deck, start = rules.deck_for(game.n), rules.start_track_for(game.n)
    lib_total = deck[0] + start[0]
    fas_total = deck[1] + start[1]
    hand = game.hand
    assert (
        game.draw_pile + game.discard_pile + len(hand) + game.liberal + game.fascist
        == lib_total + fas_total
    )
    draw_lib = lib_total - game.discard_liberal - hand.count(Policy.LIBERAL) - game.liberal
    draw_fas = fas_total - game.discard_fascist - hand.count(Policy.FASCIST) - game.fascist
    assert 0 <= draw_lib <= game.draw_pile and draw_lib + draw_fas == game.draw_pile
    assert len(hand) in (
        (3,)
        if game.phase.value == "discard"
        else (2,)
        if game.phase.value in ("enact", "veto_response")
        else (0,)
    )
    # The tracker never rests at 3, but where a top-deck ended the game.
    assert 0 <= game.tracker <= (3 if game.reason is Reason.TOP_DECKED else 2)
    if game.finished:
        assert game.to_act() == []
        return
    to_act = game.to_act()
    if game.phase is Phase.ASSASSINATE:  # Hitler chooses, even just executed
        assert to_act == [[r.value for r in game.roles].index("hitler")]
    else:
        assert to_act and all(game.alive[s] for s in to_act)
    for seat in range(game.n):
        legal = game.legal_actions(seat)
        decisions = [a for a in legal if a.type != "claim"]
        assert bool(decisions) == (seat in to_act), (seat, to_act, legal)
    if game.phase.value == "nominate":
        assert game.draw_pile >= 3  # D1: the next session will find 3 policies
        assert set(game.eligible_chancellors()) == model.eligible(), (
            model.barred(),
            game.term_limited(),
        )
        targets = {a.target for a in game.legal_actions(game.candidate) if a.type == "nominate"}
        assert targets == model.eligible()


def check_end(game: Game) -> None:
    assert game.finished and game.winner is not None
    reason = game.reason.value
    roles = [r.value for r in game.roles]
    hitler = roles.index("hitler")
    # Avalon SH: a liberal win went through Hitler's assassination, who missed Merlin
    avalon = game.rules.avalon != "off"
    assassinated = [e.data for e in game.events if e.type == "assassinated"]
    if reason in ("five_liberal_policies", "hitler_executed") or reason == "merlin_assassinated":
        assert bool(assassinated) == avalon
        if avalon:
            assert (roles[assassinated[0]["target"]] == "merlin") == (
                reason == "merlin_assassinated"
            )
    if reason == "five_liberal_policies":
        assert game.liberal == 5 and game.winner.value == "liberal"
    elif reason == "six_fascist_policies":
        assert game.fascist == 6 and game.winner.value == "fascist"
    elif reason == "hitler_executed":
        assert not game.alive[hitler] and game.winner.value == "liberal"
    elif reason == "merlin_assassinated":
        assert game.winner.value == "fascist"
        assert game.liberal == 5 or not game.alive[hitler]
    elif reason == "top_decked":
        assert game.rules.top_decking != "allowed" and game.winner.value == "fascist"
        assert game.tracker == 3 and game.events[-2].type == "tracker"
    else:
        assert reason == "hitler_elected" and game.chancellor == hitler
        assert game.fascist >= game.rules.hitler_zone and game.winner.value == "fascist"


# =============================================================================== invariants
@pytest.mark.parametrize("n", COUNTS)
@pytest.mark.parametrize("preset", PRESET_NAMES)
@fast
@given(seed=seeds, rng=choices)
def test_random_legal_play_keeps_every_invariant_and_ends_with_a_winner(preset, n, seed, rng):
    game = Game(n, preset, seed)
    model = Model(game)
    check_state(game, model)
    for _ in range(MAX_ACTIONS):
        if game.finished:
            break
        action = random_action(game, rng, claim_prob=0.1)
        assert game.is_legal(action)
        if action.type == "nominate":
            assert action.target in model.eligible()
        game.apply(action)
        check_state(game, model)
    check_end(game)
    note(f"{len(game.actions)} actions, {game.reason.value}")


# =============================================================================== illegal actions
def random_probe(game: Game, rng: random.Random) -> Action:
    """A well-formed action that may or may not be legal; biased towards plausible ones."""
    n = game.n
    to_act = game.to_act() or [0]
    seat = rng.choice(to_act) if rng.random() < 0.6 else rng.randrange(-1, n + 1)
    kind = rng.choice(ACTION_TYPES)
    target = rng.randrange(-1, n + 1)
    policy = rng.choice(list(Policy))
    if kind in TARGETED:
        return Action(seat, kind, target=target)
    if kind == "vote":
        return Action(seat, kind, ja=rng.random() < 0.5)
    if kind in ("discard", "enact"):
        return Action(seat, kind, policy=policy)
    if kind == "veto":
        return Action(seat, kind, policy=rng.choice([None, policy]))
    if kind == "veto_response":
        return Action(seat, kind, accept=rng.random() < 0.5)
    subject = rng.choice(CLAIM_SUBJECTS)
    if subject == "investigation":
        return Action.claim_investigation(seat, target, rng.choice(["liberal", "fascist"]))
    size = rng.choice([2, 3, 3, 4])
    return Action.claim_policies(seat, subject, [rng.choice(list(Policy)) for _ in range(size)])


def canonical(action: Action) -> Action:
    """Hand claims are multisets: legal_actions lists them fascist first, any order is legal."""
    if (
        action.type == "claim"
        and action.subject in ("president_hand", "chancellor_hand")
        and action.policies
    ):
        ordered = tuple(sorted(action.policies, key=lambda p: p is Policy.LIBERAL))
        return Action(action.seat, "claim", subject=action.subject, policies=ordered)
    return action


@slow
@given(preset=st.sampled_from(PRESET_NAMES), n=st.sampled_from(COUNTS), seed=seeds, rng=choices)
def test_random_illegal_action_is_rejected_and_changes_nothing(preset, n, seed, rng):
    game = Game(n, preset, seed)
    probes = 0
    while True:
        if game.finished or rng.random() < 0.06:
            before = snapshot(game)
            legal = {a for s in range(n) for a in game.legal_actions(s)}
            for _ in range(8):
                action = random_probe(game, rng)
                if canonical(action) in legal:
                    assert game.is_legal(action)
                    continue
                assert not game.is_legal(action), action
                with pytest.raises(IllegalAction) as info:
                    game.apply(action)
                assert info.value.code and info.value.message
                probes += 1
            assert snapshot(game) == before
        if game.finished:
            break
        game.apply(random_action(game, rng, claim_prob=0.1))
    assert probes > 0


# =============================================================================== non-interference
def observed_positions(game: Game, seat: int) -> set[tuple[int, int]]:
    """(pile, position) of each policy ``seat`` saw, or that was made public (chaos).

    Pile 0 is the initial deck, pile i the i-th reshuffle; positions count from the top.
    """
    pile = pos = 0
    seen: set[tuple[int, int]] = set()
    for event in game.events:
        kind, data = event.type, event.data
        if kind == "legislative_session":
            if seat in (data["president"], data["chancellor"]):
                seen.update((pile, pos + i) for i in range(3))
            pos += 3
        elif kind == "chaos":
            seen.add((pile, pos))
            pos += 1
        elif kind == "peek" and event.audience is not None and seat in event.audience:
            seen.update((pile, pos + i) for i in range(3))
        elif kind == "reshuffled":
            pile, pos = pile + 1, 0
    return seen


def unseen_deck(game: Game, seat: int, rng: random.Random) -> tuple[list[str], list[list[str]]]:
    """The deck and reshuffles, with the policies ``seat`` never saw permuted among themselves."""
    seen = observed_positions(game, seat)
    piles = [list(game.initial_deck), *(list(p) for p in game.reshuffles)]
    out = []
    for index, pile in enumerate(piles):
        free = [i for i in range(len(pile)) if (index, i) not in seen]
        values = [pile[i] for i in free]
        rng.shuffle(values)
        new = list(pile)
        for i, v in zip(free, values, strict=True):
            new[i] = v
        out.append([p.value for p in new])
    return out[0], out[1:]


def unseen_roles(game: Game, seat: int, rng: random.Random) -> list[str]:
    """Roles with those ``seat`` does not know permuted, keeping everything it could observe:
    what it was shown at the deal (``reference_view.dealt_knowledge``: exact roles, parties,
    Percival's pair), its investigations, every public reveal of the whole game (executions,
    E8, Hitler at the assassination and the assassinated seat's card) and, for Hitler, what he
    was shown at the assassination. The seats whose party it knows are shuffled among their
    party, Percival's pair between themselves, the others among themselves."""
    roles = [r.value for r in game.roles]
    dealt = dealt_knowledge(roles, seat, game.hitler_knows)
    fixed_party: dict[int, str] = {}
    fixed_hitler: dict[int, bool] = {}
    fixed_role: dict[int, str] = {}
    for event in game.events:
        kind, data = event.type, event.data
        if kind == "investigation" and event.audience == (seat,):
            fixed_party[data["target"]] = data["party"]
        elif kind == "executed":
            fixed_hitler[data["target"]] = roles[data["target"]] == "hitler"
            if "role" in data:
                fixed_role[data["target"]] = data["role"]
        elif kind == "not_hitler":
            fixed_hitler[data["seat"]] = False
        elif kind == "assassination":
            fixed_hitler[data["hitler"]] = True
        elif kind == "assassin_sight" and event.audience == (seat,):
            for s, r in enumerate(roles):
                if r in ("fascist", "morgana"):
                    fixed_role[s] = r
                fixed_party[s] = PARTY[r]
        elif kind == "assassinated":
            fixed_role[data["target"]] = data["role"]
    if game.reason is not None and game.reason.value in ("hitler_elected", "hitler_executed"):
        fixed_hitler[roles.index("hitler")] = True
    known_party = {**fixed_party, **dealt[1], **{s: PARTY[r] for s, r in dealt[0].items()}}
    pair = dealt[2] or ()  # Percival's: Merlin and Morgana, shuffled between themselves
    groups: dict[tuple[str | None, bool], list[int]] = {}
    for s in range(game.n):
        if s != seat:
            groups.setdefault((known_party.get(s), s in pair), []).append(s)
    for _ in range(30):
        new = list(roles)
        for members in groups.values():
            values = [roles[s] for s in members]
            rng.shuffle(values)
            for s, v in zip(members, values, strict=True):
                new[s] = v
        if (
            dealt_knowledge(new, seat, game.hitler_knows) == dealt
            and all(PARTY[new[s]] == p for s, p in fixed_party.items())
            and all((new[s] == "hitler") == h for s, h in fixed_hitler.items())
            and all(new[s] == r for s, r in fixed_role.items())
        ):
            return new
    return roles


def _without_roles(view: dict) -> dict:
    view = dict(view)
    view.pop("known_roles")
    view.pop("known_parties")
    view.pop("winners")  # the Monarchist's win is his own
    view.pop("proven_not_hitler")  # at the end it is everyone but Hitler (W2), so roles too
    view["events"] = [
        {k: v for k, v in e.items() if k not in ("roles", "winners")} for e in view["events"]
    ]
    return view


@slow
@given(
    preset=st.sampled_from(PRESET_NAMES),
    n=st.sampled_from(COUNTS),
    seed=seeds,
    rng=choices,
    observer=st.integers(min_value=0, max_value=9),
)
def test_view_depends_only_on_what_the_seat_has_observed(preset, n, seed, rng, observer):
    check_view_depends_only_on_what_the_seat_has_observed(preset, n, seed, rng, observer % n)


def check_view_depends_only_on_what_the_seat_has_observed(
    preset: Any, n: int, seed: int, rng: random.Random, seat: int
) -> None:
    """Play a game of ``preset`` (a preset name or rules) at random; replay its actions in two
    games that differ only in what ``seat`` never observed (``unseen_roles``, ``unseen_deck``):
    the seat and the spectator get the same view at every step."""
    original = Game(n, preset, seed)
    while not original.finished:
        original.apply(random_action(original, rng, claim_prob=0.1))
    roles = unseen_roles(original, seat, rng)
    deck, reshuffles = unseen_deck(original, seat, rng)
    note(f"seat {seat}: roles {roles} vs {[r.value for r in original.roles]}")
    first = Game(
        n,
        preset,
        roles=[r.value for r in original.roles],
        first_president=original.first_president,
        deck=[p.value for p in original.initial_deck],
        reshuffles=[[p.value for p in pile] for pile in original.reshuffles],
    )
    other = Game(
        n,
        preset,
        roles=roles,
        first_president=original.first_president,
        deck=deck,
        reshuffles=reshuffles,
    )
    for who in (seat, None):
        assert first.view(who).to_json() == other.view(who).to_json()
    compared = 0
    for action in original.actions:
        if not other.is_legal(action):
            break  # a different hidden state allows different actions: stop here
        first.apply(action)
        other.apply(action)
        if first.finished or other.finished:
            assert first.finished and other.finished
            assert (first.winner, first.reason) == (other.winner, other.reason)
            for who in (seat, None):
                assert _without_roles(first.view(who).to_json()) == _without_roles(
                    other.view(who).to_json()
                )
            break
        for who in (seat, None):
            assert first.view(who).to_json() == other.view(who).to_json(), (who, action)
        compared += 1
    note(f"compared {compared} of {len(original.actions)} steps")
    assert compared > 0
