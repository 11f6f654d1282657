"""Game analysis, as a chess engine gives it: after every action of a record, how likely each
seat is a fascist or Hitler from one point of view, and the moves where that seat played
differently from the strongest bot, with the bot's estimate of each option.

A record's talk section is read too: a claim said in the chat (a structured line, or one the
recogniser reads in a text) counts as that claim, as for a listening bot
(``Beliefs.hear_claim``); accusations and trust are not weighed here (their weights are fitted
to bots' talk, not people's). The claims read are listed in ``chat_claims``.

A point of view is a seat or the spectator. Everything comes from ``game.view(point)`` only:
the posterior is ``bots.beliefs.Beliefs`` on the model fitted to people (``READER``) fed those
views (the spectator's ignores private events), and the seat's moves are judged by a
``BayesAgent`` for that seat, which sees the same views it would see at the table. So changing
anything that point of view did not observe changes nothing in its analysis (``tests/sim/test_analysis.py``). A spectator's analysis marks
no moves: judging a move needs the mover's private knowledge.

Used by ``secret-hitler analyze`` and by the server (``GET /api/games/{id}/analysis``,
``POST /api/analysis``). Needs the ``bots`` extra (numpy); importing this module does not.

secrethitler.io's game types (docs/game-types.md) are analysed as any game: the posterior is
team-level (a seat's P(liberal, fascist, Hitler); Merlin and Percival count as liberals, Morgana
and the Monarchist as fascists) and reads what the engine showed the point of view (Merlin's
sight, Percival's pair, the Monarchist's teammates; docs/bots.md "Game types").
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from .datasets import FileProblem, read_json

#: The level that judges moves by default: the strongest built-in level.
DEFAULT_BOT = "bayes"
#: The level whose posterior the probabilities are, whoever judges: the model fitted to people
#: reads people's games far better than the bots' own (log-loss on the held-out real games 3.40
#: against 4.15, uniform 3.82; docs/bots.md "Role deduction"), and still beats uniform on bot
#: games.
READER = "bayes-human"
#: Levels that can judge moves (they have ``evaluate`` and ``posterior``).
ANALYSIS_BOTS = ("bayes", "bayes-human")
#: A move is marked when the bot would pick another option and, for scored options, the played
#: one scores more than this below the bot's pick (scores are probabilities: ties between equally
#: trusted seats, broken at random by the bot, are not mistakes).
SCORE_MARGIN = 0.005
ACTIONS_MAX = 5000  # records with more actions are refused (a real game has a few hundred)


class AnalysisError(Exception):
    """The record cannot be analysed (invalid, unknown seat, too long): a one-line message, with
    the HTTP status and error code the server answers with."""

    def __init__(self, message: str, code: str = "invalid_request", status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


def analyze(
    record: dict[str, Any],
    seat: int | None,
    bot: str = DEFAULT_BOT,
    *,
    deadline: float | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """The analysis of ``record`` from ``seat`` (None: the spectator), as a JSON-able dict.

    ``deadline`` (a ``time.monotonic()`` value) bounds the work: past it, AnalysisError.
    """
    from .bots.base import bot_problem

    if bot not in ANALYSIS_BOTS:
        raise AnalysisError(f"bot {str(bot)[:40]!r} cannot analyse; use one of {ANALYSIS_BOTS}")
    problem = bot_problem(bot)
    if problem is not None:
        raise AnalysisError(problem, "unavailable", 503)
    game, actions, said = _read(record)
    if seat is not None and not 0 <= seat < game.n:
        raise AnalysisError(f"seat: the game has seats 0 to {game.n - 1}")
    return _Analysis(game, said, seat, bot, seed).run(actions, deadline)


def _read(record: dict[str, Any]) -> tuple[Any, list[Any], list[Any]]:
    """The record's game before its first action, its actions and what was said."""
    from .engine import InvalidRecord, game_from_record
    from .engine.record import parse_record
    from .talk.lines import InvalidLine
    from .talk.said import Said

    try:
        parsed = parse_record(record)
        game = game_from_record(record, apply_actions=False)
        said = [Said.from_json(e, players=game.n) for e in parsed.talk or ()]
    except InvalidRecord as exc:
        raise AnalysisError(f"invalid record: {exc.message}", "invalid_record") from None
    except InvalidLine as exc:
        raise AnalysisError(f"invalid record: talk: {exc}", "invalid_record") from None
    if len(parsed.actions) > ACTIONS_MAX:
        raise AnalysisError(f"the record has more than {ACTIONS_MAX} actions", "too_large", 413)
    return game, list(parsed.actions), said


