"""Small immutable values of the game: roles, parties, policies, powers, phases.

They are ``str`` enums so that they compare equal to their JSON spelling and
serialize without a conversion step. ``PARTY_OF`` is the one place that says which party each
role belongs to (an investigation shows it, the liberals' and fascists' wins go to it).
"""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    LIBERAL = "liberal"
    FASCIST = "fascist"
    HITLER = "hitler"
    # secrethitler.io's game types (docs/game-types.md): dealt only under the rules that name them
    MERLIN = "merlin"  # Avalon SH: knows the fascist party; Hitler may assassinate him
    PERCIVAL = "percival"  # Avalon SH with Percival: sees Merlin and Morgana, not which is which
    MORGANA = "morgana"  # Avalon SH with Percival: a Fascist Percival may take for Merlin
    MONARCHIST = "monarchist"  # a fascist who wins on six fascist policies or Hitler executed

    @property
    def party(self) -> Party:
        return PARTY_OF[self]


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
    ASSASSINATE = "assassinate"  # Avalon SH: Hitler chooses whom he takes for Merlin


class Winner(StrEnum):
    LIBERAL = "liberal"
    FASCIST = "fascist"


class Reason(StrEnum):
    FIVE_LIBERAL_POLICIES = "five_liberal_policies"
    SIX_FASCIST_POLICIES = "six_fascist_policies"
    HITLER_ELECTED = "hitler_elected"
    HITLER_EXECUTED = "hitler_executed"
    MERLIN_ASSASSINATED = "merlin_assassinated"  # Avalon SH: Hitler found Merlin
    TOP_DECKED = "top_decked"  # no top-decking: a failed election brought chaos


#: Each role's party: the one place that says it.
PARTY_OF: dict[Role, Party] = {
    Role.LIBERAL: Party.LIBERAL,
    Role.MERLIN: Party.LIBERAL,
    Role.PERCIVAL: Party.LIBERAL,
    Role.FASCIST: Party.FASCIST,
    Role.HITLER: Party.FASCIST,
    Role.MORGANA: Party.FASCIST,
    Role.MONARCHIST: Party.FASCIST,
}
#: The same, by the roles' and parties' JSON names (what events and views carry).
PARTY_OF_NAME: dict[str, str] = {r.value: p.value for r, p in PARTY_OF.items()}

LIBERAL = Policy.LIBERAL
FASCIST = Policy.FASCIST

POWER_PHASES: dict[Power, Phase] = {
    Power.INVESTIGATE: Phase.INVESTIGATE,
    Power.SPECIAL_ELECTION: Phase.SPECIAL_ELECTION,
    Power.EXECUTE: Phase.EXECUTE,
}
