"""The agent interface shared by the simulator, the server's bot seats and external programs.

An agent is created for one seat of one game and then asked, again and again, for a decision:
it receives that seat's ``View`` (never the game itself) and the seat's legal actions, and returns
one of them. Keeping the agent away from the ``Game`` object is what guarantees that a bot cannot
see anything outside its view.

Claim protocol. Claims (``Action`` of type ``claim``: the president's 3 drawn policies, the
chancellor's 2 received policies, a peek, an investigation result) are optional statements
that may be true or false (RULES.md A9). They are never a seat's turn, so a caller does not
mix them into ``act``: after every applied action it asks each seat that has claim actions
among its legal actions ``claims(view, options)``, where ``options`` are exactly those claim
actions; the agent returns the claims it makes now (possibly none, at most one per subject).
A seat that declines is asked again after the next applied action, until the window closes
when the next legislative session begins, so a chancellor can wait for the president's claim. The default is to
claim nothing. ``act`` may still receive claim actions from a caller that passes the full legal
list (the server); an agent may ignore them and pick its turn action.

Talk protocol. A host that lets bots talk (the simulator with talk on; a server table with
talk on) asks each seat, after every applied action that does not leave a vote open and after
the claims, ``speak(view)``: the talk lines (``secret_hitler.talk`` ``Line`` values) it says
now, at most ``SPEECH_MAX`` a call (a level keeps its own rate a round, ``bots.voice``). Each
line said at the table (a seat's, or a person's: a structured line or a free text, as a
``talk.said.Said`` entry) is delivered to every other seat that listens with
``listen(view, said)``, the listener's view at that moment. The order of these asks, for the
claims and the talk alike, is one loop every host runs (``bots/table_talk.py``). Claims said in
the chat are read by the listener as claims (docs/bots.md, "Talk"); a claim a person confirms
becomes an engine claim action as any other. By default an agent says nothing and hears
nothing, and a host that does not ask plays exactly the games it played before talk existed.

The contract is kept in one place, for every caller (the simulator, the search's rollouts, the
server's bot seats): ``decide`` asks for a turn and checks the answer is one of the actions
offered; ``ask_claims`` asks for claims and reads what ``claims`` returned (nothing, one action
or several) the one way; ``makes_claims`` tells whether an agent ever claims; ``ask_speech``
and ``tell`` are the talk protocol's two calls (``speaks``/``listens``: whether an agent does);
``play_out`` drives a game to its end with one agent per seat (and its talk, with a
``TableTalk``). An answer outside the offer raises ``AgentError`` and changes nothing: the
simulator stops on it, a bug to see; a live table's bots are supervised instead
(``bots/supervised.py``: the fallback moves).

Async agents. An agent that waits rather than computes (a language model's seat waits for its
endpoint) may also define ``act_async`` and ``claims_async``, coroutines with the meaning of
``act`` and ``claims``. ``decide_async`` and ``ask_claims_async`` await them (any other agent
answers ``decide``/``ask_claims`` at once) and check the answer as the plain calls do;
``play_out_async`` drives a game like ``play_out`` and asks the seats that act at once
together: every voter of a secret vote, every seat with an open claim window.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import importlib
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, ClassVar

from ..engine import Action, Game, View
from ..engine import actions as A
from ..engine.types import Phase
from ..extras import MissingExtra, installed, require
from ..talk.lines import KINDS, Line
from ..talk.said import Said, judges_speaker
from .table_talk import TableTalk, claim_asks, claim_order


class Agent:
    """Base class: subclasses override ``act`` and, to make claims, ``claims``."""

    name = "base"
    #: False for an agent that decides from its legal actions alone and never reads its view:
    #: it overrides ``choose``, and a caller may call ``choose(legal)`` instead of ``act`` and
    #: build no view at all (the simulator does: a view per decision is most of its cost).
    needs_view: ClassVar[bool] = True

    def __init__(self, seat: int, rng: random.Random | None = None) -> None:
        self.seat = seat
        self.rng = rng if rng is not None else random.Random()

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        """The seat's decision: one of ``legal`` (never empty)."""
        raise NotImplementedError

    def choose(self, legal: Sequence[Action]) -> Action:
        """The decision of an agent with ``needs_view = False``: one of ``legal`` (never empty)."""
        raise NotImplementedError(f"{type(self).__name__} decides from its view: call act")

    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        """Claims to make now, chosen from ``options`` (claim actions only); default: none."""
        return []

    def speak(self, view: View) -> list[Line]:
        """Talk lines to say now (the talk protocol above); default: none."""
        return []

    def listen(self, view: View, said: Sequence[Said]) -> None:
        """Lines said at the table since the last call, by other seats or people, heard with
        this seat's ``view`` of that moment (the talk protocol above); default: not heard."""

    def seated_with(self, people: Sequence[bool]) -> None:
        """Which seats people play (True) and which bots do, told before the first decision by
        a host that knows (the server; a seat's kind is public at the table). A level may read
        people with a model fitted to people's games; by default nothing changes."""

    def people_hold_half(self, people: Sequence[bool]) -> bool:
        """Whether people play at least half of the other seats (for ``seated_with``)."""
        others = [p for s, p in enumerate(people) if s != self.seat]
        return 2 * sum(others) >= len(others) > 0

    def fork(self) -> Agent:
        """An independent copy that goes on from this agent's state, its random source
        included (a search plays each candidate on with copies of the same rollout bots).
        Levels that search reads override it with a cheaper copy than this ``deepcopy``."""
        return copy.deepcopy(self)


