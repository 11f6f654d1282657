"""Prompt version v1's own sentences for the game's events, frozen: records name v1.

v1 said each event in words of its own (its ``event.*`` phrases); from v2 on a prompt says the
events as the table page's log does (``talk.narrate``: one narrator, the web catalogs' words).
This module keeps v1 saying what it said, byte for byte (tests/llm/test_format.py holds its
transcripts of two whole games); nothing new is said here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..engine import events as E

if TYPE_CHECKING:
    from ..engine import View
    from .prompts import Renderer

#: The events v1 names with their seats alone (president, chancellor, seat, target).
_BY_SEATS = (
    E.Nominated,
    E.Elected,
    E.LegislativeSession,
    E.PresidentDiscarded,
    E.NotHitler,
    E.VetoProposed,
    E.Investigated,
    E.SpecialElection,
)
_SEAT_FIELDS = ("president", "chancellor", "seat", "target")


def event_v1(r: Renderer, view: View, e: E.TypedEvent) -> str | None:
    """One event as v1 says it; None for those that add nothing (a secret vote was cast)."""
    say = r.p.say
    told = _TOLD.get(e.kind)
    if told is not None:
        return told(r, view, e)
    if isinstance(e, _BY_SEATS):
        fields = {k: r.seat(view, getattr(e, k)) for k in _SEAT_FIELDS if k in e.FIELDS}
        return say(f"event.{e.kind}", **fields)
    data = {k: v for k, v in e.items() if k != "type"}
    return say("event.other", type=e.kind, data=json.dumps(data, ensure_ascii=False))


def _voted(r: Renderer, view: View, e: E.Voted) -> str | None:
    if e.ja is None:
        return None
    vote = r.p.say("vote.ja" if e.ja else "vote.nein")
    return r.p.say("event.voted", seat=r.seat(view, e.seat), vote=vote)


def _votes(r: Renderer, view: View, e: E.Votes) -> str:
    ja = [i for i, v in enumerate(e.votes) if v is True]
    nein = [i for i, v in enumerate(e.votes) if v is False]
    key = "event.votes.passed" if e.passed else "event.votes.failed"
    return r.p.say(key, ja=r.seats(view, ja), nein=r.seats(view, nein))


def _night(r: Renderer, view: View, e: E.Night) -> str:
    say = r.p.say
    items = say("sep").join(
        say("pair", a=r.seat(view, int(t)), b=say("role." + role)) for t, role in e.known.items()
    )
    return say("event.night", items=items or say("nobody"))


def _enacted(r: Renderer, view: View, e: E.Enacted) -> str:
    return r.p.say(
        "event.enacted.chaos" if e.chaos else "event.enacted",
        policy=r.p.say(f"policy.{e.policy}"),
        liberal=e.liberal_policies,
        fascist=e.fascist_policies,
    )


def _hand(r: Renderer, view: View, e: E.Drew | E.Received | E.Peek) -> str:
    return r.p.say(f"event.{e.kind}", policies=r.policies(e.policies))


def _passed(r: Renderer, view: View, e: E.Passed) -> str:
    say = r.p.say
    return say(
        "event.passed", discarded=say(f"policy.{e.discarded}"), policies=r.policies(e.policies)
    )


def _one_policy(r: Renderer, view: View, e: E.ChancellorDiscarded | E.Chaos) -> str:
    return r.p.say(f"event.{e.kind}", policy=r.p.say(f"policy.{e.policy}"))


def _executed(r: Renderer, view: View, e: E.Executed) -> str:
    say = r.p.say
    text = say("event.executed", president=r.seat(view, e.president), target=r.seat(view, e.target))
    if e.role:
        text += " " + say("event.executed_role", role=say(f"role.{e.role}"))
    return text


def _reshuffled(r: Renderer, view: View, e: E.Reshuffled) -> str:
    count = e.draw_pile
    return r.p.say("event.reshuffled", count, n_policies=r.p.counted("policies", count))


_TOLD: dict[str, Callable[[Renderer, View, Any], str | None]] = {
    E.Voted.kind: _voted,
    E.Votes.kind: _votes,
    E.Night.kind: _night,
    E.RoleDealt.kind: lambda r, v, e: r.p.say("event.role", role=r.p.say(f"role.{e.role}")),
    E.Enacted.kind: _enacted,
    E.Drew.kind: _hand,
    E.Received.kind: _hand,
    E.Peek.kind: _hand,
    E.Passed.kind: _passed,
    E.ChancellorDiscarded.kind: _one_policy,
    E.Chaos.kind: _one_policy,
    E.PowerUsed.kind: lambda r, v, e: r.p.say(
        "event.power", president=r.seat(v, e.president), power=r.p.say(f"power.{e.power}")
    ),
    E.Investigation.kind: lambda r, v, e: r.p.say(
        "event.investigation", target=r.seat(v, e.target), party=r.p.say(f"party.{e.party}")
    ),
    E.Executed.kind: _executed,
    E.Veto.kind: lambda r, v, e: r.p.say(
        "event.veto.accepted" if e.accepted else "event.veto.refused",
        president=r.seat(v, e.president),
    ),
    E.Claimed.kind: lambda r, v, e: r.p.say(
        f"event.claim.{e.subject}", **r.claim_fields(v, e.seat, e)
    ),
    E.GameOver.kind: lambda r, v, e: r.p.say(
        "event.game_over",
        winner=r.p.say(f"team.{e.winner}"),
        reason=r.p.say(f"reason.{e.reason}"),
    ),
    E.Candidate.kind: lambda r, v, e: r.p.say(
        "event.candidate", round=e.round, seat=r.seat(v, e.seat)
    ),
    E.Tracker.kind: lambda r, v, e: r.p.say("event.tracker", value=e.value),
    E.Reshuffled.kind: _reshuffled,
    E.GameStarted.kind: lambda r, v, e: r.p.say("event.game_started"),
}


__all__ = ["event_v1"]
