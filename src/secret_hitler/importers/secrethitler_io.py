"""Convert secrethitler.io game summaries into game records (RECORD-FORMAT.md).

The site's summary (``GET /gameSummary?id=...``) logs one entry per nomination with the whole
draw pile at the start of that turn, the hands, the votes, the powers and the public claims. That
is enough to rebuild every decision of the game and every chance event: the initial deck is the
first entry's pile, and each reshuffle is read off the pile the site shows after it. The result is
a record that replays under the ``official`` preset (custom-game settings carried over), so the
engine can check the site's games move by move.

Everything here is pure: ``convert_game`` takes the decoded summary and returns the record dict;
``iter_records`` does the same over the lines of a JSONL file without opening anything itself.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from secret_hitler.engine.errors import InvalidSettings
from secret_hitler.engine.settings import FASCISTS_BY_COUNT, Rules, official_board

SITE = "secrethitler.io"
LIBERAL = "liberal"
FASCIST = "fascist"
POLICIES = (LIBERAL, FASCIST)

# Why a game is skipped (``Unsupported.reason``): rules the engine cannot express.
AVALON = "avalon"
MONARCHIST = "monarchist"
NO_TOP_DECK = "no_top_deck"
UNKNOWN_POWER = "unknown_power"
RULES_REFUSED = "rules_refused"
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

FIVE_LIBERAL = "five_liberal_policies"
SIX_FASCIST = "six_fascist_policies"
HITLER_ELECTED = "hitler_elected"
HITLER_EXECUTED = "hitler_executed"


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

    Raises ``Unsupported`` for games whose rules the engine cannot express (Avalon, no
    top-decking) and ``BadSummary`` for summaries that are malformed or contradict themselves.
    An unfinished game converts too: its record stops where the log stops and has no ``result``.
    """
    return _Conversion(summary).run()[0]


