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
    return [x / s for x in out]


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
    worlds' one-hot roles, the vote likelihood tables, and a memo of the nomination and vote
    terms (shared by all of them, so a search's many rollout bots build and count each once;
    every array read-only, since any of them may hold it)."""

    __slots__ = ("R", "onehot", "vote_logs", "liberal_vote_logs", "memo")

    def __init__(self, R: np.ndarray, hitler_knows: bool, model: Model) -> None:
        self.R = R  # the cache key holds its id: kept alive, and checked on each hit
        players = R.shape[1]
        onehot = np.zeros((len(R), players * 3))
        for s in range(players):
            for r in range(3):
                onehot[:, s * 3 + r] = R[:, s] == r
        onehot.setflags(write=False)
        self.onehot = onehot
        lm = model
        # vote likelihood tables [ja][voter, pres, chanc] by phase (0 before the Hitler zone,
        # 1 in the zone, 2 once 4 liberal policies are down if the model has that table)
        self.vote_logs: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.liberal_vote_logs: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.memo: dict[tuple[Any, ...], np.ndarray] = {}
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
            if lm.liberal_votes and lm.vote_relative and lm.vote_table is not None:
                q = np.array([lm.vote_table[phase][LIB][min(rp, 1)] for rp in range(3)])
                c = lm.ja_uninformed
                no_lib, yes_lib = np.log((1 - q) / (1 - c)), np.log(q / c)
                no_lib.setflags(write=False)
                yes_lib.setflags(write=False)
                self.liberal_vote_logs[phase] = (no_lib, yes_lib)


#: Entries a ``_Tables.memo`` keeps before it starts again (a long-lived server meets many).
MEMO_SIZE = 4096


def _remember(
    memo: dict[tuple[Any, ...], np.ndarray], key: tuple[Any, ...], value: np.ndarray
) -> np.ndarray:
    """Store ``value`` (read-only from now on: every ``Beliefs`` of the table may get it)."""
    if len(memo) >= MEMO_SIZE:
        memo.clear()
    value.setflags(write=False)
    memo[key] = value
    return value


_TABLES: dict[tuple[int, bool, Model], _Tables] = {}


def _tables(R: np.ndarray, hitler_knows: bool, model: Model) -> _Tables:
    """The tables of the worlds ``R`` (``worlds_matrix``'s array: one per table size)."""
    key = (id(R), hitler_knows, model)
    tables = _TABLES.get(key)
    if tables is None or tables.R is not R:
        if len(_TABLES) >= 64:
            _TABLES.clear()
        tables = _TABLES[key] = _Tables(R, hitler_knows, model)
    return tables


def normalize_log(logw: np.ndarray) -> np.ndarray:
    """Probabilities from log-weights (at least one finite)."""
    w = np.exp(logw - logw.max())
    out: np.ndarray = w / w.sum()
    return out
