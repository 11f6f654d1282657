"""Likelihood tables over roles for the posterior (``beliefs``), and what every posterior of
one table shares.

A world is one assignment of the hidden roles (``worlds_matrix``: a row per world, a column per
seat, 0 liberal, 1 fascist, 2 Hitler). Every behaviour likelihood depends on a few seats' roles
only, so it is a small table over roles indexed by columns of that matrix: a legislative
session's by the government's roles (``session_table``, with the deck-counting prior of the
draw, ``hand_prior``), a vote's by the voter's and the government's (``_Tables.vote_logs``).
``_Tables`` holds what every ``Beliefs`` of one table size, night knowledge and model computes
alike, with a bounded memo of the terms they read (``_remember``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any

import numpy as np

from .model import FAS, HIT, LIB, Model


@lru_cache(maxsize=64)
def worlds_matrix(n: int, fascists: int) -> np.ndarray:
    """All role assignments as an int8 matrix (worlds, seats) of 0 liberal, 1 fascist, 2 Hitler."""
    rows = []
    for h in range(n):
        others = [s for s in range(n) if s != h]
        for fs in combinations(others, fascists):
            row = [LIB] * n
            row[h] = HIT
            for s in fs:
                row[s] = FAS
            rows.append(row)
    out = np.array(rows, dtype=np.int8)
    out.setflags(write=False)
    return out


def hand_prior(lib: float, fas: float) -> list[float]:
    """P(k liberals among 3 draws) from a pile of ``lib``/``fas`` (floats: estimated counts)."""
    return list(_hand_prior(float(lib), float(fas)))


@lru_cache(maxsize=4096)
def _hand_prior(lib: float, fas: float) -> tuple[float, ...]:
    lib, fas = max(lib, 0.0), max(fas, 0.0)
    total = lib + fas
    if total < 3:
        lib, fas = lib + 0.5, fas + 0.5
        total = lib + fas
    out = []
    for k in range(4):
        # one order with k liberals first, times the C(3, k) orders
        p = 1.0
        lo, fa, t = lib, fas, total
        for _ in range(k):
            p *= max(lo, 0.0) / t
            lo -= 1
            t -= 1
        for _ in range(3 - k):
            p *= max(fa, 0.0) / t
            fa -= 1
            t -= 1
        out.append(math.comb(3, k) * max(p, 0.0))
    s = sum(out) or 1.0
    return tuple(x / s for x in out)


@lru_cache(maxsize=4096)
def session_prior(
    lib: float, fas: float, peek: int | None, peek_claim: int | None, trust: float, floor: float
) -> tuple[float, ...]:
    """P(k liberals among the 3 drawn) at a legislative session: the pile estimate's
    ``hand_prior``, or a peek's count when this seat peeked; a public peek claim weighted by
    ``trust``; every count kept at least ``floor`` / 4 (the estimate may be off: lies)."""
    if peek is not None:
        prior = tuple(1.0 if k == peek else 0.0 for k in range(4))
    else:
        prior = _hand_prior(lib, fas)
        if peek_claim is not None:
            t = trust
            prior = tuple((1 - t) * q + t * (k == peek_claim) for k, q in enumerate(prior))
    f = floor
    return tuple((1 - f) * q + f / 4 for q in prior)


@dataclass(slots=True)
class Session:
    """One legislative session, kept open until the claim window closes (next nomination)."""

    president: int
    chancellor: int
    prior: tuple[float, ...]  # P(k3 liberals drawn), from deck counting
    veto_available: bool
    k3: int | None = None  # known to this seat (it drew them)
    k2: int | None = None  # known to this seat (it passed or received them)
    veto_proposed: bool = False
    veto_accepted: bool | None = None
    enacted: str | None = None
    c3: int | None = None  # president's claim: liberals among 3
    c2: int | None = None  # chancellor's claim: liberals among 2
    reshuffled: bool = False
    taken: float = 0.0  # liberals the pile estimate removed for this draw


def _mix_claim(model: Model, claim: int, truth: int, cover: int, size: int, role: int) -> float:
    eps = model.eps if model.eps_claim is None else model.eps_claim
    liberal = (1 - eps) * (claim == truth) + eps / (size + 1)
    cl, ct = model.cover_lie, model.cover_truth
    if size == 2 and model.cover_lie_chancellor is not None:
        cl = model.cover_lie_chancellor
        ct = model.cover_truth_chancellor if model.cover_truth_chancellor is not None else ct
    lie = cl * (claim == cover) + ct * (claim == truth) + (1 - cl - ct) / (size + 1)
    if role == LIB:
        return liberal
    if role == FAS:
        return lie
    return (1 - model.hitler_lies) * liberal + model.hitler_lies * lie


def session_table(model: Model, s: Session) -> np.ndarray:
    """Likelihood of what is public (and known to this seat) about a session, by (pres, chanc) role."""
    key = (
        s.prior,
        s.veto_available,
        s.k3,
        s.k2,
        s.veto_proposed,
        s.veto_accepted,
        s.enacted,
        s.c3,
        s.c2,
    )
    return _session_table(model, key)


@lru_cache(maxsize=4096)
def _session_table(model: Model, key: tuple[Any, ...]) -> np.ndarray:
    prior, veto_available, k3_known, k2_known, veto_proposed, veto_accepted, enacted, c3, c2 = key
    table = np.zeros((3, 3))
    for rp in range(3):
        for rc in range(3):
            total = 0.0
            for k3 in range(4):
                if k3_known is not None and k3 != k3_known:
                    continue
                p3 = 1.0 if k3_known is not None else prior[k3]
                if p3 <= 0:
                    continue
                for k2 in {max(k3 - 1, 0), min(k3, 2)}:
                    if k2_known is not None and k2 != k2_known:
                        continue
                    if k3 in (0, 3):
                        p = p3
                    else:
                        if model.bad_pass_hand is not None:
                            bad = model.bad_pass_hand[rp][rc][k3 - 1]
                        else:
                            bad = model.bad_pass[rp][rc]
                        p = p3 * (bad if k2 == k3 - 1 else 1 - bad)
                    # veto
                    if veto_available:
                        if rc == LIB:
                            pv = model.veto_liberal_ff if k2 == 0 else model.veto_other
                        else:
                            pv = model.veto_other
                        if veto_proposed:
                            p *= pv
                            if veto_accepted is not None:
                                if rp == LIB:
                                    pa = (
                                        model.veto_accept_liberal_ff
                                        if k2 == 0
                                        else model.veto_other
                                    )
                                else:
                                    pa = model.veto_accept_other
                                p *= pa if veto_accepted else 1 - pa
                        elif enacted is not None:
                            p *= 1 - pv
                    # enactment
                    if enacted is not None:
                        if enacted == "liberal" and k2 == 0 or enacted == "fascist" and k2 == 2:
                            continue
                        if k2 == 1:
                            bad = model.bad_enact[rc][rp]
                            p *= bad if enacted == "fascist" else 1 - bad
                    # claims
                    if c3 is not None:
                        cover = k2 if k2 < 2 else k3
                        p *= _mix_claim(model, c3, k3, cover, 3, rp)
                    if c2 is not None:
                        cover = 0 if enacted == "fascist" else k2
                        p *= _mix_claim(model, c2, k2, cover, 2, rc)
                    total += p
            table[rp, rc] = total
    table += 1e-12
    table.setflags(write=False)
    return table


class _Tables:
    """What every ``Beliefs`` of one table size, night knowledge and model computes alike: the
    worlds' one-hot roles, the vote likelihood tables, each term's weight, and a memo of the
    terms read from public facts (a nomination, an election's votes, a session, a choice of
    target), each as it is added to the log-weights (tempered: the weights are the table's).
    Shared by all of them, so the seats of one game and a search's many rollout bots compute
    each term once; every array read-only, since any of them may hold it."""

    __slots__ = (
        "R",
        "model",
        "hitler_knows",
        "onehot",
        "vote_logs",
        "liberal_vote_logs",
        "vote_tables",
        "liberal_vote_tables",
        "memo",
        "weights",
        "temper",
        "columns",
    )

    def __init__(self, R: np.ndarray, hitler_knows: bool, model: Model) -> None:
        self.R = R  # the cache key holds its id: kept alive, and checked on each hit
        self.model = model
        self.hitler_knows = hitler_knows
        players = R.shape[1]
        self.weights = dict(model.weights or ())
        self.temper = dict(model.temper_by_players or ()).get(players, model.temper)
        onehot = np.zeros((len(R), players * 3))
        for s in range(players):
            for r in range(3):
                onehot[:, s * 3 + r] = R[:, s] == r
        onehot.setflags(write=False)
        self.onehot = onehot
        # derived columns of R (masks, index arrays), by a key naming what they are
        self.columns: dict[tuple[Any, ...], np.ndarray] = {}
        lm = model
        # vote likelihood tables [ja][voter, pres, chanc] by phase (0 before the Hitler zone,
        # 1 in the zone, 2 once 4 liberal policies are down if the model has that table)
        self.vote_logs: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.liberal_vote_logs: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        # the same as arrays indexed [ja] first (``election_terms`` gathers by each vote)
        self.vote_tables: dict[int, np.ndarray] = {}
        self.liberal_vote_tables: dict[int, np.ndarray] = {}
        self.memo: dict[tuple[Any, ...], Any] = {}
        phases = (0, 1, 2) if lm.vote_table is not None and len(lm.vote_table) > 2 else (0, 1)
        for phase in phases:
            zone = phase >= 1
            t_yes = np.zeros((3, 3, 3))
            t_no = np.zeros((3, 3, 3))
            for rv in range(3):
                for rp in range(3):
                    for rc in range(3):
                        if rv == LIB:
                            p = lm.ja_uninformed
                        elif rv == HIT and not hitler_knows:
                            p = lm.ja_uninformed
                            if zone and rc == HIT:
                                p = lm.ja_fascist_hitler_zone
                        elif zone and rc == HIT:
                            p = lm.ja_fascist_hitler_zone
                        elif rp != LIB or rc != LIB:
                            p = lm.ja_fascist_team_gov
                        else:
                            p = lm.ja_fascist_clean_gov
                        yes, no = p, 1 - p
                        if lm.vote_table is not None:
                            tab = lm.vote_table[phase]
                            row = rv if rv != HIT or not hitler_knows else FAS
                            p = tab[row][min(rp, 1)][rc]
                            yes, no = p, 1 - p
                            if lm.vote_relative:
                                base = tab[LIB][min(rp, 1)][rc]
                                c = lm.ja_uninformed
                                if rv == LIB:
                                    yes, no = c, 1 - c
                                else:
                                    yes, no = c * p / base, (1 - c) * (1 - p) / (1 - base)
                        t_yes[rv, rp, rc] = yes
                        t_no[rv, rp, rc] = no
            t_no, t_yes = np.log(t_no), np.log(t_yes)
            t_no.setflags(write=False)
            t_yes.setflags(write=False)
            self.vote_logs[phase] = (t_no, t_yes)
            self.vote_tables[phase] = _frozen(np.stack([t_no, t_yes]))
            if lm.liberal_votes and lm.vote_relative and lm.vote_table is not None:
                q = np.array([lm.vote_table[phase][LIB][min(rp, 1)] for rp in range(3)])
                c = lm.ja_uninformed
                no_lib, yes_lib = np.log((1 - q) / (1 - c)), np.log(q / c)
                no_lib.setflags(write=False)
                yes_lib.setflags(write=False)
                self.liberal_vote_logs[phase] = (no_lib, yes_lib)
                self.liberal_vote_tables[phase] = _frozen(np.stack([no_lib, yes_lib]))

    def weight(self, term: str) -> float:
        """What a term's log-likelihood is multiplied by (``Model.weights``, else the temper
        of this table size)."""
        return self.weights.get(term, self.temper)

    def column(self, key: tuple[Any, ...], make: Any) -> np.ndarray:
        """A derived column of ``R`` (a mask, a vector over worlds) made once: ``make()``."""
        out = self.columns.get(key)
        if out is None:
            if len(self.columns) >= MEMO_SIZE:
                self.columns.clear()
            out = self.columns[key] = make()
            out.setflags(write=False)
        return out

    def both_liberal(self, a: int, b: int) -> np.ndarray:
        """The worlds where seats ``a`` and ``b`` are both liberal."""
        R = self.R
        return self.column(("both_liberal", a, b), lambda: (R[:, a] == LIB) & (R[:, b] == LIB))

    def liberal_pairs(self, alive: tuple[bool, ...]) -> np.ndarray:
        """Per world, the share of governments of two living seats that are liberal-liberal."""

        def make() -> np.ndarray:
            living_mask = np.array(alive)
            k = ((self.R == LIB) & living_mask).sum(axis=1).astype(float)
            living = float(living_mask.sum())
            out: np.ndarray = k * (k - 1) / (living * (living - 1))
            return out

        return self.column(("liberal_pairs", alive), make)

    def fascist_choice(
        self, p: int, t: int, cands: Sequence[int], weights_t: tuple[float, float, float]
    ) -> np.ndarray:
        """Log-likelihood per world of ``p`` choosing ``t`` among ``cands``, relative to a
        uniform choice, when ``p`` is an informed fascist (weights by the target's role), else
        0: a fascist president's nomination, special election or execution. Its parts depend
        on ``R`` alone, made once (``column``)."""
        R = self.R
        weights = np.array(weights_t)
        num = self.column(("role_weight", t, weights_t), lambda: weights[R[:, t]])

        def den() -> np.ndarray:
            chosen = list(cands)
            counts = np.stack([(R[:, chosen] == r).sum(axis=1) for r in range(3)], axis=1)
            out: np.ndarray = counts @ weights
            return out

        total = self.column(("choice_weight", tuple(cands), weights_t), den)
        ratio = num * len(cands) / total
        knows = self.hitler_knows
        rp = R[:, p]
        active = self.column(("informed", p), lambda: (rp == FAS) | ((rp == HIT) & knows))
        out: np.ndarray = np.where(active, np.log(ratio), 0.0)
        return out

    def choice_loglik(self, p: int, t: int, cands: Sequence[int], table: Any) -> np.ndarray:
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

    def investigation_claim(self, seat: int, target: int, party: str) -> np.ndarray:
        """Log-likelihood per world of ``seat`` claiming that ``target`` is of ``party`` (not
        tempered; made once)."""
        key = ("investigation_claim", seat, target, party)
        out: np.ndarray | None = self.memo.get(key)
        if out is not None:
            return out
        m = self.model
        t = np.zeros((3, 3))  # [investigator role, target role]
        for ri in range(3):
            for rt in range(3):
                truth = "liberal" if rt == LIB else "fascist"
                honest = 1 - m.eps if party == truth else m.eps
                if ri == LIB:
                    p = honest
                elif ri == HIT and not self.hitler_knows:
                    h = m.hitler_truthful_investigation
                    p = h * honest + (1 - h) * 0.5
                elif rt == LIB:
                    p = m.frame_liberal if party == "fascist" else 1 - m.frame_liberal
                else:
                    p = m.clear_teammate if party == "liberal" else 1 - m.clear_teammate
                t[ri, rt] = p
        out = _remember(self.memo, key, np.log(t[self.R[:, seat], self.R[:, target]]))
        return out

    def session_term(self, s: Session) -> np.ndarray:
        """A legislative session's log-likelihood per world, tempered (``session_table`` by
        the government's roles; made once per what is known of the session)."""
        facts = (
            s.prior,
            s.veto_available,
            s.k3,
            s.k2,
            s.veto_proposed,
            s.veto_accepted,
            s.enacted,
            s.c3,
            s.c2,
        )
        key = ("session", s.president, s.chancellor, facts)
        out: np.ndarray | None = self.memo.get(key)
        if out is None:
            table = _session_table(self.model, facts)
            loglik = np.log(table[self.R[:, s.president], self.R[:, s.chancellor]])
            t = self.weight("session")
            out = _remember(self.memo, key, loglik if t == 1.0 else t * loglik)
        return out

    def election_terms(
        self, p: int, c: int, votes: tuple[bool | None, ...], alive: tuple[bool, ...], phase: int
    ) -> dict[int | None, tuple[np.ndarray, np.ndarray | None]]:
        """The votes term and the liberal voters' term of the election of ``p`` and ``c`` as
        each seat reads it, tempered: the counted voters' terms (the living outside the
        government; a voter's is the vote table gathered by his and the government's roles)
        summed in seat order, less the reading seat's own, for every counted voter and for
        None (a seat whose vote is not counted anyway): ``{reader: (votes, liberal votes)}``.

        All at once, and in the order a loop over the voters adds them (the same bits): each
        sum is the running sum of the voters before the reader's (``np.cumsum`` along the
        voters), then the voters after it, one at a time."""
        R = self.R
        counted = [
            v for v, ja in enumerate(votes) if ja is not None and v not in (p, c) and alive[v]
        ]
        ja = np.array([int(bool(votes[v])) for v in counted], dtype=np.intp)[:, None]
        rp, rc = R[:, p].astype(np.intp)[None], R[:, c].astype(np.intp)[None]
        roles = R.T[counted]  # (voters, worlds)
        terms = self.vote_tables[phase][ja, roles, rp, rc]
        out = self._readers_sums(terms, counted, "votes")
        lib_logs = self.liberal_vote_tables.get(phase)
        if lib_logs is None:
            return {who: (total, None) for who, total in out.items()}
        lib = np.where(roles == LIB, lib_logs[ja, rp, rc], 0.0)
        lib_out = self._readers_sums(lib, counted, "liberal_votes")
        return {who: (total, lib_out[who]) for who, total in out.items()}

    def _readers_sums(
        self, terms: np.ndarray, counted: list[int], term: str
    ) -> dict[int | None, np.ndarray]:
        """Each reader's sum of the voters' ``terms`` (rows in seat order) but its own, as a
        loop adds them, tempered (``election_terms``)."""
        k = len(terms)
        before = np.zeros((k + 1, len(self.R)))  # before[j]: the sum of the first j voters
        if k:
            before[1:] = np.cumsum(terms, axis=0)
        sums = before[:k].copy()
        for step in range(1, k):  # then the voters after the reader's, one at a time
            sums[: k - step] += terms[step:]
        t = self.weight(term)
        if t != 1.0:
            sums, before = t * sums, t * before
        out: dict[int | None, np.ndarray] = {who: sums[j] for j, who in enumerate(counted)}
        out[None] = before[k]
        return out


def _frozen(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array


#: Entries a ``_Tables.memo`` keeps before it starts again (a long-lived server meets many).
MEMO_SIZE = 4096


def _remember(memo: dict[tuple[Any, ...], Any], key: tuple[Any, ...], value: Any) -> Any:
    """Store ``value``, an array or a tuple of arrays (read-only from now on: every ``Beliefs``
    of the table may get it)."""
    if len(memo) >= MEMO_SIZE:
        memo.clear()
    for array in value if isinstance(value, tuple) else (value,):
        if array is not None:
            array.setflags(write=False)
    memo[key] = value
    return value


_TABLES: dict[tuple[int, bool, int], _Tables] = {}


def _tables(R: np.ndarray, hitler_knows: bool, model: Model) -> _Tables:
    """The tables of the worlds ``R`` (``worlds_matrix``'s array: one per table size) and
    ``model`` (by identity: hashing a model's every number costs more than a posterior's
    update; the tables hold both, and a hit checks them)."""
    key = (id(R), hitler_knows, id(model))
    tables = _TABLES.get(key)
    if tables is None or tables.R is not R or tables.model is not model:
        if len(_TABLES) >= 64:
            _TABLES.clear()
        tables = _TABLES[key] = _Tables(R, hitler_knows, model)
    return tables


def normalize_log(logw: np.ndarray) -> np.ndarray:
    """Probabilities from log-weights (at least one finite)."""
    w = np.exp(logw - logw.max())
    out: np.ndarray = w / w.sum()
    return out
