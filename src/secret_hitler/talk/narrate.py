"""The game's events in words: one narrator, one catalog per language.

``Narrator.tell(event)`` says one event of a log as messages (``Told``: a catalog key and its
parameters, ``talk.phrases.Message``), each with its part: a round's ``heading``, a ``line``, or
a ``detail`` of the line before (the ballots under a vote's result, the roles at the end). The
narrator reads the log in order, as a reader does, so a line may name what an earlier event
said (the chancellor a president passes his two policies to; a candidate by special election;
the veto the first session in the veto zone unlocks). It reads typed events only
(``engine.events``) and the engine's track lengths, and it decides every word choice: which
message an event gets and with what.

This is the only narrator. The server sends each event a page shows with its told messages
(``told``, docs/protocol.md 2.2: a live table's updates through ``Narrations``, each event told
once; its welcomes, a finished game's and the replay viewer's steps by ``narrate`` of the
reader's own log), and the page's log, its spoken announcements and its replay viewer render
those messages (``web/static/js/talk.js``) with their own seat names; a language model's prompt
(``llm/prompts.py``, version v2 on) says the same messages in words. What a seat is told is
derived from its own log alone, so it holds nothing the seat may not know.

The messages are keys of the web client's catalogs (``web/static/i18n/<lang>.json``, their
``log.*``, ``know.*``, ``votes.*`` sentences and the game's words in them), the one catalog of
the game's words per language. ``render(told, lang, names)`` gives the text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from ..engine import events as E
from ..engine.catalog import game_type_settings
from ..engine.settings import CHAOS_AT, FASCIST_TRACK, LIBERAL_TRACK
from .phrases import LANGUAGES, Listed, Message, Param, SeatRef, render_message

#: The parts of a told event: a new round's heading, a line, more of the line before.
HEADING, LINE, DETAIL = "heading", "line", "detail"
#: The key families of the catalog the narrator's messages use (``catalog_part``).
KEY_PREFIXES = (
    "log.",
    "know.",
    "votes.",
    "table.round",
    "role.",
    "party.inline.",
    "policy.short.",
    "power.",
    "gameover.reason.",
    "preset.",
    "gametype.",
    "list.separator",
)
_TRACKS = {"liberal": LIBERAL_TRACK, "fascist": FASCIST_TRACK}


@dataclass(frozen=True, slots=True)
class Told:
    """One message said of an event, and its part (``HEADING``, ``LINE`` or ``DETAIL``)."""

    message: Message
    part: str = LINE

    def to_json(self) -> dict[str, object]:
        return {"part": self.part, **self.message.to_json()}


def _say(key: str, part: str = LINE, **params: Param) -> Told:
    return Told(Message(key, params), part)


def _seats(seats: Iterable[int]) -> Listed:
    return Listed(tuple(SeatRef(s) for s in seats))


def _word(family: str, value: str) -> Message:
    return Message(f"{family}.{value}")


def _policies(policies: Sequence[str]) -> Listed:
    return Listed(tuple(_word("policy.short", p) for p in policies))


def game_type_keys(rules: Mapping[str, object]) -> list[str]:
    """The catalog keys of the game types these rules turn on (``gametype.avalon.percival``,
    ``gametype.monarchist``): each game-type setting of the engine's catalog
    (``engine.catalog.game_type_settings``) away from its default, named by its value unless it
    is a switch or holds several."""
    keys = []
    for name, setting in game_type_settings().items():
        value = rules.get(name, setting["default"])
        if value == setting["default"] or (setting["multiple"] and not value):
            continue
        plain = setting["multiple"] or not setting["value_labels"]
        keys.append(f"gametype.{name}" if plain else f"gametype.{name}.{value}")
    return keys


def game_types(rules: Mapping[str, object] | str | None) -> list[str]:
    """The game-type settings these rules turn on, by name (``avalon``, ``monarchist``): what
    the lobby filters its tables by."""
    return [key.split(".")[1] for key in game_type_keys(_as_mapping(rules))]


def _as_mapping(rules: Mapping[str, object] | str | None) -> Mapping[str, object]:
    """Rules as a table or game holds them: a preset's name, or its settings."""
    return {"preset": rules or "official"} if rules is None or isinstance(rules, str) else rules