class AgentError(RuntimeError):
    """An agent broke the contract: it answered with something it was not offered."""


def decide(agent: Agent, view: View | None, legal: Sequence[Action]) -> Action:
    """The agent's turn, one of ``legal`` (its turn actions, never empty): ``choose(legal)`` for
    an agent with ``needs_view = False`` (``view`` may then be None), else ``act(view, legal)``.
    The action returned is the agent's own answer (equal to an offered one); anything else
    raises ``AgentError``."""
    if view is None or not getattr(agent, "needs_view", True):
        action = agent.choose(legal)
    else:
        action = agent.act(view, legal)
    for offered in legal:  # legal actions are interned: identity first
        if offered is action:
            return action
    return require_offered(action, legal, f"seat {agent.seat}")


def require_offered(action: object, legal: Sequence[Action], who: str) -> Action:
    """``action`` if it equals one of ``legal``, else ``AgentError`` naming ``who``."""
    if isinstance(action, Action) and action in legal:
        return action
    raise AgentError(f"{who} chose {action!r}, which is not among its legal actions")


def makes_claims(agent: object) -> bool:
    """Whether an agent overrides ``claims`` (the base class claims nothing: it need not be
    asked)."""
    return _overrides(agent, "claims")


#: Talk lines one ``speak`` call may return (a level says fewer: ``bots.voice.Style``).
SPEECH_MAX = 4
_LINE_TYPES = tuple(KINDS.values())


def _overrides(agent: object, name: str) -> bool:
    hook = getattr(type(agent), name, None)
    return callable(hook) and hook is not getattr(Agent, name)


def speaks(agent: object) -> bool:
    """Whether an agent overrides ``speak`` (the base class says nothing: it need not be
    asked)."""
    return _overrides(agent, "speak")


def listens(agent: object) -> bool:
    """Whether an agent overrides ``listen`` (the base class hears nothing)."""
    return _overrides(agent, "listen")


def ask_speech(agent: Agent, view: View) -> list[Line]:
    """The lines ``agent`` says now, read once for every host: ``speak`` may return None or a
    sequence of talk lines, at most ``SPEECH_MAX``, each naming only seats at the table;
    anything else raises ``AgentError``. A line that accuses, trusts or names as Hitler the
    speaker itself (``talk.said.judges_speaker``: "I trust Qwen 3" from Qwen 3) says nothing
    and is left out."""
    made = agent.speak(view)
    if made is None:
        return []
    try:
        lines = list(made)
    except TypeError:
        raise AgentError(f"seat {agent.seat} said {made!r}, not a list of talk lines") from None
    if len(lines) > SPEECH_MAX:
        raise AgentError(
            f"seat {agent.seat} said {len(lines)} lines at once (at most {SPEECH_MAX})"
        )
    for line in lines:
        if not isinstance(line, _LINE_TYPES):
            raise AgentError(f"seat {agent.seat} said {line!r}, which is not a talk line")
        if any(s >= view.players for s in line.seats()):
            raise AgentError(f"seat {agent.seat} said {line!r}, naming a seat not at the table")
    return [line for line in lines if not judges_speaker(line, agent.seat)]


