"""The golden trace of the strong bots: what `bayes`, `bayes-human` and `search` decide and say
in a fixed set of seeded games, recorded once from the code before a speed-up so that the faster
code can be shown to decide exactly the same (issue 40 point 4: "with exactly the same
decisions"; the old code is gone once replaced, so the old decisions are kept as data).

Each game is played by the simulator (``sim.play_game``, agents seeded from the game's seed as
``simulate`` seeds them) and traced as:

- ``actions``: every turn action and claim of the record, in order (``seat,type,field...``);
- ``said``: every line said at the table (talk on), as the record's talk entries;
- ``marginals``: at the game's end, each bot's posterior marginals P(seat has role) of its own
  beliefs and, for a fascist, of its liberal eye, to 10 decimals (the test allows 1e-8: a sum
  reassociated by a vectorised update may move the last bits, never a decision).

Regenerate (only when a change is *meant* to change decisions, and say so in its commit):

    .venv/bin/python tests/bots/golden.py --write

``--check`` replays the games and reports the first difference of each game that differs.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from secret_hitler.bots import Agent
from secret_hitler.engine import Game
from secret_hitler.sim import Lineup, play_game
from secret_hitler.sim.simulator import game_record, make_agents
from secret_hitler.stats import derive_seed

FIXTURE = Path(__file__).with_name("golden_trace.json")
#: Marginals are written to this many decimals and compared within ``TOLERANCE``.
DECIMALS = 10
TOLERANCE = 1e-8


@dataclass(frozen=True, slots=True)
class Case:
    """Games of one lineup, size, preset and talk mode (seeds ``derive_seed("golden", ...)``)."""

    liberal: str
    fascist: str
    players: int
    rules: str = "official"
    talk: str = "off"
    games: int = 1

    @property
    def name(self) -> str:
        return f"{self.liberal}-{self.fascist}-{self.players}-{self.rules}-{self.talk}"

    def seeds(self) -> list[int]:
        return [derive_seed("golden", self.name, i) for i in range(self.games)]


#: The traced games: bayes against itself at 5, 7 and 10 players with talk off and on (talk
#: feeds the posterior: ``Beliefs.hear_line``), bayes-human (its fitted vote trees read
#: ``vote_features``), mixed lineups with rule bots, presets whose night knowledge, powers or
#: revealed roles differ, and search on either side and on both.
CASES = (
    *(Case("bayes", "bayes", n, games=4) for n in (5, 7, 10)),
    *(Case("bayes", "bayes", n, talk="listen", games=2) for n in (5, 7, 10)),
    Case("bayes", "bayes", 7, talk="deaf-liberals"),
    *(Case("bayes-human", "bayes", n, games=2) for n in (5, 7, 10)),
    Case("bayes", "bayes-human", 7, games=2),
    Case("bayes-human", "bayes-human", 8, talk="listen"),
    *(Case("bayes", "rule", n) for n in (6, 9)),
    *(Case("rule", "bayes", n) for n in (6, 9)),
    *(Case("bayes", "bayes", 7, rules=p, games=2) for p in ("summary-zh", "forum", "tabletop-tw")),
    Case("bayes", "bayes", 10, rules="summary-zh"),
    *(Case("search", "bayes", n, games=2) for n in (5, 7, 10)),
    *(Case("bayes", "search", n, games=2) for n in (5, 7, 10)),
    Case("search", "search", 7, games=2),
    Case("search", "search", 7, talk="listen"),
    Case("search", "search", 10, rules="summary-zh"),
)


def _token(action: dict[str, Any]) -> str:
    """One record action as ``seat,type,field...`` (the fields in the record's order)."""
    return ",".join(
        "-".join(v) if isinstance(v, list) else str(v).lower() if isinstance(v, bool) else str(v)
        for v in action.values()
    )


def _marginals(agent: Agent) -> dict[str, list[list[float]]]:
    """The final marginals of the agent's posteriors (``bayes``, or ``search``'s bayes self)."""
    bayes = getattr(agent, "base", agent)
    out: dict[str, list[list[float]]] = {}
    for name in ("beliefs", "public"):
        beliefs: Any = getattr(bayes, name, None)
        if hasattr(beliefs, "marginals"):  # a rule bot has no posterior
            out[name] = [[round(float(x), DECIMALS) for x in row] for row in beliefs.marginals()]
    return out


def trace(case: Case, seed: int) -> dict[str, Any]:
    """Play one game of ``case`` and return its trace."""
    lineup = Lineup(case.liberal, case.fascist)
    names = [lineup.bot_for(r) for r in Game(case.players, case.rules, seed).roles]
    agents = make_agents(names, seed)
    result, game = play_game(case.players, lineup, case.rules, seed, agents=agents, talk=case.talk)
    record = game_record(result, game)
    return {
        "case": case.name,
        "seed": seed,
        "winner": result.winner,
        "actions": ";".join(_token(a) for a in record["actions"]),
        "said": [json.dumps(e, sort_keys=True) for e in record.get("talk", [])],
        "marginals": [_marginals(a) for a in agents],
    }


def all_traces() -> list[dict[str, Any]]:
    return [trace(case, seed) for case in CASES for seed in case.seeds()]


def difference(want: dict[str, Any], got: dict[str, Any]) -> str | None:
    """Where ``got`` first departs from ``want`` (None: the same decisions, lines and beliefs)."""
    a, b = want["actions"].split(";"), got["actions"].split(";")
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"action {i}: {x} recorded, {y} now (after {';'.join(a[max(0, i - 3) : i])})"
    if len(a) != len(b):
        return f"{len(a)} actions recorded, {len(b)} now"
    if want["said"] != got["said"]:
        pairs = zip(want["said"], got["said"], strict=False)
        line = next((i for i, (x, y) in enumerate(pairs) if x != y), None)
        return "talk differs in length" if line is None else f"talk differs at line {line}"
    for seat, (w, g) in enumerate(zip(want["marginals"], got["marginals"], strict=True)):
        if w.keys() != g.keys():
            return f"seat {seat}: posteriors {sorted(w)} recorded, {sorted(g)} now"
        for name in w:
            worst = max(
                abs(x - y)
                for rw, rg in zip(w[name], g[name], strict=True)
                for x, y in zip(rw, rg, strict=True)
            )
            if worst > TOLERANCE:
                return f"seat {seat} {name} marginals differ by {worst:.3g}"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help=f"write {FIXTURE.name}")
    mode.add_argument("--check", action="store_true", help="compare with the fixture")
    args = parser.parse_args()
    traces = all_traces()
    if args.write:
        lines = (json.dumps(t, separators=(",", ":")) for t in traces)
        FIXTURE.write_text("[\n" + ",\n".join(lines) + "\n]\n", encoding="utf-8")
        print(f"wrote {len(traces)} games to {FIXTURE}")
        return 0
    recorded = json.loads(FIXTURE.read_text(encoding="utf-8"))
    bad = 0
    for want, got in zip(recorded, traces, strict=True):
        why = difference(want, got)
        if why is not None:
            bad += 1
            print(f"{want['case']} seed {want['seed']}: {why}")
    print(f"{len(traces) - bad} of {len(traces)} games the same")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
