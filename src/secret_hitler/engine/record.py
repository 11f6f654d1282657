"""Game records (RECORD-FORMAT.md): read, write and replay them.

Reading checks every field and names the first bad one in an ``InvalidRecord``; replaying stops at
the first illegal action and reports it, like ``secret-hitler replay``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import Action
from .categories import CATEGORIES, CHAT_MODES, ON_TIMEOUT_MODES
from .errors import GameError, IllegalAction, InvalidAction, InvalidRecord, InvalidSettings, brief
from .game import Game
from .settings import MAX_PLAYERS, MIN_PLAYERS, Rules
from .settings import RECORD_FORMAT as FORMAT
from .settings import RECORD_VERSION as VERSION


@dataclass(slots=True)
class ParsedRecord:
    rules: Rules
    players: int | list[str]
    roles: list[str] | None
    first_president: int | None
    deck: list[str] | None
    reshuffles: list[list[str]] | None
    seed: int | None
    actions: list[Action]
    result: dict[str, Any] | None
    talk: list[dict[str, Any]] | None = None  # the optional talk section, checked (``parse_talk``)
    table: dict[str, Any] | None = None  # the optional table section, checked (``parse_table``)


def parse_record(record: Any) -> ParsedRecord:
    """Check a record's shape and turn it into typed values (actions are not yet applied)."""
    if not isinstance(record, dict):
        raise InvalidRecord("record: must be a JSON object")
    if record.get("format", FORMAT) != FORMAT:
        raise InvalidRecord(f"format: must be {FORMAT!r}")
    if record.get("version", VERSION) != VERSION:
        raise InvalidRecord(f"version: only version {VERSION} is supported")
    try:
        rules = Rules.from_json(record.get("rules", "official"))
    except InvalidSettings as exc:
        raise InvalidRecord(_settings_message(exc)) from None
    players = record.get("players")
    if isinstance(players, list):
        if not all(isinstance(p, str) for p in players):
            raise InvalidRecord("players: a list of players must hold display names (strings)")
        count = len(players)
    elif isinstance(players, int) and not isinstance(players, bool):
        count = players
    else:
        raise InvalidRecord(
            f"players: must be a count ({MIN_PLAYERS}-{MAX_PLAYERS}) or a list of names"
        )
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise InvalidRecord(f"players: must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {brief(count)}")
    seed = record.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise InvalidRecord("seed: must be an integer")
    first = record.get("first_president")
    if first is not None and (not isinstance(first, int) or isinstance(first, bool)):
        raise InvalidRecord("first_president: must be a seat number")
    reshuffles = record.get("reshuffles")
    if reshuffles is not None and not isinstance(reshuffles, list):
        raise InvalidRecord("reshuffles: must be a list of piles")
    raw_actions = record.get("actions", [])
    if not isinstance(raw_actions, list):
        raise InvalidRecord("actions: must be a list")
    parsed_actions = []
    for i, a in enumerate(raw_actions):
        try:
            parsed_actions.append(Action.from_json(a))
        except InvalidAction as exc:
            raise InvalidRecord(f"actions[{i}]: {exc.message}") from None
    result = record.get("result")
    if result is not None:
        if not isinstance(result, dict) or result.get("winner") not in ("liberal", "fascist", None):
            raise InvalidRecord('result: must be {"winner": "liberal"|"fascist", "reason": ...}')
        winners = result.get("winners")
        if winners is not None and not (
            isinstance(winners, list)
            and all(type(s) is int and 0 <= s < count for s in winners)
            and len(set(winners)) == len(winners)
        ):
            raise InvalidRecord(
                f"result.winners: must be a list of distinct seats (0 to {count - 1})"
            )
    talk = record.get("talk")
    if talk is not None:
        talk = parse_talk(talk, count, len(parsed_actions))
    table = record.get("table")
    if table is not None:
        table = parse_table(table, count)
    return ParsedRecord(
        rules=rules,
        players=players,
        roles=record.get("roles"),
        first_president=first,
        deck=record.get("deck"),
        reshuffles=reshuffles,
        seed=seed,
        actions=parsed_actions,
        result=result,
        talk=talk,
        table=table,
    )


#: The fields of a talk entry (docs/engine.md, "Talk"); a line is ``line`` or ``text``.
TALK_FIELDS = frozenset({"after", "seat", "name", "line", "text"})
TALK_TEXT_MAX = 2000  # characters of a free-text line (the server's chat lines are far shorter)


