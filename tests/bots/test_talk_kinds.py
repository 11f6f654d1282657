"""The reader of kinds of line (``bots.talk_kinds``) and what it costs a fascist's line
(``bots.talk_value``): a kind one team says more often moves a reader towards that team."""

from __future__ import annotations

import math

import pytest

from secret_hitler.bots.talk_kinds import KIND_TELLS, KindTells, standing, tell_key
from secret_hitler.engine.public import PublicState
from secret_hitler.engine.types import Policy
from secret_hitler.talk import HEDGED, Accuse, Answer, Claim, Defend, ExplainVote

pytest.importorskip("numpy")


def test_a_line_is_keyed_by_its_kind_reason_and_the_standing_of_the_seat_it_names():
    table = PublicState(7)
    assert tell_key(Defend("check_me"), 2, table, {}) == "defend.check_me"
    nein = ExplainVote(False, "distrust", other=4)
    assert tell_key(nein, 2, table, {}) == "explain_vote.nein.distrust@none"
    # seat 4 accused the speaker before: hitting back is what a reader notices first
    assert tell_key(nein, 2, table, {2: (4,)}) == "explain_vote.nein.distrust@accused_me"
    # another seat's accusation of seat 4 is its standing; the speaker's own is not
    assert standing(table, {4: (5,)}, 2, 4) == "accused"
    assert standing(table, {4: (2,)}, 2, 4) == "none"
    # an answer is read as the line it holds; a claim is a move, not talk
    assert tell_key(Answer(Accuse(4, HEDGED), to=1), 2, table, {}) == "accuse.hedged@none"
    assert (
        tell_key(Claim("chancellor_hand", (Policy.LIBERAL, Policy.FASCIST)), 2, table, {}) is None
    )


def test_the_reader_counts_per_seat_of_each_team():
    # fascists: 30 defences over 30 seats; liberals: 20 over 40 -> twice as often
    reader = KindTells.fit(
        {"defend": {"fascist": 30 - 2, "liberal": 20 - 2}, "question.vote": {"liberal": 8}},
        {"fascist": 30, "liberal": 40},
    )
    assert reader.log_ratio["defend"] == pytest.approx(math.log(2), abs=1e-3)
    assert reader.log_ratio["question.vote"] < 0  # a liberal's kind
    assert reader.shift(["defend", "defend", None, "unknown"]) == pytest.approx(
        2 * math.log(2), abs=2e-3
    )
    assert KindTells.from_json(reader.to_json()) == reader


def test_a_rare_kind_tells_little_and_no_kind_tells_without_bound():
    reader = KindTells.fit(
        {"odd": {"fascist": 1}, "flood": {"fascist": 10_000}}, {"fascist": 3, "liberal": 4}
    )
    assert abs(reader.log_ratio["odd"]) < 0.7
    assert reader.log_ratio["flood"] == 2.0


def test_bad_reader_data_is_refused():
    with pytest.raises(ValueError):
        KindTells.from_json({"log_ratio": [1, 2]})


def test_the_committed_reader_knows_the_kinds_bots_say():
    assert KIND_TELLS.log_ratio, "bots/data/talk_kinds.json is missing or empty"
    assert all(abs(v) <= 2.0 for v in KIND_TELLS.log_ratio.values())
    assert any(k.startswith("defend") for k in KIND_TELLS.log_ratio)
