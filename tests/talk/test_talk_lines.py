"""Talk lines: the JSON form round-trips, and a line that does not fit the model is refused
with a message naming the field."""

from __future__ import annotations

from typing import Any

import pytest

from secret_hitler import talk
from secret_hitler.engine import Action, Game, Party, Policy
from secret_hitler.talk.lines import KINDS

F, L = Policy.FASCIST, Policy.LIBERAL

SAMPLES = [
    talk.Claim("president_hand", (F, F, L), passed=(F, L)),
    talk.Claim("chancellor_hand", (F, L), variant=2),
    talk.Claim("peek", (L, F, F)),
    talk.Claim("investigation", target=0, party=Party.FASCIST),
    talk.Accuse(3, reason="conflict", other=5),
    talk.Accuse(2, certainty="known", reason="investigated"),
    talk.Trust(4, reason="enacted_liberal", count=2),
    talk.Trust(1),
    talk.HitlerGuess(6, certainty="known", variant=1),
    talk.Defend(reason="accuser_suspicious", against=3),
    talk.Defend(),
    talk.ExplainVote(False, reason="distrust", other=2),
    talk.ExplainNomination(4, reason="test"),
    talk.Conflict(1, 4, believe=4),
    talk.Conflict(),
    talk.Question("vote", to=2, ja=False),
    talk.Question("investigation", other=5),
    talk.Answer(talk.ExplainVote(True, reason="tracker"), to=1),
    talk.Answer(talk.Correct("vote", talk.ExplainVote(True, reason="trust_government")), to=3),
    talk.Correct("nomination", talk.ExplainNomination(2, reason="trust"), other=4),
    talk.Correct("investigation", other=5, target=1),
    talk.CallOut(3, "chancellor_hand", (L, L), "enacted"),
    talk.CallOut(3, "peek", (L, L, F), "drew", variant=1),
    talk.Suggest(6),
    talk.MerlinGuess(2, certainty="known", variant=1),
    talk.RoleClaim("percival"),
]


@pytest.mark.parametrize("line", SAMPLES, ids=lambda line: line.kind)
def test_json_round_trip(line: Any) -> None:
    data = line.to_json()
    assert data["kind"] == line.kind
    assert talk.line_from_json(data) == line
    assert all(value is not None for value in data.values())  # absent, never null


def test_every_kind_has_a_sample() -> None:
    assert {line.kind for line in SAMPLES} == set(KINDS)


def test_claim_json_matches_the_engine_claim_action() -> None:
    claim = talk.Claim("president_hand", ["fascist", "fascist", "liberal"])
    action = claim.to_action(3)
    assert action == Action.claim_policies(3, "president_hand", (F, F, L))
    assert talk.Claim.from_action(action) == claim
    data = claim.to_json()
    engine = action.to_json()
    assert {k: data[k] for k in ("subject", "policies")} == {
        k: engine[k] for k in ("subject", "policies")
    }
    inv = talk.Claim("investigation", target=2, party="liberal")
    assert inv.to_action(0) == Action.claim_investigation(0, 2, Party.LIBERAL)


def test_a_recognised_hand_is_a_legal_claim_when_the_window_is_open() -> None:
    game = Game(5, seed=1)
    seat = game.to_act()[0]  # the first president, nominating
    while "president_hand" not in game.open_claims(seat):
        actor = game.to_act()[0]
        moves = [a for a in game.legal_actions(actor) if a.type != "claim" and a.ja is not False]
        game.apply(moves[0])
    assert "president_hand" in game.open_claims(seat)
    assert game.is_legal(talk.Claim("president_hand", (F, F, L)).to_action(seat))


def test_strings_become_engine_values() -> None:
    line = talk.Claim("peek", ["liberal", "fascist", "fascist"])
    assert line.policies == (L, F, F) and all(isinstance(p, Policy) for p in line.policies)
    assert isinstance(talk.Claim("investigation", target=1, party="fascist").party, Party)


