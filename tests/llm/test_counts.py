"""The arena's counts against what the endpoint saw: the scripted server on 127.0.0.1 logs every
request on its arrival with the behaviour it got (chat_server.py), so each count of a game's
model seats is compared with that log: requests, retries, failures and answers by kind, the
time of failed and late requests, and the asks that found no free slot and sent nothing. Then
that the voters of a game are asked at once, and that the vote agreement with people is the
model's own, never its fallback's."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from typing import Any

from chat_server import ChatServer
from secret_hitler.engine import Game
from secret_hitler.llm.agent import FALLBACK, MODEL, LLMAgent, Stats, register_endpoints, settled_by
from secret_hitler.llm.arena import GameSpec, play_async
from secret_hitler.llm.client import ChatClient, aclose_clients
from secret_hitler.llm.endpoints import Endpoint, parse_endpoint
from secret_hitler.llm.report import answers, vote_agreement
from secret_hitler.sim.evaluate import evaluate_votes, game_half, load_records

#: The failure each failing behaviour of the scripted server is (the endpoint's own doing).
KIND = {"slow": "late", "500": "http_5xx", "429": "http_429", "empty": "bad_reply"}
#: Behaviours that answer a text, which the agent reads: answered, or malformed, or illegal
#: (a "malformed" text cut in half may still hold a whole action: the reader takes it).
TEXTS = ("valid", "prose", "fence", "malformed", "illegal")


def endpoint(chat: ChatServer, name: str, **changes: Any) -> Endpoint:
    data: dict[str, Any] = {"name": name, "base_url": chat.url, "model": f"{name}-model"}
    data.update(changes)
    return parse_endpoint(data)


def _game(level: str, seed: int = 4) -> dict[str, Any]:
    """One arena game of five seats of ``level`` (the arena's own path: ``play_async``)."""
    spec = GameSpec("5p-00000", 5, 0, 0, seed, (level,) * 5)

    async def run() -> dict[str, Any]:
        try:
            return await play_async(spec, "official")
        finally:
            await aclose_clients()

    return asyncio.run(run())


def test_every_count_is_what_the_endpoint_saw(chat: ChatServer) -> None:
    """One slot for the game's five seats (two slots, one kept for other owners), answers that
    are slow (late), failed, malformed or illegal among valid ones, a retry each: every count of
    the seats equals the server's log, and asks that found the slot busy until their deadline
    sent nothing and are counted apart. The first vote's first two requests are slow: they hold
    the slot one after the other until every voter's deadline, so the other voters send
    nothing."""
    e = endpoint(chat, "counted", concurrency=2, retries=1, timeout_s=0.5, decision_s=1.0)
    [level] = register_endpoints({e.name: e})
    chat.script.extend(["valid", "slow", "slow", "500", "malformed", "illegal", "empty", "slow"])
    line = _game(level)
    seen = [r for r in chat.requests if r["body"]["model"] == "counted-model"]
    served = Counter(r["behaviour"] for r in seen)
    total = Stats()
    for data in line["stats"].values():
        total.add(Stats.from_json(data))
    entries = [d for s in line["record"]["llm"]["seats"].values() for d in s["decisions"]]

    assert total.requests == len(seen) == total.attempts
    for behaviour, kind in KIND.items():
        assert total.failures[kind] == served[behaviour], kind
    read = total.answered + total.failures["malformed"] + total.failures["illegal"]
    assert read == sum(served[b] for b in TEXTS)
    assert set(total.failures) <= {*KIND.values(), "malformed", "illegal"}
    asked = [d for d in entries if d["attempts"]]  # asks that reached the endpoint
    assert total.retries == total.requests - len(asked)
    assert sum(len(d["attempts"]) for d in entries) == len(seen)
    # an ask that never got the slot: no request, no late answer, its own kind
    unsent = [d for d in entries if not d["attempts"]]
    assert all(d["failure"] in ("no_slot", "late") for d in unsent)
    assert total.fallback_kinds["no_slot"] == sum(d.get("failure") == "no_slot" for d in entries)
    first_vote = [d for d in entries if d["phase"] == "vote" and d["round"] == 1]
    assert sum(d.get("failure") == "no_slot" and not d["attempts"] for d in first_vote) >= 3
    assert total.failures["late"] == served["slow"] > 0
    # the time of every request that was sent, the late and failed ones included
    spent = sum(a["seconds"] for d in entries for a in d["attempts"])
    assert total.seconds > 0 and abs(total.seconds - spent) < 0.001 * len(seen) + 1e-6
    late = [a for d in entries for a in d["attempts"] if a.get("error") == "late"]
    assert all(a["seconds"] > 0 for a in late)
    assert total.queued_seconds > 0
    # the report says the same
    report = answers([line], {})[level]
    assert report["counts"]["requests"] == len(seen)
    assert report["per_game"]["requests"] == len(seen)
    assert report["invalid_rate"]["n"] == len(seen)


def test_the_voters_of_a_game_are_asked_at_once(chat: ChatServer) -> None:
    """From the first vote on, a game of five model seats: the server answers none of the five
    votes until all five requests are in flight together, so a game that asked the voters one
    after another would get nothing usable (a 500 once the server stops waiting)."""
    from secret_hitler.bots.base import play_out_async

    e = endpoint(chat, "voters", concurrency=8, timeout_s=30.0)
    client = ChatClient(e)
    game = Game(5, "official", seed=3)
    game.apply(game.legal_actions(game.to_act()[0])[0])  # a nomination: the vote is open
    agents = [LLMAgent(s, random.Random(s), e, client) for s in range(5)]
    chat.gather = 5

    async def run() -> None:
        try:
            await play_out_async(game, agents)
        finally:
            await client.aclose()

    asyncio.run(run())
    assert game.finished and chat.most_in_flight >= 5
    assert [r["behaviour"] for r in chat.requests[:5]] == ["valid"] * 5
    first = [a.transcript[0] for a in agents]
    assert all(d["phase"] == "vote" and d["by"] == MODEL for d in first)
    assert all(a.stats.failures == Counter() for a in agents)


def test_agreement_with_people_is_over_the_models_own_votes(chat: ChatServer) -> None:
    """Every request fails: the model decided no vote, so it has no agreement (n 0), and every
    vote is its fallback's, reported apart; with every request answered, every vote is the
    model's."""
    e = endpoint(chat, "voter", retries=0)
    [level] = register_endpoints({e.name: e})
    records = [r for i, r in enumerate(load_records()) if game_half(r, i) == "test"][:1]
    chat.default = "500"
    failed = vote_agreement(evaluate_votes(records, level, 1, decided_by=settled_by))
    votes = failed["all_agreement"]["n"]
    assert votes > 0 and len(chat.requests) >= votes
    assert failed["agreement"]["n"] == 0 and failed["agreement"]["share"] is None
    assert failed["always_ja"] is None and failed["by_role"] == {}
    assert failed["votes"] == {MODEL: 0, FALLBACK: votes}
    assert failed["fallback_agreement"] == failed["all_agreement"]
    chat.default = "valid"
    answered = vote_agreement(evaluate_votes(records, level, 1, decided_by=settled_by))
    assert answered["votes"] == {MODEL: votes, FALLBACK: 0}
    assert answered["agreement"] == answered["all_agreement"]
    assert answered["fallback_agreement"]["n"] == 0
