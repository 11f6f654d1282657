"""Hidden worlds consistent with one seat's information, for search (OpenSpiel's
``ResampleFromInfostate``): given a role assignment that fits what the seat knows, a deck (the
initial pile and every past reshuffle, top first) and the hidden actions (the presidents'
discards, vetoes after the choice) are drawn session by session, uniformly among what is left,
consistent with everything the seat saw: its own hands and peeks, every enacted and chaos
policy, the public actions of the log. The world is an engine ``Game`` built with those fixings
and replayed to the seat's moment, so the seat's view of it is its real view (votes in an open
election aside: the other voters' hidden ballots are left to whoever plays the world on).

``sample_world(view, roles, rng)`` is the one entry point; a sample that cannot explain the view
raises ``WorldError`` (a caller draws again). The roles are checked against everything the seat
knows of them: the exact roles it was shown or saw revealed, the parties it knows (Merlin's
fascists, a teammate shown by party, its investigations, Hitler's targets at Avalon SH's
assassination) and Percival's pair (Merlin and Morgana, in some order); a deal that is not the
rules' role cards is the caller's mistake (``ValueError``). The deck rules it follows (reshuffles of the draw
and discard piles, a veto proposed after the choice) are the engine's, replayed by ``Game``. The
world draws its future reshuffles from a seed, or under ``chance="explicit"`` stops at each as a
chance node (as OpenSpiel's resampler wants it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from . import actions as A
from .actions import Action
from .errors import GameError
from .game import Game
from .roles import night
from .settings import Rules
from .types import PARTY_OF_NAME, Policy, Role
from .view import View

#: The official roles: a deal of them that agrees with the roles a seat knows shows it the
#: night it saw (its teammates by role, the count fixing the rest).
_OFFICIAL_ROLES = frozenset({Role.LIBERAL.value, Role.FASCIST.value, Role.HITLER.value})

L, F = Policy.LIBERAL, Policy.FASCIST


class WorldError(Exception):
    """A sampled world that cannot reproduce the seat's view (rejected and resampled)."""


class _Pile:
    """One draw pile being dealt top first: the cards fixed so far and the unassigned rest."""

    def __init__(self, lib: int, fas: int) -> None:
        self.order: list[Policy] = []
        self.left = [lib, fas]
        self.forced: list[Policy] = []  # the next cards, known from this seat's peek

    def draw(self, rng: random.Random, fixed: Sequence[Policy] | None = None) -> Policy:
        """The next card: a peeked one, ``fixed[0]`` if given, else uniform among those left."""
        if self.forced:
            card = self.forced.pop(0)  # already taken from ``left`` when it was peeked
            if fixed and fixed[0] != card:
                raise WorldError("a peeked card differs from the draw")
        else:
            if fixed:
                card = fixed[0]
            else:
                lib, fas = self.left
                if lib + fas == 0:
                    raise WorldError("the pile is empty")
                card = L if rng.random() * (lib + fas) < lib else F
            self.take(0 if card is L else 1)
        self.order.append(card)
        return card

    def take(self, i: int) -> None:
        """Remove one card of kind ``i`` (0 liberal, 1 fascist) from the unassigned rest."""
        if self.left[i] <= 0:
            raise WorldError("no such card left in the pile")
        self.left[i] -= 1

    def draw_hand(
        self,
        rng: random.Random,
        exact: Sequence[Policy] | None,
        contains: Sequence[Policy],
        size: int = 3,
    ) -> list[Policy]:
        """``size`` cards: exactly ``exact`` (top first) if known, else uniform among the cards
        left given that the hand holds every policy of ``contains`` (by rejection)."""
        if exact is not None:
            return [self.draw(rng, [c]) for c in exact]
        if self.forced:
            hand = [self.draw(rng) for _ in range(size)]
            if not _holds(hand, contains):
                raise WorldError("the peeked hand cannot explain the session")
            return hand
        lib, fas = self.left
        for _ in range(32):
            hand = []
            left = [lib, fas]
            for _ in range(size):
                total = left[0] + left[1]
                if total == 0:
                    raise WorldError("the pile is empty")
                card = L if rng.random() * total < left[0] else F
                left[0 if card is L else 1] -= 1
                hand.append(card)
            if _holds(hand, contains):
                for card in hand:
                    self.take(0 if card is L else 1)
                    self.order.append(card)
                return hand
        raise WorldError("no hand explains the session")

    def rest(self, rng: random.Random) -> list[Policy]:
        """The whole pile in deal order: fixed cards, then the peeked ones, then the rest shuffled."""
        tail = [L] * self.left[0] + [F] * self.left[1]
        rng.shuffle(tail)
        return self.order + self.forced + tail

    def remaining(self) -> tuple[int, int]:
        lib = self.left[0] + self.forced.count(L)
        fas = self.left[1] + self.forced.count(F)
        return lib, fas


