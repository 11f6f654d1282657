"""The environment's action space: a Discrete index for each engine action a seat may take.

Seats are absolute (``MAX_SEATS`` slots, the largest table's), so the space has one size and
meaning for every table size: ``ACTION_TABLE`` lists its blocks (a nomination, a vote, a
discard, ..., an execution, by target), ``CLAIM_ACTION_TABLE`` the claim blocks that follow with
``claims=True``. ``action_index`` maps an engine action to its index, ``ACTIONS[seat][index]``
and ``claim_action`` back, and ``action_mask`` marks the legal ones. The engine decides what is
legal; nothing here does.

secrethitler.io's game types (``game_types=True``, docs/env.md "Game types") add one block after
the others: Hitler's assassination by target (``assassinate_base(claims)`` + seat), so the
default space keeps its size and every index its meaning.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..engine import actions as A
from ..engine.actions import Action
from ..engine.settings import MAX_PLAYERS
from ..engine.types import Party, Policy

MAX_SEATS = MAX_PLAYERS  # seats are absolute slots of the largest table

NOMINATE = 0  # + target seat
JA = NOMINATE + MAX_SEATS
NEIN = 11
DISCARD_LIBERAL = 12
DISCARD_FASCIST = 13
ENACT_LIBERAL = 14
ENACT_FASCIST = 15
VETO = 16  # propose a veto (presets where the veto names no policy)
VETO_KEEP_LIBERAL = 17  # propose a veto, enact liberal if refused (veto_after_choice presets)
VETO_KEEP_FASCIST = 18  # propose a veto, enact fascist if refused (veto_after_choice presets)
VETO_ACCEPT = 19
VETO_REFUSE = 20
INVESTIGATE = 21  # + target seat
SPECIAL_ELECTION = 31  # + target seat
EXECUTE = 41  # + target seat
NUM_ACTIONS = 51
# Claims (``claims=True`` only; RULES.md A9, docs/engine.md "Claims"): optional statements the
# engine offers beside a seat's move while its window is open; a claim leaves the turn with
# the claimant, who then still makes its move.
CLAIM_PRESIDENT_HAND = 51  # + liberals among the 3 the president says he drew
CLAIM_CHANCELLOR_HAND = 55  # + liberals among the 2 the chancellor says he received
CLAIM_PEEK = 58  # + the 3 policies said peeked, as bits top first (bit i: i-th is fascist)
CLAIM_INVESTIGATION = 66  # + the party said found: 0 liberal, 1 fascist
NUM_ACTIONS_WITH_CLAIMS = 68
# Game types (``game_types=True``): Avalon SH's assassination, after the base actions and the
# claims (when they are on).
ASSASSINATE_ACTIONS = MAX_SEATS  # Hitler names seat i as Merlin

ACTION_TABLE: tuple[tuple[str, int, int, str], ...] = (
    ("nominate", NOMINATE, MAX_SEATS, "candidate nominates seat i as chancellor"),
    ("ja", JA, 1, "vote Ja"),
    ("nein", NEIN, 1, "vote Nein"),
    ("discard_liberal", DISCARD_LIBERAL, 1, "president discards a liberal policy"),
    ("discard_fascist", DISCARD_FASCIST, 1, "president discards a fascist policy"),
    ("enact_liberal", ENACT_LIBERAL, 1, "chancellor enacts a liberal policy"),
    ("enact_fascist", ENACT_FASCIST, 1, "chancellor enacts a fascist policy"),
    ("veto", VETO, 1, "chancellor proposes a veto"),
    (
        "veto_keep_liberal",
        VETO_KEEP_LIBERAL,
        1,
        "veto; liberal enacted if refused (veto_after_choice)",
    ),
    (
        "veto_keep_fascist",
        VETO_KEEP_FASCIST,
        1,
        "veto; fascist enacted if refused (veto_after_choice)",
    ),
    ("veto_accept", VETO_ACCEPT, 1, "president consents to the veto"),
    ("veto_refuse", VETO_REFUSE, 1, "president refuses the veto"),
    ("investigate", INVESTIGATE, MAX_SEATS, "president investigates seat i"),
    ("special_election", SPECIAL_ELECTION, MAX_SEATS, "president makes seat i the next candidate"),
    ("execute", EXECUTE, MAX_SEATS, "president executes seat i"),
)
#: The claim blocks that follow with ``claims=True`` (same columns as ``ACTION_TABLE``).
CLAIM_ACTION_TABLE: tuple[tuple[str, int, int, str], ...] = (
    (
        "claim_president_hand",
        CLAIM_PRESIDENT_HAND,
        4,
        "the last president claims i liberals among the 3 he drew",
    ),
    (
        "claim_chancellor_hand",
        CLAIM_CHANCELLOR_HAND,
        3,
        "the last chancellor claims i liberals among the 2 he received",
    ),
    (
        "claim_peek",
        CLAIM_PEEK,
        8,
        "the peeking president claims the top 3: bit j of i set if the j-th from the top is fascist",
    ),
    (
        "claim_investigation",
        CLAIM_INVESTIGATION,
        2,
        "the investigator claims the party found: liberal, fascist",
    ),
)


def assassinate_base(claims: bool = False) -> int:
    """The first index of the assassination block (``game_types=True``): it follows the base
    actions and, with ``claims``, the claim blocks."""
    return NUM_ACTIONS_WITH_CLAIMS if claims else NUM_ACTIONS


def game_type_action_table(claims: bool = False) -> tuple[tuple[str, int, int, str], ...]:
    """The blocks ``game_types=True`` adds (same columns as ``ACTION_TABLE``)."""
    return (
        (
            "assassinate",
            assassinate_base(claims),
            ASSASSINATE_ACTIONS,
            "Hitler names seat i as Merlin at Avalon SH's assassination",
        ),
    )


def num_actions(claims: bool = False, game_types: bool = False) -> int:
    """The size of the action space, with or without the claim blocks and the game types'."""
    return assassinate_base(claims) + (ASSASSINATE_ACTIONS if game_types else 0)


