"""The arena: N games with any mix of model endpoints and bot levels, seats and roles rotated.

A run is planned from its settings alone (``ArenaConfig.plan``): for each player count, game
``i`` is deal ``i // n`` played with the lineup rotated by ``i % n``, so every deal is played
by each participant from every seat (and so in every role that deal has) before the next deal
starts. Games with a model seat are played as coroutines on one event loop of this process,
``threads`` of them at once (their time is spent waiting for the endpoint): inside a game the
seats that act at once (every voter, every seat with a claim window) are asked together
(``bots.base.play_out_async``), the bots' moves computed on worker threads, and each game's
requests take the endpoints' slots as one owner (``slots.FairSlots``). Games of bots only go
to a ``WorkerPool`` (processes, or a Ray cluster with ``--ray``), and give the same results
wherever they run.

Each finished game is one line appended to ``results.jsonl`` in the output folder, flushed at
once; a rerun of the same settings skips the games already there (a torn last line from an
interruption is dropped), so an interrupted run resumes where it stopped (games in progress are played again). ``arena.json`` holds
the settings; a rerun with other settings in the same folder is refused. A line carries the
engine's record (``Game.to_record``) with an ``llm`` section: per model seat its endpoint,
prompt version and digest, system prompt, every decision's prompts and answers, and its
counters; the table talk; and the prompt versions in play.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..bots.base import Agent, agent_factory, play_out, play_out_async
from ..engine import Action, Game, Rules, View
from ..pools import WorkerPool
from ..stats import derive_seed
from .agent import LLMAgent
from .client import aclose_clients
from .endpoints import LEVEL_PREFIX
from .talk import ChatLine

FORMAT = "secret-hitler-arena"
VERSION = 1
RESULTS = "results.jsonl"
SETTINGS = "arena.json"
#: The roles the report tallies (``report.ROLES``): a seat-game's win and its claims are read by
#: these, and the deception metric by the role posterior, which knows only them
#: (docs/game-types.md "Bots"); the game types' other roles are refused until they do.
REPORTED_ROLES = frozenset({"liberal", "fascist", "hitler"})


class ArenaError(ValueError):
    """Settings or an output folder the arena cannot use; the message says why."""


def is_model(level: str) -> bool:
    return level.startswith(LEVEL_PREFIX)


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One planned game: everything a worker needs to play it (picklable)."""

    key: str
    players: int
    deal: int
    rotation: int
    seed: int  # the deal's seed: every rotation of a deal plays the same roles and deck
    seats: tuple[str, ...]  # the level of each seat


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    seats: tuple[str, ...]  # the lineup: levels, at least as many as the largest table
    players: tuple[int, ...] = (7,)
    games: int = 10  # per player count
    rules: Any = "official"
    seed: int = 1

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["seats"] = list(self.seats)
        data["players"] = list(self.players)
        return data

    def fingerprint(self) -> str:
        text = json.dumps(self.to_json(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def plan(self) -> list[GameSpec]:
        out = []
        rules = Rules.from_json(self.rules)
        for n in self.players:
            special = [r.value for r, _ in rules.composition(n) if r.value not in REPORTED_ROLES]
            if special:
                raise ArenaError(
                    f"--rules: the arena's report reads the roles liberal, fascist and hitler, "
                    f"and these rules deal {', '.join(special)} at {n} players; play "
                    "secrethitler.io's roles at a table until the report reads them"
                )
            if len(self.seats) < n:
                raise ArenaError(f"--seats names {len(self.seats)} seats: {n} players need {n}")
            lineup = self.seats[:n]
            for i in range(self.games):
                deal, rotation = divmod(i, n)
                seats = tuple(lineup[(s + rotation) % n] for s in range(n))
                seed = derive_seed("arena", self.seed, n, deal)
                out.append(GameSpec(f"{n}p-{i:05d}", n, deal, rotation, seed, seats))
        return out


class _TalkingSeat(Agent):
    """A model seat at an arena table: after each of its decisions, what it said is heard by
    every other model seat (the table's chat path, as the server will do it)."""

    def __init__(self, agent: LLMAgent, table: list[LLMAgent], talk: list[ChatLine]) -> None:
        super().__init__(agent.seat, agent.rng)
        self.agent = agent
        self.table = table
        self.talk = talk
        self.name = agent.name

    def _post(self) -> None:
        for line in self.agent.take_chat():
            self.talk.append(line)
            for other in self.table:
                other.hear(line)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        action = self.agent.act(view, legal)
        self._post()
        return action

    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        made = self.agent.claims(view, options)
        self._post()
        return made

    async def act_async(self, view: View, legal: Sequence[Action]) -> Action:
        action = await self.agent.act_async(view, legal)
        self._post()
        return action

    async def claims_async(self, view: View, options: Sequence[Action]) -> list[Action]:
        made = await self.agent.claims_async(view, options)
        self._post()
        return made


def _table(spec: GameSpec, rules: Any) -> tuple[Game, list[Agent], list[LLMAgent], list[ChatLine]]:
    """A planned game's table: (game, its seats as played, the model seats, the talk)."""
    game = Game(spec.players, rules, spec.seed)
    agents: list[Agent] = []
    for s, level in enumerate(spec.seats):
        rng = random.Random(derive_seed("agent", spec.seed, spec.rotation, s))
        agents.append(agent_factory(level)(s, rng))
    models = [a for a in agents if isinstance(a, LLMAgent)]
    talk: list[ChatLine] = []
    seated: list[Agent] = [
        _TalkingSeat(a, models, talk) if isinstance(a, LLMAgent) else a for a in agents
    ]
    return game, seated, models, talk


def play(spec: GameSpec, rules: Any) -> dict[str, Any]:
    """Play one planned game with plain calls (bots only: a worker of the pool); the line
    ``results.jsonl`` keeps of it."""
    game, seated, models, talk = _table(spec, rules)
    play_out(game, seated, list(spec.seats))
    return _line(spec, game, models, talk)


async def play_async(spec: GameSpec, rules: Any) -> dict[str, Any]:
    """Play one planned game with model seats: the seats that act at once are asked together,
    the bots' moves computed on worker threads; the line ``results.jsonl`` keeps of it."""
    game, seated, models, talk = _table(spec, rules)
    for agent in models:
        agent.owner = spec.key  # one game: one owner of the endpoints' slots
        agent.offload = asyncio.to_thread
    await play_out_async(game, seated, list(spec.seats), offload=asyncio.to_thread)
    return _line(spec, game, models, talk)


def _line(
    spec: GameSpec, game: Game, models: Sequence[LLMAgent], talk: Sequence[ChatLine]
) -> dict[str, Any]:
    assert game.winner is not None and game.reason is not None
    record = game.to_record()
    record["llm"] = _llm_section(models, talk)
    return {
        "key": spec.key,
        "players": spec.players,
        "deal": spec.deal,
        "rotation": spec.rotation,
        "seed": spec.seed,
        "seats": list(spec.seats),
        "roles": [r.value for r in game.roles],
        "winner": game.winner.value,
        "reason": game.reason.value,
        "rounds": game.round,
        "stats": {str(a.seat): a.stats.to_json() for a in models},
        "record": record,
    }


def _llm_section(models: Sequence[LLMAgent], talk: Sequence[ChatLine]) -> dict[str, Any]:
    seats = {
        str(a.seat): {
            "level": a.endpoint.level,
            "endpoint": a.endpoint.describe(),
            "prompt": a.prompts.describe(),
            "system": a.system,
            "stats": a.stats.to_json(),
            "decisions": a.transcript,
        }
        for a in models
    }
    versions = sorted({a.prompts.version for a in models})
    return {"prompt_versions": versions, "seats": seats, "talk": [c.to_json() for c in talk]}


class _BotGame:
    """``play`` for the worker pool (a closure does not pickle)."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules

    def __call__(self, spec: GameSpec) -> dict[str, Any]:
        return play(spec, self.rules)


# ---------------------------------------------------------------------------------- files


def read_results(path: Path) -> list[dict[str, Any]]:
    """The finished games of a results file; a torn last line (an interrupted write) is cut
    off the file, so the next append starts on a fresh line."""
    if not path.exists():
        return []
    raw = path.read_bytes()
    keep = raw.rfind(b"\n") + 1
    if keep < len(raw):
        with path.open("r+b") as f:
            f.truncate(keep)
    out = []
    for n, line in enumerate(raw[:keep].splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except ValueError:
            raise ArenaError(f"{path}: line {n} is not JSON (not an arena results file?)") from None
    return out


def _settings(out: Path, config: ArenaConfig, endpoints: Mapping[str, Any]) -> dict[str, Any]:
    """This run's settings file; ``ArenaError`` when ``out`` holds a run with other settings
    (nothing written)."""
    path = out / SETTINGS
    data = {
        "format": FORMAT,
        "version": VERSION,
        "fingerprint": config.fingerprint(),
        "config": config.to_json(),
        "endpoints": {k: v for k, v in sorted(endpoints.items())},
    }
    if path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            raise ArenaError(f"{path}: not JSON; use another --out") from None
        if old.get("fingerprint") != data["fingerprint"]:
            raise ArenaError(
                f"{out} holds an arena run with other settings ({path.name}); use another --out"
            )
    return data


def run_arena(
    config: ArenaConfig,
    out: Path,
    *,
    endpoints: Mapping[str, Any] | None = None,
    threads: int = 4,
    jobs: int = 1,
    ray: str | None = None,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Play the games of ``config`` not yet in ``out``; every game's line, in plan order.

    ``endpoints``: what ``arena.json`` says of each endpoint (``Endpoint.describe``); the model
    levels must be registered (``register_endpoints``) before."""
    plan = config.plan()
    settings = _settings(out, config, endpoints or {})
    path = out / RESULTS
    lines = {line["key"]: line for line in read_results(path)}
    todo = [spec for spec in plan if spec.key not in lines]
    bots = [s for s in todo if not any(is_model(level) for level in s.seats)]
    models = [s for s in todo if s not in bots]
    pool = WorkerPool(jobs, ray) if bots else None
    if pool is not None:
        pool.start()  # a cluster that cannot be used is refused before anything is written
    lock = threading.Lock()
    try:
        out.mkdir(parents=True, exist_ok=True)
        text = json.dumps(settings, indent=2, ensure_ascii=False) + "\n"
        (out / SETTINGS).write_text(text, encoding="utf-8")
        with path.open("a", encoding="utf-8") as f:

            def keep(line: dict[str, Any]) -> None:
                with lock:
                    f.write(json.dumps(line, ensure_ascii=False) + "\n")
                    f.flush()
                    lines[line["key"]] = line
                if progress is not None:
                    progress(line)

            if pool is not None:
                for line in pool.imap_unordered(_BotGame(config.rules), bots):
                    keep(line)
            if models:
                asyncio.run(_games_with_models(models, config.rules, threads, keep))
    finally:
        if pool is not None:
            pool.close()
    return [lines[spec.key] for spec in plan]


async def _games_with_models(
    specs: Sequence[GameSpec], rules: Any, at_once: int, keep: Callable[[dict[str, Any]], None]
) -> None:
    """Play ``specs``, ``at_once`` at a time, each kept as it ends; an interruption drops the
    games in progress (a rerun plays them again)."""
    gate = asyncio.Semaphore(max(1, at_once))

    async def one(spec: GameSpec) -> dict[str, Any]:
        async with gate:
            return await play_async(spec, rules)

    games = [asyncio.ensure_future(one(spec)) for spec in specs]
    try:
        for finished in asyncio.as_completed(games):
            keep(await finished)
    finally:
        for game in games:
            game.cancel()
        await asyncio.gather(*games, return_exceptions=True)
        await aclose_clients()


def iter_lines(out: Path) -> Iterator[dict[str, Any]]:
    yield from read_results(out / RESULTS)


__all__ = [
    "ArenaConfig",
    "ArenaError",
    "GameSpec",
    "is_model",
    "play",
    "play_async",
    "read_results",
    "run_arena",
]
