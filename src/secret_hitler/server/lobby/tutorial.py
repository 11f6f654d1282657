"""The tutorial table (issue 11, point 6): a first game against scripted bots.

It is a real table and a real engine game; only chance is fixed in advance, through the record
fixings (RECORD-FORMAT.md: ``roles``, ``first_president``, ``deck``), and the four bots follow a
short script, so that a player who follows the coach (web client, js/tutorial.js) meets the
night, a nomination, a vote, a legislative session, a power and the veto in two rounds:

- the board starts with 4 fascist policies (``start_track``), official 5-player powers;
- round 1: the newcomer (seat 0, a Liberal) is the first presidential candidate and draws three
  fascist policies, so the 5th fascist policy is enacted whatever he discards: Execution, and
  the veto is unlocked (V1);
- round 2: the bot after him nominates him Chancellor, passes him two fascist policies, and
  consents to his veto.

Nothing here decides a rule: the bots choose among the engine's legal actions, and the game goes
on after the script like any other (a veto refused, Hitler executed, whatever the player does).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...bots import Agent, register
from ...engine import Action, View
from ...engine.types import Policy
from ..accounts.auth import User
from ..table import usecases
from ..table.session import Table
from .hub import Hub

PLAYERS = 5
LEVEL = "tutorial"  # the scripted bots' level (registered below; not offered by the client)
RULES: dict[str, Any] = {"preset": "official", "start_track": {"liberal": 0, "fascist": 4}}
ROLES = ["liberal", "liberal", "fascist", "hitler", "liberal"]
FIRST_PRESIDENT = 0
# The draw pile, top first (the official 6 liberal and 11 fascist policies): rounds 1 and 2 draw
# three fascist policies each; the rest is mixed, for whoever plays on.
DECK = ["fascist"] * 6 + ["liberal", "fascist", "liberal", "liberal", "fascist", "liberal"] * 1
DECK += ["fascist", "liberal", "fascist", "liberal", "fascist"]
PLAYER = 0  # the newcomer's seat


def fixings() -> dict[str, Any]:
    """The chance of the tutorial game, as ``Game`` keyword arguments (record fixings)."""
    return {"roles": list(ROLES), "first_president": FIRST_PRESIDENT, "deck": list(DECK)}


class TutorialAgent(Agent):
    """A scripted bot: it helps the story along (nominates the newcomer, votes Ja, passes what
    it drew, consents to a veto, executes a seat that is neither the newcomer nor, by its own
    lights, anyone in particular) and never claims."""

    name = LEVEL

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        turn = [a for a in legal if a.type != "claim"] or list(legal)
        kind = turn[0].type

        def pick(**fields: Any) -> Action | None:
            for a in turn:
                if all(getattr(a, k) == v for k, v in fields.items()):
                    return a
            return None

        choice: Action | None = None
        if kind == "nominate":
            choice = pick(target=PLAYER)
        elif kind == "vote":
            choice = pick(ja=True)
        elif kind == "discard":
            choice = pick(policy=Policy.FASCIST)
        elif kind == "enact":
            choice = pick(policy=Policy.LIBERAL)
        elif kind == "veto_response":
            choice = pick(accept=True)
        elif kind == "execute":
            others = [a for a in turn if a.target != PLAYER]
            choice = others[-1] if others else None
        return choice or turn[0]


register(LEVEL, TutorialAgent)


async def open_tutorial(hub: Hub, user: User, addr: str | None) -> Table:
    """A private tutorial table for ``user`` (seat 0) with four scripted bots, started."""
    body = {
        "players": PLAYERS,
        "rules": RULES,
        "public": False,
        "seat": PLAYER,
        "bots": {str(s): LEVEL for s in range(PLAYERS) if s != PLAYER},
        "bot_level": LEVEL,
        "auto_start": False,  # started below, once the deal is fixed
        "name": "Tutorial",
    }
    table = await hub.create_table(user, body, addr)
    table.fixings = fixings()
    table.driver.claim_wait = 0.0  # the coach does not teach claims: no bot waits for one
    await usecases.start_waiting(table)
    return table
