"""Small immutable values of the game: roles, parties, policies, powers, phases.

They are ``str`` enums so that they compare equal to their JSON spelling and
serialize without a conversion step.
"""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    LIBERAL = "liberal"
    FASCIST = "fascist"
    HITLER = "hitler"

    @property
    def party(self) -> Party:
        return Party.LIBERAL if self is Role.LIBERAL else Party.FASCIST


class Party(StrEnum):
    LIBERAL = "liberal"
    FASCIST = "fascist"


class Policy(StrEnum):
    LIBERAL = "liberal"
    FASCIST = "fascist"


class Power(StrEnum):
    INVESTIGATE = "investigate"
    SPECIAL_ELECTION = "special_election"
    PEEK = "peek"
    EXECUTE = "execute"


class Phase(StrEnum):
    NOMINATE = "nominate"
    VOTE = "vote"
    DISCARD = "discard"  # president discards 1 of 3
    ENACT = "enact"  # chancellor enacts 1 of 2 (or proposes a veto)
    VETO_RESPONSE = "veto_response"
    INVESTIGATE = "investigate"
    SPECIAL_ELECTION = "special_election"
    EXECUTE = "execute"
    GAME_OVER = "game_over"


class Winner(StrEnum):
    LIBERAL = "liberal"
    FASCIST = "fascist"


class Reason(StrEnum):
    FIVE_LIBERAL_POLICIES = "five_liberal_policies"
    SIX_FASCIST_POLICIES = "six_fascist_policies"
    HITLER_ELECTED = "hitler_elected"
    HITLER_EXECUTED = "hitler_executed"


LIBERAL = Policy.LIBERAL
FASCIST = Policy.FASCIST

POWER_PHASES: dict[Power, Phase] = {
    Power.INVESTIGATE: Phase.INVESTIGATE,
    Power.SPECIAL_ELECTION: Phase.SPECIAL_ELECTION,
    Power.EXECUTE: Phase.EXECUTE,
}
