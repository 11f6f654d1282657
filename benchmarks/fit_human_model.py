"""Fit ``beliefs.HUMAN_MODEL`` (the behaviour model of ``bayes-human``) to people's games.

Reads the 7-player secrethitler.io games of the *train* half of the fixed split
(``sim.evaluate.game_half``; the test half is what ``secret-hitler evaluate roles`` reports),
measures every behaviour by true role with ``fit_bot_model.measure`` / ``fit`` (the same
counting as for the bots), then picks ``temper`` by log-loss of the role posterior on the
first ``--temper-games`` training games, and writes the model with this command and the data's
SHA-256 to ``src/secret_hitler/bots/data/human_model.json`` (read by ``beliefs.py``).

    .venv/bin/python benchmarks/fit_human_model.py                 # refit and write
    .venv/bin/python benchmarks/fit_human_model.py --check         # refit, compare, write nothing

``tests/bots/test_fitted.py`` reruns the counting on the committed data and compares.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fit_bot_model import fit, measure  # noqa: E402

from secret_hitler.datasets import SECRETHITLER_IO  # noqa: E402
from secret_hitler.engine import game_from_record  # noqa: E402
from secret_hitler.sim.evaluate import game_half, load_records  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "src/secret_hitler/bots/data/human_model.json"
TEMPERS = (1.0, 0.8, 0.6, 0.4)


def train_records(path: Path = SECRETHITLER_IO, players: int = 7) -> list[dict[str, Any]]:
    """The fitting half: 7-player games whose id hashes to ``train``."""
    records = load_records(path)
    return [
        r
        for i, r in enumerate(records)
        if game_half(r, i) == "train" and len(r.get("roles") or ()) == players
    ]


def fit_counts(records: list[dict[str, Any]]) -> dict[str, Any]:
    """``Model`` keyword arguments from the behaviour counts of ``records`` (deterministic)."""
    return json.loads(json.dumps(fit(measure([game_from_record(r) for r in records]))))


def choose_temper(records: list[dict[str, Any]], kwargs: dict[str, Any]) -> dict[str, float]:
    """Log-loss of the seats' role posterior on ``records`` for each temper in TEMPERS."""
    from secret_hitler.bots.base import register
    from secret_hitler.bots.bayes import BayesAgent
    from secret_hitler.bots.beliefs import model_from_json
    from secret_hitler.sim.evaluate import evaluate_roles

    base = model_from_json(kwargs)
    out: dict[str, float] = {}
    for t in TEMPERS:
        model = replace(base, temper=t)
        register("fit-human-model", lambda seat, rng, m=model: BayesAgent(seat, rng, m))
        out[str(t)] = evaluate_roles(records, "fit-human-model").to_json()["overall"]["log_loss"]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=SECRETHITLER_IO)
    ap.add_argument("--temper-games", type=int, default=150)
    ap.add_argument("--check", action="store_true", help="compare with the committed file")
    args = ap.parse_args()
    t0 = time.time()
    records = train_records(args.data)
    kwargs = fit_counts(records)
    scan = choose_temper(records[: args.temper_games], kwargs)
    kwargs["temper"] = float(min(scan, key=lambda k: scan[k]))
    print(f"{len(records)} training games, temper scan {scan} ({time.time() - t0:.0f}s)")
    command = "python benchmarks/fit_human_model.py" + (
        f" --temper-games {args.temper_games}" if args.temper_games != 150 else ""
    )
    out = {
        "command": command,
        "data": {
            "file": "data/secrethitler-io-games.jsonl.gz",
            "sha256": hashlib.sha256(args.data.read_bytes()).hexdigest(),
            "half": "train",
            "players": 7,
            "games": len(records),
        },
        "temper_scan": scan,
        "model": kwargs,
    }
    if args.check:
        committed = json.loads(OUT.read_text(encoding="utf-8"))
        same = committed["model"] == out["model"]
        print("same as the committed model" if same else "DIFFERS from the committed model")
        raise SystemExit(0 if same else 1)
    OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
