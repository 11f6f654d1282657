"""A from-scratch reference view, the test oracle for the engine's incremental observer.

It re-derives everything from the whole log and the game state at every call, in the most
direct way (roles from ``game.roles`` and the night rule, hands from ``game.hand``), so that a
mistake in the observer's incremental bookkeeping cannot hide in both. It is slow on purpose and
lives with the tests only.
"""

from __future__ import annotations

from typing import Any

from secret_hitler.engine import Game
from secret_hitler.engine.events import thaw
from secret_hitler.engine.types import Phase, Role

_POWER_OF_PHASE = {
    Phase.INVESTIGATE: "investigate",
    Phase.SPECIAL_ELECTION: "special_election",
    Phase.EXECUTE: "execute",
}


_PLAIN: dict[int, tuple[object, dict[str, Any]]] = {}


def _plain(event: Any) -> dict[str, Any]:
    """The event as plain JSON (memoised per event object: only a speed-up for long games)."""
    hit = _PLAIN.get(id(event))
    if hit is None or hit[0] is not event:
        if len(_PLAIN) > 100_000:
            _PLAIN.clear()
        hit = _PLAIN[id(event)] = (event, thaw(dict(type=event.type, **event.data)))
    return hit[1]


def _next_president(game: Game) -> int | None:
    """A10 from scratch: a special election's pick, else the first living seat left of the
    seat the rotation stands at."""
    if game.winner is not None:
        return None
    if game._special_next is not None:
        return game._special_next
    order = [(game._rotation + k) % game.n for k in range(1, game.n + 1)]
    return next(s for s in order if game.alive[s])


def reference_view(game: Game, seat: int | None) -> dict[str, Any]:
    """``game.view(seat).to_json()`` as the rules define it (RULES.md, docs/engine.md)."""
    n = game.n
    events = [
        _plain(e)
        for e in game.events
        if e.audience is None or (seat is not None and seat in e.audience)
    ]
    known: list[str | None] = [None] * n
    role = party = None
    if game.finished:
        known = [r.value for r in game.roles]
    if seat is not None:
        own = game.roles[seat]
        role, party = own.value, own.party.value
        known[seat] = role
        if own is Role.FASCIST or (own is Role.HITLER and game.rules.hitler_knows(n)):
            for s, r in enumerate(game.roles):
                if r is not Role.LIBERAL:
                    known[s] = r.value
    if game.rules.reveal_executed_role:
        for e in events:
            if e["type"] == "executed":
                known[e["target"]] = e["role"]
    phase = game.phase
    voting = phase is Phase.VOTE
    if voting:
        if game.rules.voting == "public_sequential":
            votes = list(game.votes)
        else:
            votes = [v if s == seat else None for s, v in enumerate(game.votes)]
        voted = [v is not None for v in game.votes]
        own_vote = None if seat is None else game.votes[seat]
    else:
        votes = list(game.last_votes) if game.last_votes is not None else [None] * n
        voted = [False] * n
        own_vote = None
    hand: list[str] = []
    if seat is not None and game.hand:
        if (phase is Phase.DISCARD and seat == game.president) or (
            phase in (Phase.ENACT, Phase.VETO_RESPONSE)
            and seat in (game.president, game.chancellor)
        ):
            hand = [p.value for p in game.hand]
    in_session = phase in (Phase.DISCARD, Phase.ENACT, Phase.VETO_RESPONSE)
    nominating = phase is Phase.NOMINATE
    eligible: list[int] = []
    limited: list[int] = []
    if nominating:
        limited = list(game.term_limited())
        c = game.candidate
        eligible = [s for s in range(n) if game.alive[s] and s != c and s not in limited]
        if not eligible:
            eligible = [s for s in range(n) if game.alive[s] and s != c]
    claims: list[str] = []
    if seat is not None:
        claims = sorted(
            {a.subject for a in game.legal_actions(seat) if a.type == "claim"},
            key=["president_hand", "chancellor_hand", "peek", "investigation"].index,
        )
    # Publicly not Hitler: E8 chancellors and the dead while the game goes on (an executed
    # Hitler ends it, P4), everyone but Hitler once roles are revealed (W2).
    if game.finished:
        proven = [s for s, r in enumerate(game.roles) if r is not Role.HITLER]
    else:
        proven = sorted(game.not_hitler | {s for s in range(n) if not game.alive[s]})
    pending = game.pending_power
    return {
        "seat": seat,
        "players": n,
        "names": None if game.names is None else list(game.names),
        "rules": thaw(game.rules.resolved(n)),
        "board": [None if p is None else p.value for p in game.board],
        "hitler_zone": game.rules.hitler_zone,
        "veto_zone": game.rules.veto_zone,
        "hitler_zone_active": game.fascist >= game.rules.hitler_zone,
        "phase": phase.value,
        "to_act": list(game.to_act()),
        "round": game.round,
        "role": role,
        "party": party,
        "known_roles": known,
        "alive": list(game.alive),
        "candidate": game.candidate,
        "nominee": game.nominee,
        "president": game.president,
        "chancellor": game.chancellor,
        "term_limited": limited,
        "eligible": eligible,
        "liberal_policies": game.liberal,
        "fascist_policies": game.fascist,
        "liberal_to_win": 5 - game.liberal,
        "fascist_to_win": 6 - game.fascist,
        "election_tracker": game.tracker,
        "chaos_at": 3,
        "draw_pile": game.draw_pile,
        "discard_pile": game.discard_pile,
        "voted": voted,
        "votes": votes,
        "own_vote": own_vote,
        "hand": hand,
        "veto_available": in_session and game.veto_enabled and not game.veto_refused,
        "veto_refused": in_session and game.veto_refused,
        "veto_proposed": phase is Phase.VETO_RESPONSE,
        "power": _POWER_OF_PHASE.get(phase),
        "pending_power": None if pending is None else pending.value,
        "next_president": _next_president(game),
        "investigated": list(game.investigated),
        "not_hitler": sorted(game.not_hitler),
        "proven_not_hitler": proven,
        "investigations": [
            [e["target"], e["party"]] for e in events if e["type"] == "investigation"
        ],
        "open_claims": claims,
        "winner": game.winner.value if game.winner else None,
        "reason": game.reason.value if game.reason else None,
        "events": events,
    }
