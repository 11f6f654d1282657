"""An agent sees only its View and its actions, and decides from nothing else.

A spy agent records every object the simulator hands it. Then the same game is played twice
with hidden parts that differ (two other seats swap their secret roles): the spy's views must
be identical, and so must every decision it takes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from secret_hitler.bots import Agent, make_agent
from secret_hitler.engine import Action, Game, View
from secret_hitler.engine.types import Role
from secret_hitler.sim.simulator import run_game


class Spy(Agent):
    """Plays like the bot it wraps and records everything it is given and decides."""

    def __init__(self, inner: Agent) -> None:
        super().__init__(inner.seat, inner.rng)
        self.inner = inner
        self.received: list[Any] = []
        self.log: list[tuple[str, View, tuple[Action, ...], Any]] = []

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        self.received += [view, legal]
        action = self.inner.act(view, legal)
        self.log.append(("act", view, tuple(legal), action))
        return action

    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        self.received += [view, options]
        made = self.inner.claims(view, options)
        self.log.append(("claims", view, tuple(options), tuple(made)))
        return made


class Recorder(Agent):
    """Plays like the bot it wraps and keeps its answers, in order."""

    def __init__(self, inner: Agent) -> None:
        super().__init__(inner.seat, inner.rng)
        self.inner = inner
        self.answers: list[Any] = []

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        action = self.inner.act(view, legal)
        self.answers.append(("act", action))
        return action

    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        made = self.inner.claims(view, options)
        self.answers.append(("claims", list(made)))
        return made


class Replayer(Agent):
    """Gives back a Recorder's answers, so the other seats act the same in both games."""

    def __init__(self, seat: int, answers: list[Any]) -> None:
        super().__init__(seat)
        self.answers = list(answers)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        kind, action = self.answers.pop(0)
        assert kind == "act"
        return action  # type: ignore[no-any-return]

    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        kind, made = self.answers.pop(0)
        assert kind == "claims"
        return made  # type: ignore[no-any-return]


def test_spy_receives_only_views_and_actions() -> None:
    for seed in range(6):
        game = Game(7, "official", seed)
        spies = [Spy(make_agent("rule", s, seed + s)) for s in range(7)]
        run_game(game, spies)
        for spy in spies:
            assert spy.received
            for obj in spy.received:
                if isinstance(obj, View):
                    assert obj.seat == spy.seat
                    continue
                assert isinstance(obj, (list, tuple))
                assert all(isinstance(a, Action) and a.seat == spy.seat for a in obj)
            for kind, view, legal, _ in spy.log:
                # Liberals learn nobody's role until the end; claims come only in claims().
                if game.roles[spy.seat] is Role.LIBERAL and view.winner is None:
                    known = [r for s, r in enumerate(view.known_roles) if s != spy.seat]
                    assert known == [None] * 6
                assert all((a.type == "claim") == (kind == "claims") for a in legal)


class _Diverged(Exception):
    pass


class Checker(Spy):
    """The spy of the second game: checks each view and decision against the first game's."""

    def __init__(self, inner: Agent, expected: list[Any], swapped: set[int]) -> None:
        super().__init__(inner)
        self.expected = expected
        self.swapped = swapped
        self.compared = 0

    def _check(self, kind: str, view: View, legal: Sequence[Action]) -> Any:
        k, v, offered, decision = self.expected[len(self.log)]
        assert (k, offered) == (kind, tuple(legal))
        if v != view:
            # The one legitimate difference: this seat investigated a seat whose party changed.
            assert any(t in self.swapped for t, _ in view.investigations)
            raise _Diverged
        self.compared += 1
        return decision

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        expected = self._check("act", view, legal)
        action = super().act(view, legal)
        assert action == expected
        return action

    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        expected = self._check("claims", view, options)
        made = super().claims(view, options)
        assert tuple(made) == expected
        return made


def _swap_two_hidden_roles(roles: tuple[Role, ...], seat: int) -> tuple[list[Role], set[int]]:
    """Swap a liberal and a fascist other than ``seat`` (Hitler stays where he is)."""
    out = list(roles)
    lib = next(s for s, r in enumerate(roles) if r is Role.LIBERAL and s != seat)
    fas = next(s for s, r in enumerate(roles) if r is Role.FASCIST and s != seat)
    out[lib], out[fas] = out[fas], out[lib]
    return out, {lib, fas}


def test_decisions_depend_only_on_the_view() -> None:
    compared = 0
    for seed in range(40):
        first = Game(7, "official", seed)
        spy_seat = next(s for s, r in enumerate(first.roles) if r is Role.LIBERAL)
        agents: list[Agent] = [Recorder(make_agent("rule", s, 1000 + s)) for s in range(7)]
        spy_a = Spy(make_agent("rule", spy_seat, 99))
        agents[spy_seat] = spy_a
        run_game(first, agents)

        roles, swapped = _swap_two_hidden_roles(first.roles, spy_seat)
        second = Game(7, "official", seed, roles=roles)
        assert second.roles != first.roles and second.initial_deck == first.initial_deck
        spy_b = Checker(make_agent("rule", spy_seat, 99), spy_a.log, swapped)
        replay: list[Agent] = [
            spy_b if s == spy_seat else Replayer(s, agents[s].answers)  # type: ignore[attr-defined]
            for s in range(7)
        ]
        try:
            run_game(second, replay)
        except _Diverged:
            assert spy_b.compared > 0
        else:
            assert spy_b.compared == len(spy_a.log)
            assert first.winner == second.winner
        compared += spy_b.compared
    assert compared > 500