def tell(agent: Agent, view: View, said: Sequence[Said]) -> None:
    """Deliver ``said`` (lines by others) to ``agent``, with its view now."""
    if said:
        agent.listen(view, said)


def ask_claims(agent: Agent, view: View, options: Sequence[Action]) -> list[Action]:
    """The claims ``agent`` makes now among ``options`` (its open claim actions), read once for
    every caller: ``claims`` may return None or an empty sequence (no claim), one ``Action``, or
    several; each must be one of ``options`` (``AgentError`` otherwise), and of several on one
    subject only the first counts."""
    return read_claims(agent, agent.claims(view, options), options)


def read_claims(agent: Agent, made: Any, options: Sequence[Action]) -> list[Action]:
    """What ``claims`` (or ``claims_async``) returned, read as ``ask_claims`` says."""
    if made is None:
        return []
    try:
        answer: Sequence[object] = (made,) if isinstance(made, Action) else list(made)
    except TypeError:
        raise AgentError(f"seat {agent.seat} answered {made!r} for its claims") from None
    out: list[Action] = []
    subjects: set[str | None] = set()
    for claim in answer:
        if not isinstance(claim, Action) or claim not in options:
            raise AgentError(f"seat {agent.seat} made the claim {claim!r}, which was not offered")
        if claim.subject not in subjects:
            subjects.add(claim.subject)
            out.append(claim)
    return out


#: How a host runs an agent's plain (computing) call off its event loop: ``offload(fn, *args)``
#: returns an awaitable of ``fn(*args)`` (``asyncio.to_thread``, a thread pool's executor).
Offload = Callable[..., Awaitable[Any]]


async def decide_async(
    agent: Agent, view: View | None, legal: Sequence[Action], offload: Offload | None = None
) -> Action:
    """``decide`` for an agent that may wait: its ``act_async`` is awaited when it has one
    (with a view), else ``decide`` answers (through ``offload`` when given). The answer is
    checked as ``decide`` checks it."""
    hook: Callable[[View, Sequence[Action]], Awaitable[Action]] | None
    hook = getattr(agent, "act_async", None)
    if hook is None or view is None:
        if offload is None:
            return decide(agent, view, legal)
        decided: Action = await offload(decide, agent, view, legal)
        return decided
    action = await hook(view, legal)
    for offered in legal:
        if offered is action:
            return action
    return require_offered(action, legal, f"seat {agent.seat}")


async def ask_claims_async(
    agent: Agent, view: View, options: Sequence[Action], offload: Offload | None = None
) -> list[Action]:
    """``ask_claims`` for an agent that may wait: its ``claims_async`` is awaited when it has
    one, else ``claims`` answers (through ``offload`` when given); read as ``ask_claims``."""
    hook: Callable[[View, Sequence[Action]], Awaitable[object]] | None
    hook = getattr(agent, "claims_async", None)
    if hook is not None:
        made = await hook(view, options)
    elif offload is not None:
        made = await offload(agent.claims, view, options)
    else:
        made = agent.claims(view, options)
    return read_claims(agent, made, options)


def turn_actions(game: Game, seat: int) -> list[Action]:
    """The seat's legal actions less its claims (claims come last, offered apart)."""
    legal = game.legal_actions(seat)
    if legal and legal[-1].type == A.CLAIM:
        legal = [a for a in legal if a.type != A.CLAIM]
    return legal


