"""Rule settings (RULES.md section 3) and the presets that reproduce each seed's rules.

A ``Rules`` value is the complete, resolved description of a game's rules. ``Rules.from_json``
accepts a preset name or ``{"preset": NAME, ...overrides}`` exactly as records store them.

secrethitler.io's game types (docs/game-types.md) are four more settings, each off by default so
that every preset and record plays as before: ``avalon`` (Merlin, and with ``"percival"``
Percival and Morgana, with an assassination at the end), ``monarchist``, ``rebalanced`` (the
site's 6-, 7- and 9-player decks and tracks) and ``top_decking``. ``composition(players)`` says
which role cards a table deals, ``deck_for``/``start_track_for`` the deck and tracks it plays.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal, get_args

from .errors import InvalidSettings, brief
from .types import Power, Role

#: The record format's name and version (RECORD-FORMAT.md): written by ``Game.to_record``, read
#: by ``record.parse_record``.
RECORD_FORMAT = "secret-hitler-record"
RECORD_VERSION = 1

#: The table sizes the rules are written for (RULES.md), said once: every other place that
#: checks a player count or sizes something by the largest table reads these.
MIN_PLAYERS = 5
MAX_PLAYERS = 10
PLAYER_COUNTS = range(MIN_PLAYERS, MAX_PLAYERS + 1)

#: L4/W1: the policies on its track that win the game for each party.
LIBERAL_TRACK = 5
FASCIST_TRACK = 6
#: E7/C1: the inactive governments in a row that bring chaos (the election tracker's last step).
CHAOS_AT = 3

#: S2: Fascists besides Hitler, by player count.
FASCISTS_BY_COUNT = {5: 1, 6: 1, 7: 2, 8: 2, 9: 3, 10: 3}

_I, _S, _P, _E = Power.INVESTIGATE, Power.SPECIAL_ELECTION, Power.PEEK, Power.EXECUTE
#: The official boards, slot 1 to 5 (slot 6 wins).
OFFICIAL_BOARDS: dict[str, tuple[Power | None, ...]] = {
    "5-6": (None, None, _P, _E, _E),
    "7-8": (None, _I, _S, _E, _E),
    "9-10": (_I, _I, _S, _E, _E),
}

# The named switches: their type is the list of their values.
TermLimits = Literal["last_elected", "last_enacted", "previous_round"]
SmallTable = Literal["living", "started", "none"]
FirstPresident = Literal["random", "first_seat"]
Voting = Literal["secret", "public_sequential"]
PowerTiming = Literal["immediate", "next_president"]
TERM_LIMITS: tuple[str, ...] = get_args(TermLimits)
SMALL_TABLE: tuple[str, ...] = get_args(SmallTable)
FIRST_PRESIDENT: tuple[str, ...] = get_args(FirstPresident)
VOTING: tuple[str, ...] = get_args(Voting)
POWER_TIMING: tuple[str, ...] = get_args(PowerTiming)
Avalon = Literal["off", "merlin", "percival"]
TopDecking = Literal["allowed", "forbidden", "not_twice"]
AVALON: tuple[str, ...] = get_args(Avalon)
TOP_DECKING: tuple[str, ...] = get_args(TopDecking)

#: secrethitler.io's rebalanced tables (``rebalanced``), by player count: the deck and the start
#: of the tracks that count plays instead (``start-game.js@f688831:29,35,41``; the site's pile is
#: its deck less the track, docs/game-types.md "Rebalanced 6-, 7- and 9-player tables").
REBALANCED: dict[int, tuple[tuple[int, int], tuple[int, int]]] = {
    6: ((6, 10), (0, 1)),
    7: ((6, 10), (0, 0)),
    9: ((6, 10), (0, 0)),
}
#: The settings a rebalanced table plays at their official values (the site ignores the
#: rebalance in a custom game; we refuse the combination).
REBALANCE_NEEDS_OFFICIAL = (
    "powers",
    "hitler_zone",
    "veto_zone",
    "fascists",
    "hitler_knows_fascists",
    "deck",
    "start_track",
)

_POWER_NAMES = {p.value: p for p in Power}
# Aliases used by secrethitler.io's custom game settings.
_POWER_ALIASES = {"election": _S, "deckpeek": _P, "bullet": _E, "peek": _P}


def official_board(players: int) -> tuple[Power | None, ...]:
    if players <= 6:
        return OFFICIAL_BOARDS["5-6"]
    if players <= 8:
        return OFFICIAL_BOARDS["7-8"]
    return OFFICIAL_BOARDS["9-10"]


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule switch. ``None`` for ``powers``/``fascists`` means "by player count"."""

    preset: str = "official"
    powers: tuple[Power | None, ...] | None = None
    hitler_zone: int = 3
    veto_zone: int = 5
    fascists: int | None = None
    hitler_knows_fascists: bool | None = None  # None = auto (true with 5-6 players)
    deck: tuple[int, int] = (6, 11)  # (liberal, fascist)
    start_track: tuple[int, int] = (0, 0)  # (liberal, fascist)
    # Named switches (official values by default).
    tracker_resets_on_election: bool = False
    term_limits: TermLimits = "last_elected"
    small_table_exception: SmallTable = "living"
    first_president: FirstPresident = "random"
    voting: Voting = "secret"
    power_timing: PowerTiming = "immediate"
    veto_limit: int | None = None  # how many vetoes per game; None = unlimited
    chaos_power: bool = False  # the chaos policy's power is used by the failed candidate
    chaos_clears_term_limits: bool = True
    reveal_executed_role: bool = False
    fascist_may_execute_hitler: bool = True
    veto_after_choice: bool = False  # secrethitler.io: the chancellor picks, then asks for a veto
    # secrethitler.io's game types (docs/game-types.md), all off by default.
    avalon: Avalon = "off"  # "merlin": Avalon SH; "percival": with Percival and Morgana
    monarchist: bool = False  # one fascist card is the Monarchist
    rebalanced: tuple[int, ...] = ()  # the player counts (6, 7, 9) that play REBALANCED
    top_decking: TopDecking = "allowed"  # "forbidden"/"not_twice": chaos by elections loses

    # -- resolution per player count -------------------------------------------------
    def board(self, players: int) -> tuple[Power | None, ...]:
        return self.powers if self.powers is not None else official_board(players)

    def deck_for(self, players: int) -> tuple[int, int]:
        """The initial draw pile (liberal, fascist) of a table of ``players`` seats."""
        if players in self.rebalanced:
            return REBALANCED[players][0]
        return self.deck

    def start_track_for(self, players: int) -> tuple[int, int]:
        """The policies on the tracks (liberal, fascist) when a table of ``players`` starts."""
        if players in self.rebalanced:
            return REBALANCED[players][1]
        return self.start_track

    def composition(self, players: int) -> tuple[tuple[Role, int], ...]:
        """The role cards a table of ``players`` seats deals, as (role, count) in card order:
        Hitler, the fascist cards (Morgana first with Percival, then the Monarchist, then plain
        Fascists: the site's cards 18, 19, 20 cut to the fascists' number), the liberal cards
        (Merlin, Percival, then plain Liberals); roles with no card are left out. Every deal is
        one of these cards to each seat, uniformly (docs/game-types.md "Roles per table")."""
        fascists = self.fascist_count(players)
        specials: list[tuple[Role, int]] = []
        if self.avalon == "percival":
            specials.append((Role.MORGANA, 1))
        if self.monarchist:
            specials.append((Role.MONARCHIST, 1))
        specials = specials[:fascists]
        plain = fascists - len(specials)
        liberal_cards: list[tuple[Role, int]] = []
        if self.avalon != "off":
            liberal_cards.append((Role.MERLIN, 1))
        if self.avalon == "percival":
            liberal_cards.append((Role.PERCIVAL, 1))
        liberals = players - fascists - 1 - len(liberal_cards)
        cards = [(Role.HITLER, 1), *specials, (Role.FASCIST, plain), *liberal_cards]
        cards.append((Role.LIBERAL, liberals))
        return tuple((role, count) for role, count in cards if count > 0)

    def fascist_count(self, players: int) -> int:
        return self.fascists if self.fascists is not None else FASCISTS_BY_COUNT[players]

    def hitler_knows(self, players: int) -> bool:
        if self.hitler_knows_fascists is None:
            return players <= 6
        return self.hitler_knows_fascists

    def validate(self, players: int) -> None:
        """Refuse settings that cannot make a game for ``players`` seats."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise InvalidSettings(
                f"players: must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {brief(players)}"
            )
        fascists = self.fascist_count(players)
        if not 1 <= fascists <= players - 2 or fascists + 1 >= players - fascists:
            raise InvalidSettings(
                f"fascists: {fascists} fascists besides Hitler leave no liberal majority at {players} players"
            )
        if self.avalon == "percival" and self.monarchist and fascists < 2:
            raise InvalidSettings(
                f'monarchist: with avalon "percival" the fascists need two cards besides Hitler '
                f"(Morgana and the Monarchist), and {players} players deal {fascists}; "
                "play it with 7-10 players, or without Percival or the Monarchist"
            )
        for count in self.rebalanced:
            if count not in REBALANCED:
                raise InvalidSettings(
                    f"rebalanced: secrethitler.io rebalances 6, 7 and 9 players, not {brief(count)}"
                )
        if self.rebalanced:
            changed = [
                name
                for name in REBALANCE_NEEDS_OFFICIAL
                if getattr(self, name) != getattr(_DEFAULTS, name)
            ]
            if changed:
                raise InvalidSettings(
                    "rebalanced: a rebalanced table plays the standard board, roles and deck; "
                    f"it cannot be combined with a changed {', '.join(changed)}"
                )
        board = self.board(players)
        executions = sum(1 for p in board if p is Power.EXECUTE)
        if executions > players - 3:
            raise InvalidSettings(
                f"powers: {executions} execute slots would leave fewer than 3 players alive (A12)"
            )
        lib, fas = self.deck_for(players)
        slib, sfas = self.start_track_for(players)
        if slib < 0 or sfas < 0 or slib > 4 or sfas > 5:
            raise InvalidSettings("start_track: needs 0-4 liberal and 0-5 fascist policies")
        if lib < 0 or fas < 0 or lib + fas < 3:
            raise InvalidSettings("deck: needs at least 3 policies and no negative count")
        if lib + fas > 60:
            raise InvalidSettings("deck: at most 60 policies")
        # D1 must always find 3 policies: what can leave circulation is at most the policies
        # enacted before a win (4 liberal and 5 fascist, less the start track).
        enactable = min(lib, 4 - slib) + min(fas, 5 - sfas)
        if lib + fas - enactable < 3:
            raise InvalidSettings(
                f"deck: {lib} liberal and {fas} fascist policies can run out before the game ends; "
                "at least 3 must always remain to draw"
            )
        if not 1 <= self.hitler_zone <= 6:
            raise InvalidSettings("hitler_zone: must be 1 to 6")
        if not 1 <= self.veto_zone <= 6:
            raise InvalidSettings("veto_zone: must be 1 to 6")

    # -- JSON --------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The preset name with only the settings that differ from it."""
        base = PRESETS[self.preset]
        out: dict[str, Any] = {"preset": self.preset}
        for f in fields(self):
            if f.name == "preset":
                continue
            value = getattr(self, f.name)
            if value != getattr(base, f.name):
                out[f.name] = _setting_to_json(f.name, value)
        return out

    def describe(self) -> dict[str, Any]:
        """Every setting as configured, ``null``/``"auto"`` where it depends on the player
        count (for documentation and the lobby)."""
        return {f.name: _setting_to_json(f.name, getattr(self, f.name)) for f in fields(self)}

    def resolved(self, players: int) -> dict[str, Any]:
        """Every setting for a table of ``players`` seats: the board, the fascists and whether
        Hitler knows them resolved for that count (what a view carries as ``rules``, so no
        reader resolves them again)."""
        out = self.describe()
        out["powers"] = _setting_to_json("powers", self.board(players))
        out["fascists"] = self.fascist_count(players)
        out["hitler_knows_fascists"] = self.hitler_knows(players)
        return out

    def table(self, players: int) -> dict[str, Any]:
        """The setup of a table of ``players`` seats under these rules: its parties (``liberals``
        the liberal party, ``fascists`` the fascist party besides Hitler), its role cards
        (``composition``, card order), board, deck and the start of its tracks."""
        fascists = self.fascist_count(players)
        return {
            "liberals": players - fascists - 1,
            "fascists": fascists,
            "hitler": 1,
            "composition": {role.value: count for role, count in self.composition(players)},
            "board": _setting_to_json("powers", self.board(players)),
            "hitler_knows_fascists": self.hitler_knows(players),
            "deck": _setting_to_json("deck", self.deck_for(players)),
            "start_track": _setting_to_json("start_track", self.start_track_for(players)),
        }

    def record_form(self) -> str | dict[str, Any]:
        data = self.to_json()
        return self.preset if len(data) == 1 else data

    @staticmethod
    def from_json(data: Any) -> Rules:
        if data is None:
            return PRESETS["official"]
        if isinstance(data, str):
            if data not in PRESETS:
                raise InvalidSettings(
                    f"rules: unknown preset {brief(data)}; expected one of {', '.join(PRESETS)}"
                )
            return PRESETS[data]
        if not isinstance(data, dict):
            raise InvalidSettings("rules: must be a preset name or an object")
        preset = data.get("preset", "official")
        base = Rules.from_json(preset)
        changes: dict[str, Any] = {}
        known = {f.name for f in fields(Rules)} - {"preset"}
        for key, value in data.items():
            if key == "preset":
                continue
            if key not in known:
                raise InvalidSettings(
                    f"{str(key)[:40]}: unknown setting; known settings: {', '.join(sorted(known))}"
                )
            changes[key] = _setting_from_json(key, value)
        return replace(base, **changes)


