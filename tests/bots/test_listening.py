"""How a listening bot reads talk (bots/listening.py): what the table knew of the seat a line
names, whether the speaker's votes keep to its words, and a question left unanswered."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from secret_hitler.bots.bayes import BayesAgent
from secret_hitler.bots.beliefs import FAS, HIT, LIB, TALK_MODEL, Beliefs
from secret_hitler.bots.listening import (
    CONTEXTS,
    DIRECTIONS,
    UNANSWERED,
    TalkMemory,
    context,
    record,
)
from secret_hitler.engine import Action, Game, Phase
from secret_hitler.engine.public import PublicState
from secret_hitler.talk.lines import Answer, ExplainVote, Question
from secret_hitler.talk.said import ACCUSE, STANCES, TRUST
from talk_support import after_a_silent_session

pytest.importorskip("numpy")

NEUTRAL = tuple(tuple(1.0 for _ in range(3)) for _ in range(3))


def _flat(model=TALK_MODEL):
    """The committed talk model with every context multiplier and consistency ratio at 1."""
    return replace(
        model,
        context=tuple((s, (NEUTRAL,) * len(CONTEXTS)) for s in STANCES),
        consistency=tuple((NEUTRAL, NEUTRAL) for _ in DIRECTIONS),
    )


def _table(game: Game) -> PublicState:
    return PublicState.of(game.view(None).events)


def _enacted(game: Game) -> tuple[int, int, str]:
    last = next(e for e in reversed(game.events) if e.type == "enacted").data["policy"]
    assert game.president is not None and game.chancellor is not None
    return game.president, game.chancellor, last


def test_the_context_of_a_seat_is_what_the_table_saw():
    game = after_a_silent_session(3)
    table = _table(game)
    president, chancellor, policy = _enacted(game)
    others = [s for s in range(7) if s not in (president, chancellor)]
    if policy == "fascist":
        assert record(table, (), others[0], chancellor) == "fascist_record"
        assert record(table, (), others[0], president) in ("none", "accused")
    else:
        assert record(table, (), others[0], chancellor) == "liberal_record"
        assert record(table, (), others[0], president) == "liberal_record"
    quiet = others[1]
    assert record(table, (), others[0], quiet) == "none"
    assert record(table, (others[2],), others[0], quiet) == "accused"
    assert record(table, (others[0],), others[0], quiet) == "none"  # its own accusation
    assert context(table, (others[2],), others[0], quiet, True) == "accused|top"
    assert context(table, (), others[0], quiet, False) == "none|other"
    assert len(set(CONTEXTS)) == len(CONTEXTS) == 8


def test_the_memory_keeps_the_last_stance_and_every_accuser():
    memory = TalkMemory()
    memory.note(1, ACCUSE, 4)
    memory.note(2, ACCUSE, 4)
    memory.note(1, TRUST, 4)
    assert memory.accused[4] == (1, 2)
    assert memory.stances[(1, 4)] == "for"
    copy = memory.copy()
    copy.note(3, ACCUSE, 4)
    assert memory.accused[4] == (1, 2) and copy.accused[4] == (1, 2, 3)


def _listener(game: Game, model) -> tuple[Beliefs, int]:
    seat = next(s for s in range(7) if game.roles[s].value == "liberal")
    b = Beliefs.for_view(game.view(seat), talk=model)
    b.update(game.view(seat))
    return b, seat


def _fascist_party(b: Beliefs, seat: int) -> float:
    m = b.marginals()
    return float(m[seat, FAS] + m[seat, HIT])


def test_a_vote_against_ones_words_is_read_by_the_consistency_table():
    """A seat accuses another, then votes Ja for its government: with a table in which
    fascists do that four times as often as liberals, the listener's posterior is the flat
    table's times four (tempered by the talk weight) on the worlds where the voter is of the
    fascist party, and nothing else changes."""
    game = after_a_silent_session(5)
    flat = _flat()
    against = tuple(
        tuple(4.0 if rv != 0 else 1.0 for rm in range(3)) for rv in range(3)
    )  # Ja after words against: fascist party voters 4x
    telling = replace(flat, consistency=((NEUTRAL, NEUTRAL), (against, NEUTRAL)))
    candidate = game.candidate
    assert candidate is not None
    nominee = next(s for s in game.view(candidate).eligible)
    listeners = [_listener(game, model) for model in (flat, telling)]
    seat = listeners[0][1]
    speaker = next(s for s in range(7) if s not in (seat, candidate, nominee))
    for b, _ in listeners:
        b.hear_signal(speaker, ACCUSE, nominee, "hedged")
    game.apply(Action.nominate(candidate, nominee))
    while game.phase is Phase.VOTE:
        voter = game.to_act()[0]
        game.apply(Action.vote(voter, True))
    for b, s in listeners:
        b.update(game.view(s))
    (a, _), (b, _) = listeners
    assert _fascist_party(b, speaker) > _fascist_party(a, speaker) + 0.01
    # exactly the table's ratio, tempered by the talk weight, on the worlds where the speaker
    # is of the fascist party; no other voter's words, so nothing else
    factor = np.where(a.R[:, speaker] != LIB, 4.0**flat.weight, 1.0)
    expected = a.probs() * factor
    assert np.allclose(b.probs(), expected / expected.sum())


def test_trusting_a_seat_the_table_saw_pass_a_fascist_policy_is_read_by_its_context():
    """The same trust line means more when the table has seen the seat it names pass a fascist
    policy, as far as the context multipliers say so."""
    for seed in range(1, 40):
        game = after_a_silent_session(seed)
        president, chancellor, policy = _enacted(game)
        if policy == "fascist":
            break
    else:
        pytest.fail("no seed with a fascist policy first")
    flat = _flat()
    records = tuple(
        NEUTRAL
        if not ctx.startswith("fascist_record")
        else tuple(tuple(3.0 if rs != 0 and rt != 0 else 1.0 for rt in range(3)) for rs in range(3))
        for ctx in CONTEXTS
    )
    telling = replace(
        flat, context=tuple((s, records if s == TRUST else t) for s, t in flat.context)
    )
    (a, seat), (b, _) = (_listener(game, m) for m in (flat, telling))
    speaker = next(s for s in range(7) if s not in (seat, president, chancellor))
    for x in (a, b):
        x.hear_signal(speaker, TRUST, chancellor, "hedged")
    assert _fascist_party(b, speaker) > _fascist_party(a, speaker) + 0.01
    assert np.isclose(a.probs().sum(), 1.0) and np.isclose(b.probs().sum(), 1.0)


# ---------------------------------------------------------------------------- evasion
def _to_the_votes(game: Game) -> None:
    """The open nomination made and every vote cast Ja: the next election's votes are in."""
    candidate = game.candidate
    assert candidate is not None
    game.apply(Action.nominate(candidate, game.view(candidate).eligible[0]))
    while game.phase is Phase.VOTE:
        game.apply(Action.vote(game.to_act()[0], True))


