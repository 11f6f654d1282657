"""Convert secrethitler.io game summaries into game records (RECORD-FORMAT.md).

The site's summary (``GET /gameSummary?id=...``) logs one entry per nomination with the whole
draw pile at the start of that turn, the hands, the votes, the powers and the public claims. That
is enough to rebuild every decision of the game and every chance event. Each entry is translated
into the engine's actions and applied to a ``Game`` dealt with the site's roles, first president
and first pile; the engine alone applies the rules (votes, election tracker, chaos, deck check,
powers, the end of the game). Each reshuffle the engine makes is fixed to the order the site shows
at its next entry, and every draw, peek and top-deck is checked against the site's log. The
result is a record that replays under the ``official`` preset (custom-game settings carried
over), so the engine checks the site's games move by move.

The site's game types (docs/game-types.md) are the engine's settings: ``gameSetting.avalonSH``
(and its ``withPercival``) is ``avalon``, ``monarchistSH`` is ``monarchist``, ``noTopdecking``
1 and 2 are ``top_decking`` ``forbidden`` and ``not_twice``, and a standard game whose first
pile (and, at 6 players, ``rebalance6p``) is the site's rebalanced 6-, 7- or 9-player table is
``rebalanced`` at that count; the roles Merlin, Percival, Morgana and the Monarchist are dealt as
the summary names them, and the ``assassination`` the site logs on the last entry is Hitler's
``assassinate``. What the engine plays otherwise is skipped by name (docs/game-types.md
"Importer"): a deal of an earlier period of the site (several Monarchists, Percival without
Morgana), Morgana executing Hitler, a summary that calls a chaos the server played a top-deck,
and the custom powers the engine has no equivalent for.

Everything here is pure: ``convert_game`` takes the decoded summary and returns the record dict;
``iter_records`` does the same over the lines of a JSONL file without opening anything itself.

Chat: a record keeps a source's chat in its ``talk`` section (docs/engine.md, "Talk") where the
source has one. The site's game summaries carry no chat (and the project's copy had it removed,
data/README.md), so these records have no ``talk``.

It is about 800 lines because it is one translation: ``_Pass`` reads a summary's entries once,
in order, and each kind of entry (a nomination, the votes, a session, a power, the claims, the
end) is a step of that one reading, sharing its state (the game, the pile as the site shows it,
what was skipped and why); ``_rules`` maps the site's settings. Split, each step would reach
into the others' state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from secret_hitler import jsontext
from secret_hitler.engine import (
    Action,
    Event,
    Game,
    GameError,
    IllegalAction,
    InvalidAction,
    InvalidRecord,
    InvalidSettings,
    Phase,
    Rules,
)
from secret_hitler.engine.settings import FASCISTS_BY_COUNT, REBALANCED
from secret_hitler.engine.types import PARTY_OF_NAME, Role

SITE = "secrethitler.io"
LIBERAL = "liberal"
FASCIST = "fascist"
POLICIES = (LIBERAL, FASCIST)
#: The site's roles (``players[].role``, its card names) are the engine's role names.
ROLES = frozenset(PARTY_OF_NAME)
#: The site's ``noTopdecking`` values -> the engine's ``top_decking``.
TOP_DECKING = {0: "allowed", 1: "forbidden", 2: "not_twice"}

# Why a game is skipped (``Unsupported.reason``): rules the engine cannot express, or a game
# the site played otherwise than its rules now say (docs/game-types.md "Importer").
UNKNOWN_POWER = "unknown_power"
RULES_REFUSED = "rules_refused"
#: A deal of an earlier period of the site's Avalon SH and Monarchist (several Monarchists,
#: Percival without Morgana): not the role cards these settings deal.
EARLIER_DEAL = "earlier_deal"
#: Morgana executed Hitler: the site's server allowed it, the game type's intent (and the
#: ``secrethitler-io`` preset) does not (docs/game-types.md, decision 2).
MORGANA_EXECUTED_HITLER = "morgana_executed_hitler"
#: A game without top-decking whose last chaos the server played (after a veto, or the first
#: one under "no double top-decking") and whose summary calls a fascist top-deck win
#: (docs/game-types.md, decision 5): the summary's winner is not the game's.
SUMMARY_TOP_DECK = "summary_top_deck"
# Why a line could not be converted at all (``Converted.skipped`` for a ``BadSummary``).
INCONSISTENT = "inconsistent"

#: The site's power names (``customGameSettings.powers``) -> the record's names.
SITE_POWERS: dict[str | None, str | None] = {
    None: None,
    "investigate": "investigate",
    "election": "special_election",
    "deckpeek": "peek",
    "bullet": "execute",
}


class Unsupported(Exception):
    """The game uses a rule the engine cannot express; ``reason`` is a short stable code."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


