"""Claim truth: whether a claim says what its claimant saw (RULES.md A9).

A claim is never checked by the rules (a player may lie), but what the claimant saw is known to
the engine, and so to whoever judges the claim afterwards with the claimant's knowledge: the
evaluation (the share of false claims by role), the language-model reports, a bot deciding its
own story. ``is_true`` is that judgement, against the claimant's ``Knowledge``
(engine/seat.py): a hand claim names the same policies as the hand the claimant last held in
that office (in any order), a peek claim the peeked policies in their order, an investigation
claim a party the claimant found for that seat. When a claim window is open (``PublicState``'s
``open_claims``, ``Game.open_claims``), the hand last held is the one of the window's session:
the windows close when the next legislative session begins.

What the public can tell without anyone's knowledge is ``hand_conflicts``: a government's two
hand claims that cannot both be true, or a claimed hand without the policy enacted from it (the
claim tracker's conflicts, ``engine/history.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .actions import (
    CLAIM_CHANCELLOR_HAND,
    CLAIM_INVESTIGATION,
    CLAIM_PEEK,
    CLAIM_PRESIDENT_HAND,
    hand_claims_fit,
)
from .seat import Knowledge


class ClaimLike(Protocol):
    """A claim: an ``Action`` of type ``claim`` or a ``claim`` event (``events.Claimed``)."""

    @property
    def subject(self) -> str | None: ...

    @property
    def policies(self) -> Sequence[str] | None: ...

    @property
    def target(self) -> int | None: ...

    @property
    def party(self) -> str | None: ...


def seen(knowledge: Knowledge, subject: str | None) -> tuple[str, ...]:
    """The policies the claimant saw for a policy claim's ``subject``: the three it last drew
    as president, the two it last received as chancellor, its last peek (top first); () when
    it saw none (or ``subject`` is an investigation)."""
    if subject == CLAIM_PRESIDENT_HAND:
        return knowledge.last_hand("president")
    if subject == CLAIM_CHANCELLOR_HAND:
        return knowledge.last_hand("chancellor")
    if subject == CLAIM_PEEK:
        return knowledge.peeks[-1].policies if knowledge.peeks else ()
    return ()


def is_true(knowledge: Knowledge, claim: ClaimLike) -> bool:
    """Whether ``claim`` states what the claimant, whose knowledge is ``knowledge``, saw."""
    subject = claim.subject
    if subject == CLAIM_INVESTIGATION:
        return (claim.target, claim.party) in knowledge.found
    held = seen(knowledge, subject)
    if not held:
        return False
    said = tuple(claim.policies or ())
    if subject == CLAIM_PEEK:
        return said == held
    return sorted(said) == sorted(held)


def hand_conflicts(
    president: Sequence[str] | None, chancellor: Sequence[str] | None, enacted: str | None
) -> tuple[bool, bool]:
    """Which of a government's two hand claims (None: not made) cannot be true, judged in
    public, without anyone's knowledge: when the chancellor's two cannot follow from the
    president's three (``hand_claims_fit``), one of them lied and both are suspect; a claimed
    hand without ``enacted``, the policy the chancellor enacted from it (None: nothing was,
    chaos or a veto), is false. Returns (president's, chancellor's)."""
    bad_pres = bad_chan = False
    if president is not None and chancellor is not None:
        liberals = (list(president).count("liberal"), list(chancellor).count("liberal"))
        bad_pres = bad_chan = not hand_claims_fit(*liberals)
    if enacted is not None:
        bad_pres = bad_pres or (president is not None and enacted not in president)
        bad_chan = bad_chan or (chancellor is not None and enacted not in chancellor)
    return bad_pres, bad_chan


__all__ = ["ClaimLike", "hand_conflicts", "is_true", "seen"]