def _asked_and_heard(seed: int, answer: bool, people: frozenset[int] = frozenset()):
    """A liberal listener hears one seat ask another by name why it voted as it did; the asked
    seat answers (``answer``) or says nothing until the next election's votes. Returns the
    listener, its posterior before the question, the asked seat, the listener's seat and the
    game."""
    game = after_a_silent_session(seed)
    b, seat = _listener(game, TALK_MODEL)
    b.people = people
    before = b.probs()
    asker, asked = [s for s in range(7) if s != seat][:2]
    b.hear_line(asker, Question("vote", to=asked))
    if answer:
        b.hear_line(asked, Answer(ExplainVote(True), to=asker))
    _to_the_votes(game)
    b.update(game.view(seat))
    return b, before, asked, seat, game


@pytest.mark.parametrize("seed", [2, 6])
def test_a_question_left_unanswered_is_read_as_evasion(seed):
    """Silence until the next election's votes multiplies every world by the asked seat's
    party's rate of leaving a question unanswered (``UNANSWERED``, tempered by the talk weight)
    on top of what the votes say; an answer by 1 minus it, once."""
    silent, _, asked, seat, game = _asked_and_heard(seed, answer=False)
    answered, *_ = _asked_and_heard(seed, answer=True)
    deaf = Beliefs.for_view(game.view(seat), talk=replace(TALK_MODEL, weight=0.0))
    deaf.update(game.view(seat))
    w = TALK_MODEL.weight
    rates = np.asarray(UNANSWERED)[silent.R[:, asked]]
    for b, factor in ((silent, rates**w), (answered, (1 - rates) ** w)):
        expected = deaf.probs() * factor
        assert np.allclose(b.probs(), expected / expected.sum())
        assert not b.heard.asked  # closed: read once
    assert _fascist_party(silent, asked) > _fascist_party(answered, asked) + 0.05
    assert UNANSWERED[LIB] < UNANSWERED[FAS] == UNANSWERED[HIT]


def test_a_persons_silence_is_not_read():
    """A person asked by name may be slow or away: its silence changes nothing."""
    read, _, asked, _, _ = _asked_and_heard(2, answer=False)
    person, _, _, _, _ = _asked_and_heard(2, answer=False, people=frozenset({asked}))
    nobody, _, _, _, _ = _asked_and_heard(2, answer=False, people=frozenset(range(7)))
    assert np.allclose(person.probs(), nobody.probs())
    assert not np.allclose(read.probs(), person.probs())


def test_a_fork_keeps_its_own_talk_memory():
    """What a fork hears (a fascist's judge trying a line on a copy of the eye) never reaches
    the posterior it was forked from, even while that one's memory is empty."""
    game = after_a_silent_session(3)
    b, seat = _listener(game, TALK_MODEL)
    fork = b.fork()
    speaker, target = [s for s in range(7) if s != seat][:2]
    fork.hear_signal(speaker, ACCUSE, target, "hedged")
    fork.hear_line(speaker, Question("vote", to=target))
    assert fork.heard.accused and fork.heard.asked
    assert not b.heard.accused and not b.heard.stances and not b.heard.asked


def test_a_bot_told_who_the_people_are_leaves_their_silence_unread():
    """``seated_with`` before or after the bot first reads the game: either way its posterior
    knows the people's seats (``Beliefs.people``)."""
    game = after_a_silent_session(4)
    seat = next(s for s in range(7) if game.roles[s].value == "liberal")
    people = [s == (seat + 1) % 7 for s in range(7)]
    early, late = BayesAgent(seat, random.Random(1)), BayesAgent(seat, random.Random(1))
    early.seated_with(people)
    for agent in (early, late):
        agent.posterior(game.view(seat))
    late.seated_with(people)
    for agent in (early, late):
        assert agent.beliefs is not None and agent.beliefs.people == {(seat + 1) % 7}
