"""The talk observation channel of the research environment: what was said at the table, as a
fixed-size vector of structured signals (never free text).

Lines are ``secret_hitler.talk`` lines said by a seat (``SecretHitlerEnv.say``); a caller with
free text reads it first with ``talk.recognise``. Each line is read as its signals
(``talk.said.signals``: the same reading the listening bots weigh) and its claim, and kept as
the speaker's latest stance. Seats are absolute slots of ``MAX_SEATS``, as in the observation,
so the vector has one size and meaning for 5 to 10 players. Every value is in [0, 1]; a
certainty is 1 for ``known`` and 0.5 for ``hedged``. docs/env.md, "Talk", has the layout.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..talk.lines import KNOWN, QUESTION_TOPICS, Claim, Line, Question
from ..talk.said import ACCUSE, HITLER, TRUST, signals
from .encoding import MAX_SEATS

_STANCES = (ACCUSE, TRUST, HITLER)
_PARTIES = ("liberal", "fascist")

#: The talk vector's fields: name, size, meaning (offsets follow in this order).
TALK_FIELDS: tuple[tuple[str, int, str], ...] = (
    (
        "stance",
        MAX_SEATS * MAX_SEATS * len(_STANCES),
        "per speaker (10) and target (10): the speaker's latest accuse, trust, hitler read of "
        "the target (3 each; 1 known, 0.5 hedged); an accusation clears trust and back",
    ),
    (
        "hand_claims",
        MAX_SEATS * 7,
        "per speaker: his latest hand claim said in the chat, liberals among a president's 3 "
        "(one-hot 0-3) and among a chancellor's 2 (one-hot 0-2)",
    ),
    (
        "investigation_claims",
        MAX_SEATS * MAX_SEATS * len(_PARTIES),
        "per speaker and target: the party he said he found investigating the target "
        "(liberal, fascist)",
    ),
    (
        "questions",
        MAX_SEATS * len(QUESTION_TOPICS),
        f"per asker: a question put to this seat, by topic ({', '.join(QUESTION_TOPICS)}), "
        "until this seat next speaks",
    ),
)
TALK_SIZE = sum(size for _, size, _ in TALK_FIELDS)


def talk_layout() -> dict[str, tuple[int, int, str]]:
    """Each field's (offset, size, meaning) in the talk vector."""
    out, off = {}, 0
    for name, size, doc in TALK_FIELDS:
        out[name] = (off, size, doc)
        off += size
    return out


class TalkChannel:
    """The talk of one game so far, encoded for any seat (``encode``)."""

    def __init__(self) -> None:
        self.stance = np.zeros((MAX_SEATS, MAX_SEATS, len(_STANCES)), dtype=np.float32)
        self.hands = np.zeros((MAX_SEATS, 7), dtype=np.float32)
        self.investigations = np.zeros((MAX_SEATS, MAX_SEATS, len(_PARTIES)), dtype=np.float32)
        self.questions = np.zeros((MAX_SEATS, MAX_SEATS, len(QUESTION_TOPICS)), dtype=np.float32)

    def say(self, seat: int, line: Line) -> None:
        """``seat`` said ``line``: its stances, its claim, its question; a seat that speaks has
        answered the questions put to it."""
        self.questions[seat] = 0.0
        for sig in signals(line):
            value = 1.0 if sig.certainty == KNOWN else 0.5
            k = _STANCES.index(sig.stance)
            if sig.stance in (ACCUSE, TRUST):
                self.stance[seat, sig.target, :2] = 0.0
            self.stance[seat, sig.target, k] = value
        if isinstance(line, Claim):
            self._claim(seat, line)
        elif isinstance(line, Question) and line.to is not None:
            self.questions[line.to, seat] = 0.0
            self.questions[line.to, seat, QUESTION_TOPICS.index(line.topic)] = 1.0

    def _claim(self, seat: int, claim: Claim) -> None:
        if claim.subject == "investigation":
            assert claim.target is not None and claim.party is not None
            self.investigations[seat, claim.target] = 0.0
            self.investigations[seat, claim.target, _PARTIES.index(claim.party.value)] = 1.0
            return
        policies: Sequence[object] = claim.policies or ()
        liberals = sum(1 for p in policies if getattr(p, "value", p) == "liberal")
        if claim.subject == "president_hand":
            self.hands[seat, :4] = 0.0
            self.hands[seat, liberals] = 1.0
        elif claim.subject == "chancellor_hand":
            self.hands[seat, 4:] = 0.0
            self.hands[seat, 4 + liberals] = 1.0

    def encode(self, seat: int) -> np.ndarray:
        """The talk vector as ``seat`` observes it (float32[TALK_SIZE]): everything said is
        public but the questions, which are those put to ``seat``."""
        return np.concatenate(
            (
                self.stance.ravel(),
                self.hands.ravel(),
                self.investigations.ravel(),
                self.questions[seat].ravel(),
            )
        )


__all__ = ["TALK_FIELDS", "TALK_SIZE", "TalkChannel", "talk_layout"]