def rules_name(rules: Mapping[str, object] | str | None) -> Message:
    """A table's rules by its preset's name and its game types, marked when other settings
    were changed: how the log's first line, the table cards and the game lists name them."""
    rules = _as_mapping(rules)
    name = Message(f"preset.{rules.get('preset', 'official')}.name")
    types = game_type_keys(rules)
    if types:
        listed = Listed(tuple(Message(key) for key in types))
        name = Message("preset.with_types", {"name": name, "types": listed})
    if any(key != "preset" and key not in game_type_settings() for key in rules):
        return Message("preset.changed", {"name": name, "custom": Message("preset.custom.name")})
    return name


class Narrator:
    """Says the events of one log (a seat's or a spectator's), in order.

    What it says of a public event depends only on the public events before it (who was
    elected, a special election, the veto unlocked), and of a private event only on its
    reader's private events before it (the reader's role, which Merlin's night needs):
    ``Narrations`` tells a table's events once each on that account.
    """

    __slots__ = ("_special", "_chancellor", "_veto_seen", "_role")

    def __init__(self) -> None:
        self._special: int | None = None  # the next candidate by special election
        self._chancellor: int | None = None  # of the government in office
        self._veto_seen = False
        self._role: str | None = None  # the reader's own role (a seat's log tells it first)

    def tell(self, e: E.TypedEvent) -> tuple[Told, ...]:
        """What the log says of ``e`` (nothing for an event it keeps quiet: a secret vote)."""
        say = _TELLERS.get(e.kind)
        return () if say is None else tuple(say(self, e))

    # -- the rounds
    def _game_started(self, e: E.GameStarted) -> Iterator[Told]:
        yield _say("log.game_started", count=e.players, rules=rules_name(e.rules))

    def _role_dealt(self, e: E.RoleDealt) -> Iterator[Told]:
        self._role = e.role
        yield _say("log.your_role", role=_word("role", e.role))

    def _night(self, e: E.Night) -> Iterator[Told]:
        known = sorted((int(s), role) for s, role in e.known.items())  # in seat order
        by_party = sorted(int(s) for s in (e.parties or {}))
        if self._role == "merlin":  # the fascist party, not who is Hitler (docs/game-types.md)
            yield _say("know.merlin_sees", names=_seats(by_party))
        elif by_party or any(role != "hitler" for _, role in known):
            fellows = sorted({s for s, role in known if role != "hitler"} | set(by_party))
            yield _say("know.fellow_fascists", names=_seats(fellows))
        for seat in (s for s, role in known if role == "hitler"):
            yield _say("know.hitler_is", name=SeatRef(seat))
        if e.merlin_candidates:
            first, second = e.merlin_candidates
            yield _say("know.merlin_candidates", first=SeatRef(first), second=SeatRef(second))

    def _candidate(self, e: E.Candidate) -> Iterator[Told]:
        yield _say("table.round", HEADING, n=e.round)
        special = self._special is not None and self._special == e.seat
        yield _say("log.candidate_special" if special else "log.candidate", name=SeatRef(e.seat))
        self._special = None

    def _nominated(self, e: E.Nominated) -> Iterator[Told]:
        yield _say(
            "log.nominated", president=SeatRef(e.president), chancellor=SeatRef(e.chancellor)
        )

    def _voted(self, e: E.Voted) -> Iterator[Told]:
        if e.ja is not None:
            yield _say("log.voted_ja" if e.ja else "log.voted_nein", name=SeatRef(e.seat))

    def _votes(self, e: E.Votes) -> Iterator[Told]:
        yield _say("log.votes_revealed", ja=e.ja, nein=e.nein)
        ja = [s for s, vote in enumerate(e.votes) if vote is True]
        nein = [s for s, vote in enumerate(e.votes) if vote is False]
        if ja:
            yield _say("votes.ja_list", DETAIL, names=_seats(ja))
        if nein:
            yield _say("votes.nein_list", DETAIL, names=_seats(nein))
        if not e.passed:
            yield _say("log.rejected")

    def _elected(self, e: E.Elected) -> Iterator[Told]:
        self._chancellor = e.chancellor
        yield _say("log.elected", president=SeatRef(e.president), chancellor=SeatRef(e.chancellor))

    def _tracker(self, e: E.Tracker) -> Iterator[Told]:
        if e.value > 0:
            yield _say("log.tracker_advanced", count=e.value, max=CHAOS_AT)
        else:
            yield _say("log.tracker_reset")

    def _not_hitler(self, e: E.NotHitler) -> Iterator[Told]:
        yield _say("log.not_hitler", name=SeatRef(e.seat))

    # -- the legislative session
    def _session(self, e: E.LegislativeSession) -> Iterator[Told]:
        self._chancellor = e.chancellor
        if e.veto and not self._veto_seen:
            yield _say("log.veto_unlocked")
        self._veto_seen = self._veto_seen or e.veto
        yield _say("log.legislative_started", president=SeatRef(e.president))

    def _drew(self, e: E.Drew) -> Iterator[Told]:
        yield _say("log.you_drew", policies=_policies(e.policies))

    def _president_discarded(self, e: E.PresidentDiscarded) -> Iterator[Told]:
        chancellor = self._chancellor
        yield _say(
            "log.passed_to_chancellor",
            president=SeatRef(e.president),
            chancellor="?" if chancellor is None else SeatRef(chancellor),
        )

    def _passed(self, e: E.Passed) -> Iterator[Told]:
        yield _say("log.you_discarded", policy=_word("policy.short", e.discarded))

    def _received(self, e: E.Received) -> Iterator[Told]:
        yield _say("log.you_received", policies=_policies(e.policies))

    def _chancellor_discarded(self, e: E.ChancellorDiscarded) -> Iterator[Told]:
        yield _say("log.you_discarded", policy=_word("policy.short", e.policy))

    def _chaos(self, e: E.Chaos) -> Iterator[Told]:
        yield _say("log.chaos", policy=_word("policy.short", e.policy))
        if e.term_limits_cleared:  # the engine's word: the rule is never applied here
            yield _say("log.term_limits_cleared", DETAIL)

    def _enacted(self, e: E.Enacted) -> Iterator[Told]:
        count = e.liberal_policies if e.policy == "liberal" else e.fascist_policies
        yield _say(f"log.enacted.{e.policy}", count=count, max=_TRACKS[e.policy])

    def _veto_proposed(self, e: E.VetoProposed) -> Iterator[Told]:
        yield _say("log.veto_proposed", chancellor=SeatRef(e.chancellor))

    def _veto(self, e: E.Veto) -> Iterator[Told]:
        key = "log.veto_accepted" if e.accepted else "log.veto_refused"
        yield _say(key, president=SeatRef(e.president))

    def _reshuffled(self, e: E.Reshuffled) -> Iterator[Told]:
        yield Told(Message("log.reshuffled", count=e.draw_pile))

    # -- powers
    def _power(self, e: E.PowerUsed) -> Iterator[Told]:
        if e.power == "peek":
            yield _say("log.peeked", president=SeatRef(e.president))
        else:
            yield _say(
                "log.power_granted",
                president=SeatRef(e.president),
                power=_word("power", e.power),
            )

    def _peek(self, e: E.Peek) -> Iterator[Told]:
        yield _say("log.you_peeked", policies=_policies(e.policies))

    def _power_skipped(self, e: E.PowerSkipped) -> Iterator[Told]:
        yield _say("log.power_skipped", power=_word("power", e.power))

    def _investigated(self, e: E.Investigated) -> Iterator[Told]:
        yield _say("log.investigated", president=SeatRef(e.president), target=SeatRef(e.target))

    def _investigation(self, e: E.Investigation) -> Iterator[Told]:
        yield _say(
            "log.you_investigated",
            name=SeatRef(e.target),
            party=_word("party.inline", e.party),
        )

    def _special_election(self, e: E.SpecialElection) -> Iterator[Told]:
        self._special = e.target
        yield _say("log.special_election", president=SeatRef(e.president), target=SeatRef(e.target))

    def _executed(self, e: E.Executed) -> Iterator[Told]:
        yield _say("log.executed", president=SeatRef(e.president), target=SeatRef(e.target))
        if e.role:
            yield _say(
                "log.executed_role", DETAIL, name=SeatRef(e.target), role=_word("role", e.role)
            )

    # -- claims and the end
    def _claim(self, e: E.Claimed) -> Iterator[Told]:
        params: dict[str, Param] = {"name": SeatRef(e.seat)}
        if e.policies:
            params["policies"] = _policies(e.policies)
        if e.party:
            params["target"] = "?" if e.target is None else SeatRef(e.target)
            params["party"] = _word("party.inline", e.party)
        yield Told(Message(f"log.claim.{e.subject}", params))

    # -- Avalon SH's assassination
    def _assassination(self, e: E.Assassination) -> Iterator[Told]:
        yield _say(f"log.assassination.{e.trigger}", hitler=SeatRef(e.hitler))

    def _assassin_sight(self, e: E.AssassinSight) -> Iterator[Told]:
        team = sorted(int(s) for s in e.known)
        if team:
            yield _say("log.assassin_team", names=_seats(team))
        yield _say("log.assassin_targets", names=_seats(e.targets))

    def _assassinated(self, e: E.Assassinated) -> Iterator[Told]:
        yield _say(
            "log.assassinated",
            hitler=SeatRef(e.hitler),
            target=SeatRef(e.target),
            role=_word("role", e.role),
        )

    def _game_over(self, e: E.GameOver) -> Iterator[Told]:
        yield _say(f"log.game_over.{e.winner}", reason=_word("gameover.reason", e.reason))
        if e.winners is not None:  # a Monarchist's game: who won is not simply a party
            yield _say("log.winners", DETAIL, names=_seats(e.winners))
        yield _say("log.roles_revealed", DETAIL)
        for seat, role in enumerate(e.roles):
            yield _say("log.role_revealed", DETAIL, name=SeatRef(seat), role=_word("role", role))


