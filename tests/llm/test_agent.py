"""The llm agent against the scripted chat server: every path of a decision, claims and chat.

Each test scripts the server's next answers (chat_server.py) and checks what the agent played,
what it sent, and what it counted. Deadlines are the client's own timeouts against a server
that does not answer until the test ends: no test waits for a race.
"""

from __future__ import annotations

import contextlib
import json
import random
import socket
import time
from typing import Any

import pytest

from chat_server import ChatServer
from secret_hitler.bots.base import make_agent
from secret_hitler.engine import Action, Game
from secret_hitler.engine import actions as A
from secret_hitler.llm.agent import CLAIM_ASKS, LLMAgent, register_endpoints
from secret_hitler.llm.client import ChatClient
from secret_hitler.llm.endpoints import Endpoint, parse_endpoint
from secret_hitler.llm.talk import ChatLine
from secret_hitler.sim.simulator import run_game

KEY = "sk-test-secret-0123456789"


def endpoint(chat: ChatServer, **changes: Any) -> Endpoint:
    data: dict[str, Any] = {
        "name": "scripted",
        "base_url": chat.url,
        "model": "scripted-model",
        "key_env": "SH_TEST_LLM_KEY",
        "timeout_s": 5.0,
        "retries": 1,
    }
    data.update(changes)
    return parse_endpoint(data)


def agent_for(chat: ChatServer, seat: int, **changes: Any) -> LLMAgent:
    e = endpoint(chat, **changes)
    return LLMAgent(seat, random.Random(seat), e, ChatClient(e))


def nomination(seed: int = 3) -> tuple[Game, int, list[Action]]:
    """A 7-player game at its first nomination: (game, candidate, legal nominations)."""
    game = Game(7, "official", seed=seed)
    seat = game.to_act()[0]
    return game, seat, game.legal_actions(seat)


def vote(seed: int = 3) -> tuple[Game, int, list[Action]]:
    game, seat, legal = nomination(seed)
    game.apply(legal[0])
    voter = game.to_act()[0]
    return game, voter, game.legal_actions(voter)


def claim_window() -> tuple[Game, int]:
    """A 5-player game of rule bots at its first claim window: (game, the first claimant)."""
    game = Game(5, "official", seed=11)
    agents = [make_agent("rule", s, s) for s in range(5)]
    while not game.claimants():
        seat = game.to_act()[0]
        legal = [a for a in game.legal_actions(seat) if a.type != A.CLAIM]
        game.apply(agents[seat].act(game.view(seat), legal))
    return game, sorted(game.claimants())[0]


@pytest.fixture(autouse=True)
def key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SH_TEST_LLM_KEY", KEY)


def test_a_valid_answer_is_played_and_the_request_is_the_wire_format(chat: ChatServer) -> None:
    game, seat, legal = nomination()
    agent = agent_for(chat, seat)
    action = agent.act(game.view(seat), legal)
    assert action in legal
    [request] = chat.requests
    assert request["path"] == "/v1/chat/completions"
    assert request["headers"]["Authorization"] == f"Bearer {KEY}"
    body = request["body"]
    assert body["model"] == "scripted-model"
    assert body["temperature"] == 0.7 and body["max_tokens"] == 512
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    options = fmt["json_schema"]["schema"]["properties"]["action"]["properties"]["target"]["enum"]
    assert sorted(options) == sorted(a.target for a in legal)
    entry = agent.transcript[-1]
    assert entry["by"] == "model" and entry["action"] == action.to_json()
    assert agent.stats.answered == 1 and agent.stats.requests == 1 and agent.stats.retries == 0
    assert agent.stats.prompt_tokens > 0
    # The key goes in the header and nowhere else.
    kept = json.dumps([agent.transcript, agent.stats.to_json(), agent.system, repr(agent.endpoint)])
    assert KEY not in kept and "SH_TEST_LLM_KEY" not in json.dumps(agent.endpoint.describe())


@pytest.mark.parametrize("fmt", ["json_object", "none"])
def test_other_response_formats(chat: ChatServer, fmt: str) -> None:
    game, seat, legal = nomination()
    agent = agent_for(chat, seat, response_format=fmt)
    assert agent.act(game.view(seat), legal) in legal
    sent = chat.requests[-1]["body"]
    assert sent.get("response_format") == (
        {"type": "json_object"} if fmt == "json_object" else None
    )


