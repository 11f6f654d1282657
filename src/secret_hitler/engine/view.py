"""Per-seat views: exactly what one seat may know, as an immutable value.

A view is built only from public state and from events addressed to that seat, so it is a pure
function of what the seat has observed: never the deck order, discards, other seats' roles
(beyond N1-N2), other seats' secret votes before the reveal, or the random state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .types import Phase, Role

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True, slots=True)
class View:
    seat: int | None  # None: a spectator
    players: int
    names: tuple[str, ...] | None
    rules: dict[str, Any]
    board: tuple[str | None, ...]
    hitler_zone: int
    veto_zone: int
    phase: str
    to_act: tuple[int, ...]
    round: int
    role: str | None
    party: str | None
    known_roles: tuple[str | None, ...]  # per seat: the role this seat knows, else None
    alive: tuple[bool, ...]
    candidate: int | None  # presidential candidate (or the president in office during a session)
    nominee: int | None
    president: int | None  # last elected government
    chancellor: int | None
    term_limited: tuple[int, ...]  # barred from the chancellorship at the coming nomination
    liberal_policies: int
    fascist_policies: int
    election_tracker: int
    draw_pile: int
    discard_pile: int
    voted: tuple[bool, ...]  # who has voted in the open election
    votes: tuple[bool | None, ...]  # the last revealed votes; during a vote only what this seat saw
    hand: tuple[str, ...]  # policies this seat holds right now
    veto_available: bool
    veto_proposed: bool
    power: str | None  # the power being used now
    investigated: tuple[bool, ...]
    not_hitler: tuple[int, ...]
    investigations: tuple[tuple[int, str], ...]  # (target, party) this seat learned
    winner: str | None
    reason: str | None
    events: tuple[dict[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in View.__slots__:
            value = getattr(self, name)
            if isinstance(value, tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            out[name] = value
        return out


_POWER_OF_PHASE = {
    Phase.INVESTIGATE: "investigate",
    Phase.SPECIAL_ELECTION: "special_election",
    Phase.EXECUTE: "execute",
}


def make_view(game: Game, seat: int | None) -> View:
    n = game.n
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
        raise ValueError(f"seat must be 0 to {n - 1} or None")
    events = tuple(e.to_json() for e in game.visible_events(seat))
    over = game.finished
    known: list[str | None] = [None] * n
    role = party = None
    if over:
        known = [r.value for r in game.roles]
    if seat is not None:
        own = game.roles[seat]
        role, party = own.value, own.party.value
        known[seat] = role
        if own is Role.FASCIST or (own is Role.HITLER and game.hitler_knows):
            for s, r in enumerate(game.roles):
                if r is not Role.LIBERAL:
                    known[s] = r.value
    if game.rules.reveal_executed_role:
        for e in events:
            if e["type"] == "executed":
                known[e["target"]] = e["role"]
    phase = game.phase
    voting = phase is Phase.VOTE
    public_votes = game.rules.voting == "public_sequential"
    if voting:
        if public_votes:
            votes = tuple(game.votes)
        else:
            votes = tuple(v if s == seat else None for s, v in enumerate(game.votes))
        voted = tuple(v is not None for v in game.votes)
    else:
        votes = tuple(game.last_votes) if game.last_votes is not None else (None,) * n
        voted = (False,) * n
    hand: tuple[str, ...] = ()
    if seat is not None and game.hand:
        if (phase is Phase.DISCARD and seat == game.president) or (
            phase in (Phase.ENACT, Phase.VETO_RESPONSE)
            and seat in (game.president, game.chancellor)
        ):
            hand = tuple(p.value for p in game.hand)
    in_session = phase in (Phase.DISCARD, Phase.ENACT, Phase.VETO_RESPONSE)
    investigations = tuple(
        (e["target"], e["party"]) for e in events if e["type"] == "investigation"
    )
    return View(
        seat=seat,
        players=n,
        names=game.names,
        rules=game.rules.describe(),
        board=tuple(None if p is None else p.value for p in game.board),
        hitler_zone=game.rules.hitler_zone,
        veto_zone=game.rules.veto_zone,
        phase=phase.value,
        to_act=tuple(game.to_act()),
        round=game.round,
        role=role,
        party=party,
        known_roles=tuple(known),
        alive=tuple(game.alive),
        candidate=game.candidate,
        nominee=game.nominee,
        president=game.president,
        chancellor=game.chancellor,
        term_limited=game.term_limited() if phase is Phase.NOMINATE else (),
        liberal_policies=game.liberal,
        fascist_policies=game.fascist,
        election_tracker=game.tracker,
        draw_pile=game.draw_pile,
        discard_pile=game.discard_pile,
        voted=voted,
        votes=votes,
        hand=hand,
        veto_available=in_session and game.veto_enabled and not game.veto_refused,
        veto_proposed=phase is Phase.VETO_RESPONSE,
        power=_POWER_OF_PHASE.get(phase),
        investigated=tuple(game.investigated),
        not_hitler=tuple(sorted(game.not_hitler)),
        investigations=investigations,
        winner=game.winner.value if game.winner else None,
        reason=game.reason.value if game.reason else None,
        events=events,
    )
