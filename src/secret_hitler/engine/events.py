"""Events: what happened, each addressed to its audience (everyone, or some seats).

Event data is handed out to players through views, so it is read-only all the way down: a
``ReadOnlyDict`` of JSON scalars and ``ReadOnlyList``/``ReadOnlyDict`` values. They are ``dict``
and ``list`` subclasses, so they compare equal to plain JSON and serialize with ``json`` as they
are; only mutation is refused.

Each kind of event has its own type (``EVENT_TYPES``): a ``TypedEvent`` subclass of
``ReadOnlyDict`` that holds the event as its JSON (``{"type": ..., **data}``, the same keys in
the same order as views and the protocol show it) and reads its fields as typed attributes
(``e.seat``, ``e.policies``); ``Event.json`` and every view's log hand these out. A field that
some events of a kind leave out (``OPTIONAL``) reads as ``None`` then.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import itemgetter
from typing import Any, ClassVar, NoReturn


def _read_only(*_args: Any, **_kwargs: Any) -> NoReturn:
    raise TypeError("game data is read-only: copy it (dict(x), list(x)) to change it")


class ReadOnlyList(list[Any]):
    """A list that refuses changes (so a view cannot rewrite the game's log)."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only
    append = extend = insert = pop = remove = clear = sort = reverse = _read_only

    def __reduce__(self) -> tuple[Any, ...]:
        return (ReadOnlyList, (list(self),))

    def __copy__(self) -> ReadOnlyList:
        return self

    def __deepcopy__(self, memo: Any) -> ReadOnlyList:
        return self


class ReadOnlyDict(dict[str, Any]):
    """A dict that refuses changes (so a view cannot rewrite the game's log)."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self) -> tuple[Any, ...]:
        return (ReadOnlyDict, (dict(self),))

    def __copy__(self) -> ReadOnlyDict:
        return self

    def __deepcopy__(self, memo: Any) -> ReadOnlyDict:
        return self


def freeze(value: Any) -> Any:
    """A read-only deep copy of a JSON value (lists and tuples become ``ReadOnlyList``)."""
    if isinstance(value, dict):
        return ReadOnlyDict({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return ReadOnlyList(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """A plain, mutable deep copy of a JSON value (tuples become lists)."""
    if isinstance(value, dict):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value


class Event:
    """One entry of the game log.

    ``audience`` is ``None`` for a public event, else the tuple of seats that observe it.
    ``data`` holds only JSON values and is read-only all the way down, so the engine shares one
    event between the games that log the same one (``Game._note``).
    """

    __slots__ = ("type", "data", "audience", "_json")

    def __init__(
        self, type: str, data: dict[str, Any], audience: tuple[int, ...] | None = None
    ) -> None:
        self.type = type
        self.data = data
        self.audience = audience
        self._json: TypedEvent | None = None

    def visible_to(self, seat: int | None) -> bool:
        """``seat=None`` is a spectator, who sees public events only."""
        return self.audience is None or (seat is not None and seat in self.audience)

    @property
    def json(self) -> TypedEvent:
        """``{"type": ..., **data}`` as its kind's ``TypedEvent``, read-only, built once and
        shared by every view."""
        out = self._json
        if out is None:
            out = self._json = EVENT_TYPES[self.type](type=self.type, **self.data)
        return out

    def to_json(self, with_audience: bool = False) -> dict[str, Any]:
        """A plain, mutable copy of the event as JSON."""
        out: dict[str, Any] = thaw(self.json)
        if with_audience:
            out["audience"] = None if self.audience is None else list(self.audience)
        return out

    def __repr__(self) -> str:
        return f"Event({self.type!r}, {self.data!r}, audience={self.audience!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Event)
            and self.type == other.type
            and self.data == other.data
            and self.audience == other.audience
        )

    def __hash__(self) -> int:
        raise TypeError("an Event is mutable inside the engine and not hashable")


# ---------------------------------------------------------------------- typed events
class TypedEvent(ReadOnlyDict):
    """One event as views show it: its JSON, read-only, with its fields as typed attributes.

    A subclass per kind (``EVENT_TYPES``) declares its fields as annotations, in the order the
    engine writes them; ``kind`` is its ``"type"``, ``private`` whether it is always addressed to
    some seats only, ``OPTIONAL`` the fields some of its events leave out (read as ``None``).
    """

    __slots__ = ()
    kind: ClassVar[str] = ""
    private: ClassVar[bool] = False
    OPTIONAL: ClassVar[frozenset[str]] = frozenset()
    #: The fields of the kind, in the order its JSON holds them (after ``type``).
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, kind: str = "", private: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.kind, cls.private = kind, private
        cls.FIELDS = tuple(
            name for name, hint in cls.__annotations__.items() if not hint.startswith("ClassVar")
        )
        for name in cls.FIELDS:
            # C-level getters: reading a field costs what ``e[name]`` does
            getter = _optional(name) if name in cls.OPTIONAL else itemgetter(name)
            setattr(cls, name, property(getter))
        EVENT_TYPES[kind] = cls

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (dict(self),))


def _optional(name: str) -> Any:
    def get(event: TypedEvent) -> Any:
        return event.get(name)

    return get


#: Every kind of event, by its ``"type"``.
EVENT_TYPES: dict[str, type[TypedEvent]] = {}


def typed(event: Mapping[str, Any]) -> TypedEvent:
    """An event's JSON (a plain dict, as a client or a pickled view holds it) as its kind's
    read-only ``TypedEvent``; ``KeyError`` for a kind the engine does not log."""
    return EVENT_TYPES[event["type"]]({k: freeze(v) for k, v in event.items()})


class GameStarted(TypedEvent, kind="game_started"):
    """The table and its rules; ``names`` is ``None`` at an unnamed table."""

    __slots__ = ()
    players: int
    names: list[str] | None
    rules: ReadOnlyDict
    board: list[str | None]
    hitler_zone: int
    veto_zone: int
    liberal_policies: int
    fascist_policies: int
    draw_pile: int


class RoleDealt(TypedEvent, kind="role", private=True):
    """A seat learns its role."""

    __slots__ = ()
    seat: int
    role: str
    party: str


class Night(TypedEvent, kind="night", private=True):
    """What a seat learns of the others at the deal (engine/roles.py ``night``): ``known``
    ``{"seat": role}``, the exact roles it is shown (a fascist's team, and Hitler's when he
    knows it); ``parties`` ``{"seat": party}``, the seats shown by their party only (Merlin's
    fascists, a fascist's teammates where Morgana or the Monarchist is dealt); Percival's
    ``merlin_candidates``, Merlin's and Morgana's seats in seat order. Games without the new
    roles never carry the last two."""

    __slots__ = ()
    OPTIONAL = frozenset({"parties", "merlin_candidates"})
    known: ReadOnlyDict
    parties: ReadOnlyDict | None
    merlin_candidates: list[int] | None


class Candidate(TypedEvent, kind="candidate"):
    """A new round: its presidential candidate and the chancellors he may nominate."""

    __slots__ = ()
    seat: int
    round: int
    eligible: list[int]


class Nominated(TypedEvent, kind="nominated"):
    __slots__ = ()
    president: int
    chancellor: int


class Voted(TypedEvent, kind="voted"):
    """A seat has voted; ``ja`` only when votes are public as they are cast."""

    __slots__ = ()
    OPTIONAL = frozenset({"ja"})
    seat: int
    ja: bool | None


class Votes(TypedEvent, kind="votes"):
    """The revealed votes (``None``: the dead) and the result."""

    __slots__ = ()
    votes: list[bool | None]
    ja: int
    nein: int
    passed: bool


class Tracker(TypedEvent, kind="tracker"):
    __slots__ = ()
    value: int


class Elected(TypedEvent, kind="elected"):
    __slots__ = ()
    president: int
    chancellor: int


class NotHitler(TypedEvent, kind="not_hitler"):
    """A chancellor elected in the Hitler zone, so proven not Hitler (E8)."""

    __slots__ = ()
    seat: int


class LegislativeSession(TypedEvent, kind="legislative_session"):
    """The president draws three; ``draw_pile`` is the pile after the draw."""

    __slots__ = ()
    president: int
    chancellor: int
    veto: bool
    draw_pile: int


class Drew(TypedEvent, kind="drew", private=True):
    __slots__ = ()
    policies: list[str]


class PresidentDiscarded(TypedEvent, kind="president_discarded"):
    __slots__ = ()
    president: int


class Passed(TypedEvent, kind="passed", private=True):
    """The president's discard and the two he passed."""

    __slots__ = ()
    discarded: str
    policies: list[str]


class Received(TypedEvent, kind="received", private=True):
    __slots__ = ()
    policies: list[str]


class ChancellorDiscarded(TypedEvent, kind="chancellor_discarded", private=True):
    __slots__ = ()
    policy: str


class Enacted(TypedEvent, kind="enacted"):
    """A policy on its track (``chaos``: the top of the pile, by the election tracker)."""

    __slots__ = ()
    policy: str
    chaos: bool
    liberal_policies: int
    fascist_policies: int


class VetoProposed(TypedEvent, kind="veto_proposed"):
    __slots__ = ()
    chancellor: int


class Veto(TypedEvent, kind="veto"):
    """The president's answer to a proposed veto."""

    __slots__ = ()
    accepted: bool
    president: int


class Chaos(TypedEvent, kind="chaos"):
    """The top policy of the pile, enacted by the election tracker; ``term_limits_cleared``:
    whether this chaos lifted the term limits (``chaos_clears_term_limits``, E7), said here so
    that a log reader never applies the rule itself."""

    __slots__ = ()
    policy: str
    term_limits_cleared: bool


class Reshuffled(TypedEvent, kind="reshuffled"):
    __slots__ = ()
    draw_pile: int


class PowerUsed(TypedEvent, kind="power"):
    """A presidential power begins (the president chooses its target next, but a peek)."""

    __slots__ = ()
    power: str
    president: int


class Peek(TypedEvent, kind="peek", private=True):
    __slots__ = ()
    policies: list[str]


class PowerSkipped(TypedEvent, kind="power_skipped"):
    """A power with no possible target."""

    __slots__ = ()
    power: str
    president: int


class Investigated(TypedEvent, kind="investigated"):
    __slots__ = ()
    president: int
    target: int


class Investigation(TypedEvent, kind="investigation", private=True):
    """What the investigating president learns."""

    __slots__ = ()
    target: int
    party: str


class SpecialElection(TypedEvent, kind="special_election"):
    __slots__ = ()
    president: int
    target: int


class Executed(TypedEvent, kind="executed"):
    """``role`` only under ``reveal_executed_role``."""

    __slots__ = ()
    OPTIONAL = frozenset({"role"})
    president: int
    target: int
    role: str | None


class Claimed(TypedEvent, kind="claim"):
    """A claim (RULES.md A9): ``policies`` for a hand or a peek, ``target`` and ``party`` for an
    investigation."""

    __slots__ = ()
    OPTIONAL = frozenset({"policies", "target", "party"})
    seat: int
    subject: str
    policies: list[str] | None
    target: int | None
    party: str | None


class Assassination(TypedEvent, kind="assassination"):
    """Avalon SH: a liberal win (``trigger``: ``five_liberal_policies`` or ``hitler_executed``)
    became Hitler's assassination; his card (``hitler``, his seat) is turned face up."""

    __slots__ = ()
    hitler: int
    trigger: str


class AssassinSight(TypedEvent, kind="assassin_sight", private=True):
    """What Hitler is shown to choose his target: the Fascists' and Morgana's roles (``known``,
    ``{"seat": role}``), and the seats he may name, the whole liberal party (``targets``)."""

    __slots__ = ()
    known: ReadOnlyDict
    targets: list[int]


class Assassinated(TypedEvent, kind="assassinated"):
    """Hitler named ``target``; its card (``role``) is shown to all."""

    __slots__ = ()
    hitler: int
    target: int
    role: str


class GameOver(TypedEvent, kind="game_over"):
    """``winners``: the seats that won, only in games where they are not simply the winning
    party's (a Monarchist is dealt: engine/roles.py ``winners_of``)."""

    __slots__ = ()
    OPTIONAL = frozenset({"winners"})
    winner: str
    reason: str
    roles: list[str]
    winners: list[int] | None


#: Event types that are always addressed to some seats only (never public). The web client and
#: the tests read this list from the engine (``GET /api/rules``), never a copy of it.
PRIVATE_EVENT_TYPES = frozenset(kind for kind, cls in EVENT_TYPES.items() if cls.private)
