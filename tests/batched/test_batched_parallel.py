"""The parallel step (``Env.step_all``: every seat the engine waits for acts at once, a secret
vote in one step) and the rounds loop (``play.play_rounds``: each turn of a round a step
specialised to its phase), judged as the turn-based step is: every game exported as a record
that ``engine.replay`` plays to the same end, every acting seat's observation and mask equal
to the research environment's at that point, the same record played with the turn-based step
reaching the same state, and a specialised step equal to the general one."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
pytest.importorskip("pettingzoo")

from test_batched_engine import OBSERVED, TABLES, _fixings, _summary  # noqa: E402

from secret_hitler.batched import core as C  # noqa: E402
from secret_hitler.batched import play, record  # noqa: E402
from secret_hitler.batched import state as S  # noqa: E402
from secret_hitler.batched.observation import (  # noqa: E402
    all_observations,
    all_words,
    current_observation,
    words_of,
)
from secret_hitler.engine import Action, replay, replay_summary  # noqa: E402
from secret_hitler.env import raw_env  # noqa: E402
from secret_hitler.env.encoding import JA, NEIN, action_index  # noqa: E402

GAMES = 512  # per preset, in one compiled batch
STEPS = 300  # parallel steps: the longest of these games took under 200
SAMPLED = 3  # games per preset whose every acting seat is compared with the environment
TURN_BASED = 64  # games per preset played again with the turn-based step


@pytest.mark.parametrize("claims", [False, True], ids=["", "claims"])
@pytest.mark.parametrize(("rules", "players"), TABLES)
def test_every_parallel_game_replays_in_the_engine_and_is_the_turn_based_one(
    rules: str, players: int, claims: bool
) -> None:
    """Random games with ``step_all``: the record (each step's actions from the candidate's
    left) replays in the engine to the same end and state; secret votes are cast in one step
    by every living seat (under public voting one voter a step). Without claims, also: the
    first ``TURN_BASED`` records played with the turn-based step reach the same states, and
    the first ``SAMPLED`` games show each acting seat what the environment shows it."""
    env = C.Env(players, rules, claims=claims)
    state = env.init(jax.random.split(jax.random.key(players), GAMES))
    final, actions, *kept = play.random_games_all(
        env.config, state, jax.random.key(8), STEPS, not claims
    )
    final, actions = jax.device_get((final, actions))
    assert bool(np.all(final.terminated)) and not bool(np.any(final.truncated))
    reasons = set()
    records = record.to_records(env.config, final, None, actions)
    for g, rec in enumerate(records):
        result = replay(rec)
        assert result.ok, (g, result.error)
        expected = replay_summary(result.game)
        expected.pop("next")
        assert _summary(final, g, players) == expected, g
        assert int(final.steps[g]) == len(rec["actions"])
        reasons.add(expected["reason"])
    assert len(reasons) == 4
    votes_in_a_step = ((actions == JA) | (actions == NEIN)).sum(-1)
    if env.config.secret_votes:
        assert votes_in_a_step.max() == players  # a whole table's vote in one step
    else:
        assert votes_in_a_step.max() == 1
    if not claims:  # with claims a claimant keeps its turn while the others vote (below)
        first = jax.tree.map(lambda x: x[:TURN_BASED], final)
        _is_the_turn_based_game(env, first, records[:TURN_BASED])
        _acting_seats_see_as_in_the_environment(
            env, rules, kept[0], actions, records, range(SAMPLED)
        )


def _is_the_turn_based_game(env: C.Env, final: C.State, records: list[dict[str, Any]]) -> None:
    """The records of parallel games, played one decision at a time with ``step`` from their
    fixings, reach the very same states, field by field (the draw pile decided alike). Not
    with claims: there a claimant keeps its turn while the others vote, an order the
    turn-based step (the environment's turns) does not take; the engine judges those games."""
    fixings = [record.from_record(env.config, r) for r in records]
    batch = {k: np.stack([f[k] for f in fixings]) for k in fixings[0]}
    state = env.init_fixed(jax.random.split(jax.random.key(0), len(records)), **batch)
    longest = max(len(r["actions"]) for r in records)
    actions = np.full((longest, len(records)), -1, np.int32)
    for g, r in enumerate(records):
        for t, a in enumerate(r["actions"]):
            actions[t, g] = action_index(Action.from_json(a), env.config.claims)
    for t in range(longest):
        state = env.step(state, jnp.asarray(actions[t]))
    again = jax.device_get(state)
    # dealt, not drawn: the turn-based games hold their reshuffles whole from the records;
    # and the rewards of the last step taken (the longest game's end in the turn-based batch)
    fixed = {"fixed", "fixed_piles", "seed", "pile", "known", "unknown_f", "rewards"}
    for name, mine in final.fields().items():
        if name not in fixed:
            np.testing.assert_array_equal(mine, getattr(again, name), err_msg=name)


def _acting_seats_see_as_in_the_environment(
    env_b: C.Env,
    rules: str,
    states: C.State,
    actions: np.ndarray,
    records: list[dict[str, Any]],
    games: Iterable[int],
) -> None:
    """At every parallel step of games ``games``, each acting seat's observation is what the
    environment shows it before the step's first action, and its mask what the environment
    offers it at its turn (the step's actions taken from the candidate's left). Every seat's
    observation with claims is ``words_of``'s, below."""
    players = env_b.num_players
    for g in games:
        game = jax.tree.map(lambda x, g=g: x[:, g], states)
        obs_all = np.asarray(all_observations(game))  # [steps, players, size]
        masks_all = np.asarray(game.legal_action_masks).astype(np.int8)
        acting_all = np.asarray(game.acting)
        env = raw_env(players, rules, claims=False)
        env.reset(options=_fixings(records[g]))
        candidate = 0
        for t in range(STEPS):
            if not env.agents or all(env.terminations.values()):
                break
            acting = [s for s in range(players) if (acting_all[t] >> s) & 1]
            for s in acting:
                want = env.observe(f"player_{s}")["observation"]
                np.testing.assert_array_equal(obs_all[t, s], want, err_msg=f"{g} {t} {s}")
            for s in [(candidate + 1 + k) % players for k in range(players)]:
                a = int(actions[t, g, s])
                if a < 0:
                    continue
                assert env.agent_selection == f"player_{s}", (g, t, s)
                want_mask = env.observe(f"player_{s}")["action_mask"]
                np.testing.assert_array_equal(masks_all[t, s], want_mask, err_msg=f"{g} {t}")
                env.step(a)
                if a < JA:
                    candidate = s
        assert all(env.terminations.values()) and bool(game.terminated[-1])


def _random_policy(key: jax.Array, turn: play.Turn, carry: Any) -> tuple[jax.Array, Any]:
    """A uniform legal action for every acting seat, each turn's actions kept per seat."""
    taken, t = carry
    actions = play.random_index(turn.mask_words, jax.random.uniform(key, turn.seats.shape))
    actions = jnp.where(turn.seats >= 0, actions, -1)
    players = taken.shape[-1]
    if turn.seats.shape[-1] == 1:  # the one seat that decides, in its column
        row = jnp.where(jnp.arange(players) == turn.seats, actions, -1)
    else:
        row = actions
    return actions, (taken.at[t].set(row), t + 1)


@pytest.mark.parametrize(
    ("rules", "players", "claims"),
    [
        ("secrethitler-io", 10, False),  # secret votes, the largest table
        ("forum", 8, False),  # public sequential votes, the power before the next session
        ("kickstarter", 5, True),  # claims, the smallest table
    ],
)
def test_rounds_play_whole_games_that_replay_in_the_engine(
    rules: str, players: int, claims: bool
) -> None:
    """``play_rounds`` with a random policy plays every game to its end; each game's turns,
    as a record, replay in the engine to the same end and state."""
    cfg = C.Config(players, rules, claims=claims)
    state = C.Env(players, rules, claims=claims).init(
        jax.random.split(jax.random.key(players), GAMES)
    )
    slots = 64 * len(play.turns(cfg))
    carry = (jnp.full((slots, GAMES, players), -1, jnp.int32), jnp.zeros((), jnp.int32))
    final, (taken, used) = play.play_rounds(cfg, _random_policy, state, jax.random.key(3), carry)
    final, taken = jax.device_get((final, taken[: int(used)]))
    assert bool(np.all(final.terminated))
    for g, rec in enumerate(record.to_records(cfg, final, None, taken)):
        result = replay(rec)
        assert result.ok, (g, result.error)
        expected = replay_summary(result.game)
        expected.pop("next")
        assert _summary(final, g, players) == expected, g
        assert int(final.steps[g]) == len(rec["actions"])


def _first_legal(key: jax.Array, turn: play.Turn, carry: Any) -> tuple[jax.Array, Any]:
    """The lowest legal action of every acting seat: a game is a function of its deal."""
    return play.random_index(turn.mask_words, jnp.zeros(turn.seats.shape)), carry


def test_a_stream_plays_each_deal_as_the_rounds_loop_does_and_deals_again() -> None:
    """``stream_rounds`` reports every game once, as it ended, and deals its place again: with a
    policy that makes each game a function of its deal, every game a place reports is the one
    ``play_rounds`` plays from the deal that place last got (the first batch, then round r's
    deal, as the docstring gives its key)."""
    players, games, rounds = 7, 32, 24
    cfg = C.Config(players, "official")
    env = C.Env(players, "official")

    def deal(key: jax.Array) -> C.State:
        return env.init(jax.random.split(key, games))

    def finished(carry: Any, st: C.State, done: jax.Array) -> Any:
        steps, winners, r = carry
        steps = steps.at[r].set(jnp.where(done, st.steps, -1))
        return steps, winners.at[r].set(st.winner), r + 1

    first = deal(jax.random.key(5))
    key = jax.random.key(6)
    empty = jnp.full((rounds, games), -1, jnp.int32)
    _, (steps, winners, _) = play.stream_rounds(
        cfg, _first_legal, deal, finished, first, key, (empty, empty, jnp.int32(0)), rounds
    )
    _, dealing = jax.random.split(key)
    deals = [first] + [deal(jax.random.fold_in(dealing, r)) for r in range(rounds)]
    played = [play.play_rounds(cfg, _first_legal, d, key)[0] for d in deals]
    assert all(bool(np.all(p.terminated)) for p in played)
    steps, winners = np.asarray(steps), np.asarray(winners)
    dealt = np.zeros(games, int)  # the deal each place plays: 0 the first, r + 1 round r's
    for r in range(rounds):
        for g in np.flatnonzero(steps[r] >= 0):
            want = played[dealt[g]]
            assert (steps[r, g], winners[r, g]) == (int(want.steps[g]), int(want.winner[g])), (r, g)
            dealt[g] = r + 1
    assert (steps >= 0).sum() > 2 * games  # every place played several whole games
    assert dealt.min() > 0


# each compiles a step per turn (about 11 s of CPU each here): the shapes a turn can take, once
# each: secret votes (secrethitler-io, 10 seats), public sequential votes with the power before
# the next session (forum), claims (official)
@pytest.mark.parametrize(
    ("rules", "claims"), [("secrethitler-io", False), ("forum", False), ("official", True)]
)
def test_a_turns_step_and_view_are_the_general_ones(rules: str, claims: bool) -> None:
    """In states of random games: every seat's observation in ``all_words`` is the one
    ``words_of`` gives it (the environment's, tests/batched/test_batched_engine.py); for the
    turn of each game's phase, ``observe_turn`` gives the acting seats' observations and masks
    as the general functions do (and as vectors, ``Turn.observation``), and ``step_phase`` the state ``step_all`` gives for the same
    actions."""
    players = OBSERVED[rules]
    cfg = C.Config(players, rules, claims=claims)
    state = C.Env(players, rules, claims=claims).init(jax.random.split(jax.random.key(2), 48))
    _, actions, states = play.random_games_all(cfg, state, jax.random.key(4), 50, True)
    flat = jax.tree.map(lambda x: x.reshape(x.shape[0] * x.shape[1], *x.shape[2:]), states)
    flat_actions = jnp.asarray(actions).reshape(-1, players)
    seats = jnp.arange(players)
    turns = list(dict.fromkeys(play.turns(cfg)))

    def views(s: C.State, a: jax.Array) -> Any:  # one state: the general functions' and each turn's
        mine = a[jnp.maximum(s.current_player, 0)][None]
        general = {
            "every": all_words(cfg, s),
            "each": jax.vmap(lambda seat: words_of(cfg, s, seat)[0])(seats),
            "step": C.step_all(cfg, s, a),
            "masks": S.seat_mask_words(cfg, s),
            "mask": S.mask_words(cfg, s, s.current_player)[None],
            "vectors": all_observations(s),
            "vector": current_observation(s)[None],
            "masks_bool": s.legal_action_masks,
            "mask_bool": s.legal_action_mask[None],
        }
        special = []
        for phases in turns:
            turn = play.observe_turn(cfg, s, phases)
            whole = turn.seats.shape[-1] == players
            special.append((turn, C.step_phase(cfg, s, a if whole else mine, phases)))
        return general, special

    # one compiled program for every view and step compared (one program each took a quarter
    # longer to compile)
    general, special = jax.jit(jax.vmap(views))(flat, flat_actions)
    np.testing.assert_array_equal(general["every"], general["each"])
    phase = np.asarray(flat.phase)
    current = np.asarray(general["each"])
    current = np.take_along_axis(
        current, np.maximum(np.asarray(flat.current_player), 0)[:, None, None], 1
    )
    covered = set()
    for phases, (turn, step) in zip(turns, special, strict=True):
        here = np.isin(phase, sorted(phases))
        covered |= phases if here.any() else set()
        seats_ = np.asarray(turn.seats)
        acting = seats_ >= 0
        assert (acting.any(1) == here).all()
        whole = seats_.shape[1] == players
        want = np.asarray(general["every"] if whole else current)
        np.testing.assert_array_equal(np.asarray(turn.obs_words)[acting], want[acting])
        want = np.asarray(general["masks" if whole else "mask"])
        np.testing.assert_array_equal(np.asarray(turn.mask_words)[acting], want[acting])
        # the vectors a policy reads: the state's (compared with the environment's above)
        want = np.asarray(general["vectors" if whole else "vector"])
        np.testing.assert_array_equal(np.asarray(turn.observation)[acting], want[acting])
        want = np.asarray(general["masks_bool" if whole else "mask_bool"])
        np.testing.assert_array_equal(np.asarray(turn.legal_action_mask)[acting], want[acting])
        for name, value in step.fields().items():
            np.testing.assert_array_equal(
                np.asarray(value)[here],
                np.asarray(getattr(general["step"], name))[here],
                err_msg=name,
            )
    assert covered >= {S.NOMINATE, S.VOTE, S.DISCARD, S.ENACT} and covered & S.POWER_PHASES