def play_out(
    game: Game,
    agents: Sequence[Agent],
    names: Sequence[str] | None = None,
    talk: TableTalk | None = None,
) -> tuple[int, int]:
    """Drive ``game`` to its end with one agent per seat; returns (turn actions, claims).

    An agent sees only ``game.view(seat)`` and the actions it may take: its turn actions in
    ``act`` (claims left out), its open claims in ``claims``, after every applied action that
    does not leave a vote open (the claim protocol above). An agent with ``needs_view = False``
    is asked ``choose(legal)`` and no view is made for it. ``names`` label the seats in an
    ``AgentError`` (default: the agents' names). With ``talk``, the table talks after each of
    those actions and its claims (``TableTalk.round``); without, nobody is asked to. Claims and
    talk are asked in the order of ``bots/table_talk.py``, the one a live table follows.
    """
    if len(agents) != game.n:
        raise ValueError(f"need {game.n} agents, got {len(agents)}")
    labels = list(names) if names is not None else [a.name for a in agents]
    seated = strict_talkers(game, agents, labels) if talk is not None else {}
    talkers = [makes_claims(a) for a in agents]  # the others need not be asked
    anyone_talks = any(talkers)
    # Per seat, ``choose`` for an agent that needs no view, else None (``act``, with a view);
    # agents need not subclass ``Agent`` (the analysis tools wrap them). The check of each
    # answer is ``decide``'s, inlined: a call per decision is a fifth of a random game's cost.
    choosers = [None if getattr(a, "needs_view", True) else a.choose for a in agents]
    actors = [a.act for a in agents]
    # ``game.observer.view`` is ``game.view`` without one call per decision; made only if used.
    view = game.observer.view if not all(choosers) else None
    to_act, legal_actions, apply = game.to_act, game.legal_actions, game.apply
    claim, vote = A.CLAIM, Phase.VOTE
    turns = 0
    claims = 0
    while not game.finished:
        # In a vote, everyone who has not voted yet, asked in seat order; else the one actor.
        for seat in to_act():
            legal = legal_actions(seat)
            if legal and legal[-1].type == claim:  # claims come last, offered apart
                legal = [a for a in legal if a.type != claim]
            choose = choosers[seat]
            if choose is not None:
                action = choose(legal)
            else:
                assert view is not None
                action = actors[seat](view(seat), legal)
            for offered in legal:  # legal actions are interned: identity first
                if offered is action:
                    break
            else:
                require_offered(action, legal, _who(labels, seat, game))
            apply(action)
            turns += 1
            if game.phase is not vote:  # the vote is over (or was never open)
                if anyone_talks and game.claimants():
                    claims += _offer_claims(game, agents, labels, talkers)
                if talk is not None and not game.finished:
                    talk.round(game, seated)
                break
    return turns, claims


class _Strict:
    """A seat of ``play_out``'s talk (``table_talk.Talker``): its agent asked through the
    contract, a broken one raising ``AgentError`` that names the seat (the simulator stops)."""

    def __init__(self, agent: Agent, who: Callable[[], str]) -> None:
        self.agent = agent
        self.who = who
        self.speaks = speaks(agent)
        self.listens = listens(agent)

    def speech(self, view: View) -> list[Line]:
        try:
            return ask_speech(self.agent, view)
        except AgentError as exc:
            raise AgentError(f"{self.who()}: {exc}") from None

    def hear(self, view: View, said: Sequence[Said]) -> None:
        tell(self.agent, view, said)


def strict_talkers(
    game: Game, agents: Sequence[Agent], labels: Sequence[str]
) -> dict[int, _Strict]:
    """Every seat of ``play_out`` as a talker that raises on a broken contract."""
    return {
        seat: _Strict(agent, functools.partial(_who, labels, seat, game))
        for seat, agent in enumerate(agents)
    }


def _who(labels: Sequence[str], seat: int, game: Game) -> str:
    return f"bot {labels[seat]!r} at seat {seat} (game seed {game.seed})"