class _Analysis:
    """One point of view read along a game: its posterior after each action, the claims said
    in the chat as they come, and the seat's own moves judged."""

    def __init__(self, game: Any, said: list[Any], seat: int | None, bot: str, seed: int) -> None:
        from .bots.base import make_agent
        from .bots.beliefs import Beliefs
        from .engine.public import PublicState

        self.game, self.said, self.seat, self.bot = game, said, seat, bot
        agent: Any = make_agent(bot, seat if seat is not None else 0, seed)
        reader: Any = agent if bot == READER else make_agent(READER, agent.seat, seed)
        self.agent, self.reader = agent, reader
        self.beliefs = Beliefs.for_view(game.view(None), public=True, model=reader.model)
        self.table = PublicState()  # the public state, to read a text line's claim in context
        self.chat_claims: list[dict[str, Any]] = []
        self.lines_read = self.events_read = 0

    def run(self, actions: list[Any], deadline: float | None) -> dict[str, Any]:
        from .bots.beliefs import ROLE_NAMES
        from .engine import GameError

        game, seat = self.game, self.seat
        self.hear(0)
        steps = [{"step": 0, **self.point()}]
        moves: list[dict[str, Any]] = []
        error = None
        for i, action in enumerate(actions):
            if deadline is not None and time.monotonic() > deadline:
                raise AnalysisError("the analysis took too long", "too_slow", 503)
            if seat is not None and action.seat == seat and action.type != "claim":
                legal = game.legal_actions(seat)
                if action in legal:
                    moves.append(_judge(self.agent, game.view(seat), legal, action, i))
            try:
                game.apply(action)
            except GameError as exc:
                error = {"index": i, "code": exc.code, "message": exc.message}
                break
            self.hear(i + 1)
            steps.append({"step": i + 1, **self.point()})
        return {
            "seat": seat,
            "bot": self.bot,
            "reader": READER,
            "players": game.n,
            "role": game.view(seat).role,
            "roles": list(ROLE_NAMES),
            "steps": steps,
            "moves": moves,
            "mistakes": sum(1 for m in moves if m["differs"]),
            "chat_claims": self.chat_claims,
            "error": error,
        }

    def point(self) -> dict[str, Any]:
        """How likely each seat is a fascist or Hitler now, from this point of view."""
        game, seat = self.game, self.seat
        view = game.view(seat)
        if seat is None:
            self.beliefs.update(view)
            m = self.beliefs.marginals()
        else:
            _, probs = self.reader.posterior(view)
            m = self.reader.beliefs.marginals(probs)
        return {
            "p_fascist": [round(float(m[s, 1] + m[s, 2]), 4) for s in range(game.n)],
            "p_hitler": [round(float(m[s, 2]), 4) for s in range(game.n)],
        }

    def hear(self, after: int) -> None:
        """Read the claims said in the chat once ``after`` actions were played."""
        from .bots.voice import lines_of
        from .talk.lines import Claim

        while self.lines_read < len(self.said) and self.said[self.lines_read].after <= after:
            entry = self.said[self.lines_read]
            self.lines_read += 1
            if entry.seat is None:
                continue  # a person without a seat makes no claim
            events = self.game.view(None).events
            for e in events[self.events_read :]:
                self.table.feed(e)
            self.events_read = len(events)
            for line in lines_of(entry, self.table):
                if isinstance(line, Claim):
                    claim = line.to_action(entry.seat).to_json()
                    self.chat_claims.append(
                        {"after": entry.after, "seat": entry.seat, "claim": claim}
                    )
                    self.read_claim(entry.seat, line)

    def read_claim(self, speaker: int, line: Any) -> None:
        view = self.game.view(self.seat)
        if self.seat is None:
            self.beliefs.update(view)
            self.beliefs.hear_line(speaker, line, talk=False)
            return
        for judge in {id(self.agent): self.agent, id(self.reader): self.reader}.values():
            judge.posterior(view)  # brought up to this moment first
            judge.beliefs.hear_line(speaker, line, talk=False)


