"""The batched JAX engine, judged by the engine: thousands of random games per preset exported
as records that ``engine.replay`` plays to the same winner, reason and final state; sampled
games stepped beside the research environment, every seat's observation and mask compared at
every step; records' fixings dealing the same games."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
pytest.importorskip("pettingzoo")

from secret_hitler.batched import core as C  # noqa: E402
from secret_hitler.batched import observation as O  # noqa: E402
from secret_hitler.batched import play, record  # noqa: E402
from secret_hitler.engine import Action, Game, replay, replay_summary  # noqa: E402
from secret_hitler.env import raw_env  # noqa: E402
from secret_hitler.env.encoding import action_index  # noqa: E402

# every preset, one table size each, together 5 to 10 players
TABLES = [
    ("official", 7),
    ("secrethitler-io", 10),
    ("kickstarter", 5),
    ("tabletop-tw", 6),
    ("forum", 8),
    ("summary-zh", 9),
]
GAMES = 512  # per preset, in one compiled batch (every way to end and every claim shows at 512)
STEPS = 400  # the longest of 18,000 random engine games took 343 decisions
CLAIM_STEPS = 480  # with claims: random play claims about one step in thirteen
SAMPLED = 6  # games per preset whose observations are compared at every step
OBSERVED = dict(TABLES)


def _summary(final: C.State, g: int, n: int) -> dict[str, object]:
    """``replay_summary``'s fields of batched game ``g``."""

    def seat(x: object) -> int | None:
        return None if int(x) < 0 else int(x)

    winner = int(final.winner[g])
    team = [int(final.roles[g][s]) > 0 for s in range(n)]  # a fascist or Hitler
    return {
        "finished": winner >= 0,
        "winner": C.WINNERS[winner] if winner >= 0 else None,
        "reason": C.REASONS[int(final.reason[g])],
        # the winning party's seats (no Monarchist at a batched table) and no assassination
        "winners": (
            [s for s in range(n) if team[s] == (C.WINNERS[winner] == "fascist")]
            if winner >= 0
            else None
        ),
        "assassination": None,
        "liberal_policies": int(final.liberal[g]),
        "fascist_policies": int(final.fascist[g]),
        "election_tracker": int(final.tracker[g]),
        "draw_pile": int(final.draw_n[g]),
        "discard_pile": int(final.disc_l[g] + final.disc_f[g]),
        "alive": [bool((int(final.alive[g]) >> s) & 1) for s in range(n)],
        "president": seat(final.president[g]),
        "chancellor": seat(final.chancellor[g]),
    }


def _fixings(rec: dict[str, object]) -> dict[str, object]:
    return {k: rec[k] for k in ("roles", "first_president", "deck", "reshuffles")}


def seen_as_in_the_environment(
    benv: C.Env,
    rules: object,
    states: C.State,
    actions: np.ndarray,
    records: list[dict[str, Any]],
    games: Iterable[int],
) -> None:
    """Games ``games`` of a batch (``states``: the state before each step, ``[steps, batch]``)
    stepped in the research environment from their records' fixings: at every step the
    current player, every seat's observation and mask, and the current player's own
    observation; the rewards at the end."""
    players, claims = benv.num_players, benv.config.claims
    steps = actions.shape[0]
    every_seat = np.tile(np.arange(players), steps)
    for g in games:
        rec = records[g]
        game = jax.tree.map(lambda x, g=g: x[:, g], states)
        mine = jax.tree.map(lambda x: np.repeat(np.asarray(x), players, 0), game)
        obs, masks = jax.device_get(benv.observe(mine, every_seat))
        obs = obs.reshape(steps, players, -1)
        masks = masks.reshape(steps, players, -1).astype(np.int8)
        current = np.asarray(game.current_player)
        own = np.asarray(O.current_observation(game))
        env = raw_env(players, rules, claims=claims)
        env.reset(options=_fixings(rec))
        for t in range(len(rec["actions"])):
            agent = env.agent_selection
            assert current[t] == int(agent.split("_")[1]), (g, t)
            for s in range(players):
                want = env.observe(f"player_{s}")
                np.testing.assert_array_equal(
                    obs[t, s], want["observation"], err_msg=f"{g} {t} {s}"
                )
                np.testing.assert_array_equal(masks[t, s], want["action_mask"], err_msg=f"{g} {t}")
            np.testing.assert_array_equal(own[t], obs[t, current[t]])
            env.step(int(actions[t, g]))
        assert all(env.terminations.values()) and bool(game.terminated[-1])
        # the rewards come with the step that ends the game (the state after the last action)
        rewards = np.asarray(game.rewards[len(rec["actions"])])
        assert rewards.tolist() == [env.rewards[f"player_{s}"] for s in range(players)]


