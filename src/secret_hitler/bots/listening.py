"""How a listening bot reads the table's talk once liars talk like liberals (issue 39 point 3).

A fascist that says what a liberal would say gives nothing away by the *kind* of line it uses,
so what a listener weighs is how the lines sit with the rest of the game, each as a
log-likelihood per world (role assignment), weighed by the fitted ``TalkModel``
(``bots/data/talk_model.json``, ``benchmarks/fit_talk_model.py``):

- **who names whom, against what the table saw** (``signal_loglik``): a stance (an accusation,
  trust, a Hitler read) names one seat among the other living ones; the weight of each
  candidate depends on the speaker's and its own role (the ``choice`` tables) and on what the
  table knows of it then (``CONTEXTS``: a fascist record, a liberal record, accused by another
  seat, nothing; and whether it is the likeliest fascist of them in the listener's reading):
  who contradicts the table (trusting a seat it saw pass a fascist policy, accusing another
  than the likeliest), who defends whom (trusting a seat another accuses) and who piles on;
- **consistency** (``vote_loglik``): a seat's vote on a government with a seat it spoke for or
  against, against its own words or with them (``consistency`` tables: P(vote | what it said,
  its role, the member's role) over P(vote | their roles)): a fascist who bussed a teammate and
  then elects him says so;
- **evasion** (``silence_loglik``): a question put to a seat by name and left unanswered until
  the next election's votes (``TalkMemory.asked``), or answered, weighed by how often each role
  leaves one unanswered (``UNANSWERED``, fitted by ``benchmarks/fit_talk_silence.py`` on
  games where every seat talks and listens). A liberal answers what it is asked; a fascist
  that keeps quiet where an answer would cost it says so by its silence.

``TalkMemory`` is what one listener remembers of the talk to read it so: who accused whom, and
each seat's last stance on each other seat. It is small, copied with the posterior it belongs
to, and fed only by heard lines, so a silent game never touches it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib.resources import files
from typing import Any

import numpy as np

from ..engine.public import PublicState
from ..talk.said import ACCUSE, HITLER, TRUST

#: What the table knows of a seat when a line names it, most telling first (``record``)...
RECORDS = ("fascist_record", "liberal_record", "accused", "none")
#: ...and whether it is the likeliest fascist of the seats the speaker could name, in the
#: listener's own reading then (a liar who bends a line names another): ``context``.
CONTEXTS = tuple(f"{record}|{rank}" for record in RECORDS for rank in ("top", "other"))
#: A stance read for consistency: for (trust) or against (an accusation, a Hitler read).
FOR, AGAINST = "for", "against"
DIRECTIONS = (FOR, AGAINST)


def direction(stance: str) -> str:
    return FOR if stance == TRUST else AGAINST


def context(
    table: PublicState, accused_by: Sequence[int], speaker: int, seat: int, top: bool
) -> str:
    """What the table knows of ``seat`` now (its record: it was chancellor when a fascist
    policy passed, it sat in a government that passed a liberal one, another seat than
    ``speaker`` accused it (``accused_by``), or nothing of these), and whether it is the
    likeliest fascist of the seats named (``top``)."""
    return f"{record(table, accused_by, speaker, seat)}|{'top' if top else 'other'}"


def record(table: PublicState, accused_by: Sequence[int], speaker: int, seat: int) -> str:
    """``seat``'s record in ``RECORDS`` (see ``context``)."""
    fascist = liberal = False
    for s in table.sessions:
        if s.enacted == "fascist" and s.chancellor == seat:
            fascist = True
        elif s.enacted == "liberal" and seat in (s.president, s.chancellor):
            liberal = True
    if fascist:
        return "fascist_record"
    if liberal:
        return "liberal_record"
    if any(a != speaker for a in accused_by):
        return "accused"
    return "none"


def by_role(rates: dict[str, float]) -> tuple[float, ...]:
    """Per role index (liberal, fascist, Hitler) the rate of its party (``liberal`` or
    ``fascist_party``)."""
    return (rates["liberal"], rates["fascist_party"], rates["fascist_party"])


