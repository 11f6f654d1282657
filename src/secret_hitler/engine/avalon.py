"""Avalon SH's assassination (docs/game-types.md "Avalon SH"): a liberal win becomes Hitler's
last choice.

Under ``Rules.avalon`` the fifth liberal policy (however enacted) and Hitler's execution do not
end the game: Hitler's card is turned face up (a public ``assassination`` event, which also
says the trigger), he alone is shown the Fascists' and Morgana's roles and his targets, the
whole liberal party (``assassin_sight``, engine/roles.py), and the game waits in phase
``assassinate`` for him, alive or just executed. His ``assassinate`` action names a liberal-party
seat, dead or alive; its card is shown to all (``assassinated``). If it is Merlin the fascists win
(``merlin_assassinated``), otherwise the liberals win for the trigger's reason. Every fascist win
stays immediate. The step reuses the game's power bookkeeping (``power_president`` is the one to
act, ``power_targets`` his choices), so ``to_act``, ``legal_actions`` and the checks of
engine/game.py serve it unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import events as E
from .events import ReadOnlyDict
from .roles import assassin_sight
from .types import Phase, Reason, Role, Winner

if TYPE_CHECKING:
    from .game import Game


def open_assassination(game: Game, trigger: Reason) -> None:
    """The liberals' ``trigger`` (five liberal policies, Hitler executed) has come under Avalon
    SH: Hitler is revealed and must name Merlin."""
    roles = game.roles
    hitler = roles.index(Role.HITLER)
    sight = assassin_sight(roles)
    game._assassination = ReadOnlyDict(hitler=hitler, trigger=trigger.value, target=None)
    game.phase = Phase.ASSASSINATE
    game.power_president = hitler
    game.power_targets = tuple(sight["targets"])
    game.hand = []
    game._log(E.Assassination, {"hitler": hitler, "trigger": trigger.value})
    game._log(E.AssassinSight, sight, (hitler,))


def assassinate(game: Game, hitler: int, target: int) -> None:
    """Hitler names ``target`` (checked by the game): its card is shown and the game ends."""
    opened = game._assassination
    assert opened is not None
    role = game.roles[target]
    game._log(E.Assassinated, {"hitler": hitler, "target": target, "role": role.value})
    game._assassination = ReadOnlyDict(opened, target=target)
    game.power_targets = ()
    if role is Role.MERLIN:
        game._win(Winner.FASCIST, Reason.MERLIN_ASSASSINATED)
    else:
        game._win(Winner.LIBERAL, Reason(opened["trigger"]))


__all__ = ["assassinate", "open_assassination"]