class BadSummary(ValueError):
    """The summary is malformed or contradicts itself (the message names the log entry)."""


@dataclass(frozen=True, slots=True)
class Converted:
    """One input game: its record, or why it was skipped; ``notes`` list what was left out."""

    game_id: str
    record: dict[str, Any] | None
    skipped: str | None = None
    detail: str = ""
    notes: tuple[str, ...] = ()


def convert_game(summary: dict[str, Any]) -> dict[str, Any]:
    """One site summary -> one record dict.

    Raises ``Unsupported`` for games the engine cannot play as the site did (the reasons
    above) and ``BadSummary`` for summaries that are malformed or contradict themselves.
    An unfinished game converts too: its record stops where the log stops and has no ``result``.
    """
    return _convert(summary)[0]


def convert_game_with_notes(summary: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Like ``convert_game``, plus notes on what could not be carried over (dropped claims)."""
    return _convert(summary)


def iter_records(lines: Iterable[str]) -> Iterator[Converted]:
    """Convert each non-blank JSONL line; a line that is not a JSON object raises ``BadSummary``.

    Games that cannot be converted are yielded with ``record=None`` and the reason, so a caller
    can count them; only an unreadable line stops the iteration (the file itself is broken).
    """
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            summary = jsontext.loads(line)
        except jsontext.BadJson as exc:
            raise BadSummary(f"line {number}: {exc}") from None
        if not isinstance(summary, dict):
            raise BadSummary(f"line {number}: expected a JSON object (one game summary)")
        game_id = str(summary.get("id", f"line-{number}"))
        try:
            record, notes = convert_game_with_notes(summary)
        except Unsupported as exc:
            yield Converted(game_id, None, exc.reason, exc.detail)
        except BadSummary as exc:
            yield Converted(game_id, None, INCONSISTENT, str(exc))
        else:
            yield Converted(game_id, record, notes=tuple(notes))


# ---------------------------------------------------------------------------------- internals


class _Stop(Exception):
    """The log ends in the middle of a turn (an abandoned game): keep what came before."""


class _Reshuffled(Exception):
    """The engine reshuffled with no fixing left: convert again with ``pile`` as the next one.

    ``partial``: the site showed only the top of this pile (the game ended first); the rest is
    in a fixed order.
    """

    def __init__(self, pile: list[str], partial: bool) -> None:
        super().__init__("reshuffled")
        self.pile = pile
        self.partial = partial


def _multiset(policies: Iterable[Any]) -> Counter[str]:
    return Counter(str(p) for p in policies)


def _policy_list(value: Any, size: int) -> list[str] | None:
    """A claim's policies when the site recorded a well-formed claim of ``size``, else None."""
    if isinstance(value, list) and len(value) == size and all(p in POLICIES for p in value):
        return [str(p) for p in value]
    if isinstance(value, str):  # letter encodings: "rrb", "rb" (r = fascist, b = liberal)
        letters = value.strip().lower()
        if len(letters) == size and set(letters) <= {"r", "b"}:
            return [FASCIST if c == "r" else LIBERAL for c in letters]
    if isinstance(value, dict) and set(value) <= {"reds", "blues"}:  # {"reds": 2, "blues": 1}
        reds, blues = value.get("reds", 0), value.get("blues", 0)
        if isinstance(reds, int) and isinstance(blues, int) and reds + blues == size:
            return [FASCIST] * reds + [LIBERAL] * blues
    return None


def _party(value: Any) -> str | None:
    if isinstance(value, str) and value.lower() in POLICIES:
        return value.lower()
    return None


def _count(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BadSummary(f"customGameSettings.{what}: expected a count, got {value!r}")
    return value


def _seat(value: Any, n: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        raise BadSummary(f"{what}: expected a seat from 0 to {n - 1}, got {value!r}")
    return value


def _pile(i: int, pile: Any) -> list[str]:
    if not isinstance(pile, list) or not all(p in POLICIES for p in pile):
        raise BadSummary(f"logs[{i}].deckState: expected the draw pile as liberal/fascist")
    return [str(p) for p in pile]


def _first(events: list[Event], kind: str) -> Event | None:
    return next((e for e in events if e.type == kind), None)


@dataclass(frozen=True, slots=True)
class _Setup:
    """What the summary fixes before the first move, checked once for every pass."""

    summary: dict[str, Any]
    n: int
    roles: list[str]
    rules: str | dict[str, Any]
    first_president: int
    deck: list[str]
    logs: list[Any]


def _convert(summary: Any) -> tuple[dict[str, Any], list[str]]:
    """Drive a ``Game`` through the log; each reshuffle the engine makes adds one fixing.

    The engine alone decides when it reshuffles; the site shows the new order only at its next
    entry, so a pass that meets a reshuffle it has no fixing for stops, and the conversion starts
    again with that pile fixed (a game has a few reshuffles at most).
    """
    setup = _read_setup(summary)
    fixings: list[list[str]] = []
    partial = False
    while True:
        try:
            return _Pass(setup, fixings, partial).run()
        except _Reshuffled as found:
            fixings.append(found.pile)
            partial = found.partial


def _read_setup(summary: Any) -> _Setup:
    if not isinstance(summary, dict):
        raise BadSummary("a game summary must be a JSON object")
    setting = summary.get("gameSetting") or {}
    if not isinstance(setting, dict):
        raise BadSummary("gameSetting: expected an object")

    players = summary.get("players")
    if not isinstance(players, list) or not players:
        raise BadSummary("players: expected a list of {seat, role}")
    n = len(players)
    seats: list[str | None] = [None] * n
    for p in players:
        seat = _seat(p.get("seat") if isinstance(p, dict) else None, n, "players[].seat")
        role = p.get("role")
        if role not in ROLES or seats[seat] is not None:
            raise BadSummary(f"players: seat {seat} has a bad or repeated role {str(role)[:20]!r}")
        seats[seat] = role
    roles = [r for r in seats if r is not None]

    logs = summary.get("logs")
    if not isinstance(logs, list) or not logs or not isinstance(logs[0], dict):
        raise BadSummary("logs: expected at least one log entry")
    deck = _pile(0, logs[0].get("deckState"))
    rules = _rules(summary, n, roles, deck)
    _check_deal(rules, n, roles)
    first = _seat(logs[0].get("presidentId"), n, "logs[0].presidentId")
    return _Setup(summary, n, roles, rules, first, deck, logs)


def _game_types(setting: dict[str, Any]) -> dict[str, Any]:
    """The engine's settings for the site's ``avalonSH``, ``monarchistSH`` and
    ``noTopdecking`` (their defaults left out)."""
    out: dict[str, Any] = {}
    avalon = setting.get("avalonSH")
    if avalon:
        if not isinstance(avalon, dict):
            raise BadSummary("gameSetting.avalonSH: expected null or {withPercival}")
        out["avalon"] = "percival" if avalon.get("withPercival") else "merlin"
    monarchist = setting.get("monarchistSH")
    if monarchist not in (None, False, True):
        raise BadSummary("gameSetting.monarchistSH: expected true or false")
    if monarchist:
        out["monarchist"] = True
    no_top = setting.get("noTopdecking") or 0
    if no_top not in TOP_DECKING:
        raise BadSummary(f"gameSetting.noTopdecking: expected 0, 1 or 2, got {str(no_top)[:20]}")
    if no_top:
        out["top_decking"] = TOP_DECKING[no_top]
    return out


def _check_deal(rules: str | dict[str, Any], n: int, roles: list[str]) -> None:
    """The roles the summary deals must be the role cards these rules deal; a game type's
    deal of an earlier period of the site is skipped by name (docs/game-types.md "History of
    Avalon SH and the Monarchist")."""
    cards = {role.value: count for role, count in Rules.from_json(rules).composition(n)}
    dealt = dict(Counter(roles))
    if dealt == cards:
        return
    shown = ", ".join(f"{count} {role}" for role, count in sorted(dealt.items()))
    expected = ", ".join(f"{count} {role}" for role, count in sorted(cards.items()))
    if set(dealt) | set(cards) <= {Role.LIBERAL.value, Role.FASCIST.value, Role.HITLER.value}:
        raise BadSummary(f"players: the roles ({shown}) are not this table's ({expected})")
    raise Unsupported(
        EARLIER_DEAL,
        f"the site dealt {shown}, and its game types now deal {expected} at {n} players "
        "(a deal of an earlier period of the site)",
    )


def _rules(
    summary: dict[str, Any], n: int, roles: list[str], first_pile: list[str]
) -> str | dict[str, Any]:
    """The record's ``rules``: ``official`` with the site's custom settings carried over.

    The deck counts always come from the first pile the site shows (the policies not on the
    track); a standard game whose pile and track are a rebalanced table's is ``rebalanced`` at
    its count (the site's summary keeps only ``rebalance6p`` and ``rebalance7p``, and a
    rebalanced 9-player game shows only in its pile). The game types are the settings of
    ``_game_types``.
    """
    custom = summary.get("customGameSettings") or {}
    setting = summary.get("gameSetting") or {}
    overrides: dict[str, Any] = _game_types(setting)
    deck = (first_pile.count(LIBERAL), first_pile.count(FASCIST))
    fascists = sum(1 for r in roles if PARTY_OF_NAME[r] == FASCIST) - 1  # besides Hitler
    if isinstance(custom, dict) and custom.get("enabled"):
        site_powers = custom.get("powers")
        if not isinstance(site_powers, list) or len(site_powers) != 5:
            raise BadSummary("customGameSettings.powers: expected 5 slots")
        unknown = [p for p in site_powers if p not in SITE_POWERS]
        if unknown:
            raise Unsupported(UNKNOWN_POWER, f"custom power {unknown[0]!r} has no equivalent")
        track = custom.get("trackState") or {}
        start = (
            _count(track.get("lib", 0), "trackState.lib"),
            _count(track.get("fas", 0), "trackState.fas"),
        )
        site_deck = custom.get("deckState") or {}
        expected = (
            _count(site_deck.get("lib", 6), "deckState.lib") - start[0],
            _count(site_deck.get("fas", 11), "deckState.fas") - start[1],
        )
        if expected != deck:
            raise BadSummary(
                f"logs[0].deckState holds {deck[0]} liberal and {deck[1]} fascist policies, "
                f"the custom settings say {expected[0]} and {expected[1]}"
            )
        if custom.get("fascistCount") not in (None, fascists):
            raise BadSummary(
                f"customGameSettings.fascistCount is {custom.get('fascistCount')}, "
                f"the roles hold {fascists} fascists"
            )
        overrides |= {
            "powers": [SITE_POWERS[p] for p in site_powers],
            "hitler_zone": _count(custom.get("hitlerZone", 3), "hitlerZone"),
            "veto_zone": _count(custom.get("vetoZone", 5), "vetoZone"),
            "fascists": fascists,
            "hitler_knows_fascists": bool(custom.get("hitKnowsFas")),
            "deck": {"liberal": deck[0], "fascist": deck[1]},
            "start_track": {"liberal": start[0], "fascist": start[1]},
        }
    else:
        # rebalance6p: the fascists start with one policy enacted (taken from the deck);
        # rebalance7p, rebalance9p2f: one fascist policy fewer (seen in the pile). An old
        # summary's rebalance9p started a 9-player game with a liberal policy enacted.
        start = (0, 0)
        if setting.get("rebalance6p") and n == 6:
            start = (0, 1)
        elif setting.get("rebalance9p") and n == 9:
            start = (1, 0)
        official = Rules()
        if fascists != FASCISTS_BY_COUNT.get(n):
            overrides["fascists"] = fascists
        elif n in REBALANCED and (deck, start) == _rebalanced_table(n):
            overrides["rebalanced"] = [n]
        if "rebalanced" not in overrides:
            if deck != official.deck:
                overrides["deck"] = {"liberal": deck[0], "fascist": deck[1]}
            if start != official.start_track:
                overrides["start_track"] = {"liberal": start[0], "fascist": start[1]}
    rules: str | dict[str, Any] = {"preset": "official", **overrides} if overrides else "official"
    try:
        Rules.from_json(rules).validate(n)
    except InvalidSettings as exc:
        raise Unsupported(RULES_REFUSED, exc.message) from None
    return rules


def _rebalanced_table(n: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The deck and the start of the tracks of the site's rebalanced ``n``-player table, as
    the engine resolves them."""
    rules = Rules(rebalanced=(n,))
    return rules.deck_for(n), rules.start_track_for(n)


class _Pass:
    """One run of a ``Game`` through the site's log, with the reshuffles known so far fixed.

    The game decides everything the rules decide (who votes, whether an election passes, chaos,
    when to reshuffle, powers, the end); this class only translates each log entry into the
    engine's actions and checks that what the engine draws, peeks and top-decks is what the
    site shows.
    """

    def __init__(self, setup: _Setup, fixings: list[list[str]], partial: bool) -> None:
        self.setup = setup
        self.fixings = fixings
        self.partial = partial
        self.known = len(fixings)  # engine reshuffles accounted for (fixed, or never shown)
        self.last = len(setup.logs) - 1
        self.log: dict[str, Any] = {}
        self.notes: list[str] = []
        self.actions: list[dict[str, Any]] = []  # as applied, in the site's own field order
        self.last_chaos = False  # the last entry's government fell to chaos (its policy played)
        try:
            # The seed only orders a reshuffle the site never shows (left out of the record).
            self.game = Game(
                setup.n,
                setup.rules,
                0,
                roles=setup.roles,
                first_president=setup.first_president,
                deck=setup.deck,
                reshuffles=fixings,
            )
        except GameError as exc:
            raise BadSummary(f"the engine refuses this game's setup: {exc.message}") from None

    def run(self) -> tuple[dict[str, Any], list[str]]:
        game = self.game
        for i, log in enumerate(self.setup.logs):
            if game.finished:
                raise BadSummary(f"logs[{i}]: the game was already over ({game.reason})")
            if not isinstance(log, dict):
                raise BadSummary(f"logs[{i}]: expected an object")
            self.log = log
            try:
                self._entry(i, log)
                if game.phase is Phase.ASSASSINATE:
                    self._assassinate(i, log)
            except _Stop:
                break
        return self._record(), self.notes

    def _record(self) -> dict[str, Any]:
        summary, game = self.setup.summary, self.game
        record = game.to_record()
        record["rules"] = self.setup.rules  # custom settings spelled out, defaults included
        record["actions"] = self.actions
        # A reshuffle the site never showed is left to the replay's shuffle, as the seed is.
        record["reshuffles"] = record["reshuffles"][: len(self.fixings)]
        record.pop("seed", None)
        if self.partial:
            self.notes.append(
                "the last reshuffle is only partly shown by the site: its unseen rest is in a fixed order"
            )
        winner = game.winner.value if game.winner else None
        winning = summary.get("winningTeam")
        if winning is not None:
            if winning not in ("liberal", "fascist"):
                raise BadSummary(f"winningTeam: expected liberal, fascist or null, got {winning!r}")
            if winner is None:
                raise BadSummary(f"winningTeam is {winning} but the logs end with no winner")
            if winner != winning:
                if self.last_chaos and game.rules.top_decking != "allowed":
                    raise Unsupported(
                        SUMMARY_TOP_DECK,
                        f"the summary calls the last chaos a top-deck ({winning} win), the "
                        f"server played it ({winner} win, {game.reason})",
                    )
                raise BadSummary(
                    f"winningTeam is {winning} but the logs end with a {winner} win ({game.reason})"
                )
        else:
            record.pop("result", None)
            if winner is not None:
                self.notes.append(f"no winningTeam although the logs end with a {winner} win")
        record["source"] = {"site": SITE, "id": str(summary.get("id", ""))}
        if summary.get("date"):
            record["source"]["date"] = summary["date"]
        return record

    # ---------------------------------------------------------------- one log entry
    def _cut(self, i: int, what: str) -> _Stop:
        """The log stops here: fine for the last entry of an abandoned game only."""
        if i != self.last:
            raise BadSummary(f"logs[{i}]: {what} is missing but the game goes on")
        return _Stop()

    def _entry(self, i: int, log: dict[str, Any]) -> None:
        game, n = self.game, self.setup.n
        pile = _pile(i, log.get("deckState"))
        if pile != self._engine_pile():
            raise BadSummary(
                f"logs[{i}].deckState: the draw pile changed between turns without a reshuffle "
                "at the end of a session (D1)"
            )
        president = _seat(log.get("presidentId"), n, f"logs[{i}].presidentId")
        if log.get("chancellorId") is None:
            raise self._cut(i, "the nomination")
        chancellor = _seat(log.get("chancellorId"), n, f"logs[{i}].chancellorId")
        self._act(i, president, "nominate", target=chancellor)

        votes = log.get("votes")
        if not votes:
            raise self._cut(i, "the vote")
        if not isinstance(votes, list) or len(votes) != n:
            raise BadSummary(f"logs[{i}].votes: expected one vote per seat ({n})")
        events: list[Event] = []
        for seat in game.to_act():  # the living: the site keeps stale values for dead seats
            vote = votes[seat]
            if not isinstance(vote, bool):
                raise BadSummary(f"logs[{i}].votes[{seat}]: expected true/false, got {vote!r}")
            events = self._act(i, seat, "vote", ja=vote)
        if game.phase is not Phase.DISCARD:  # the vote failed, or elected Hitler
            self._drop_claims(i, log, "no legislative session in this entry")
            self._check_chaos(i, log, events)
            return

        hand = log.get("presidentHand")
        if not hand:
            raise self._cut(i, "the president's hand")
        drawn = [p.value for p in game.hand]
        if _multiset(hand) != _multiset(drawn):
            raise BadSummary(f"logs[{i}].presidentHand {hand} is not the top of the pile {drawn}")
        passed = log.get("chancellorHand")
        if not passed:
            raise self._cut(i, "the chancellor's hand")
        discarded = _multiset(hand) - _multiset(passed)
        if len(passed) != 2 or sum(discarded.values()) != 1:
            raise BadSummary(f"logs[{i}]: chancellorHand {passed} is not 2 of presidentHand {hand}")
        self._act(i, president, "discard", policy=next(iter(discarded)))

        if log.get("chancellorVeto"):
            self._act(i, chancellor, "veto")
            accept = log.get("presidentVeto")
            if accept is None:
                raise self._cut(i, "the president's answer to the veto")
            events = self._act(i, president, "veto_response", accept=bool(accept))
            if accept:
                self._check_chaos(i, log, events)
                if game.finished:
                    self._drop_claims(i, log, "the game ended with the top-decked policy")
                else:
                    self._claims(i, log, president, chancellor)
                return

        enacted = log.get("enactedPolicy")
        if enacted is None:
            raise self._cut(i, "the enacted policy")
        if enacted not in passed:
            raise BadSummary(
                f"logs[{i}]: enactedPolicy {enacted!r} is not in chancellorHand {passed}"
            )
        events = self._act(i, chancellor, "enact", policy=enacted)
        if game.finished:
            self._drop_claims(i, log, "the game ended with the enactment")
            return
        self._power(i, log, president, chancellor, events)

    def _power(
        self, i: int, log: dict[str, Any], president: int, chancellor: int, events: list[Event]
    ) -> None:
        """The power the engine grants, with the claims placed where the engine accepts them."""
        used = _first(events, "power")
        granted = used or _first(events, "power_skipped")
        power = str(granted.data["power"]) if granted else None
        if log.get("policyPeek") and power != "peek":
            raise BadSummary(
                f"logs[{i}]: a policy peek is logged but slot {self.game.fascist} has {power}"
            )
        if used is None or power is None:  # no power, or no legal target for it (A11)
            self._claims(i, log, president, chancellor)
            return
        if power == "peek":
            seen = self._site_peek(i, log)
            top = _first(events, "peek")
            if seen is not None and top is not None and seen != top.data["policies"]:
                raise BadSummary(
                    f"logs[{i}].policyPeek {seen} is not the top of the pile {top.data['policies']}"
                )
            self._claims(i, log, president, chancellor, peek=True)
            return
        field_name = {
            "investigate": "investigationId",
            "special_election": "specialElection",
            "execute": "execution",
        }[power]
        raw = log.get(field_name)
        if raw is None:
            if i == self.last:
                # Abandoned while the power was pending: the hand claims are already legal.
                self._claims(i, log, president, chancellor)
                raise _Stop()
            raise BadSummary(f"logs[{i}].{field_name}: the {power} power was not used")
        target = _seat(raw, self.setup.n, f"logs[{i}].{field_name}")
        if power == "investigate":
            self._act(i, president, "investigate", target=target)
            self._claims(i, log, president, chancellor, investigation=target)
        elif power == "special_election":
            self._act(i, president, "special_election", target=target)
            self._claims(i, log, president, chancellor)
        else:
            roles = self.setup.roles
            if roles[president] == Role.MORGANA.value and roles[target] == Role.HITLER.value:
                raise Unsupported(
                    MORGANA_EXECUTED_HITLER,
                    f"logs[{i}]: Morgana (seat {president}) executed Hitler (seat {target}), "
                    "which the site's game type does not allow",
                )
            ends_game = self._would_end(Action(president, "execute", target=target))
            shoots_claimant = target == chancellor
            if ends_game:
                # Claims are closed once the game is over: make them before the shot.
                self._claims(i, log, president, chancellor)
            elif shoots_claimant:
                # The site refuses claims from dead players: the chancellor claimed first.
                self._claims(i, log, president, chancellor, only=target)
            self._act(i, president, "execute", target=target)
            if shoots_claimant and not ends_game:
                self._claims(i, log, president, chancellor, skip=target)
            elif not ends_game:
                self._claims(i, log, president, chancellor)

    # ---------------------------------------------------------------- the engine
    def _act(self, i: int, seat: int, kind: str, **fields: Any) -> list[Event]:
        """Apply one action; return the events it caused. A refusal is the summary's fault."""
        game = self.game
        data = {"seat": seat, "type": kind, **fields}
        try:
            action = Action.from_json(data)
        except InvalidAction as exc:
            raise BadSummary(f"logs[{i}]: {exc.message}") from None
        start = len(game.events)
        try:
            game.apply(action)
        except IllegalAction as exc:
            raise BadSummary(
                f"logs[{i}]: the engine refuses {kind} by seat {seat}: {exc.message}"
            ) from None
        except InvalidRecord as exc:  # a fixed reshuffle with the wrong policies
            raise BadSummary(f"logs[{i}]: {exc.message}") from None
        self.actions.append(data)
        events = game.events[start:]
        if len(game.reshuffles) > self.known:
            self._new_pile(i, events)
        return events

    def _assassinate(self, i: int, log: dict[str, Any]) -> None:
        """Avalon SH: a liberal win opened Hitler's assassination; the site logs his choice on
        this entry, the game's last (``assassination``: the seat he named)."""
        if log.get("assassination") is None:
            raise self._cut(i, "Hitler's assassination")
        if i != self.last:
            raise BadSummary(f"logs[{i}]: the assassination ends the game but the log goes on")
        hitler = self.game.to_act()[0]
        target = _seat(log["assassination"], self.setup.n, f"logs[{i}].assassination")
        self._act(i, hitler, "assassinate", target=target)

    def _would_end(self, action: Action) -> bool:
        """Whether ``action`` ends the game, asked of a copy of it."""
        probe = self.game.clone()
        try:
            probe.apply(action)
        except GameError:
            return False  # the real ``_act`` reports it
        return probe.finished

    def _engine_pile(self) -> list[str]:
        """The engine's draw pile, top first: what is left of the latest pile it drew from."""
        game = self.game
        latest = game.reshuffles[-1] if game.reshuffles else game.initial_deck
        return [p.value for p in latest[len(latest) - game.draw_pile :]]

    def _new_pile(self, i: int, events: list[Event]) -> None:
        """The engine just reshuffled with no fixing: read the new pile off the site's log.

        The site shows the new order at its next entry, less what was drawn from it before (a
        chaos policy right after a consented veto, in this entry); when the log ends first, only
        what was seen of it (that chaos policy, or a peek) is known.
        """
        game, k = self.game, self.known
        if len(game.reshuffles) > k + 1:
            raise BadSummary(f"logs[{i}]: two reshuffles in a row cannot be read off the log")
        pool = Counter(p.value for p in game.reshuffles[k])
        at = max(j for j, e in enumerate(events) if e.type == "reshuffled")
        after = events[at + 1 :]
        drawn = [self._site_chaos(i, self.log)] if _first(after, "chaos") else []
        if i < self.last:
            nxt = self.setup.logs[i + 1]
            pile = drawn + _pile(i + 1, nxt.get("deckState") if isinstance(nxt, dict) else None)
            if Counter(pile) != pool:
                raise BadSummary(
                    f"logs[{i + 1}].deckState: the reshuffled pile does not hold the draw and "
                    "discard piles"
                )
            raise _Reshuffled(pile, partial=False)
        peeked = self._site_peek(i, self.log) if _first(after, "peek") else None
        known = drawn or peeked or []
        if not known:
            self.known += 1  # never shown: left to the replay's shuffle
            return
        rest = pool - Counter(known)
        if Counter(known) - pool:
            raise BadSummary(f"logs[{i}]: {known} cannot come from the reshuffled pile")
        raise _Reshuffled(
            known + [LIBERAL] * rest[LIBERAL] + [FASCIST] * rest[FASCIST], partial=True
        )

    def _site_chaos(self, i: int, log: dict[str, Any]) -> str:
        """C1-C4: the site logs the top-decked policy as the entry's enactedPolicy."""
        policy = log.get("enactedPolicy")
        if policy not in POLICIES:
            if i == self.last:
                raise _Stop()
            raise BadSummary(f"logs[{i}]: a third failed government without a top-decked policy")
        return str(policy)

    def _check_chaos(self, i: int, log: dict[str, Any], events: list[Event]) -> None:
        chaos = _first(events, "chaos")
        if chaos is None:
            return
        self.last_chaos = i == self.last
        policy = self._site_chaos(i, log)
        if chaos.data["policy"] != policy:
            raise BadSummary(
                f"logs[{i}]: the top-decked {policy} is not the top of the pile "
                f"({chaos.data['policy']})"
            )

    def _site_peek(self, i: int, log: dict[str, Any]) -> list[str] | None:
        """The three policies the site shows for a peek; None when it did not record them."""
        seen = log.get("policyPeek")
        if not isinstance(seen, list) or len(seen) != 3:
            return None  # not recorded (an abandoned game); the engine peeks by itself anyway
        if not all(p in POLICIES for p in seen):
            raise BadSummary(f"logs[{i}].policyPeek: expected three liberal/fascist policies")
        return [str(p) for p in seen]

    # ---------------------------------------------------------------- claims
    def _claims(
        self,
        i: int,
        log: dict[str, Any],
        president: int,
        chancellor: int,
        *,
        peek: bool = False,
        investigation: int | None = None,
        only: int | None = None,
        skip: int | None = None,
    ) -> None:
        """Apply the site's claims of this entry that belong here.

        The site files a claim under the latest entry where the claimant held that office, so a
        claim can sit on an entry where no session took place (a president claiming about an
        earlier government after a failed nomination): such claims have no place and are dropped.
        """

        def wanted(seat: int) -> bool:
            return (only is None or seat == only) and seat != skip

        for key, seat, subject, size in (
            ("presidentClaim", president, "president_hand", 3),
            ("chancellorClaim", chancellor, "chancellor_hand", 2),
        ):
            pols = _policy_list(log.get(key), size)
            if pols is not None and wanted(seat):
                self._act(i, seat, "claim", subject=subject, policies=pols)
            elif log.get(key) and pols is None:
                self.notes.append(f"logs[{i}]: unreadable {key} {log.get(key)!r}")
        if only is not None:
            return
        if peek:
            pols = _policy_list(log.get("policyPeekClaim"), 3)
            if pols is not None:
                self._act(i, president, "claim", subject="peek", policies=pols)
        if investigation is not None:
            party = _party(log.get("investigationClaim"))
            if party is not None:
                self._act(
                    i,
                    president,
                    "claim",
                    subject="investigation",
                    target=investigation,
                    party=party,
                )
            elif log.get("investigationClaim") is not None:
                self.notes.append(
                    f"logs[{i}]: unreadable investigationClaim {log.get('investigationClaim')!r}"
                )

    def _drop_claims(self, i: int, log: dict[str, Any], why: str) -> None:
        for key in ("presidentClaim", "chancellorClaim", "policyPeekClaim", "investigationClaim"):
            if log.get(key):
                self.notes.append(f"logs[{i}].{key} dropped: {why}")
