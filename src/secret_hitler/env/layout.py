"""The observation vector's layout: every field's offset, size and meaning.

An observation has four blocks, in order: ``static`` (the table: its seats, board and zones),
``private`` (the seat's own: its seat, role, the roles and parties it knows, its last peek, and
its own history rows), ``history`` (the last ``history`` nominations, newest first, one
``RECORD_FIELDS`` row each, with ``CLAIM_RECORD_FIELDS`` when the claims are encoded) and
``dynamic`` (the phase, turn, offices, tracks and piles now). ``Layout`` gives each field's
offset for a history length; ``describe_layout`` lists them (docs/env.md). The encoders
(``encoding.py``) and the batched engine's observation (``batched/observation.py``) place every
value where this says.

secrethitler.io's game types that deal new roles or end games otherwise (``game_types_of``:
Avalon SH, the Monarchist, no top-decking) append a fifth block, ``game_types``
(``GAME_TYPE_FIELDS``), so every other field keeps its offset and a table without them its
size; the 3-wide ``role`` and ``known_roles`` then show a role of the game types by its class
(Merlin and Percival liberal, Morgana and the Monarchist fascist), the block which one it is. A
rebalanced table only has another deck, and keeps the default layout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine.settings import Rules
from ..engine.types import PARTY_OF_NAME, Phase, Role
from .actions import MAX_SEATS

DEFAULT_HISTORY = 8

ROLES = ("liberal", "fascist", "hitler")
#: The game types' roles (``game_types`` block), in card order.
SPECIAL_ROLES = (Role.MERLIN.value, Role.PERCIVAL.value, Role.MORGANA.value, Role.MONARCHIST.value)
SPECIAL_INDEX = {r: i for i, r in enumerate(SPECIAL_ROLES)}
TOP_DECKING = ("allowed", "forbidden", "not_twice")
# The official phases: Avalon SH's assassination is the ``game_types`` block's ``assassinating``
# (the phase one-hot is all zero then), so the ``phase`` field keeps its size.
_ENCODED_PHASES = tuple(p for p in Phase if p is not Phase.ASSASSINATE)
PHASES = tuple(p.value for p in _ENCODED_PHASES)
POWERS = ("investigate", "special_election", "peek", "execute")
#: A role's index in the 3-wide ``role`` and ``known_roles``: its own for the official roles,
#: its class for the game types' (Hitler; else its party, the engine's ``PARTY_OF_NAME``).
ROLE_INDEX = {r: i for i, r in enumerate(ROLES)} | {
    r: ROLES.index(PARTY_OF_NAME[r]) for r in SPECIAL_ROLES
}
PHASE_INDEX: dict[Any, int] = {}
for _i, _p in enumerate(_ENCODED_PHASES):
    PHASE_INDEX[_p] = _i  # enum members hash by name, so index both spellings
    PHASE_INDEX[_p.value] = _i
POWER_INDEX = {p: i for i, p in enumerate(POWERS)}


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    offset: int
    size: int
    doc: str


#: History record (one per nomination, newest first): field name, size, doc.
RECORD_FIELDS: tuple[tuple[str, int, str], ...] = (
    ("valid", 1, "1 if this row holds a nomination"),
    ("president", MAX_SEATS, "presidential candidate one-hot"),
    ("chancellor", MAX_SEATS, "nominee one-hot"),
    ("ja", MAX_SEATS, "seats that voted Ja (revealed votes)"),
    ("nein", MAX_SEATS, "seats that voted Nein"),
    ("elected", 1, "the vote passed"),
    ("enacted", 2, "policy the government enacted: liberal, fascist"),
    ("veto_refused", 1, "a veto was proposed and refused"),
    ("vetoed", 1, "a veto was proposed and accepted"),
    ("chaos", 2, "policy enacted by chaos after this round: liberal, fascist"),
    ("power", 4, "power used this round: investigate, special_election, peek, execute"),
    ("target", MAX_SEATS, "target of that power"),
)
#: Private part of a history record: only what this seat saw of that session.
PRIVATE_RECORD_FIELDS: tuple[tuple[str, int, str], ...] = (
    ("drew_liberals", 4, "as president: liberal policies among the 3 drawn, one-hot 0-3"),
    ("passed_liberals", 3, "as president or chancellor: liberals among the 2 passed, one-hot 0-2"),
)


#: With ``claims=True`` each history row goes on with the claims made about its round (zeros
#: until made; a claim about a round older than the history is not shown).
CLAIM_RECORD_FIELDS: tuple[tuple[str, int, str], ...] = (
    (
        "president_claim",
        4,
        "the president's claim of the 3 he drew in this session: liberals, one-hot 0-3",
    ),
    (
        "chancellor_claim",
        3,
        "the chancellor's claim of the 2 he received: liberals, one-hot 0-2",
    ),
    (
        "peek_claim",
        3 * 2,
        "the claim of this round's Policy Peek, top first, each one-hot liberal/fascist",
    ),
    (
        "investigation_claim",
        2,
        "the party claimed for this round's investigation: liberal, fascist",
    ),
)


def _offsets(
    fields: tuple[tuple[str, int, str], ...], start: int = 0
) -> tuple[dict[str, int], int]:
    out, off = {}, start
    for name, size, _ in fields:
        out[name] = off
        off += size
    return out, off


#: Each field's offset in a history row (``RECORD_AT``; the claims' ``CLAIM_AT`` after it) and
#: in a seat's own history row (``PRIVATE_AT``), and the rows' sizes.
RECORD_AT, RECORD_SIZE = _offsets(RECORD_FIELDS)
CLAIM_AT, CLAIMS_RECORD_SIZE = _offsets(CLAIM_RECORD_FIELDS, RECORD_SIZE)
PRIVATE_AT, PRIVATE_RECORD_SIZE = _offsets(PRIVATE_RECORD_FIELDS)

_STATIC = (
    ("players", MAX_SEATS, "1 for each seat at the table (seat < players)"),
    (
        "board",
        5 * 4,
        "power of fascist slots 1-5, each one-hot investigate/special_election/peek/execute",
    ),
    ("hitler_zone", 6, "fascist policies from which electing Hitler wins, one-hot 1-6"),
    ("veto_zone", 6, "fascist policies from which the veto is unlocked, one-hot 1-6"),
)
_PRIVATE = (
    ("seat", MAX_SEATS, "own seat one-hot"),
    ("role", 3, "own role one-hot: liberal, fascist, hitler"),
    (
        "known_roles",
        MAX_SEATS * 3,
        "per seat, role this seat knows (own, night, reveals, game end); zeros if unknown",
    ),
    (
        "investigations",
        MAX_SEATS * 2,
        "per seat, party this seat learned by investigating it: liberal, fascist",
    ),
    ("peek", 3 * 2, "last Policy Peek this seat made, top first, each one-hot liberal/fascist"),
)
#: The dynamic block's fields, in order (the encoders join their bytes in this order).
DYNAMIC_FIELDS = (
    ("phase", len(PHASES), "phase one-hot: " + ", ".join(PHASES)),
    ("my_turn", 1, "1 if the engine waits for this seat (in a vote: every seat yet to vote)"),
    ("to_act", MAX_SEATS, "seats the game waits for"),
    ("alive", MAX_SEATS, "living seats"),
    ("candidate", MAX_SEATS, "presidential candidate (president in office during a session)"),
    ("nominee", MAX_SEATS, "nominated chancellor"),
    ("president", MAX_SEATS, "last elected president"),
    ("chancellor", MAX_SEATS, "last elected chancellor"),
    ("term_limited", MAX_SEATS, "barred from the chancellorship at this nomination"),
    ("investigated", MAX_SEATS, "seats investigated so far (public)"),
    ("not_hitler", MAX_SEATS, "seats confirmed not Hitler (elected chancellor in the Hitler zone)"),
    ("voted", MAX_SEATS, "seats that have voted in the open election"),
    (
        "votes_ja",
        MAX_SEATS,
        "Ja votes: the last revealed vote, or during a vote what this seat saw (own vote; all cast votes under public voting)",
    ),
    ("votes_nein", MAX_SEATS, "Nein votes, same rule"),
    ("liberal_policies", 6, "liberal track one-hot 0-5"),
    ("fascist_policies", 7, "fascist track one-hot 0-6"),
    ("election_tracker", 3, "election tracker one-hot 0-2"),
    ("hand_liberal", 4, "liberal policies in this seat's hand, one-hot 0-3"),
    ("hand_fascist", 4, "fascist policies in this seat's hand, one-hot 0-3"),
    ("veto_available", 1, "the veto may be proposed in this session"),
    ("veto_proposed", 1, "a veto awaits the president's answer"),
    (
        "hitler_zone_active",
        1,
        "electing Hitler chancellor wins now (the view's hitler_zone_active)",
    ),
    ("winner", 2, "winning team at the end: liberal, fascist"),
    ("draw_pile", 1, "policies in the draw pile / deck size"),
    ("discard_pile", 1, "policies in the discard pile / deck size"),
    ("round", 1, "round number / 32, capped at 1"),
)


#: The ``game_types`` block (appended after ``dynamic`` by ``Layout(game_types=True)``): the
#: table's game types (static), what this seat knows of their roles (private), and their state
#: now (dynamic), one block so that no other field moves.
GAME_TYPE_FIELDS: tuple[tuple[str, int, str], ...] = (
    ("composition", len(SPECIAL_ROLES), "the table deals: merlin, percival, morgana, monarchist"),
    ("top_decking", len(TOP_DECKING), "top-decking setting one-hot: allowed, forbidden, not_twice"),
    (
        "special_role",
        len(SPECIAL_ROLES),
        "own role if a game type's: merlin, percival, morgana, monarchist",
    ),
    (
        "known_special",
        MAX_SEATS * len(SPECIAL_ROLES),
        "per seat (4 each), a game type's role this seat knows it has; zeros if none known",
    ),
    (
        "known_parties",
        MAX_SEATS * 2,
        "per seat (2 each), the party this seat knows (the view's known_parties): liberal, fascist",
    ),
    ("merlin_candidates", MAX_SEATS, "Percival: the two seats that are Merlin and Morgana"),
    ("assassinating", 1, "the phase is Avalon SH's assassination (the phase one-hot is zero)"),
    ("top_deck_forbidden", 1, "a chaos by failed elections now ends the game"),
)


def game_types_of(rules: Rules) -> bool:
    """Whether a table of ``rules`` needs the ``game_types`` block and action (Avalon SH, the
    Monarchist, no top-decking: roles, an assassination or an ending the default layout has no
    place for)."""
    return rules.avalon != "off" or rules.monarchist or rules.top_decking != "allowed"


class Layout:
    """Offsets of every field for a history length, with or without the claims made (``claims``:
    each history row goes on with ``CLAIM_RECORD_FIELDS``) and the game types' block
    (``game_types``: ``GAME_TYPE_FIELDS`` after the dynamic block)."""

    def __init__(
        self, history: int = DEFAULT_HISTORY, claims: bool = False, game_types: bool = False
    ) -> None:
        if history < 0:
            raise ValueError("history must be >= 0")
        self.history = history
        self.claims = claims
        self.game_types = game_types
        self.record_size = record_size = CLAIMS_RECORD_SIZE if claims else RECORD_SIZE
        blocks = [
            ("static", _STATIC),
            (
                "private",
                _PRIVATE
                + (
                    (
                        "own_history",
                        history * PRIVATE_RECORD_SIZE,
                        f"{history} rows of {PRIVATE_RECORD_SIZE}, aligned with history: what this seat saw of each session",
                    ),
                ),
            ),
            (
                "history",
                (
                    (
                        "history",
                        history * record_size,
                        f"last {history} nominations newest first, rows of {record_size}",
                    ),
                ),
            ),
            ("dynamic", DYNAMIC_FIELDS),
        ]
        if game_types:
            blocks.append(("game_types", GAME_TYPE_FIELDS))
        self.fields: dict[str, Field] = {}
        self.blocks: dict[str, tuple[int, int]] = {}
        off = 0
        for block, fields in blocks:
            start = off
            for name, size, doc in fields:
                self.fields[name] = Field(name, off, size, doc)
                off += size
            self.blocks[block] = (start, off)
        self.size = off

    def __getitem__(self, name: str) -> Field:
        return self.fields[name]

    def block_size(self, block: str) -> int:
        start, end = self.blocks[block]
        return end - start

    def rel(self, name: str, block: str) -> int:
        """Offset of a field inside its block."""
        return self.fields[name].offset - self.blocks[block][0]


def static_block(
    layout: Layout, n: int, board: Sequence[str | None], hz: int, vz: int
) -> np.ndarray:
    """The static block: the table's seats, the board's powers, the Hitler and veto zones."""
    out = np.zeros(layout.block_size("static"), dtype=np.float32)
    rel = layout.rel
    out[rel("players", "static") : rel("players", "static") + n] = 1.0
    b = rel("board", "static")
    for slot, power in enumerate(board[:5]):
        if power is not None:
            out[b + 4 * slot + POWER_INDEX[power]] = 1.0
    if 1 <= hz <= 6:
        out[rel("hitler_zone", "static") + hz - 1] = 1.0
    if 1 <= vz <= 6:
        out[rel("veto_zone", "static") + vz - 1] = 1.0
    return out


def describe_layout(history: int = DEFAULT_HISTORY, game_types: bool = False) -> list[Field]:
    """Every field with its offset and size, in vector order (used by docs/env.md)."""
    return sorted(Layout(history, game_types=game_types).fields.values(), key=lambda f: f.offset)
