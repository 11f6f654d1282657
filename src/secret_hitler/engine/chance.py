"""Chance outcomes as engine steps, as OpenSpiel's explicit chance nodes.

Four kinds of chance happen in a game, and a record fixes each of them (RECORD-FORMAT.md, its
fixings): the deal (``roles``), the first presidential candidate (``first_president``), the
initial draw pile (``deck``) and each reshuffle (``reshuffles``, in order). A ``Chance`` is one
such outcome. A game made with ``chance="explicit"`` stops at each one (``Game.chance_node``)
until an outcome is applied like an action (``Game.apply``); a default game draws it from its
seed, or takes it from the fixings it was given.

A node's outcomes are equally likely (a uniform shuffle gives every distinct order of the same
policies, and every distinct assignment of the same roles, the same chance), and ``Outcomes``
lists them in a fixed order, so an outcome has an index (OpenSpiel's chance action) and back.
``outcomes_of`` and ``fixings_of`` map a record's fixings to the outcomes in the order a game
meets them and back, one to one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from math import comb
from typing import Any, ClassVar, final

from .errors import InvalidRecord, brief
from .types import Policy, Role

#: The kinds of chance, in the order a game meets them (reshuffles repeat).
DEAL = "deal"
FIRST_PRESIDENT = "first_president"
DECK = "deck"
RESHUFFLE = "reshuffle"
START = (DEAL, FIRST_PRESIDENT, DECK)


@final
@dataclass(frozen=True, slots=True)
class Chance:
    """One chance outcome: a deal (``roles``, by seat), the first presidential candidate
    (``president``), the initial draw pile or a reshuffled one (``policies``, top first)."""

    type: str
    roles: tuple[Role, ...] = ()
    president: int | None = None
    policies: tuple[Policy, ...] = ()
    #: No seat acts at a chance node: a chance outcome offered where none is awaited is refused
    #: by the game's check of the acting seat (``Game._check``), with its own code.
    seat: ClassVar[None] = None

    @classmethod
    def deal(cls, roles: Iterable[Role | str]) -> Chance:
        return cls(DEAL, roles=tuple(Role(r) for r in roles))

    @classmethod
    def first_president(cls, seat: int) -> Chance:
        return cls(FIRST_PRESIDENT, president=seat)

    @classmethod
    def deck(cls, pile: Iterable[Policy | str]) -> Chance:
        return cls(DECK, policies=tuple(Policy(p) for p in pile))

    @classmethod
    def reshuffle(cls, pile: Iterable[Policy | str]) -> Chance:
        return cls(RESHUFFLE, policies=tuple(Policy(p) for p in pile))

    def to_json(self) -> dict[str, Any]:
        """The outcome as its record field says it: ``{"type": "deal", "roles": [...]}``,
        ``{"type": "first_president", "seat": 3}``, ``{"type": "deck"|"reshuffle", "policies":
        [...]}``."""
        if self.type == DEAL:
            return {"type": DEAL, "roles": [r.value for r in self.roles]}
        if self.type == FIRST_PRESIDENT:
            return {"type": FIRST_PRESIDENT, "seat": self.president}
        return {"type": self.type, "policies": [p.value for p in self.policies]}


class Outcomes:
    """The outcomes of one chance node in a fixed order, each equally likely: a sequence that
    computes its items (a 17-policy deck has 12,376 orders) and the index of any of them."""

    __slots__ = ()

    def __len__(self) -> int:
        raise NotImplementedError

    def __getitem__(self, index: int) -> Chance:
        raise NotImplementedError

    def index(self, outcome: Chance) -> int:
        """The position of ``outcome``; ``ValueError`` if it is not an outcome of this node."""
        raise NotImplementedError

    def __contains__(self, outcome: object) -> bool:
        if not isinstance(outcome, Chance):
            return False
        try:
            self.index(outcome)
        except ValueError:
            return False
        return True

    def __iter__(self) -> Iterator[Chance]:
        return (self[i] for i in range(len(self)))

    def _position(self, index: int) -> int:
        size = len(self)
        if not isinstance(index, int) or not -size <= index < size:
            raise IndexError(f"no outcome {brief(index)} among {size}")
        return index % size


#: The roles of a deal in the order ``Deals`` places them; the liberals take the seats left.
DEAL_ORDER = (
    Role.HITLER,
    Role.FASCIST,
    Role.MORGANA,
    Role.MONARCHIST,
    Role.MERLIN,
    Role.PERCIVAL,
)


class Deals(Outcomes):
    """Every distinct assignment of roles to ``players`` seats with one Hitler, ``fascists``
    plain Fascists and ``others`` (``(role, count)`` of the game types' roles: Morgana, the
    Monarchist, Merlin, Percival), the rest liberals: by Hitler's seat, then the fascists'
    seats among the others in lexicographic order, then each other role's seats among the seats
    still left, in ``DEAL_ORDER``. Without ``others`` these are the official deals, in the same
    order as ever (an OpenSpiel chance action keeps its meaning)."""

    __slots__ = ("players", "fascists", "groups", "_sizes")

    def __init__(
        self, players: int, fascists: int, others: Sequence[tuple[Role, int]] = ()
    ) -> None:
        self.players, self.fascists = players, fascists
        extra = sorted(
            (item for item in others if item[1] > 0), key=lambda i: DEAL_ORDER.index(i[0])
        )
        if any(role in (Role.HITLER, Role.FASCIST) for role, _ in extra):
            raise ValueError("others: the game types' roles, not Hitler or a plain Fascist")
        #: (role, count) placed in order: Hitler, the plain Fascists, then ``others``.
        self.groups: tuple[tuple[Role, int], ...] = (
            (Role.HITLER, 1),
            (Role.FASCIST, fascists),
            *extra,
        )
        sizes, left = [], players
        for _, count in self.groups:
            if count > left:
                raise ValueError(f"a deal of {players} seats cannot hold these roles")
            sizes.append(comb(left, count))
            left -= count
        self._sizes = tuple(sizes)

    def __len__(self) -> int:
        size = 1
        for s in self._sizes:
            size *= s
        return size

    def __getitem__(self, index: int) -> Chance:
        position = self._position(index)
        ranks = []
        for size in reversed(self._sizes):
            position, rank = divmod(position, size)
            ranks.append(rank)
        ranks.reverse()
        roles = [Role.LIBERAL] * self.players
        seats = list(range(self.players))
        for (role, count), rank in zip(self.groups, ranks, strict=True):
            chosen = set(_subset(rank, len(seats), count))
            for i in chosen:
                roles[seats[i]] = role
            seats = [s for i, s in enumerate(seats) if i not in chosen]
        return Chance(DEAL, roles=tuple(roles))

    def index(self, outcome: Chance) -> int:
        roles = outcome.roles
        placed = sum(count for _, count in self.groups)
        if (
            outcome.type != DEAL
            or len(roles) != self.players
            or any(roles.count(role) != count for role, count in self.groups)
            or roles.count(Role.LIBERAL) != self.players - placed
        ):
            cards = ", ".join(f"{count} {role.value}" for role, count in self.groups)
            raise ValueError(f"not a deal of {self.players} seats with {cards}")
        index = 0
        seats = list(range(self.players))
        for (role, _), size in zip(self.groups, self._sizes, strict=True):
            members = [i for i, s in enumerate(seats) if roles[s] is role]
            index = index * size + _rank(members, len(seats))
            seats = [s for s in seats if roles[s] is not role]
        return index


def deals_of(composition: Sequence[tuple[Role, int]]) -> Deals:
    """The deals of a table's role cards (``Rules.composition(players)``: (role, count) pairs)."""
    counts = dict(composition)
    others = [(role, counts[role]) for role in DEAL_ORDER[2:] if role in counts]
    return Deals(sum(counts.values()), counts.get(Role.FASCIST, 0), others)


