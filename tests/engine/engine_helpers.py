"""Shared helpers for the engine tests: rigged games, scripted rounds, snapshots, random play."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from secret_hitler.engine import Action, Game, IllegalAction, Rules

L = "liberal"
F = "fascist"


def cards(spec: str) -> list[str]:
    """``"FFL LLF"`` -> ``["fascist", "fascist", "liberal", ...]`` (spaces ignored)."""
    out = []
    for c in spec:
        if c == "L":
            out.append(L)
        elif c == "F":
            out.append(F)
        elif c not in " ,":
            raise ValueError(f"bad card {c!r}")
    return out


def make_deck(top: str = "", liberal: int = 6, fascist: int = 11) -> list[str]:
    """A full initial deck, top first: ``top`` then the remaining liberals, then fascists."""
    head = cards(top)
    lib = liberal - head.count(L)
    fas = fascist - head.count(F)
    assert lib >= 0 and fas >= 0, "the top of the deck holds more policies than the deck"
    return head + [L] * lib + [F] * fas


def make_roles(
    n: int,
    hitler: int | None = None,
    fascists: tuple[int, ...] | None = None,
    fascist_count: int | None = None,
) -> list[str]:
    """Roles per seat. Default: Hitler in the last seat, the Fascists just before him."""
    count = fascist_count if fascist_count is not None else {5: 1, 6: 1, 7: 2, 8: 2, 9: 3, 10: 3}[n]
    if hitler is None:
        hitler = n - 1
    if fascists is None:
        fascists = tuple(s for s in range(n - 1, -1, -1) if s != hitler)[:count]
    assert len(fascists) == count and hitler not in fascists
    roles = [L] * n
    roles[hitler] = "hitler"
    for s in fascists:
        roles[s] = F
    return roles


def new_game(
    n: int = 7,
    rules: Any = "official",
    *,
    top: str = "",
    roles: list[str] | None = None,
    hitler: int | None = None,
    fascists: tuple[int, ...] | None = None,
    first: int = 0,
    reshuffles: list[list[str]] | None = None,
    seed: int = 0,
) -> Game:
    """A game with every chance event fixed: roles, first president and the deck (top first)."""
    resolved = rules if isinstance(rules, Rules) else Rules.from_json(rules)
    lib, fas = resolved.deck_for(n)
    if roles is None:
        roles = make_roles(n, hitler, fascists, resolved.fascist_count(n))
    return Game(
        n,
        rules,
        seed,
        roles=roles,
        first_president=first,
        deck=make_deck(top, lib, fas),
        reshuffles=reshuffles,
    )


# ---------------------------------------------------------------------- scripted play
def living(game: Game) -> list[int]:
    return [s for s in range(game.n) if game.alive[s]]


def nominate(game: Game, chancellor: int) -> None:
    game.apply(Action.nominate(game.candidate, chancellor))


def vote_all(game: Game, ja: bool | dict[int, bool] = True) -> None:
    """Every living seat votes, in seat order; ``ja`` is one vote for all or a vote per seat."""
    for s in living(game):
        game.apply(Action.vote(s, ja if isinstance(ja, bool) else ja[s]))


def elect(game: Game, chancellor: int) -> None:
    nominate(game, chancellor)
    vote_all(game, True)


def fail(game: Game, chancellor: int | None = None) -> None:
    """A failed election: the candidate nominates (the first eligible seat by default), all Nein."""
    if chancellor is None:
        chancellor = game.eligible_chancellors()[0]
    nominate(game, chancellor)
    vote_all(game, False)


def legislate(game: Game, enact: str, discard: str | None = None) -> None:
    """The president discards (so that ``enact`` stays in the hand), the chancellor enacts."""
    if discard is None:
        other = L if enact == F else F
        discard = other if other in game.hand else enact
    game.apply(Action.discard(game.president, discard))
    game.apply(Action.enact(game.chancellor, enact))


def govern(game: Game, chancellor: int, enact: str, discard: str | None = None) -> None:
    """A full round: nomination, unanimous Ja, legislative session enacting ``enact``."""
    elect(game, chancellor)
    legislate(game, enact, discard)


def event_types(game: Game, since: int = 0) -> list[str]:
    return [e.type for e in game.events[since:]]


def events_of(game: Game, kind: str) -> list[dict[str, Any]]:
    return [e.to_json() for e in game.events if e.type == kind]


# ---------------------------------------------------------------------- snapshots
def all_views(game: Game, whole_logs: bool = True) -> list[dict[str, Any]]:
    """Every seat's view and the public one, as JSON. ``whole_logs=False`` keeps of each
    view's log its length and last entry: the full log is the game's events as that seat may
    see them, and writing it out at every step of a game costs the square of its length."""
    views = [game.view(s).to_json() for s in range(game.n)] + [game.view(None).to_json()]
    if not whole_logs:
        for v in views:
            v["events"] = (len(v["events"]), v["events"][-1:])
    return views


def snapshot(game: Game, whole_logs: bool = True) -> dict[str, Any]:
    """Everything observable about a game: record, event log, every view (``all_views``: with
    ``whole_logs=False`` the logs by their length and last entry), legal actions."""
    return {
        "record": game.to_record(),
        "events": [e.to_json(with_audience=True) for e in game.events]
        if whole_logs
        else (len(game.events), [e.to_json(with_audience=True) for e in game.events[-1:]]),
        "views": all_views(game, whole_logs),
        "to_act": game.to_act(),
        "legal": [[a.to_json() for a in game.legal_actions(s)] for s in range(game.n)],
        "phase": game.phase,
    }


def assert_illegal(game: Game, action: Action, code: str | None = None) -> IllegalAction:
    """``action`` raises IllegalAction (with ``code``) and leaves the game exactly as it was."""
    before = snapshot(game)
    assert not game.is_legal(action)
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    if code is not None:
        assert info.value.code == code, info.value.message
    assert info.value.message
    assert snapshot(game) == before
    return info.value


# ---------------------------------------------------------------------- random play
def action_key(action: Action) -> str:
    return json.dumps(action.to_json(), sort_keys=True)


def sorted_legal(game: Game, seat: int) -> list[Action]:
    """Legal actions in a canonical order (the engine's order may depend on hashing)."""
    return sorted(game.legal_actions(seat), key=action_key)


def random_action(game: Game, rng: random.Random, claim_prob: float = 0.05) -> Action:
    """A seat the game waits for, then a uniform legal action; claims only with ``claim_prob``."""
    seat = rng.choice(sorted(game.to_act()))
    legal = sorted_legal(game, seat)
    claims = [a for a in legal if a.type == "claim"]
    others = [a for a in legal if a.type != "claim"]
    if claims and (not others or rng.random() < claim_prob):
        return rng.choice(claims)
    return rng.choice(others)


def play_random(
    game: Game,
    rng: random.Random,
    max_actions: int = 5000,
    claim_prob: float = 0.05,
    stop: Callable[[Game], bool] | None = None,
) -> Game:
    """Random legal play until the end, or until ``stop(game)`` holds."""
    for _ in range(max_actions):
        if game.finished or (stop is not None and stop(game)):
            return game
        game.apply(random_action(game, rng, claim_prob))
    raise AssertionError(f"the game did not end within {max_actions} actions: {game!r}")
