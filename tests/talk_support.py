"""Games for the talk tests (bots, simulator, analysis)."""

from __future__ import annotations

import random

from secret_hitler.engine import Game, Phase


def after_a_silent_session(seed: int, players: int = 7) -> Game:
    """A game of random moves (every vote Ja) just after a legislative session whose
    government has not claimed: the next nomination is open."""
    game = Game(players, "official", seed)
    rng = random.Random(seed)
    while True:
        seat = game.to_act()[0]
        legal = [a for a in game.legal_actions(seat) if a.type != "claim"]
        if game.phase is Phase.VOTE:
            legal = [a for a in legal if a.ja]
        game.apply(legal[rng.randrange(len(legal))])
        if game.phase is Phase.NOMINATE and any(e.type == "enacted" for e in game.events[-3:]):
            return game
