"""The strong bots decide, say and believe exactly what they did before their speed-up.

``golden_trace.json`` was written by ``tests/bots/golden.py --write`` from the code before the
speed-up of issue 40 point 4 (main 18c9374): every action and claim of 55 seeded games of
`bayes`, `bayes-human` and `search` (5-10 players, talk off and on, four presets, mixed
lineups), every line said, and each bot's final posterior marginals. Changes meant to change
decisions regenerate it and say so (the nine talk-on games at 5615c02 and again when fascists
began to keep lines to themselves by the kinds a table reads, issue 39; the talk-off games are
still those of 18c9374).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from golden import CASES, FIXTURE, TOLERANCE, difference, trace

RECORDED: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))
_BY_NAME = {case.name: case for case in CASES}


def test_the_fixture_covers_every_case_and_seed() -> None:
    assert [(t["case"], t["seed"]) for t in RECORDED] == [
        (case.name, seed) for case in CASES for seed in case.seeds()
    ]


@pytest.mark.parametrize("want", RECORDED, ids=[f"{t['case']}-{t['seed']}" for t in RECORDED])
def test_the_game_is_decided_as_recorded(want: dict[str, Any]) -> None:
    got = trace(_BY_NAME[want["case"]], want["seed"])
    why = difference(want, got)
    assert why is None, (
        f"{why}. A change meant to change what the bots decide or say regenerates the trace "
        "(.venv/bin/python tests/bots/golden.py --write) and says so in its commit."
    )


def test_a_changed_decision_or_belief_is_caught() -> None:
    want = RECORDED[0]
    tokens = want["actions"].split(";")
    vote = next(i for i, t in enumerate(tokens) if ",vote," in t)
    flipped = tokens[vote].replace("true", "x").replace("false", "true").replace("x", "false")
    changed = {**want, "actions": ";".join([*tokens[:vote], flipped, *tokens[vote + 1 :]])}
    assert difference(want, changed) == (
        f"action {vote}: {tokens[vote]} recorded, {flipped} now "
        f"(after {';'.join(tokens[max(0, vote - 3) : vote])})"
    )
    marginals = json.loads(json.dumps(want["marginals"]))
    seat = next(s for s, m in enumerate(marginals) if "beliefs" in m)
    marginals[seat]["beliefs"][0][0] += 10 * TOLERANCE
    assert "marginals differ" in (difference(want, {**want, "marginals": marginals}) or "")
    marginals[seat]["beliefs"][0][0] -= 9.5 * TOLERANCE  # within the tolerance
    assert difference(want, {**want, "marginals": marginals}) is None
