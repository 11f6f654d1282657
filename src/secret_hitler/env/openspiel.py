"""Secret Hitler as an OpenSpiel Python game (``pyspiel.register_game``), over the engine.

The engine (``secret_hitler.engine.Game``) plays every rule; this module only turns its chance
into explicit chance nodes and its views into OpenSpiel's strings and tensors:

- chance nodes, each uniform over its outcomes: the deal (every distinct assignment of roles),
  the first president (one outcome under ``first_seat`` rules), the deck (every distinct order
  of the policies), and each reshuffle (every order of the policies shuffled). A player action
  that makes the engine reshuffle waits at a chance node for the new pile; the engine game is
  then rebuilt from its fixings (a record: the deal, deck and reshuffles so far) and replayed;
- players act in the research environment's action space (``encoding.ACTIONS``, claims left
  out), voters one after another from the candidate's left, as in the environment;
- the information state of a player is its engine view with every event it observed (as JSON)
  and, as a tensor, the environment's encoding with 64 nominations of history; the observation
  is the environment's vector (8 nominations) and the view without its log;
- returns: +1 to each member of the winning team, -1 to the others, at the end.

``load(players, rules)`` returns the game; ``GAME_NAME`` is its OpenSpiel name. Needs the
``openspiel`` extra.
"""

from __future__ import annotations

import itertools
import json
import math
from functools import cache
from typing import Any

import numpy as np
import pyspiel

from ..engine import Game, Rules
from ..engine.actions import Action
from ..engine.errors import GameError
from ..engine.settings import MAX_PLAYERS, MIN_PLAYERS
from .encoding import ACTIONS, NUM_ACTIONS, Layout, action_index, encode_view

GAME_NAME = "secret_hitler"
#: Nominations the information-state tensor carries (a game has at most about 35).
RECALL_HISTORY = 64
_DEAL, _FIRST, _DECK, _PLAY = range(4)
_ROLES = ("liberal", "fascist", "hitler")

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Secret Hitler",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 7, "rules": "official"},
)


@cache
def _deals(players: int, fascists: int) -> tuple[tuple[str, ...], ...]:
    """Every distinct assignment of roles to seats, in a fixed order."""
    out = []
    for hitler in range(players):
        others = [s for s in range(players) if s != hitler]
        for team in itertools.combinations(others, fascists):
            roles = ["liberal"] * players
            roles[hitler] = "hitler"
            for s in team:
                roles[s] = "fascist"
            out.append(tuple(roles))
    return tuple(out)


def _pile(rank: int, size: int, fascists: int) -> list[str]:
    """The ``rank``-th (lexicographic) choice of fascist places in a pile of ``size``."""
    pile, left = [], fascists
    for i in range(size):
        rest = size - i - 1
        with_f = math.comb(rest, left - 1) if left else 0
        if left and rank < with_f:
            pile.append("fascist")
            left -= 1
        else:
            rank -= with_f
            pile.append("liberal")
    return pile


def _rank(pile: list[str]) -> int:
    """``_pile``'s inverse."""
    rank, left, size = 0, pile.count("fascist"), len(pile)
    for i, p in enumerate(pile):
        rest = size - i - 1
        if p == "fascist":
            left -= 1
        elif left:
            rank += math.comb(rest, left - 1)
    return rank


