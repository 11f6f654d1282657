"""What the posterior computes once and shares (``bots/likelihood.py``, ``Beliefs``' derived
queries) is what computing it each time gave, to the bit: the speed-up of issue 40 point 4
changed no posterior, so it changed no decision (``test_golden.py`` replays whole games)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from secret_hitler.bots.beliefs import Beliefs
from secret_hitler.bots.likelihood import _tables, worlds_matrix
from secret_hitler.bots.model import BOT_MODEL, HUMAN_MODEL, LIB, SEARCH_MODEL, Model
from secret_hitler.engine import Game


def _loop_terms(
    model: Model,
    players: int,
    fascists: int,
    election: tuple[int, int, tuple[bool | None, ...], tuple[bool, ...], int],
    me: int | None,
) -> tuple[np.ndarray, np.ndarray | None]:
    """An election's terms as the posterior summed them before: voter by voter, in seat
    order, from the vote tables gathered per voter, then tempered."""
    p, c, votes, alive, phase = election
    R = worlds_matrix(players, fascists)
    tables = _tables(R, True, model)
    no, yes = tables.vote_logs[phase]
    lib_logs = tables.liberal_vote_logs.get(phase)
    rp, rc = R[:, p].astype(np.intp), R[:, c].astype(np.intp)
    total = np.zeros(len(R))
    lib_total = None if lib_logs is None else np.zeros(len(R))
    for v, ja in enumerate(votes):
        if ja is None or v in (p, c, me) or not alive[v]:
            continue
        total += (yes if ja else no)[R[:, v], rp, rc]
        if lib_total is not None and lib_logs is not None:
            lib_total += np.where(R[:, v] == LIB, lib_logs[int(ja)][rp, rc], 0.0)
    t = tables.weight("votes")
    total = total if t == 1.0 else t * total
    if lib_total is not None:
        t = tables.weight("liberal_votes")
        lib_total = lib_total if t == 1.0 else t * lib_total
    return total, lib_total


@pytest.mark.parametrize(
    "model", [BOT_MODEL, SEARCH_MODEL, HUMAN_MODEL], ids=["bot", "search", "human"]
)
@pytest.mark.parametrize(("players", "fascists"), [(5, 1), (7, 2), (10, 3)])
def test_an_elections_terms_for_every_seat_at_once_are_the_loops_bit_for_bit(
    model: Model, players: int, fascists: int
) -> None:
    rng = random.Random(players)
    tables = _tables(worlds_matrix(players, fascists), True, model)
    phases = sorted(tables.vote_logs)
    for _ in range(40):
        p, c = rng.sample(range(players), 2)
        alive = tuple(rng.random() > 0.15 or s in (p, c) for s in range(players))
        votes = tuple(rng.random() < 0.5 if alive[s] else None for s in range(players))
        election = (p, c, votes, alive, rng.choice(phases))
        every = tables.election_terms(*election)
        counted = [v for v in range(players) if alive[v] and v not in (p, c)]
        assert set(every) == {*counted, None}
        for me, (total, lib_total) in every.items():
            want, want_lib = _loop_terms(model, players, fascists, election, me)
            assert total.tobytes() == want.tobytes()  # every bit, the sign of zero included
            assert (lib_total is None) == (want_lib is None) == (model is not HUMAN_MODEL)
            if lib_total is not None and want_lib is not None:
                assert lib_total.tobytes() == want_lib.tobytes()


def _liberal_government(b: Beliefs, alive: tuple[bool, ...]) -> float:
    """The average P(liberal-liberal) over governments of living seats, as bayes computed it."""
    living = np.array(alive)
    k = ((b.R == LIB) & living).sum(axis=1).astype(float)
    n = float(living.sum())
    return float(b.probs() @ (k * (k - 1) / (n * (n - 1))))


def test_derived_queries_follow_every_change_of_the_posterior_and_forks_share_none() -> None:
    """Marginals, conditioned posteriors and the baseline are kept until the posterior
    changes: after every event they are what computing them afresh gives, and a fork that
    reads on changes none of its original's."""
    game = Game(7, "official", 5)
    rng = random.Random(5)
    b = Beliefs.for_view(game.view(3))
    checked = 0
    while not game.finished:
        seat = game.to_act()[0]
        game.apply(rng.choice(game.legal_actions(seat)))
        b.update(game.view(3))
        probs = b.probs()
        alive = game.view(3).alive
        for _ in range(2):  # asked twice: the second answer comes from what was kept
            assert np.array_equal(b.marginals(), (probs @ b._onehot).reshape(7, 3))
            cond = probs * (b.R[:, 5] == LIB)
            cond = cond / cond.sum() if cond.sum() > 0 else probs
            assert np.array_equal(b.conditioned_liberal(5), cond)
            assert np.array_equal(b.conditioned_marginals(5), b.marginals(cond))
            assert b.p_liberal_government(alive) == _liberal_government(b, alive)
            assert b.p_both_liberal(1, 2) == float(
                probs[(b.R[:, 1] == LIB) & (b.R[:, 2] == LIB)].sum()
            )
        with pytest.raises(ValueError):
            b.marginals()[0, 0] = 1.0  # shared: read-only
        checked += 1
        if checked == 20:  # mid-game: a fork that hears an accusation changes, its original not
            fork, before = b.fork(), b.marginals().copy()
            fork.hear_signal(0, "accuse", 1, "hedged")
            assert not np.array_equal(fork.marginals(), before)
            assert np.array_equal(b.marginals(), before)
    assert checked > 20
