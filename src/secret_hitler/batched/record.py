"""Batched games as records (RECORD-FORMAT.md) and records as batched games.

A batched game exports as its fixings (roles, first president, deck, every reshuffle, each pile
whole: ``pile.order`` decides the positions the game never drew as it would have) and the
engine actions its indices stand for (``encoding.ACTIONS``, ``encoding.claim_action``), so
``engine.replay`` plays it without a seed. A parallel step's actions are written one after
another from the candidate's left, the environment's order. The other way, ``from_record`` replays a record in the engine (which checks
it) and takes its fixings from there, so the batched game deals, shuffles and reshuffles as
the record did.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from ..engine import game_from_record
from ..engine.settings import RECORD_FORMAT, RECORD_VERSION
from ..engine.types import PARTY_OF_NAME
from ..env.encoding import (
    ACTIONS,
    INVESTIGATE,
    JA,
    MAX_SEATS,
    NUM_ACTIONS,
    SPECIAL_ROLES,
    assassinate_base,
    claim_action,
    engine_action,
)
from . import pile
from . import state as C

_ROLE_NAMES = ("liberal", "fascist", "hitler")


def _pile(bits: int, size: int) -> list[str]:
    return ["fascist" if (bits >> i) & 1 else "liberal" for i in range(size)]


@partial(jax.jit, static_argnums=0)
def _piles(size: int, seed: Any, counts: Any, fixed: Any, fixed_piles: Any) -> Any:
    """int32[batch, MAX_RESHUFFLES]: every reshuffle's whole pile (a fixed one as given)."""

    def one(seed: Any, counts: Any, fixed: Any, fixed_piles: Any) -> Any:
        counts = counts.astype(jnp.int32)
        r = jnp.arange(C.MAX_RESHUFFLES)
        drawn = jax.vmap(lambda r, c: pile.order(seed, r + 1, c & 255, c >> 8, size))(r, counts)
        return jnp.where(r < fixed, fixed_piles, drawn)

    return jax.vmap(one)(seed, counts, fixed, fixed_piles)


def to_records(
    cfg: C.Config, state: C.State, seats: Any, actions: Any, games: Sequence[int] | None = None
) -> list[dict[str, Any]]:
    """Records of the games of a batched ``state`` (after the last step), given every step's
    acting seats and actions (``[steps, batch]`` arrays; a seat of -1 is a step that game did
    not take, e.g. after its end). For games played with ``step_all``, ``seats`` is ``None``
    and ``actions`` is ``[steps, batch, players]``: each seat's action taken, -1 none."""
    st = {name: np.asarray(v) for name, v in state.fields().items()}
    actions = np.asarray(actions)
    seats = None if seats is None else np.asarray(seats)
    n, deck = cfg.players, cfg.deck_size
    piles = np.asarray(
        _piles(deck, st["seed"], st["reshuffle_counts"], st["fixed"], st["fixed_piles"])
    )
    out = []
    for g in range(actions.shape[1]) if games is None else games:
        reshuffles = int(st["reshuffles"][g])
        sizes = st["reshuffle_counts"][g] & 255
        if seats is None:
            moves = _moves(*_in_turns(actions[:, g], n), cfg.claims)
        else:
            moves = _moves(seats[:, g], actions[:, g], cfg.claims)
        record: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "rules": cfg.rules.record_form(),
            "players": n,
            "roles": _role_names(
                st["roles"][g][:n], st["special"][g][:n] if cfg.special_roles else None
            ),
            "first_president": int(st["first_president"][g]),
            "deck": _pile(int(st["deck"][g]), deck),
            "reshuffles": [_pile(int(piles[g][i]), int(sizes[i])) for i in range(reshuffles)],
            "actions": moves,
        }
        winner = int(st["winner"][g])
        if winner >= 0:
            record["result"] = {
                "winner": C.WINNERS[winner],
                "reason": C.REASONS[int(st["reason"][g])],
            }
        out.append(record)
    return out


def _role_names(roles: Any, special: Any) -> list[str]:
    """The engine's role names of a deal (Avalon SH's special roles where dealt)."""
    names = [_ROLE_NAMES[int(r)] for r in roles]
    if special is not None:
        names = [SPECIAL_ROLES[int(x) - 1] if x else r for r, x in zip(names, special, strict=True)]
    return names


def _in_turns(actions: Any, n: int) -> tuple[list[int], list[int]]:
    """One game's parallel steps (``[steps, players]``) as seats and actions one at a time: in
    each step the seats that acted from the candidate's left (the seat of the last
    nomination), the environment's order of voters."""
    seats_out: list[int] = []
    actions_out: list[int] = []
    candidate = 0
    for row in actions.tolist():
        for s in [(candidate + 1 + k) % n for k in range(n)]:
            a = row[s]
            if a < 0:
                continue
            seats_out.append(s)
            actions_out.append(a)
            if a < JA:
                candidate = s
    return seats_out, actions_out


def _moves(seats: Any, actions: Any, claims: bool = False) -> list[dict[str, Any]]:
    """The engine actions (JSON) of one game's steps; an investigation claim names the seat
    the claimant investigated last (the window it claims about); an index of the game types'
    block is Avalon SH's assassination."""
    out = []
    investigated: dict[int, int] = {}
    for s, a in zip(list(seats), list(actions), strict=True):
        s, a = int(s), int(a)
        if s < 0:
            continue
        if a >= assassinate_base(claims):
            out.append(engine_action(s, a, claims, game_types=True).to_json())
        elif a < NUM_ACTIONS:
            if INVESTIGATE <= a < INVESTIGATE + MAX_SEATS:
                investigated[s] = a - INVESTIGATE
            out.append(ACTIONS[s][a].to_json())
        else:
            out.append(claim_action(s, a, investigated.get(s)).to_json())
    return out


def from_record(cfg: C.Config, record: Any) -> dict[str, Any]:
    """The fixings of a record, as ``Env.init_fixed`` takes them (one game; stack them for a
    batch): the engine replays the record (checking it) and gives its deal, first president,
    deck and the reshuffles its actions met."""
    game = game_from_record(record)
    if game.n != cfg.players or game.rules != cfg.rules:
        raise ValueError("the record's table is not this configuration's")
    fixed = np.zeros(C.MAX_RESHUFFLES, np.int32)
    piles = game.reshuffles[: C.MAX_RESHUFFLES]
    for i, drawn in enumerate(piles):
        fixed[i] = C.pile_bits(drawn)
    roles = np.zeros(C.SEATS, np.int32)
    special = np.zeros(C.SEATS, np.int32)
    for s, role in enumerate(game.roles):
        if role.value in SPECIAL_ROLES:
            special[s] = SPECIAL_ROLES.index(role.value) + 1
        party = PARTY_OF_NAME[role.value]  # a special role's class: its party
        roles[s] = _ROLE_NAMES.index("hitler" if role.value == "hitler" else party)
    fixings: dict[str, Any] = {"special": special} if cfg.special_roles else {}
    return fixings | {
        "roles": roles,
        "first_president": np.int32(game.first_president),
        "deck": np.int32(C.pile_bits(game.initial_deck)),
        "fixed_piles": fixed,
        "fixed": np.int32(len(piles)),
    }
