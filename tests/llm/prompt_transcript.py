"""Every prompt of two whole games, as one text: what a frozen prompt version must keep saying.

Two seeded games of rule bots with claims (10 players and 6, executed roles revealed) cover
every kind of event the official rules log but a skipped power: votes, chaos, vetoes, peeks,
investigations, special elections, executions and claims of every subject. The transcript of a
game in one language and prompt version is, in order: the system prompt of each seat, every
decision and claim-window prompt as the seat to act saw it (with plain chat lines said now and
then), and each seat's history at the end.

``python tests/llm/prompt_transcript.py`` writes ``prompts_v1_golden.json`` (the digest of each
transcript, and the English histories of the 6-player game as text, for readable failures)
from the code as it is: run it only to freeze a new version's output, never to make a failing
test pass.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from secret_hitler.bots.base import make_agent
from secret_hitler.engine import Game
from secret_hitler.engine import actions as A
from secret_hitler.llm.endpoints import LANGUAGES
from secret_hitler.llm.prompts import Renderer, load_prompts
from secret_hitler.llm.talk import ChatLine

GOLDEN = Path(__file__).with_name("prompts_v1_golden.json")
#: (players, seed, names): the games of the transcripts
CASES = {
    "10p": (10, 135, None),
    "6p": (6, 140, ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")),
}
RULES = {"preset": "official", "reveal_executed_role": True}


def transcript(version: str, lang: str, case: str) -> tuple[str, dict[int, str], Game]:
    """The whole transcript of ``case``, each seat's history at the end, and the game."""
    players, seed, names = CASES[case]
    render = Renderer(load_prompts(version, lang))
    game = Game(list(names) if names else players, RULES, seed=seed)
    agents = [make_agent("rule", s, seed * 31 + s) for s in range(players)]
    chat: list[ChatLine] = []
    out = [render.system(game.view(s)) for s in range(players)]
    turn = 0
    while not game.finished:
        for s in game.claimants():
            view = game.view(s)
            options = [a for a in view_legal(game, s) if a.type == A.CLAIM]
            out.append(render.claims(view, options, chat)[0])
            for claim in agents[s].claims(view, options):
                if game.is_legal(claim):
                    game.apply(claim)
        if game.finished:
            break
        seat = game.to_act()[0]
        view = game.view(seat)
        legal = [a for a in view_legal(game, seat) if a.type != A.CLAIM]
        text, _ = render.decide(view, legal, chat, say_chars=120, beliefs=[(seat + 1) % players])
        out.append(text)
        turn += 1
        if turn % 9 == 0:
            chat.append(ChatLine(seat, f"line {turn}: I trust the next one", len(view.events)))
        game.apply(agents[seat].act(view, legal))
    histories = {s: render.history(game.view(s), chat) for s in range(players)}
    out.extend(histories.values())
    return "\n\n=====\n\n".join(out), histories, game


def view_legal(game: Game, seat: int) -> list[Any]:
    return list(game.legal_actions(seat))


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def golden(version: str = "v1") -> dict[str, Any]:
    """What ``GOLDEN`` holds, computed from the code as it is."""
    out: dict[str, Any] = {"version": version, "digests": {}, "histories_en_6p": {}}
    for case in CASES:
        for lang in LANGUAGES:
            text, histories, _ = transcript(version, lang, case)
            out["digests"][f"{case}/{lang}"] = digest(text)
            if case == "6p" and lang == "en":
                out["histories_en_6p"] = {str(s): h for s, h in histories.items()}
    return out


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(golden(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