_L, _F = Policy.LIBERAL, Policy.FASCIST
_TARGET_BASE = {
    A.NOMINATE: NOMINATE,
    A.INVESTIGATE: INVESTIGATE,
    A.SPECIAL_ELECTION: SPECIAL_ELECTION,
    A.EXECUTE: EXECUTE,
}


def action_index(action: Action, claims: bool = False, game_types: bool = False) -> int:
    """The Discrete index of an engine action; for a claim, its index in the claim blocks
    with ``claims=True``, for an assassination its index with ``game_types=True``, else -1
    (not in the action space)."""
    kind = action.type
    if kind == A.VOTE:  # the commonest (most steps are votes)
        return JA if action.ja else NEIN
    base = _TARGET_BASE.get(kind)
    if base is not None:
        return base + action.target  # type: ignore[operator]
    if kind == A.DISCARD:
        return DISCARD_LIBERAL if action.policy is _L else DISCARD_FASCIST
    if kind == A.ENACT:
        return ENACT_LIBERAL if action.policy is _L else ENACT_FASCIST
    if kind == A.VETO:
        if action.policy is None:
            return VETO
        return VETO_KEEP_LIBERAL if action.policy is _L else VETO_KEEP_FASCIST
    if kind == A.VETO_RESPONSE:
        return VETO_ACCEPT if action.accept else VETO_REFUSE
    if kind == A.CLAIM and claims:
        return _claim_index(action)
    if kind == A.ASSASSINATE and game_types:
        return assassinate_base(claims) + action.target  # type: ignore[operator]
    return -1