def convert_game_with_notes(summary: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Like ``convert_game``, plus notes on what could not be carried over (dropped claims)."""
    return _Conversion(summary).run()


def iter_records(lines: Iterable[str]) -> Iterator[Converted]:
    """Convert each non-blank JSONL line; a line that is not a JSON object raises ``BadSummary``.

    Games that cannot be converted are yielded with ``record=None`` and the reason, so a caller
    can count them; only an unreadable line stops the iteration (the file itself is broken).
    """
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            summary = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BadSummary(f"line {number}: not valid JSON ({exc.msg})") from None
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


@dataclass(slots=True)
class _Pending:
    """A reshuffle our engine performs whose new order the site shows only later.

    ``pool`` is what the new pile must contain; ``prefix`` the policies drawn from it (by chaos)
    before the site's next pile snapshot; ``peek`` the top three seen by a Policy Peek.
    """

    pool: Counter[str]
    prefix: list[str] = field(default_factory=list)
    peek: list[str] | None = None


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


class _Conversion:
    """Follows the game turn by turn, the way the engine will, to emit actions and reshuffles."""

    def __init__(self, summary: dict[str, Any]) -> None:
        if not isinstance(summary, dict):
            raise BadSummary("a game summary must be a JSON object")
        self.summary = summary
        self.game_id = str(summary.get("id", ""))
        self.notes: list[str] = []
        self.actions: list[dict[str, Any]] = []
        self.reshuffles: list[list[str]] = []
        self.winner: str | None = None
        self.reason: str | None = None

    # ---------------------------------------------------------------- setup
    def run(self) -> tuple[dict[str, Any], list[str]]:
        summary = self.summary
        setting = summary.get("gameSetting") or {}
        if not isinstance(setting, dict):
            raise BadSummary("gameSetting: expected an object")
        if setting.get("avalonSH"):
            raise Unsupported(AVALON, "Avalon roles (Merlin, Percival) are not part of these rules")
        if setting.get("monarchistSH"):
            raise Unsupported(MONARCHIST, "the Monarchist role is not part of these rules")
        no_top = setting.get("noTopdecking") or 0
        if no_top:
            raise Unsupported(
                NO_TOP_DECK, f"noTopdecking={no_top}: chaos does not enact the top policy"
            )

        players = summary.get("players")
        if not isinstance(players, list) or not players:
            raise BadSummary("players: expected a list of {seat, role}")
        n = len(players)
        roles: list[str | None] = [None] * n
        for p in players:
            seat = _seat(p.get("seat") if isinstance(p, dict) else None, n, "players[].seat")
            role = p.get("role")
            if role not in ("liberal", "fascist", "hitler") or roles[seat] is not None:
                raise BadSummary(f"players: seat {seat} has a bad or repeated role {role!r}")
            roles[seat] = role
        self.n = n
        self.roles: list[str] = [r for r in roles if r is not None]

        logs = summary.get("logs")
        if not isinstance(logs, list) or not logs or not isinstance(logs[0], dict):
            raise BadSummary("logs: expected at least one log entry")
        self.logs: list[dict[str, Any]] = logs
        first_pile = logs[0].get("deckState")
        if not isinstance(first_pile, list) or not all(p in POLICIES for p in first_pile):
            raise BadSummary("logs[0].deckState: expected the draw pile as liberal/fascist")

        rules, board, hitler_zone, start = self._rules(summary, n, first_pile)
        self.board = board
        self.hitler_zone = hitler_zone
        self.liberal, self.fascist = start
        self.tracker = 0
        self.alive = [True] * n
        self.investigated = [False] * n
        self.draw: list[str] | None = [str(p) for p in first_pile]
        self.discards: Counter[str] = Counter()
        self.pending: _Pending | None = None

        last = len(logs) - 1
        for i, log in enumerate(logs):
            if self.winner is not None:
                raise BadSummary(f"logs[{i}]: the game was already over ({self.reason})")
            if not isinstance(log, dict):
                raise BadSummary(f"logs[{i}]: expected an object")
            try:
                self._turn(i, log, last)
            except _Stop:
                break
        self._finish_pending()

        record: dict[str, Any] = {
            "format": "secret-hitler-record",
            "version": 1,
            "rules": rules,
            "players": n,
            "roles": list(self.roles),
            "first_president": _seat(logs[0].get("presidentId"), n, "logs[0].presidentId"),
            "deck": [str(p) for p in first_pile],
            "reshuffles": self.reshuffles,
            "actions": self.actions,
        }
        winning = summary.get("winningTeam")
        if winning is not None:
            if winning not in ("liberal", "fascist"):
                raise BadSummary(f"winningTeam: expected liberal, fascist or null, got {winning!r}")
            if self.winner is None:
                raise BadSummary(f"winningTeam is {winning} but the logs end with no winner")
            if self.winner != winning:
                raise BadSummary(
                    f"winningTeam is {winning} but the logs end with a {self.winner} win ({self.reason})"
                )
            record["result"] = {"winner": self.winner, "reason": self.reason}
        elif self.winner is not None:
            self.notes.append(f"no winningTeam although the logs end with a {self.winner} win")
        record["source"] = {"site": SITE, "id": self.game_id}
        if summary.get("date"):
            record["source"]["date"] = summary["date"]
        return record, self.notes

    def _rules(
        self, summary: dict[str, Any], n: int, first_pile: list[Any]
    ) -> tuple[str | dict[str, Any], list[str | None], int, tuple[int, int]]:
        """The record's ``rules`` plus the board, Hitler zone and start track to simulate with.

        The deck counts always come from the first pile the site shows (the policies not on the
        track), so rebalanced games (one fascist policy fewer) need no table of their own.
        """
        custom = summary.get("customGameSettings") or {}
        setting = summary.get("gameSetting") or {}
        overrides: dict[str, Any] = {}
        board: list[str | None] = [None if p is None else p.value for p in official_board(n)]
        hitler_zone = 3
        start = (0, 0)
        deck = (first_pile.count(LIBERAL), first_pile.count(FASCIST))
        fascists = self.roles.count("fascist")
        if isinstance(custom, dict) and custom.get("enabled"):
            site_powers = custom.get("powers")
            if not isinstance(site_powers, list) or len(site_powers) != 5:
                raise BadSummary("customGameSettings.powers: expected 5 slots")
            unknown = [p for p in site_powers if p not in SITE_POWERS]
            if unknown:
                raise Unsupported(UNKNOWN_POWER, f"custom power {unknown[0]!r} has no equivalent")
            board = [SITE_POWERS[p] for p in site_powers]
            hitler_zone = _count(custom.get("hitlerZone", 3), "hitlerZone")
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
            overrides = {
                "powers": board,
                "hitler_zone": hitler_zone,
                "veto_zone": _count(custom.get("vetoZone", 5), "vetoZone"),
                "fascists": fascists,
                "hitler_knows_fascists": bool(custom.get("hitKnowsFas")),
                "deck": {"liberal": deck[0], "fascist": deck[1]},
                "start_track": {"liberal": start[0], "fascist": start[1]},
            }
        else:
            # rebalance6p: the fascists start with one policy enacted (taken from the deck).
            # rebalance7p / rebalance9p: one fascist policy fewer in the deck (seen in the pile).
            if setting.get("rebalance6p") and n == 6:
                start = (0, 1)
                overrides["start_track"] = {"liberal": 0, "fascist": 1}
            if deck != (6, 11):
                overrides["deck"] = {"liberal": deck[0], "fascist": deck[1]}
            if fascists != FASCISTS_BY_COUNT.get(n):
                overrides["fascists"] = fascists
        rules: str | dict[str, Any] = (
            {"preset": "official", **overrides} if overrides else "official"
        )
        try:
            Rules.from_json(rules).validate(n)
        except InvalidSettings as exc:
            raise Unsupported(RULES_REFUSED, exc.message) from None
        return rules, board, hitler_zone, start

    # ---------------------------------------------------------------- one log entry
    def _turn(self, i: int, log: dict[str, Any], last: int) -> None:
        n = self.n

        def cut(what: str) -> _Stop:
            """The log stops here: fine for the last entry of an abandoned game only."""
            if i != last:
                raise BadSummary(f"logs[{i}]: {what} is missing but the game goes on")
            return _Stop()

        self._sync(i, log.get("deckState"))
        president = _seat(log.get("presidentId"), n, f"logs[{i}].presidentId")
        if log.get("chancellorId") is None:
            raise cut("the nomination")
        chancellor = _seat(log.get("chancellorId"), n, f"logs[{i}].chancellorId")
        self._emit(president, "nominate", target=chancellor)

        votes = log.get("votes")
        if not votes:
            raise cut("the vote")
        if not isinstance(votes, list) or len(votes) != n:
            raise BadSummary(f"logs[{i}].votes: expected one vote per seat ({n})")
        ja = 0
        for seat in range(n):
            if not self.alive[seat]:
                continue  # the site keeps stale values for dead seats
            vote = votes[seat]
            if not isinstance(vote, bool):
                raise BadSummary(f"logs[{i}].votes[{seat}]: expected true/false, got {vote!r}")
            self._emit(seat, "vote", ja=vote)
            ja += vote
        if 2 * ja <= sum(self.alive):
            self._drop_claims(i, log, "no legislative session in this entry")
            self.tracker += 1
            if self.tracker >= 3:
                self._chaos(i, log, last)
            return

        if self.fascist >= self.hitler_zone and self.roles[chancellor] == "hitler":
            self._drop_claims(i, log, "no legislative session in this entry")
            self._win(FASCIST, HITLER_ELECTED)
            return

        hand = log.get("presidentHand")
        if not hand:
            raise cut("the president's hand")
        drawn = self._take(i, 3)
        if _multiset(hand) != _multiset(drawn):
            raise BadSummary(f"logs[{i}].presidentHand {hand} is not the top of the pile {drawn}")
        passed = log.get("chancellorHand")
        if not passed:
            raise cut("the chancellor's hand")
        discarded = _multiset(hand) - _multiset(passed)
        if len(passed) != 2 or sum(discarded.values()) != 1:
            raise BadSummary(f"logs[{i}]: chancellorHand {passed} is not 2 of presidentHand {hand}")
        discard = next(iter(discarded))
        self._emit(president, "discard", policy=discard)
        self.discards[discard] += 1

        if log.get("chancellorVeto"):
            self._emit(chancellor, "veto")
            accept = log.get("presidentVeto")
            if accept is None:
                raise cut("the president's answer to the veto")
            self._emit(president, "veto_response", accept=bool(accept))
            if accept:
                self.discards.update(passed)
                self._deck_check(i)  # A7: before a chaos policy is drawn
                self.tracker += 1
                if self.tracker >= 3:
                    self._chaos(i, log, last)
                if self.winner is None:
                    self._claims(i, log, president, chancellor, session=True)
                else:
                    self._drop_claims(i, log, "the game ended with the top-decked policy")
                return

        enacted = log.get("enactedPolicy")
        if enacted is None:
            raise cut("the enacted policy")
        if enacted not in passed:
            raise BadSummary(
                f"logs[{i}]: enactedPolicy {enacted!r} is not in chancellorHand {passed}"
            )
        self._emit(chancellor, "enact", policy=enacted)
        rest = list(passed)
        rest.remove(enacted)
        self.discards.update(rest)
        if self._enact(enacted):
            self._drop_claims(i, log, "the game ended with the enactment")
            return
        self._deck_check(i)
        power = (
            self.board[self.fascist - 1] if enacted == FASCIST and 1 <= self.fascist <= 5 else None
        )
        self._power(i, log, last, power, president, chancellor)

    def _power(
        self,
        i: int,
        log: dict[str, Any],
        last: int,
        power: str | None,
        president: int,
        chancellor: int,
    ) -> None:
        """The power of the enacted slot, with the claims placed where the engine allows them."""
        site_peek = log.get("policyPeek") or []
        if site_peek and power != "peek":
            raise BadSummary(
                f"logs[{i}]: a policy peek is logged but slot {self.fascist} has {power}"
            )
        if power is None:
            self._claims(i, log, president, chancellor, session=True)
            return
        if power == "peek":
            self._peek(i, site_peek)
            self._claims(i, log, president, chancellor, session=True, peek=True)
            return
        field_name = {
            "investigate": "investigationId",
            "special_election": "specialElection",
            "execute": "execution",
        }[power]
        targets = [s for s in range(self.n) if self.alive[s] and s != president]
        if power == "investigate":
            targets = [s for s in targets if not self.investigated[s]]
        if not targets:  # A11: no legal target, the power is skipped
            self._claims(i, log, president, chancellor, session=True)
            return
        raw = log.get(field_name)
        if raw is None:
            if i == last:
                # Abandoned while the power was pending: the hand claims are already legal.
                self._claims(i, log, president, chancellor, session=True)
                raise _Stop()
            raise BadSummary(f"logs[{i}].{field_name}: the {power} power was not used")
        target = _seat(raw, self.n, f"logs[{i}].{field_name}")
        if power == "investigate":
            self._emit(president, "investigate", target=target)
            self.investigated[target] = True
            self._claims(i, log, president, chancellor, session=True, investigation=target)
        elif power == "special_election":
            self._emit(president, "special_election", target=target)
            self._claims(i, log, president, chancellor, session=True)
        else:
            kills_claimant = target in (president, chancellor)
            ends_game = self.roles[target] == "hitler"
            if ends_game:
                # Claims are closed once the game is over: make them before the shot.
                self._claims(i, log, president, chancellor, session=True)
            elif kills_claimant:
                # The site refuses claims from dead players: the chancellor claimed first.
                self._claims(i, log, president, chancellor, session=True, only=target)
            self._emit(president, "execute", target=target)
            self.alive[target] = False
            if ends_game:
                self._win(LIBERAL, HITLER_EXECUTED)
            elif kills_claimant:
                self._claims(i, log, president, chancellor, session=True, skip=target)
            else:
                self._claims(i, log, president, chancellor, session=True)

    # ---------------------------------------------------------------- claims
    def _claims(
        self,
        i: int,
        log: dict[str, Any],
        president: int,
        chancellor: int,
        *,
        session: bool,
        peek: bool = False,
        investigation: int | None = None,
        only: int | None = None,
        skip: int | None = None,
    ) -> None:
        """Emit the site's claims of this entry that the engine can accept now.

        The site files a claim under the latest entry where the claimant held that office, so a
        claim can sit on an entry where no session took place (a president claiming about an
        earlier government after a failed nomination): such claims have no place and are dropped.
        """

        def wanted(seat: int) -> bool:
            return (only is None or seat == only) and seat != skip

        if session:
            pols = _policy_list(log.get("presidentClaim"), 3)
            if pols is not None and wanted(president):
                self._emit(president, "claim", subject="president_hand", policies=pols)
            elif log.get("presidentClaim") and pols is None:
                self.notes.append(
                    f"logs[{i}]: unreadable presidentClaim {log.get('presidentClaim')!r}"
                )
            pols = _policy_list(log.get("chancellorClaim"), 2)
            if pols is not None and wanted(chancellor):
                self._emit(chancellor, "claim", subject="chancellor_hand", policies=pols)
            elif log.get("chancellorClaim") and pols is None:
                self.notes.append(
                    f"logs[{i}]: unreadable chancellorClaim {log.get('chancellorClaim')!r}"
                )
        if only is not None:
            return
        if peek:
            pols = _policy_list(log.get("policyPeekClaim"), 3)
            if pols is not None:
                self._emit(president, "claim", subject="peek", policies=pols)
        if investigation is not None:
            party = _party(log.get("investigationClaim"))
            if party is not None:
                self._emit(
                    president, "claim", subject="investigation", target=investigation, party=party
                )
            elif log.get("investigationClaim") is not None:
                self.notes.append(
                    f"logs[{i}]: unreadable investigationClaim {log.get('investigationClaim')!r}"
                )

    def _drop_claims(self, i: int, log: dict[str, Any], why: str) -> None:
        for key in ("presidentClaim", "chancellorClaim", "policyPeekClaim", "investigationClaim"):
            if log.get(key):
                self.notes.append(f"logs[{i}].{key} dropped: {why}")

    # ---------------------------------------------------------------- policies and the deck
    def _sync(self, i: int, pile: Any) -> None:
        """Compare the site's pile at the start of a turn with ours; resolve a pending reshuffle."""
        if not isinstance(pile, list) or not all(p in POLICIES for p in pile):
            raise BadSummary(f"logs[{i}].deckState: expected the draw pile as liberal/fascist")
        pending = self.pending
        if pending is not None:
            new = pending.prefix + [str(p) for p in pile]
            if _multiset(new) != pending.pool:
                raise BadSummary(
                    f"logs[{i}].deckState: the reshuffled pile does not hold the draw and discard piles"
                )
            if pending.peek is not None and new[:3] != pending.peek:
                raise BadSummary(
                    f"logs[{i}]: the policy peek {pending.peek} is not the top of the new pile"
                )
            self.reshuffles.append(new)
            self.draw = [str(p) for p in pile]
            self.pending = None
        elif pile != self.draw:
            raise BadSummary(
                f"logs[{i}].deckState: the draw pile changed between turns without a reshuffle "
                "at the end of a session (D1)"
            )

    def _finish_pending(self) -> None:
        """A reshuffle the log never shows in full (the game ended right after it).

        What was seen of it (a chaos policy, a peek) must be on top so the replay draws the same;
        the unseen rest cannot matter any more and is written in a fixed order.
        """
        pending = self.pending
        if pending is None:
            return
        known = pending.prefix or pending.peek or []
        if not known:
            return  # nothing of the new pile was ever seen: leave it to the replay's shuffle
        rest = pending.pool - _multiset(known)
        self.reshuffles.append(list(known) + [LIBERAL] * rest[LIBERAL] + [FASCIST] * rest[FASCIST])
        self.notes.append(
            "the last reshuffle is only partly shown by the site: its unseen rest is in a fixed order"
        )
        self.pending = None

    def _take(self, i: int, k: int) -> list[str]:
        if self.draw is None or len(self.draw) < k:
            raise BadSummary(f"logs[{i}]: the draw pile has fewer than {k} policies")
        taken, self.draw = self.draw[:k], self.draw[k:]
        return taken

    def _deck_check(self, i: int) -> None:
        """D1: with fewer than 3 policies left, our engine reshuffles draw + discard piles.

        The new order is the one the site shows at its next turn (it reshuffles before the next
        draw or peek: same moment, same policies), so it is filled in by ``_sync``.
        """
        if self.pending is not None:
            left = sum(self.pending.pool.values()) - len(self.pending.prefix)
            if left < 3:
                raise BadSummary(f"logs[{i}]: two reshuffles in a row cannot be read off the log")
            return
        assert self.draw is not None
        if len(self.draw) >= 3:
            return
        self.pending = _Pending(pool=_multiset(self.draw) + self.discards)
        self.draw = None
        self.discards = Counter()

    def _peek(self, i: int, site_peek: list[Any]) -> None:
        if len(site_peek) != 3:
            return  # not recorded (an abandoned game); the engine peeks by itself anyway
        seen = [str(p) for p in site_peek]
        if self.pending is not None:
            self.pending.peek = seen
        elif self.draw is not None and self.draw[:3] != seen:
            raise BadSummary(
                f"logs[{i}].policyPeek {seen} is not the top of the pile {self.draw[:3]}"
            )

    def _chaos(self, i: int, log: dict[str, Any], last: int) -> None:
        """C1-C4: the top policy is enacted; the site logs it as this entry's enactedPolicy."""
        policy = log.get("enactedPolicy")
        if policy not in POLICIES:
            if i == last:
                raise _Stop()
            raise BadSummary(f"logs[{i}]: a third failed government without a top-decked policy")
        if self.pending is not None:
            self.pending.prefix.append(str(policy))
        else:
            top = self._take(i, 1)[0]
            if top != policy:
                raise BadSummary(
                    f"logs[{i}]: the top-decked {policy} is not the top of the pile ({top})"
                )
        self.tracker = 0
        if not self._enact(str(policy)):
            self._deck_check(i)

    def _enact(self, policy: str) -> bool:
        """Put a policy on its track; True when that wins the game."""
        self.tracker = 0
        if policy == LIBERAL:
            self.liberal += 1
            if self.liberal >= 5:
                self._win(LIBERAL, FIVE_LIBERAL)
                return True
        else:
            self.fascist += 1
            if self.fascist >= 6:
                self._win(FASCIST, SIX_FASCIST)
                return True
        return False

    def _win(self, winner: str, reason: str) -> None:
        self.winner, self.reason = winner, reason

    def _emit(self, seat: int, kind: str, **fields: Any) -> None:
        self.actions.append({"seat": seat, "type": kind, **fields})