class SecretHitlerGame(pyspiel.Game):  # type: ignore[misc]
    """The game for a table size and rules preset (the ``players`` and ``rules`` parameters)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 7))
        rules = Rules.from_json(params.get("rules", "official"))
        rules.validate(players)
        self.players, self.rules = players, rules
        lib, fas = rules.deck
        size = lib + fas
        chance = max(
            [len(_deals(players, rules.fascist_count(players))), players]
            + [math.comb(m, m // 2) for m in range(3, size + 1)]
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=chance,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=40 * (players + 7),
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> SecretHitlerState:
        return SecretHitlerState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return Observer(RECALL_HISTORY if recall else Layout().history, recall)


class _Held:
    """The engine game of a state; OpenSpiel clones states with ``copy.deepcopy``, and an
    engine game is copied with ``Game.clone``."""

    def __init__(self, game: Game | None) -> None:
        self.game = game

    def __deepcopy__(self, memo: Any) -> _Held:
        return _Held(self.game.clone() if self.game is not None else None)


class SecretHitlerState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the chance outcomes so far, the engine game, the actions."""

    def __init__(self, game: SecretHitlerGame) -> None:
        super().__init__(game)
        self.players, self.rules = game.players, game.rules
        self.fixings: dict[str, Any] = {"reshuffles": []}
        self.actions: list[Action] = []
        self._held = _Held(None)
        self.pending: tuple[Action, int, int] | None = None  # action, pile size, fascists

    @property
    def engine(self) -> Game | None:
        return self._held.game

    @engine.setter
    def engine(self, game: Game | None) -> None:
        self._held = _Held(game)

    # -- whose turn
    def _stage(self) -> int:
        if self.engine is not None:
            return _PLAY
        return len([k for k in ("roles", "first_president", "deck") if k in self.fixings])

    def current_player(self) -> int:
        if self.engine is None or self.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.engine.finished:
            return int(pyspiel.PlayerId.TERMINAL)
        return _acting(self.engine)

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None
        legal = {action_index(a) for a in self.engine.legal_actions(player)}
        legal.discard(-1)
        return sorted(legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        stage = self._stage()
        if stage == _DEAL:
            count = len(_deals(self.players, self.rules.fascist_count(self.players)))
        elif stage == _FIRST:
            count = 1 if self.rules.first_president == "first_seat" else self.players
        elif stage == _DECK:
            count = math.comb(sum(self.rules.deck), self.rules.deck[1])
        else:
            assert self.pending is not None
            _, size, fascists = self.pending
            count = math.comb(size, fascists)
        return [(o, 1.0 / count) for o in range(count)]

    # -- moves
    def _apply_action(self, action: int) -> None:
        stage = self._stage()
        if stage == _DEAL:
            deals = _deals(self.players, self.rules.fascist_count(self.players))
            self.fixings["roles"] = list(deals[action])
        elif stage == _FIRST:
            self.fixings["first_president"] = action
        elif stage == _DECK:
            lib, fas = self.rules.deck
            self.fixings["deck"] = _pile(action, lib + fas, fas)
            self.engine = self._rebuild()
        elif self.pending is not None:
            move, size, fascists = self.pending
            self.fixings["reshuffles"].append(_pile(action, size, fascists))
            self.pending = None
            self.engine = self._rebuild()
            self._play(move)
        else:
            assert self.engine is not None
            self._play(ACTIONS[self.current_player()][action])

    def _play(self, move: Action) -> None:
        """Apply ``move``, or stop at a chance node when it would reshuffle."""
        engine = self.engine
        assert engine is not None
        trial = engine.clone()
        trial.apply(move)  # raises IllegalAction, changing nothing, on an illegal move
        if len(trial.reshuffles) > len(self.fixings["reshuffles"]):  # one the fixings lack
            drawn = trial.reshuffles[-1]
            self.pending = (move, len(drawn), sum(1 for p in drawn if p.value == "fascist"))
            return
        engine.apply(move)
        self.actions.append(move)

    def _rebuild(self) -> Game:
        """The engine game of the fixings so far, with the actions so far replayed."""
        game = Game(self.players, self.rules, **self.fixings)
        for move in self.actions:
            game.apply(move)
        return game

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return f"chance:{action}"
        return json.dumps(ACTIONS[player][action].to_json(), sort_keys=True)

    # -- the end
    def is_terminal(self) -> bool:
        return self.engine is not None and self.pending is None and self.engine.finished

    def returns(self) -> list[float]:
        engine = self.engine
        if engine is None or not engine.finished or engine.winner is None:
            return [0.0] * self.players
        winner = engine.winner.value
        return [1.0 if r.party.value == winner else -1.0 for r in engine.roles]

    def __str__(self) -> str:
        return repr(self.engine) if self.engine is not None else f"dealing {self.fixings}"

    def resample_from_infostate(self, player: int, sampler: Any) -> SecretHitlerState:
        """A state ``player`` cannot tell from this one, with the hidden roles drawn again
        (uniformly among the deals its view allows, kept when the engine replays the game
        under them); the policy deck stays the real one (a known simplification)."""
        engine = self.engine
        if engine is None or self.pending is not None:
            return self.clone()  # type: ignore[no-any-return]
        view = engine.view(player)
        rng = np.random.default_rng(int(sampler() * 2**31) if callable(sampler) else None)
        deals = _deals(self.players, self.rules.fascist_count(self.players))
        order = rng.permutation(len(deals))
        parties = dict(view.investigations)
        for i in order:
            roles = deals[i]
            if any(k is not None and k != r for k, r in zip(view.known_roles, roles, strict=True)):
                continue
            if any(
                ("liberal" if roles[t] == "liberal" else "fascist") != p for t, p in parties.items()
            ):
                continue
            if any(roles[s] == "hitler" for s in view.proven_not_hitler):
                continue
            other = self.clone()
            other.fixings["roles"] = list(roles)
            try:
                other.engine = other._rebuild()
            except GameError:
                continue
            if other.engine.finished == engine.finished:
                return other  # type: ignore[no-any-return]
        return self.clone()  # type: ignore[no-any-return]


def _acting(game: Game) -> int:
    """The seat to act: the one the engine waits for, or during a vote the first voter left of
    the candidate (the research environment's order)."""
    to_act = game.to_act()
    if len(to_act) == 1:
        return to_act[0]
    n, c = game.n, game.candidate
    return min(to_act, key=lambda s: (s - c - 1) % n)


class Observer:
    """OpenSpiel's Python observer: a player's engine view as a string and the environment's
    encoding as a tensor (with ``history`` nominations)."""

    def __init__(self, history: int, recall: bool) -> None:
        self.layout = Layout(history)
        self.recall = recall
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SecretHitlerState, player: int) -> None:
        self.tensor.fill(0.0)
        if state.engine is not None:
            self.tensor[:] = encode_view(state.engine.view(player), layout=self.layout)

    def string_from(self, state: SecretHitlerState, player: int) -> str:
        if state.engine is None:
            return f"p{player} dealing"
        text = json.dumps(state.engine.view(player).to_json(events=self.recall), sort_keys=True)
        if self.recall and state.pending is not None and state.current_player() < 0:
            move = state.pending[0]
            if move.seat == player:  # a player remembers its own move while the deck is shuffled
                text += " pending " + json.dumps(move.to_json(), sort_keys=True)
        return text


pyspiel.register_game(_GAME_TYPE, SecretHitlerGame)


def load(players: int = 7, rules: str = "official") -> Any:
    """The registered game for a table (``pyspiel.load_game`` under its name)."""
    return pyspiel.load_game(GAME_NAME, {"players": players, "rules": rules})
