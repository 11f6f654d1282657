"""The environment's talk channel: off by default (the observation unchanged), a fixed-size
vector of what was said when on, and the game's record with its talk."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from secret_hitler.engine import game_from_record, replay  # noqa: E402
from secret_hitler.engine.speech import may_speak  # noqa: E402
from secret_hitler.env import raw_env  # noqa: E402
from secret_hitler.env.talk import TALK_SIZE, talk_layout  # noqa: E402
from secret_hitler.talk import HEDGED, KNOWN, Accuse, Claim, Conflict, InvalidLine, Question  # noqa: E402
from secret_hitler.talk.said import Said  # noqa: E402


def _play(env, seed: int, say=None) -> list[dict]:
    """Random legal play; ``say(env, step)`` may talk before each step. The observations."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = []
    for step, _agent in enumerate(env.agent_iter()):
        obs, _, terminated, truncated, _ = env.last()
        seen.append(obs)
        if terminated or truncated:
            env.step(None)
            continue
        if say is not None:
            say(env, step)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


def test_without_talk_the_observation_is_the_one_of_before():
    plain, talking = raw_env(7), raw_env(7, talk=True)
    assert set(plain.observation_space("player_0").spaces) == {"observation", "action_mask"}
    assert talking.observation_space("player_0")["talk"].shape == (TALK_SIZE,)
    a, b = _play(plain, 3), _play(talking, 3)
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert np.array_equal(x["observation"], y["observation"])
        assert np.array_equal(x["action_mask"], y["action_mask"])
        assert "talk" not in x and not y["talk"].any()  # nothing said: all zeros


def test_the_layout_adds_up():
    layout = talk_layout()
    assert sum(size for _, size, _ in layout.values()) == TALK_SIZE == 680
    offsets = sorted(off for off, _, _ in layout.values())
    assert offsets[0] == 0


def _slot(name: str, *index: int, shape: tuple[int, ...]) -> int:
    off = talk_layout()[name][0]
    return off + int(np.ravel_multi_index(index, shape))


def test_what_is_said_is_in_every_observation_and_questions_only_in_the_asked_one():
    env = raw_env(7, talk=True)
    env.reset(seed=1)
    env.say("player_2", Accuse(4, KNOWN, "lied_to_me"))
    env.say("player_3", Claim("investigation", target=5, party="fascist").to_json())
    env.say("player_1", Conflict(4, 6, believe=6))
    env.say("player_0", Question("vote", to=4, ja=True))
    stance = (10, 10, 3)
    for agent in ("player_4", "player_5"):
        t = env.observe(agent)["talk"]
        assert t.shape == (TALK_SIZE,) and t.dtype == np.float32 and t.max() <= 1.0
        assert t[_slot("stance", 2, 4, 0, shape=stance)] == 1.0  # known accusation
        assert t[_slot("stance", 1, 6, 1, shape=stance)] == 0.5  # the side believed: trust
        assert t[_slot("stance", 1, 4, 0, shape=stance)] == 0.5  # ...the other: suspicion
        assert t[_slot("investigation_claims", 3, 5, 1, shape=(10, 10, 2))] == 1.0
    asked = _slot("questions", 0, 0, shape=(10, 11))
    assert env.observe("player_4")["talk"][asked] == 1.0
    assert env.observe("player_5")["talk"][asked] == 0.0
    env.say("player_4", Accuse(2, HEDGED))  # answering: the question is cleared
    assert env.observe("player_4")["talk"][asked] == 0.0
    # a later accusation replaces trust: the latest stance counts
    env.say("player_1", Accuse(6))
    assert env.observe("player_0")["talk"][_slot("stance", 1, 6, 1, shape=stance)] == 0.0


def test_a_bad_line_is_refused_and_changes_nothing():
    env = raw_env(7, talk=True)
    env.reset(seed=2)
    before = env.observe("player_0")["talk"].copy()
    for agent, line in (
        ("player_1", {"kind": "accuse"}),
        ("player_1", {"kind": "accuse", "target": 8}),
        ("player_9", Accuse(1)),
    ):
        with pytest.raises(ValueError):
            env.say(agent, line)
    with pytest.raises(InvalidLine):
        env.say("player_1", {"kind": "dance"})
    assert np.array_equal(env.observe("player_0")["talk"], before) and env.said == []
    with pytest.raises(ValueError, match="talk=True"):
        plain = raw_env(7)
        plain.reset(seed=2)
        plain.say("player_0", Accuse(1))


def test_the_record_keeps_the_talk_and_replays_to_the_same_game():
    env = raw_env(7, talk=True)

    def say(env, step):
        if step % 9 == 0:
            agent = env.agent_selection
            seat = int(agent.split("_")[1])
            if may_speak(env.game, seat):  # the engine's speech rule
                env.say(agent, Accuse((seat + 1) % 7))

    _play(env, 5, say)
    record = env.record()
    assert len(record["talk"]) == len(env.said) > 0
    assert [Said.from_json(e, players=7) for e in record["talk"]] == env.said
    assert replay(record).ok
    plain = {k: v for k, v in record.items() if k != "talk"}
    assert game_from_record(record).to_record() == plain


def test_the_government_cannot_talk_during_its_session():
    """The live table's speech rule (``engine.speech``): a refused line changes nothing."""
    env = raw_env(7, talk=True)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    while env.game.phase.value != "discard":
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = env.game
    president, chancellor = game.president, game.chancellor
    for seat in (president, chancellor):
        with pytest.raises(ValueError, match="legislative session"):
            env.say(f"player_{seat}", Accuse((seat + 1) % 7))
    assert env.said == [] and not env.observe("player_0")["talk"].any()
    other = next(s for s in range(7) if s not in (president, chancellor))
    env.say(f"player_{other}", Accuse(president))
    assert [s.seat for s in env.said] == [other]