def parse_talk(talk: Any, players: int, actions: int) -> list[dict[str, Any]]:
    """Check a record's ``talk`` section: a list of entries, each said ``after`` that many
    actions (0 to ``actions``, in order), by ``seat`` (a seat, or null for a person without
    one, then named by ``name``), holding a structured ``line`` (a JSON object, read by
    ``secret_hitler.talk.line_from_json``) or a free ``text``. The engine checks this envelope
    only: the talk never changes what a replay computes."""
    if not isinstance(talk, list):
        raise InvalidRecord("talk: must be a list of lines")
    last = 0
    for i, entry in enumerate(talk):
        where = f"talk[{i}]"
        if not isinstance(entry, dict):
            raise InvalidRecord(f"{where}: must be a JSON object")
        unknown = sorted(set(entry) - TALK_FIELDS, key=str)
        if unknown:
            raise InvalidRecord(f"{where}: no field {brief(unknown[0])}")
        after = entry.get("after")
        if not isinstance(after, int) or isinstance(after, bool) or not 0 <= after <= actions:
            raise InvalidRecord(f"{where}.after: must be a count of actions, 0 to {actions}")
        if after < last:
            raise InvalidRecord(f"{where}.after: lines are kept in the order they were said")
        last = after
        seat = entry.get("seat")
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players
        ):
            raise InvalidRecord(f"{where}.seat: must be a seat (0 to {players - 1}) or null")
        name = entry.get("name")
        if name is not None and not isinstance(name, str):
            raise InvalidRecord(f"{where}.name: must be a string")
        if seat is None and name is None:
            raise InvalidRecord(f"{where}: a line by no seat needs the speaker's name")
        line, text = entry.get("line"), entry.get("text")
        if (line is None) == (text is None):
            raise InvalidRecord(f"{where}: holds exactly one of a structured line and a text")
        if line is not None and not (isinstance(line, dict) and isinstance(line.get("kind"), str)):
            raise InvalidRecord(f"{where}.line: must be a talk line (an object with its kind)")
        if text is not None and (not isinstance(text, str) or len(text) > TALK_TEXT_MAX):
            raise InvalidRecord(f"{where}.text: must be a string of at most {TALK_TEXT_MAX}")
    return talk


#: The fields of a record's table section (docs/engine.md "Table settings").
TABLE_FIELDS = frozenset({"chat", "blind", "aliases", "turn_timer", "on_timeout", "category"})
ALIAS_MAX = 40  # characters of a blind table's alias
#: The longest turn timer a table may have (seconds): a play-by-post table decides over days.
TURN_TIMER_MAX = 7 * 24 * 3600


def parse_table(table: Any, players: int) -> dict[str, Any]:
    """Check a record's ``table`` section, the table's settings that change no rule (each
    optional): ``chat`` (free, emotes, silent), ``blind`` (bool), ``aliases`` (a blind table's
    name for each seat), ``turn_timer`` (seconds, or null), ``on_timeout`` (who moved when it ran
    out: standin, random), ``category`` (rated, practice, casual, custom: engine/categories.py).
    Replay never reads it."""
    if not isinstance(table, dict):
        raise InvalidRecord("table: must be a JSON object")
    unknown = sorted(set(table) - TABLE_FIELDS, key=str)
    if unknown:
        raise InvalidRecord(f"table: no field {brief(unknown[0])}")
    if "chat" in table and table["chat"] not in CHAT_MODES:
        raise InvalidRecord(f"table.chat: must be one of {', '.join(CHAT_MODES)}")
    if "blind" in table and not isinstance(table["blind"], bool):
        raise InvalidRecord("table.blind: must be true or false")
    aliases = table.get("aliases")
    if aliases is not None and not (
        isinstance(aliases, list)
        and len(aliases) == players
        and all(isinstance(a, str) and 0 < len(a) <= ALIAS_MAX for a in aliases)
    ):
        raise InvalidRecord(
            f"table.aliases: must be a name for each of the {players} seats "
            f"(1 to {ALIAS_MAX} characters)"
        )
    timer = table.get("turn_timer")
    if timer is not None and (
        isinstance(timer, bool)
        or not isinstance(timer, (int, float))
        or not 0 < timer <= TURN_TIMER_MAX
    ):
        raise InvalidRecord(
            f"table.turn_timer: must be null or seconds (more than 0, at most {TURN_TIMER_MAX})"
        )
    if "on_timeout" in table and table["on_timeout"] not in ON_TIMEOUT_MODES:
        raise InvalidRecord(f"table.on_timeout: must be one of {', '.join(ON_TIMEOUT_MODES)}")
    if "category" in table and table["category"] not in CATEGORIES:
        raise InvalidRecord(f"table.category: must be one of {', '.join(CATEGORIES)}")
    return table


