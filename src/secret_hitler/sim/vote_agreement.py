"""``secret-hitler evaluate votes``: at each vote a living person cast in the people's games, what
the bot for that seat votes from exactly that person's view; agreement overall, by role and by
player count, nominations and claims beside (``VoteReport``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..bots.base import Agent, make_agent
from ..engine import Action, View, claims
from ..engine import actions as A
from ..engine.seat import SeatState
from ..engine.types import Phase
from .people_games import check_bot, replay, selected


@dataclass(slots=True)
class Tally:
    agree: int = 0
    total: int = 0
    human_ja: int = 0

    def add(self, same: bool, ja: bool) -> None:
        self.agree += same
        self.total += 1
        self.human_ja += ja

    @property
    def rate(self) -> float:
        return self.agree / self.total if self.total else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "agree": self.agree,
            "votes": self.total,
            "agreement": round(self.rate, 4),
            "human_ja_rate": round(self.human_ja / self.total, 4) if self.total else 0.0,
        }


@dataclass(slots=True)
class Choices:
    """Nominations: how often the bot names the person's nominee, next to a uniform pick."""

    agree: int = 0
    total: int = 0
    uniform: float = 0.0

    def add(self, same: bool, options: int) -> None:
        self.agree += same
        self.total += 1
        self.uniform += 1.0 / max(options, 1)

    def to_json(self) -> dict[str, Any]:
        k = self.total
        return {
            "nominations": k,
            "agreement": round(self.agree / k, 4) if k else 0.0,
            "uniform_agreement": round(self.uniform / k, 4) if k else 0.0,
        }


@dataclass(slots=True)
class ClaimTally:
    """Claims by one role: the share of false ones, people's next to the bot's at the same
    moments (the bot may decline to claim; its share is over the claims it made)."""

    people: int = 0
    people_false: int = 0
    bot: int = 0
    bot_false: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "people_claims": self.people,
            "people_false_share": round(self.people_false / self.people, 4) if self.people else 0.0,
            "bot_claims": self.bot,
            "bot_false_share": round(self.bot_false / self.bot, 4) if self.bot else 0.0,
        }


@dataclass(slots=True)
class VoteReport:
    bot: str
    games: int = 0
    overall: Tally = field(default_factory=Tally)
    by_role: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    by_players: dict[int, Tally] = field(default_factory=lambda: defaultdict(Tally))
    by_tracker: dict[int, Tally] = field(default_factory=lambda: defaultdict(Tally))
    by_zone: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    nominations: dict[str, Choices] = field(default_factory=lambda: defaultdict(Choices))
    claims: dict[str, ClaimTally] = field(default_factory=lambda: defaultdict(ClaimTally))
    always_ja: int = 0  # agreement of a bot that always votes ja: the floor to beat
    errors: int = 0  # games that failed to replay (skipped)
    half: str = "all"
    # With ``decided_by``: the votes by who settled them (a model seat: "model" or
    # "fallback"), overall and by role.
    by_decider: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    by_decider_role: dict[tuple[str, str], Tally] = field(
        default_factory=lambda: defaultdict(Tally)
    )

    def to_json(self) -> dict[str, Any]:
        out = {
            "bot": self.bot,
            "games": self.games,
            "overall": self.overall.to_json(),
            "always_ja_agreement": round(self.always_ja / self.overall.total, 4)
            if self.overall.total
            else 0.0,
            "by_role": {k: v.to_json() for k, v in sorted(self.by_role.items())},
            "by_players": {str(k): v.to_json() for k, v in sorted(self.by_players.items())},
            "by_tracker": {str(k): v.to_json() for k, v in sorted(self.by_tracker.items())},
            "by_zone": {k: v.to_json() for k, v in sorted(self.by_zone.items())},
            "nominations_by_role": {k: v.to_json() for k, v in sorted(self.nominations.items())},
            "claims_by_role": {k: v.to_json() for k, v in sorted(self.claims.items())},
            "half": self.half,
            "skipped_games": self.errors,
        }
        if self.by_decider:
            out["by_decider"] = {
                who: {
                    "overall": tally.to_json(),
                    "by_role": {
                        role: t.to_json()
                        for (w, role), t in sorted(self.by_decider_role.items())
                        if w == who
                    },
                }
                for who, tally in sorted(self.by_decider.items())
            }
        return out


