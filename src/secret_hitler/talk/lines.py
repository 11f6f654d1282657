"""Talk lines: what a seat can say at the table, as small immutable values with a JSON form.

One vocabulary for speaking and listening: a bot builds lines and every reader renders them in
his own language (``phrases.render``); the recogniser reads people's chat into the same lines.
Seats are 0-based, as everywhere in the engine; people see ``seat + 1`` or the seat's name.
A claim carries the fields of the engine's claim action (``Claim.to_action``).

Each kind's reasons, and the extra field (``other``, ``count`` or ``against``) each reason
needs, are in ``REASONS``: a reason names *why*, and the phrase sets word it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from ..engine.actions import (
    CLAIM,
    CLAIM_INVESTIGATION,
    CLAIM_PEEK,
    CLAIM_PRESIDENT_HAND,
    CLAIM_SIZES,
    CLAIM_SUBJECTS,
    Action,
)
from ..engine.errors import brief
from ..engine.types import Party, Policy

KNOWN = "known"  # said as a fact: only what the seat knows (its own investigation, its own hand)
HEDGED = "hedged"  # said as a belief
CERTAINTIES = (KNOWN, HEDGED)

# kind -> reason -> the fields that reason needs (and the only optional fields it may carry).
REASONS: dict[str, dict[str, tuple[str, ...]]] = {
    "accuse": {
        "investigated": (),  # the seat's own investigation found a fascist
        "conflict": ("other",),  # the target's claim does not fit other's
        "enacted_fascist": ("count",),  # count fascist policies passed as chancellor
        "voted_fascist_government": (),  # voted Ja on a government that passed a fascist policy
        "voted_failed_government": (),  # voted Ja on a government the table voted down
        "nominated_suspect": ("other",),  # nominated other, whom the speaker suspects
        "unlikely_claim": (),  # a claim the deck makes unlikely
        "claimed_by": ("other",),  # other says he investigated the target: fascist
        "lied_to_me": (),  # the speaker knows what he passed or received: the target lies
    },
    "trust": {
        "investigated": (),
        "enacted_liberal": ("count",),
        "consistent_claims": (),
        "not_hitler": (),  # elected chancellor after 3 fascist policies: "CNH"
        "voted_nein_fascist_government": (),
        "claimed_by": ("other",),  # other says he investigated the target: liberal
        "gave_me_liberal": (),  # the speaker knows: the target passed him a liberal policy
    },
    "defend": {  # ``against``: the accuser, for the reason that names him
        "told_truth": (),
        "forced": (),  # only fascist policies came to the speaker
        "liberal_record": ("count",),
        "check_me": (),
        "voted_nein": (),
        "deck": (),  # the deck is full of fascist policies
        "accuser_suspicious": ("against",),
    },
    "explain_vote": {
        "trust_government": (),
        "trust": ("other",),
        "distrust": ("other",),
        "tracker": (),  # the election tracker: avoid chaos
        "hitler_zone": (),  # after 3 fascist policies a Hitler chancellor wins
        "need_information": (),
    },
    "explain_nomination": {
        "trust": (),
        "investigated": (),
        "not_hitler": (),
        "enacted_liberal": ("count",),
        "test": (),
        "only_choice": (),
    },
    "call_out": {
        "enacted": (),  # a hand claim without the policy its government enacted
        "drew": (),  # a peek claim the speaker's own draw after it disproves
    },
}
# What a question asks: why the seat voted (``ja``: the vote the asker believes it cast),
# nominated, passed a policy, investigated or executed, what it drew (``claim``), why it
# suspects ``other`` (``accusation``), and the open questions a seat or the table is asked:
# whom it suspects, whom it takes for Hitler, whom it trusts, whom the asker should nominate.
QUESTION_TOPICS = (
    "vote",
    "nomination",
    "policy",
    "investigation",
    "execution",
    "claim",
    "accusation",
    "who_suspect",
    "who_hitler",
    "who_trust",
    "who_nominate",
)
#: The roles a seat may say it has (``RoleClaim``): secrethitler.io's game types' roles that a
#: player claims (docs/game-types.md). Merlin is claimed to bait the assassination or by a
#: fascist, Percival to shield Merlin, the Monarchist to be trusted with Hitler's execution; the
#: official roles are told by their party ("I'm liberal") or their claims, and nobody claims
#: Morgana.
CLAIMABLE_ROLES = ("merlin", "percival", "monarchist")
#: The topics that name a seat (``other``): the one nominated, investigated, executed, accused.
QUESTION_TOPICS_WITH_OTHER = frozenset({"nomination", "investigation", "execution", "accusation"})
_TOPIC_NEEDS_OTHER = QUESTION_TOPICS_WITH_OTHER


class InvalidLine(ValueError):
    """A talk line that does not fit the model; the message names the field."""

    code = "invalid_line"


def _parser(
    ok: Callable[[Any], bool], what: str, make: Callable[[Any], Any] = lambda v: v
) -> Callable[[Any, str], Any]:
    """A field reader: ``make(value)`` if ``ok(value)``, else ``InvalidLine`` naming it."""

    def parse(value: Any, name: str) -> Any:
        if not ok(value):
            raise InvalidLine(f"line field {name!r} must be {what}, not {brief(value)}")
        return make(value)

    return parse


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _choice(options: tuple[str, ...]) -> Callable[[Any, str], Any]:
    return _parser(lambda v: v in options, f"one of {', '.join(options)}", str)


_PARTIES = ("liberal", "fascist")
_seat = _parser(lambda v: _is_int(v) and v >= 0, "a seat number (0-based)")
_count = _parser(lambda v: _is_int(v) and 0 <= v <= 99, "an integer from 0 to 99")
_policies = _parser(
    lambda v: isinstance(v, (list, tuple)) and all(p in _PARTIES for p in v),
    "a list of 'liberal' and 'fascist'",
    lambda v: tuple(Policy(p) for p in v),
)


def _nested(value: Any, name: str) -> Line:
    return value if isinstance(value, _Line) else line_from_json(value)  # type: ignore[return-value]


# How each JSON field is read; the dataclasses below hold these names, nothing else.
_FIELDS: dict[str, Callable[[Any, str], Any]] = {
    "subject": _choice(CLAIM_SUBJECTS),
    "policies": _policies,
    "passed": _policies,
    "party": _parser(lambda v: v in _PARTIES, "'liberal' or 'fascist'", Party),
    "certainty": _choice(CERTAINTIES),
    "reason": _parser(lambda v: isinstance(v, str), "a string"),
    "ja": _parser(lambda v: isinstance(v, bool), "true or false"),
    "topic": _choice(QUESTION_TOPICS),
    "role": _choice(CLAIMABLE_ROLES),
    "count": _count,
    "variant": _count,
    "line": _nested,
}
SEAT_FIELDS = ("target", "other", "against", "to", "president", "chancellor", "believe")
for _name in SEAT_FIELDS:
    _FIELDS[_name] = _seat


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(line: object) -> tuple[str, ...]:
    """A kind's field names, looked up once (lines are made by the thousand when reading)."""
    cls = type(line)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    return names