@pytest.mark.parametrize("wrapping", ["prose", "fence"])
def test_json_in_prose_or_a_code_fence_is_read(chat: ChatServer, wrapping: str) -> None:
    game, seat, legal = vote()
    chat.script.append(wrapping)
    agent = agent_for(chat, seat)
    assert agent.act(game.view(seat), legal) in legal
    assert agent.stats.answered == 1 and not agent.stats.failures


@pytest.mark.parametrize("problem", ["malformed", "illegal", "429", "500", "empty"])
def test_a_bad_answer_is_retried_and_counted(chat: ChatServer, problem: str) -> None:
    game, seat, legal = nomination()
    chat.script.append(problem)
    agent = agent_for(chat, seat)
    action = agent.act(game.view(seat), legal)
    assert action in legal and agent.transcript[-1]["by"] == "model"
    kind = {"429": "http_429", "500": "http_5xx", "empty": "bad_reply"}.get(problem, problem)
    assert agent.stats.failures == {kind: 1}
    assert agent.stats.retries == 1 and agent.stats.requests == 2 and agent.stats.fallbacks == 0
    retry = chat.requests[-1]["body"]["messages"]
    if problem in ("malformed", "illegal"):  # the model is told what was wrong
        assert [m["role"] for m in retry] == ["system", "user", "assistant", "user"]
        assert ("not one of the legal actions" in retry[-1]["content"]) == (problem == "illegal")
    else:  # the same question again
        assert [m["role"] for m in retry] == ["system", "user"]


@pytest.mark.parametrize(
    ("problem", "kind", "changes"),
    [
        ("slow", "late", {"timeout_s": 0.5}),
        ("endless", "too_long", {"max_response_bytes": 4096}),
        ("500", "http_5xx", {}),
        ("malformed", "malformed", {}),
    ],
)
def test_after_the_retries_the_fallback_level_plays(
    chat: ChatServer, problem: str, kind: str, changes: dict[str, Any]
) -> None:
    game, seat, legal = nomination()
    chat.script.extend([problem] * 2)
    agent = agent_for(chat, seat, **changes)
    view = game.view(seat)
    action = agent.act(view, legal)
    rule = make_agent("rule", seat, 0)
    assert action in legal
    assert agent.transcript[-1]["by"] == "fallback" and agent.transcript[-1]["failure"] == kind
    assert agent.stats.failures == {kind: 2} and agent.stats.retries == 1
    assert agent.stats.requests == len(chat.requests) == 2  # each reached the endpoint
    assert agent.stats.fallbacks == 1 and agent.stats.fallback_kinds == {kind: 1}
    assert agent.fallback.name == rule.name == "rule"


def test_a_request_that_never_reached_the_endpoint_is_no_request() -> None:
    """An endpoint whose accept queue is full drops the connection's SYN: the request runs out
    of time connecting, before a byte of it was written. The model is counted no request, no
    retry and no late answer of its own; its fallback played the move, as late."""
    with contextlib.ExitStack() as stack:
        listener = stack.enter_context(socket.socket())
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)  # never accepted: one connection fills the queue
        address = listener.getsockname()
        for _ in range(2):
            filler = stack.enter_context(socket.socket())
            filler.setblocking(False)
            filler.connect_ex(address)
        e = parse_endpoint(
            {
                "name": "unreachable",
                "base_url": f"http://127.0.0.1:{address[1]}/v1",
                "model": "m",
                "timeout_s": 0.3,
                "retries": 1,
            }
        )
        game, seat, legal = nomination()
        agent = LLMAgent(seat, random.Random(seat), e, ChatClient(e))
        assert agent.act(game.view(seat), legal) in legal
    assert agent.transcript[-1]["by"] == "fallback"
    assert agent.stats.requests == agent.stats.retries == 0 and not agent.stats.failures
    assert agent.stats.fallback_kinds == {"late": 1}