class Seats(Outcomes):
    """The seats that may hold the first candidacy, in seat order."""

    __slots__ = ("seats",)

    def __init__(self, seats: Sequence[int]) -> None:
        self.seats = tuple(seats)

    def __len__(self) -> int:
        return len(self.seats)

    def __getitem__(self, index: int) -> Chance:
        return Chance(FIRST_PRESIDENT, president=self.seats[self._position(index)])

    def index(self, outcome: Chance) -> int:
        if outcome.type != FIRST_PRESIDENT or outcome.president not in self.seats:
            raise ValueError(f"not a first president among seats {list(self.seats)}")
        return self.seats.index(outcome.president)


class Piles(Outcomes):
    """Every distinct order, top first, of ``liberal`` and ``fascist`` policies (the initial
    deck, ``type`` ``deck``, or a reshuffle): by the fascists' places in lexicographic order."""

    __slots__ = ("type", "liberal", "fascist")

    def __init__(self, kind: str, liberal: int, fascist: int) -> None:
        self.type, self.liberal, self.fascist = kind, liberal, fascist

    def __len__(self) -> int:
        return comb(self.liberal + self.fascist, self.fascist)

    def __getitem__(self, index: int) -> Chance:
        size = self.liberal + self.fascist
        pile = [Policy.LIBERAL] * size
        for i in _subset(self._position(index), size, self.fascist):
            pile[i] = Policy.FASCIST
        return Chance(self.type, policies=tuple(pile))

    def index(self, outcome: Chance) -> int:
        pile = outcome.policies
        if (
            outcome.type != self.type
            or len(pile) != self.liberal + self.fascist
            or pile.count(Policy.FASCIST) != self.fascist
            or pile.count(Policy.LIBERAL) != self.liberal
        ):
            raise ValueError(
                f"not a {self.type} of {self.liberal} liberal and {self.fascist} fascist policies"
            )
        return _rank([i for i, p in enumerate(pile) if p is Policy.FASCIST], len(pile))


