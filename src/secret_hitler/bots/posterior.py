"""A posterior over the role assignments of one table, and what may be asked of it.

A world is one assignment of the hidden roles (``likelihood.worlds_matrix``: a row of roles per
world). ``Posterior`` keeps a log-weight per world; evidence enters it as a mask (hard
evidence: ``_mask``) or as a term per world (behaviour: ``_add``, tempered by the model's
weights), and the questions asked of it (the probabilities, each seat's role marginals, the
posterior given that a seat is liberal, how likely a government is liberal-liberal) are derived
once and kept until the weights change (``_changed``): the seats of a vote all ask the same
ones. ``Beliefs`` (bots/beliefs.py) reads a seat's view into one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .likelihood import _tables, worlds_matrix
from .model import FAS, HIT, LIB, ROLE_INDEX, Model


class Posterior:
    """Log-weights over the worlds of a table of ``players`` with ``fascists`` fascists,
    weighed by ``model`` (whose shared tables and memo it uses: ``likelihood._Tables``)."""

    def __init__(self, players: int, fascists: int, hitler_knows: bool, model: Model) -> None:
        self.n = players
        self.fascists = fascists
        self.model = model
        self.hitler_knows = hitler_knows
        self.R = worlds_matrix(players, fascists)
        self.W = len(self.R)
        self.logw = np.zeros(self.W)
        self._probs: np.ndarray | None = None
        # what the queries derived from ``_probs`` (marginals, conditioned posteriors), by name
        self._derived: dict[tuple[Any, ...], Any] = {}
        tables = self._tables = _tables(self.R, hitler_knows, model)
        self._weights = tables.weights
        self._temper = tables.temper
        self._onehot = tables.onehot
        self._vote_logs = tables.vote_logs
        self._liberal_vote_logs = tables.liberal_vote_logs
        self._memo = tables.memo

    def _hitler_knows(self) -> bool:
        return self.hitler_knows

    # ------------------------------------------------------------------ evidence
    def _changed(self) -> None:
        """The log-weights or the open session changed: the posterior is computed again."""
        self._probs = None
        self._derived = {}

    def _mask(self, keep: np.ndarray) -> None:
        self.logw = np.where(keep, self.logw, -np.inf)

    def _add(self, loglik: np.ndarray, term: str) -> None:
        t = self._weights.get(term, self._temper)
        self.logw = self.logw + (loglik if t == 1.0 else t * loglik)

    def _add_tempered(self, loglik: np.ndarray, term: str) -> None:
        """Add a term already tempered (the memo holds them so), ``term`` naming it: every
        behaviour term enters through this or ``_add`` (a subclass keeping the terms apart,
        as ``benchmarks/fit_human_model.py`` does, overrides both)."""
        self.logw = self.logw + loglik

    def _tempered(self, loglik: np.ndarray, term: str) -> np.ndarray:
        """``loglik`` as ``_add`` adds it (for the memo, which holds terms tempered)."""
        t = self._weights.get(term, self._temper)
        return loglik if t == 1.0 else t * loglik

    def _role_is(self, seat: int, role: int) -> np.ndarray:
        R = self.R
        return self._tables.column(("is", seat, role), lambda: R[:, seat] == role)

    def _role_is_not(self, seat: int, role: int) -> np.ndarray:
        R = self.R
        return self._tables.column(("is_not", seat, role), lambda: R[:, seat] != role)

    # ------------------------------------------------------------------ queries
    def probs(self) -> np.ndarray:
        """The posterior over worlds (sums to 1), with the evidence still open (``_open_term``:
        ``Beliefs``' open legislative session)."""
        if self._probs is None:
            logw = self.logw
            open_term = self._open_term()
            if open_term is not None:
                logw = logw + open_term
            self._probs = _normalize(logw)
        return self._probs

    def _open_term(self) -> np.ndarray | None:
        """The tempered log-likelihood of evidence not yet added for good (None: none)."""
        return None

    def _derive(self, key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        """What ``make()`` derives from the posterior now, made once until it changes (every
        seat's votes ask the same questions of it); read-only, as ``probs`` is shared."""
        out = self._derived.get(key)
        if out is None:
            out = self._derived[key] = make()
            if isinstance(out, np.ndarray):
                out.setflags(write=False)
        return out

    def marginals(self, probs: np.ndarray | None = None) -> np.ndarray:
        """(seats, 3): P(seat has role r), r = liberal, fascist, Hitler: of this posterior, or
        of ``probs`` (over the same worlds)."""
        if probs is None:
            probs = self.probs()
        # By the identity of ``probs``, which the entry holds (so no other array takes its id
        # while it lasts): the posterior, or one conditioned on a seat, is asked again and again.
        key = ("marginals", id(probs))
        hit = self._derived.get(key)
        if hit is not None and hit[0] is probs:
            out: np.ndarray = hit[1]
            return out
        out = (probs @ self._onehot).reshape(self.n, 3)
        out.setflags(write=False)
        self._derived[key] = (probs, out)
        return out

    def p_fascist_party(self, probs: np.ndarray | None = None) -> np.ndarray:
        if probs is None:
            out: np.ndarray = self._derive(("fascist",), lambda: self.p_fascist_party(self.probs()))
            return out
        m = self.marginals(probs)
        party: np.ndarray = m[:, FAS] + m[:, HIT]
        return party

    def p_both_liberal(self, a: int, b: int, probs: np.ndarray | None = None) -> float:
        p = self.probs() if probs is None else probs
        return float(p[self._tables.both_liberal(a, b)].sum())

    def p_liberal_government(self, alive: Sequence[bool]) -> float:
        """The average P(liberal-liberal) over governments of the ``alive`` seats."""
        living = tuple(alive)
        pairs = self._tables.liberal_pairs(living)
        out: float = self._derive(("clean", living), lambda: float(self.probs() @ pairs))
        return out

    def conditioned_liberal(self, seat: int) -> np.ndarray:
        """The posterior given that ``seat`` is liberal: what that liberal would believe."""
        out: np.ndarray = self._derive(("conditioned", seat), lambda: self._conditioned(seat))
        return out

    def _conditioned(self, seat: int) -> np.ndarray:
        p = self.probs() * self._role_is(seat, LIB)
        total = p.sum()
        return p / total if total > 0 else self.probs()

    def conditioned_marginals(self, seat: int) -> np.ndarray:
        """``marginals`` of ``conditioned_liberal(seat)``: what a liberal in ``seat`` reads."""
        return self.marginals(self.conditioned_liberal(seat))

    def column(self, key: tuple[Any, ...], make: Callable[[], np.ndarray]) -> np.ndarray:
        """A vector or matrix over the worlds that depends on ``R`` alone (a mask, the roles
        of some seats), made once for every posterior of the table (``_Tables.column``)."""
        return self._tables.column(key, make)

    def world_index(self, roles: list[str] | tuple[str, ...]) -> int:
        """The index of the world matching ``roles`` (names), or -1."""
        row = np.array([ROLE_INDEX[r] for r in roles], dtype=np.int8)
        hits = np.nonzero((row == self.R).all(axis=1))[0]
        return int(hits[0]) if len(hits) else -1

    def possible(self) -> int:
        """How many worlds hard evidence has not ruled out."""
        return int(np.isfinite(self.logw).sum())


def _normalize(logw: np.ndarray) -> np.ndarray:
    top = logw.max()
    if not np.isfinite(top):
        return np.full(len(logw), 1.0 / len(logw))
    w = np.exp(logw - top)
    out: np.ndarray = w / w.sum()
    return out


__all__ = ["Posterior"]
