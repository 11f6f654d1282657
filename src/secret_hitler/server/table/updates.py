"""Per-recipient update messages: what one seat (or a spectator) may know after an action.

An update carries the seat's engine view (``Game.view(seat)``) without its event log, and the new
events the engine's observer routes to that seat, each with what the narrator tells of it
(``told``: ``talk.narrate``, the messages the page's log renders). Nothing here decides what a
seat may see: the engine's observer does, and ``View.SEAT_FIELDS`` says which view fields can
differ between seats, so the rest is encoded once per action for everyone. It also carries the rule facts a client
shows without a rule of its own: the governments changed by the action, their claims judged
(``engine/history.py``), and why the seat may not speak now (``engine/speech.py``).
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import orjson

from ...engine import Action, Game, View, game_from_record
from ...engine.actions import CLAIM
from ...engine.events import Event, TypedEvent, thaw
from ...engine.history import Government, History, changed_from, governments
from ...engine.speech import silenced
from ...engine.view import ELECTION_FIELDS, OWN_FIELDS, TABLE_FIELDS
from ...talk.narrate import Narrations, Narrator, Telling, Told, narrate, told_json
from ..core.protocol import VERSION

_DUMP = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode

# Frame sizes must not tell anyone what a seat holds (docs/security.md "Frame sizes"): every
# recipient of one update gets a frame of one length, computed from the spectator's frame (public
# information) plus this allowance for what a seat's frame may add: its private events, own view
# fields, legal actions, open claims and why it may not speak. 1,497 bytes is the most seen over
# 320 random games of every preset and player count with frequent claims, private events told
# (``told``; 1,445 over 1,080 games before they were), and tests/server/test_updates.py keeps
# checking it; the rest is margin.
SEAT_ALLOWANCE = 2048
BUCKET = 256
_PAD = ',"pad":"'
_PAD_BYTES = _PAD.encode()
log = logging.getLogger("secret_hitler.server.updates")


def padded_length(public_bytes: int) -> int:
    """The length of every frame of an update whose spectator frame has ``public_bytes``."""
    need = public_bytes + SEAT_ALLOWANCE + len(_PAD) + 1
    return -(-need // BUCKET) * BUCKET


#: A bound on one private event's JSON with its ``told`` (the longest seen, a night event naming
#: four fascists and the sentences that say them, is 331 bytes), for padding a welcome, which
#: carries the seat's whole log.
PRIVATE_EVENT_ALLOWANCE = 400
WELCOME_BUCKET = 1024


def welcome_length(game: Game, public_bytes: int) -> int:
    """The padded length of every welcome to this game now: the spectators' welcome, plus room
    for the private events a seat can hold. The game's count of private events (roles, nights,
    hands, peeks, investigations) follows from public facts (rules, offices, powers used)."""
    private = sum(1 for e in game.events if e.audience is not None)
    need = public_bytes + SEAT_ALLOWANCE + PRIVATE_EVENT_ALLOWANCE * private + len(_PAD) + 1
    return -(-need // WELCOME_BUCKET) * WELCOME_BUCKET


def pad_to(text: str, length: int) -> str:
    """``text`` (a JSON object) grown to ``length`` UTF-8 bytes with a ``pad`` field of spaces."""
    room = length - len(text.encode()) - len(_PAD) - 1  # the closing brace moves after the pad
    if room < 0:
        raise ValueError("frame longer than its padded length")
    return f'{text[:-1]}{_PAD}{" " * room}"}}'


def pad_bytes(text: bytes, length: int) -> bytes:
    """``pad_to`` for an encoded frame (``text``: a JSON object's UTF-8 bytes)."""
    room = length - len(text) - len(_PAD) - 1
    if room < 0:
        raise ValueError("frame longer than its padded length")
    return b'%s%s%s"}' % (text[:-1], _PAD_BYTES, b" " * room)


# ---------------------------------------------------------------------- the told events
def _with_told(e: TypedEvent, told: tuple[Told, ...]) -> dict[str, Any]:
    """An event as a client gets it: its JSON and ``told``, what the narrator says of it to
    its reader (docs/protocol.md 2.2)."""
    return {**thaw(e), "told": told_json(told)}


def _encoded(e: Event, telling: Telling) -> bytes | dict[int, bytes]:
    """An event with its ``told``, encoded: once (a public event), or once for each seat it is
    addressed to."""
    if isinstance(telling, tuple):
        return _ENCODE(_with_told(e.json, telling))
    return {seat: _ENCODE(_with_told(e.json, told)) for seat, told in telling.items()}


def view_json(view: View) -> dict[str, Any]:
    """``view``'s JSON, each event of its log with what the narrator tells its reader of it
    (``told``), narrated from that log alone (a welcome's, a replay step's)."""
    out = view.to_json(events=False)
    told = narrate(view.events)
    out["events"] = [_with_told(e, t) for e, t in zip(view.events, told, strict=True)]
    return out


# ---------------------------------------------------------------------- what the page shows
class _Followed:
    """A game's governments as of its first ``length`` events (``made``), with the fold that
    read them, so the next update reads only the events after them."""

    __slots__ = ("events", "length", "last", "fold", "made")

    def __init__(self, events: list[Any], length: int, fold: History) -> None:
        self.events, self.length, self.fold = events, length, fold
        self.last = events[length - 1] if length else None
        self.made = fold.governments()

    def follows(self, events: list[Any], length: int) -> bool:
        """Whether these are still the first ``length`` events of that log (an undone action is
        gone from it again before the next update)."""
        return (
            self.events is events
            and self.length == length
            and (not length or events[length - 1] is self.last)
        )


_FOLLOWED: OrderedDict[int, _Followed] = OrderedDict()  # by id(game), the most recent last
_FOLLOWED_MAX = 8192  # (more than the live games of one node)


def _public(events: list[Any]) -> Iterator[TypedEvent]:
    return (e.json for e in events if e.audience is None)


def governments_since(
    game: Game, ev_from: int
) -> tuple[tuple[Government, ...], tuple[Government, ...]]:
    """The governments of ``game`` (engine/history.py, from its public events) after its first
    ``ev_from`` events and after all of them. A live table asks after each action from where
    it asked last: the fold kept then reads only the new events (a table replayed for a resume,
    or anything else, is read from the start)."""
    events = game.events
    followed = _FOLLOWED.pop(id(game), None)
    if followed is None or not followed.follows(events, ev_from):
        fold = History()
        for e in _public(events[:ev_from]):
            fold.feed(e)
        followed = _Followed(events, ev_from, fold)
    before = followed.made
    for e in _public(events[ev_from:]):
        followed.fold.feed(e)
    followed.length, followed.made = len(events), followed.fold.governments()
    followed.last = events[-1] if events else None
    _FOLLOWED[id(game)] = followed
    while len(_FOLLOWED) > _FOLLOWED_MAX:
        _FOLLOWED.popitem(last=False)
    return before, followed.made


def public_governments(game: Game) -> tuple[Government, ...]:
    """The governments of ``game`` now, the same for every recipient (a welcome's): those of
    its last update when they are still now, else read from the start (a finished game read
    from the database is not kept)."""
    events = game.events
    followed = _FOLLOWED.get(id(game))
    if followed is not None and followed.follows(events, len(events)):
        return followed.made
    return governments(_public(events))


def governments_json(
    after: tuple[Government, ...], before: tuple[Government, ...] = ()
) -> dict[str, Any]:
    """``{"from": K, "rows": [...]}``: the governments of ``after`` from the first one that is
    not in ``before`` as it is (a welcome: ``before`` empty, every government), for the web
    page's memory aids (docs/protocol.md 2.2), which show them as they are."""
    start = changed_from(before, after)
    return {"from": start, "rows": [g.to_json() for g in after[start:]]}


def _changed(game: Game, ev_from: int) -> dict[str, Any]:
    """An update's ``governments``: those the events from ``ev_from`` on changed."""
    before, after = governments_since(game, ev_from)
    return governments_json(after, before)


def table_facts(game: Game, seat: int | None, chat: str = "free") -> dict[str, Any]:
    """What a welcome adds to the view for ``seat``: every government with its claims judged
    (``governments``), and why this seat may not speak now (``silenced``: the engine's
    speech rule, ``engine/speech.py``, at a table of this ``chat`` mode; None when it may)."""
    return {
        "governments": governments_json(public_governments(game)),
        "silenced": silenced(game.view(seat), seat, chat),
    }


def build_update(
    game: Game,
    seat: int | None,
    seq: int,
    ev_from: int,
    action: Action | None,
    by: str | None,
    deadline: float | None,
    waits: dict[str, float] | None = None,
    chat: str = "free",
    narrator: Narrator | None = None,
) -> dict[str, Any]:
    """The ``update`` message for ``seat`` after the events from ``ev_from`` on (``waits``:
    the model seats thinking and when their wait ends, ``BotDriver.waits``; ``chat``: the
    table's chat mode, for ``silenced``). The reference the fast path, ``SeatUpdates``, is
    checked against: the seat's own ``narrator``, which has read its log before ``ev_from``,
    tells the new events (without one, the seat's whole log is read anew)."""
    legal = [a.to_json() for a in game.legal_actions(seat)] if seat is not None else []
    view = game.view(seat)
    new = game.observer.events_since(seat, ev_from)
    if narrator is None:
        told = narrate(view.events)[len(view.events) - len(new) :]
    else:
        told = [narrator.tell(e) for e in new]
    msg: dict[str, Any] = {
        "v": VERSION,
        "type": "update",
        "seq": seq,
        "events": json.loads(_DUMP([_with_told(e, t) for e, t in zip(new, told, strict=True)])),
        "view": view.to_json(events=False),
        "legal": legal,
        "silenced": silenced(view, seat, chat),
        "deadline": deadline,
        "action": None if action is None else action.public_json(),
        "governments": _changed(game, ev_from),
    }
    if by is not None:
        msg["by"] = by
    if waits:
        msg["model_deadlines"] = waits
    return msg


# ---------------------------------------------------------------------- one action, every seat
_ENCODE = orjson.dumps  # every key below is a string: no option needed

_ACTION_JSON: dict[Action, bytes] = {}
_ACTION_JSON_MAX = 20_000


def _action_json(action: Action) -> bytes:
    text = _ACTION_JSON.get(action)
    if text is None:
        text = _ENCODE(action.to_json())
        if len(_ACTION_JSON) < _ACTION_JSON_MAX:
            _ACTION_JSON[action] = text
    return text


#: The encoded public fields but the open election's (``Observer.table``) of each live game,
#: by ``id(game)``, with the tuple they were encoded from: that tuple is the same object until
#: the game's state moves (a vote that leaves its election open keeps it), so most votes of an
#: election reuse the encoding. Bounded; a game pushed out is encoded again.
_TABLE_JSON: dict[int, tuple[tuple[Any, ...], bytes]] = {}
_TABLE_JSON_MAX = 8192


def _public_fields(game: Game) -> bytes:
    """The view fields every recipient shares (``view.PUBLIC_FIELDS``), as ``"name":value``
    pairs: the table's (encoded once per state) and the election's progress."""
    observer = game.observer
    table = observer.table()
    cached = _TABLE_JSON.get(id(game))
    if cached is None or cached[0] is not table:
        cached = (table, _ENCODE(dict(zip(TABLE_FIELDS, table, strict=True)))[1:-1])
        _TABLE_JSON.pop(id(game), None)
        _TABLE_JSON[id(game)] = cached
        if len(_TABLE_JSON) > _TABLE_JSON_MAX:
            del _TABLE_JSON[next(iter(_TABLE_JSON))]
    election = _ENCODE(dict(zip(ELECTION_FIELDS, observer.election(), strict=True)))[1:-1]
    return cached[1] + b"," + election


#: The encoded own fields (``Observer.own``: ``view.OWN_FIELDS``, ``"name":value`` pairs) by
#: the tuple they were encoded from: a seat's own fields change a few times a game (its role,
#: its hand, its vote), so most updates find them here. The tuple holds the seat itself, and
#: each place holds one type (an int seat, bools or None for votes, strings), so equal tuples
#: encode alike. Bounded: emptied when full.
_OWN_JSON: dict[tuple[Any, ...], bytes] = {}
_OWN_JSON_MAX = 50_000


def _own_fields(game: Game, seat: int | None) -> bytes:
    own = game.observer.own(seat)
    text = _OWN_JSON.get(own)
    if text is None:
        text = _ENCODE(dict(zip(OWN_FIELDS, own, strict=True)))[1:-1]
        if len(_OWN_JSON) >= _OWN_JSON_MAX:
            _OWN_JSON.clear()
        _OWN_JSON[own] = text
    return text


_SILENCED_JSON: dict[str | None, bytes] = {}


def _silenced_json(reason: str | None) -> bytes:
    text = _SILENCED_JSON.get(reason)
    if text is None:
        text = _SILENCED_JSON[reason] = _ENCODE(reason)
    return text


class SeatUpdates:
    """The encoded ``update`` frames of one action (UTF-8 bytes), built lazily per recipient
    (each once).

    What every recipient shares is encoded once per action: the head, the public view fields
    (``view.PUBLIC_FIELDS``, from the engine's observer) and the tail; each new event once, and
    the list of them once when every one is public (most actions: a vote, a nomination), else a
    seat's list joining those the engine lets it observe. A seat adds only its own fields
    (``Observer.own``: ``view.OWN_FIELDS``, their encoding reused while they are unchanged),
    its legal actions and why it may not speak. A frame is joined once, its padding with it.

    ``narration``: the table's ``Narrations``, which tells each new event once (a public one
    for everyone, a private one for each seat it is addressed to); without it the log is read
    from its start.
    """

    __slots__ = (
        "_game",
        "_events",
        "_public_events",
        "_head",
        "_view_mid",
        "_tail",
        "_texts",
        "_parts",
        "_length",
        "_chat",
    )

    def __init__(
        self,
        game: Game,
        seq: int,
        ev_from: int,
        action: Action | None,
        by: str | None,
        deadline: float | None,
        waits: dict[str, float] | None = None,
        chat: str = "free",
        narration: Narrations | None = None,
    ) -> None:
        self._game = game
        self._chat = chat  # the table's chat mode (who may speak: ``silenced``)
        tellings = (narration or Narrations()).tell_from(game.events, ev_from)
        self._events = [
            (e, _encoded(e, telling))
            for e, telling in zip(game.events[ev_from:], tellings, strict=True)
        ]
        # every new event public: one list for every recipient
        public = [text for _, text in self._events if isinstance(text, bytes)]
        self._public_events = b",".join(public) if len(public) == len(self._events) else None
        self._head = b'{"v":%d,"type":"update","seq":%d,"events":[' % (VERSION, seq)
        self._view_mid = _public_fields(game)
        tail: dict[str, Any] = {
            "deadline": deadline,
            "action": None if action is None else action.public_json(),
            "governments": _changed(game, ev_from),
        }
        if by is not None:
            tail["by"] = by
        if waits:
            tail["model_deadlines"] = waits
        self._tail = _ENCODE(tail)[1:-1]  # (without its braces: the frame closes itself)
        self._texts: dict[int | None, bytes] = {}
        self._parts: dict[int | None, tuple[list[bytes], int]] = {}
        self._length = padded_length(self._parts_of(None)[1] + 1)

    def frames(self, seats: Iterable[int | None]) -> dict[int | None, bytes]:
        """The frames for these recipients (``None``: spectators), all of the update's length.

        Every frame is built before any is padded, so if the allowance ever proved too small
        every frame grows together: no recipient's frame is ever longer than another's.
        """
        parts = {seat: self._parts_of(seat) for seat in seats}
        longest = max((size for _, size in parts.values()), default=0) + 1
        if longest + len(_PAD) + 1 > self._length:
            log.error("update frame over its padded length; padding every frame further")
            self._length = padded_length(longest)
            self._texts = {}
        out = {}
        texts = self._texts
        for seat, (pieces, size) in parts.items():
            padded = texts.get(seat)
            if padded is None:
                padded = texts[seat] = self._padded(pieces, size)
            out[seat] = padded
        return out

    def text(self, seat: int | None) -> bytes:
        """The frame for one recipient (see ``frames``)."""
        return self.frames([seat])[seat]

    def acked(self, seat: int, msg_id: str) -> bytes | None:
        """``seat``'s frame carrying ``ack``, the id of the action message it answers (for the
        connection that sent it), of the update's length; None when it would not fit that
        length (the connection then gets an ``ack`` message of its own). Call after ``frames``
        (the length is final then)."""
        pieces, size = self._parts_of(seat)
        ack = b',"ack":' + _ENCODE(msg_id)
        if size + len(ack) + 1 + len(_PAD) + 1 > self._length:
            return None
        return self._padded([*pieces, ack], size + len(ack))

    @property
    def length(self) -> int:
        """The length in bytes of every frame of this update."""
        return self._length

    def _padded(self, pieces: list[bytes], size: int) -> bytes:
        """The frame of ``pieces`` (``size`` bytes, an object without its closing brace) grown
        to the update's length by its ``pad`` field (``pad_bytes``, in the same one join)."""
        room = self._length - size - len(_PAD) - 2  # the pad's closing quote and the brace
        if room < 0:
            raise ValueError("frame longer than its padded length")
        return b"".join([*pieces, _PAD_BYTES, b" " * room, b'"}'])

    def _parts_of(self, seat: int | None) -> tuple[list[bytes], int]:
        """``seat``'s frame as pieces, without its closing brace, and their length."""
        got = self._parts.get(seat)
        if got is None:
            pieces = self._build(seat)
            got = self._parts[seat] = (pieces, sum(map(len, pieces)))
        return got

    def _build(self, seat: int | None) -> list[bytes]:
        g = self._game
        events = self._public_events
        if events is None:
            events = b",".join(
                [
                    text if isinstance(text, bytes) else text[seat]  # type: ignore[index]
                    for e, text in self._events
                    if e.visible_to(seat)
                ]
            )
        legal = (
            b",".join([_action_json(a) for a in g.legal_actions(seat)]) if seat is not None else b""
        )
        # the speech rule reads the game as it reads a view (``engine/speech.py``)
        return [
            self._head,
            events,
            b'],"view":{',
            self._view_mid,
            b",",
            _own_fields(g, seat),
            b'},"legal":[',
            legal,
            b'],"silenced":',
            _silenced_json(silenced(g, seat, self._chat)),
            b",",
            self._tail,
        ]


# ---------------------------------------------------------------------- stand-in moves
def event_bounds(game: Game) -> list[int]:
    """The length of ``game``'s log before its first action and after each action, by replaying
    it (``Table`` keeps them up to date after that)."""
    replay = game_from_record(game.to_record(), apply_actions=False)
    bounds = [len(replay.events)]
    for action in game.actions:
        replay.apply(action)
        bounds.append(len(replay.events))
    return bounds


def mark_standins(
    game: Game,
    action_by: list[str | None],
    bounds: list[int],
    seat: int | None,
    events: list[Any],
) -> list[Any]:
    """``events`` (``seat``'s log as its view gives it), with the first event of each move a
    stand-in made marked ``standin: {by, i, action}`` (``i``: the action's index; ``action``:
    its public part), as ``table-state.js`` marks an update with ``by``. Public: every seat and
    the spectators see one event of every move, and the same marks (frame sizes stay equal)."""
    moves = [(k, by) for k, by in enumerate(action_by) if by is not None]
    if not moves:
        return events
    out = list(events)
    position = -1  # of the event in ``seat``'s log
    m = 0
    for j, e in enumerate(game.events):
        if m == len(moves):
            break
        if not e.visible_to(seat):
            continue
        position += 1
        while m < len(moves) and j >= bounds[moves[m][0] + 1]:
            m += 1  # (never: every action logs an event everyone sees)
        if m < len(moves) and j >= bounds[moves[m][0]]:
            k, by = moves[m]
            mark = {"by": by, "i": k, "action": game.actions[k].public_json()}
            out[position] = {**out[position], "standin": mark}
            m += 1
    return out


def away_moves(game: Game, action_by: list[str | None], seat: int | None) -> list[int]:
    """The indices of the moves a stand-in made for ``seat`` since its person's own last move
    (claims aside): what a returning person is told was played for them."""
    out: list[int] = []
    if seat is None:
        return out
    for k in range(len(action_by) - 1, -1, -1):
        action = game.actions[k]
        if action.seat != seat or action.type == CLAIM:
            continue
        if action_by[k] is None:
            break
        out.append(k)
    return out[::-1]


def seat_view(
    game: Game, action_by: list[str | None], bounds: Callable[[], list[int]], seat: int | None
) -> tuple[dict[str, Any], list[int]]:
    """What a welcome tells ``seat`` of ``game``: its view (JSON) with every stand-in move marked
    in its log (``mark_standins``), and the moves a stand-in made for it since its person's own
    last move (``away_moves``). One place for the socket's welcome and for a finished game's
    (``GET /api/games/{id}/welcome``). ``bounds()``: the game's ``event_bounds``, asked only
    when a stand-in moved."""
    view = view_json(game.view(seat))
    if not any(action_by):
        return view, []
    view["events"] = mark_standins(game, action_by, bounds(), seat, view["events"])
    return view, away_moves(game, action_by, seat)
