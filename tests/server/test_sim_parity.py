"""Bots behave the same in ``simulate`` and at a live table (issue 38 point 4).

A table of bots on the table's clock, with its pacing off (no beat after a move, no gap between
one bot's lines, no bound on a round's lines: what the server adds to the talk loop), plays the
game that ``bots.base.play_out`` (the simulator's loop) plays with the same agents, seeded the
same (``bots.supervised.seat_seed``): every move and claim, every line with the actions before
it. Only the order in which a vote's ballots arrive may differ (each bot votes on its own
thread at the table, in seat order in the simulator); the ballots themselves may not."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from table_support import WAIT, FakeClock, FakeWriter, Notes, make_table, services

from secret_hitler.bots import make_agent
from secret_hitler.bots.base import bot_problem, play_out
from secret_hitler.bots.supervised import seat_seed
from secret_hitler.bots.table_talk import TableTalk
from secret_hitler.engine import Action, Game
from secret_hitler.server.accounts.auth import User
from secret_hitler.server.core.protocol import Hello
from secret_hitler.server.table import session as table_session
from secret_hitler.server.table.bot_talk import Pacing
from secret_hitler.server.table.conn import Conn
from secret_hitler.server.table.seats import Seat

#: (players, level, game seed): games whose bots claim and talk (checked below)
CASES = [(5, "rule", 11), (7, "rule", 12), (8, "rule", 3), (7, "bayes", 5)]

Line = tuple[int | None, int, dict[str, Any]]


def _names(players: int) -> list[str]:
    return [f"Bot {i + 1}" for i in range(players)]


def _simulated(players: int, level: str, seed: int) -> tuple[Game, list[Line]]:
    """The game ``play_out`` plays, with the agents a table makes and tells what it tells."""
    game = Game(_names(players), "official", seed)
    agents = [make_agent(level, s, seat_seed(seed, s)) for s in range(players)]
    for agent in agents:
        agent.seated_with([False] * players)  # no seat is a person's
    talk = TableTalk()
    play_out(game, agents, talk=talk)
    return game, [(e.seat, e.after, e.line.to_json()) for e in talk.said if e.line is not None]


async def _live(players: int, level: str) -> tuple[Game, list[Line]]:
    """The game a table of bots plays to its end, and the bots' lines a watcher was sent."""
    writer, clock, notes = FakeWriter(), FakeClock(), Notes()
    seats = [Seat("bot", None, name, level) for name in _names(players)]
    table = make_table(services(writer, clock, notes, claim_wait=0.0), seats)
    table.driver.talk.lines.pacing = Pacing.none()
    watcher = Conn(None, User("w", "Watcher"))
    table.attach(watcher)
    async with table.lock:
        table.hello(watcher, Hello(type="hello"))
        await table.start_game()
    await asyncio.wait_for(notes.over.wait(), WAIT)
    await table.close()
    assert table.game is not None
    lines: list[Line] = []
    while not watcher.out.empty():
        frame = watcher.out.get_nowait()
        message = json.loads(frame) if frame is not None else {}
        if message.get("type") == "chat":
            said = message["message"]
            lines.append((said["seat"], said["after"], said["line"]))
    return table.game, lines


def _moves(game: Game) -> list[dict[str, Any]]:
    """The game's actions, each vote's ballots in seat order."""
    out: list[Action] = []
    ballots: list[Action] = []
    for action in [*game.actions, None]:
        if action is not None and action.type == "vote":
            ballots.append(action)
            continue
        out += sorted(ballots, key=lambda a: a.seat)
        ballots = []
        if action is not None:
            out.append(action)
    return [a.to_json() for a in out]


@pytest.mark.parametrize(("players", "level", "seed"), CASES)
def test_a_table_of_bots_plays_the_simulators_game(
    players: int, level: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    if bot_problem(level) is not None:
        pytest.skip(f"{level}: {bot_problem(level)}")  # (the bots extra: installed in CI)
    monkeypatch.setattr(table_session.secrets, "randbits", lambda bits: seed)
    simulated, said = _simulated(players, level, seed)
    live, heard = asyncio.run(_live(players, level))
    assert live.seed == seed
    assert _moves(live) == _moves(simulated)
    assert (live.winner, live.reason) == (simulated.winner, simulated.reason)
    assert heard == said
    # the game has what makes the comparison worth making: claims and lines
    assert any(a.type == "claim" for a in simulated.actions) and said