class _Line:
    """Shared behaviour of every kind: JSON form, the seats it names, the reason's fields."""

    __slots__ = ()
    kind: ClassVar[str]

    def __post_init__(self) -> None:
        """Check every field and normalise it (``"fascist"`` -> ``Policy.FASCIST``, a list ->
        a tuple), so a line built in code is as sound as one read from JSON."""
        for name in _field_names(self):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, _FIELDS[name](value, name))
        self._check()

    def _check(self) -> None:
        """The rules that tie a kind's fields together: by default, its reason's."""
        if self.kind in REASONS:
            self._check_reason(getattr(self, "reason", None))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for name in _field_names(self):
            value = getattr(self, name)
            if value is None or (name == "variant" and value == 0):
                continue
            if isinstance(value, tuple):
                value = [p.value for p in value]
            elif isinstance(value, _Line):
                value = value.to_json()
            elif isinstance(value, Party):
                value = value.value
            out[name] = value
        return out

    def seats(self) -> tuple[int, ...]:
        """Every seat the line names (nested lines included), for a range check."""
        out: list[int] = []
        for name in _field_names(self):
            value = getattr(self, name)
            if name in SEAT_FIELDS and value is not None:
                out.append(value)
            elif isinstance(value, _Line):
                out.extend(value.seats())
        return tuple(out)

    def _check_reason(self, reason: str | None) -> None:
        table = REASONS[self.kind]
        needed: tuple[str, ...] = ()
        if reason is not None:
            if reason not in table:
                raise InvalidLine(
                    f"a {self.kind!r} line's reason must be one of {', '.join(table)}, "
                    f"not {brief(reason)}"
                )
            needed = table[reason]
        for name in ("other", "count", "against"):
            if hasattr(self, name) and (getattr(self, name) is not None) != (name in needed):
                why = "needs" if name in needed else "takes no"
                raise InvalidLine(f"a {self.kind!r} line with reason {reason!r} {why} {name!r}")