def test_no_retries_means_one_request(chat: ChatServer) -> None:
    game, seat, legal = nomination()
    chat.script.append("illegal")
    agent = agent_for(chat, seat, retries=0, fallback="random")
    assert agent.act(game.view(seat), legal) in legal
    assert len(chat.requests) == 1 and agent.stats.fallback_kinds == {"illegal": 1}


def test_the_hosts_deadline_bounds_the_decision(chat: ChatServer) -> None:
    game, seat, legal = nomination()
    agent = agent_for(chat, seat)
    agent.deadline = time.monotonic() - 1  # the table's timer has already run out
    assert agent.act(game.view(seat), legal) in legal
    assert not chat.requests and agent.stats.fallback_kinds == {"late": 1}
    assert agent.deadline is None  # for that decision only
    agent.act(game.view(seat), legal)
    assert len(chat.requests) == 1


def test_a_forced_move_is_played_without_asking(chat: ChatServer) -> None:
    game, voter, _ = vote()
    seat = game.to_act()[0]
    for s in game.to_act():
        game.apply(Action.vote(s, True))
    # The president now discards; a chancellor with two equal policies has one choice.
    agent = agent_for(chat, seat)
    one = [game.legal_actions(game.to_act()[0])[0]]
    assert agent.act(game.view(game.to_act()[0]), one) == one[0]
    assert not chat.requests and agent.stats.forced == 1 and agent.stats.decisions == 0


def test_claims_are_asked_at_most_twice_per_window(chat: ChatServer) -> None:
    """A window is asked when it opens and again only after another seat's claim."""
    game, claimant = claim_window()
    chat.default = "valid"
    agent = agent_for(chat, claimant)
    options = [a for a in game.legal_actions(claimant) if a.type == A.CLAIM]
    made = agent.claims(game.view(claimant), options)
    assert all(c in options for c in made)
    assert agent.claims(game.view(claimant), options) == []  # nothing new: not asked
    assert len(chat.requests) == 1
    other = next(s for s in game.claimants() if s != claimant)
    game.apply(next(a for a in game.legal_actions(other) if a.type == A.CLAIM))
    agent.claims(game.view(claimant), options)  # another seat claimed: asked again
    assert len(chat.requests) == CLAIM_ASKS
    agent.claims(game.view(claimant), options)
    assert len(chat.requests) == CLAIM_ASKS and agent.stats.claim_asks == CLAIM_ASKS


def test_bad_claims_fall_back(chat: ChatServer) -> None:
    game, claimant = claim_window()
    chat.script.extend(["illegal", "illegal"])
    agent = agent_for(chat, claimant)
    options = [a for a in game.legal_actions(claimant) if a.type == A.CLAIM]
    made = agent.claims(game.view(claimant), options)
    assert all(c in options for c in made)
    assert agent.transcript[-1]["by"] == "fallback"
    assert agent.transcript[-1]["claims"] == [c.to_json() for c in made]
    assert agent.stats.fallback_kinds == {"illegal": 1}


def test_chat_lines_are_bounded_in_length_and_rate(chat: ChatServer) -> None:
    game, seat, legal = vote()
    agent = agent_for(chat, seat, chat_chars=12, chat_per_round=1)
    said = json.dumps(
        {"action": {"type": "vote", "ja": True}, "say": "Trust\nme, \x07I am liberal!"}
    )
    original = chat.answer
    chat.answer = lambda behaviour, body: said  # type: ignore[method-assign]
    try:
        agent.act(game.view(seat), legal)
        agent.act(game.view(seat), legal)  # the same round: over the rate
    finally:
        chat.answer = original  # type: ignore[method-assign]
    lines = agent.take_chat()
    assert [line.text for line in lines] == ["Trust me, I"]
    assert agent.stats.chat_lines == 1 and agent.stats.chat_refused == 1
    assert agent.take_chat() == []
    # What another seat says reaches the next prompt.
    agent.hear(ChatLine(seat=(seat + 1) % 7, text="I saw two fascists", at=3, round=1))
    agent.act(game.view(seat), legal)
    prompt = chat.requests[-1]["body"]["messages"][1]["content"]
    assert 'says: "I saw two fascists"' in prompt and 'says: "Trust me, I"' in prompt


