"""What a bot may say (bots/voice.py): only what its seat knows, in its own words.

The property tests play talking games, then change what one seat has not observed (the other
seats' roles, the deck's order and the hidden discards: ``engine.worlds.sample_world``) and
drive a fresh agent of the same seed through both games: it must say the same words. The other
tests check what each role says against the truth of bot games.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import pytest

from secret_hitler.bots.base import (
    SPEECH_MAX,
    Agent,
    AgentError,
    TableTalk,
    agent_factory,
    ask_speech,
    listens,
    play_out,
    speaks,
)
from secret_hitler.bots.beliefs import Beliefs
from secret_hitler.bots.voice import Style
from secret_hitler.engine import Action, Game, Phase, View, WorldError, game_from_record
from secret_hitler.engine.types import Policy
from secret_hitler.sim.simulator import Lineup, game_record, play_game
from secret_hitler.talk import (
    HEDGED,
    KNOWN,
    Accuse,
    Answer,
    Claim,
    Conflict,
    ExplainVote,
    Line,
    Question,
    Trust,
)
from secret_hitler.talk.said import ACCUSE, Said, signals
from talk_support import after_a_silent_session

pytest.importorskip("numpy")

LEVELS = ("rule", "bayes", "bayes-human")


class _Played:
    """A talking game: its result (what was said: ``said``), the game and its record."""

    def __init__(self, players: int, lineup: Lineup, seed: int, talk: str) -> None:
        self.result, self.game = play_game(players, lineup, "official", seed, talk=talk)
        self.said = self.result.said

    def record(self) -> dict:
        return game_record(self.result, self.game)


def _talking_game(level: str, players: int, seed: int, talk: str = "listen") -> _Played:
    return _Played(players, Lineup(level, level), seed, talk)


def _steps(record: dict, upto: int) -> list[Game]:
    """The game after each of the first ``upto`` actions (index i: after i + 1 actions)."""
    game = game_from_record(record, apply_actions=False)
    out = []
    for raw in record["actions"][:upto]:
        game.apply(Action.from_json(raw))
        out.append(game.clone())
    return out


def _drive(level: str, seat: int, seed: int, games: Sequence[Game], talk: Sequence[Said]):
    """A fresh agent of ``level`` for ``seat`` led through ``games`` (one per action) as a host
    does: it hears the lines said after that action by others, then is asked to speak."""
    agent = agent_factory(level)(seat, random.Random(seed))
    said: list[tuple[int, list[dict]]] = []
    views = []
    for i, game in enumerate(games, start=1):
        view = game.view(seat)
        views.append(view.to_json())
        heard = [e for e in talk if e.after == i and e.seat != seat]
        if heard:
            agent.listen(view, heard)
        lines = ask_speech(agent, view)
        if lines:
            said.append((i, [line.to_json() for line in lines]))
    return views, said


def _cuts(record: dict, seat: int) -> list[int]:
    """Action counts after which ``seat`` is to decide and no ballot of an open vote is cast
    (a sampled world is built at a decision of its seat: engine.worlds)."""
    replay = game_from_record(record, apply_actions=False)
    out = []
    for k, raw in enumerate(record["actions"]):
        fresh_vote = replay.phase is not Phase.VOTE or replay.actions[-1].type == "nominate"
        if k > 10 and seat in replay.to_act() and fresh_vote:
            out.append(k)
        replay.apply(Action.from_json(raw))
    return out


def _other_world(view: View, truth: Sequence[str], rng: random.Random) -> Game | None:
    """A world the seat cannot tell from the true one, with other roles where possible."""
    beliefs = Beliefs.for_view(view)
    beliefs.update(view)
    probs = beliefs.probs()
    names = ("liberal", "fascist", "hitler")
    order = sorted(range(len(probs)), key=lambda w: (probs[w] <= 0, rng.random()))
    for w in order:
        if probs[w] <= 0:
            break
        roles = [names[r] for r in beliefs.R[w]]
        if roles == list(truth):
            continue
        for _ in range(8):
            try:
                return _world(view, roles, rng)
            except WorldError:
                continue
    return None


def _world(view: View, roles: list[str], rng: random.Random) -> Game:
    from secret_hitler.engine import sample_world

    return sample_world(view, roles, rng)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", [3, 8])
def test_a_seat_says_the_same_words_in_every_world_it_cannot_tell_apart(level, seed):
    """Other roles, another deck order and other hidden discards, the same view and the same
    heard lines: the same lines, word for word (their JSON: kinds, seats, reasons, variants)."""
    played = _talking_game(level, 7, seed)
    record = played.record()
    rng = random.Random(seed)
    checked = 0
    for seat in range(7):
        cuts = _cuts(record, seat)
        if not cuts:
            continue
        k = cuts[len(cuts) * 2 // 3]
        true_games = _steps(record, k)
        world = _other_world(true_games[-1].view(seat), record["roles"], rng)
        if world is None:
            continue
        other = world.to_record()
        assert other["roles"] != record["roles"] or other["deck"] != record["deck"]
        other_games = _steps(other, k)
        talk = [e for e in played.said if e.after <= k]
        views_a, said_a = _drive(level, seat, seed * 100 + seat, true_games, talk)
        views_b, said_b = _drive(level, seat, seed * 100 + seat, other_games, talk)
        assert views_a == views_b  # the precondition: the seat cannot tell the worlds apart
        assert said_a == said_b
        checked += bool(said_a)
    assert checked >= 2  # seats that said something in the part compared


def test_the_search_level_speaks_as_its_bayes_self():
    search = agent_factory("search")(2, random.Random(5))
    bayes = agent_factory("bayes")(2, random.Random(5))
    record = _Played(5, Lineup("bayes", "bayes"), 11, "listen").record()
    for g in _steps(record, len(record["actions"]) - 1):
        view = g.view(2)
        assert ask_speech(search, view) == ask_speech(bayes, view)


def _lines_by(played) -> list[tuple[int, Line]]:
    return [(e.seat, e.line) for e in played.said if e.line is not None]


@pytest.fixture(scope="module")
def games():
    """Talking games of every level but search, 7 and 10 players."""
    out = []
    for level in LEVELS:
        for seed in range(6):
            out.append(_talking_game(level, 7 if seed % 2 else 10, seed))
    return out


def test_a_liberal_states_as_known_only_what_it_held(games):
    """A liberal's known line is an accusation of lying about what it held with it, and the
    bots' liberals tell the truth, so its target is of the fascist party; it vouches for
    nobody as a fact and guesses Hitler only as a belief."""
    known = 0
    for played in games:
        roles = played.result.roles
        for seat, line in _lines_by(played):
            if roles[seat] != "liberal":
                continue
            inner = line.line if isinstance(line, Answer) else line
            certainty = getattr(inner, "certainty", HEDGED)
            if certainty != KNOWN:
                continue
            known += 1
            assert isinstance(inner, Accuse) and inner.reason == "lied_to_me", inner
            assert roles[inner.target] != "liberal"
    assert known > 0


def test_claim_lines_say_the_seat_s_own_engine_claims(games):
    for played in games:
        claims = {
            (a.seat, a.subject, a.policies, a.target, a.party)
            for a in played.game.actions
            if a.type == "claim"
        }
        for seat, line in _lines_by(played):
            if isinstance(line, Claim):
                a = line.to_action(seat)
                assert (a.seat, a.subject, a.policies, a.target, a.party) in claims


def test_informed_fascists_never_accuse_a_teammate_and_back_one_in_a_conflict(games):
    backed = 0
    for played in games:
        roles = played.result.roles
        party = [r != "liberal" for r in roles]
        for seat, line in _lines_by(played):
            if not party[seat] or (roles[seat] == "hitler" and len(roles) >= 7):
                continue  # Hitler at 7+ players knows nobody: he talks as a liberal
            for sig in signals(line):
                if sig.stance == ACCUSE:
                    assert not party[sig.target] or sig.target == seat, (seat, line)
            if isinstance(line, Conflict) and line.believe is not None:
                pair = (line.president, line.chancellor)
                mates = [s for s in pair if party[s]]
                if len(mates) == 1:
                    assert line.believe == mates[0]
                    backed += 1
    assert backed > 0


def test_no_seat_says_more_than_its_rate_in_a_round(games):
    for played in games:
        record = played.record()
        rounds = [0]
        game = game_from_record(record, apply_actions=False)
        for raw in record["actions"]:
            game.apply(Action.from_json(raw))
            rounds.append(game.round)
        per: dict[tuple[int, int], int] = {}
        for e in played.said:
            key = (e.seat, rounds[e.after])
            per[key] = per.get(key, 0) + 1
        assert max(per.values()) <= Style.per_round
        lines_per_round = len(played.said) / max(1, played.result.rounds)
        assert lines_per_round < 2 * len(played.result.roles)  # not a flood


def test_talking_without_listening_plays_the_silent_games():
    """Speaking draws from a random source of its own: the games are those of silent bots."""
    for level in LEVELS:
        for seed in (1, 2):
            silent = _Played(7, Lineup(level, level), seed, "off")
            speaking = _Played(7, Lineup(level, level), seed, "speak")
            assert speaking.said and not silent.said
            assert speaking.game.to_record() == silent.game.to_record()


# ---------------------------------------------------------------------------- questions
def _game_to_vote_reveal(seed: int) -> tuple[Game, list[Agent]]:
    """Bayes bots play (no claims) until the votes of the first election are revealed."""
    game = Game(7, "official", seed)
    agents = [agent_factory("bayes")(s, random.Random(seed + s)) for s in range(7)]
    while not any(e.type == "votes" for e in game.events):
        for seat in game.to_act():
            legal = [a for a in game.legal_actions(seat) if a.type != "claim"]
            game.apply(agents[seat].act(game.view(seat), legal))
    return game, agents


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_bot_answers_why_it_voted_as_it_did(seed):
    game, agents = _game_to_vote_reveal(seed)
    votes = next(e for e in reversed(game.events) if e.type == "votes").data["votes"]
    asker = 0
    for seat in range(1, 7):
        agent = agents[seat]
        view = game.view(seat)
        agent.listen(view, [Said(asker, len(game.actions), Question("vote", to=seat))])
        lines = ask_speech(agent, view)
        answers = [x for x in lines if isinstance(x, Answer)]
        assert len(answers) == 1 and answers[0].to == asker
        said = answers[0].line
        assert isinstance(said, ExplainVote) and said.ja == votes[seat]
        assert said.reason is not None


def test_a_question_to_another_seat_is_not_answered():
    game, agents = _game_to_vote_reveal(1)
    view = game.view(3)
    agents[3].listen(view, [Said(0, len(game.actions), Question("vote", to=4))])
    assert not any(isinstance(x, Answer) for x in ask_speech(agents[3], view))


def test_an_accused_bot_defends_itself():
    game, agents = _game_to_vote_reveal(2)
    view = game.view(3)
    agents[3].listen(view, [Said(1, len(game.actions), Accuse(3, HEDGED))])
    lines = ask_speech(agents[3], view)
    assert any(x.kind == "defend" for x in lines)


# ---------------------------------------------------------------------------- listening
@pytest.mark.parametrize("seed", [1, 5])
def test_a_claim_said_in_the_chat_is_read_as_that_claim(seed):
    """Heard in the chat before any engine claim, "RRR" moves a bayes liberal's posterior
    exactly as the engine claim does; the engine claim after it then changes nothing more."""
    game = after_a_silent_session(seed)
    president = game.president
    assert president is not None
    listener = next(
        s
        for s in range(7)
        if s not in (president, game.chancellor) and game.roles[s].value == "liberal"
    )
    fff = (Policy.FASCIST,) * 3
    chat = agent_factory("bayes")(listener, random.Random(1))
    chat.listen(
        game.view(listener), [Said(president, len(game.actions), Claim("president_hand", fff))]
    )
    heard = chat.posterior(game.view(listener))[1].copy()
    claimed = game.clone()
    claimed.apply(Action.claim_policies(president, "president_hand", fff))
    engine = agent_factory("bayes")(listener, random.Random(1))
    assert np.allclose(heard, engine.posterior(claimed.view(listener))[1])
    both = chat.posterior(claimed.view(listener))[1]
    assert np.allclose(both, heard)
    silent = agent_factory("bayes")(listener, random.Random(1)).posterior(game.view(listener))[1]
    assert not np.allclose(silent, heard)


def test_an_accusation_heard_moves_the_posterior_and_one_s_own_does_not():
    game = after_a_silent_session(2)
    listener = next(s for s in range(7) if game.roles[s].value == "liberal")
    speaker = (listener + 1) % 7
    target = (listener + 2) % 7
    base = agent_factory("bayes")(listener, random.Random(1))
    before = base.posterior(game.view(listener))[1].copy()
    base.listen(game.view(listener), [Said(listener, len(game.actions), Accuse(target, HEDGED))])
    assert np.allclose(base.posterior(game.view(listener))[1], before)
    base.listen(game.view(listener), [Said(speaker, len(game.actions), Accuse(target, KNOWN))])
    assert not np.allclose(base.posterior(game.view(listener))[1], before)


# ---------------------------------------------------------------------------- the contract
class _Loud(Agent):
    def __init__(self, seat: int, said: object) -> None:
        super().__init__(seat)
        self.said = said

    def act(self, view, legal):
        return legal[0]

    def speak(self, view):
        return self.said  # type: ignore[return-value]


@pytest.mark.parametrize(
    "said",
    [
        "RRB",
        ["RRB"],
        [Trust(9)],
        [Trust(1)] * (SPEECH_MAX + 1),
        42,
    ],
)
def test_a_bot_that_says_something_else_than_talk_lines_breaks_the_contract(said):
    game = Game(7, "official", 1)
    agent = _Loud(0, said)
    with pytest.raises(AgentError):
        ask_speech(agent, game.view(0))
    agents = [_Loud(s, said if s == 0 else []) for s in range(7)]
    with pytest.raises(AgentError, match="seat 0"):
        play_out(game, agents, talk=TableTalk())


def test_the_levels_speak_and_listen_and_the_base_agent_does_neither():
    for level in (*LEVELS, "search"):
        agent = agent_factory(level)(0, random.Random(0))
        assert speaks(agent) and listens(agent)
    base = agent_factory("random")(0, random.Random(0))
    assert not speaks(base) and not listens(base)