def _holds(hand: Sequence[Policy], needed: Sequence[Policy]) -> bool:
    rest = list(hand)
    for p in needed:
        if p not in rest:
            return False
        rest.remove(p)
    return True


class _Session:
    """A legislative session of the log, whose hidden cards are sampled when it closes."""

    def __init__(self, president: int, chancellor: int) -> None:
        self.president = president
        self.chancellor = chancellor
        self.drew: list[Policy] | None = None  # this seat drew them
        self.passed: Policy | None = None  # this seat discarded it (as president)
        self.received: list[Policy] | None = None  # this seat received them
        self.discard_slot: int | None = None  # index of the president's discard action
        self.veto_slot: int | None = None
        self.veto_accepted: bool | None = None
        self.enacted: Policy | None = None
        self.enact_slot: int | None = None


class _WorldBuilder:
    """Turns one seat's event log and a role assignment into the fixings and actions of a game."""

    def __init__(self, view: View, rules: Rules, rng: random.Random) -> None:
        self.view = view
        self.seat = view.seat
        self.rules = rules
        self.rng = rng
        lib, fas = rules.deck_for(view.players)
        self.piles: list[list[Policy]] = []
        self.pile = _Pile(lib, fas)
        self.discards = [0, 0]
        self.actions: list[Action | None] = []
        self.session: _Session | None = None
        self.first: int | None = None
        self.voted: set[int] = set()  # seats whose open-election vote was already replayed
        # (seat, slot in ``actions``) of each secret ballot noticed in the open election, in
        # order: filled when the votes are revealed (claims may come between the ballots)
        self.noticed: list[tuple[int, int]] = []

    def build(self) -> tuple[list[Policy], list[list[Policy]], list[Action], int | None]:
        for e in self.view.events:
            handler = getattr(self, "_on_" + e["type"], None)
            if handler is not None:
                handler(e)
        self._close()
        piles = [*self.piles, self.pile.rest(self.rng)]
        # the ballots of an election still open are left to whoever plays the world on
        unrevealed = {slot for _, slot in self.noticed}
        kept = [a for i, a in enumerate(self.actions) if i not in unrevealed]
        actions = [a for a in kept if a is not None]
        if len(actions) != len(kept):
            raise WorldError("a hidden action was not resolved")
        return piles[0], piles[1:], actions, self.first

    # ------------------------------------------------------------------ public actions
    def _on_candidate(self, e: Any) -> None:
        if self.first is None:
            self.first = e["seat"]

    def _on_nominated(self, e: Any) -> None:
        self.voted = set()
        self.noticed = []
        self.actions.append(Action.nominate(e["president"], e["chancellor"]))

    def _on_voted(self, e: Any) -> None:
        if "ja" in e:  # public sequential voting: every vote is seen as it is cast
            self.voted.add(e["seat"])
            self.actions.append(Action.vote(e["seat"], bool(e["ja"])))
        else:
            self.noticed.append((e["seat"], len(self.actions)))
            self.actions.append(None)

    def _on_votes(self, e: Any) -> None:
        """The secret ballots, revealed: each replayed where its notice is in the log (the
        order they were cast, claims between them kept), so the world logs the same events."""
        votes = e["votes"]
        noticed = {s for s, _ in self.noticed}
        for s, slot in self.noticed:
            v = votes[s]
            if v is None:
                raise WorldError("a noticed ballot is missing from the revealed votes")
            self.actions[slot] = Action.vote(s, bool(v))
        for s, v in enumerate(votes):  # a log without notices: in seat order
            if v is not None and s not in self.voted and s not in noticed:
                self.actions.append(Action.vote(s, bool(v)))
        self.voted = set()
        self.noticed = []

    def _on_claim(self, e: Any) -> None:
        data = {k: v for k, v in e.items() if k != "type"}
        self.actions.append(Action.from_json({**data, "type": A.CLAIM}))

    def _on_investigated(self, e: Any) -> None:
        self.actions.append(Action.investigate(e["president"], e["target"]))

    def _on_special_election(self, e: Any) -> None:
        self.actions.append(Action(e["president"], A.SPECIAL_ELECTION, target=e["target"]))

    def _on_executed(self, e: Any) -> None:
        self.actions.append(Action(e["president"], A.EXECUTE, target=e["target"]))

    # ------------------------------------------------------------------ the deck
    def _on_legislative_session(self, e: Any) -> None:
        self._close()
        self.session = _Session(e["president"], e["chancellor"])

    def _on_drew(self, e: Any) -> None:
        assert self.session is not None
        self.session.drew = [Policy(p) for p in e["policies"]]

    def _on_passed(self, e: Any) -> None:
        assert self.session is not None
        self.session.passed = Policy(e["discarded"])

    def _on_received(self, e: Any) -> None:
        assert self.session is not None
        self.session.received = [Policy(p) for p in e["policies"]]

    def _on_president_discarded(self, e: Any) -> None:
        assert self.session is not None
        self.session.discard_slot = len(self.actions)
        self.actions.append(None)

    def _on_veto_proposed(self, e: Any) -> None:
        assert self.session is not None
        self.session.veto_slot = len(self.actions)
        self.actions.append(None)

    def _on_veto(self, e: Any) -> None:
        s = self.session
        assert s is not None
        s.veto_accepted = bool(e["accepted"])
        self.actions.append(Action.veto_response(e["president"], s.veto_accepted))

    def _on_enacted(self, e: Any) -> None:
        if e["chaos"]:
            return
        s = self.session
        assert s is not None
        s.enacted = Policy(e["policy"])
        if not (s.veto_slot is not None and self.rules.veto_after_choice):
            s.enact_slot = len(self.actions)
            self.actions.append(Action.enact(s.chancellor, s.enacted))
        self._close()

    def _on_chaos(self, e: Any) -> None:
        self._close()
        self.pile.draw(self.rng, [Policy(e["policy"])])

    def _on_peek(self, e: Any) -> None:
        self._close()
        cards = [Policy(p) for p in e["policies"]]
        for c in cards:
            self.pile.take(0 if c is L else 1)
        self.pile.forced = cards

    def _on_reshuffled(self, e: Any) -> None:
        self._close()
        lib, fas = self.pile.remaining()
        self.piles.append(self.pile.rest(self.rng))
        self.pile = _Pile(lib + self.discards[0], fas + self.discards[1])
        self.discards = [0, 0]

    def _discard(self, p: Policy) -> None:
        self.discards[0 if p is L else 1] += 1

    def _close(self) -> None:
        """Sample the open session's hidden cards and fill its hidden actions."""
        s = self.session
        if s is None:
            return
        self.session = None
        rng = self.rng
        needed: list[Policy] = []
        if s.received is not None:
            needed = list(s.received)
        elif s.enacted is not None:
            needed = [s.enacted]
        exact = s.drew
        if exact is None and s.received is not None and not self.pile.forced:
            # The card this seat did not receive, uniform among the others left; it goes on top
            # so that the pair keeps the order this seat received it in.
            lib, fas = self.pile.left
            lib -= s.received.count(L)
            fas -= s.received.count(F)
            if lib < 0 or fas < 0 or lib + fas == 0:
                raise WorldError("the pile cannot hold the received pair")
            exact = [L if rng.random() * (lib + fas) < lib else F, *s.received]
        hand = self.pile.draw_hand(rng, exact, needed)
        if s.discard_slot is None:  # the session is still at the president's discard
            return
        # The president's discard: known to this seat, or one that leaves what followed possible.
        if s.passed is not None:
            discard = s.passed
        elif s.received is not None:
            rest = list(hand)
            for p in s.received:
                rest.remove(p)
            discard = rest[0]
        else:
            options = []
            for d in (L, F):
                if d in hand:
                    pair = list(hand)
                    pair.remove(d)
                    if s.enacted is None or s.enacted in pair:
                        options.append(d)
            if not options:
                raise WorldError("no discard explains the session")
            discard = options[int(rng.random() * len(options))]
        self.actions[s.discard_slot] = Action.discard(s.president, discard)
        self._discard(discard)
        pair = list(hand)
        pair.remove(discard)
        if s.veto_slot is not None:
            choice: Policy | None = None
            if self.rules.veto_after_choice:
                choice = s.enacted if s.enacted is not None else pair[int(rng.random() * 2)]
            self.actions[s.veto_slot] = Action.veto(s.chancellor, choice)
        if s.veto_accepted:
            for p in pair:
                self._discard(p)
        elif s.enacted is not None:
            pair.remove(s.enacted)
            self._discard(pair[0])