def _offer_claims(
    game: Game, agents: Sequence[Agent], labels: Sequence[str], talkers: Sequence[bool]
) -> int:
    """Ask every seat with an open claim window for its claims until nobody claims more, in
    the order of the claim protocol (``table_talk.claim_asks``); each claim applied at once."""
    asks = claim_asks(game, talkers.__getitem__)
    try:
        seat, options = next(asks)
        while True:
            try:
                chosen = ask_claims(agents[seat], game.view(seat), options)
            except AgentError as exc:
                raise AgentError(f"{_who(labels, seat, game)}: {exc}") from None
            applied = 0
            for claim in chosen:
                if game.is_legal(claim):
                    game.apply(claim)
                    applied += 1
            seat, options = asks.send(applied)
    except StopIteration as done:
        made: int = done.value
        return made


async def play_out_async(
    game: Game,
    agents: Sequence[Agent],
    names: Sequence[str] | None = None,
    offload: Offload | None = None,
) -> tuple[int, int]:
    """``play_out`` (no talk) for agents that may wait (``act_async``, ``claims_async``): the
    seats that act at once are asked together and their answers applied in seat order. In a
    secret vote every voter is asked at once, with its view at the vote's opening (none sees
    another's vote before the tally); a public sequential vote (``voting`` of the rules) asks
    one voter at a time, as ``play_out`` does. Every seat with an open claim window is asked at
    once, and their claims applied the last elected president's first; they are asked again
    while anyone claims. Agents without async hooks answer through ``offload`` when given (so
    a slow bot does not hold up the other seats' requests). Returns (turn actions, claims)."""
    if len(agents) != game.n:
        raise ValueError(f"need {game.n} agents, got {len(agents)}")
    labels = list(names) if names is not None else [a.name for a in agents]
    talkers = [makes_claims(a) for a in agents]
    together = game.rules.voting != "public_sequential"
    turns = claims = 0
    while not game.finished:
        seats = game.to_act()
        if not together:
            seats = seats[:1]
        legal = {s: turn_actions(game, s) for s in seats}

        async def turn(seat: int, offered: list[Action]) -> Action:
            try:
                return await decide_async(agents[seat], game.view(seat), offered, offload)
            except AgentError as exc:
                raise AgentError(f"{_who(labels, seat, game)}: {exc}") from None

        for action in await asyncio.gather(*(turn(s, legal[s]) for s in seats)):
            game.apply(action)
            turns += 1
        if game.phase is not Phase.VOTE and any(talkers) and game.claimants():
            claims += await _offer_claims_async(game, agents, labels, talkers, offload)
    return turns, claims


async def _offer_claims_async(
    game: Game,
    agents: Sequence[Agent],
    labels: Sequence[str],
    talkers: Sequence[bool],
    offload: Offload | None,
) -> int:
    """``_offer_claims`` with every open window asked at once (``play_out_async``)."""
    made = 0
    order = claim_order(game)
    while not game.finished:
        open_seats = set(game.claimants())
        asked = {
            s: [a for a in game.legal_actions(s) if a.type == A.CLAIM]
            for s in order
            if talkers[s] and s in open_seats
        }
        asked = {s: options for s, options in asked.items() if options}

        async def ask(seat: int, options: list[Action]) -> list[Action]:
            try:
                return await ask_claims_async(agents[seat], game.view(seat), options, offload)
            except AgentError as exc:
                raise AgentError(f"{_who(labels, seat, game)}: {exc}") from None

        answers = await asyncio.gather(*(ask(s, options) for s, options in asked.items()))
        progress = False
        for chosen in answers:
            for claim in chosen:
                if game.is_legal(claim):
                    game.apply(claim)
                    made += 1
                    progress = True
        if not progress:
            break
    return made


def twin_rng(rng: random.Random) -> random.Random:
    """A random source that draws what ``rng`` would draw next, independently of it."""
    twin = random.Random.__new__(random.Random)  # not seeded: ``setstate`` sets all of it
    twin.setstate(rng.getstate())
    return twin


AgentFactory = Callable[[int, random.Random], Agent]
_REGISTRY: dict[str, AgentFactory] = {}

# Built-in levels: name -> (module that registers it, extra its module needs or None). Listed
# here so that listing the levels imports nothing and making a rule bot never imports numpy.
_BUILTIN: dict[str, tuple[str, str | None]] = {
    "random": ("random_bot", None),
    "rule": ("rule", None),
    "bayes": ("bayes", "bots"),
    "bayes-human": ("bayes", "bots"),
    "search": ("search", "bots"),
}