def test_beliefs_are_asked_for_and_kept(chat: ChatServer) -> None:
    game, seat, legal = nomination()
    agent = agent_for(chat, seat, beliefs=True)
    agent.act(game.view(seat), legal)
    schema = chat.requests[-1]["body"]["response_format"]["json_schema"]["schema"]
    assert sorted(schema["properties"]["beliefs"]["required"], key=int) == [
        str(s) for s in range(7) if s != seat
    ]
    beliefs = agent.transcript[-1]["beliefs"]
    assert set(beliefs) == {str(s) for s in range(7) if s != seat}
    assert set(beliefs.values()) <= {"liberal", "fascist"}


def test_whole_games_with_model_seats_replay(chat: ChatServer) -> None:
    """Two model seats among bots play games to the end; each seat's every decision is either
    the model's or the fallback's, and the records replay."""
    from secret_hitler.engine import replay

    e = endpoint(chat)
    [level] = register_endpoints({e.name: e})
    assert level == "llm:scripted"
    chat.script.extend(["500"] * 3 + ["malformed", "fence", "illegal"])
    for seed in (1, 2):
        game = Game(6, "official", seed=seed)
        agents = [make_agent(level if s < 2 else "rule", s, seed * 10 + s) for s in range(6)]
        run_game(game, agents)
        assert game.finished and replay(game.to_record()).ok
        for agent in agents[:2]:
            assert isinstance(agent, LLMAgent)
            s = agent.stats
            assert s.decisions + s.claim_asks == s.answered + s.fallbacks
            assert all(entry["by"] in ("model", "fallback") for entry in agent.transcript)


def test_a_model_hitler_names_merlin_at_the_assassination(chat: ChatServer) -> None:
    """Avalon SH's last step is a decision like any other: Hitler's model seat is told what it
    decides and may name only the Liberal party, and its answer is played."""
    rules = {
        "preset": "secrethitler-io",
        "avalon": "percival",
        "monarchist": True,
        "rebalanced": [7],
        "top_decking": "not_twice",
    }
    game = Game(7, rules, seed=4)
    agents = [make_agent("rule", s, s) for s in range(7)]
    while game.phase != "assassinate":
        assert not game.finished, "seed 4 of rule bots reaches the assassination"
        seat = game.to_act()[0]
        legal = [a for a in game.legal_actions(seat) if a.type != A.CLAIM]
        game.apply(agents[seat].act(game.view(seat), legal))
    hitler = game.to_act()[0]
    legal = game.legal_actions(hitler)
    liberal_party = [s for s in range(7) if game.roles[s].party.value == "liberal"]
    assert sorted(a.target for a in legal if a.target is not None) == liberal_party
    agent = agent_for(chat, hitler)
    action = agent.act(game.view(hitler), legal)
    assert action in legal and action.type == A.ASSASSINATE
    prompt = chat.requests[-1]["body"]["messages"][1]["content"]
    assert "name the member of the Liberal party you take for Merlin" in prompt
    assert agent.transcript[-1]["by"] == "model"
    game.apply(action)
    assert game.finished and game.reason in ("hitler_executed", "merlin_assassinated")


def test_a_talk_line_is_heard_in_each_listeners_language(chat: ChatServer) -> None:
    """A structured talk line (secret_hitler.talk) is kept as such and rendered in the
    listener's own language, seats named as the listener's prompt names them."""
    game, seat, legal = vote()
    speaker = agent_for(chat, seat)
    line = {"kind": "accuse", "target": 4, "reason": "investigated"}
    original = chat.answer
    chat.answer = lambda behaviour, body: json.dumps(  # type: ignore[method-assign]
        {"action": {"type": "vote", "ja": False}, "say": line}
    )
    try:
        speaker.act(game.view(seat), legal)
    finally:
        chat.answer = original  # type: ignore[method-assign]
    [said] = speaker.take_chat()
    assert said.line is not None and said.line["kind"] == "accuse" and "seat 4" in said.text
    listener_seat = (seat + 1) % 7
    listener = agent_for(chat, listener_seat, language="ru")
    listener.hear(said)
    listener.act(game.view(listener_seat), game.legal_actions(listener_seat))
    prompt = chat.requests[-1]["body"]["messages"][1]["content"]
    assert "№4" in prompt.split(f"№{seat} говорит:")[1].splitlines()[0]