@dataclass(frozen=True, slots=True)
class Claim(_Line):
    """A claim: the fields of the engine's claim action. ``passed``: the two policies a president
    says he handed on (optional, ``president_hand`` only). Hands are kept as said; peeks in
    order, top first."""

    kind: ClassVar[str] = "claim"
    subject: str
    policies: tuple[Policy, ...] | None = None
    target: int | None = None
    party: Party | None = None
    passed: tuple[Policy, ...] | None = None
    variant: int = 0

    def _check(self) -> None:
        if self.subject == CLAIM_INVESTIGATION:
            if self.target is None or self.party is None or self.policies or self.passed:
                raise InvalidLine("an investigation claim has a target and a party, no policies")
            return
        size = CLAIM_SIZES[self.subject]
        if (
            self.policies is None
            or len(self.policies) != size
            or self.target is not None
            or self.party is not None
        ):
            raise InvalidLine(f"a {self.subject} claim has {size} policies and no target")
        if self.passed is not None:
            if self.subject != CLAIM_PRESIDENT_HAND or len(self.passed) != 2:
                raise InvalidLine("'passed' is the two policies of a president_hand claim")
            rest = list(self.policies)
            for p in self.passed:
                if p not in rest:
                    raise InvalidLine("'passed' must be two of the three claimed policies")
                rest.remove(p)

    def to_action(self, seat: int) -> Action:
        """The engine's claim action for ``seat`` (``passed`` is talk only)."""
        if self.subject == CLAIM_INVESTIGATION:
            assert self.target is not None and self.party is not None
            return Action.claim_investigation(seat, self.target, self.party)
        assert self.policies is not None
        return Action.claim_policies(seat, self.subject, self.policies)

    @staticmethod
    def from_action(action: Action) -> Claim:
        """The talk line of an engine claim action (to say it in words)."""
        if action.type != CLAIM or action.subject is None:
            raise InvalidLine(f"not a claim action: {brief(action)}")
        return Claim(action.subject, action.policies, action.target, action.party)

    @property
    def is_peek(self) -> bool:
        return self.subject == CLAIM_PEEK


@dataclass(frozen=True, slots=True)
class _Judgement(_Line):
    """What the speaker thinks of ``target``, with a certainty and maybe a reason."""

    target: int
    certainty: str = HEDGED
    reason: str | None = None
    other: int | None = None
    count: int | None = None
    variant: int = 0


@dataclass(frozen=True, slots=True)
class Accuse(_Judgement):
    """Suspicion (``hedged``) or accusation (``known``: only what the seat knows) of ``target``."""

    kind: ClassVar[str] = "accuse"


@dataclass(frozen=True, slots=True)
class Trust(_Judgement):
    """Trust (``hedged``) or a vouch (``known``, e.g. the seat's own investigation)."""

    kind: ClassVar[str] = "trust"


@dataclass(frozen=True, slots=True)
class HitlerGuess(_Line):
    """Who the speaker believes (or, a fascist, knows) is Hitler."""

    kind: ClassVar[str] = "hitler_guess"
    target: int
    certainty: str = HEDGED
    variant: int = 0


@dataclass(frozen=True, slots=True)
class MerlinGuess(_Line):
    """Who the speaker believes (or says he knows) is Merlin (Avalon SH): what the table argues
    over before Hitler's assassination."""

    kind: ClassVar[str] = "merlin_guess"
    target: int
    certainty: str = HEDGED
    variant: int = 0