def _judge(agent: Any, view: Any, legal: list[Any], played: Any, index: int) -> dict[str, Any]:
    """One of the seat's own turns: what it played, what the bot would play, and why."""
    ev = agent.evaluate(view, legal)
    options, scores = ev["options"], ev["scores"]
    choice = ev["choice"]
    out: dict[str, Any] = {
        "step": index,  # the action's index: the move is made from step ``index``
        "phase": view.phase,
        "played": played.to_json(),
        "bot": choice.to_json(),
        "differs": choice != played,
        "options": [
            {
                "action": a.to_json(),
                "score": None if scores is None else round(float(scores[k]), 4),
            }
            for k, a in enumerate(options)
        ],
        "facts": ev["facts"],
    }
    if scores is not None and played in options and choice in options:
        loss = scores[options.index(choice)] - scores[options.index(played)]
        out["loss"] = round(float(loss), 4)
        out["differs"] = bool(out["differs"] and loss > SCORE_MARGIN)
    return out


# ---------------------------------------------------------------------------------- CLI

_JSON = Annotated[bool, typer.Option("--json", help="Print the analysis as JSON.")]


def analyze_command(
    record_file: Annotated[Path, typer.Argument(help="A game record (JSON).", show_default=False)],
    seat: Annotated[
        int | None, typer.Option("--seat", help="Analyse from this seat's point of view.")
    ] = None,
    spectator: Annotated[
        bool, typer.Option("--spectator", help="Analyse from the spectator's point of view.")
    ] = False,
    bot: Annotated[
        str, typer.Option("--bot", help="The level that judges: bayes or bayes-human.")
    ] = DEFAULT_BOT,
    as_json: _JSON = False,
) -> None:
    """Per-step role probabilities from one point of view, and the moves the bot would have played otherwise (exit 2 on a bad record or option)."""

    def fail(message: str) -> typer.Exit:
        typer.echo(f"secret-hitler analyze: {message}", err=True)
        return typer.Exit(2)

    if (seat is None) == (not spectator):
        raise fail("give exactly one of --seat S and --spectator")
    try:
        record = read_json(record_file)
    except FileProblem as exc:
        raise fail(str(exc)) from None
    if not isinstance(record, dict):
        raise fail(f"{record_file}: a record is a JSON object")
    try:
        out = analyze(record, None if spectator else seat, bot)
    except AnalysisError as exc:
        raise fail(str(exc)) from None
    if as_json:
        typer.echo(json.dumps(out))
        return
    _print(out)


def _print(out: dict[str, Any]) -> None:
    who = "spectator" if out["seat"] is None else f"seat {out['seat']} ({out['role']})"
    n = out["players"]
    typer.echo(f"Analysis from the {who}'s point of view, judged by {out['bot']}")
    typer.echo(
        "step  " + "  ".join(f"  seat {s:<2}" for s in range(n)) + "   (P fascist / P Hitler)"
    )
    for st in out["steps"]:
        cells = "  ".join(
            f"{f:4.2f}/{h:4.2f}" for f, h in zip(st["p_fascist"], st["p_hitler"], strict=True)
        )
        typer.echo(f"{st['step']:>4}  {cells}")
    marked = [m for m in out["moves"] if m["differs"]]
    typer.echo(f"{len(out['moves'])} moves judged, {len(marked)} differ from {out['bot']}:")
    for m in marked:
        extra = "".join(f", {k} {v}" for k, v in m["facts"].items())
        loss = f", score loss {m['loss']}" if "loss" in m else ""
        typer.echo(
            f"  step {m['step']} {m['phase']}: played {_short(m['played'])}, "
            f"bot {_short(m['bot'])}{loss}{extra}"
        )
    if out["error"] is not None:
        typer.echo(f"replay stopped at action {out['error']['index']}: {out['error']['message']}")


def _short(action: dict[str, Any]) -> str:
    return (
        " ".join(f"{k}={v}" for k, v in action.items() if k not in ("seat", "type"))
        or action["type"]
    )


def register(app: typer.Typer) -> None:
    """Add ``analyze`` to the main CLI."""
    app.command("analyze")(analyze_command)


__all__ = ["ANALYSIS_BOTS", "DEFAULT_BOT", "READER", "AnalysisError", "analyze", "register"]
