"""Actions: the decisions players make, as small immutable values that serialize to JSON.

Common actions are interned (``Action.make`` returns a shared instance), so generating legal
moves in a simulation allocates nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import InvalidAction, brief
from .types import Party, Policy

NOMINATE = "nominate"
VOTE = "vote"
DISCARD = "discard"
ENACT = "enact"
VETO = "veto"
VETO_RESPONSE = "veto_response"
INVESTIGATE = "investigate"
SPECIAL_ELECTION = "special_election"
EXECUTE = "execute"
CLAIM = "claim"
ASSASSINATE = "assassinate"  # Avalon SH: Hitler names the seat he takes for Merlin

ACTION_TYPES = (
    NOMINATE,
    VOTE,
    DISCARD,
    ENACT,
    VETO,
    VETO_RESPONSE,
    INVESTIGATE,
    SPECIAL_ELECTION,
    EXECUTE,
    CLAIM,
    ASSASSINATE,
)
TARGETED = frozenset({NOMINATE, INVESTIGATE, SPECIAL_ELECTION, EXECUTE, ASSASSINATE})

# Claim subjects: what a claim is about.
CLAIM_PRESIDENT_HAND = "president_hand"  # the 3 policies the president drew
CLAIM_CHANCELLOR_HAND = "chancellor_hand"  # the 2 policies the chancellor received
CLAIM_PEEK = "peek"  # the top 3 policies seen with Policy Peek, top first
CLAIM_INVESTIGATION = "investigation"  # the party of the investigated player
CLAIM_SUBJECTS = (CLAIM_PRESIDENT_HAND, CLAIM_CHANCELLOR_HAND, CLAIM_PEEK, CLAIM_INVESTIGATION)
CLAIM_SIZES = {CLAIM_PRESIDENT_HAND: 3, CLAIM_CHANCELLOR_HAND: 2, CLAIM_PEEK: 3}


def hand_claims_fit(president_liberals: int, chancellor_liberals: int) -> bool:
    """Whether a chancellor's hand claim (its liberal count) can follow from the president's:
    the president discarded one of his three, so the chancellor holds as many liberals or one
    fewer. Two claims that do not fit mean one of the two lied (a "conflict").

    >>> hand_claims_fit(1, 0), hand_claims_fit(1, 1), hand_claims_fit(1, 2)
    (True, True, False)
    """
    return president_liberals - 1 <= chancellor_liberals <= president_liberals


@dataclass(frozen=True, slots=True)
class Action:
    """One decision. Only the fields its ``type`` uses are set; the others stay ``None``."""

    seat: int
    type: str
    target: int | None = None
    ja: bool | None = None
    policy: Policy | None = None
    accept: bool | None = None
    subject: str | None = None
    policies: tuple[Policy, ...] | None = None
    party: Party | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "type": self.type}
        if self.target is not None:
            out["target"] = self.target
        if self.ja is not None:
            out["ja"] = self.ja
        if self.policy is not None:
            out["policy"] = self.policy.value
        if self.accept is not None:
            out["accept"] = self.accept
        if self.subject is not None:
            out["subject"] = self.subject
        if self.policies is not None:
            out["policies"] = [p.value for p in self.policies]
        if self.party is not None:
            out["party"] = self.party.value
        return out

    def public_json(self) -> dict[str, Any]:
        """What everyone may know about this action as it is made (the server's live updates
        and replays show it): who acted and how, a targeted seat, and a claim in full (claims are
        public statements); never a vote before the reveal, a policy a seat chose, nor a veto
        answer, which the game's public events tell in their own time."""
        if self.type == CLAIM:
            return self.to_json()
        if self.type in TARGETED:
            return {"seat": self.seat, "type": self.type, "target": self.target}
        return {"seat": self.seat, "type": self.type}

    @staticmethod
    def from_json(data: Any) -> Action:
        """Parse and check the shape of an action; legality is the game's business."""
        if not isinstance(data, dict):
            raise InvalidAction("an action must be a JSON object")
        seat = data.get("seat")
        kind = data.get("type")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise InvalidAction("action field 'seat' must be an integer")
        if kind not in ACTION_TYPES:
            raise InvalidAction(
                f"unknown action type {brief(kind, 24)}; expected one of {', '.join(ACTION_TYPES)}"
            )
        if kind in TARGETED:
            return Action(seat, kind, target=_int(data, "target"))
        if kind == VOTE:
            return Action(seat, kind, ja=_bool(data, "ja"))
        if kind == VETO_RESPONSE:
            return Action(seat, kind, accept=_bool(data, "accept"))
        if kind in (DISCARD, ENACT):
            return Action(seat, kind, policy=_policy(data.get("policy"), "policy"))
        if kind == VETO:
            policy = data.get("policy")
            return Action(seat, kind, policy=None if policy is None else _policy(policy, "policy"))
        # claim
        subject = data.get("subject")
        if subject not in CLAIM_SUBJECTS:
            raise InvalidAction(f"claim field 'subject' must be one of {', '.join(CLAIM_SUBJECTS)}")
        if subject == CLAIM_INVESTIGATION:
            party = data.get("party")
            if party not in ("liberal", "fascist"):
                raise InvalidAction("claim field 'party' must be 'liberal' or 'fascist'")
            return Action(
                seat, kind, subject=subject, target=_int(data, "target"), party=Party(party)
            )
        raw = data.get("policies")
        size = CLAIM_SIZES[subject]
        if not isinstance(raw, list) or len(raw) != size:
            raise InvalidAction(f"claim field 'policies' must be a list of {size} policies")
        return Action(
            seat, kind, subject=subject, policies=tuple(_policy(p, "policies") for p in raw)
        )

    @staticmethod
    def nominate(seat: int, target: int) -> Action:
        return Action(seat, NOMINATE, target=target)

    @staticmethod
    def vote(seat: int, ja: bool) -> Action:
        return Action(seat, VOTE, ja=ja)

    @staticmethod
    def discard(seat: int, policy: Policy | str) -> Action:
        return Action(seat, DISCARD, policy=Policy(policy))

    @staticmethod
    def enact(seat: int, policy: Policy | str) -> Action:
        return Action(seat, ENACT, policy=Policy(policy))

    @staticmethod
    def veto(seat: int, policy: Policy | str | None = None) -> Action:
        return Action(seat, VETO, policy=None if policy is None else Policy(policy))

    @staticmethod
    def veto_response(seat: int, accept: bool) -> Action:
        return Action(seat, VETO_RESPONSE, accept=accept)

    @staticmethod
    def investigate(seat: int, target: int) -> Action:
        return Action(seat, INVESTIGATE, target=target)

    @staticmethod
    def special_election(seat: int, target: int) -> Action:
        return Action(seat, SPECIAL_ELECTION, target=target)

    @staticmethod
    def execute(seat: int, target: int) -> Action:
        return Action(seat, EXECUTE, target=target)

    @staticmethod
    def assassinate(seat: int, target: int) -> Action:
        return Action(seat, ASSASSINATE, target=target)

    @staticmethod
    def claim_policies(
        seat: int, subject: str, policies: list[Policy] | tuple[Policy, ...]
    ) -> Action:
        return Action(seat, CLAIM, subject=subject, policies=tuple(Policy(p) for p in policies))

    @staticmethod
    def claim_investigation(seat: int, target: int, party: Party | str) -> Action:
        return Action(seat, CLAIM, subject=CLAIM_INVESTIGATION, target=target, party=Party(party))


def _int(data: dict[str, Any], name: str) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidAction(f"action field {name!r} must be an integer seat number")
    return value


def _bool(data: dict[str, Any], name: str) -> bool:
    value = data.get(name)
    if not isinstance(value, bool):
        raise InvalidAction(f"action field {name!r} must be true or false")
    return value


def _policy(value: Any, name: str) -> Policy:
    if value not in ("liberal", "fascist"):
        raise InvalidAction(f"action field {name!r} must be 'liberal' or 'fascist'")
    return Policy(value)
