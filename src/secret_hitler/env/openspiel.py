"""Secret Hitler as an OpenSpiel Python game (``pyspiel.register_game``), over the engine.

The engine (``secret_hitler.engine.Game``) plays every rule, its chance included: a state holds
one engine game of explicit chance (``Game(..., chance="explicit")``), and this module only maps
its chance nodes and its views to OpenSpiel's integers, strings and tensors:

- chance nodes are the engine's, each uniform over its outcomes, an outcome's index in the
  node's ``outcomes`` being its OpenSpiel action: the deal (every distinct assignment of roles),
  the first president (one outcome under ``first_seat`` rules), the deck (every distinct order
  of the policies), and each reshuffle (every order of the policies shuffled), where a player
  action that makes the engine reshuffle stops until the pile comes;
- players act in the research environment's action space (``encoding.ACTIONS``, claims left
  out), voters one after another from the candidate's left, as in the environment;
- the information state of a player is its engine view with every event it observed (as JSON)
  and, as a tensor, the environment's encoding with 64 nominations of history; the observation
  is the environment's vector (8 nominations) and the view without its log;
- returns: +1 to each seat among the game's winners (the winning team; the Monarchist wins his
  own way), -1 to the others, at the end;
- ``resample_from_infostate`` draws a world from the player's view with the engine's sampler
  (``engine.worlds.sample_world``: the roles, the deck and the hidden discards).

Game parameters: ``players``, ``rules`` (a preset name) and secrethitler.io's game types as
settings of that preset (docs/game-types.md): ``avalon`` (``off``, ``merlin``, ``percival``),
``monarchist`` (bool), ``rebalanced`` (the player counts, ``"6,7,9"``; empty: none) and
``top_decking`` (``allowed``, ``forbidden``, ``not_twice``), so
``pyspiel.load_game("secret_hitler(players=7,avalon=percival,monarchist=true)")`` plays Avalon
SH with Percival and the Monarchist. The deal's outcomes are every distinct deal of the table's
role cards (``chance.deals_of(rules.composition(players))``); a table of the game types that
need them (``layout.game_types_of``) plays with the environment's ``game_types`` block and
assassination actions.

``load(players, rules, **game_types)`` returns the game; ``GAME_NAME`` is its OpenSpiel name.
Needs the ``openspiel`` extra.
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

import numpy as np
import pyspiel

from ..engine import Game, InvalidSettings, Rules
from ..engine.actions import Action
from ..engine.chance import deals_of
from ..engine.settings import MAX_PLAYERS, MIN_PLAYERS
from ..engine.view import View
from ..engine.worlds import WorldError, sample_world
from .encoding import (
    Layout,
    action_index,
    encode_view,
    engine_action,
    game_types_of,
    num_actions,
)

GAME_NAME = "secret_hitler"
#: Nominations the information-state tensor carries (a game has at most about 35).
RECALL_HISTORY = 64
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

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
    parameter_specification={
        "players": 7,
        "rules": "official",
        "avalon": "off",
        "monarchist": False,
        "rebalanced": "",
        "top_decking": "allowed",
    },
)


def rules_of(params: dict[str, Any]) -> Rules:
    """The rules of the game parameters: the ``rules`` preset with the game types' parameters
    as its settings (``InvalidSettings`` for a bad value, naming it)."""
    settings: dict[str, Any] = {"preset": params.get("rules", "official")}
    for name in ("avalon", "monarchist", "top_decking"):
        if name in params:
            settings[name] = params[name]
    counts = str(params.get("rebalanced", "")).strip()
    if counts:
        try:
            settings["rebalanced"] = [int(c) for c in counts.split(",")]
        except ValueError:
            raise InvalidSettings(
                f"rebalanced: player counts separated by commas, e.g. 6,7,9; got {counts[:20]!r}"
            ) from None
    return Rules.from_json(settings)


class SecretHitlerGame(pyspiel.Game):  # type: ignore[misc]
    """The game for a table size, rules preset and game types (its parameters)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 7))
        rules = rules_of(params)
        rules.validate(players)
        self.players, self.rules = players, rules
        self.game_types = game_types_of(rules)
        self.deals = deals_of(rules.composition(players))
        size = sum(rules.deck_for(players))
        chance = max(
            [len(self.deals), players] + [math.comb(m, m // 2) for m in range(3, size + 1)]
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=num_actions(game_types=self.game_types),
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
        history = RECALL_HISTORY if recall else Layout().history
        return Observer(history, recall, self.game_types)


class _Held:
    """The engine game of a state; OpenSpiel clones states with ``copy.deepcopy``, and an
    engine game is copied with ``Game.clone``."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def __deepcopy__(self, memo: Any) -> _Held:
        return _Held(self.game.clone())


class SecretHitlerState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: one engine game of explicit chance (``engine``)."""

    def __init__(self, game: SecretHitlerGame, engine: Game | None = None) -> None:
        super().__init__(game)
        self.players, self.rules = game.players, game.rules
        self.game_types = game.game_types
        if engine is None:
            engine = Game(game.players, game.rules, chance="explicit")
        self._held = _Held(engine)

    @property
    def engine(self) -> Game:
        return self._held.game

    # -- whose turn
    def current_player(self) -> int:
        engine = self.engine
        if engine.is_chance_node():
            return _CHANCE
        if engine.finished:
            return _TERMINAL
        return _acting(engine)

    def _legal_actions(self, player: int) -> list[int]:
        types = self.game_types
        legal = {action_index(a, game_types=types) for a in self.engine.legal_actions(player)}
        legal.discard(-1)
        return sorted(legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        node = self.engine.chance_node
        assert node is not None
        p = node.probability
        return [(o, p) for o in range(len(node.outcomes))]

    # -- moves
    def _apply_action(self, action: int) -> None:
        engine = self.engine
        node = engine.chance_node
        if node is not None:
            engine.apply(node.outcomes[action])
        else:
            engine.apply(engine_action(_acting(engine), action, game_types=self.game_types))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"chance:{action}"
        taken = engine_action(player, action, game_types=self.game_types)
        return json.dumps(taken.to_json(), sort_keys=True)

    # -- the end
    def is_terminal(self) -> bool:
        return self.engine.finished

    def returns(self) -> list[float]:
        engine = self.engine
        winners = engine.winners
        if not engine.finished or winners is None:
            return [0.0] * self.players
        return [1.0 if seat in winners else -1.0 for seat in range(self.players)]

    def __str__(self) -> str:
        node = self.engine.chance_node
        return repr(self.engine) + ("" if node is None else f" awaiting the {node.type}")

    def resample_from_infostate(self, player: int, sampler: Any) -> SecretHitlerState:
        """A state ``player`` cannot tell from this one: a world the engine's sampler draws from
        its view (``engine.worlds.sample_world``), under roles drawn uniformly among the deals
        until one explains the view; the ballots its view shows cast in the open election are
        cast again, its own as it was, the others' at random. The state itself when ``player``
        has no decision now (a chance node, the end, another seat's turn) or no world is found."""
        engine = self.engine
        if engine.chance_node is not None or player not in engine.to_act():
            return self.clone()  # type: ignore[no-any-return]
        view = engine.view(player)
        rng = random.Random(int(sampler() * 2**31) if callable(sampler) else None)
        deals = self.get_game().deals
        order = list(range(len(deals)))
        rng.shuffle(order)
        for i in order:
            roles = [r.value for r in deals[i].roles]
            try:
                world = sample_world(view, roles, rng, chance="explicit")
            except WorldError:
                continue
            _recast_ballots(world, view, rng)
            return SecretHitlerState(self.get_game(), world)
        return self.clone()  # type: ignore[no-any-return]


def _recast_ballots(world: Game, view: View, rng: random.Random) -> None:
    """Cast in ``world`` the secret ballots ``view`` saw noticed in the open election (a world
    leaves them out, engine/worlds.py), in the order they were cast: the view's own as it was,
    the others' ja or nein at random."""
    if view.phase != "vote":
        return
    noticed: list[int] = []
    for e in view.events:
        if e["type"] == "nominated":
            noticed = []
        elif e["type"] == "voted" and "ja" not in e:
            noticed.append(e["seat"])
    for seat in noticed:
        ja = view.own_vote if seat == view.seat else rng.random() < 0.5
        world.apply(Action.vote(seat, bool(ja)))


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

    def __init__(self, history: int, recall: bool, game_types: bool = False) -> None:
        self.layout = Layout(history, game_types=game_types)
        self.recall = recall
        self.tensor = np.zeros(self.layout.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SecretHitlerState, player: int) -> None:
        self.tensor.fill(0.0)
        if state.engine.started:
            self.tensor[:] = encode_view(state.engine.view(player), layout=self.layout)

    def string_from(self, state: SecretHitlerState, player: int) -> str:
        if not state.engine.started:
            return f"p{player} dealing"
        return json.dumps(state.engine.view(player).to_json(events=self.recall), sort_keys=True)


pyspiel.register_game(_GAME_TYPE, SecretHitlerGame)


def load(players: int = 7, rules: str = "official", **game_types: Any) -> Any:
    """The registered game for a table (``pyspiel.load_game`` under its name), with the game
    types as keyword parameters (``avalon="percival"``, ``monarchist=True``,
    ``rebalanced="6,7,9"``, ``top_decking="forbidden"``)."""
    return pyspiel.load_game(GAME_NAME, {"players": players, "rules": rules, **game_types})