BAD: list[tuple[dict[str, Any], str]] = [
    ({"kind": "shout"}, "'kind'"),
    ({"kind": "accuse"}, "'target'"),
    ({"kind": "accuse", "target": -1}, "'target'"),
    ({"kind": "accuse", "target": True}, "'target'"),
    ({"kind": "accuse", "target": 1, "certainty": "sure"}, "'certainty'"),
    ({"kind": "accuse", "target": 1, "reason": "conflict"}, "'other'"),
    ({"kind": "accuse", "target": 1, "reason": "gut"}, "reason"),
    ({"kind": "accuse", "target": 1, "other": 2}, "'other'"),
    ({"kind": "trust", "target": 1, "reason": "enacted_liberal"}, "'count'"),
    ({"kind": "trust", "target": 1, "volume": 11}, "'volume'"),
    ({"kind": "claim", "subject": "peek", "policies": ["liberal"]}, "3 policies"),
    ({"kind": "claim", "subject": "peek", "policies": ["red", "red", "blue"]}, "'policies'"),
    ({"kind": "claim", "subject": "investigation", "target": 2}, "party"),
    (
        {
            "kind": "claim",
            "subject": "president_hand",
            "policies": ["liberal", "liberal", "liberal"],
            "passed": ["fascist", "liberal"],
        },
        "'passed'",
    ),
    (
        {"kind": "claim", "subject": "chancellor_hand", "policies": ["liberal"] * 2, "target": 0},
        "no target",
    ),
    ({"kind": "defend", "reason": "accuser_suspicious"}, "'against'"),
    ({"kind": "conflict", "president": 1}, "both"),
    ({"kind": "conflict", "president": 1, "chancellor": 2, "believe": 3}, "'believe'"),
    ({"kind": "question", "topic": "policy", "ja": True}, "'ja'"),
    ({"kind": "question", "topic": "nomination"}, "'other'"),
    ({"kind": "answer", "line": {"kind": "question", "topic": "vote"}}, "answer"),
    ({"kind": "explain_vote", "ja": "yes"}, "'ja'"),
    ({"kind": "hitler_guess", "target": 1, "variant": -2}, "'variant'"),
    ({"kind": "correct", "topic": "who_suspect"}, "topic"),
    ({"kind": "correct", "topic": "nomination"}, "'other'"),
    ({"kind": "correct", "topic": "vote", "line": {"kind": "defend"}}, "explain_vote"),
    ({"kind": "correct", "topic": "policy", "target": 2}, "'target'"),
    (
        {"kind": "call_out", "target": 1, "subject": "peek", "policies": ["liberal"] * 3},
        "'reason'",
    ),
    (
        {
            "kind": "call_out",
            "target": 1,
            "subject": "chancellor_hand",
            "policies": ["liberal"] * 2,
            "reason": "drew",
        },
        "drew",
    ),
    (
        {
            "kind": "call_out",
            "target": 1,
            "subject": "investigation",
            "policies": ["liberal"],
            "reason": "enacted",
        },
        "policy claim",
    ),
    ("claim RRB", "JSON object"),
]


@pytest.mark.parametrize(("data", "named"), BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_lines_are_refused_naming_the_field(data: Any, named: str) -> None:
    with pytest.raises(talk.InvalidLine) as info:
        talk.line_from_json(data)
    assert named in str(info.value)


def test_lines_built_in_code_are_checked_too() -> None:
    with pytest.raises(talk.InvalidLine):
        talk.Accuse(2, reason="conflict")
    with pytest.raises(talk.InvalidLine):
        talk.Claim("chancellor_hand", (F, F, L))


def test_players_bounds_every_seat_nested_ones_included() -> None:
    data = talk.Answer(talk.ExplainVote(False, reason="distrust", other=6), to=1).to_json()
    assert talk.line_from_json(data, players=7).seats() == (6, 1)
    with pytest.raises(talk.InvalidLine, match="seat 6"):
        talk.line_from_json(data, players=5)


def test_every_reason_of_every_kind_builds() -> None:
    """talk.REASONS is the table the phrase sets follow: each entry makes a valid line."""
    fields = {"other": 1, "count": 2, "against": 3}
    makers = {
        "accuse": lambda **kw: talk.Accuse(0, **kw),
        "trust": lambda **kw: talk.Trust(0, **kw),
        "defend": lambda **kw: talk.Defend(**kw),
        "explain_vote": lambda **kw: talk.ExplainVote(True, **kw),
        "explain_nomination": lambda **kw: talk.ExplainNomination(0, **kw),
        "call_out": lambda reason: talk.CallOut(
            0, "peek" if reason == "drew" else "president_hand", (F, F, L), reason
        ),
    }
    assert set(makers) == set(talk.REASONS)
    for kind, reasons in talk.REASONS.items():
        for reason, needs in reasons.items():
            line = makers[kind](reason=reason, **{n: fields[n] for n in needs})
            assert talk.line_from_json(line.to_json()) == line