def sample_world(
    view: View, roles: Sequence[str], rng: random.Random, chance: str = "sampled"
) -> Game:
    """A game in which ``roles`` hold, whose deck is sampled consistently with ``view``, replayed
    to the moment of ``view``, a decision of its seat (raises ``WorldError`` if that world cannot
    explain the view: roles that contradict what the seat knows, or an unlucky deck sample).
    ``chance``: the world's own (``Game``'s): under ``explicit`` its next reshuffle is a chance
    node rather than a draw from a seed taken from ``rng``."""
    if len(roles) != view.players:
        raise ValueError(f"roles: need {view.players}, got {len(roles)}")
    rules = Rules.from_json(view.events[0]["rules"])  # as the game logged them (game_started)
    cards = rules.composition(view.players)
    if any(list(roles).count(role.value) != count for role, count in cards):
        dealt = ", ".join(f"{count} {role.value}" for role, count in cards)
        raise ValueError(f"roles: these rules deal {dealt}")
    for s, known in enumerate(view.known_roles):
        if known is not None and known != roles[s]:
            raise WorldError(f"seat {s} is known to be {known}")
    for s, party in enumerate(view.known_parties):  # investigations included
        if party is not None and party != PARTY_OF_NAME[roles[s]]:
            raise WorldError(f"seat {s} is known to be of the {party} party")
    pair = view.merlin_candidates
    if pair is not None and {roles[s] for s in pair} != {Role.MERLIN.value, Role.MORGANA.value}:
        raise WorldError(f"seats {list(pair)} are Merlin and Morgana")
    if any(role.value not in _OFFICIAL_ROLES for role, _ in cards):
        _check_night(view, roles, rules)
    deck, reshuffles, actions, first = _WorldBuilder(view, rules, rng).build()
    if rules.first_president == "first_seat":
        first = 0
    try:
        game = Game(
            view.players,
            rules,
            None if chance == "explicit" else rng.getrandbits(63),
            roles=list(roles),
            first_president=first,
            deck=deck,
            reshuffles=reshuffles,
            chance=chance,
        )
        apply = game.apply
        for action in actions:
            apply(action)
    except GameError as exc:
        raise WorldError(f"the sampled world diverges: {exc.message}") from None
    if game.finished or game.phase != view.phase or view.seat not in game.to_act():
        raise WorldError("the sampled world is not at the view's moment")
    return game


def _check_night(view: View, roles: Sequence[str], rules: Rules) -> None:
    """The night ``roles`` would show the view's seat must be the one it saw: seats shown by
    party say which seats are of that party, not which of them is not Hitler (the Monarchist is
    shown his teammates but never Hitler), so the parties alone do not fix it."""
    seat = view.seat
    assert seat is not None, "a world explains a seat's view"
    shown = dict(night([Role(r) for r in roles], rules.hitler_knows(view.players))).get(seat)
    saw = next((e for e in view.events if e.kind == "night"), None)
    if (shown is None) != (saw is None) or (
        saw is not None and {k: v for k, v in saw.items() if k != "type"} != dict(shown or {})
    ):
        raise WorldError("these roles would have shown the seat another night")


__all__ = ["WorldError", "sample_world"]