#: The built-in levels as players see them, weakest first: engine name -> player-facing level.
#: Engine names stay stable (records, the API, ``--liberals``); the lobby shows the player names
#: (web i18n keys ``bot.level.<engine name>``: "Easy", "Normal", "Hard", "Human-like").
PLAYER_LEVELS: dict[str, str] = {
    "random": "easy",
    "rule": "normal",
    "bayes": "hard",
    "bayes-human": "human-like",
    "search": "expert",
}
#: The level of filled seats and stand-ins: the strongest built-in level that decides within
#: DECISION_BUDGET_MS at 10 players (p99 of ``benchmarks/bot_speed.py``; docs/bots.md).
DECISION_BUDGET_MS = 50.0
STRONGEST_FIRST = ("bayes", "rule", "random")


def default_level() -> str:
    """The strongest level in STRONGEST_FIRST that can be made here (its extra installed)."""
    return next(name for name in STRONGEST_FIRST if bot_problem(name) is None)


#: Other packages add levels with an entry point in this group: ``name = "module:factory"``,
#: where ``factory(seat, rng)`` returns an ``Agent`` (docs/extending.md).
ENTRY_POINT_GROUP = "secret_hitler.bots"


def register(name: str, factory: AgentFactory) -> None:
    _REGISTRY[name] = factory


def _plugins() -> dict[str, Any]:
    """Installed levels from other packages, by name (built-in names cannot be taken)."""
    import importlib.metadata  # only when levels are looked up: it is slow to import

    found = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    return {ep.name: ep for ep in found if ep.name not in _BUILTIN}


def available_bots() -> list[str]:
    """The levels that can be made here: registered ones, built-ins whose extra is installed,
    and levels other packages installed through the ``secret_hitler.bots`` entry point."""
    names = set(_REGISTRY) | set(_plugins())
    names.update(n for n, (_, extra) in _BUILTIN.items() if extra is None or installed(extra))
    return sorted(names)


def bot_problem(name: str) -> str | None:
    """Why ``name`` cannot be made here (unknown, or its extra is missing), or None if it can."""
    if name in _REGISTRY:
        return None
    builtin = _BUILTIN.get(name)
    if builtin is None:
        if name in _plugins():
            return None
        return f"unknown bot {str(name)[:40]!r}; available: {', '.join(available_bots())}"
    extra = builtin[1]
    if extra is not None and not installed(extra):
        return str(MissingExtra(f"bot {name!r}", extra))
    return None


def make_agent(name: str, seat: int, seed: int | None = None) -> Agent:
    """A new agent of the named level for ``seat``.

    Raises ``ValueError`` for an unknown name and ``MissingExtra`` (an ``ImportError``) for a
    built-in level whose extra is not installed.
    """
    return agent_factory(name)(seat, random.Random(seed))


def agent_factory(name: str) -> AgentFactory:
    """The factory ``(seat, rng) -> Agent`` of the named level, looked up once for many agents
    (the simulator makes seven per game); raises as ``make_agent`` does."""
    if name not in _REGISTRY:
        _load_builtin(name)
    return _REGISTRY[name]


def _load_builtin(name: str) -> None:
    """Import the module of one built-in level (lazily: no import cycle with the registry).

    Any import failure other than the level's own missing extra is a bug and propagates.
    """
    builtin = _BUILTIN.get(name)
    if builtin is None:
        plugin = _plugins().get(name)
        if plugin is None:
            raise ValueError(
                f"unknown bot {str(name)[:40]!r}; available: {', '.join(available_bots())}"
            )
        register(name, plugin.load())
        return
    module, extra = builtin
    if extra is not None:
        require(extra, f"bot {name!r}")
    importlib.import_module(f"{__name__.rsplit('.', 1)[0]}.{module}")
    if name not in _REGISTRY:
        raise RuntimeError(f"bot module {module!r} did not register {name!r}")