def _setting_to_json(name: str, value: Any) -> Any:
    if name == "powers":
        return None if value is None else [None if p is None else p.value for p in value]
    if name == "deck" or name == "start_track":
        return {"liberal": value[0], "fascist": value[1]}
    if name == "hitler_knows_fascists":
        return "auto" if value is None else value
    if name == "rebalanced":
        return list(value)
    return value


def _setting_from_json(name: str, value: Any) -> Any:
    def need(cond: bool, what: str) -> None:
        if not cond:
            raise InvalidSettings(f"{name}: {what}, got {brief(value)}")

    if name == "powers":
        if value is None:
            return None
        need(isinstance(value, list) and len(value) == 5, "must be a list of 5 slots")
        out: list[Power | None] = []
        for slot in value:
            if slot is None:
                out.append(None)
                continue
            power = _POWER_NAMES.get(slot) or _POWER_ALIASES.get(slot)
            need(
                power is not None,
                "each slot must be null, investigate, special_election, peek or execute",
            )
            out.append(power)
        return tuple(out)
    if name in ("deck", "start_track"):
        need(
            isinstance(value, dict)
            and set(value) <= {"liberal", "fascist"}
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value.values()),
            'must be an object {"liberal": N, "fascist": N}',
        )
        default = (6, 11) if name == "deck" else (0, 0)
        return (value.get("liberal", default[0]), value.get("fascist", default[1]))
    if name == "hitler_knows_fascists":
        need(value in ("auto", True, False, None), 'must be true, false or "auto"')
        return None if value in ("auto", None) else bool(value)
    if name in ("hitler_zone", "veto_zone"):
        need(isinstance(value, int) and not isinstance(value, bool), "must be an integer")
        return value
    if name == "fascists":
        need(
            value is None or (isinstance(value, int) and not isinstance(value, bool)),
            "must be an integer",
        )
        return value
    if name == "veto_limit":
        need(
            value is None
            or (isinstance(value, int) and not isinstance(value, bool) and value >= 0),
            "must be null or a count",
        )
        return value
    if name == "rebalanced":
        need(
            isinstance(value, list)
            and len(value) <= len(REBALANCED)
            and all(type(v) is int and v in REBALANCED for v in value),
            "must be a list of the player counts 6, 7 and 9 (any of them)",
        )
        return tuple(sorted(set(value)))
    choices = {
        "term_limits": TERM_LIMITS,
        "small_table_exception": SMALL_TABLE,
        "first_president": FIRST_PRESIDENT,
        "voting": VOTING,
        "power_timing": POWER_TIMING,
        "avalon": AVALON,
        "top_decking": TOP_DECKING,
    }
    if name in choices:
        need(value in choices[name], f"must be one of {', '.join(choices[name])}")
        return value
    need(isinstance(value, bool), "must be true or false")
    return value