@pytest.mark.parametrize("claims", [False, True], ids=["", "claims"])
@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_every_batched_game_replays_in_the_engine_and_steps_as_the_environment(
    rules: str, players: int, claims: bool
) -> None:
    """Every game replays in the engine to the same end and state (with claims, the records
    hold every claim made; the engine checks each against the windows it keeps: who may claim
    what, when), and the first ``SAMPLED`` step as the environment's
    (``seen_as_in_the_environment``). One compiled program plays them all."""
    env = C.Env(players, rules, claims=claims)
    keys = jax.random.split(jax.random.key(players), GAMES)
    steps = CLAIM_STEPS if claims else STEPS
    final, seats, actions, states = play.random_games(
        env.config, env.init(keys), jax.random.key(7), steps, True
    )
    final, seats, actions = jax.device_get((final, seats, actions))
    assert bool(np.all(final.terminated)), "every random game ends within STEPS decisions"
    assert not bool(np.any(final.truncated))
    reasons: set[object] = set()
    subjects: set[str] = set()
    records = record.to_records(env.config, final, seats, actions)
    for g, rec in enumerate(records):
        result = replay(rec)  # checks every action's legality and the recorded result
        assert result.ok, (g, result.error)
        expected = replay_summary(result.game)
        expected.pop("next")
        assert _summary(final, g, players) == expected, g
        assert int(final.steps[g]) == len(rec["actions"])
        reasons.add(expected["reason"])
        subjects.update(a["subject"] for a in rec["actions"] if a["type"] == "claim")
    # the games reach every way to end (a table with 17 policies and random play does)
    assert reasons == {
        "five_liberal_policies",
        "six_fascist_policies",
        "hitler_elected",
        "hitler_executed",
    }
    if claims:  # claims of every subject the table's powers allow are made
        powers = {p.value for p in env.config.rules.board(players) if p is not None}
        want = {"president_hand", "chancellor_hand"}
        want |= {"peek"} & powers
        want |= {"investigation"} if "investigate" in powers else set()
        assert subjects == want
    else:
        assert not subjects
    seen_as_in_the_environment(env, rules, states, actions, records, range(SAMPLED))


@pytest.mark.parametrize("claims", [False, True], ids=["", "claims"])
def test_a_records_fixings_deal_the_same_game(claims: bool) -> None:
    """An engine game's record (with reshuffles) dealt by ``init_fixed`` from ``from_record``:
    its actions replay to the same end, and the exported record has the same fixings and
    actions (with claims: the same claims, as the engine wrote them)."""
    rng = np.random.default_rng(5)
    env = C.Env(7, "official", claims=claims)
    records = []
    for seed in range(200):
        game = Game(7, "official", seed=seed)
        while not game.finished:
            # voters in the environment's order, from the candidate's left
            seat = min(game.to_act(), key=lambda s, c=game.candidate: (s - c - 1) % 7)
            legal = [a for a in game.legal_actions(seat) if action_index(a, claims) >= 0]
            game.apply(legal[rng.integers(len(legal))])
        claimed = any(a.type == "claim" for a in game.actions)
        if len(game.reshuffles) >= 2 and claimed == claims:
            records.append(game.to_record())
        if len(records) == 4:
            break
    assert len(records) == 4
    fixings = [record.from_record(env.config, r) for r in records]
    batch = {k: np.stack([f[k] for f in fixings]) for k in fixings[0]}
    state = env.init_fixed(jax.random.split(jax.random.key(0), len(records)), **batch)
    longest = max(len(r["actions"]) for r in records)
    seats = np.full((longest, len(records)), -1)
    actions = np.full((longest, len(records)), -1)
    for g, r in enumerate(records):
        for t, a in enumerate(r["actions"]):
            seats[t, g] = a["seat"]
            actions[t, g] = action_index(Action.from_json(a), claims)
    for t in range(longest):
        assert np.all((seats[t] < 0) | (seats[t] == np.asarray(state.current_player)))
        state = env.step(state, jnp.asarray(actions[t]))
    final = jax.device_get(state)
    for g, (mine, theirs) in enumerate(
        zip(record.to_records(env.config, final, seats, actions), records, strict=True)
    ):
        for key in ("roles", "first_president", "deck", "reshuffles", "actions", "result"):
            assert mine[key] == theirs[key], (g, key)