def _subset(rank: int, size: int, k: int) -> list[int]:
    """The ``rank``-th ``k``-subset of ``range(size)`` in ``itertools.combinations`` order."""
    out, x = [], 0
    while k:
        with_x = comb(size - x - 1, k - 1)  # the subsets whose smallest member left is x
        if rank < with_x:
            out.append(x)
            k -= 1
        else:
            rank -= with_x
        x += 1
    return out


def _rank(subset: Sequence[int], size: int) -> int:
    """``_subset``'s inverse."""
    rank, k, x = 0, len(subset), 0
    for member in subset:
        while x < member:
            rank += comb(size - x - 1, k - 1)
            x += 1
        k -= 1
        x += 1
    return rank


@final
@dataclass(frozen=True, slots=True)
class ChanceNode:
    """A chance node: its kind and its outcomes, each of probability ``probability``."""

    type: str
    outcomes: Outcomes

    @property
    def probability(self) -> float:
        return 1.0 / len(self.outcomes)


def outcomes_of(fixings: Mapping[str, Any]) -> list[Chance]:
    """A record's fixings (``roles``, ``first_president``, ``deck``, ``reshuffles``) as the
    chance outcomes a game meets, in order: the deal, the first president, the deck, then each
    reshuffle. Raises ``InvalidRecord`` naming a missing or malformed field (a record that
    leaves some to its seed has no such list: replay it and read ``Game.chance_history``)."""
    for field in ("roles", "first_president", "deck"):
        if fixings.get(field) is None:
            raise InvalidRecord(f"{field}: missing (drawn from the seed, not fixed)")
    try:
        out = [
            Chance.deal(fixings["roles"]),
            Chance.first_president(_seat(fixings["first_president"])),
            Chance.deck(fixings["deck"]),
        ]
        out += [Chance.reshuffle(pile) for pile in fixings.get("reshuffles") or ()]
    except (TypeError, ValueError) as exc:
        raise InvalidRecord(f"fixings: {brief(str(exc), 80)}") from None
    return out


def fixings_of(outcomes: Iterable[Chance]) -> dict[str, Any]:
    """``outcomes_of``'s inverse: the record fields (JSON values) of a game's chance outcomes,
    given in the order it met them."""
    fixings: dict[str, Any] = {}
    reshuffles: list[list[str]] = []
    for i, outcome in enumerate(outcomes):
        expected = START[i] if i < len(START) else RESHUFFLE
        if outcome.type != expected:
            raise ValueError(f"outcome {i}: a {expected} comes here, not a {brief(outcome.type)}")
        if outcome.type == DEAL:
            fixings["roles"] = [r.value for r in outcome.roles]
        elif outcome.type == FIRST_PRESIDENT:
            fixings["first_president"] = outcome.president
        elif outcome.type == DECK:
            fixings["deck"] = [p.value for p in outcome.policies]
        else:
            reshuffles.append([p.value for p in outcome.policies])
    fixings["reshuffles"] = reshuffles
    return fixings


def _seat(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("first_president: must be a seat number")
    return value


__all__ = [
    "DEAL",
    "DECK",
    "FIRST_PRESIDENT",
    "RESHUFFLE",
    "START",
    "Chance",
    "ChanceNode",
    "DEAL_ORDER",
    "Deals",
    "Outcomes",
    "Piles",
    "Seats",
    "deals_of",
    "fixings_of",
    "outcomes_of",
]
