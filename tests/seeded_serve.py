"""A live server whose games are dealt from known seeds (``LiveServer(seeds=...)``, used in turn
and then again from the first): a real server with a known deal, for the tests that need a
situation a random game reaches only sometimes instead of playing random games until one does.
A game's seed decides its roles, first president and deck, and its bots' choices
(``BotDriver._seed``).

Only the tests start a server this way (``server_zygote.py`` calls ``deal_from`` in the server's
process before it serves): the server has no setting for it. If the table stops drawing its
seed from ``secrets.randbits``, this fails at once instead of dealing at random."""

from __future__ import annotations

import itertools

from secret_hitler.server.table import session


class _Seeds:
    """Stands in for the ``secrets`` module the table draws a game's seed from."""

    def __init__(self, seeds: list[int]) -> None:
        self._next = itertools.cycle(seeds).__next__

    def randbits(self, bits: int) -> int:
        return self._next() % (1 << bits)


def deal_from(seeds: list[int]) -> None:
    """This process's tables deal their games from ``seeds``."""
    assert session.secrets.randbits, "the table no longer deals from secrets.randbits"
    session.secrets = _Seeds([int(s) for s in seeds])  # type: ignore[assignment]
