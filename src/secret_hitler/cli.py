"""The `secret-hitler` command. Each layer registers its own subcommands here."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from .engine import InvalidRecord, replay, replay_summary
from .extras import MissingExtra, extra_for

_app = typer.Typer(
    help="Secret Hitler: rules engine, bots, simulator, server and research tools.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Modules that add their commands with a ``register(app)`` function (``module:function`` names
# another function), and the commands each adds.
# Each imports only light modules at load time (the CLI must start on a plain install); a command
# that needs an extra checks for it when it runs (``extras.require``). A run of one command loads
# only its module (start-up is part of every `simulate`), ``--help`` loads them all;
# tests/sim/test_cli.py checks each module adds exactly the commands named here.
_PLUGINS: dict[str, tuple[str, ...]] = {
    "secret_hitler.importers.cli": ("import",),
    "secret_hitler.sim.cli": ("simulate", "tournament"),
    "secret_hitler.sim.evaluate:register_evaluate": ("evaluate",),
    "secret_hitler.server.cli": ("serve",),
    "secret_hitler.server.admin": ("admin",),
    "secret_hitler.ratings_cli": ("ratings",),
    "secret_hitler.analysis": ("analyze",),
    "secret_hitler.llm.cli": ("arena",),
}


def _err(message: str) -> None:
    typer.echo(f"secret-hitler: {message}", err=True)


def _parse_view(value: str | None) -> int | None | str:
    if value is None:
        return "none"
    if value == "spectator":
        return None
    try:
        return int(value)
    except ValueError:
        raise typer.BadParameter("--view takes a seat number or 'spectator'") from None


@_app.command("replay")
def replay_command(
    files: Annotated[list[Path], typer.Argument(help="Record files (JSON).", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per record.")] = False,
    view: Annotated[
        str | None, typer.Option("--view", help="Print the final view of SEAT or 'spectator'.")
    ] = None,
) -> None:
    """Replay game records and check them (exit 0 ok, 1 illegal action or result mismatch, 2 invalid file)."""
    from .datasets import FileProblem, read_json  # not at import: ``simulate`` starts lean

    seat = _parse_view(view)
    status = 0
    for path in files:
        try:
            record = read_json(path)
        except FileProblem as exc:
            _err(str(exc))
            status = 2
            continue
        try:
            result = replay(record)
        except InvalidRecord as exc:
            _err(f"{path}: invalid record: {exc.message}")
            status = 2
            continue
        game = result.game
        assert game is not None
        if not result.ok:
            status = max(status, 1)
        if seat != "none":
            if isinstance(seat, int) and not 0 <= seat < game.n:
                _err(f"{path}: --view {seat}: the game has seats 0 to {game.n - 1}")
                status = 2
                continue
            out: dict[str, Any] = game.view(seat).to_json()  # type: ignore[arg-type]
            typer.echo(
                json.dumps(out, ensure_ascii=False)
                if as_json
                else json.dumps(out, indent=2, ensure_ascii=False)
            )
            continue
        line = {
            "file": str(path),
            "ok": result.ok,
            "applied": result.applied,
            "error": result.error,
        }
        line.update(replay_summary(game))
        if as_json:
            typer.echo(json.dumps(line, ensure_ascii=False))
        else:
            error = result.error
            verdict = (
                "ok" if error is None else f"error at action {error['index']}: {error['message']}"
            )
            nxt = game.to_act()
            ending = (
                f"{line['winner']} win ({line['reason']})"
                if game.finished
                else f"in progress, next: {game.phase.value} by seats {nxt}"
            )
            ending += _game_type_ending(game)
            typer.echo(
                f"{path}: {verdict}; {result.applied} actions; {ending}; "
                f"liberal {line['liberal_policies']}, fascist {line['fascist_policies']}, "
                f"tracker {line['election_tracker']}"
            )
    raise typer.Exit(status)


def _game_type_ending(game: Any) -> str:
    """What a game type adds to a replayed game's line: whom Hitler assassinated (Avalon SH),
    who won where the Monarchist wins his own way."""
    out = ""
    assassination = game.assassination
    if assassination is not None and assassination["target"] is not None:
        target = assassination["target"]
        out += (
            f"; Hitler (seat {assassination['hitler']}) assassinated seat {target}, "
            f"{game.roles[target].value}"
        )
    if game.finished and any(role.value == "monarchist" for role in game.roles):
        out += f"; won: seats {', '.join(str(s) for s in game.winners)}"
    return out


_registered: set[str] = set()


def __getattr__(name: str) -> Any:
    """``secret_hitler.cli.app``: the whole command (every plugin), for tests and embedders."""
    if name == "app":
        _register_plugins()
        return _app
    raise AttributeError(name)


def _register_plugins(command: str | None = None) -> None:
    """Register the plugin that adds ``command``, or every plugin (for help and the unknown)."""
    names = [m for m, commands in _PLUGINS.items() if command in commands] or list(_PLUGINS)
    for name in names:
        if name in _registered:
            continue
        _registered.add(name)
        module_name, _, function = name.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and module_name.startswith(exc.name):
                continue
            raise
        getattr(module, function or "register")(_app)


def main() -> None:
    _register_plugins(sys.argv[1] if len(sys.argv) > 1 else None)
    try:
        _app()
    except KeyboardInterrupt:
        sys.exit(130)
    except MissingExtra as exc:
        typer.echo(str(exc), err=True)
        sys.exit(2)
    except ModuleNotFoundError as exc:
        # A backstop for a path that does not check first: still one line, never a traceback.
        extra = extra_for(exc.name)
        if extra is None:
            raise
        _err(f"{exc.name} is not installed: pip install 'secret-hitler[{extra}]'")
        sys.exit(2)


if __name__ == "__main__":
    main()
