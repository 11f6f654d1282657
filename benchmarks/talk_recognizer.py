"""How well ``secret_hitler.talk.recognise`` reads people's chat: the labelled lines of
tests/talk/chat_lines.jsonl, per language and overall, for the part it was tuned on, the part
held out, and both.

    python benchmarks/talk_recognizer.py [--failures tune|held_out|all] [--speed]

Figures: claims recognised exactly (share of the lines that carry a claim), ordinary lines
taken for claims (share of the lines that carry nothing), and the same two for signals
(accusation, trust, Hitler guess, conflict, question: kind, seats, topic and Ja/Nein; the
certainty is not scored). ``--speed`` also times the recogniser per line. The test
(tests/talk/test_talk_recogniser.py) asserts the targets with ``score``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from secret_hitler.engine.types import Party, Policy
from secret_hitler.talk import Claim, Conflict, Context, Line, Question, RoleClaim, recognise
from secret_hitler.talk.recognise import MAX_CHARS, MAX_TOKENS

LINES = Path(__file__).resolve().parents[1] / "tests" / "talk" / "chat_lines.jsonl"
LANGS = ("en", "zh-Hans", "zh-Hant", "ru", "vi")
TARGETS = {"claims": 0.95, "false_claims": 0.01, "signals": 0.95, "false_signals": 0.01}


def load(path: Path = LINES) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def _policies(codes: str) -> tuple[Policy, ...]:
    return tuple(Policy.FASCIST if c == "F" else Policy.LIBERAL for c in codes)


def expected_claims(row: dict[str, Any]) -> list[Claim]:
    out = []
    for item in row["expect"]:
        if "claim" not in item:
            continue
        if item["claim"] == "investigation":
            out.append(Claim("investigation", target=item["target"], party=Party(item["party"])))
        else:
            passed = _policies(item["passed"]) if "passed" in item else None
            out.append(Claim(item["claim"], _policies(item["cards"]), passed=passed))
    return out


def expected_signals(row: dict[str, Any]) -> set[tuple[Any, ...]]:
    out: set[tuple[Any, ...]] = set()
    for item in row["expect"]:
        for kind in ("accuse", "trust", "hitler_guess", "merlin_guess", "role_claim"):
            if kind in item:
                out.add((kind, item[kind]))
        if "conflict" in item:
            out.add(("conflict", frozenset(item["conflict"])))
        if "question" in item:
            out.add(
                ("question", item["question"], item.get("to"), item.get("ja"), item.get("other"))
            )
    return out


def signal_key(line: Line) -> tuple[Any, ...]:
    if isinstance(line, Conflict):
        seats = {line.president, line.chancellor} - {None}
        return ("conflict", frozenset(seats))
    if isinstance(line, Question):
        return ("question", line.topic, line.to, line.ja, line.other)
    if isinstance(line, RoleClaim):
        return ("role_claim", line.role)
    return (line.kind, getattr(line, "target", None))


def read(row: dict[str, Any]) -> list[Line]:
    ctx = row.get("context", {})
    government = ctx.get("government")
    context = Context(
        tuple(ctx.get("open_claims", ())),
        ctx.get("investigated"),
        (government[0], government[1]) if government else None,
    )
    return recognise(
        row["text"],
        players=row["players"],
        names=row.get("names"),
        lang=row["lang"],
        context=context,
    )


@dataclass
class Tally:
    claims: int = 0
    claims_ok: int = 0
    signals: int = 0
    signals_ok: int = 0
    ordinary: int = 0
    false_claims: int = 0
    false_signals: int = 0
    failures: list[str] = field(default_factory=list)

    def shares(self) -> dict[str, float]:
        def share(a: int, b: int) -> float:
            return a / b if b else float("nan")

        return {
            "claims": share(self.claims_ok, self.claims),
            "false_claims": share(self.false_claims, self.ordinary),
            "signals": share(self.signals_ok, self.signals),
            "false_signals": share(self.false_signals, self.ordinary),
        }


def score(rows: Iterable[dict[str, Any]]) -> Tally:
    tally = Tally()
    for row in rows:
        got = read(row)
        claims = [line for line in got if isinstance(line, Claim)]
        signals = {signal_key(line) for line in got if not isinstance(line, Claim)}
        want_claims, want_signals = expected_claims(row), expected_signals(row)
        wrong = False
        if want_claims:
            tally.claims += 1
            ok = claims == want_claims
            tally.claims_ok += ok
            wrong |= not ok
        if want_signals:
            tally.signals += 1
            ok = signals == want_signals
            tally.signals_ok += ok
            wrong |= not ok
        if not row["expect"]:
            tally.ordinary += 1
            tally.false_claims += bool(claims)
            tally.false_signals += bool(signals)
            wrong |= bool(claims or signals)
        if wrong:
            shown = [line.to_json() for line in got]
            tally.failures.append(
                f"{row['id']} {row['text']!r} ctx={row.get('context')} -> {shown}"
            )
    return tally


def report(rows: list[dict[str, Any]], title: str) -> Tally:
    print(f"\n{title} ({len(rows)} lines)")
    print(f"{'':8} {'claims':>12} {'false claims':>14} {'signals':>12} {'false signals':>14}")
    for lang in (*LANGS, "all"):
        part = [r for r in rows if lang in ("all", r["lang"])]
        tally = score(part)
        s = tally.shares()
        print(
            f"{lang:8} {s['claims']:7.1%} /{tally.claims:<4} {s['false_claims']:9.1%} /{tally.ordinary:<4}"
            f" {s['signals']:7.1%} /{tally.signals:<4} {s['false_signals']:9.1%} /{tally.ordinary:<4}"
        )
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--failures", choices=("tune", "held_out", "all"))
    parser.add_argument("--speed", action="store_true")
    args = parser.parse_args()
    rows = load()
    tune = [r for r in rows if r["split"] == "tune"]
    held = [r for r in rows if r["split"] == "held_out"]
    print(
        f"targets: claims >= {TARGETS['claims']:.0%}, ordinary lines taken for claims <= "
        f"{TARGETS['false_claims']:.0%}; the same for signals"
    )
    report(tune, "tuned on")
    report(held, "held out (not tuned on)")
    report(rows, "all lines")
    if args.failures:
        part = {"tune": tune, "held_out": held, "all": rows}[args.failures]
        for failure in score(part).failures:
            print(failure)
    if args.speed:
        # CPU time, so that other work on the machine counts less.
        long = "RRB " + "lol 3 is lying ✨ 红红蓝 " * 40
        rounds = 5
        start = time.process_time()
        for _ in range(rounds):
            for row in rows:
                read(row)
        per_line = (time.process_time() - start) / (rounds * len(rows))
        start = time.process_time()
        for _ in range(200):
            recognise(long, players=10)
        per_long = (time.process_time() - start) / 200
        print(
            f"\nspeed (CPU time): {per_line * 1e6:.0f} µs a test line on average; "
            f"{per_long * 1e6:.0f} µs a {len(long)}-character line of game words "
            f"(only the first {MAX_CHARS} characters, {MAX_TOKENS} words, are read)"
        )


if __name__ == "__main__":
    main()