_OFFICIAL = _DEFAULTS = Rules()
PRESETS: dict[str, Rules] = {
    "official": _OFFICIAL,
    "secrethitler-io": replace(
        _OFFICIAL,
        preset="secrethitler-io",
        fascist_may_execute_hitler=False,
        veto_after_choice=True,
    ),
    "kickstarter": replace(_OFFICIAL, preset="kickstarter", tracker_resets_on_election=True),
    "tabletop-tw": replace(
        _OFFICIAL,
        preset="tabletop-tw",
        term_limits="last_enacted",
        small_table_exception="started",
        tracker_resets_on_election=True,
    ),
    "forum": replace(
        _OFFICIAL,
        preset="forum",
        first_president="first_seat",
        term_limits="previous_round",
        small_table_exception="none",
        voting="public_sequential",
        powers=(None, _I, _S, _E, _E),
        power_timing="next_president",
        veto_limit=1,
    ),
    "summary-zh": replace(
        _OFFICIAL,
        preset="summary-zh",
        hitler_knows_fascists=False,
        term_limits="previous_round",
        small_table_exception="none",
        tracker_resets_on_election=True,
        chaos_power=True,
        chaos_clears_term_limits=False,
        powers=(_I, _S, _P, _E, None),
        reveal_executed_role=True,
    ),
}