_TELLERS: dict[str, Callable[[Narrator, Any], Iterator[Told]]] = {
    E.GameStarted.kind: Narrator._game_started,
    E.RoleDealt.kind: Narrator._role_dealt,
    E.Night.kind: Narrator._night,
    E.Candidate.kind: Narrator._candidate,
    E.Nominated.kind: Narrator._nominated,
    E.Voted.kind: Narrator._voted,
    E.Votes.kind: Narrator._votes,
    E.Elected.kind: Narrator._elected,
    E.Tracker.kind: Narrator._tracker,
    E.NotHitler.kind: Narrator._not_hitler,
    E.LegislativeSession.kind: Narrator._session,
    E.Drew.kind: Narrator._drew,
    E.PresidentDiscarded.kind: Narrator._president_discarded,
    E.Passed.kind: Narrator._passed,
    E.Received.kind: Narrator._received,
    E.ChancellorDiscarded.kind: Narrator._chancellor_discarded,
    E.Chaos.kind: Narrator._chaos,
    E.Enacted.kind: Narrator._enacted,
    E.VetoProposed.kind: Narrator._veto_proposed,
    E.Veto.kind: Narrator._veto,
    E.Reshuffled.kind: Narrator._reshuffled,
    E.PowerUsed.kind: Narrator._power,
    E.Peek.kind: Narrator._peek,
    E.PowerSkipped.kind: Narrator._power_skipped,
    E.Investigated.kind: Narrator._investigated,
    E.Investigation.kind: Narrator._investigation,
    E.SpecialElection.kind: Narrator._special_election,
    E.Executed.kind: Narrator._executed,
    E.Claimed.kind: Narrator._claim,
    E.Assassination.kind: Narrator._assassination,
    E.AssassinSight.kind: Narrator._assassin_sight,
    E.Assassinated.kind: Narrator._assassinated,
    E.GameOver.kind: Narrator._game_over,
}


