"""A from-scratch reference view, the test oracle for the engine's incremental observer.

It re-derives everything from the whole log and the game state at every call, in the most
direct way (roles from ``game.roles`` and the night rule, hands from ``game.hand``), so that a
mistake in the observer's incremental bookkeeping cannot hide in both. What each role is shown
at the deal is written here again from docs/game-types.md's table ("What each seat's view
holds"), without the engine's engine/roles.py. It is slow on purpose and lives with the tests
only.
"""

from __future__ import annotations

from typing import Any

from secret_hitler.engine import Game
from secret_hitler.engine.events import thaw
from secret_hitler.engine.types import Phase

#: Each role's party (docs/game-types.md "Roles per table"), written out here.
#: The role cards in the order a table lists them: Hitler, the fascist cards, the liberal ones.
_CARD_ORDER = ("hitler", "morgana", "monarchist", "fascist", "merlin", "percival", "liberal")
PARTY = {
    "liberal": "liberal",
    "merlin": "liberal",
    "percival": "liberal",
    "fascist": "fascist",
    "hitler": "fascist",
    "morgana": "fascist",
    "monarchist": "fascist",
}

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


def dealt_knowledge(
    roles: list[str], seat: int, hitler_knows: bool
) -> tuple[dict[int, str], dict[int, str], list[int] | None]:
    """What ``seat`` is shown at the deal: exact roles, seats shown by party only, Percival's
    pair (docs/game-types.md, "What each seat's view holds"; RULES.md N1, N2)."""
    own = roles[seat]
    hitler = roles.index("hitler")
    known = {seat: own}
    parties: dict[int, str] = {}
    candidates = None
    # teammates: the fascist party besides this seat and Hitler
    teammates = [
        s for s, r in enumerate(roles) if PARTY[r] == "fascist" and s not in (seat, hitler)
    ]
    # the exact roles of the team are shown only where every teammate is a plain Fascist
    by_party = "morgana" in roles or "monarchist" in roles
    if own in ("fascist", "morgana") or (own == "hitler" and hitler_knows):
        if own != "hitler":
            known[hitler] = "hitler"
        for t in teammates:
            if by_party:
                parties[t] = "fascist"
            else:
                known[t] = roles[t]
    elif own == "monarchist":  # never told who Hitler is
        parties.update({t: "fascist" for t in teammates})
    elif own == "merlin":
        parties.update({s: "fascist" for s, r in enumerate(roles) if PARTY[r] == "fascist"})
    elif own == "percival":
        candidates = sorted(s for s, r in enumerate(roles) if r in ("merlin", "morgana"))
    return known, parties, candidates


def reference_winners(game: Game) -> list[int] | None:
    """The seats that won: the winning party's, the Monarchist only on six fascist policies or
    Hitler executed (docs/game-types.md "Winning")."""
    if game.winner is None:
        return None
    roles = [r.value for r in game.roles]
    hitler_shot = not game.alive[roles.index("hitler")]
    monarchist_wins = game.reason.value == "six_fascist_policies" or hitler_shot
    return [
        s
        for s, r in enumerate(roles)
        if (monarchist_wins if r == "monarchist" else PARTY[r] == game.winner.value)
    ]


def reference_view(game: Game, seat: int | None) -> dict[str, Any]:
    """``game.view(seat).to_json()`` as the rules define it (RULES.md, docs/engine.md,
    docs/game-types.md)."""
    n = game.n
    events = [
        _plain(e)
        for e in game.events
        if e.audience is None or (seat is not None and seat in e.audience)
    ]
    roles = [r.value for r in game.roles]
    known: list[str | None] = [None] * n
    shown: list[str | None] = [None] * n  # parties shown without the role
    role = party = None
    candidates = None
    if seat is not None:
        role = roles[seat]
        party = PARTY[role]
        dealt, by_party, candidates = dealt_knowledge(roles, seat, game.rules.hitler_knows(n))
        for s, r in dealt.items():
            known[s] = r
        for s, p in by_party.items():
            shown[s] = p
    assassination = None
    for e in events:
        if e["type"] == "executed" and game.rules.reveal_executed_role:
            known[e["target"]] = e["role"]
        elif e["type"] == "investigation":
            shown[e["target"]] = e["party"]
        elif e["type"] == "assassination":  # Hitler's card turned face up
            known[e["hitler"]] = "hitler"
            assassination = {"hitler": e["hitler"], "trigger": e["trigger"], "target": None}
        elif e["type"] == "assassin_sight":  # Hitler is shown his team and targets
            for s, r in enumerate(roles):
                if r in ("fascist", "morgana"):
                    known[s] = r
                elif PARTY[r] == "liberal":
                    shown[s] = "liberal"
        elif e["type"] == "assassinated":
            known[e["target"]] = roles[e["target"]]
            assert assassination is not None
            assassination["target"] = e["target"]
    if game.finished:
        known = list(roles)
    parties = [PARTY[r] if r is not None else shown[s] for s, r in enumerate(known)]
    # no top-decking: chaos by failed elections since the last passed election
    top_decks, failed = 0, False
    for e in events:
        if e["type"] == "votes":
            failed = not e["passed"]
            if e["passed"]:
                top_decks = 0
        elif e["type"] == "veto" and e["accepted"]:
            failed = False
        elif e["type"] == "chaos" and failed:
            top_decks += 1
    rule = game.rules.top_decking
    top_deck_forbidden = rule == "forbidden" or (rule == "not_twice" and top_decks > 0)
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
    # Hitler ends it, P4), everyone but Hitler once his card is shown (the end, W2, or the
    # assassination).
    if game.finished or assassination is not None:
        proven = [s for s, r in enumerate(roles) if r != "hitler"]
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
        "composition": {r: roles.count(r) for r in _CARD_ORDER if r in roles},
        "hitler_zone_active": game.fascist >= game.rules.hitler_zone,
        "phase": phase.value,
        "to_act": list(game.to_act()),
        "round": game.round,
        "role": role,
        "party": party,
        "known_roles": known,
        "known_parties": parties,
        "merlin_candidates": candidates,
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
        "top_deck_forbidden": top_deck_forbidden,
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
        "next_president": None if assassination is not None else _next_president(game),
        "assassination": assassination,
        "investigated": list(game.investigated),
        "not_hitler": sorted(game.not_hitler),
        "proven_not_hitler": proven,
        "investigations": [
            [e["target"], e["party"]] for e in events if e["type"] == "investigation"
        ],
        "open_claims": claims,
        "winner": game.winner.value if game.winner else None,
        "reason": game.reason.value if game.reason else None,
        "winners": reference_winners(game),
        "events": events,
    }