def _claim_index(action: Action) -> int:
    subject = action.subject
    if subject == A.CLAIM_INVESTIGATION:
        return CLAIM_INVESTIGATION + (action.party is not Party.LIBERAL)
    policies = action.policies or ()
    if subject == A.CLAIM_PEEK:
        return CLAIM_PEEK + sum(1 << i for i, p in enumerate(policies) if p is _F)
    liberals = sum(1 for p in policies if p is _L)
    base = CLAIM_PRESIDENT_HAND if subject == A.CLAIM_PRESIDENT_HAND else CLAIM_CHANCELLOR_HAND
    return base + liberals


def claim_action(seat: int, index: int, investigated: int | None = None) -> Action:
    """The engine claim a claim index stands for (hands as fascist-first multisets, as the
    engine lists them); an investigation claim names ``investigated``, the seat the claimant
    investigated last (the one its window is about)."""
    if CLAIM_INVESTIGATION <= index < NUM_ACTIONS_WITH_CLAIMS:
        if investigated is None:
            raise ValueError("an investigation claim needs the investigated seat")
        party = Party.LIBERAL if index == CLAIM_INVESTIGATION else Party.FASCIST
        return Action.claim_investigation(seat, investigated, party)
    if CLAIM_PEEK <= index < CLAIM_INVESTIGATION:
        bits = index - CLAIM_PEEK
        peek = [_F if (bits >> i) & 1 else _L for i in range(3)]
        return Action.claim_policies(seat, A.CLAIM_PEEK, peek)
    if CLAIM_PRESIDENT_HAND <= index < CLAIM_PEEK:
        president = index < CLAIM_CHANCELLOR_HAND
        size, liberals = (
            (3, index - CLAIM_PRESIDENT_HAND) if president else (2, index - CLAIM_CHANCELLOR_HAND)
        )
        subject = A.CLAIM_PRESIDENT_HAND if president else A.CLAIM_CHANCELLOR_HAND
        return Action.claim_policies(seat, subject, [_F] * (size - liberals) + [_L] * liberals)
    raise ValueError(f"{index} is not a claim index")


def _actions_for(seat: int) -> tuple[Action, ...]:
    out: list[Action] = [Action.nominate(seat, t) for t in range(MAX_SEATS)]
    out += [Action.vote(seat, True), Action.vote(seat, False)]
    out += [Action.discard(seat, _L), Action.discard(seat, _F)]
    out += [Action.enact(seat, _L), Action.enact(seat, _F)]
    out += [Action.veto(seat), Action.veto(seat, _L), Action.veto(seat, _F)]
    out += [Action.veto_response(seat, True), Action.veto_response(seat, False)]
    out += [Action.investigate(seat, t) for t in range(MAX_SEATS)]
    out += [Action.special_election(seat, t) for t in range(MAX_SEATS)]
    out += [Action.execute(seat, t) for t in range(MAX_SEATS)]
    return tuple(out)


#: ``ACTIONS[seat][index]``: the engine action a Discrete index stands for.
ACTIONS: tuple[tuple[Action, ...], ...] = tuple(_actions_for(s) for s in range(MAX_SEATS))


def engine_action(seat: int, index: int, claims: bool = False, game_types: bool = False) -> Action:
    """The engine action an index stands for, but a claim (``claim_action``: it needs the
    claimant's window): a base action, or an assassination with ``game_types``."""
    if 0 <= index < NUM_ACTIONS:
        return ACTIONS[seat][index]
    base = assassinate_base(claims)
    if game_types and base <= index < base + ASSASSINATE_ACTIONS:
        return Action.assassinate(seat, index - base)
    raise ValueError(f"{index} is not an action index of this space")


def action_mask(
    legal: Sequence[Action], claims: bool = False, game_types: bool = False
) -> np.ndarray:
    """int8 mask over the action space; claims are left out unless ``claims``, assassinations
    unless ``game_types``."""
    mask = np.zeros(num_actions(claims, game_types), dtype=np.int8)
    idx = [i for i in (action_index(a, claims, game_types) for a in legal) if i >= 0]
    if idx:
        mask[idx] = 1
    return mask
