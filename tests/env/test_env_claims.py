"""Claims in the research environment (``claims=True``): the engine's claims in the action
space beside each seat's move, the turn kept by the claimant, and the claims made in the
history rows of the rounds they are about."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from env_cases import CASES  # noqa: E402

from secret_hitler.engine import Game, replay  # noqa: E402
from secret_hitler.env import SecretHitlerEnv, raw_env  # noqa: E402
from secret_hitler.env.encoding import (  # noqa: E402
    CLAIM_RECORD_FIELDS,
    NUM_ACTIONS,
    NUM_ACTIONS_WITH_CLAIMS,
    RECORD_FIELDS,
    Layout,
    action_index,
    claim_action,
)


def _play(e: SecretHitlerEnv, seed: int, check: Callable[[SecretHitlerEnv], None]) -> int:
    """A random legal game; ``check`` before every step; returns the claims made."""
    rng = random.Random(seed)
    e.reset(seed=seed)
    claims = 0
    while e.agents:
        obs, _, terminated, _, _ = e.last()
        if terminated:
            e.step(None)
            continue
        check(e)
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[rng.randrange(len(legal))])
        agent = e.agent_selection
        e.step(action)
        if action >= NUM_ACTIONS:
            claims += 1
            assert e.agent_selection == agent, "a claim keeps the turn"
    return claims


@pytest.mark.parametrize(("players", "rules"), CASES)
def test_claims_are_offered_as_the_engine_offers_them_and_replay(players: int, rules: str) -> None:
    """The mask is the engine's legal actions, claims included; every claim index stands for
    the engine claim it is offered for; the records with claims replay; the incremental
    observation equals the one encoded from the view alone at every step."""
    e = raw_env(players, rules, claims=True)
    scratch = raw_env(players, rules, claims=True, from_view=True)
    assert e.action_space("player_0").n == NUM_ACTIONS_WITH_CLAIMS
    subjects: set[str] = set()
    made = 0
    for seed in range(4):
        rng = random.Random(seed)
        e.reset(seed=seed)
        scratch.reset(seed=seed)
        while e.agents:
            obs, _, terminated, _, _ = e.last()
            if terminated:
                e.step(None)
                scratch.step(None)
                continue
            agent = e.agent_selection
            seat = int(agent.split("_")[1])
            np.testing.assert_array_equal(obs["observation"], scratch.observe(agent)["observation"])
            assert e.game is not None
            offered = {action_index(a, claims=True): a for a in e.game.legal_actions(seat)}
            assert set(np.flatnonzero(obs["action_mask"])) == set(offered)
            for index, action in offered.items():
                if index >= NUM_ACTIONS:  # (an investigation claim names its window's seat)
                    assert claim_action(seat, index, action.target).to_json() == action.to_json()
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rng.randrange(len(legal))])
            made += action >= NUM_ACTIONS
            e.step(action)
            scratch.step(action)
            if action >= NUM_ACTIONS:
                assert e.agent_selection == agent, "a claim keeps the turn"
        record = e.record()
        subjects.update(a["subject"] for a in record["actions"] if a["type"] == "claim")
        result = replay(record)
        assert result.ok, result.error
    assert made > 0 and {"president_hand", "chancellor_hand"} <= subjects


def test_without_claims_nothing_changes() -> None:
    e = raw_env(7)
    assert e.action_space("player_0").n == NUM_ACTIONS
    assert e.observation_space("player_0")["observation"].shape == (Layout().size,)
    assert Layout(8, claims=True).size == Layout().size + 8 * sum(
        n for _, n, _ in CLAIM_RECORD_FIELDS
    )
    assert Layout(0, claims=True).size == Layout(0).size
    made = _play(e, 0, lambda env: None)
    assert made == 0
    assert not [a for a in e.record()["actions"] if a["type"] == "claim"]


def _row_fields(claims: bool) -> tuple[dict[str, tuple[int, int]], int]:
    at, out = 0, {}
    for name, size, _ in RECORD_FIELDS + (CLAIM_RECORD_FIELDS if claims else ()):
        out[name] = (at, size)
        at += size
    return out, at


@pytest.mark.parametrize(("players", "rules"), CASES)
def test_claim_fields_say_each_claim_in_the_row_of_its_round(players: int, rules: str) -> None:
    """Read against the game's own claim events and the rows' other fields: a hand claim is in
    the newest elected row whose president (chancellor) is the claimant, a peek claim in the
    newest row where the claimant peeked, an investigation claim in the newest row where he
    investigated the claimed seat; a claim whose round has left the history is not shown, and
    nothing else is set."""
    e = raw_env(players, rules, claims=True, history=4)
    fields, size = _row_fields(True)
    offset = e.layout["history"].offset
    peek_power, investigate_power = 2, 0  # encoding.POWERS order
    shown = 0

    def check(env: SecretHitlerEnv) -> None:
        nonlocal shown
        game: Game | None = env.game
        assert game is not None
        obs = env.observe(env.agent_selection)["observation"]
        rows = [obs[offset + i * size : offset + (i + 1) * size] for i in range(4)]

        def get(row: np.ndarray, name: str) -> np.ndarray:
            start, n = fields[name]
            return row[start : start + n]

        expected = [{name: np.zeros(n) for name, n, _ in CLAIM_RECORD_FIELDS} for _ in rows]
        total = sum(1 for x in game.events if x.type == "nominated")
        # the nomination (counted from 1) of the last election and of each seat's last peek
        # and investigation, as the events stood when each claim was made
        nominations, elected = 0, 0
        peeked: dict[int, int] = {}
        investigated: dict[int, int] = {}
        for event in game.events:
            data: Any = event.json
            if event.type == "nominated":
                nominations += 1
            elif event.type == "elected":
                elected = nominations
            elif event.type == "power" and data["power"] == "peek":
                peeked[data["president"]] = nominations
            elif event.type == "investigated":
                investigated[data["president"]] = nominations
            if event.type != "claim":
                continue
            seat, subject = data["seat"], data["subject"]
            about = {"president_hand": elected, "chancellor_hand": elected}.get(subject)
            if subject == "peek":
                about = peeked[seat]
            elif subject == "investigation":
                about = investigated[seat]
            back = total - about  # that nomination's row now
            if back >= 4:
                continue  # its round has left the history
            row = rows[back]
            # the row is that round's: the claimant's government, peek or investigation
            if subject == "president_hand":
                assert get(row, "elected")[0] == 1 and get(row, "president")[seat] == 1
            elif subject == "chancellor_hand":
                assert get(row, "elected")[0] == 1 and get(row, "chancellor")[seat] == 1
            elif subject == "peek":
                assert get(row, "power")[peek_power] == 1
            else:
                assert get(row, "power")[investigate_power] == 1
                assert get(row, "target")[data["target"]] == 1
            want = expected[back]
            policies = data.get("policies") or []
            if subject == "president_hand":
                want["president_claim"][policies.count("liberal")] = 1
            elif subject == "chancellor_hand":
                want["chancellor_claim"][policies.count("liberal")] = 1
            elif subject == "peek":
                for k, p in enumerate(policies):
                    want["peek_claim"][2 * k + (p == "fascist")] = 1
            else:
                want["investigation_claim"][int(data["party"] == "fascist")] = 1
        for row, want in zip(rows, expected, strict=True):
            for name, values in want.items():
                np.testing.assert_array_equal(get(row, name), values, err_msg=name)
                shown += int(values.sum() > 0)

    for seed in range(6):
        _play(e, seed, check)
    assert shown > 50
