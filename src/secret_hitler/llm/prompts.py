"""Prompts: versioned templates in files, and the text rendering of one seat's view.

``prompts/<version>/<language>/`` holds ``system.txt`` (the game and this table's rules),
``decide.txt`` (a turn), ``claims.txt`` (a claim window), as ``string.Template`` text with
``$fields``, and ``phrases.json`` (every other sentence the renderer builds, ``str.format``
fields). The game's events are said as the table page's log says them (``talk.narrate``: one
narrator, the web client's catalogs), except in v1, which keeps its own ``event.*`` sentences
(``prompts_v1.py``, frozen).
A sentence with a count may come in plural forms, ``key#one``, ``key#few``, ``key#many``,
``key#other``, chosen by the CLDR rules of its language (``talk.phrases.plural_category``, the
web client's and the talk phrases' rules); ``count.<noun>`` phrases say a number with its noun
("1 Fascist", "2 фашиста") for sentences with two counts (fields ``n_<noun>``). A version is
frozen once records name it: a change of wording is a new version (``v2`` corrected the
plurals of ``v1``), and every record carries the version and a digest of its files and, for a
version that narrates with the web catalogs, of the catalog entries the narrator uses
(``PromptSet.digest``), so two runs can be told apart even if someone edited a version or a
log sentence in place.

Seats are numbered from 0, in words as in the actions' JSON (``FIRST_SEAT``), and a model's
free text is read in the same numbering (``server.table.models``).

Only the seat's ``View`` is rendered (its fields and the events it observed), so a prompt
holds exactly what the seat may know; the rules come from the view (``view.rules``, resolved
by the engine for the table size) and the track lengths from the engine's constants.

It is past 600 lines because the ``Renderer`` says a whole view, section by section (the
rules, the seats, the history, the open claims, the decision and its options), in one prompt
version's words: kept in one class, one version's wording is read in one place.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from string import Template
from typing import Any

from ..engine import PRESETS, Action, Rules, View
from ..engine import actions as A
from ..engine.catalog import game_type_settings
from ..engine.claims import ClaimLike
from ..engine.events import TypedEvent
from ..engine.settings import FASCIST_TRACK, LIBERAL_TRACK
from ..engine.types import Role
from ..talk import line_from_json, render
from ..talk import narrate as narration
from ..talk.narrate import TOLD_KINDS, Narrator
from ..talk.phrases import plural_category
from .answers import claims_schema, decision_schema
from .endpoints import LANGUAGES
from .prompts_v1 import event_v1
from .talk import ChatLine

PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"
TEMPLATES = ("system", "decide", "claims")
#: The number a prompt gives the first seat (the engine's, the actions' JSON's): a model's
#: "seat 3" in its free text is read with the same numbering.
FIRST_SEAT = 0
# The resolved settings a prompt states in sentences; the others are listed when they differ
# from the official rules.
_SPOKEN = frozenset(
    {
        "preset",
        "powers",
        "fascists",
        "hitler_knows_fascists",
        "hitler_zone",
        "veto_zone",
        "deck",
        "start_track",
    }
)


#: The versions that say the game's events in sentences of their own (``event.*`` phrases,
#: ``prompts_v1.py``), frozen with them; every later version narrates with ``talk.narrate``.
OWN_NARRATION = frozenset({"v1"})

#: secrethitler.io's game types (docs/game-types.md): the engine's settings a prompt states in
#: sentences of their own (``rules.avalon``, ...), and the versions written before them, which
#: have no words for their roles and steps and so refuse a table that plays one
#: (``rules_problem``).
GAME_TYPE_SETTINGS = frozenset(game_type_settings())
NO_GAME_TYPES = frozenset({"v1"})
#: The role cards of the official game, which the players line already counts.
_OFFICIAL_ROLES = frozenset({Role.LIBERAL.value, Role.FASCIST.value, Role.HITLER.value})


#: The words a narrating version reads from the web catalogs rather than its own phrases: the
#: game's terms, which every sentence uses as they are (phrase key -> catalog key).
SHARED_WORDS = {
    "sep": "list.separator",
    **{f"role.{r.value}": f"role.{r.value}" for r in Role},
    **{f"power.{p}": f"power.{p}" for p in ("investigate", "special_election", "peek", "execute")},
}


class PromptError(ValueError):
    """An unknown prompt version or language, or a template set with a missing part."""


@dataclass(frozen=True, slots=True)
class PromptSet:
    version: str
    language: str
    templates: Mapping[str, Template]
    phrases: Mapping[str, str]
    digest: str  # sha256 of the files (and the narrator's catalog part), first 16 hex digits
    narrated: bool = True  # events said by ``talk.narrate`` (False: the version's own words)

    @property
    def game_types(self) -> bool:
        """Whether this version knows secrethitler.io's game types (their roles, the
        assassination, no top-decking, rebalanced tables)."""
        return self.version not in NO_GAME_TYPES

    def say(self, key: str, count: int | None = None, /, **values: Any) -> str:
        """The phrase ``key`` with ``values``; with ``count`` (also a value), its plural form
        for that number when the phrase has forms (``key#<category>``, else ``key#other``)."""
        if count is not None:
            values["count"] = count
            form = f"{key}#{plural_category(self.language, count)}"
            if form in self.phrases:
                key = form
            elif f"{key}#other" in self.phrases:
                key = f"{key}#other"
        return self.phrases[key].format_map(values)

    def counted(self, noun: str, count: int) -> str:
        """``count`` with its noun (``count.<noun>``: "1 Fascist", "3 Liberals"); the bare
        number in a version without it (whose sentences do not ask for it)."""
        key = f"count.{noun}"
        if key in self.phrases or f"{key}#{plural_category(self.language, count)}" in self.phrases:
            return self.say(key, count)
        return str(count)

    def describe(self) -> dict[str, str]:
        return {"version": self.version, "language": self.language, "digest": self.digest}


def rules_problem(prompts: PromptSet, rules: Any) -> str | None:
    """Why ``prompts`` cannot describe a table of ``rules`` (a ``Rules``, or the JSON a record
    or view holds), or None: a version written before the game types has no words for their
    roles, the assassination or their rules, and would misstate the table."""
    if prompts.game_types:
        return None
    parsed = rules if isinstance(rules, Rules) else Rules.from_json(rules)
    used = sorted(
        name for name in GAME_TYPE_SETTINGS if getattr(parsed, name) != getattr(Rules(), name)
    )
    if not used:
        return None
    return (
        f"prompt {prompts.version} was written before secrethitler.io's game types and cannot "
        f"describe a table with {', '.join(used)}; use prompt v2 or later"
    )


def prompt_versions() -> list[str]:
    return sorted(p.name for p in PROMPTS_DIR.iterdir() if p.is_dir())


@functools.cache
def load_prompts(version: str, language: str) -> PromptSet:
    """The templates of ``version`` in ``language``; ``PromptError`` if there are none."""
    if version not in prompt_versions():
        raise PromptError(
            f"no prompt version {version[:20]!r}; have {', '.join(prompt_versions())}"
        )
    if language not in LANGUAGES:
        raise PromptError(f"no language {language[:20]!r}; have {', '.join(LANGUAGES)}")
    folder = PROMPTS_DIR / version / language
    digest = hashlib.sha256()
    templates: dict[str, Template] = {}
    for name in TEMPLATES:
        path = folder / f"{name}.txt"
        if not path.is_file():
            raise PromptError(f"prompt {version}/{language} has no {name}.txt")
        text = path.read_text(encoding="utf-8")
        digest.update(text.encode())
        templates[name] = Template(text)
    raw = (folder / "phrases.json").read_text(encoding="utf-8")
    digest.update(raw.encode())
    phrases = json.loads(raw)
    narrated = version not in OWN_NARRATION
    if narrated:
        part = narration.catalog_part(language)
        digest.update(json.dumps(part, ensure_ascii=False, sort_keys=True).encode())
        phrases = {key: part[word] for key, word in SHARED_WORDS.items()} | phrases
    return PromptSet(version, language, templates, phrases, digest.hexdigest()[:16], narrated)


class Renderer:
    """The prompt texts of one seat, in one language."""

    def __init__(self, prompts: PromptSet) -> None:
        self.p: PromptSet = prompts

    # -------------------------------------------------------------------- words
    def seat(self, view: View, seat: int | None) -> str:
        if seat is None:
            return self.p.say("nobody")
        names = view.names
        number = seat + FIRST_SEAT
        if names is not None and 0 <= seat < len(names):
            return self.p.say("seat_named", seat=number, name=names[seat])
        return self.p.say("seat", seat=number)

    def seats(self, view: View, seats: Sequence[int]) -> str:
        if not seats:
            return self.p.say("nobody")
        return self.p.say("sep").join(self.seat(view, s) for s in seats)

    def policies(self, policies: Sequence[str]) -> str:
        return self.p.say("sep").join(self.p.say(f"policy.{p}") for p in policies)

    # -------------------------------------------------------------------- rules
    def rules(self, view: View) -> str:
        r = view.rules
        say = self.p.say
        self._check(view)
        fascists = int(r["fascists"])
        deck, start = self._setup(view)
        lines = [
            say("rules.preset", preset=r["preset"]),
            say(
                "rules.players",
                players=view.players,
                liberals=view.players - fascists - 1,
                fascists=fascists,
                n_liberals=self.p.counted("liberals", view.players - fascists - 1),
                n_fascists=self.p.counted("fascists", fascists),
            ),
            say("rules.win", liberal=LIBERAL_TRACK, fascist=FASCIST_TRACK),
            say(
                "rules.board",
                slots=say("sep").join(
                    say("pair", a=i + 1, b=say("power." + (p or "none")))
                    for i, p in enumerate(view.board)
                ),
            ),
            say("rules.hitler_zone", view.hitler_zone),
            say("rules.veto_zone", view.veto_zone),
            say("rules.hitler_knows" if r["hitler_knows_fascists"] else "rules.hitler_blind"),
            say("rules.deck", **self._policies(*deck)),
            say("rules.chaos", view.chaos_at),
        ]
        if any(start):
            lines.append(say("rules.start_track", **self._policies(*start)))
        spoken = _SPOKEN
        if self.p.game_types:
            lines.extend(self._game_types(view))
            spoken = _SPOKEN | GAME_TYPE_SETTINGS
        official = PRESETS["official"].resolved(view.players)
        other = {k: v for k, v in r.items() if k not in spoken and official.get(k) != v}
        if other:
            lines.append(say("rules.differences", settings=json.dumps(other, ensure_ascii=False)))
        return "\n".join(f"- {line}" for line in lines)

    def _check(self, view: View) -> None:
        """Refuse a table this version cannot describe (``rules_problem``)."""
        if not self.p.game_types:
            problem = rules_problem(self.p, view.rules)
            if problem is not None:
                raise PromptError(problem)

    def _setup(self, view: View) -> tuple[tuple[int, int], tuple[int, int]]:
        """The deck and the start of the tracks (liberal, fascist) this table plays: the
        engine resolves a rebalanced table's for its size (``Rules.deck_for``,
        ``start_track_for``); the view's ``rules`` state them as set."""
        r = view.rules
        if not self.p.game_types or view.players not in r.get("rebalanced", ()):
            deck, start = r["deck"], r["start_track"]
            return (deck["liberal"], deck["fascist"]), (start["liberal"], start["fascist"])
        rules = Rules.from_json(dict(r))
        return rules.deck_for(view.players), rules.start_track_for(view.players)

    def _game_types(self, view: View) -> list[str]:
        """The rules of secrethitler.io's game types this table plays, in sentences: the role
        cards where special roles are dealt, then each game type's rule."""
        r, say = view.rules, self.p.say
        cards = view.composition
        lines = []
        if set(cards) - _OFFICIAL_ROLES:
            lines.append(
                say(
                    "rules.composition",
                    cards=say("sep").join(self._cards(role, n) for role, n in cards.items()),
                )
            )
        if r["avalon"] != "off":
            lines.append(say("rules.avalon"))
        if Role.PERCIVAL.value in cards:
            lines.append(say("rules.percival"))
        if Role.MONARCHIST.value in cards:
            lines.append(say("rules.monarchist"))
            if not r["fascist_may_execute_hitler"]:
                lines.append(say("rules.monarchist_executes"))
        if view.players in r["rebalanced"]:
            lines.append(say("rules.rebalanced", players=view.players))
        if r["top_decking"] != "allowed":
            lines.append(say(f"rules.top_decking.{r['top_decking']}"))
        return lines

    def _cards(self, role: str, count: int) -> str:
        """``count`` cards of ``role``: "2 Liberals", "Merlin"."""
        if role == Role.LIBERAL.value:
            return self.p.counted("liberals", count)
        if role == Role.FASCIST.value:
            return self.p.counted("fascists", count)
        return self.p.say(f"role.{role}")

    def _policies(self, liberal: int, fascist: int) -> dict[str, Any]:
        """The fields of a sentence that counts liberal and fascist policies."""
        return {
            "liberal": liberal,
            "fascist": fascist,
            "n_liberal_policies": self.p.counted("liberal_policies", liberal),
            "n_fascist_policies": self.p.counted("fascist_policies", fascist),
        }

    # -------------------------------------------------------------------- state
    def state(self, view: View) -> str:
        say = self.p.say
        seat = view.seat
        assert seat is not None, "a prompt is written for a seat"
        lines = [say("state.you", seat=self.seat(view, seat), role=say(f"role.{view.role}"))]
        known = [(s, r) for s, r in enumerate(view.known_roles) if r is not None and s != seat]
        if known:
            lines.append(
                say(
                    "state.known",
                    items=say("sep").join(
                        say("pair", a=self.seat(view, s), b=say("role." + r)) for s, r in known
                    ),
                )
            )
        if self.p.game_types:
            lines.extend(self._game_type_knowledge(view))
        lines.append(say("state.round", round=view.round))
        lines.append(
            say(
                "state.tracks",
                liberal=view.liberal_policies,
                liberal_left=view.liberal_to_win,
                fascist=view.fascist_policies,
                fascist_left=view.fascist_to_win,
            )
        )
        lines.append(say("state.tracker", value=view.election_tracker, chaos_at=view.chaos_at))
        lines.append(
            say(
                "state.piles",
                draw=view.draw_pile,
                discard=view.discard_pile,
                n_policies=self.p.counted("policies", view.draw_pile),
            )
        )
        alive = [s for s, a in enumerate(view.alive) if a]
        dead = [s for s, a in enumerate(view.alive) if not a]
        lines.append(say("state.alive", seats=self.seats(view, alive)))
        if dead:
            lines.append(say("state.dead", seats=self.seats(view, dead)))
        if view.president is not None:
            lines.append(
                say(
                    "state.government",
                    president=self.seat(view, view.president),
                    chancellor=self.seat(view, view.chancellor),
                )
            )
        if view.candidate is not None:
            lines.append(say("state.candidate", seat=self.seat(view, view.candidate)))
        if view.nominee is not None:
            lines.append(say("state.nominee", seat=self.seat(view, view.nominee)))
        if view.term_limited:
            lines.append(say("state.term_limited", seats=self.seats(view, view.term_limited)))
        if view.hitler_zone_active:
            lines.append(say("state.hitler_zone_active"))
        if view.proven_not_hitler:
            lines.append(say("state.not_hitler", seats=self.seats(view, view.proven_not_hitler)))
        if view.hand:
            lines.append(say("state.hand", policies=self.policies(view.hand)))
        if view.investigations:
            lines.append(
                say(
                    "state.investigations",
                    items=say("sep").join(
                        say("pair", a=self.seat(view, t), b=say("party." + p))
                        for t, p in view.investigations
                    ),
                )
            )
        if view.next_president is not None:
            lines.append(say("state.next_president", seat=self.seat(view, view.next_president)))
        if self.p.game_types:
            lines.extend(self._game_type_state(view))
        return "\n".join(f"- {line}" for line in lines)

    def _game_type_knowledge(self, view: View) -> list[str]:
        """What the game types let this seat know beyond roles: the seats it knows by party
        only (Merlin's Fascists, a Fascist's teammates where Morgana or the Monarchist is
        dealt, Hitler's targets at the assassination; its investigations are said apart), and
        Percival's pair. Nothing under the official roles, whose knowledge is all roles."""
        say = self.p.say
        investigated = {target for target, _ in view.investigations}
        parties = [
            (s, party)
            for s, party in enumerate(view.known_parties)
            if party is not None
            and s != view.seat
            and view.known_roles[s] is None
            and s not in investigated
        ]
        lines = []
        if parties:
            items = say("sep").join(
                say("pair", a=self.seat(view, s), b=say(f"party.{party}")) for s, party in parties
            )
            lines.append(say("state.known_parties", items=items))
        if view.merlin_candidates is not None:
            first, second = view.merlin_candidates
            lines.append(
                say(
                    "state.merlin_candidates",
                    first=self.seat(view, first),
                    second=self.seat(view, second),
                )
            )
        return lines

    def _game_type_state(self, view: View) -> list[str]:
        """The game types' public state now: a chaos that would end the game (no top-decking),
        the assassination under way."""
        say = self.p.say
        lines = []
        if view.top_deck_forbidden and view.winner is None:
            lines.append(say("state.top_deck_forbidden", chaos_at=view.chaos_at))
        assassination = view.assassination
        if assassination is not None and assassination["target"] is None:
            lines.append(
                say("state.assassination", hitler=self.seat(view, assassination["hitler"]))
            )
        return lines

    # -------------------------------------------------------------------- history
    def history(self, view: View, chat: Sequence[ChatLine] = ()) -> str:
        lines: list[str] = []
        said = sorted(chat, key=lambda c: c.at)
        k = 0
        narrator = Narrator()
        for i, event in enumerate(view.events):
            while k < len(said) and said[k].at <= i:
                lines.append(self._chat(view, said[k]))
                k += 1
            lines.extend(self._told(view, event, narrator))
        lines.extend(self._chat(view, c) for c in said[k:])
        return "\n".join(f"- {line}" for line in lines) if lines else self.p.say("history.empty")

    def names(self, view: View) -> list[str | None]:
        """Every seat as this prompt names it (a talk line rendered here names seats alike)."""
        return [self.seat(view, s) for s in range(view.players)]

    def _chat(self, view: View, line: ChatLine) -> str:
        text = line.text
        if line.line is not None:  # a talk line: in this prompt's language
            text = render(line_from_json(line.line), self.p.language, self.names(view))
        return self.p.say("event.chat", seat=self.seat(view, line.seat), text=text)

    def event(self, view: View, e: TypedEvent) -> str | None:
        """One event in words (its lines joined); None for one that adds nothing (a secret
        vote was cast). An event read alone: a line that names an earlier event (the
        chancellor a president passes to) is said as the whole history says it only there."""
        lines = self._told(view, e, Narrator())
        return " ".join(lines) if lines else None

    def _told(self, view: View, e: TypedEvent, narrator: Narrator) -> list[str]:
        """The lines of ``e`` in this version's words: v1's own sentences (frozen), else the
        table log's (``talk.narrate``, the web catalogs' words); an event the narrator does
        not know yet is said by its JSON (``event.other``)."""
        if not self.p.narrated:
            text = event_v1(self, view, e)
            return [] if text is None else [text]
        if e.kind not in TOLD_KINDS:
            data = {k: v for k, v in e.items() if k != "type"}
            return [
                self.p.say("event.other", type=e.kind, data=json.dumps(data, ensure_ascii=False))
            ]
        names = self.names(view)
        return [narration.render(t, self.p.language, names) for t in narrator.tell(e)]

    def claim_fields(self, view: View, seat: int, claim: ClaimLike) -> dict[str, str]:
        """The fields of a claim sentence (a claim event's or a claim action's)."""
        out = {"seat": self.seat(view, seat)}
        if claim.policies is not None:
            out["policies"] = self.policies(claim.policies)
        if claim.target is not None:
            out["target"] = self.seat(view, claim.target)
        if claim.party is not None:
            out["party"] = self.p.say(f"party.{claim.party}")
        return out

    # -------------------------------------------------------------------- actions
    def gloss(self, view: View, a: Action) -> str:
        """What an action does, in words."""
        say = self.p.say
        if a.type == A.VOTE:
            return say("act.vote.ja" if a.ja else "act.vote.nein")
        if a.type == A.VETO_RESPONSE:
            return say("act.veto_response.accept" if a.accept else "act.veto_response.refuse")
        if a.type in (A.DISCARD, A.ENACT):
            return say(f"act.{a.type}", policy=say(f"policy.{a.policy}"))
        if a.type == A.CLAIM:
            return say(f"act.claim.{a.subject}", **self.claim_fields(view, a.seat, a))
        if a.target is not None:
            return say(f"act.{a.type}", target=self.seat(view, a.target))
        return say(f"act.{a.type}")

    def options(self, view: View, legal: Sequence[Action]) -> str:
        lines = []
        for a in legal:
            data = a.to_json()
            del data["seat"]
            lines.append(f"- {json.dumps(data, ensure_ascii=False)}: {self.gloss(view, a)}")
        return "\n".join(lines)

    def task(self, view: View, legal: Sequence[Action]) -> str:
        say = self.p.say
        kind = legal[0].type
        if kind == A.VOTE:
            return say(
                "task.vote",
                president=self.seat(view, view.candidate),
                chancellor=self.seat(view, view.nominee),
            )
        if kind in (A.DISCARD, A.ENACT, A.VETO):
            text = say(
                f"task.{A.ENACT if kind == A.VETO else kind}", policies=self.policies(view.hand)
            )
            if any(a.type == A.VETO for a in legal):
                text += " " + say("task.veto")
            return text
        if kind == A.VETO_RESPONSE:
            return say("task.veto_response", chancellor=self.seat(view, view.chancellor))
        return say(f"task.{kind}")

    # -------------------------------------------------------------------- prompts
    def system(self, view: View) -> str:
        assert view.seat is not None
        self._check(view)
        return (
            self.p.templates["system"]
            .substitute(you=self.seat(view, view.seat), rules=self.rules(view))
            .strip()
        )

    def decide(
        self,
        view: View,
        legal: Sequence[Action],
        chat: Sequence[ChatLine] = (),
        *,
        say_chars: int = 0,
        beliefs: Sequence[int] = (),
    ) -> tuple[str, dict[str, Any]]:
        """The prompt of a turn and the schema of its answer."""
        self._check(view)
        schema = decision_schema(legal, say=say_chars > 0, beliefs=beliefs)
        answer = [self.p.say("answer.action")]
        if say_chars > 0:
            answer.append(self.p.say("answer.say", say_chars, chars=say_chars))
        if beliefs:
            answer.append(self.p.say("answer.beliefs", seats=self.seats(view, beliefs)))
        answer.append(self.p.say("answer.json"))
        text = self.p.templates["decide"].substitute(
            state=self.state(view),
            history=self.history(view, chat),
            task=self.task(view, legal),
            actions=self.options(view, legal),
            answer="\n".join(answer),
            schema=json.dumps(schema, ensure_ascii=False),
        )
        return text.strip(), schema

    def claims(
        self, view: View, options: Sequence[Action], chat: Sequence[ChatLine] = ()
    ) -> tuple[str, dict[str, Any]]:
        """The prompt of a claim window and the schema of its answer."""
        self._check(view)
        schema = claims_schema(options)
        subjects = sorted({str(a.subject) for a in options})
        text = self.p.templates["claims"].substitute(
            state=self.state(view),
            history=self.history(view, chat),
            task=self.p.say(
                "task.claims",
                subjects=self.p.say("sep").join(self.p.say(f"subject.{s}") for s in subjects),
            ),
            options=self.options(view, options),
            answer=self.p.say("answer.claims") + "\n" + self.p.say("answer.json"),
            schema=json.dumps(schema, ensure_ascii=False),
        )
        return text.strip(), schema

    def retry(self, kind: str, problem: str) -> str:
        """The message after an answer that could not be played."""
        return self.p.say(f"retry.{kind}", problem=problem)


__all__ = [
    "FIRST_SEAT",
    "GAME_TYPE_SETTINGS",
    "NO_GAME_TYPES",
    "OWN_NARRATION",
    "SHARED_WORDS",
    "PROMPTS_DIR",
    "PromptError",
    "PromptSet",
    "Renderer",
    "load_prompts",
    "prompt_versions",
    "rules_problem",
]