@dataclass(frozen=True, slots=True)
class RoleClaim(_Line):
    """The speaker says he has one of the game types' roles (``CLAIMABLE_ROLES``): "I'm
    Percival", "я Мерлин", "我是保皇派". Talk only: the engine has no claim of a role."""

    kind: ClassVar[str] = "role_claim"
    role: str
    variant: int = 0


@dataclass(frozen=True, slots=True)
class Defend(_Line):
    """The speaker defends himself (``against``: his accuser, when the reason names him)."""

    kind: ClassVar[str] = "defend"
    reason: str | None = None
    against: int | None = None
    count: int | None = None
    variant: int = 0


@dataclass(frozen=True, slots=True)
class ExplainVote(_Line):
    """Why the speaker voted Ja (``ja``) or Nein."""

    kind: ClassVar[str] = "explain_vote"
    ja: bool
    reason: str | None = None
    other: int | None = None
    variant: int = 0


@dataclass(frozen=True, slots=True)
class ExplainNomination(_Line):
    """Why the speaker, as president, nominated ``target``."""

    kind: ClassVar[str] = "explain_nomination"
    target: int
    reason: str | None = None
    count: int | None = None
    variant: int = 0


@dataclass(frozen=True, slots=True)
class Conflict(_Line):
    """The claims of a government do not fit; ``believe``: the side the speaker takes.
    Both seats or neither ("conflict!" with no government known)."""

    kind: ClassVar[str] = "conflict"
    president: int | None = None
    chancellor: int | None = None
    believe: int | None = None
    variant: int = 0

    def _check(self) -> None:
        if (self.president is None) != (self.chancellor is None):
            raise InvalidLine("a conflict names both the president and the chancellor, or neither")
        if self.believe is not None and self.believe not in (self.president, self.chancellor):
            raise InvalidLine("'believe' must be the conflict's president or chancellor")


@dataclass(frozen=True, slots=True)
class Question(_Line):
    """A question to ``to`` (or to the table): why did you vote (``ja``), nominate, pass a
    policy, investigate or execute (``other``: the seat nominated, investigated, executed),
    what did you draw, why do you suspect ``other``; whom do you suspect, take for Hitler,
    trust, whom should I nominate (``QUESTION_TOPICS``)."""

    kind: ClassVar[str] = "question"
    topic: str
    to: int | None = None
    ja: bool | None = None
    other: int | None = None
    variant: int = 0

    def _check(self) -> None:
        if self.ja is not None and self.topic != "vote":
            raise InvalidLine("only a question about a vote has 'ja'")
        if (self.other is not None) != (self.topic in _TOPIC_NEEDS_OTHER):
            raise InvalidLine(
                f"'other' is needed by and only by the topics {', '.join(sorted(_TOPIC_NEEDS_OTHER))}"
            )


@dataclass(frozen=True, slots=True)
class Answer(_Line):
    """A reply to ``to``'s question: any line but a question or an answer."""

    kind: ClassVar[str] = "answer"
    line: Line
    to: int | None = None

    def _check(self) -> None:
        if not isinstance(self.line, _Line) or isinstance(self.line, (Question, Answer)):
            raise InvalidLine("an answer's 'line' is a talk line other than a question or answer")


#: The questions whose premise a ``Correct`` answer can set right (the "why did you ..." ones).
CORRECTABLE_TOPICS = (
    "vote",
    "nomination",
    "policy",
    "investigation",
    "execution",
    "claim",
    "accusation",
)
#: The topics whose ``Correct`` may say what the speaker did instead: the seat it investigated
#: or shot (``target``); a nomination says it with its ``ExplainNomination``.
_CORRECT_TARGET_TOPICS = frozenset({"investigation", "execution"})


