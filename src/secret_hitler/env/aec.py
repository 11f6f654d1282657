"""PettingZoo AEC environment over the rules engine.

One engine decision is one AEC step. Votes are cast one agent after another (agent_selection
walks the living voters, starting left of the candidate) and the engine reveals them together
when the last is in. Executed players stay in ``agents`` with an all-zero action mask and are
never selected, so that they still receive their team's reward when the game ends; then every
agent is terminated and must be stepped with ``None``, as PettingZoo expects.

secrethitler.io's game types are rule settings like any other (``rules={"preset":
"secrethitler-io", "avalon": "percival", "monarchist": True}``); those that deal new roles or end
games otherwise add the ``game_types`` block to the observation and the assassination to the
action space (``layout.game_types_of``; docs/env.md "Game types"), and every seat's reward is
whether it is among the game's ``winners`` (the Monarchist wins his own way).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine import Game, Rules
from ..engine.observer import Observer
from ..engine.speech import silenced
from ..engine.types import Winner
from ..engine.writer import with_talk
from ..talk.lines import Line, line_from_json
from ..talk.said import Said
from .encoding import (
    ACTIONS,
    DEFAULT_HISTORY,
    NUM_ACTIONS,
    Layout,
    TableEncoder,
    action_index,
    assassinate_base,
    encode_view,
    engine_action,
    game_types_of,
    num_actions,
)
from .talk import TALK_SIZE, TalkChannel

_GAME_OPTIONS = ("roles", "first_president", "deck", "reshuffles")
_NO_LEGAL: frozenset[int] = frozenset()


class _MaskTable(dict[tuple[int, ...], tuple[tuple[Any, ...], np.ndarray, frozenset[int]]]):
    """The masks of one action space (with the claims or not, the game types' block or not)."""

    __slots__ = ("claims", "game_types")

    def __init__(self, claims: bool, game_types: bool) -> None:
        super().__init__()
        self.claims, self.game_types = claims, game_types


#: By the identities of a list of legal engine actions: those actions (held, so that no other
#: object can take their identities while the entry lives), their mask and their indices; one
#: table per action space (with claims or not, with the game types' block or not). The engine's
#: legal actions are shared instances, so the entries are bounded by the sets of seats per
#: action kind; ``_MASKS_LIMIT`` guards against growth anyway.
_MASKS: dict[tuple[bool, bool], _MaskTable] = {
    (claims, types): _MaskTable(claims, types)
    for claims in (False, True)
    for types in (False, True)
}
_MASKS_LIMIT = 100_000


class SecretHitlerEnv(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """Secret Hitler for 5-10 agents under any rules preset (or a rules dict).

    ``history`` is how many past nominations the observation carries. ``from_view=True``
    encodes every observation from scratch (slow; the incremental encoder is checked against
    it in the tests). ``reset(options=...)`` accepts the engine's fixings
    ``roles``, ``first_president``, ``deck`` and ``reshuffles`` for controlled experiments.
    ``talk=True`` adds the talk channel: lines said with ``say`` are encoded in each
    observation's ``"talk"`` vector (``env.talk``); off by default, the observation unchanged.
    ``claims=True`` puts the engine's claims in the action space (``Discrete(68)``) and the
    claims made in the observation's history rows (docs/env.md, "Claims"); off by default.
    ``game_types`` (read from the rules, ``layout.game_types_of``) is whether the game types'
    observation block and assassination actions are on; off for every preset as it comes.
    """

    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi"],
        "name": "secret_hitler_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 7,
        rules: str | dict[str, Any] | Rules = "official",
        render_mode: str | None = None,
        history: int = DEFAULT_HISTORY,
        from_view: bool = False,
        talk: bool = False,
        claims: bool = False,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}")
        self.rules = rules if isinstance(rules, Rules) else Rules.from_json(rules)
        self.rules.validate(players)
        self.players = players
        self.render_mode = render_mode
        self.from_view = from_view
        self.talk = talk
        self.claims = claims
        self.game_types = game_types = game_types_of(self.rules)
        self._masks = _MASKS[claims, game_types]  # the masks of this action space
        self._deck = sum(self.rules.deck_for(players))  # what the pile fractions divide by
        self.num_actions = num_actions(claims, game_types)
        self._first_assassination = assassinate_base(claims)
        self._no_mask = np.zeros(self.num_actions, dtype=np.int8)
        self.layout = Layout(history, claims, game_types)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        # every seat from each seat's left, that seat last (the order votes are cast in)
        self._left_of = [
            tuple((c + k) % players for k in range(1, players + 1)) for c in range(players)
        ]
        # one space object per agent, so that seeding one agent's space leaves the others alone
        self.observation_spaces = {a: self._make_space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self._np_random: np.random.Generator | None = None
        self.game: Game | None = None
        self._encoder: TableEncoder | None = None
        self._observer: Observer | None = None
        self._cache: dict[int, dict[str, np.ndarray]] = {}
        # the legal indices of the selected agent's seat, once its observation is made
        self._legal_seat = -1
        self._legal_now: frozenset[int] = _NO_LEGAL
        # the game is over: every agent terminated (until then rewards, cumulative rewards,
        # terminations and truncations are all zero or False, so a step need not touch them)
        self._over = False
        self._talk: TalkChannel | None = None
        self.said: list[Said] = []  # what was said in this game (``say``), the record's talk

    # ------------------------------------------------------------------ spaces
    def _make_space(self) -> spaces.Dict:
        fields: dict[str, spaces.Space[Any]] = {
            "observation": spaces.Box(0.0, 1.0, (self.layout.size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_actions,), dtype=np.int8),
        }
        if self.talk:
            fields["talk"] = spaces.Box(0.0, 1.0, (TALK_SIZE,), dtype=np.float32)
        return spaces.Dict(fields)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ lifecycle
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """New game; the same ``seed`` gives the same deal, deck and first president."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = int(self._np_random.integers(0, 2**62))
        fixings = {k: v for k, v in (options or {}).items() if k in _GAME_OPTIONS}
        self.game = Game(self.players, self.rules, seed=game_seed, **fixings)
        self._encoder = TableEncoder(self.players, self.layout, self._deck)
        self._observer = self.game.observer
        self._cache = {}
        self._legal_seat = -1
        self._over = False
        self._talk = TalkChannel() if self.talk else None
        self.said = []
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._next_seat()]

    def _next_seat(self) -> int:
        game, observer = self.game, self._observer
        assert game is not None and observer is not None
        # the seats to act, from the observer (kept there for the next observation)
        to_act: tuple[int, ...] = observer.election()[0]
        if len(to_act) == 1:
            return to_act[0]
        # a vote: walk the living voters from the candidate's left
        for s in self._left_of[game.candidate]:
            if s in to_act:
                return s
        raise AssertionError("a vote with no voter left")

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self._over:  # every agent is terminated
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None
        seat = self._seat_of[agent]
        if action is None:
            raise ValueError(f"{agent} is alive and must act: None is only for terminated agents")
        index = int(action)
        if self._legal_seat == seat:
            legal = self._legal_now
        else:
            legal = _mask_of(game.legal_actions(seat), self._masks)[1]
        if index not in legal:
            raise ValueError(
                f"action {action!r} is not legal for {agent} now; legal: {sorted(legal)}"
            )
        # (PettingZoo zeroes the agent's cumulative reward here: it is zero until the end)
        if index < NUM_ACTIONS:
            game.apply(ACTIONS[seat][index])
        elif index < self._first_assassination:
            # a claim: the one the engine offers with this index (the turn stays)
            claims = game.legal_actions(seat)
            game.apply(next(a for a in claims if action_index(a, True) == index))
        else:  # the game types' block (an assassination)
            game.apply(engine_action(seat, index, self.claims, self.game_types))
        self._cache = {}
        self._legal_seat = -1
        if game.winner is not None:
            self._finish(game.winner)
            self._accumulate_rewards()
        else:
            # rewards are 0 until the end, so there is nothing to accumulate
            self.agent_selection = self.possible_agents[self._next_seat()]
        if self.render_mode == "human":
            self.render()

    def _finish(self, winner: Winner) -> None:
        game = self.game
        assert game is not None
        self._over = True
        winners = game.winners or ()
        info: dict[str, Any] = {
            "winner": winner.value,
            "reason": game.reason.value if game.reason else None,
        }
        if self.game_types:
            info["winners"] = list(winners)
        for a, seat in self._seat_of.items():
            self.rewards[a] = 1.0 if seat in winners else -1.0
            self.terminations[a] = True
            self.infos[a] = dict(info, role=game.roles[seat].value)

    # ------------------------------------------------------------------ talk
    def say(self, agent: str, line: Line | dict[str, Any]) -> None:
        """``agent`` says ``line`` (a ``talk.Line`` or its JSON form) at the table, now: it is
        kept in ``said`` and read into every later observation's ``"talk"`` vector. Needs
        ``talk=True``; a seat that may not speak now (``engine.speech``: dead, or the
        government during its legislative session), the end of the game, a line that is not a
        talk line or names a seat not at the table raise ``ValueError`` (``talk.InvalidLine``)
        and change nothing."""
        if self._talk is None or self.game is None:
            raise ValueError("this environment has no talk channel: make it with talk=True")
        seat = self._seat_of.get(agent)
        if seat is None:
            raise ValueError(f"unknown agent {agent!r}")
        why = silenced(self.game, seat)  # the engine's speech rule, as at a live table
        if why is not None or self._over:
            reason = (why or "the game is over").replace("_", " ")
            raise ValueError(f"{agent} cannot talk now ({reason})")
        data = line.to_json() if not isinstance(line, dict) else line
        parsed = line_from_json(data, players=self.players)
        self._talk.say(seat, parsed)
        self.said.append(Said(seat, len(self.game.actions), parsed))
        self._cache = {}

    def record(self) -> dict[str, Any]:
        """The game's record (RECORD-FORMAT.md), with its talk section when it has talk."""
        assert self.game is not None
        record = self.game.to_record()
        return with_talk(record, (s.to_json() for s in self.said)) if self.talk else record

    # ------------------------------------------------------------------ observations
    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """``AECEnv.last``, for the selected agent (defined here: it is called at every step)."""
        agent = self.agent_selection
        if not self._over:
            return (self.observe(agent) if observe else None, 0.0, False, False, self.infos[agent])
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Observation of ``agent``, encoded only when asked for (and cached until the next step)."""
        seat = self._seat_of[agent]
        cached = self._cache.get(seat)
        if cached is not None:
            return cached
        game = self.game
        assert game is not None
        if self.from_view:
            vector = encode_view(game.view(seat), layout=self.layout)
        else:
            encoder, observer = self._encoder, self._observer
            assert encoder is not None and observer is not None
            encoder.sync(observer)
            vector = encoder.encode(seat, observer.table(), observer.election(), observer.own(seat))
        # Only the selected agent may act now (PettingZoo classic convention): during a vote the
        # voters waiting their turn get an all-zero mask too.
        if agent == self.agent_selection:
            # (after the end the engine offers nothing: an all-zero mask)
            mask, self._legal_now = _mask_of(game.legal_actions(seat), self._masks)
            self._legal_seat = seat
            mask = mask.copy()
        else:
            mask = self._no_mask.copy()
        obs = {"observation": vector, "action_mask": mask}
        if self._talk is not None:
            obs["talk"] = self._talk.encode(seat)
        self._cache[seat] = obs
        return obs

    # ------------------------------------------------------------------ rendering
    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        g = self.game
        alive = "".join("x" if not a else str(i) for i, a in enumerate(g.alive))
        text = (
            f"round {g.round} {g.phase.value}: liberal {g.liberal}/5 fascist {g.fascist}/6 "
            f"tracker {g.tracker} candidate {g.candidate} nominee {g.nominee} seats [{alive}] "
            f"to act {self.agent_selection}"
        )
        if g.winner is not None:
            text += f" -> {g.winner.value} win ({g.reason.value if g.reason else ''})"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release; defined because PettingZoo expects ``close`` next to ``render``."""


def _mask_of(legal: list[Any], masks: _MaskTable) -> tuple[np.ndarray, frozenset[int]]:
    """The mask (shared) and index set of a list of legal engine actions, cached in ``masks``,
    one of ``_MASKS`` (its action space: with claims or not, with the game types or not)."""
    key = tuple(map(id, legal))
    entry = masks.get(key)
    if entry is None:
        claims, game_types = masks.claims, masks.game_types
        found = (action_index(a, claims, game_types) for a in legal)
        indices = frozenset(i for i in found if i >= 0)
        mask = np.zeros(num_actions(claims, game_types), dtype=np.int8)
        mask[list(indices)] = 1
        if len(masks) >= _MASKS_LIMIT:
            masks.clear()
        entry = masks[key] = (tuple(legal), mask, indices)
    return entry[1], entry[2]


def raw_env(
    players: int = 7,
    rules: str | dict[str, Any] | Rules = "official",
    render_mode: str | None = None,
    **kwargs: Any,
) -> SecretHitlerEnv:
    """The unwrapped environment (fastest; raises ``ValueError`` on an illegal action)."""
    return SecretHitlerEnv(players, rules, render_mode, **kwargs)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` with its checks, and ``last`` and ``step`` passed
    to the environment directly: the inherited ones read each attribute (the selected agent,
    its reward, flags and info, the agent list) through two ``__getattr__`` levels, which cost
    about a third of a random-policy step."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)  # the wrapper's own error or warning


def env(
    players: int = 7,
    rules: str | dict[str, Any] | Rules = "official",
    render_mode: str | None = None,
    **kwargs: Any,
) -> AECEnv[str, dict[str, np.ndarray], int]:
    """The environment inside PettingZoo's call-order check (an ``OrderEnforcingWrapper``).

    No ``AssertOutOfBoundsWrapper``: ``step`` already refuses any index outside the mask.
    """
    return _OrderEnforcing(raw_env(players, rules, render_mode, **kwargs))
