"""The game: pure state transitions over a mutable, slotted state.

``Game.apply`` validates an action completely before it changes anything, so an illegal action
raises ``IllegalAction`` and leaves the game exactly as it was. Every chance event (the role
deal, the first president, the initial deck, each reshuffle) comes from one ``random.Random``
seeded once, unless a record fixes it; all of them are kept so that ``to_record`` can replay the
game without the seed. Under ``chance="explicit"`` the game instead stops at each chance event
that no fixing decides, a chance node (engine/chance.py), until its outcome is applied like an
action; a transition that a reshuffle interrupts carries on from where it stopped
(``_resume``). ``push``/``pop`` undo steps (engine/undo.py).

This module keeps the official game's transitions, each of which every game type shares (the
deal, elections, sessions, powers, chaos, reshuffles, the wins), and the fast paths of the
simulation loop (votes, interned legal actions, shared events): splitting them would add a call
to every step. What secrethitler.io's game types change lives in their own modules, which the
transitions call only at the rare points where a game type differs: the role cards and what each
seat is shown at the deal, the winners (engine/roles.py), the assassination that replaces a
liberal win under Avalon SH (engine/avalon.py), the top-decking rule at a failed election's chaos
(engine/top_decking.py), and a timer's forced move (engine/forced.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from enum import Enum
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from . import actions as A
from . import avalon
from . import events as E
from .actions import Action
from .chance import (
    DEAL,
    DECK,
    FIRST_PRESIDENT,
    RESHUFFLE,
    START,
    Chance,
    ChanceNode,
    Piles,
    Seats,
    deals_of,
    fixings_of,
)
from .errors import GameError, IllegalAction, InvalidRecord, InvalidSettings, brief
from .events import Event, ReadOnlyDict, ReadOnlyList, TypedEvent, freeze
from .forced import forced_action
from .observer import Observer
from .roles import night, tells_winners, winners_of
from .settings import CHAOS_AT, FASCIST_TRACK, LIBERAL_TRACK, MAX_PLAYERS, Rules
from .top_decking import ALLOWED, ends_game
from .types import Party, Phase, Policy, Power, Reason, Role, Winner
from .undo import Snapshot, copy_state
from .view import View
from .writer import write_record

L = Policy.LIBERAL
F = Policy.FASCIST
_MAX_SEATS = MAX_PLAYERS

# Interned actions: legal-move generation allocates nothing.
_VOTES = [(Action(s, A.VOTE, ja=True), Action(s, A.VOTE, ja=False)) for s in range(_MAX_SEATS)]
_TARGET_ACTIONS = {
    kind: [[Action(s, kind, target=t) for t in range(_MAX_SEATS)] for s in range(_MAX_SEATS)]
    for kind in A.TARGETED
}
_POLICY_ACTIONS = {
    kind: [{p: Action(s, kind, policy=p) for p in (L, F)} for s in range(_MAX_SEATS)]
    for kind in (A.DISCARD, A.ENACT, A.VETO)
}
_NOMINATIONS = _TARGET_ACTIONS[A.NOMINATE]
_DISCARDS = _POLICY_ACTIONS[A.DISCARD]
_ENACTMENTS = _POLICY_ACTIONS[A.ENACT]
_PLAIN_VETO = [Action(s, A.VETO) for s in range(_MAX_SEATS)]
_VETO_RESPONSES = [
    (Action(s, A.VETO_RESPONSE, accept=True), Action(s, A.VETO_RESPONSE, accept=False))
    for s in range(_MAX_SEATS)
]
_HAND_CLAIMS = {
    3: [tuple([F] * (3 - k) + [L] * k) for k in range(4)],
    2: [tuple([F] * (2 - k) + [L] * k) for k in range(3)],
}
_PEEK_CLAIMS = [(a, b, c) for a in (F, L) for b in (F, L) for c in (F, L)]
# Interned claims: every claim a seat may be offered, by subject (and investigated seat).
_POLICY_CLAIMS = {
    subject: [
        tuple(
            Action(s, A.CLAIM, subject=subject, policies=c)
            for c in (_PEEK_CLAIMS if subject == A.CLAIM_PEEK else _HAND_CLAIMS[size])
        )
        for s in range(_MAX_SEATS)
    ]
    for subject, size in A.CLAIM_SIZES.items()
}
_INVESTIGATION_CLAIMS = [
    [
        tuple(Action(s, A.CLAIM, subject=A.CLAIM_INVESTIGATION, target=t, party=p) for p in Party)
        for t in range(_MAX_SEATS)
    ]
    for s in range(_MAX_SEATS)
]

_POWER_PHASE = {
    Power.INVESTIGATE: Phase.INVESTIGATE,
    Power.SPECIAL_ELECTION: Phase.SPECIAL_ELECTION,
    Power.EXECUTE: Phase.EXECUTE,
}
_PHASE_ACTION = {
    Phase.NOMINATE: A.NOMINATE,
    Phase.DISCARD: A.DISCARD,
    Phase.ENACT: A.ENACT,
    Phase.VETO_RESPONSE: A.VETO_RESPONSE,
    Phase.INVESTIGATE: A.INVESTIGATE,
    Phase.SPECIAL_ELECTION: A.SPECIAL_ELECTION,
    Phase.EXECUTE: A.EXECUTE,
    Phase.ASSASSINATE: A.ASSASSINATE,
}

# The actions after which a deck check (and so a fixed reshuffle) can happen: an enactment, a
# consented veto, the last vote of a failed election (chaos).
_MAY_RESHUFFLE = frozenset({A.ENACT, A.VETO_RESPONSE, A.VOTE})

# Module-level aliases: enum member lookups through the class cost a descriptor call each.
_NOMINATE = Phase.NOMINATE
_VOTE = Phase.VOTE
_DISCARD = Phase.DISCARD
_ENACT = Phase.ENACT
_VETO_RESPONSE = Phase.VETO_RESPONSE
_GAME_OVER = Phase.GAME_OVER
_FASCIST_ROLE = Role.FASCIST
_MORGANA = Role.MORGANA
_HITLER = Role.HITLER
_PEEK = Power.PEEK
_INVESTIGATE = Power.INVESTIGATE
_SPECIAL_ELECTION = Power.SPECIAL_ELECTION
_EXECUTE = Power.EXECUTE


_BITS = [n.bit_length() for n in range(65)]  # _BITS[n]: the bits of a draw below n


def _shuffle_inline(rng: random.Random, x: list[Any]) -> None:
    """``rng.shuffle(x)`` with its ``_randbelow`` inlined: the same draws in the same order (a
    shuffle is half the cost of a new game otherwise). Used only if it matches the running
    Python's ``random`` (checked at import, ``_same_as_stdlib``)."""
    getrandbits = rng.getrandbits
    bits = _BITS if len(x) < len(_BITS) else [n.bit_length() for n in range(len(x) + 1)]
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = bits[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _stdlib_shuffle(rng: random.Random, x: list[Any]) -> None:
    rng.shuffle(x)


def _same_as_stdlib() -> bool:
    """Whether ``_shuffle_inline`` leaves lists and the generator as ``Random.shuffle`` does."""
    for seed in range(4):
        for size in (2, 7, 17, 60, 65):
            a, b = list(range(size)), list(range(size))
            ra, rb = random.Random(seed), random.Random(seed)
            ra.shuffle(a)
            _shuffle_inline(rb, b)
            if a != b or ra.random() != rb.random():
                return False
    return True


_shuffle = _shuffle_inline if _same_as_stdlib() else _stdlib_shuffle


class _Setup:
    """What a game of given rules and seat count shares with every other such game, computed
    once (``_setup``): the validated rules resolved for the table, and the immutable start-up
    events and view constants that depend on nothing else."""

    __slots__ = (
        "board",
        "hitler_knows",
        "fascists",
        "composition",
        "cards",
        "deck",
        "start_track",
        "avalon",
        "top_decking",
        "dealt",
        "pile",
        "started",
        "started_event",
        "roles",
        "deals",
        "voted",
        "resolved",
        "board_values",
    )

    def __init__(self, rules: Rules, n: int) -> None:
        rules.validate(n)
        self.board = rules.board(n)
        self.hitler_knows = rules.hitler_knows(n)
        self.fascists = rules.fascist_count(n)
        #: The role cards, in card order (``Rules.composition``): the deal shuffles them.
        self.composition = composition = rules.composition(n)
        #: The same as a view shows it (``View.composition``).
        self.cards = ReadOnlyDict({role.value: count for role, count in composition})
        self.dealt = tuple(role for role, count in composition for _ in range(count))
        self.deck = lib, fas = rules.deck_for(n)
        self.start_track = rules.start_track_for(n)
        #: Whether a liberal win opens Hitler's assassination (engine/avalon.py).
        self.avalon = rules.avalon != "off"
        #: The no top-decking rule (engine/top_decking.py), None when top-decking is allowed.
        self.top_decking = None if rules.top_decking == ALLOWED else rules.top_decking
        self.pile = (L,) * lib + (F,) * fas
        self.board_values = tuple(None if p is None else p.value for p in self.board)
        liberal, fascist = self.start_track
        #: The ``game_started`` data of an unnamed table (``names`` set per game otherwise).
        self.started = started = ReadOnlyDict(
            players=n,
            names=None,
            rules=freeze(rules.to_json()),
            board=ReadOnlyList(self.board_values),
            hitler_zone=rules.hitler_zone,
            veto_zone=rules.veto_zone,
            liberal_policies=liberal,
            fascist_policies=fascist,
            draw_pile=lib + fas,
        )
        self.started_event = Event(E.GameStarted.kind, started)  # shared by unnamed tables
        #: ``roles[seat][role]``: the event that tells ``seat`` its role.
        self.roles = tuple(
            {
                r: Event(
                    E.RoleDealt.kind,
                    ReadOnlyDict(seat=s, role=r._value_, party=r.party._value_),
                    (s,),
                )
                for r, _ in composition
            }
            for s in range(n)
        )
        #: The ``role`` and ``night`` events of a deal (``Game._deal_events``), by deal; filled
        #: as met.
        self.deals: dict[tuple[Role, ...], tuple[Event, ...]] = {}
        #: ``voted[seat][ja]``: the public notice of a vote (with the vote if votes are public).
        public = rules.voting == "public_sequential"
        self.voted = tuple(
            {
                ja: Event(
                    E.Voted.kind, ReadOnlyDict(seat=s, ja=ja) if public else ReadOnlyDict(seat=s)
                )
                for ja in (True, False)
            }
            for s in range(n)
        )
        self.resolved: ReadOnlyDict = freeze(rules.resolved(n))


@lru_cache(maxsize=256)
def _setup(rules: Rules, n: int) -> _Setup:
    return _Setup(rules, n)


# Shared events. Most events carry a few small values (seats, counts, policies), so the same
# event recurs across games: ``Game._note`` looks it up by (type, values, audience) and builds
# it once. Events are immutable (read-only data), so sharing one between games is safe. The
# field names of each type are its ``TypedEvent.FIELDS``; at most _SHARED_MAX are kept.
_SHARED: dict[tuple[Any, ...], Event] = {}
_SHARED_MAX = 1 << 15


def _plain(value: Any) -> Any:
    """An event value as JSON: enum members by their value, tuples as read-only lists."""
    if type(value) is tuple:
        return ReadOnlyList(_plain(v) for v in value)
    if isinstance(value, Enum):
        return value.value
    return value


def _shared_event(
    key: tuple[Any, ...], kind: type[TypedEvent], audience: tuple[int, ...] | None
) -> Event:
    values = key[1]
    data = ReadOnlyDict(zip(kind.FIELDS, map(_plain, values), strict=True))
    event = Event(kind.kind, data, audience)
    if len(_SHARED) < _SHARED_MAX:
        _SHARED[key] = event
    return event


def _illegal(code: str, message: str) -> IllegalAction:
    return IllegalAction(message, code)


class Game:
    """A game of Secret Hitler from the deal to the end.

    ``players`` is a seat count or a list of display names. Optional fixings (``roles``,
    ``first_president``, ``deck`` top first, ``reshuffles``) override what the seed would draw;
    the seed is still consumed in the same order so that the rest stays the same.

    ``chance="explicit"``: nothing is drawn (no seed); each chance event no fixing decides is a
    chance node (``chance_node``: nobody acts, ``chance_outcomes()`` lists the outcomes) until
    ``apply`` is given one of its outcomes, a ``Chance``. The game starts at the deal's node.
    """

    __slots__ = (
        "rules",
        "n",
        "names",
        "seed",
        "board",
        "hitler_knows",
        "roles",
        "_rng",  # None under explicit chance
        "_chance",  # the chance node the game waits at, else None
        "_fixed_start",  # the deal, first president and deck outcomes fixed (explicit chance)
        "_resume",  # the steps left of a transition a chance node stopped (``_resume_steps``)
        "_undo",  # (step, snapshot) of each ``push`` not yet popped
        "_fixed_reshuffles",
        "initial_deck",
        "reshuffles",
        "first_president",
        "phase",
        "round",
        "candidate",
        "nominee",
        "president",
        "chancellor",
        "liberal",
        "fascist",
        "tracker",
        "alive",
        "living",
        "_living_seats",  # the living seats in seat order (``alive`` as a list of seats)
        "investigated",
        "not_hitler",
        "votes",
        "votes_cast",
        "stamp",  # moved by every action but a vote that leaves the election open
        "last_votes",
        "hand",
        "veto_enabled",
        "veto_refused",
        "veto_choice",
        "vetoes_used",
        "power_president",
        "power_targets",
        "_assassination",  # Avalon SH: None, or the step's hitler, trigger and target (read-only)
        "_top_decks",  # chaos by failed elections since the last passed election (no top-decking)
        "_draw",
        "discard_liberal",
        "discard_fascist",
        "_limit_pres",
        "_limit_chan",
        "_limit_round",
        "_rotation",
        "_special_next",
        "_after_power",
        "_pending_power",
        "_post_session_power",
        "_eligible",
        "_claims",
        "winner",
        "reason",
        "finished",  # winner is not None (a plain attribute: read at every step of a loop)
        "events",
        "actions",
        "_voters",
        "_observer",
        "_setup",
    )
    #: The state ``clone`` copies and ``push`` saves (engine/undo.py): every slot but the logs,
    #: the generator, the observer (derived from the log) and the undo stack.
    STATE: ClassVar[tuple[str, ...]]
    #: The slots that only ever grow: a snapshot keeps their lengths.
    LOGS: ClassVar[tuple[str, ...]] = ("events", "actions", "reshuffles")

    def __init__(
        self,
        players: int | Sequence[str] = 7,
        rules: Rules | str | dict[str, Any] | None = None,
        seed: int | None = None,
        *,
        roles: Sequence[Role | str] | None = None,
        first_president: int | None = None,
        deck: Sequence[Policy | str] | None = None,
        reshuffles: Sequence[Sequence[Policy | str]] | None = None,
        chance: str = "sampled",
    ) -> None:
        if isinstance(players, int):
            n = players
            self.names: tuple[str, ...] | None = None
        else:
            self.names = tuple(str(x) for x in players)
            n = len(self.names)
        self.rules = rules = rules if isinstance(rules, Rules) else Rules.from_json(rules)
        self._setup = setup = _setup(rules, n)  # validates the rules for n seats
        self.n = n
        self.seed = seed
        self.board = setup.board
        self.hitler_knows = setup.hitler_knows
        if chance not in ("sampled", "explicit"):
            raise ValueError(f"chance: 'sampled' or 'explicit', not {brief(chance)}")
        explicit = chance == "explicit"
        if explicit and seed is not None:
            raise ValueError("a game of explicit chance draws nothing: it takes no seed")

        dealt, first, pile = self._start_chance(setup, explicit, roles, first_president, deck)
        self._fixed_reshuffles = [
            _parse_pile(r, f"reshuffles[{i}]") for i, r in enumerate(reshuffles or ())
        ]
        self._fixed_reshuffles.reverse()  # pop() takes the next one
        self.reshuffles: list[tuple[Policy, ...]] = []

        self._blank_state(setup)
        if explicit:
            self._fixed_start: tuple[Chance | None, ...] = (
                None if dealt is None else Chance(DEAL, roles=tuple(dealt)),
                None if first is None else Chance(FIRST_PRESIDENT, president=first),
                None if pile is None else Chance(DECK, policies=tuple(pile)),
            )
            self._await_start(0)
        else:
            assert dealt is not None and first is not None and pile is not None
            self._fixed_start = ()
            self._deal(tuple(dealt))
            self._seat_first(first)
            self._lay(pile)

    def _start_chance(
        self,
        setup: _Setup,
        explicit: bool,
        roles: Sequence[Role | str] | None,
        first_president: int | None,
        deck: Sequence[Policy | str] | None,
    ) -> tuple[list[Role] | None, int | None, list[Policy] | None]:
        """The deal, the first president and the deck: drawn always in that order (none of it
        under explicit chance: what no fixing decides is a chance node), then each one a record
        fixes, checked; None for one left to a chance node."""
        n = self.n
        lib, fas = setup.deck
        dealt: list[Role] | None = None
        first: int | None = None
        pile: list[Policy] | None = None
        self._rng: random.Random | None = None
        if not explicit:
            rng = self._rng = random.Random(self.seed)
            dealt = list(setup.dealt)
            _shuffle(rng, dealt)
            first = rng.randrange(n)
            pile = list(setup.pile)
            _shuffle(rng, pile)
        if roles is not None:
            dealt = _parse_roles(roles, n, setup.composition)
        if first_president is not None:
            if not isinstance(first_president, int) or not 0 <= first_president < n:
                raise InvalidRecord(f"first_president: must be a seat from 0 to {n - 1}")
            first = first_president
        if self.rules.first_president == "first_seat":
            if first_president not in (None, 0):
                raise InvalidRecord("first_president: these rules start with the first seat (0)")
            if first is not None:  # drawn or given (explicit chance: a node of one outcome)
                first = 0
        if deck is not None:
            pile = _parse_pile(deck, "deck")
            if pile.count(L) != lib or pile.count(F) != fas:
                raise InvalidRecord(
                    f"deck: must hold {lib} liberal and {fas} fascist policies for these rules"
                )
        return dealt, first, pile

    def _blank_state(self, setup: _Setup) -> None:
        """Every field of a game before its deal: the tracks at their start, every seat alive,
        no election, no logs."""
        n = self.n
        # Set when the deal, the first president and the deck come (``_deal``, ``_seat_first``,
        # ``_lay``).
        self.roles: tuple[Role, ...] = ()
        self.first_president = 0
        self.initial_deck: tuple[Policy, ...] = ()
        self._draw: list[Policy] = []  # top of the pile is the end of the list
        self.discard_liberal = 0
        self.discard_fascist = 0
        self.liberal, self.fascist = setup.start_track
        self.tracker = 0
        self.alive = [True] * n
        self.living = n
        self._living_seats = list(range(n))
        self.investigated = [False] * n
        self.not_hitler: set[int] = set()
        self.votes: list[bool | None] = [None] * n
        self._voters: list[int] = []  # living seats that have not voted in the open election
        self.votes_cast = 0
        # Moved by every action except a vote that leaves the election open, which changes
        # only ``votes``, ``votes_cast`` and ``to_act()``: what is computed from the rest of
        # the state may be cached on it (the observer's public fields, Observer.table).
        self.stamp = 0
        self.last_votes: tuple[bool | None, ...] | None = None
        self.hand: list[Policy] = []
        self.veto_enabled = False
        self.veto_refused = False
        self.veto_choice: Policy | None = None
        self.vetoes_used = 0
        self.power_president: int | None = None
        self.power_targets: tuple[int, ...] = ()
        self._assassination: ReadOnlyDict | None = None
        self._top_decks = 0
        self.round = 0
        self.candidate = 0
        self.nominee: int | None = None
        self.president: int | None = None
        self.chancellor: int | None = None
        self._limit_pres: int | None = None
        self._limit_chan: int | None = None
        self._limit_round = -1
        self._rotation = 0
        self._special_next: int | None = None
        self._after_power = "round"
        self._pending_power: Power | None = None
        self._post_session_power: Power | None = None
        self._eligible: tuple[int, ...] | None = None
        self._claims: dict[int, dict[str, int | None]] = {}
        self.winner: Winner | None = None
        self.reason: Reason | None = None
        self.finished = False
        self.events: list[Event] = []
        self.actions: list[Action] = []
        self._observer: Observer | None = None
        self.phase = _NOMINATE
        self._chance: ChanceNode | None = None
        self._resume: list[tuple[Callable[..., None], tuple[Any, ...]]] = []
        self._undo: list[tuple[Action | Chance, Snapshot]] = []

    # ------------------------------------------------------------------ queries
    @property
    def draw_pile(self) -> int:
        return len(self._draw)

    @property
    def discard_pile(self) -> int:
        return self.discard_liberal + self.discard_fascist

    def party(self, seat: int) -> Party:
        return self.roles[seat].party

    def to_act(self) -> list[int]:
        """The seats whose decision the game waits for (several during a vote; none at a chance
        node)."""
        ph = self.phase
        if ph is _VOTE:
            return self._voters[:]  # at a chance node (chaos after the last vote): empty
        if self._chance is not None:
            return []
        if ph is _NOMINATE:
            return [self.candidate]
        if ph is _GAME_OVER:
            return []
        if ph is _DISCARD or ph is _VETO_RESPONSE:
            actor = self.president
        elif ph is _ENACT:
            actor = self.chancellor
        else:
            actor = self.power_president
        assert actor is not None
        return [actor]

    def _decider(self) -> int | None:
        """The one seat whose decision the game waits for outside a vote (``to_act``'s)."""
        ph = self.phase
        if ph is _NOMINATE:
            return self.candidate
        if ph is _DISCARD or ph is _VETO_RESPONSE:
            return self.president
        if ph is _ENACT:
            return self.chancellor
        return self.power_president

    def eligible_chancellors(self) -> tuple[int, ...]:
        """Who the candidate may nominate now (E2, E3, A11)."""
        if self._eligible is None:
            c, living = self.candidate, self._living_seats
            barred = self.term_limited()
            elig = tuple([s for s in living if s != c and s not in barred])
            if not elig:
                elig = tuple([s for s in living if s != c])
            self._eligible = elig
        return self._eligible

    def term_limited(self) -> tuple[int, ...]:
        """Seats barred from the chancellorship at this election by term limits."""
        rules = self.rules
        if rules.term_limits == "previous_round" and self._limit_round != self.round - 1:
            return ()
        chan = self._limit_chan
        if chan is None:
            return ()
        exception = rules.small_table_exception
        if (exception == "living" and self.living <= 5) or (exception == "started" and self.n == 5):
            return (chan,)
        pres = self._limit_pres
        return (chan,) if pres is None or pres == chan else (pres, chan)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, optional claims included (always last); none at
        a chance node."""
        ph = self.phase
        out: list[Action]
        if ph is _VOTE:
            # at a chance node (chaos after the last vote) every vote is cast: no vote is offered
            out = list(_VOTES[seat]) if self.alive[seat] and self.votes[seat] is None else []
            if self._claims and seat in self._claims and self._chance is None:
                self._add_claim_options(seat, out)  # claims stay open through the vote
            return out
        if self._chance is not None:
            return []
        if ph is _NOMINATE:
            if seat == self.candidate:
                row = _NOMINATIONS[seat]
                out = [row[t] for t in self.eligible_chancellors()]
            else:
                out = []
        elif ph is _DISCARD:
            table = _DISCARDS[seat]
            out = [table[p] for p in _distinct(self.hand)] if seat == self.president else []
        elif ph is _ENACT:
            if seat == self.chancellor:
                table = _ENACTMENTS[seat]
                out = [table[p] for p in _distinct(self.hand)]
                if self.veto_enabled and not self.veto_refused:
                    if self.rules.veto_after_choice:
                        vt = _POLICY_ACTIONS[A.VETO][seat]
                        out.extend(vt[p] for p in _distinct(self.hand))
                    else:
                        out.append(_PLAIN_VETO[seat])
            else:
                out = []
        elif ph is _VETO_RESPONSE:
            out = list(_VETO_RESPONSES[seat]) if seat == self.president else []
        elif ph is _GAME_OVER:
            out = []
        else:
            if seat == self.power_president:
                row = _TARGET_ACTIONS[_PHASE_ACTION[ph]][seat]
                out = [row[t] for t in self.power_targets]
            else:
                out = []
        if self._claims and seat in self._claims:
            self._add_claim_options(seat, out)
        return out

    def open_claims(self, seat: int) -> tuple[str, ...]:
        """The claim subjects ``seat`` may still claim (A9), in a fixed order."""
        window = self._claims.get(seat)
        if not window:
            return ()
        return tuple(s for s in A.CLAIM_SUBJECTS if s in window)

    def claimants(self) -> tuple[int, ...]:
        """The seats with an open claim window."""
        return tuple(self._claims)

    def next_president(self) -> int | None:
        """The next presidential candidate if this round ended now: a special election's pick,
        else the next living seat in rotation (A10); None once the game is over or at Avalon
        SH's assassination (no round follows)."""
        if self.winner is not None or self._assassination is not None:
            return None
        if self._special_next is not None:
            return self._special_next
        nxt, alive, n = self._rotation, self.alive, self.n
        while True:
            nxt = (nxt + 1) % n
            if alive[nxt]:
                return nxt

    @property
    def winners(self) -> tuple[int, ...] | None:
        """The seats that won (``roles.winners_of``: the winning party's, the Monarchist's own
        way), None while the game goes on."""
        winner = self.winner
        if winner is None:
            return None
        hitler = self.roles.index(_HITLER)
        return winners_of(self.roles, winner, self.reason or "", not self.alive[hitler])

    @property
    def assassination(self) -> ReadOnlyDict | None:
        """Avalon SH's assassination once a liberal win opened it: ``hitler`` (his seat),
        ``trigger`` (the liberal win's reason) and ``target`` (null until he names one)."""
        return self._assassination

    def forced_action(self, seat: int, rng: random.Random) -> Action:
        """The move a table's timer makes for ``seat`` when its time runs out: a random legal
        non-claim action, as secrethitler.io's timed mode draws it (engine/forced.py);
        ``IllegalAction`` when ``seat`` has no decision to make."""
        return forced_action(self, seat, rng)

    @property
    def pending_power(self) -> Power | None:
        """A power the next elected president will use (``power_timing: next_president``)."""
        return self._pending_power

    def _add_claim_options(self, seat: int, out: list[Action]) -> None:
        """Add the seat's claim options to ``out`` (interned: no action is built)."""
        for subject, target in self._claims[seat].items():
            if subject == A.CLAIM_INVESTIGATION:
                assert target is not None
                out += _INVESTIGATION_CLAIMS[seat][target]
            else:
                out += _POLICY_CLAIMS[subject][seat]

    def is_legal(self, action: Action | Chance) -> bool:
        """Whether ``apply`` would take ``action`` (an action, or an outcome of the chance node
        the game waits at)."""
        if self._chance is not None or type(action) is Chance:
            return self._chance is not None and action in self._chance.outcomes
        try:
            self._check(action)
        except IllegalAction:
            return False
        return True

    # ------------------------------------------------------------------ chance
    @property
    def chance_node(self) -> ChanceNode | None:
        """The chance node the game waits at (explicit chance only), else None."""
        return self._chance

    def is_chance_node(self) -> bool:
        return self._chance is not None

    def chance_outcomes(self) -> list[tuple[Chance, float]]:
        """The outcomes of the chance node the game waits at, each with its probability (all
        equal); empty when no chance node is pending. ``chance_node.outcomes`` lists them
        without building them all (a deck has 12,376)."""
        node = self._chance
        if node is None:
            return []
        p = node.probability
        return [(outcome, p) for outcome in node.outcomes]

    @property
    def chance_history(self) -> tuple[Chance, ...]:
        """The chance outcomes of this game so far, in the order they came: the deal, the first
        president, the deck, then each reshuffle; one to one with a record's fixings
        (``chance.fixings_of``)."""
        node = self._chance
        done = START.index(node.type) if node is not None and node.type in START else 3
        start = (
            Chance(DEAL, roles=self.roles),
            Chance(FIRST_PRESIDENT, president=self.first_president),
            Chance(DECK, policies=self.initial_deck),
        )
        return start[:done] + tuple(Chance(RESHUFFLE, policies=p) for p in self.reshuffles)

    @property
    def started(self) -> bool:
        """Whether the deal, the first president and the deck have come (the game's first
        events are logged): only an explicit chance game waits before that."""
        return bool(self.events)

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action | Chance) -> None:
        """Apply one action, or at a chance node one of its outcomes (``Chance``); or raise
        ``IllegalAction`` and change nothing."""
        observer = self._observer
        if observer is not None and observer._viewers:
            observer.before_change()  # views handed out keep describing the game before this
        if action.type == "vote" and self.phase is _VOTE:
            # The fast path of the commonest action; anything unusual takes the full check. A
            # chance outcome is never a vote, and at a chance node every vote is cast already.
            if TYPE_CHECKING:
                assert isinstance(action, Action)
            seat, ja, votes = action.seat, action.ja, self.votes
            cast = self.votes_cast + 1
            if (
                type(seat) is int
                and 0 <= seat < self.n
                and votes[seat] is None
                and self.alive[seat]
                and type(ja) is bool
                and (cast < self.living or not self._fixed_reshuffles)
            ):
                self.actions.append(action)
                votes[seat] = ja
                self.votes_cast = cast
                self._voters.remove(seat)
                self.events.append(self._setup.voted[seat][ja])
                if cast == self.living:
                    self.stamp += 1
                    self._tally()
                return
        if self._chance is not None or type(action) is Chance:
            self._apply_chance(action)
            return
        self._check(action)
        self.stamp += 1
        if self._fixed_reshuffles and action.type in _MAY_RESHUFFLE:
            # A fixed reshuffle that does not fit makes the record invalid: undo the action.
            snapshot = Snapshot(self, self._may_draw())
            try:
                self._do(action)
            except InvalidRecord:
                snapshot.restore(self)
                raise
        else:
            self._do(action)

    def _apply_chance(self, outcome: Action | Chance) -> None:
        node = self._chance
        if node is None:
            raise _illegal("no_chance", "the game waits for no chance outcome now")
        if type(outcome) is not Chance:
            raise _illegal("chance_pending", f"the game waits for a chance outcome ({node.type})")
        if outcome not in node.outcomes:
            raise _illegal("invalid_chance", f"not an outcome of this {node.type} node")
        self.stamp += 1
        self._chance = None
        if node.type == RESHUFFLE:
            self._reshuffle(list(outcome.policies))
            self._resume_steps()
        else:
            self._await_start(START.index(node.type), outcome)

    def _check(self, action: Action) -> None:
        seat = action.seat
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise _illegal("bad_seat", f"seat {brief(seat)} is not at this table (0-{self.n - 1})")
        kind = action.type
        ph = self.phase
        if ph is _GAME_OVER:
            raise _illegal("game_over", "the game is over")
        if kind == A.CLAIM:
            self._check_claim(action)
            return
        if kind == A.VOTE:
            if ph is not _VOTE:
                raise _illegal("wrong_phase", f"no vote is open (phase: {ph.value})")
            if not self.alive[seat]:
                raise _illegal("dead_player", f"seat {seat} is dead and cannot vote")
            if self.votes[seat] is not None:
                raise _illegal("already_voted", f"seat {seat} has already voted")
            if not isinstance(action.ja, bool):
                raise _illegal("invalid_action", "a vote needs ja: true or false")
            return
        expected = _PHASE_ACTION.get(ph)
        if kind == A.VETO and ph is _ENACT:
            expected = A.VETO
        if kind != expected:
            raise _illegal(
                "wrong_phase",
                f"{brief(kind)} is not possible now: the game waits for {_PHASE_ACTION.get(ph, ph.value)!r}",
            )
        actor = self._decider()
        if seat != actor:
            raise _illegal(
                "not_your_turn", f"seat {seat} cannot {kind} now: it is seat {actor}'s decision"
            )
        if kind == A.NOMINATE:
            t = action.target
            if t not in self.eligible_chancellors():
                raise _illegal("invalid_target", self._why_not_nominee(t))
        elif kind == A.DISCARD or kind == A.ENACT:
            if action.policy not in self.hand:
                raise _illegal(
                    "not_in_hand", f"there is no {_name(action.policy)} policy in your hand"
                )
        elif kind == A.VETO:
            if not self.veto_enabled:
                raise _illegal("veto_unavailable", "the veto is not available in this session")
            if self.veto_refused:
                raise _illegal(
                    "veto_unavailable", "the president has refused the veto in this session"
                )
            if self.rules.veto_after_choice:
                if action.policy not in self.hand:
                    raise _illegal(
                        "not_in_hand", "under these rules a veto names the policy you would enact"
                    )
            elif action.policy is not None:
                raise _illegal("invalid_action", "a veto names no policy under these rules")
        elif kind == A.VETO_RESPONSE:
            if not isinstance(action.accept, bool):
                raise _illegal("invalid_action", "a veto response needs accept: true or false")
        elif action.target not in self.power_targets:
            raise _illegal("invalid_target", self._why_not_target(action))

    def _why_not_nominee(self, t: int | None) -> str:
        if not isinstance(t, int) or not 0 <= t < self.n:
            return f"seat {brief(t)} is not at this table"
        if t == self.candidate:
            return "the candidate cannot nominate himself"
        if not self.alive[t]:
            return f"seat {t} is dead"
        return f"seat {t} is term limited"

    def _why_not_target(self, action: Action) -> str:
        t = action.target
        if not isinstance(t, int) or not 0 <= t < self.n:
            return f"seat {brief(t)} is not at this table"
        if action.type == A.ASSASSINATE:
            return f"seat {t} is not of the liberal party: Hitler names whom he takes for Merlin"
        if t == action.seat:
            return "a power cannot target the president himself"
        if not self.alive[t]:
            return f"seat {t} is dead"
        if action.type == A.INVESTIGATE and self.investigated[t]:
            return f"seat {t} has already been investigated"
        return f"seat {t} cannot be targeted"

    def _check_claim(self, action: Action) -> None:
        window = self._claims.get(action.seat)
        subject = action.subject
        if window is None or subject not in window:
            raise _illegal(
                "claim_unavailable",
                f"seat {action.seat} has nothing to claim about {brief(subject)} now (or already claimed it)",
            )
        if subject == A.CLAIM_INVESTIGATION:
            if action.target != window[subject] or not isinstance(action.party, Party):
                raise _illegal(
                    "invalid_action",
                    "an investigation claim names the investigated seat and a party",
                )
            return
        size = A.CLAIM_SIZES.get(subject or "")
        pols = action.policies
        if (
            size is None
            or pols is None
            or len(pols) != size
            or not all(isinstance(p, Policy) for p in pols)
        ):
            raise _illegal("invalid_action", f"this claim needs {size} policies")

    def _do(self, action: Action) -> None:
        """Carry out an action that ``_check`` accepted (so its fields are present)."""
        kind = action.type
        seat = action.seat
        self.actions.append(action)
        # Tested in order of frequency in play: a nomination per round, then the session.
        if kind == "nominate":
            target = action.target
            assert target is not None
            self._nominate(seat, target)
        elif kind == "discard":
            self._discard(seat, _policy_of(action))
        elif kind == "enact":
            self._chancellor_enacts(_policy_of(action))
        elif kind == "vote":
            self._vote(seat, action.ja is True)
        elif kind == "claim":
            self._claim(action)
        elif kind == "veto":
            self.veto_choice = action.policy
            self.phase = _VETO_RESPONSE
            self._log(E.VetoProposed, {"chancellor": seat})
        elif kind == "veto_response":
            self._veto_response(action.accept is True)
        else:
            target = action.target
            assert target is not None
            if kind == "investigate":
                self._investigate(seat, target)
            elif kind == "special_election":
                self._special_election(seat, target)
            elif kind == "execute":
                self._execute(seat, target)
            else:
                avalon.assassinate(self, seat, target)

    # ------------------------------------------------------------------ transitions
    def _log(
        self,
        kind: type[TypedEvent],
        data: dict[str, Any],
        audience: tuple[int, ...] | None = None,
    ) -> None:
        self.events.append(Event(kind.kind, ReadOnlyDict(data), audience))

    def _note(
        self,
        kind: type[TypedEvent],
        values: tuple[Any, ...],
        audience: tuple[int, ...] | None = None,
    ) -> None:
        """Log an event made of small immutable values (its fields' values, in its
        ``FIELDS`` order), shared with every game that logs the same one (``_SHARED``)."""
        key = (kind, values, audience)
        event = _SHARED.get(key)
        if event is None:
            event = _shared_event(key, kind, audience)
        self.events.append(event)

    def _deal(self, roles: tuple[Role, ...]) -> None:
        self.roles = roles

    def _seat_first(self, seat: int) -> None:
        self.first_president = self.candidate = self._rotation = seat

    def _lay(self, pile: list[Policy]) -> None:
        """The initial draw pile (top first) comes: the game starts."""
        self.initial_deck = tuple(pile)
        self._draw = pile[::-1]
        self._start()

    def _await_start(self, i: int, outcome: Chance | None = None) -> None:
        """(explicit chance) Take the start's outcomes from the ``i``-th on (``outcome``: the
        ``i``-th, just applied; then each fixed one) and wait at a node for the first that no
        fixing decides; the game starts once the deck has come."""
        while i < len(START):
            if outcome is None:
                outcome = self._fixed_start[i]
            if outcome is None:
                self._chance = self._start_node(i)
                return
            if i == 0:
                self._deal(outcome.roles)
            elif i == 1:
                assert outcome.president is not None
                self._seat_first(outcome.president)
            else:
                self._lay(list(outcome.policies))
            outcome = None
            i += 1

    def _start_node(self, i: int) -> ChanceNode:
        if i == 0:
            return ChanceNode(DEAL, deals_of(self._setup.composition))
        if i == 1:
            first_seat = self.rules.first_president == "first_seat"
            return ChanceNode(FIRST_PRESIDENT, Seats((0,) if first_seat else range(self.n)))
        lib, fas = self._setup.deck
        return ChanceNode(DECK, Piles(DECK, lib, fas))

    def _start(self) -> None:
        setup, events = self._setup, self.events
        if self.names is None:
            events.append(setup.started_event)
        else:
            started = ReadOnlyDict(setup.started, names=ReadOnlyList(self.names))
            events.append(Event(E.GameStarted.kind, started))
        # The role and night events depend on the deal alone: built once per deal (a 7-seat
        # table has 105 deals, a 10-seat one 840) and shared, like every event.
        roles = self.roles
        dealt = setup.deals.get(roles)
        if dealt is None:
            dealt = setup.deals[roles] = self._deal_events(roles)
        events.extend(dealt)
        self._begin_round(self.first_president)

    def _deal_events(self, roles: tuple[Role, ...]) -> tuple[Event, ...]:
        """Each seat's ``role`` event, then the ``night`` events of the seats shown something
        (engine/roles.py ``night``: the fascists who see their team, Hitler when he does, and
        Merlin, Percival and the Monarchist in the game types that deal them)."""
        n, setup = self.n, self._setup
        out = [setup.roles[s][roles[s]] for s in range(n)]
        for s, data in night(roles, self.hitler_knows):
            out.append(Event(E.Night.kind, data, (s,)))
        return tuple(out)

    def _begin_round(self, candidate: int) -> None:
        self.round += 1
        self.candidate = candidate
        self.nominee = None
        self._eligible = None
        self.phase = _NOMINATE
        self._note(E.Candidate, (candidate, self.round, self.eligible_chancellors()))

    def _nominate(self, seat: int, target: int) -> None:
        self.nominee = target
        self.votes = [None] * self.n
        self.votes_cast = 0
        self._voters = self._living_seats[:]
        self.phase = _VOTE
        self._note(E.Nominated, (seat, target))

    def _vote(self, seat: int, ja: bool) -> None:
        self.votes[seat] = ja
        self.votes_cast += 1
        self._voters.remove(seat)
        self.events.append(self._setup.voted[seat][ja])
        if self.votes_cast == self.living:
            self._tally()

    def _tally(self) -> None:
        votes = tuple(self.votes)
        self.last_votes = votes
        ja = votes.count(True)  # votes are True, False or None (the dead)
        passed = 2 * ja > self.living
        self._note(E.Votes, (votes, ja, self.living - ja, passed))
        if passed:
            self._elected()
        elif (
            self.tracker == CHAOS_AT - 1
            and self._setup.top_decking is not None
            and self._top_deck()
        ):
            return
        elif self._advance_tracker():
            self._resume.append((Game._after_failed_election, ()))
        else:
            self._after_failed_election()

    def _top_deck(self) -> bool:
        """(no top-decking) A failed election brings chaos: True when that ends the game
        (engine/top_decking.py), else it is counted and plays on."""
        rule = self._setup.top_decking
        assert rule is not None
        if ends_game(rule, self._top_decks):
            self.tracker = CHAOS_AT
            self._note(E.Tracker, (self.tracker,))
            self._win(Winner.FASCIST, Reason.TOP_DECKED)
            return True
        self._top_decks += 1
        return False

    def _after_failed_election(self) -> None:
        if self.phase is _VOTE:  # no chaos power, no end of the game
            self._end_round()

    def _advance_tracker(self) -> bool:
        """Move the election tracker, chaos at its end (E7, C1); True when chaos stopped at a
        chance node (the caller stops too, and leaves its rest in ``_resume``)."""
        self.tracker += 1
        self._note(E.Tracker, (self.tracker,))
        if self.tracker >= CHAOS_AT:
            return self._chaos()
        return False

    def _elected(self) -> None:
        pres, chan = self.candidate, self.nominee
        assert chan is not None
        self.president, self.chancellor = pres, chan
        if self._top_decks:
            self._top_decks = 0
        rules = self.rules
        if rules.term_limits != "last_enacted":
            self._limit_pres, self._limit_chan, self._limit_round = pres, chan, self.round
        self._note(E.Elected, (pres, chan))
        if rules.tracker_resets_on_election and self.tracker:
            self.tracker = 0
            self._note(E.Tracker, (0,))
        if self.fascist >= rules.hitler_zone:
            if self.roles[chan] is _HITLER:
                self._win(Winner.FASCIST, Reason.HITLER_ELECTED)
                return
            self.not_hitler.add(chan)
            self._note(E.NotHitler, (chan,))
        if rules.power_timing == "next_president" and self._pending_power is not None:
            power, self._pending_power = self._pending_power, None
            if power is _SPECIAL_ELECTION:
                self._post_session_power = power
            else:
                self._begin_power(power, pres, after="session")
                return
        self._begin_session()

    def _begin_session(self) -> None:
        rules = self.rules
        self.veto_enabled = self.fascist >= rules.veto_zone and (
            rules.veto_limit is None or self.vetoes_used < rules.veto_limit
        )
        self.veto_refused = False
        self.veto_choice = None
        draw = self._draw
        self.hand = [draw.pop(), draw.pop(), draw.pop()]
        pres, chan = self.president, self.chancellor
        self.phase = _DISCARD
        if self._claims:  # a new session closes every claim window (docs/engine.md, Claims)
            self._claims = {}
        self._note(E.LegislativeSession, (pres, chan, self.veto_enabled, len(draw)))
        assert pres is not None and chan is not None
        self._note(E.Drew, (tuple(self.hand),), (pres,))

    def _discard(self, seat: int, policy: Policy) -> None:
        hand = self.hand
        hand.remove(policy)
        self._add_discard(policy)
        self.phase = _ENACT
        self._note(E.PresidentDiscarded, (seat,))
        passed = tuple(hand)
        self._note(E.Passed, (policy, passed), (seat,))
        chan = self.chancellor
        assert chan is not None
        self._note(E.Received, (passed,), (chan,))

    def _add_discard(self, policy: Policy) -> None:
        if policy is L:
            self.discard_liberal += 1
        else:
            self.discard_fascist += 1

    def _chancellor_enacts(self, policy: Policy) -> None:
        hand = self.hand
        hand.remove(policy)
        other = hand.pop()
        self._add_discard(other)
        chan = self.chancellor
        assert chan is not None
        self._note(E.ChancellorDiscarded, (other,), (chan,))
        self._government_enacts(policy)

    def _government_enacts(self, policy: Policy) -> None:
        if self.rules.term_limits == "last_enacted":
            self._limit_pres, self._limit_chan = self.president, self.chancellor
        self._open_hand_claims()
        if self._enact(policy, chaos=False):
            return
        if self._deck_check():
            self._resume.append((Game._after_enactment, (policy,)))
        else:
            self._after_enactment(policy)

    def _after_enactment(self, policy: Policy) -> None:
        self._after_session(self._slot_power(policy))

    def _after_session(self, power: Power | None) -> None:
        """After a session (enacted or vetoed) and its deck check: powers, then next round."""
        pres = self.president
        assert pres is not None
        post = self._post_session_power
        self._post_session_power = None
        if power is not None and self.rules.power_timing == "next_president":
            self._pending_power = power
            power = None
        if power is not None:
            self._begin_power(power, pres, after="round")
        elif post is not None:
            self._begin_power(post, pres, after="round")
        else:
            self._end_round()

    def _slot_power(self, policy: Policy) -> Power | None:
        if policy is not F or not 1 <= self.fascist <= len(self.board):
            return None
        return self.board[self.fascist - 1]

    def _enact(self, policy: Policy, chaos: bool) -> bool:
        """Put a policy on its track; True when that ends the game."""
        if policy is L:
            self.liberal += 1
        else:
            self.fascist += 1
        self.tracker = 0
        self.hand = []
        self._note(E.Enacted, (policy, chaos, self.liberal, self.fascist))
        if self.liberal >= LIBERAL_TRACK:
            if self._setup.avalon:
                avalon.open_assassination(self, Reason.FIVE_LIBERAL_POLICIES)
            else:
                self._win(Winner.LIBERAL, Reason.FIVE_LIBERAL_POLICIES)
            return True
        if self.fascist >= FASCIST_TRACK:
            self._win(Winner.FASCIST, Reason.SIX_FASCIST_POLICIES)
            return True
        return False

    def _veto_response(self, accept: bool) -> None:
        self._log(E.Veto, {"accepted": accept, "president": self.president})
        if not accept:
            if self.rules.veto_after_choice and self.veto_choice is not None:
                self._chancellor_enacts(self.veto_choice)
            else:
                self.veto_refused = True
                self.phase = _ENACT
            return
        for p in self.hand:
            self._add_discard(p)
        self.hand = []
        self.vetoes_used += 1
        self._open_hand_claims()
        if self._deck_check():  # A7: before a chaos policy is drawn
            self._resume.append((Game._after_veto, ()))
        else:
            self._after_veto()

    def _after_veto(self) -> None:
        """A consented veto moves the tracker (A7), then the next round."""
        if self._advance_tracker():
            self._resume.append((Game._after_veto_tracker, ()))
        else:
            self._after_veto_tracker()

    def _after_veto_tracker(self) -> None:
        if self.phase is _VETO_RESPONSE:  # no chaos power, no end of game
            self._after_session(None)

    def _chaos(self) -> bool:
        """The top policy is enacted (E7, C1); True when its deck check stopped at a chance
        node."""
        policy = self._draw.pop()
        clears = bool(self.rules.chaos_clears_term_limits)
        self._note(E.Chaos, (policy, clears))
        if clears:
            self._limit_pres = self._limit_chan = None
        self.tracker = 0
        if self._enact(policy, chaos=True):
            return False
        if self._deck_check():
            self._resume.append((Game._after_chaos, (policy,)))
            return True
        self._after_chaos(policy)
        return False

    def _after_chaos(self, policy: Policy) -> None:
        if self.rules.chaos_power:
            power = self._slot_power(policy)
            if power is not None:
                self._begin_power(power, self.candidate, after="round")

    def _deck_check(self) -> bool:
        """Reshuffle when fewer than three policies are left (D1). True when the game stops at
        a chance node for the new pile instead (explicit chance, no fixing left): the caller
        stops and leaves what it still has to do in ``_resume``, innermost first."""
        if len(self._draw) >= 3:
            return False
        lib = self.discard_liberal + self._draw.count(L)
        fas = self.discard_fascist + self._draw.count(F)
        rng = self._rng
        if self._fixed_reshuffles:
            pile = self._fixed_reshuffles.pop()
            if pile.count(L) != lib or pile.count(F) != fas:
                raise InvalidRecord(
                    f"reshuffles[{len(self.reshuffles)}]: must hold the {lib} liberal and {fas} "
                    "fascist policies of the draw and discard piles"
                )
            if rng is not None:
                # Shuffle anyway, so that later unfixed chance events are the same as without
                # fixings.
                _shuffle(rng, [L] * lib + [F] * fas)
        elif rng is None:
            self._chance = ChanceNode(RESHUFFLE, Piles(RESHUFFLE, lib, fas))
            return True
        else:
            pile = [L] * lib + [F] * fas
            _shuffle(rng, pile)
        self._reshuffle(pile)
        return False

    def _reshuffle(self, pile: list[Policy]) -> None:
        """The draw and discard piles become ``pile`` (top first)."""
        self.reshuffles.append(tuple(pile))
        self._draw = pile[::-1]
        self.discard_liberal = self.discard_fascist = 0
        self._note(E.Reshuffled, (len(pile),))

    def _resume_steps(self) -> None:
        """Carry on the transition a chance node stopped: its remaining steps, innermost first.
        A step that stops at another node leaves the steps after it behind its own."""
        steps = self._resume
        self._resume = []
        for i, (step, args) in enumerate(steps):
            step(self, *args)
            if self._chance is not None:
                self._resume += steps[i + 1 :]
                return

    def _begin_power(self, power: Power, president: int, after: str) -> None:
        self._after_power = after
        self.power_president = president
        if power is _PEEK:
            top = ReadOnlyList([p.value for p in self._draw[-1:-4:-1]])
            self._note(E.PowerUsed, (power, president))
            self._log(E.Peek, {"policies": top}, (president,))
            self._continue()  # first: a session this power comes before must not close its window
            self._claims.setdefault(president, {})[A.CLAIM_PEEK] = None
            return
        targets = [s for s in self._living_seats if s != president]
        if after == "session" and power is _EXECUTE:
            # A power used before the session (forum timing) cannot dissolve the government.
            targets = [s for s in targets if s != self.chancellor]
        if power is _INVESTIGATE:
            targets = [s for s in targets if not self.investigated[s]]
        elif power is _EXECUTE and not self.rules.fascist_may_execute_hitler:
            # plain Fascists and Morgana may not; the Monarchist may (docs/game-types.md)
            if self.roles[president] is _FASCIST_ROLE or self.roles[president] is _MORGANA:
                targets = [s for s in targets if self.roles[s] is not _HITLER]
        if not targets:
            self._log(E.PowerSkipped, {"power": power.value, "president": president})
            self._continue()
            return
        self.power_targets = tuple(targets)
        self.phase = _POWER_PHASE[power]
        self._note(E.PowerUsed, (power, president))

    def _continue(self) -> None:
        self.power_targets = ()
        if self._after_power == "session":
            self._begin_session()
        else:
            self._end_round()

    def _investigate(self, seat: int, target: int) -> None:
        self.investigated[target] = True
        self._note(E.Investigated, (seat, target))
        self._note(E.Investigation, (target, self.roles[target].party), (seat,))
        self._continue()  # as for a peek: the window opens after a session the power came before
        self._claims.setdefault(seat, {})[A.CLAIM_INVESTIGATION] = target

    def _special_election(self, seat: int, target: int) -> None:
        self._special_next = target
        self._rotation = seat  # A10: rotation resumes left of the latest caller
        self._note(E.SpecialElection, (seat, target))
        self._continue()

    def _execute(self, seat: int, target: int) -> None:
        data: dict[str, Any] = {"president": seat, "target": target}
        if self.rules.reveal_executed_role:
            data["role"] = self.roles[target].value
        self._log(E.Executed, data)
        if self.roles[target] is _HITLER:
            self.alive[target] = False
            self.living -= 1
            self._living_seats.remove(target)
            if self._setup.avalon:
                avalon.open_assassination(self, Reason.HITLER_EXECUTED)
            else:
                self._win(Winner.LIBERAL, Reason.HITLER_EXECUTED)
            return
        self.alive[target] = False
        self.living -= 1
        self._living_seats.remove(target)
        self._continue()

    def _end_round(self) -> None:
        nxt = self.next_president()
        assert nxt is not None
        if self._special_next is not None:
            self._special_next = None
        else:
            self._rotation = nxt
        self._begin_round(nxt)

    def _open_hand_claims(self) -> None:
        """The government's hand claims open (beside a window a power before the session
        opened); every window stays open until the next legislative session begins."""
        pres, chan = self.president, self.chancellor
        assert pres is not None and chan is not None
        claims = self._claims
        claims.setdefault(pres, {})[A.CLAIM_PRESIDENT_HAND] = None
        claims.setdefault(chan, {})[A.CLAIM_CHANCELLOR_HAND] = None

    def _claim(self, action: Action) -> None:
        window = self._claims[action.seat]
        subject = action.subject
        assert subject is not None
        del window[subject]
        if not window:
            del self._claims[action.seat]
        data: dict[str, Any] = {"seat": action.seat, "subject": action.subject}
        if action.policies is not None:
            data["policies"] = ReadOnlyList([p.value for p in action.policies])
        if action.party is not None:
            data["target"] = action.target
            data["party"] = action.party.value
        self._log(E.Claimed, data)

    def _win(self, winner: Winner, reason: Reason) -> None:
        self.winner, self.reason = winner, reason
        self.finished = True
        self.phase = _GAME_OVER
        self._claims = {}
        self.hand = []
        data: dict[str, Any] = {
            "winner": winner.value,
            "reason": reason.value,
            "roles": ReadOnlyList([r.value for r in self.roles]),
        }
        if tells_winners(self.roles):
            data["winners"] = ReadOnlyList(self.winners or ())
        self._log(E.GameOver, data)

    # ------------------------------------------------------------------ copies and undo
    def clone(self) -> Game:
        """An independent copy (lists copied, immutable values shared), without the undo stack."""
        other = Game.__new__(Game)
        copy_state(self, other)
        other._observer = None  # a copy observes for itself, from its first view
        other._undo = []
        return other

    def push(self, step: Action | Chance) -> None:
        """``apply`` so that ``pop`` can undo it (python-chess's push/pop); an illegal step
        raises ``IllegalAction``, changes nothing and is not pushed."""
        snapshot = Snapshot(self, self._may_draw())
        self.apply(step)
        self._undo.append((step, snapshot))

    def pop(self) -> Action | Chance:
        """Undo the last ``push`` and return its step: the game is exactly as it was before it
        (its log, every seat's view, the claim windows, the chance node, the seed's generator and
        the fixings left). The observer is made anew from the log (views already handed out
        keep what they showed). ``IndexError`` when nothing is pushed."""
        step, snapshot = self._undo.pop()
        observer = self._observer
        if observer is not None:
            observer.before_change()
            self._observer = None
        snapshot.restore(self)
        return step

    def clear_stack(self) -> None:
        """Forget the pushed steps (they stay applied): ``pop`` has nothing left to undo."""
        self._undo.clear()

    def _may_draw(self) -> bool:
        """Whether the seeded generator may draw during the next step, so that a snapshot must
        save it. It draws only for a reshuffle, which comes only when fewer than three policies
        are left after a session or a chaos policy (D1): a step draws at most one policy (chaos)
        before its first deck check, so with four or more left now it does not draw."""
        return self._rng is not None and len(self._draw) <= 3

    # ------------------------------------------------------------------ records & views
    def to_record(self) -> dict[str, Any]:
        """A record (RECORD-FORMAT.md) that replays to this exact state, with no seed needed:
        its fixings are the game's chance outcomes (``chance_history``). At a chance node the
        record holds the outcomes so far (under explicit chance it replays to the node)."""
        if not self.started:
            raise GameError("no record before the deal, the first president and the deck")
        fixings = fixings_of(self.chance_history)
        winners = self.winners if self.finished and tells_winners(self.roles) else None
        return write_record(
            rules=self.rules.record_form(),
            players=self.names if self.names is not None else self.n,
            roles=fixings["roles"],
            first_president=fixings["first_president"],
            deck=fixings["deck"],
            reshuffles=fixings["reshuffles"],
            actions=[a.to_json() for a in self.actions],
            seed=self.seed,
            winner=None if self.winner is None else self.winner.value,
            reason=self.reason.value if self.reason else None,
            winners=winners,
        )

    @property
    def observer(self) -> Observer:
        """What every seat has observed (engine/observer.py), kept up to date incrementally
        (made anew after a ``pop``)."""
        observer = self._observer
        if observer is None:
            observer = self._observer = self._new_observer()
        return observer

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know now (``None``: a spectator), as an immutable snapshot."""
        observer = self._observer
        if observer is None:
            observer = self._observer = self._new_observer()
        return observer.view(seat)

    def _new_observer(self) -> Observer:
        if not self.started:
            raise GameError("nobody observes anything before the deal, first president and deck")
        return Observer(self)

    def visible_events(self, seat: int | None) -> list[Event]:
        """The log entries ``seat`` observes (``None``: the public ones)."""
        return [e for e in self.events if e.visible_to(seat)]

    def __repr__(self) -> str:
        return (
            f"<Game {self.n}p {self.rules.preset} round={self.round} phase={self.phase.value} "
            f"L{self.liberal} F{self.fascist} tracker={self.tracker}>"
        )


def _policy_of(action: Action) -> Policy:
    policy = action.policy
    assert policy is not None
    return policy


def _distinct(hand: list[Policy]) -> tuple[Policy, ...]:
    """The kinds of policy in a hand, always in the same order (sets would vary per process)."""
    if L in hand:
        return (L, F) if F in hand else (L,)
    return (F,)


def _name(policy: Policy | None) -> str:
    return "unknown" if policy is None else policy.value


def _parse_pile(pile: Any, field: str) -> list[Policy]:
    if not isinstance(pile, (list, tuple)):
        raise InvalidRecord(f"{field}: must be a list of 'liberal'/'fascist'")
    out = []
    for i, p in enumerate(pile):
        if p not in ("liberal", "fascist"):
            raise InvalidRecord(f"{field}[{i}]: must be 'liberal' or 'fascist', got {brief(p)}")
        out.append(Policy(p))
    return out


def _parse_roles(roles: Any, n: int, composition: tuple[tuple[Role, int], ...]) -> list[Role]:
    """A deal's roles by seat, which must be exactly the rules' role cards (``composition``)."""
    if not isinstance(roles, (list, tuple)) or len(roles) != n:
        raise InvalidRecord(f"roles: must be a list of {n} roles")
    names = [role.value for role, _ in composition]
    out = []
    for i, r in enumerate(roles):
        if r not in names:
            raise InvalidRecord(
                f"roles[{i}]: must be a role these rules deal ({', '.join(names)}), got {brief(r)}"
            )
        out.append(Role(r))
    if any(out.count(role) != count for role, count in composition):
        cards = ", ".join(f"{count} {role.value}" for role, count in composition)
        raise InvalidRecord(f"roles: these rules deal {cards}")
    return out


Game.STATE = tuple(
    name for name in Game.__slots__ if name not in {"_rng", "_observer", "_undo", *Game.LOGS}
)

__all__ = ["Game", "InvalidSettings"]
