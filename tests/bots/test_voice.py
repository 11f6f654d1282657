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
from secret_hitler.bots.voice import ByLines, Reading, Style, Voice, line_key
from secret_hitler.engine import Action, Game, Phase, View, WorldError, game_from_record
from secret_hitler.engine.types import Policy
from secret_hitler.sim.simulator import Lineup, game_record, play_game
from secret_hitler.sim.tells import line_kind
from secret_hitler.talk import (
    HEDGED,
    KNOWN,
    Accuse,
    Answer,
    CallOut,
    Claim,
    Correct,
    ExplainNomination,
    ExplainVote,
    Line,
    Question,
    Suggest,
    Trust,
    render,
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


def _voice_lines(seat: int, games: Sequence[Game], talk: Sequence[Said]) -> list:
    """A fresh voice of ``seat`` led through ``games`` (one per action), hearing the lines
    said after each action by others, speaking from one fixed reading and with no judge."""
    voice = Voice(seat, random.Random(seat))
    reading = Reading([0.15 + 0.08 * s for s in range(7)], [0.05 + 0.06 * s for s in range(7)])
    out = []
    for i, game in enumerate(games, start=1):
        view = game.view(seat)
        heard = [e for e in talk if e.after == i and e.seat != seat]
        if heard:
            voice.hear(view, heard)
        out.append((i, voice.speak(view, lambda: reading)))
    return out


@pytest.mark.parametrize("seed", [3, 8, 13, 14])
def test_a_fascist_speaks_as_the_liberal_it_pretends_to_be(seed):
    """The same seat, the same public history, the same heard lines and the same reading: the
    same words whether the seat is a fascist or a liberal, until it holds a hand of its own
    (then a liberal tells what it held, a fascist its story). Every kind of line it says is
    one a liberal says."""
    played = _talking_game("bayes", 7, seed)
    record = played.record()
    roles = record["roles"]
    observer = roles.index("liberal")
    fascist = roles.index("fascist")
    first_session = next(
        (
            k
            for k, g in enumerate(_steps(record, len(record["actions"])), start=1)
            if any(
                e.type == "legislative_session"
                and fascist in (e.data["president"], e.data["chancellor"])
                for e in g.events
            )
        ),
        len(record["actions"]),
    )
    cut = max(k for k in [11, *_cuts(record, observer)] if k < first_session)
    everything = _steps(record, cut)
    rng = random.Random(seed)
    world = None
    for swap in (s for s, r in enumerate(roles) if r == "liberal" and s != observer):
        liberal_world = list(roles)
        liberal_world[fascist], liberal_world[swap] = "liberal", "fascist"
        for _ in range(8):
            try:
                world = _world(everything[-1].view(observer), liberal_world, rng)
                break
            except WorldError:
                continue
        if world is not None:
            break
    assert world is not None
    other = _steps(world.to_record(), cut)
    assert other[-1].view(fascist).role == "liberal"
    asker = next(s for s in range(7) if s not in (fascist, observer))
    scripted = [
        Said(asker, cut - 6, Question("who_suspect", to=fascist)),
        Said(asker, cut - 4, Question("vote", to=fascist, ja=False)),
        Said(asker, cut - 4, Question("nomination", to=fascist, other=observer)),
        Said(observer, cut - 2, Accuse(fascist, HEDGED)),
        Said(asker, cut - 1, Question("who_nominate")),
    ]
    talk = sorted([e for e in played.said if e.after <= cut] + scripted, key=lambda e: e.after)
    as_fascist = _voice_lines(fascist, everything, talk)
    as_liberal = _voice_lines(fascist, other, talk)
    assert as_fascist == as_liberal
    kinds = {line_kind(line) for _, lines in as_fascist for line in lines}
    assert len(kinds) >= 3, kinds  # it said something, and of several kinds


def test_fascists_accuse_teammates_too(games):
    """A fascist's accusations sometimes name a teammate, as the liberal it pretends to be
    would (issue 39: "0 of 90" before), and every kind of line the fascists of these games say
    a liberal says too."""
    by_team: dict[bool, set[str]] = {False: set(), True: set()}
    bussed = 0
    for played in games:
        roles = played.result.roles
        party = [r != "liberal" for r in roles]
        for seat, line in _lines_by(played):
            kind = line_kind(line)
            if kind is not None:
                by_team[party[seat]].add(kind.split(".")[0])
            if party[seat]:
                bussed += any(
                    sig.stance == ACCUSE and party[sig.target] and sig.target != seat
                    for sig in signals(line)
                )
    assert bussed > 0
    assert by_team[True] <= by_team[False] | {"conflict", "call_out", "correct"}
    assert {"question", "hitler_guess", "accuse", "trust", "defend"} <= by_team[True]


def test_no_seat_repeats_what_another_just_said(games):
    """Within a round, a line another seat said is not said again (the same kind, seats and
    reason, whoever it is addressed to), but for an answer to a seat that asked by name."""
    for played in games:
        rounds = _rounds(played)
        said: dict[tuple, int] = {}
        for e in played.said:
            if isinstance(e.line, (Claim, Answer)):
                continue
            key = (rounds[e.after], line_key(e.line))
            if key in said:
                assert said[key] == e.seat, (e, said[key])
            said[key] = e.seat


def _rounds(played) -> list[int]:
    """The round after each number of actions played."""
    record = played.record()
    rounds = [0]
    game = game_from_record(record, apply_actions=False)
    for raw in record["actions"]:
        game.apply(Action.from_json(raw))
        rounds.append(game.round)
    return rounds


def test_no_seat_says_more_than_its_rate_in_a_round(games):
    for played in games:
        rounds = _rounds(played)
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
def test_a_bot_answers_a_person_who_asks_why_it_voted_as_it_did(seed):
    game, agents = _game_to_vote_reveal(seed)
    votes = next(e for e in reversed(game.events) if e.type == "votes").data["votes"]
    asker = 0  # a person: every bot answers, fascists too
    for seat in range(1, 7):
        agent = agents[seat]
        agent.seated_with([True] + [False] * 6)
        view = game.view(seat)
        agent.listen(view, [Said(asker, len(game.actions), Question("vote", to=seat))])
        lines = ask_speech(agent, view)
        answers = [x for x in lines if isinstance(x, Answer)]
        assert len(answers) == 1 and answers[0].to == asker
        said = answers[0].line
        assert isinstance(said, ExplainVote) and said.ja == votes[seat]
        assert said.reason is not None


def _fascist_voice_asked(seed: int, asker_is_person: bool) -> tuple[Voice, View]:
    """A fascist's voice that heard seat 0 ask it why it voted as it did."""
    game, _ = _game_to_vote_reveal(seed)
    seat = next(s for s in range(1, 7) if game.roles[s].value == "fascist")
    voice = Voice(seat, random.Random(seed))
    voice.seated_with([asker_is_person] + [False] * 6)
    view = game.view(seat)
    voice.hear(view, [Said(0, len(game.actions), Question("vote", to=seat))])
    return voice, view


def _reading() -> Reading:
    return Reading([0.5] * 7, [1 / 7] * 7)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_fascist_keeps_quiet_to_a_bot_when_silence_is_worth_more(seed):
    # the team's value falls with every line heard: silence is worth more, past certainty
    silence_pays = ByLines(lambda lines: -float(len(lines)))
    voice, view = _fascist_voice_asked(seed, asker_is_person=False)
    assert voice.speak(view, _reading, silence_pays) == []
    voice, view = _fascist_voice_asked(seed, asker_is_person=True)
    answers = [x for x in voice.speak(view, _reading, silence_pays) if isinstance(x, Answer)]
    assert len(answers) == 1 and answers[0].to == 0  # a person is always answered


class _EvasionRead:
    """A judge by which every line costs the team, but leaving a question by name unanswered
    (``unanswered``: read as evasion) costs more."""

    def __call__(self, lines):
        return -float(len(lines))

    def unanswered(self):
        return -5.0


@pytest.mark.parametrize("seed", [1, 2])
def test_a_fascist_answers_a_bot_when_silence_reads_as_evasion(seed):
    voice, view = _fascist_voice_asked(seed, asker_is_person=False)
    lines = voice.speak(view, _reading, _EvasionRead())
    assert [x.to for x in lines if isinstance(x, Answer)] == [0]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_fascist_answers_a_bot_when_the_answer_costs_nothing(seed):
    voice, view = _fascist_voice_asked(seed, asker_is_person=False)
    lines = voice.speak(view, _reading, ByLines(lambda lines: 0.0))
    assert [x.to for x in lines if isinstance(x, Answer)] == [0]


def test_a_liberal_answers_a_bot_whatever_silence_is_worth():
    game, _ = _game_to_vote_reveal(1)
    seat = next(s for s in range(1, 7) if game.roles[s].value == "liberal")
    voice = Voice(seat, random.Random(1))
    view = game.view(seat)
    voice.hear(view, [Said(0, len(game.actions), Question("vote", to=seat))])
    lines = voice.speak(view, _reading, ByLines(lambda lines: -float(len(lines))))
    assert [x.to for x in lines if isinstance(x, Answer)] == [0]


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


# ---------------------------------------------------------------------------- scripted talk
READING = Reading([0.2 + 0.06 * s for s in range(7)], [0.05 + 0.05 * s for s in range(7)])


def _play_until(game: Game, rng: random.Random, stop, discard=None) -> Game:
    """Random moves (every vote Ja) until ``stop(game)``; ``discard(game, legal)`` may pick a
    president's discard."""
    while not stop(game) and not game.finished:
        seat = game.to_act()[0]
        legal = [a for a in game.legal_actions(seat) if a.type != "claim"]
        if game.phase is Phase.VOTE:
            legal = [a for a in legal if a.ja]
        pick = discard(game, legal) if discard is not None and legal[0].type == "discard" else None
        game.apply(pick or legal[rng.randrange(len(legal))])
    return game


def _session_over(game: Game) -> bool:
    return any(e.type == "enacted" for e in game.events[-3:]) and game.phase is Phase.NOMINATE


def _drop_a_liberal(game: Game, legal):
    """A president who throws away a liberal policy when he holds one and a fascist one."""
    hand = game.view(game.president).hand
    if "liberal" in hand and "fascist" in hand:
        return next(a for a in legal if a.policy == Policy.LIBERAL)
    return None


@pytest.mark.parametrize("seed", range(6))
def test_a_liberal_says_what_it_passed_and_a_fascist_its_story(seed):
    """A president who threw away a liberal policy and claims his hand truly: a liberal says
    the two he really passed (never "passed" a pair he did not); a fascist tells the story a
    liberal would tell (he threw away the fascist one)."""
    rng = random.Random(seed)
    game = _play_until(Game(7, "official", seed), rng, _session_over, _drop_a_liberal)
    president = game.president
    assert president is not None
    held = game.view(president).events
    drew = next(e for e in reversed(held) if e["type"] == "drew").policies
    passed = next(e for e in reversed(held) if e["type"] == "passed").policies
    game.apply(Action.claim_policies(president, "president_hand", tuple(drew)))
    lines = Voice(president, random.Random(1)).speak(game.view(president), lambda: READING)
    claim = next(x for x in lines if isinstance(x, Claim))
    said = sorted(p.value for p in claim.passed)
    if game.roles[president].value == "liberal":
        assert said == sorted(passed)
    else:
        story = list(drew)
        story.remove("fascist" if "fascist" in story else "liberal")
        assert said == sorted(story)


def _voter_game(seed: int) -> Game:
    game, _ = _game_to_vote_reveal(seed)
    return game


def _answer_to(seat: int, game: Game, question: Question, asker: int = 0) -> Line:
    voice = Voice(seat, random.Random(3))
    view = game.view(seat)
    voice.hear(view, [Said(asker, len(game.actions), question)])
    answers = [x for x in voice.speak(view, lambda: READING) if isinstance(x, Answer)]
    assert len(answers) == 1 and answers[0].to == asker
    return answers[0].line


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_question_that_gets_the_vote_wrong_is_corrected_in_the_past_tense(seed):
    """ "Why did you vote Nein?" to a seat that voted Ja: "I voted Ja, not Nein: ...", in every
    language; asked the right way, the plain reason."""
    game = _voter_game(seed)
    votes = next(e for e in reversed(game.events) if e.type == "votes").data["votes"]
    for seat in range(1, 7):
        wrong = _answer_to(seat, game, Question("vote", to=seat, ja=not votes[seat]))
        assert isinstance(wrong, Correct) and isinstance(wrong.line, ExplainVote)
        assert wrong.line.ja == votes[seat]
        right = _answer_to(seat, game, Question("vote", to=seat, ja=votes[seat]))
        assert isinstance(right, ExplainVote) and right.ja == votes[seat]
        cast, asked = ("Ja", "Nein") if votes[seat] else ("Nein", "Ja")
        words = {
            "en": f"voted {cast}",
            "zh-Hans": "投的是" if wrong.variant % 2 == 0 else "投了",
            "zh-Hant": "投的是" if wrong.variant % 2 == 0 else "投了",
            "ru": "был",
            "vi": f"bỏ phiếu {cast}",
        }
        for lang, past in words.items():
            text = render(Answer(wrong, to=0), lang)
            assert past in text, (lang, text)
        assert asked in render(Answer(wrong, to=0), "en") or wrong.variant % 2 == 1


def test_a_question_about_a_nomination_it_did_not_make_is_corrected():
    game = _voter_game(2)
    president = game.president if game.president is not None else game.candidate
    nominee = next(e for e in reversed(game.events) if e.type == "nominated").data["chancellor"]
    president = next(e for e in reversed(game.events) if e.type == "nominated").data["president"]
    other = next(s for s in range(7) if s not in (president, nominee))
    line = _answer_to(
        president, game, Question("nomination", to=president, other=other), asker=other
    )
    assert isinstance(line, Correct) and line.other == other
    assert isinstance(line.line, ExplainNomination) and line.line.target == nominee
    nobody = next(s for s in range(7) if s not in (president, nominee, other))
    never = _answer_to(nobody, game, Question("nomination", to=nobody, other=other), asker=other)
    assert never == Correct("nomination", other=other, variant=never.variant)
    right = _answer_to(president, game, Question("nomination", to=president, other=nominee))
    assert isinstance(right, ExplainNomination) and right.target == nominee


def test_a_question_to_the_table_gets_one_sure_answer_in_the_askers_words():
    """ "Who do you suspect?" to the table from a person: the first bot after the asker always
    answers (others now and then), naming a seat; "who should I nominate?" gets a suggestion."""
    game = _voter_game(1)
    for topic, kind in (("who_suspect", Accuse), ("who_nominate", Suggest), ("who_trust", Trust)):
        answered = []
        for seat in range(7):
            voice = Voice(seat, random.Random(seat))
            voice.seated_with([True, True] + [False] * 5)  # the asker and seat 1 are people
            view = game.view(seat)
            voice.hear(view, [Said(0, len(game.actions), Question(topic))])
            lines = [x for x in voice.speak(view, lambda: READING) if isinstance(x, Answer)]
            answered += [(seat, x.line) for x in lines]
        assert 2 in [s for s, _ in answered]  # the first seat a bot plays after the asker
        assert all(isinstance(x, kind) and x.target != s for s, x in answered)


def test_an_answer_stays_with_what_the_seat_said_before():
    """Asked twice why it voted, a seat gives the same reason; asked whom it suspects after it
    accused a seat it still suspects, it names that seat, not the likeliest by its reading."""
    game = _voter_game(3)
    seat = 4
    voice = Voice(seat, random.Random(2))
    view = game.view(seat)
    first = []
    for asker in (1, 2):
        voice.hear(view, [Said(asker, len(game.actions), Question("vote", to=seat))])
        first += [x.line for x in voice.speak(view, lambda: READING) if isinstance(x, Answer)]
    assert len(first) == 2 and first[0].reason == first[1].reason and first[0].ja == first[1].ja
    assert max(range(7), key=lambda s: READING.suspicion[s]) == 6
    voice.stance[5] = ACCUSE  # it accused seat 5 earlier, still past the prior; 6 is likelier
    voice.hear(view, [Said(3, len(game.actions), Question("who_suspect", to=seat))])
    said = [x.line for x in voice.speak(view, lambda: READING) if isinstance(x, Answer)]
    assert said and isinstance(said[0], Accuse) and said[0].target == 5


def _after_a_fascist_policy(seed: int) -> Game:
    rng = random.Random(seed)
    while True:
        game = _play_until(Game(7, "official", seed), rng, _session_over)
        last = next(e for e in reversed(game.events) if e.type == "enacted")
        if last.data["policy"] == "fascist":
            return game
        seed += 100


@pytest.mark.parametrize("level", ["bayes", "rule"])
def test_an_impossible_claim_is_called_out(level):
    """A chancellor who enacted a fascist policy claims he got two blues: another seat says it
    cannot be true (``CallOut``, known: the table saw it), liberal or fascist alike."""
    game = _after_a_fascist_policy(4)
    chancellor = game.chancellor
    assert chancellor is not None
    game.apply(
        Action.claim_policies(chancellor, "chancellor_hand", (Policy.LIBERAL, Policy.LIBERAL))
    )
    callers = {}
    for seat in range(7):
        if seat in (chancellor, game.president):
            continue
        agent = agent_factory(level)(seat, random.Random(seat))
        lines = ask_speech(agent, game.view(seat))
        out = [x for x in lines if isinstance(x, CallOut)]
        callers[game.roles[seat].value] = callers.get(game.roles[seat].value, 0) + len(out)
        for x in out:
            assert x.target == chancellor and x.reason == "enacted"
            assert signals(x)[0].certainty == KNOWN
    assert callers.get("liberal") and callers.get("fascist")
    assert "can't be true" in render(
        CallOut(chancellor, "chancellor_hand", (Policy.LIBERAL,) * 2, "enacted"), "en"
    )


def test_a_peek_the_next_draw_disproves_is_called_out_by_who_drew_it():
    """A president peeks and claims three other policies than he saw; the next president draws
    the three (no chaos between) and says the peek was false; nobody else can tell."""
    for seed in range(40):
        rng = random.Random(seed)
        game = _play_until(
            Game(5, "official", seed), rng, lambda g: any(e.type == "peek" for e in g.events)
        )
        if game.finished:
            continue
        peeker = next(e for e in reversed(game.events) if e.type == "power").data["president"]
        seen = next(e for e in reversed(game.events) if e.type == "peek").data["policies"]
        lie = tuple(Policy.LIBERAL for _ in seen) if "fascist" in seen else (Policy.FASCIST,) * 3
        game.apply(Action.claim_policies(peeker, "peek", lie))
        voices = {s: Voice(s, random.Random(s)) for s in range(5) if s != peeker}
        for s, voice in voices.items():
            voice.speak(game.view(s), lambda: READING)
        _play_until(game, rng, lambda g: g.phase.value == "discard")
        if game.finished or any(e.type == "chaos" for e in game.events):
            continue
        drew = game.president
        _play_until(game, rng, _session_over)  # the government speaks once its session is over
        if game.finished:
            continue
        out = {}
        for s, voice in voices.items():
            if game.view(s).alive[s]:
                out[s] = [
                    x for x in voice.speak(game.view(s), lambda: READING) if isinstance(x, CallOut)
                ]
        assert [s for s, lines in out.items() if lines] in ([drew], [])
        if drew != peeker and drew in out:
            assert out[drew] and out[drew][0].reason == "drew" and out[drew][0].target == peeker
            return
    pytest.fail("no seed gave a peek and a next draw by another seat")