def load_unanswered(name: str = "talk_silence") -> tuple[float, ...]:
    """P(a question put by name is left unanswered | the asked seat's party), per role index
    (``by_role``), from ``bots/data/NAME.json`` (its ``command`` wrote it)."""
    data = json.loads(files(__package__).joinpath("data", f"{name}.json").read_text("utf-8"))
    return by_role({k: float(v) for k, v in data["unanswered"].items()})


#: How often a seat of each party leaves a question by name unanswered, per role index.
UNANSWERED = load_unanswered()


class TalkMemory:
    """What a listener remembers of the talk: who accused whom (``accused``: target -> the
    speakers), each speaker's last stance on each seat (``stances``: (speaker, target) ->
    for or against), and the questions put to a seat by name not answered yet (``asked``:
    asked seat -> the askers)."""

    __slots__ = ("accused", "asked", "stances")

    def __init__(self) -> None:
        self.accused: dict[int, tuple[int, ...]] = {}
        self.stances: dict[tuple[int, int], str] = {}
        self.asked: dict[int, tuple[int, ...]] = {}

    def copy(self) -> TalkMemory:
        other = TalkMemory()
        other.accused = dict(self.accused)
        other.stances = dict(self.stances)
        other.asked = dict(self.asked)
        return other

    def ask(self, asker: int, seat: int) -> None:
        if asker not in self.asked.get(seat, ()):
            self.asked[seat] = (*self.asked.get(seat, ()), asker)

    def answered(self, seat: int, asker: int) -> bool:
        """Whether ``seat``'s answer to ``asker`` answers a question still open (it is closed)."""
        askers = self.asked.get(seat, ())
        if asker not in askers:
            return False
        rest = tuple(a for a in askers if a != asker)
        if rest:
            self.asked[seat] = rest
        else:
            del self.asked[seat]
        return True

    def note(self, speaker: int, stance: str, target: int) -> None:
        if stance in (ACCUSE, HITLER) and speaker not in self.accused.get(target, ()):
            self.accused[target] = (*self.accused.get(target, ()), speaker)
        self.stances[(speaker, target)] = direction(stance)


def signal_loglik(
    R: np.ndarray,
    speaker: int,
    target: int,
    cands: Sequence[int],
    contexts: Sequence[str],
    choice: Any,
    by_context: Any,
) -> np.ndarray:
    """Log-likelihood per world of ``speaker`` naming ``target`` among ``cands`` (their
    ``contexts`` in the same order), each candidate weighed by ``choice[speaker role][its
    role]`` times ``by_context[its context][speaker role][its role]``, relative to a uniform
    choice."""
    base = np.asarray(choice, dtype=float)  # [speaker role, target role]
    rs = R[:, speaker]
    den = np.zeros(len(R))
    mine = np.ones(len(R))
    for c, ctx in zip(cands, contexts, strict=True):
        table = base * np.asarray(by_context[CONTEXTS.index(ctx)], dtype=float)
        w = table[rs, R[:, c]]
        den += w
        if c == target:
            mine = w
    out: np.ndarray = np.log(mine * len(cands) / den)
    return out


def vote_loglik(
    R: np.ndarray, voter: int, member: int, said: str, ja: bool, tables: Any
) -> np.ndarray:
    """Log-likelihood per world of ``voter``'s vote (``ja``) on a government with ``member``,
    having said ``said`` (for or against) of it: ``tables[direction][ja or nein][voter role]
    [member role]``."""
    table = np.asarray(tables[DIRECTIONS.index(said)][0 if ja else 1], dtype=float)
    out: np.ndarray = np.log(table[R[:, voter], R[:, member]])
    return out


def silence_loglik(R: np.ndarray, seat: int, silent: bool, rates: Sequence[float]) -> np.ndarray:
    """Log-likelihood per world of ``seat`` leaving a question put to it by name unanswered
    (``silent``) or answering it, ``rates[its role]`` being how often its role leaves one
    unanswered (``UNANSWERED``)."""
    p = np.asarray(rates, dtype=float)[R[:, seat]]
    out: np.ndarray = np.log(p if silent else 1.0 - p)
    return out


__all__ = [
    "AGAINST",
    "CONTEXTS",
    "DIRECTIONS",
    "FOR",
    "RECORDS",
    "TalkMemory",
    "UNANSWERED",
    "by_role",
    "context",
    "load_unanswered",
    "silence_loglik",
    "record",
    "direction",
    "signal_loglik",
    "vote_loglik",
]