@dataclass(frozen=True, slots=True)
class Correct(_Line):
    """An answer that says a question got the facts wrong, and what the speaker did instead, in
    the past tense ("I voted Ja, not Nein: ...", "I nominated 2, not 3: ...", "I haven't
    nominated anyone"). ``topic``: the question's (``CORRECTABLE_TOPICS``); ``line``: what the
    speaker did, explained, for a vote (``ExplainVote``) or a nomination (``ExplainNomination``),
    None when it did nothing of the kind; ``other``: the seat the question named (its topics
    that name one); ``target``: the seat the speaker investigated or shot instead (None: none)."""

    kind: ClassVar[str] = "correct"
    topic: str
    line: Line | None = None
    other: int | None = None
    target: int | None = None
    variant: int = 0

    def _check(self) -> None:
        if self.topic not in CORRECTABLE_TOPICS:
            raise InvalidLine(
                f"a 'correct' line's topic must be one of {', '.join(CORRECTABLE_TOPICS)}"
            )
        wanted = {"vote": ExplainVote, "nomination": ExplainNomination}.get(self.topic)
        if self.line is not None and (wanted is None or not isinstance(self.line, wanted)):
            raise InvalidLine(
                "a 'correct' line's 'line' is an explain_vote (topic vote) or an "
                "explain_nomination (topic nomination)"
            )
        if (self.other is not None) != (self.topic in _TOPIC_NEEDS_OTHER):
            raise InvalidLine(
                f"'other' is needed by and only by the topics {', '.join(sorted(_TOPIC_NEEDS_OTHER))}"
            )
        if self.target is not None and self.topic not in _CORRECT_TARGET_TOPICS:
            raise InvalidLine("only an investigation or execution 'correct' line has 'target'")


@dataclass(frozen=True, slots=True)
class CallOut(_Line):
    """The speaker shows that ``target``'s claim (``subject`` and ``policies``, as claimed)
    cannot be true. ``reason`` ``enacted``: a hand claim without the policy its government
    enacted, as everyone saw; ``drew``: a peek claim the next draw disproves, which the speaker
    saw (it drew those three as president, or received two of them as chancellor)."""

    kind: ClassVar[str] = "call_out"
    target: int
    subject: str
    policies: tuple[Policy, ...]
    reason: str
    variant: int = 0

    def _check(self) -> None:
        self._check_reason(self.reason)
        if (
            len(self.policies) != CLAIM_SIZES.get(self.subject, -1)
            or self.subject == CLAIM_INVESTIGATION
        ):
            raise InvalidLine("a 'call_out' line names a policy claim with its policies")
        if (self.reason == "drew") != (self.subject == CLAIM_PEEK):
            raise InvalidLine(
                "a 'call_out' line's reason 'drew' goes with a peek, 'enacted' with a hand"
            )


@dataclass(frozen=True, slots=True)
class Suggest(_Line):
    """Whom the speaker would nominate chancellor (an answer to "who should I nominate?")."""

    kind: ClassVar[str] = "suggest"
    target: int
    variant: int = 0


Line: TypeAlias = (
    Claim
    | Accuse
    | Trust
    | HitlerGuess
    | Defend
    | ExplainVote
    | ExplainNomination
    | Conflict
    | Question
    | Answer
    | Correct
    | CallOut
    | Suggest
    | MerlinGuess
    | RoleClaim
)
KINDS: dict[str, type[Line]] = {
    cls.kind: cls
    for cls in (
        Claim,
        Accuse,
        Trust,
        HitlerGuess,
        Defend,
        ExplainVote,
        ExplainNomination,
        Conflict,
        Question,
        Answer,
        Correct,
        CallOut,
        Suggest,
        MerlinGuess,
        RoleClaim,
    )
}


def line_from_json(data: Any, *, players: int | None = None) -> Line:
    """Read a line's JSON form, or raise ``InvalidLine`` naming the field; ``players`` also
    checks that every seat it names is at the table."""
    if not isinstance(data, Mapping):
        raise InvalidLine("a talk line must be a JSON object")
    cls = KINDS.get(data.get("kind"))  # type: ignore[arg-type]
    if cls is None:
        raise InvalidLine(f"line field 'kind' must be one of {', '.join(KINDS)}")
    names = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(names) - {"kind"})
    if unknown:
        raise InvalidLine(f"a {cls.kind!r} line has no field {unknown[0]!r}")
    args: dict[str, Any] = {}
    for name, field in names.items():
        if name in data:
            args[name] = _FIELDS[name](data[name], name)
        elif field.default is dataclasses.MISSING:
            raise InvalidLine(f"a {cls.kind!r} line needs the field {name!r}")
    line: Line = cls(**args)
    if players is not None:
        for seat in line.seats():
            if seat >= players:
                raise InvalidLine(f"seat {seat} is not at a table of {players}")
    return line