#: The kinds of event the narrator says (or, a secret vote, knowingly keeps quiet about).
TOLD_KINDS = frozenset(_TELLERS)


def narrate(events: Iterable[E.TypedEvent]) -> list[tuple[Told, ...]]:
    """What a log says of each of its events, in order (one tuple per event)."""
    narrator = Narrator()
    return [narrator.tell(e) for e in events]


#: What one event of a game says: to everyone (a public event), or to each seat of its
#: audience (a private one), by seat.
Telling = tuple[Told, ...] | Mapping[int, tuple[Told, ...]]


class Narrations:
    """Every reader's narration of one game's log as it grows, each event told once: what a
    live table sends with its updates.

    A public event is told by one narrator that reads the public events, a private event by
    its reader's own narrator, which reads only that reader's private events. Each reader is
    so told what ``narrate`` of its own log says (the ``Narrator``'s rule;
    tests/talk/test_narrate.py checks it on whole games of every kind), and a seat's words come
    from its own log alone.
    """

    __slots__ = ("_public", "_private", "_log", "_read")

    def __init__(self) -> None:
        self._public = Narrator()
        self._private: dict[int, Narrator] = {}
        self._log: Sequence[E.Event] | None = None
        self._read = 0  # events of ``_log`` read

    def tell_from(self, events: Sequence[E.Event], start: int) -> list[Telling]:
        """What the events of a game's log from ``start`` on say, one ``Telling`` each. The
        events before ``start`` are read first when they are not the ones read last (another
        log, one rebuilt, or one asked from another point)."""
        if events is not self._log or start != self._read:
            self._public, self._private = Narrator(), {}
            self._read_all(events[:start])
        self._log = events
        told = self._read_all(events[start:])
        self._read = len(events)
        return told

    def _read_all(self, events: Iterable[E.Event]) -> list[Telling]:
        out: list[Telling] = []
        for e in events:
            if e.audience is None:
                out.append(self._public.tell(e.json))
            else:
                out.append({s: self._reader(s).tell(e.json) for s in e.audience})
        return out

    def _reader(self, seat: int) -> Narrator:
        narrator = self._private.get(seat)
        if narrator is None:
            narrator = self._private[seat] = Narrator()
        return narrator


