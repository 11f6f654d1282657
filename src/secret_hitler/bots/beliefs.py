"""Exact beliefs over hidden roles: a posterior over every role assignment a seat cannot rule out.

A world is one assignment of the hidden roles, ``(hitler seat, fascist set)``: at most
10 * C(9, 3) = 840 of them, so the posterior is an exact vector over all worlds rather than a
per-seat approximation, and every question ("is this government liberal-liberal?", "how likely is
this seat Hitler?") is a sum over it. Evidence comes only from the events of one seat's ``View``
(or from public events only, for the "liberal eye" a fascist bot must deceive): hard evidence
(own role, night knowledge, own investigations, Hitler-zone confirmations, executions that did not
end the game) zeroes worlds; behaviour (votes, nominations, legislative sessions with deck
counting, claims, vetoes, executions, investigation claims) multiplies likelihoods from the
behaviour model in ``Model``. The update is incremental: only events after the last call are read.

Every behaviour likelihood depends on a few seats' roles only, so it is a small table over
roles (liberal 0, fascist 1, Hitler 2) indexed by the world matrix ``R`` — one numpy gather per
event. The models live in ``bots/model.py``, the tables and what every posterior of a table
shares in ``bots/likelihood.py``; this module re-exports their names.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any, Self

import numpy as np

from ..engine import events as E
from ..engine.events import EVENT_TYPES, PRIVATE_EVENT_TYPES, TypedEvent
from ..engine.public import READERS, PublicState
from ..engine.roles import night
from ..engine.settings import PRESETS, Rules
from ..engine.types import Role
from ..talk.lines import Answer, Claim, Line, Question
from ..talk.said import signals
from .likelihood import (
    MEMO_SIZE,
    Session,
    _remember,
    hand_prior,
    session_prior,
    session_table,
    worlds_matrix,
)
from .listening import (
    UNANSWERED,
    TalkMemory,
    context,
    signal_loglik,
    silence_loglik,
    vote_loglik,
)
from .model import (
    BOT_MODEL,
    DEFAULT_MODEL,
    EYE_MODEL,
    FAS,
    HIT,
    HUMAN_MODEL,
    LIB,
    ROLE_INDEX,
    ROLE_NAMES,
    SEARCH_MODEL,
    TALK_MODEL,
    TERMS,
    Model,
    TalkModel,
    load_model,
    load_talk_model,
    model_from_json,
)
from .posterior import Posterior, _normalize

_OFFICIAL = PRESETS["official"]
PRIVATE_EVENTS = PRIVATE_EVENT_TYPES

#: The rules of the games whose views were read last, by the identity of a view's ``rules``
#: mapping (every view of one game holds the same one), with that mapping kept alive.
_RULES: dict[int, tuple[Any, Rules]] = {}


def _rules_of(rules: Any) -> Rules:
    """The game's ``Rules`` from a view's ``rules``: resolved once per game, not once per
    posterior (a search builds several for each world it samples)."""
    hit = _RULES.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    out = Rules.from_json({k: v for k, v in rules.items() if v is not None})
    if len(_RULES) >= 256:
        _RULES.clear()
    _RULES[id(rules)] = (rules, out)
    return out


class Beliefs(Posterior):
    """The posterior of one seat (or of the public, ``seat=None``) over role assignments.

    Feed it views of that seat with ``update``; it reads only the events it has not seen yet.
    ``public=True`` ignores the seat's private events: the belief of an outside observer, which
    is what a fascist bot uses to model what liberals can infer.
    """

    def __init__(
        self,
        players: int,
        fascists: int,
        seat: int | None = None,
        *,
        deck: tuple[int, int] | None = None,
        hitler_zone: int | None = None,
        hitler_knows: bool | None = None,
        public: bool = False,
        model: Model = DEFAULT_MODEL,
        talk: TalkModel | None = None,
        cards: Sequence[tuple[Role, int]] | None = None,
        sight: bool = True,
    ) -> None:
        self.talk = TALK_MODEL if talk is None else talk
        # The role cards dealt (``Rules.composition``; None: the official three), and whether
        # Merlin reads his sight (False: the plain liberal he passes for, ``BayesAgent``).
        self.cards = tuple(cards or ())
        self.special = any(r.value not in ROLE_NAMES for r, _ in self.cards)
        self.sight = sight
        self.role_name: str | None = None  # this seat's own role, once dealt
        self.night_shown: dict[str, Any] | None = None  # this seat's night (special roles)
        self.heard_investigations: set[tuple[int, int]] = set()  # claims read (engine or chat)
        self.heard = TalkMemory()  # who said what of whom (``bots.listening``)
        self.people: frozenset[int] = frozenset()  # seats people play: their silence unread
        # whether a question left unanswered is read as evasion (``hear_silence``): not in a
        # fascist's liberal eye (``bots.bayes``)
        self.reads_silence = True
        self.seat = None if public else seat
        # the official rules (the engine's) unless told: ``for_view`` tells the game's
        self.deck = deck = _OFFICIAL.deck if deck is None else deck
        zone = _OFFICIAL.hitler_zone if hitler_zone is None else hitler_zone
        super().__init__(
            players,
            fascists,
            _OFFICIAL.hitler_knows(players) if hitler_knows is None else hitler_knows,
            model,
        )
        self.seen = 0
        # the public state as of the events read (the engine's fold): who is alive, the tracks,
        # the candidate and nominee, the result
        self.table = PublicState(players, hitler_zone=zone, deck=deck)
        self.pile = [float(deck[0]), float(deck[1])]
        self.session: Session | None = None
        self.peek_k3: int | None = None
        self.peek_claim: int | None = None
        self.executed_pending: int | None = None  # executed seat, until the game goes on
        # Avalon SH: per world and seat, the log-likelihood ratio of the seat's votes and
        # nominations as Merlin's against a plain liberal's (``p_merlin``); None without Merlin.
        merlin = any(r is Role.MERLIN for r, _ in self.cards)
        self.merlin_log: np.ndarray | None = np.zeros((self.W, players)) if merlin else None

    def fork(self) -> Self:
        """An independent copy, cheap enough for every rollout of a search: the tables and the
        weight arrays are shared (never changed in place: ``_add`` and ``_mask`` rebind them),
        the seats alive and the open session are copied."""
        other = copy.copy(self)
        other.table = self.table.copy()
        other._derived = dict(self._derived)
        other.heard_investigations = set(self.heard_investigations)
        other.heard = self.heard.copy()  # (a fork's lines must not reach this one's memory)
        if self.session is not None:
            other.session = replace(self.session)
        return other

    @classmethod
    def for_view(
        cls,
        view: Any,
        *,
        public: bool = False,
        model: Model = DEFAULT_MODEL,
        talk: TalkModel | None = None,
        sight: bool = True,
    ) -> Self:
        """Beliefs sized for the game of ``view`` (player count, fascists, deck, role cards)
        from its rules; ``sight=False``: Merlin's night unread (``__init__``)."""
        rules = _rules_of(view.rules)
        return cls(
            view.players,
            rules.fascist_count(view.players),
            view.seat,
            deck=rules.deck_for(view.players),
            hitler_zone=rules.hitler_zone,
            hitler_knows=rules.hitler_knows(view.players),
            public=public,
            model=model,
            talk=talk,
            cards=rules.composition(view.players),
            sight=sight,
        )

    # ------------------------------------------------------------------ updating
    def update(self, view: Any) -> None:
        """Read the view's events this posterior has not read yet, in order (``_event``)."""
        events = view.events
        if len(events) == self.seen:
            return
        handlers, feed, unread = _HANDLERS, self.table.feed, _UNREAD
        public = self.seat is None
        for e in events[self.seen :]:  # ``_event``, inlined: most events only feed the table
            kind = e["type"]
            if kind in unread:
                continue
            handler = handlers.get(kind)
            if handler is not None and not (public and kind in PRIVATE_EVENTS):
                handler(self, e)
            feed(e)
        self.seen = len(events)
        if self.executed_pending is not None and self.table.winner is None:
            # The game went on after the execution (a win is logged by the same action, so it
            # would be in these events): the executed seat was not Hitler.
            self._mask(self._role_is_not(self.executed_pending, HIT))
        self.executed_pending = None
        self._changed()

    def _event(self, e: TypedEvent) -> None:
        """Read one event: its handler (``_HANDLERS``), which sees the public state before the
        event (``table``), then the fold; the public belief skips the seats' private events.
        (``update`` does the same for each event, inlined; call ``_changed`` after.)"""
        kind = e["type"]
        if kind in _UNREAD:
            return
        handler = _HANDLERS.get(kind)
        if handler is not None and not (self.seat is None and kind in PRIVATE_EVENTS):
            handler(self, e)
        self.table.feed(e)

    def _on_role(self, e: E.RoleDealt) -> None:
        if e.seat == self.seat:
            self.role_name = e.role
            self._mask(self._role_is(e.seat, ROLE_INDEX[e.role]))

    def _on_night(self, e: E.Night) -> None:
        if self.special:
            self._special_night(e)
            return
        for key, role in e.known.items():
            self._mask(self._role_is(int(key), ROLE_INDEX[role]))
        if self.seat is not None and self.R.shape[0] and e.known:
            # Everyone not named is liberal (N1: fascists see the whole team).
            named = {int(key) for key in e.known} | {self.seat}
            for s in range(self.n):
                if s not in named:
                    self._mask(self._role_is(s, LIB))

    def _special_night(self, e: E.Night) -> None:
        """The night of a game that deals secrethitler.io's roles, as the engine showed it:
        the exact roles (``known``), the seats shown by party (``parties``: Merlin's sight, a
        fascist's teammates), Percival's pair (Merlin's party is liberal, Morgana's fascist and
        she is not Hitler: exactly one of the two is a fascist, not Hitler). Then every world
        left must be one where some deal of the rules' cards shows this seat this very night
        (the engine's ``roles.night``): the parties do not say which seat is not Hitler (the
        Monarchist is never shown Hitler), the engine's night does. A Merlin without sight
        (``sight=False``) reads nothing of his night."""
        if self.seat is None or (self.role_name == Role.MERLIN.value and not self.sight):
            return
        self.night_shown = {k: v for k, v in e.items() if k != "type"}
        for key, role in e.known.items():
            self._mask(self._role_is(int(key), ROLE_INDEX[role]))
        for key in e.parties or {}:
            self._mask(self._role_is_not(int(key), LIB))
        pair = e.merlin_candidates
        if pair is not None:
            a, b = pair
            R = self.R
            self._mask(
                ((R[:, a] == LIB) & (R[:, b] == FAS)) | ((R[:, a] == FAS) & (R[:, b] == LIB))
            )
        if e.parties:
            keep = np.zeros(self.W, dtype=bool)
            for w in np.nonzero(np.isfinite(self.logw))[0]:
                keep[w] = any(True for _ in self._deals(self.R[w], {}))
            self._mask(keep)

    def _deals(self, row: np.ndarray, fixed: dict[int, Role]) -> Iterator[list[Role]]:
        """The deals of the rules' cards with the team-level roles ``row``, this seat's own
        role and the roles ``fixed`` (seat: role) that show this seat the night it saw (the
        engine's ``roles.night``; every deal where it saw none, or where there is no seat)."""
        seat, own = self.seat, self.role_name
        specials = {Role.MERLIN, Role.PERCIVAL, Role.MORGANA, Role.MONARCHIST}
        base = [
            Role.HITLER if x == HIT else Role.FASCIST if x == FAS else Role.LIBERAL for x in row
        ]
        mine = dict(fixed)
        if seat is not None and own is not None:
            mine[seat] = Role(own)
        for s, r in mine.items():
            base[s] = r
        left = [r for r, k in self.cards for _ in range(k) if r in specials]
        for r in mine.values():
            if r in left:
                left.remove(r)
        party = [[s for s in range(self.n) if s not in mine and row[s] == t] for t in (LIB, FAS)]
        groups = [[r for r in left if ROLE_INDEX[r.value] == t] for t in (LIB, FAS)]
        shown, knows = self.night_shown, self.hitler_knows
        for lib_seats in itertools.permutations(party[0], len(groups[0])):
            for fas_seats in itertools.permutations(party[1], len(groups[1])):
                deal = list(base)
                for s, r in zip(lib_seats, groups[0], strict=True):
                    deal[s] = r
                for s, r in zip(fas_seats, groups[1], strict=True):
                    deal[s] = r
                if shown is None or seat is None or dict(night(deal, knows)).get(seat) == shown:
                    yield deal

    def sample_deal(
        self, w: int, rng: Any, known: Sequence[str | None] = (), tries: int = 256
    ) -> list[str] | None:
        """A deal of the rules' role cards for world ``w`` (the search's worlds): the seats
        whose roles this seat knows (``known``, the view's ``known_roles``) keep them, the
        rest of the special cards are placed at random among the seats of their party (Merlin
        by ``p_merlin``'s weights in that world), and the deal shows this seat its night.
        The official roles need no placing. None if no such deal was drawn in ``tries``."""
        row = self.R[w]
        if not self.special:
            return [ROLE_NAMES[x] for x in row]
        fixed = {s: Role(r) for s, r in enumerate(known) if r is not None}
        deals = list(itertools.islice(self._deals(row, fixed), tries))
        if not deals:
            return None
        weights = [1.0] * len(deals)
        if self.merlin_log is not None:
            top = float(self.merlin_log[w].max())
            weights = [float(np.exp(self.merlin_log[w][d.index(Role.MERLIN)] - top)) for d in deals]
        deal = rng.choices(deals, weights=weights)[0]
        return [r.value for r in deal]

    def _on_assassination(self, e: E.Assassination) -> None:
        """Hitler's card turned face up; if he was just executed, the game goes on to this
        step without saying he was not Hitler (``update``'s executed seat)."""
        self.executed_pending = None
        self._mask(self._role_is(e.hitler, HIT))

    def _on_assassin_sight(self, e: E.AssassinSight) -> None:
        """Hitler's targets are the liberal party, exactly; the roles shown are fascists."""
        targets = set(e.targets)
        for s in range(self.n):
            self._mask(self._role_is(s, LIB) if s in targets else self._role_is_not(s, LIB))
        for key, role in e.known.items():
            self._mask(self._role_is(int(key), ROLE_INDEX[role]))

    def _on_assassinated(self, e: E.Assassinated) -> None:
        self._mask(self._role_is(e.target, ROLE_INDEX[e.role]))

    # ------------------------------------------------------------------ who is Merlin
    def _merlin_votes(self, p: int, c: int, votes: tuple[bool | None, ...]) -> None:
        """Each voter outside the government, as Merlin against as a plain liberal: Merlin
        votes on his sight in a share of his votes (``Model.merlin_ja``), so a liberal whose
        votes avoided the fascists' governments well is likelier Merlin."""
        if self.merlin_log is None:
            return
        m = self.model
        R = self.R
        team = self.column(("team_government", p, c), lambda: (R[:, p] != LIB) | (R[:, c] != LIB))
        merlin_team, merlin_clean = m.merlin_ja(self.table.hitler_zone_active)
        p_merlin = np.where(team, merlin_team, merlin_clean)
        p_liberal = np.where(team, m.liberal_ja_team, m.liberal_ja_clean)
        delta = np.zeros_like(self.merlin_log)
        for v, ja in enumerate(votes):
            if ja is None or v in (p, c):
                continue
            if ja:
                delta[:, v] = np.log(p_merlin / p_liberal)
            else:
                delta[:, v] = np.log((1 - p_merlin) / (1 - p_liberal))
        self.merlin_log = self.merlin_log + delta

    def _merlin_nomination(self, p: int, c: int, elig: Sequence[int]) -> None:
        """The president's pick as Merlin's (a mix ``merlin_sight`` of a sighted liberal's pick,
        who avoids the fascists, and a plain one's) against a plain liberal's."""
        if self.merlin_log is None:
            return
        m = self.model
        R = self.R
        cands = tuple(elig)
        team = self.column(("team_among", cands), lambda: R[:, cands] != LIB)
        k = cands.index(c)

        def pick(weight: float) -> np.ndarray:
            w = np.where(team, weight, 1.0)
            out: np.ndarray = w[:, k] / w.sum(axis=1)
            return out

        plain = pick(m.liberal_nominate_team)
        a = m.sight(self.table.hitler_zone_active)
        merlin = a * pick(m.sighted_nominate_team) + (1 - a) * plain
        delta = np.zeros_like(self.merlin_log)
        delta[:, p] = np.log(merlin / plain)
        self.merlin_log = self.merlin_log + delta

    def _merlin_power(self, p: int, t: int, plain: float, sighted: float) -> None:
        """The president's power used on ``t`` as Merlin's against a plain liberal's: whether
        the target is of the fascist party, with P(so) ``plain`` for a plain liberal,
        ``sighted`` for a sighted one and their mix ``merlin_sight_powers`` for Merlin."""
        if self.merlin_log is None or p == self.seat:
            return
        a = self.model.merlin_sight_powers
        merlin = a * sighted + (1 - a) * plain
        team = self._role_is_not(t, LIB)
        delta = np.zeros_like(self.merlin_log)
        delta[:, p] = np.where(team, np.log(merlin / plain), np.log((1 - merlin) / (1 - plain)))
        self.merlin_log = self.merlin_log + delta

    def p_merlin(self) -> np.ndarray:
        """P(each seat is Merlin): over the worlds, Merlin is one of the world's liberals (not
        this seat unless it is Merlin), each weighed by how Merlin-like its votes and
        nominations were (``merlin_log``). The world's weight is the posterior's own: the same
        actions weigh the worlds already, so they are not counted twice. Zero everywhere in a
        game without Merlin."""
        if self.merlin_log is None:
            return np.zeros(self.n)
        out: np.ndarray = self._derive(("merlin",), self._p_merlin)
        return out

    def _p_merlin(self) -> np.ndarray:
        assert self.merlin_log is not None
        may = self.R == LIB
        if self.seat is not None and self.role_name not in (None, Role.MERLIN.value):
            may = may.copy()
            may[:, self.seat] = False
        logits = np.where(may, self.merlin_log, -np.inf)
        top = logits.max(axis=1, keepdims=True)
        top = np.where(np.isfinite(top), top, 0.0)
        w = np.where(may, np.exp(logits - top), 0.0)
        total = w.sum(axis=1, keepdims=True)
        share = np.divide(w, total, out=np.zeros_like(w), where=total > 0)
        out: np.ndarray = self.probs() @ share
        return out

    def _on_nominated(self, e: E.Nominated) -> None:
        # The last session stays open: its claims may come until the next one begins (the
        # engine's claim window, ``PublicState.session``); ``probs`` weighs it while open.
        p, c = e.president, e.chancellor
        table = self.table
        elig = table.eligible  # the engine's chancellor candidates at this nomination
        if c not in elig or len(elig) < 2:
            return
        if self.merlin_log is not None and p != self.seat:
            self._merlin_nomination(p, c, elig)
        m = self.model
        zone = table.hitler_zone_active
        if m.nominate_by_role is not None:
            if p != self.seat:  # one's own pick says nothing to oneself
                self._by_role(p, c, elig, m.nominate_by_role[int(zone)], "nominate")
            return
        key = ("nominate", p, c, elig, zone)
        loglik = self._memo.get(key)
        if loglik is None:
            weights = m.nominate_fascist_zone if zone else m.nominate_fascist
            loglik = self._tables.fascist_choice(p, c, elig, weights)
            loglik = _remember(self._memo, key, self._tempered(loglik, "nominate"))
        self._add_tempered(loglik, "nominate")

    def _by_role(self, p: int, t: int, cands: Sequence[int], table: Any, term: str) -> None:
        """``p`` picked ``t`` among ``cands``: weights by target role, one row per role of ``p``
        (a fitted table of people's picks, a part of the model: its identity names it),
        relative to a uniform pick."""
        key = ("by_role", term, id(table), p, t, tuple(cands))
        loglik = self._memo.get(key)
        if loglik is None:
            loglik = self._tempered(self._choice_loglik(p, t, cands, table), term)
            _remember(self._memo, key, loglik)
        self._add_tempered(loglik, term)

    def _choice_loglik(self, p: int, t: int, cands: Sequence[int], table: Any) -> np.ndarray:
        """Log-likelihood per world of ``p`` choosing ``t`` among ``cands`` with weights
        ``table[chooser role][target role]`` (``_Tables.choice_loglik``)."""
        return self._tables.choice_loglik(p, t, cands, table)

    def _on_votes(self, e: E.Votes) -> None:
        state = self.table
        p, c = state.candidate, state.nominee
        if p is None or c is None:
            return
        votes = tuple(e.votes)
        phase = int(state.hitler_zone_active)
        if state.liberal_to_win <= 1 and 2 in self._vote_logs:
            phase = 2
        alive = state.alive
        # The votes read are those of the living outside the government, but this seat's own:
        # ``me`` is the seat left out besides them (None when it is not one of them anyway).
        me = self.seat
        if me is not None and (me in (p, c) or not alive[me] or votes[me] is None):
            me = None
        key = ("votes", p, c, votes, me, alive, phase)
        terms = self._memo.get(key)  # (the votes' term, the liberal voters' term or None)
        if terms is None:
            # Every seat reads this election: its terms for each of them at once.
            every = self._tables.election_terms(p, c, votes, alive, phase)
            for who, value in every.items():
                _remember(self._memo, ("votes", p, c, votes, who, alive, phase), value)
            terms = every[me]
        total, lib_total = terms
        self._add_tempered(total, "votes")
        if lib_total is not None:
            self._add_tempered(lib_total, "liberal_votes")
        if self.model.candidate_vote is not None:
            self._candidate_votes(p, c, votes, phase)
        if self.heard.stances:
            self._spoken_votes(p, c, votes)
        if self.heard.asked:
            self._unanswered()
        if self.merlin_log is not None:
            self._merlin_votes(p, c, votes)

    def _candidate_votes(self, p: int, c: int, votes: tuple[bool | None, ...], phase: int) -> None:
        """The candidates' own votes (``Model.candidate_vote``): voting down one's own
        government is a vote of no confidence in the partner."""
        cv = self.model.candidate_vote
        assert cv is not None
        table = np.array(cv[min(phase, len(cv) - 1)], dtype=float)  # [office, own, partner]
        own = np.zeros(self.W)
        for office, (v, partner) in enumerate(((p, c), (c, p))):
            ja = votes[v] if v < len(votes) else None
            if ja is None or v == self.seat:
                continue
            q = table[office][self.R[:, v], self.R[:, partner]]
            own += np.log(q if ja else 1 - q)
        self._add(own, "candidate_votes")

    def _on_not_hitler(self, e: E.NotHitler) -> None:
        self._mask(self._role_is_not(e.seat, HIT))

    def _on_legislative_session(self, e: E.LegislativeSession) -> None:
        self._close_session()
        m = self.model
        lib, fas = self.pile
        prior = session_prior(
            lib, fas, self.peek_k3, self.peek_claim, m.peek_claim_trust, m.deck_floor
        )
        self.peek_k3 = self.peek_claim = None
        self.session = Session(e.president, e.chancellor, prior, e.veto)
        lib, fas = self.pile
        self.session.taken = 3 * lib / (lib + fas) if lib + fas > 0 else 0.0
        self._take(3, self.session.taken)

    def _take(self, count: int, liberals: float | None) -> None:
        """Remove ``count`` drawn policies from the pile estimate (expected mix when unknown)."""
        lib, fas = self.pile
        total = lib + fas
        if liberals is None:
            liberals = count * lib / total if total > 0 else 0.0
        self.pile = [max(lib - liberals, 0.0), max(fas - (count - liberals), 0.0)]

    def _on_drew(self, e: E.Drew) -> None:
        if self.session is not None:
            self.session.k3 = e.policies.count("liberal")

    def _on_passed(self, e: E.Passed) -> None:
        if self.session is not None:
            self.session.k2 = e.policies.count("liberal")

    def _on_received(self, e: E.Received) -> None:
        if self.session is not None:
            self.session.k2 = e.policies.count("liberal")

    def _on_veto_proposed(self, e: E.VetoProposed) -> None:
        if self.session is not None:
            self.session.veto_proposed = True

    def _on_veto(self, e: E.Veto) -> None:
        if self.session is not None:
            self.session.veto_accepted = bool(e.accepted)

    def _on_enacted(self, e: E.Enacted) -> None:
        if not e.chaos and self.session is not None:
            self.session.enacted = e.policy

    def _on_chaos(self, e: E.Chaos) -> None:
        self._close_session()
        self.peek_k3 = self.peek_claim = None
        self._take(1, 1.0 if e.policy == "liberal" else 0.0)

    def _on_reshuffled(self, e: E.Reshuffled) -> None:
        lib, fas = self.table.unenacted
        if self.session is not None:
            self.session.reshuffled = True
        self.pile = [float(lib), float(fas)]

    def _on_peek(self, e: E.Peek) -> None:
        self.peek_k3 = e.policies.count("liberal")

    def _on_claim(self, e: E.Claimed) -> None:
        subject = e.subject
        seat = e.seat
        s = self.session
        liberals = list(e.policies or ()).count("liberal")  # of a hand or peek claim
        if subject == "president_hand" and s is not None and seat == s.president:
            s.c3 = liberals
        elif subject == "chancellor_hand" and s is not None and seat == s.chancellor:
            s.c2 = liberals
        elif subject == "peek":
            if seat != self.seat:
                self.peek_claim = liberals
        elif subject == "investigation":
            assert e.target is not None and e.party is not None
            self._investigation_claim(seat, e.target, e.party)

    def _investigation_claim(self, seat: int, target: int, party: str) -> None:
        if seat == self.seat or (seat, target) in self.heard_investigations:
            return  # one's own, or read already (from the chat or the engine, the first)
        self.heard_investigations.add((seat, target))
        self._add(self.investigation_claim_loglik(seat, target, party), "claim")

    # ------------------------------------------------------------------ talk
    def hear_claim(
        self,
        seat: int,
        subject: str,
        liberals: int | None = None,
        target: int | None = None,
        party: str | None = None,
    ) -> None:
        """A claim said in the chat (not, or not yet, an engine claim), read as that claim
        when ``seat`` may make it: a hand claim of the open session's office it held, while
        its claim of that subject is not in (an engine claim later replaces it: the session
        is weighed once, when its window closes); an investigation claim of a seat it
        investigated, once per pair (whichever comes first). Peek claims said in the chat are
        not read. Call after ``update`` with the view of the moment it was said."""
        s = self.session
        if subject == "investigation":
            if target is None or party is None:
                return
            if (seat, target) in self.table.investigations:
                self._investigation_claim(seat, target, party)
            self._changed()
            return
        if s is None or liberals is None or (s.enacted is None and not s.veto_accepted):
            return
        if subject == "president_hand" and seat == s.president and s.c3 is None:
            s.c3 = liberals
        elif subject == "chancellor_hand" and seat == s.chancellor and s.c2 is None:
            s.c2 = liberals
        self._changed()

    def hear_line(self, seat: int, line: Line, *, claims: bool = True, talk: bool = True) -> None:
        """What ``seat`` said at the table: its claim (``claims``: ``hear_claim``) and its
        signals (``talk``: ``hear_signal`` for each of ``talk.said.signals``)."""
        if claims and isinstance(line, Claim):
            liberals = None
            if line.policies is not None:
                liberals = sum(1 for p in line.policies if p.value == "liberal")
            party = None if line.party is None else line.party.value
            self.hear_claim(seat, line.subject, liberals, line.target, party)
        if talk:
            if isinstance(line, Question) and line.to is not None and self.reads_silence:
                if line.to not in (seat, self.seat) and line.to not in self.people:
                    self.heard.ask(seat, line.to)
            elif isinstance(line, Answer) and line.to is not None:
                if self.heard.answered(seat, line.to):
                    self.hear_silence(seat, silent=False)
            for sig in signals(line):
                self.hear_signal(seat, sig.stance, sig.target, sig.certainty)

    def hear_silence(self, seat: int, *, silent: bool = True) -> None:
        """``seat`` left a question put to it by name unanswered (``silent``) or answered it:
        weighed by how often each role does (``listening.silence_loglik``, ``UNANSWERED``)."""
        weight = self.talk.weight
        if weight == 0.0 or seat == self.seat:
            return
        self.logw = self.logw + weight * silence_loglik(self.R, seat, silent, UNANSWERED)
        self._changed()

    def _unanswered(self) -> None:
        """The next election's votes are in: every question by name still open was left
        unanswered by a seat still alive (``hear_silence``)."""
        asked, self.heard.asked = self.heard.asked, {}
        for seat, askers in asked.items():
            if self.table.alive[seat]:
                for _ in askers:
                    self.hear_silence(seat)

    def hear_signal(self, seat: int, stance: str, target: int, certainty: str) -> None:
        """``seat`` said its ``stance`` (accuse, trust, hitler) on ``target``: a choice among
        the other living seats weighed by the talk model (``TalkModel``), each by its role and
        what the table knew of it (``listening.signal_loglik``); remembered for the speaker's
        later votes (``listening.TalkMemory``)."""
        table = self.talk.table(stance, certainty)
        weight = self.talk.weight
        if table is None or weight == 0.0 or seat == self.seat or seat == target:
            return
        alive = self.table.alive
        cands = tuple(x for x in range(self.n) if alive[x] and x != seat)
        if target not in cands or len(cands) < 2:
            return
        by_context = self.talk.by_context(stance)
        if by_context is None:
            key: tuple[Any, ...] = ("talk", id(self.talk), stance, certainty, seat, target, cands)
            loglik = self._memo.get(key)
            if loglik is None:
                loglik = self._choice_loglik(seat, target, cands, table)
                loglik = _remember(self._memo, key, loglik)
        else:
            heard = self.heard.accused
            m = self.marginals()
            likeliest = max(cands, key=lambda c: float(m[c, FAS] + m[c, HIT]))
            contexts = tuple(
                context(self.table, heard.get(c, ()), seat, c, c == likeliest) for c in cands
            )
            key = ("talk", id(self.talk), stance, certainty, seat, target, cands, contexts)
            loglik = self._memo.get(key)
            if loglik is None:
                loglik = signal_loglik(self.R, seat, target, cands, contexts, table, by_context)
                loglik = _remember(self._memo, key, loglik)
        self.heard.note(seat, stance, target)
        self.logw = self.logw + weight * loglik
        self._changed()

    def _spoken_votes(self, p: int, c: int, votes: tuple[bool | None, ...]) -> None:
        """Each voter's vote on the government of ``p`` and ``c`` read against what it said of
        them (``listening.vote_loglik``, the talk model's ``consistency``)."""
        tables = self.talk.consistency
        stances = self.heard.stances
        weight = self.talk.weight
        if not tables or not stances or weight == 0.0:
            return
        total = None
        for (voter, member), said in stances.items():
            if member not in (p, c) or voter in (p, c, self.seat) or voter >= len(votes):
                continue
            ja = votes[voter]
            if ja is None:
                continue
            term = vote_loglik(self.R, voter, member, said, bool(ja), tables)
            total = term if total is None else total + term
        if total is not None:
            self.logw = self.logw + weight * total
            self._changed()

    def investigation_claim_loglik(self, seat: int, target: int, party: str) -> np.ndarray:
        """Log-likelihood per world of ``seat`` claiming that ``target`` is of ``party``."""
        return self._tables.investigation_claim(seat, target, party)

    def _on_investigated(self, e: E.Investigated) -> None:
        table = self.model.investigate_by_role
        p, t = e.president, e.target
        if table is None or p == self.seat:
            return
        cands = [s for s in range(self.n) if self.table.alive[s] and s != p]
        if t in cands and len(cands) >= 2:
            self._by_role(p, t, cands, table, "investigate")

    def _on_investigation(self, e: E.Investigation) -> None:
        target = e.target
        if e.party == "liberal":
            self._mask(self._role_is(target, LIB))
        else:
            self._mask(self._role_is_not(target, LIB))

    def _on_special_election(self, e: E.SpecialElection) -> None:
        m = self.model
        self._merlin_power(e.president, e.target, m.liberal_special_team, m.sighted_special_team)
        self._target_choice(
            e.president, e.target, self.model.special_fascist, exclude=(), term="special"
        )

    def _on_executed(self, e: E.Executed) -> None:
        p, t = e.president, e.target
        m = self.model
        self._merlin_power(p, t, m.liberal_execute_team, m.sighted_execute_team)
        table = self.model.execute_by_role
        if table is None:
            self._target_choice(p, t, self.model.execute_fascist, exclude=(), term="execute")
        elif p != self.seat:
            cands = [s for s in range(self.n) if self.table.alive[s] and s != p]
            if t in cands and len(cands) >= 2:
                self._by_role(p, t, cands, table, "execute")
        if self.executed_pending is not None:
            # An earlier execution in the same update, and the game went on to this one.
            self._mask(self._role_is_not(self.executed_pending, HIT))
        self.executed_pending = t
        if e.role is not None:  # under reveal_executed_role
            self._mask(self._role_is(t, ROLE_INDEX[e.role]))

    def _target_choice(
        self,
        p: int,
        t: int,
        weights_t: tuple[float, float, float],
        exclude: tuple[int, ...],
        term: str,
    ) -> None:
        """A fascist president's choice among the living, favouring or sparing teammates."""
        alive = self.table.alive
        key = ("target", term, p, t, weights_t, exclude, alive)
        loglik = self._memo.get(key)
        if loglik is None:
            cands = [s for s in range(self.n) if alive[s] and s != p and s not in exclude]
            if t not in cands or len(cands) < 2:
                return
            loglik = self._tempered(self._tables.fascist_choice(p, t, cands, weights_t), term)
            _remember(self._memo, key, loglik)
        self._add_tempered(loglik, term)

    def _on_game_over(self, e: E.GameOver) -> None:
        self._close_session()
        roles = e.roles
        if roles:
            for s, r in enumerate(roles):
                self._mask(self._role_is(s, ROLE_INDEX[r]))

    def _close_session(self) -> None:
        s = self.session
        if s is None:
            return
        self.session = None
        self._add_tempered(self._open_session_loglik(s), "session")
        if not s.reshuffled:
            # Correct the pile estimate with the best guess of what was drawn.
            lib, fas = self.pile
            guess = s.k3 if s.k3 is not None else s.c3
            if guess is not None:
                self.pile = [max(lib + s.taken - guess, 0.0), max(fas - s.taken + guess, 0.0)]

    def _open_session_loglik(self, s: Session) -> np.ndarray:
        """A session's log-likelihood, tempered like everything ``_add`` receives."""
        return self._tables.session_term(s)

    def _open_term(self) -> np.ndarray | None:
        s = self.session
        return None if s is None else self._open_session_loglik(s)

    def probs_with(self, **changes: Any) -> np.ndarray:
        """The posterior if the open session also showed ``changes`` (claims, enactment).

        What a fascist uses to price a move: the public posterior after it and its cover story.
        """
        s = self.session
        if s is None:
            return self.probs()
        return _normalize(self.logw + self._open_session_loglik(replace(s, **changes)))


#: Each event type's handler (``Beliefs._on_<type>``), found once per event by ``update``.
_HANDLERS: dict[str, Callable[[Beliefs, Any], None]] = {
    name.removeprefix("_on_"): method
    for name, method in vars(Beliefs).items()
    if name.startswith("_on_")
}
#: The events neither a handler nor the public fold reads (each seat's ``voted``, the most
#: common of all): ``update`` passes over them.
_UNREAD = frozenset(EVENT_TYPES) - set(_HANDLERS) - set(READERS)


__all__ = [
    "BOT_MODEL",
    "MEMO_SIZE",
    "PRIVATE_EVENTS",
    "ROLE_INDEX",
    "ROLE_NAMES",
    "DEFAULT_MODEL",
    "EYE_MODEL",
    "HUMAN_MODEL",
    "SEARCH_MODEL",
    "TALK_MODEL",
    "FAS",
    "HIT",
    "LIB",
    "Beliefs",
    "Model",
    "Session",
    "TERMS",
    "TalkModel",
    "hand_prior",
    "load_model",
    "load_talk_model",
    "model_from_json",
    "session_table",
    "worlds_matrix",
]
