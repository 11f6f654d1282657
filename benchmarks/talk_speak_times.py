"""How long a bot takes to say what it says (``bots.base.ask_speech``), by level (issue 30).

The server's driver asks its bots to talk on the event loop (``table/driver.py`` ``_talk``),
so a slow ``speak`` would hold the whole server up. This plays bot games with talk on
(``play_out`` with a ``TableTalk``) and times every ``ask_speech`` call: median, p99, max.

    .venv/bin/python benchmarks/talk_speak_times.py [--levels rule,bayes,search]
        [--players 7] [--games 5]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from secret_hitler.bots import base, make_agent
from secret_hitler.engine import Game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--levels", default="rule,bayes,search")
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    asked = base.ask_speech
    for level in args.levels.split(","):
        times: list[float] = []

        def timed(agent: Any, view: Any, times: list[float] = times) -> Any:
            t0 = time.perf_counter()
            lines = asked(agent, view)
            times.append(time.perf_counter() - t0)
            return lines

        base.ask_speech = timed  # type: ignore[assignment]
        try:
            for g in range(args.games):
                game = Game([f"P{i}" for i in range(args.players)], "official", g)
                agents = [make_agent(level, s, g * 100 + s) for s in range(args.players)]
                base.play_out(game, agents, talk=base.TableTalk())
        finally:
            base.ask_speech = asked
        times.sort()
        ms = [1000 * times[len(times) // 2], 1000 * times[int(len(times) * 0.99)], 1000 * times[-1]]
        print(
            f"{level}: {len(times)} calls, p50 {ms[0]:.2f} ms, p99 {ms[1]:.2f} ms, max {ms[2]:.2f} ms"
        )


if __name__ == "__main__":
    main()
