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
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Self

import numpy as np

from ..engine import events as E
from ..engine.events import PRIVATE_EVENT_TYPES, TypedEvent
from ..engine.public import PublicState
from ..engine.settings import PRESETS
from ..talk.lines import Claim, Line
from ..talk.said import signals
from .likelihood import (
    MEMO_SIZE,
    Session,
    _remember,
    _tables,
    hand_prior,
    session_table,
    worlds_matrix,
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

_OFFICIAL = PRESETS["official"]
PRIVATE_EVENTS = PRIVATE_EVENT_TYPES


class Beliefs:
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
    ) -> None:
        self.n = players
        self.talk = TALK_MODEL if talk is None else talk
        self.heard_investigations: set[tuple[int, int]] = set()  # claims read (engine or chat)
        self.fascists = fascists
        self.seat = None if public else seat
        self.model = model
        self.R = worlds_matrix(players, fascists)
        self.W = len(self.R)
        self.logw = np.zeros(self.W)
        # the official rules (the engine's) unless told: ``for_view`` tells the game's
        self.deck = deck = _OFFICIAL.deck if deck is None else deck
        zone = _OFFICIAL.hitler_zone if hitler_zone is None else hitler_zone
        self.hitler_knows = (
            _OFFICIAL.hitler_knows(players) if hitler_knows is None else hitler_knows
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
        self._probs: np.ndarray | None = None
        self._weights = dict(model.weights or ())
        self._temper = dict(model.temper_by_players or ()).get(players, model.temper)
        tables = _tables(self.R, self.hitler_knows, model)
        self._onehot = tables.onehot
        self._vote_logs = tables.vote_logs
        self._liberal_vote_logs = tables.liberal_vote_logs
        self._memo = tables.memo

    def fork(self) -> Self:
        """An independent copy, cheap enough for every rollout of a search: the tables and the
        weight arrays are shared (never changed in place: ``_add`` and ``_mask`` rebind them),
        the seats alive and the open session are copied."""
        other = copy.copy(self)
        other.table = self.table.copy()
        other.heard_investigations = set(self.heard_investigations)
        if self.session is not None:
            other.session = replace(self.session)
        return other

    def _hitler_knows(self) -> bool:
        return self.hitler_knows

    @classmethod
    def for_view(
        cls,
        view: Any,
        *,
        public: bool = False,
        model: Model = DEFAULT_MODEL,
        talk: TalkModel | None = None,
    ) -> Self:
        """Beliefs sized for the game of ``view`` (player count, fascists, deck) from its rules."""
        from ..engine.settings import Rules

        rules = Rules.from_json({k: v for k, v in view.rules.items() if v is not None})
        return cls(
            view.players,
            rules.fascist_count(view.players),
            view.seat,
            deck=rules.deck,
            hitler_zone=rules.hitler_zone,
            hitler_knows=rules.hitler_knows(view.players),
            public=public,
            model=model,
            talk=talk,
        )

    # ------------------------------------------------------------------ updating
    def update(self, view: Any) -> None:
        events = view.events
        if len(events) == self.seen:
            return
        for e in events[self.seen :]:
            self._event(e)
        self.seen = len(events)
        if self.executed_pending is not None and self.table.winner is None:
            # The game went on after the execution (a win is logged by the same action, so it
            # would be in these events): the executed seat was not Hitler.
            self._mask(self.R[:, self.executed_pending] != HIT)
        self.executed_pending = None
        self._probs = None

    def _mask(self, keep: np.ndarray) -> None:
        self.logw = np.where(keep, self.logw, -np.inf)

    def _add(self, loglik: np.ndarray, term: str) -> None:
        t = self._weights.get(term, self._temper)
        self.logw = self.logw + (loglik if t == 1.0 else t * loglik)

    def _event(self, e: TypedEvent) -> None:
        """Read one event: its handler (``_HANDLERS``), which sees the public state before the
        event (``table``), then the fold; the public belief skips the seats' private events."""
        kind = e["type"]
        handler = _HANDLERS.get(kind)
        if handler is not None and not (self.seat is None and kind in PRIVATE_EVENTS):
            handler(self, e)
        self.table.feed(e)

    def _on_role(self, e: E.RoleDealt) -> None:
        if e.seat == self.seat:
            self._mask(self.R[:, e.seat] == ROLE_INDEX[e.role])

    def _on_night(self, e: E.Night) -> None:
        for key, role in e.known.items():
            self._mask(self.R[:, int(key)] == ROLE_INDEX[role])
        if self.seat is not None and self.R.shape[0] and e.known:
            # Everyone not named is liberal (N1: fascists see the whole team).
            named = {int(key) for key in e.known} | {self.seat}
            for s in range(self.n):
                if s not in named:
                    self._mask(self.R[:, s] == LIB)

    def _on_nominated(self, e: E.Nominated) -> None:
        # The last session stays open: its claims may come until the next one begins (the
        # engine's claim window, ``PublicState.session``); ``probs`` weighs it while open.
        p, c = e.president, e.chancellor
        elig = list(self.table.eligible)  # the engine's chancellor candidates at this nomination
        if c not in elig or len(elig) < 2:
            return
        m = self.model
        zone = self.table.hitler_zone_active
        if m.nominate_by_role is not None:
            if p != self.seat:  # one's own pick says nothing to oneself
                self._by_role(p, c, elig, m.nominate_by_role[int(zone)], "nominate")
            return
        key = ("nominate", p, c, tuple(elig), zone)
        loglik = self._memo.get(key)
        if loglik is None:
            weights = np.array(m.nominate_fascist_zone if zone else m.nominate_fascist)
            R = self.R
            rp = R[:, p]
            num = weights[R[:, c]]
            counts = np.stack([(R[:, elig] == r).sum(axis=1) for r in range(3)], axis=1)
            den = counts @ weights
            ratio = num * len(elig) / den  # relative to a uniform choice
            active = (rp == FAS) | ((rp == HIT) & self._hitler_knows())
            loglik = _remember(self._memo, key, np.where(active, np.log(ratio), 0.0))
        self._add(loglik, "nominate")

    def _by_role(self, p: int, t: int, cands: list[int], table: Any, term: str) -> None:
        """``p`` picked ``t`` among ``cands``: weights by target role, one row per role of ``p``
        (a fitted table of people's picks), relative to a uniform pick."""
        self._add(self._choice_loglik(p, t, cands, table), term)

    def _choice_loglik(self, p: int, t: int, cands: Sequence[int], table: Any) -> np.ndarray:
        """Log-likelihood per world of ``p`` choosing ``t`` among ``cands`` with weights
        ``table[chooser role][target role]``, relative to a uniform choice."""
        weights = np.array(table, dtype=float)  # [chooser role, target role]
        R = self.R
        rp = R[:, p]
        counts = np.stack([(R[:, list(cands)] == r).sum(axis=1) for r in range(3)], axis=1)
        den = (counts * weights[rp]).sum(axis=1)
        ratio = weights[rp, R[:, t]] * len(cands) / den
        out: np.ndarray = np.log(ratio)
        return out

    def _on_votes(self, e: E.Votes) -> None:
        state = self.table
        p, c = state.candidate, state.nominee
        if p is None or c is None:
            return
        votes = e.votes
        phase = int(state.hitler_zone_active)
        if state.liberal_to_win <= 1 and 2 in self._vote_logs:
            phase = 2
        lib_logs = self._liberal_vote_logs.get(phase)
        counted = tuple(
            None if v in (p, c) or v == self.seat or not state.alive[v] else ja
            for v, ja in enumerate(votes)
        )
        key = ("votes", p, c, counted, phase)
        terms = self._memo.get(key)  # [the votes' term, the liberal voters' term]
        if terms is None:
            no, yes = self._vote_logs[phase]
            R = self.R
            rp, rc = R[:, p].astype(np.intp), R[:, c].astype(np.intp)
            terms = np.zeros((2, self.W))
            for v, ja in enumerate(counted):
                if ja is None:
                    continue
                tab = yes if ja else no
                terms[0] += tab[R[:, v], rp, rc]
                if lib_logs is not None:
                    terms[1] += np.where(R[:, v] == LIB, lib_logs[int(ja)][rp, rc], 0.0)
            _remember(self._memo, key, terms)
        total, lib_total = terms
        self._add(total, "votes")
        if lib_logs is not None:
            self._add(lib_total, "liberal_votes")
        cv = self.model.candidate_vote
        if cv is not None:
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
        self._mask(self.R[:, e.seat] != HIT)

    def _on_legislative_session(self, e: E.LegislativeSession) -> None:
        self._close_session()
        if self.peek_k3 is not None:
            prior = tuple(1.0 if k == self.peek_k3 else 0.0 for k in range(4))
        else:
            prior = tuple(hand_prior(*self.pile))
            if self.peek_claim is not None:
                t = self.model.peek_claim_trust
                prior = tuple((1 - t) * q + t * (k == self.peek_claim) for k, q in enumerate(prior))
        f = self.model.deck_floor
        prior = tuple((1 - f) * q + f / 4 for q in prior)
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
            self._probs = None
            return
        if s is None or liberals is None or (s.enacted is None and not s.veto_accepted):
            return
        if subject == "president_hand" and seat == s.president and s.c3 is None:
            s.c3 = liberals
        elif subject == "chancellor_hand" and seat == s.chancellor and s.c2 is None:
            s.c2 = liberals
        self._probs = None

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
            for sig in signals(line):
                self.hear_signal(seat, sig.stance, sig.target, sig.certainty)

    def hear_signal(self, seat: int, stance: str, target: int, certainty: str) -> None:
        """``seat`` said its ``stance`` (accuse, trust, hitler) on ``target``: a choice among
        the other living seats weighed by the talk model (``TalkModel``)."""
        table = self.talk.table(stance, certainty)
        weight = self.talk.weight
        if table is None or weight == 0.0 or seat == self.seat or seat == target:
            return
        alive = self.table.alive
        cands = tuple(x for x in range(self.n) if alive[x] and x != seat)
        if target not in cands or len(cands) < 2:
            return
        key = ("talk", id(self.talk), stance, certainty, seat, target, cands)
        loglik = self._memo.get(key)
        if loglik is None:
            loglik = _remember(self._memo, key, self._choice_loglik(seat, target, cands, table))
        self.logw = self.logw + weight * loglik
        self._probs = None

    def investigation_claim_loglik(self, seat: int, target: int, party: str) -> np.ndarray:
        """Log-likelihood per world of ``seat`` claiming that ``target`` is of ``party``."""
        m = self.model
        t = np.zeros((3, 3))  # [investigator role, target role]
        for ri in range(3):
            for rt in range(3):
                truth = "liberal" if rt == LIB else "fascist"
                honest = 1 - m.eps if party == truth else m.eps
                if ri == LIB:
                    p = honest
                elif ri == HIT and not self._hitler_knows():
                    h = m.hitler_truthful_investigation
                    p = h * honest + (1 - h) * 0.5
                elif rt == LIB:
                    p = m.frame_liberal if party == "fascist" else 1 - m.frame_liberal
                else:
                    p = m.clear_teammate if party == "liberal" else 1 - m.clear_teammate
                t[ri, rt] = p
        out: np.ndarray = np.log(t[self.R[:, seat], self.R[:, target]])
        return out

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
            self._mask(self.R[:, target] == LIB)
        else:
            self._mask(self.R[:, target] != LIB)

    def _on_special_election(self, e: E.SpecialElection) -> None:
        self._target_choice(
            e.president, e.target, self.model.special_fascist, exclude=(), term="special"
        )

    def _on_executed(self, e: E.Executed) -> None:
        p, t = e.president, e.target
        table = self.model.execute_by_role
        if table is None:
            self._target_choice(p, t, self.model.execute_fascist, exclude=(), term="execute")
        elif p != self.seat:
            cands = [s for s in range(self.n) if self.table.alive[s] and s != p]
            if t in cands and len(cands) >= 2:
                self._by_role(p, t, cands, table, "execute")
        if self.executed_pending is not None:
            # An earlier execution in the same update, and the game went on to this one.
            self._mask(self.R[:, self.executed_pending] != HIT)
        self.executed_pending = t
        if e.role is not None:  # under reveal_executed_role
            self._mask(self.R[:, t] == ROLE_INDEX[e.role])

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
        cands = [s for s in range(self.n) if alive[s] and s != p and s not in exclude]
        if t not in cands or len(cands) < 2:
            return
        weights = np.array(weights_t)
        R = self.R
        counts = np.stack([(R[:, cands] == r).sum(axis=1) for r in range(3)], axis=1)
        ratio = weights[R[:, t]] * len(cands) / (counts @ weights)
        rp = R[:, p]
        active = (rp == FAS) | ((rp == HIT) & self._hitler_knows())
        self._add(np.where(active, np.log(ratio), 0.0), term)

    def _on_game_over(self, e: E.GameOver) -> None:
        self._close_session()
        roles = e.roles
        if roles:
            for s, r in enumerate(roles):
                self._mask(self.R[:, s] == ROLE_INDEX[r])

    def _close_session(self) -> None:
        s = self.session
        if s is None:
            return
        self.session = None
        self._add(self._session_loglik(s), "session")
        if not s.reshuffled:
            # Correct the pile estimate with the best guess of what was drawn.
            lib, fas = self.pile
            guess = s.k3 if s.k3 is not None else s.c3
            if guess is not None:
                self.pile = [max(lib + s.taken - guess, 0.0), max(fas - s.taken + guess, 0.0)]

    def _session_loglik(self, s: Session) -> np.ndarray:
        table = session_table(self.model, s)
        out: np.ndarray = np.log(table[self.R[:, s.president], self.R[:, s.chancellor]])
        return out

    def _open_session_loglik(self, s: Session) -> np.ndarray:
        """The open session's log-likelihood, tempered like everything ``_add`` receives."""
        t = self._weights.get("session", self._temper)
        out = self._session_loglik(s)
        return out if t == 1.0 else t * out

    # ------------------------------------------------------------------ queries
    def probs(self) -> np.ndarray:
        """The posterior over worlds (sums to 1), including the session still open."""
        if self._probs is None:
            logw = self.logw
            if self.session is not None:
                logw = logw + self._open_session_loglik(self.session)
            self._probs = _normalize(logw)
        return self._probs

    def probs_with(self, **changes: Any) -> np.ndarray:
        """The posterior if the open session also showed ``changes`` (claims, enactment).

        What a fascist uses to price a move: the public posterior after it and its cover story.
        """
        s = self.session
        if s is None:
            return self.probs()
        return _normalize(self.logw + self._open_session_loglik(replace(s, **changes)))

    def marginals(self, probs: np.ndarray | None = None) -> np.ndarray:
        """(seats, 3): P(seat has role r), r = liberal, fascist, Hitler."""
        p = self.probs() if probs is None else probs
        return (p @ self._onehot).reshape(self.n, 3)

    def p_fascist_party(self, probs: np.ndarray | None = None) -> np.ndarray:
        m = self.marginals(probs)
        out: np.ndarray = m[:, FAS] + m[:, HIT]
        return out

    def p_both_liberal(self, a: int, b: int, probs: np.ndarray | None = None) -> float:
        p = self.probs() if probs is None else probs
        return float(p[(self.R[:, a] == LIB) & (self.R[:, b] == LIB)].sum())

    def conditioned_liberal(self, seat: int) -> np.ndarray:
        """The posterior given that ``seat`` is liberal: what that liberal would believe."""
        p = self.probs() * (self.R[:, seat] == LIB)
        total = p.sum()
        return p / total if total > 0 else self.probs()

    def world_index(self, roles: list[str] | tuple[str, ...]) -> int:
        """The index of the world matching ``roles`` (names), or -1."""
        row = np.array([ROLE_INDEX[r] for r in roles], dtype=np.int8)
        hits = np.nonzero((row == self.R).all(axis=1))[0]
        return int(hits[0]) if len(hits) else -1

    def possible(self) -> int:
        """How many worlds hard evidence has not ruled out."""
        return int(np.isfinite(self.logw).sum())


#: Each event type's handler (``Beliefs._on_<type>``), found once per event by ``update``.
_HANDLERS: dict[str, Callable[[Beliefs, Any], None]] = {
    name.removeprefix("_on_"): method
    for name, method in vars(Beliefs).items()
    if name.startswith("_on_")
}


def _normalize(logw: np.ndarray) -> np.ndarray:
    top = logw.max()
    if not np.isfinite(top):
        return np.full(len(logw), 1.0 / len(logw))
    w = np.exp(logw - top)
    out: np.ndarray = w / w.sum()
    return out


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