def new_game(parsed: ParsedRecord) -> Game:
    try:
        return Game(
            parsed.players,
            parsed.rules,
            parsed.seed,
            roles=parsed.roles,
            first_president=parsed.first_president,
            deck=parsed.deck,
            reshuffles=parsed.reshuffles,
        )
    except InvalidSettings as exc:
        raise InvalidRecord(_settings_message(exc)) from None


def _settings_message(exc: InvalidSettings) -> str:
    """Name the record field: ``rules`` (or ``players``) and then the setting."""
    msg = exc.message
    return msg if msg.startswith(("rules:", "players:")) else f"rules: {msg}"


def game_from_record(record: Any, apply_actions: bool = True) -> Game:
    """Build the game a record describes; with ``apply_actions`` replay all its actions too."""
    parsed = parse_record(record)
    game = new_game(parsed)
    if apply_actions:
        for i, action in enumerate(parsed.actions):
            try:
                game.apply(action)
            except IllegalAction as exc:
                raise IllegalAction(f"actions[{i}]: {exc.message}", exc.code) from None
    return game


def game_to_record(game: Game) -> dict[str, Any]:
    """``game.to_record()``: the record that replays to this exact state."""
    return game.to_record()


@dataclass(slots=True)
class ReplayResult:
    """The outcome of replaying one record, as ``secret-hitler replay --json`` prints it."""

    game: Game | None
    applied: int
    error: dict[str, Any] | None

    @property
    def ok(self) -> bool:
        return self.error is None


def replay(record: Any) -> ReplayResult:
    """Replay a record up to its first illegal action; check its expected result.

    Raises ``InvalidRecord`` when the record itself is malformed.
    """
    parsed = parse_record(record)
    game = new_game(parsed)
    applied = 0
    for i, action in enumerate(parsed.actions):
        try:
            game.apply(action)
        except InvalidRecord:
            raise  # e.g. a reshuffle that does not hold the right policies: a bad file
        except GameError as exc:
            return ReplayResult(
                game, applied, {"index": i, "code": exc.code, "message": exc.message}
            )
        applied += 1
    expected = parsed.result
    if expected is not None:
        winner = game.winner.value if game.winner else None
        reason = game.reason.value if game.reason else None
        want_reason = expected.get("reason")
        want_winners = expected.get("winners")
        winners = game.winners
        if (
            winner != expected.get("winner")
            or (want_reason is not None and reason != want_reason)
            or (want_winners is not None and sorted(want_winners) != list(winners or ()))
        ):
            return ReplayResult(
                game,
                applied,
                {
                    "index": len(parsed.actions),
                    "code": "result_mismatch",
                    "message": f"the record expects {expected.get('winner')} ({want_reason})"
                    + (f" won by seats {sorted(want_winners)}" if want_winners is not None else "")
                    + f", the replay ends with {winner} ({reason})"
                    + (f" won by seats {list(winners or ())}" if want_winners is not None else ""),
                },
            )
    return ReplayResult(game, applied, None)


def replay_summary(game: Game) -> dict[str, Any]:
    """The state fields of the replay command's JSON line: with ``winners`` (the seats that
    won: the Monarchist wins his own way) and Avalon SH's ``assassination``."""
    nxt = None
    if not game.finished:
        nxt = {"phase": game.phase.value, "seats": game.to_act()}
    winners = game.winners
    assassination = game.assassination
    return {
        "finished": game.finished,
        "winner": game.winner.value if game.winner else None,
        "reason": game.reason.value if game.reason else None,
        "winners": None if winners is None else list(winners),
        "assassination": None if assassination is None else dict(assassination),
        "liberal_policies": game.liberal,
        "fascist_policies": game.fascist,
        "election_tracker": game.tracker,
        "draw_pile": game.draw_pile,
        "discard_pile": game.discard_pile,
        "alive": list(game.alive),
        "president": game.president,
        "chancellor": game.chancellor,
        "next": nxt,
    }
