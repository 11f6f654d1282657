"""A timer's forced move (secrethitler.io's timed mode, docs/game-types.md "Timed mode"): the rule
of what is done for a seat whose time ran out, so that a host asks the engine instead of keeping
its own copy.

``forced_action(game, seat, rng)`` draws, with ``rng``, what the site draws:
- a nomination: a uniformly random eligible chancellor;
- a vote: Ja or Nein at random;
- the president's discard: one of his three cards at random (so a kind held twice is twice as
  likely), the chancellor's enactment one of his two;
- a veto, where one may be proposed: the chancellor's policy first, at random, then a random
  choice whether to propose the veto (the site's order: under ``veto_after_choice`` the veto
  names that policy; otherwise a proposed veto names none);
- the president's answer to a veto: accept or refuse at random;
- an investigation, a special election, an execution: a uniformly random legal target, except
  that a president of the fascist party other than Hitler is never made to execute Hitler
  (``election.js@f688831:280-283``) unless Hitler is the only target;
- Avalon SH's assassination: a uniformly random target (the site has no timer there; we give
  the table's timer the last word so that a timed game cannot stall, docs/game-types.md).
Claims are never forced: they are optional statements. The host decides when a seat's time is
up, and which seats a vote waits for (the site's quorum of connected players is the host's). A
table asks for this move only where its ``on_timeout`` is ``random`` (``categories.py``); by
default its stand-in bot decides instead.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from . import actions as A
from .actions import Action
from .errors import IllegalAction
from .types import Party, Phase, Role

if TYPE_CHECKING:
    from .game import Game


def forced_action(game: Game, seat: int, rng: random.Random) -> Action:
    """The action a timer makes for ``seat`` now (see the module docstring); ``IllegalAction``
    (``not_your_turn``, or ``chance_pending``/``game_over``) when it has no decision to make."""
    if game.finished:
        raise IllegalAction("the game is over", "game_over")
    if game.is_chance_node():
        raise IllegalAction("the game waits for a chance outcome", "chance_pending")
    decisions = [a for a in game.legal_actions(seat) if a.type != A.CLAIM]
    if not decisions:
        raise IllegalAction(f"seat {seat} has no decision to make now", "not_your_turn")
    phase = game.phase
    if phase is Phase.DISCARD:
        return Action.discard(seat, rng.choice(game.hand))
    if phase is Phase.ENACT:
        policy = rng.choice(game.hand)
        vetoes = [a for a in decisions if a.type == A.VETO]
        if vetoes and rng.random() < 0.5:
            named = [a for a in vetoes if a.policy is policy]
            return named[0] if named else vetoes[0]
        return Action.enact(seat, policy)
    if phase is Phase.EXECUTE:
        president = game.roles[seat]
        if president is not Role.HITLER and president.party is Party.FASCIST:
            hitler = game.roles.index(Role.HITLER)
            decisions = [a for a in decisions if a.target != hitler] or decisions
    return rng.choice(decisions)


__all__ = ["forced_action"]
