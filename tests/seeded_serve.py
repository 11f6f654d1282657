"""``secret-hitler serve`` whose games are dealt from the seeds in ``SH_TEST_SEEDS`` (comma-
separated, used in turn and then again from the first): a real server with a known deal, for
the tests that need a situation a random game reaches only sometimes (``LiveServer(seeds=...)``)
instead of playing random games until one does. A game's seed decides its roles, first
president and deck, and its bots' choices (``BotDriver._seed``).

Only the tests start the server this way: the server has no setting for it. If the table stops
drawing its seed from ``secrets.randbits``, this fails at once instead of dealing at random."""

from __future__ import annotations

import itertools
import os
import sys

from secret_hitler.cli import main
from secret_hitler.server.table import session


class _Seeds:
    """Stands in for the ``secrets`` module the table draws a game's seed from."""

    def __init__(self, seeds: list[int]) -> None:
        self._next = itertools.cycle(seeds).__next__

    def randbits(self, bits: int) -> int:
        return self._next() % (1 << bits)


if __name__ == "__main__":
    seeds = [int(s) for s in os.environ.pop("SH_TEST_SEEDS").split(",")]
    assert session.secrets.randbits, "the table no longer deals from secrets.randbits"
    session.secrets = _Seeds(seeds)  # type: ignore[assignment]
    sys.argv[0] = "secret-hitler"
    main()
