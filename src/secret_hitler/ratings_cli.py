"""``secret-hitler ratings bots``: public ratings of the bot levels, from bot-vs-bot games.

Each game has a random player count (5-10) and a random level at each seat; each level is one
rated "player". A level seated more than once in a game is rated as separate members with the
same rating, and its new rating is the mean of their updates. The same model and handicap as
rated tables (``secret_hitler.ratings``) is used, so the numbers are on the scale of the
leaderboard's people.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated, Any

import typer

app = typer.Typer(help="Ratings: the bot levels' public ratings.", no_args_is_help=True)


def rate_bots(
    levels: list[str], games: int, seed: int, progress: bool = False
) -> dict[str, dict[str, Any]]:
    """Play ``games`` games between ``levels`` and rate them; level -> mu, sigma, games."""
    from . import ratings as R
    from .bots.base import make_agent
    from .sim.simulator import Lineup, play_game
    from .stats import derive_seed

    rng = random.Random(seed)
    rating = {level: R.default() for level in levels}
    played = dict.fromkeys(levels, 0)
    for index in range(games):
        players = rng.choice(list(R.PLAYERS))
        seats = [rng.choice(levels) for _ in range(players)]
        game_seed = derive_seed("bot-ratings", seed, index)
        agents = [
            make_agent(level, s, derive_seed("agent", game_seed, s))
            for s, level in enumerate(seats)
        ]
        result, _ = play_game(players, Lineup("-", "-"), seed=game_seed, agents=agents)
        lib = [s for s, role in enumerate(result.roles) if role == "liberal"]
        fas = [s for s, role in enumerate(result.roles) if role != "liberal"]
        new_lib, new_fas = R.rate_game(
            [rating[seats[s]] for s in lib],
            [rating[seats[s]] for s in fas],
            result.winner == "liberal",
        )
        updates: dict[str, list[R.Rating]] = {}
        for s, new in zip(lib + fas, new_lib + new_fas, strict=True):
            updates.setdefault(seats[s], []).append(new)
        for level, news in updates.items():
            rating[level] = R.Rating(
                sum(r.mu for r in news) / len(news), sum(r.sigma for r in news) / len(news)
            )
            played[level] += 1
        if progress and (index + 1) % 100 == 0:
            typer.echo(f"{index + 1}/{games} games", err=True)
    return {
        level: {"mu": r.mu, "sigma": r.sigma, "games": played[level]} for level, r in rating.items()
    }


@app.command("bots")
def bots_command(
    games: Annotated[
        int, typer.Option("--games", min=1, max=1_000_000, help="Games to play.")
    ] = 500,
    levels: Annotated[
        str | None, typer.Option("--levels", help="Comma-separated levels (default: every level).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed")] = 1,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Where to write (default: the file the server shows)."),
    ] = None,
) -> None:
    """Rate the bot levels against each other and write the file the leaderboard shows."""
    from .extras import require

    require("server", "secret-hitler ratings")
    from . import ratings as R
    from .bots import available_bots

    known = available_bots()
    chosen = [lv.strip() for lv in levels.split(",") if lv.strip()] if levels else known
    unknown = [lv for lv in chosen if lv not in known]
    if unknown:
        raise typer.BadParameter(
            f"unknown level {unknown[0][:40]!r}; available: {', '.join(known)}",
            param_hint="--levels",
        )
    if len(set(chosen)) < 2:
        raise typer.BadParameter("give at least two levels", param_hint="--levels")
    result = rate_bots(sorted(set(chosen)), games, seed, progress=True)
    command = f"secret-hitler ratings bots --games {games} --seed {seed}"
    if levels:
        command += f" --levels {','.join(chosen)}"
    path = out or R.BOT_RATINGS
    data = {"command": command, "games": games, "model": "openskill PlackettLuce", "levels": result}
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    for level, v in sorted(result.items(), key=lambda kv: -(kv[1]["mu"] - 3 * kv[1]["sigma"])):
        typer.echo(
            f"{level:12} rating {v['mu'] - 3 * v['sigma']:7.2f}  mu {v['mu']:6.2f}  sigma {v['sigma']:5.2f}"
        )
    typer.echo(f"wrote {path}")


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="ratings")