def evaluate_votes(
    records: Iterable[dict[str, Any]],
    bot: str,
    seed: int = 0,
    *,
    half: str = "all",
    players: int | None = None,
    decided_by: Callable[[Agent], str] | None = None,
) -> VoteReport:
    """Ask ``bot`` for every recorded vote, nomination and claim and compare with the person:
    vote agreement (by role, player count, tracker and zone), agreement on the nominee, and the
    share of false claims by role (people's and the bot's at the same moments). With
    ``decided_by`` (asked of the agent right after each vote: who settled it, e.g. a model
    seat's "model" or "fallback"), the votes are also tallied by it (``by_decider``)."""
    check_bot(bot)
    report = VoteReport(bot, half=half)
    for gi, record in selected(records, half, players):
        try:
            _votes_of_game(record, bot, seed + gi, report, decided_by)
        except Exception:  # a game the engine refuses: count it, keep going
            report.errors += 1
            continue
        report.games += 1
    return report


def claim_is_true(view: View, claim: Action) -> bool:
    """Whether ``claim`` states what the claiming seat saw: the engine's ``claims.is_true``
    on what the seat of ``view`` knows (its log folded, ``engine.seat.SeatState``)."""
    return claims.is_true(SeatState.of_seat(view.seat, view.events), claim)


def _votes_of_game(
    record: dict[str, Any],
    bot: str,
    seed: int,
    report: VoteReport,
    decided_by: Callable[[Agent], str] | None = None,
) -> None:
    agents: dict[int, Agent] = {}
    rows: list[tuple[str, int, int, bool, bool, bool, str | None]] = []
    nominations: list[tuple[str, bool, int]] = []
    claims: list[tuple[str, bool, bool | None]] = []  # role, person's claim true, bot's
    for game, action in replay(record):
        seat = action.seat
        kind = action.type
        if kind not in (A.VOTE, A.NOMINATE, A.CLAIM):
            continue
        agent = agents.get(seat)
        if agent is None:
            agent = agents[seat] = make_agent(bot, seat, seed * 16 + seat)
        role = game.roles[seat].value
        view = game.view(seat)
        if kind == A.VOTE and game.phase is Phase.VOTE:
            legal = [a for a in game.legal_actions(seat) if a.type == A.VOTE]
            choice = agent.act(view, legal)
            human = bool(action.ja)
            zone = view.hitler_zone_active
            who = None if decided_by is None else decided_by(agent)
            rows.append(
                (role, game.n, view.election_tracker, zone, bool(choice.ja) == human, human, who)
            )
        elif kind == A.NOMINATE and game.phase is Phase.NOMINATE:
            legal = [a for a in game.legal_actions(seat) if a.type == A.NOMINATE]
            choice = agent.act(view, legal)
            nominations.append((role, choice.target == action.target, len(legal)))
        elif kind == A.CLAIM:
            options = [
                a
                for a in game.legal_actions(seat)
                if a.type == A.CLAIM and a.subject == action.subject
            ]
            made = agent.claims(view, options) if options else []
            mine = claim_is_true(view, made[0]) if made else None
            claims.append((role, claim_is_true(view, action), mine))
    for role, n, tracker, zone, same, human, who in rows:  # once the whole game replayed
        if who is not None:
            report.by_decider[who].add(same, human)
            report.by_decider_role[who, role].add(same, human)
        report.overall.add(same, human)
        report.by_role[role].add(same, human)
        report.by_players[n].add(same, human)
        report.by_tracker[tracker].add(same, human)
        report.by_zone["hitler_zone" if zone else "before_zone"].add(same, human)
        report.always_ja += human
    for role, same, count in nominations:
        report.nominations[role].add(same, count)
    for role, true, mine in claims:
        tally = report.claims[role]
        tally.people += 1
        tally.people_false += not true
        if mine is not None:
            tally.bot += 1
            tally.bot_false += not mine