def heard(telling: Telling, seat: int | None) -> tuple[Told, ...]:
    """What ``seat`` (None: a spectator) is told of an event it observes (a ``KeyError`` for
    a private event it does not)."""
    if isinstance(telling, tuple):
        return telling
    if seat is None:
        raise KeyError("a spectator observes no private event")
    return telling[seat]


def told_json(told: Iterable[Told]) -> list[dict[str, object]]:
    """Told messages as the protocol carries them (an event's ``told``)."""
    return [t.to_json() for t in told]


def rules_named(rules: Mapping[str, object] | str | None) -> dict[str, object]:
    """What the protocol says with a table's or a game's ``rules`` so that a page decides no
    word of it: ``rules_name`` (the message naming them) and ``game_types``."""
    return {"rules_name": rules_name(rules).to_json(), "game_types": game_types(rules)}


# -- the catalog ---------------------------------------------------------------------------------


@cache
def catalog(lang: str) -> dict[str, str]:
    """The web client's catalog of ``lang`` (``web/static/i18n/<lang>.json``), read as data."""
    if lang not in LANGUAGES:
        raise ValueError(f"no catalog for language {lang[:20]!r}; have {', '.join(LANGUAGES)}")
    folder = resources.files("secret_hitler.web").joinpath("static", "i18n")
    data = json.loads(folder.joinpath(f"{lang}.json").read_text("utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"web/static/i18n/{lang}.json must be a JSON object")
    return data


def catalog_part(lang: str) -> dict[str, str]:
    """The entries of ``lang``'s catalog the narrator's messages can use (``KEY_PREFIXES``), in
    key order: what a prompt version that narrates with them depends on."""
    texts = catalog(lang)
    return {k: texts[k] for k in sorted(texts) if k.startswith(KEY_PREFIXES)}


def render(told: Told | Message, lang: str, names: Sequence[str | None] | None = None) -> str:
    """A told event's message in words, in ``lang``; ``names``: each seat as the reader names
    it (a missing one by its number)."""
    msg = told.message if isinstance(told, Told) else told
    return render_message(msg, lang, names, catalog(lang))


__all__ = [
    "DETAIL",
    "HEADING",
    "KEY_PREFIXES",
    "LINE",
    "Narrations",
    "Narrator",
    "TOLD_KINDS",
    "Telling",
    "Told",
    "catalog",
    "catalog_part",
    "game_type_keys",
    "game_types",
    "heard",
    "narrate",
    "render",
    "rules_name",
    "rules_named",
    "told_json",
]
