"""The behaviour models of the role posterior (``beliefs``): every number it weighs actions by.

``Model`` holds how likely each role is to act in each way; ``TalkModel`` how each role talks
about each role. The fitted ones are read from ``bots/data/*.json``, each written by the fit
script its ``command`` names (docs/bots.md, "Fitted numbers"): ``BOT_MODEL`` (the bots),
``EYE_MODEL`` (the fascists' "liberal eye"), ``SEARCH_MODEL`` (the ``search`` liberals),
``HUMAN_MODEL`` (people) and ``TALK_MODEL``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..engine.types import PARTY_OF, Party, Role

#: A role as an index (the entries of the worlds matrix, ``likelihood.worlds_matrix``).
LIB, FAS, HIT = 0, 1, 2
ROLE_NAMES = ("liberal", "fascist", "hitler")
#: Every role's index in the worlds: the worlds are team-level (who is Hitler, who else is of
#: the fascist party), so secrethitler.io's roles read as their party (the engine's
#: ``PARTY_OF``): Merlin and Percival liberal, Morgana and the Monarchist fascist. What tells
#: them apart (Merlin's sight, Percival's pair, which liberal is Merlin) is read from the view
#: by ``beliefs.Beliefs`` (docs/bots.md, "Game types").
ROLE_INDEX = {
    r.value: HIT if r is Role.HITLER else LIB if PARTY_OF[r] is Party.LIBERAL else FAS for r in Role
}


#: The behaviour likelihood terms, each weighable on its own (``Model.weights``).
TERMS = (
    "votes",
    "liberal_votes",
    "candidate_votes",
    "session",
    "nominate",
    "claim",
    "execute",
    "investigate",
    "special",
)


@dataclass(frozen=True, slots=True)
class Model:
    """Behaviour model: how likely each role is to act in each way. All numbers live here.

    Index order for 3-tuples is (liberal, fascist, Hitler). The values are rough priors fitted by
    eye to secrethitler.io games and to our own bots; none is ever 0 or 1 so that a surprising
    action lowers a world's weight instead of deleting it (only hard evidence deletes worlds).
    """

    eps: float = 0.03  # a liberal's mistake (bad discard, wrong claim): rare but not impossible
    # P(vote ja) for a voter outside the government. Liberals (and Hitler at 7+, who knows nobody)
    # vote from public information, which does not depend on the hidden roles: a constant.
    ja_uninformed: float = 0.6
    ja_fascist_team_gov: float = 0.88  # a fascist backs a government holding a teammate
    ja_fascist_clean_gov: float = 0.45  # ...and is lukewarm on a liberal-liberal one
    ja_fascist_hitler_zone: float = 0.97  # ...and all-in on Hitler as chancellor in the zone
    # Nomination weights of a fascist president, by the nominee's role: teammates are favoured,
    # Hitler much more in the Hitler zone (that is how the fascists win).
    nominate_fascist: tuple[float, float, float] = (1.0, 1.6, 1.6)
    nominate_fascist_zone: tuple[float, float, float] = (1.0, 1.5, 4.0)
    # P(a president discards a liberal from a mixed hand), by (president, chancellor) role. A
    # fascist president usually does it, more surely with a teammate as chancellor.
    bad_pass: tuple[tuple[float, float, float], ...] = (
        (0.03, 0.03, 0.03),
        (0.55, 0.85, 0.85),
        (0.30, 0.50, 0.50),  # Hitler plays liberal to earn trust
    )
    # P(a chancellor enacts fascist from a mixed pair), by (chancellor, president) role.
    bad_enact: tuple[tuple[float, float, float], ...] = (
        (0.03, 0.03, 0.03),
        (0.60, 0.85, 0.85),
        (0.35, 0.50, 0.50),
    )
    # Claims: liberals tell the truth; a fascist gives the "cover" story that makes his own
    # play look liberal with cover_lie, the truth with cover_truth, anything else otherwise.
    cover_lie: float = 0.7
    cover_truth: float = 0.25
    # The same for a chancellor's claim (None: as the president's).
    cover_lie_chancellor: float | None = None
    cover_truth_chancellor: float | None = None
    hitler_lies: float = 0.4  # Hitler's claims: this mix of the fascist model, rest liberal
    # Veto: a liberal chancellor proposes on two fascists; fascists rarely veto.
    veto_liberal_ff: float = 0.9
    veto_other: float = 0.05
    veto_accept_liberal_ff: float = 0.9  # a liberal president accepts when he passed FF
    veto_accept_other: float = 0.15
    # Execution weights of a fascist president by target role: teammates almost never.
    execute_fascist: tuple[float, float, float] = (1.0, 0.08, 0.03)
    # Investigation claims by a fascist investigator: frame a liberal sometimes, always clear
    # a teammate.
    frame_liberal: float = 0.35
    clear_teammate: float = 0.9
    hitler_truthful_investigation: float = 0.9
    # Special election: a fascist president favours a teammate.
    special_fascist: tuple[float, float, float] = (1.0, 2.0, 2.0)
    # Weight of a public peek claim as the next draw (the peeker may lie).
    peek_claim_trust: float = 0.6
    deck_floor: float = 0.02  # deck estimates can be off (lies): never rule a draw out entirely
    # A full vote table P(ja)[zone][voter role][president party][chancellor role] replaces the
    # simple vote numbers above when given (fitted to people, whose liberals vote on hunches
    # and chat the log does not show, so their votes carry some signal about the government).
    vote_table: tuple[Any, ...] | None = None
    # With ``vote_relative`` the table is read as "how each role votes next to a liberal": a
    # liberal's vote counts as uninformative (``ja_uninformed``: liberals vote on the public
    # record, which the posterior has already read, so counting it again would be
    # overconfident), and a fascist's or Hitler's vote is weighed by the ratio of his rate to
    # the liberal rate of the same cell. A third table entry, when present, replaces the other
    # two once 4 liberal policies are down (fascists then refuse any non-team government).
    vote_relative: bool = False
    # P(a president discards a liberal) by (president, chancellor) role and hand: (FFL, FLL).
    # When given, it replaces ``bad_pass`` (a fascist forces FF from FFL, but passes LL from FLL).
    bad_pass_hand: tuple[Any, ...] | None = None
    # Every behaviour log-likelihood is multiplied by this (hard evidence is not): < 1 widens a
    # posterior that treats correlated evidence (votes and claims read off the same public
    # record) as independent. Fitted by log-loss on bot games (``fit_bot_model.py --temper``).
    temper: float = 1.0
    # Terms fitted to people (None: off, as for the bots). Choice weights by the chooser's role
    # for *every* president, not only an informed fascist: people's liberals and blind Hitler
    # act on hunches and table talk the log lacks, so their picks carry signal too.
    # nominate_by_role[zone][president role][nominee role]; execute_by_role and
    # investigate_by_role [president role][target role].
    nominate_by_role: tuple[Any, ...] | None = None
    execute_by_role: tuple[Any, ...] | None = None
    investigate_by_role: tuple[Any, ...] | None = None
    # The candidates' own votes: P(ja)[phase][office (president 0, chancellor 1)][own role]
    # [partner role] (phases as ``vote_table``); a candidate voting down his own government is
    # a vote of no confidence in his partner.
    candidate_vote: tuple[Any, ...] | None = None
    # Per-term weights replacing ``temper`` for the named terms (``TERMS``): fitted jointly by
    # maximum likelihood of the true world (``fit_human_model.py``).
    weights: tuple[tuple[str, float], ...] | None = None
    # ``temper`` at other table sizes, (players, temper) pairs: a model fitted at 7 players is
    # overconfident elsewhere (``fit_bot_model.py --tempers`` scans each size on its own games).
    temper_by_players: tuple[tuple[int, float], ...] | None = None
    # A liberal's hand claims are false this often (``eps`` when None): people's liberals
    # misremember or bait in 7% of their claims, far more than the bots' never.
    eps_claim: float | None = None
    # With ``vote_relative``, also read a liberal voter's vote as the table's absolute liberal
    # rate against ``ja_uninformed`` (the "liberal_votes" term, weighed on its own): people's
    # liberals vote down governments they suspect on hunches the log does not show.
    liberal_votes: bool = False
    # Avalon SH (docs/bots.md, "Game types"). Merlin acts on his sight in this share of his
    # decisions (votes, nominations, powers) and as a plain liberal in the rest; in the Hitler
    # zone, where a fascist chancellor may end the game, in ``merlin_sight_zone`` of them; his
    # talk reads his sight with ``merlin_talk_sight`` (a Merlin who always votes down the
    # fascists he sees is found by Hitler at the assassination).
    # The shares are set by the scan of docs/bots.md "Game types" (bayes against bayes, Avalon
    # SH at 7 players, the assassin reading votes and nominations by the numbers below): any
    # sight in votes and nominations found Merlin more often than it won policies, so he
    # votes and nominates as the liberal he passes for, and uses his sight in his powers,
    # which the assassin does not read.
    merlin_sight: float = 0.0
    merlin_sight_zone: float = 0.0
    merlin_sight_powers: float = 1.0  # his investigations, special elections, executions
    merlin_talk_sight: float = 0.1
    # Who is Merlin (``Beliefs.p_merlin``, what Hitler names at the assassination): a liberal's
    # votes and nominations weighed as Merlin's against a plain liberal's. P(ja) of a plain
    # liberal voter on a government that holds a fascist-party seat, and on a liberal-liberal
    # one; a sighted liberal's (one who knows the fascists) the same; Merlin's are the mix
    # ``merlin_sight`` of the two. Nominations: the weight of a fascist-party nominee against a
    # liberal one, for a plain liberal president and for a sighted one. Set from the rates of
    # ``benchmarks/game_types_table.py --rates 150 --players 7 --sight 0`` (plain) and
    # ``--sight 1`` (sighted: 0 and 1, floored at 0.02 and 0.98 as every number here is);
    # a weight is the odds of the nominee share against an even pick.
    liberal_ja_team: float = 0.32
    liberal_ja_clean: float = 0.57
    sighted_ja_team: float = 0.02
    sighted_ja_clean: float = 0.98
    liberal_nominate_team: float = 0.85
    sighted_nominate_team: float = 0.02
    # Powers, read the same way: P(the target is of the fascist party) of a plain liberal's
    # and a sighted one's execution and special election (Merlin's: the mix
    # ``merlin_sight_powers``), from the same ``--rates`` runs.
    liberal_execute_team: float = 0.67
    sighted_execute_team: float = 0.98
    liberal_special_team: float = 0.34
    sighted_special_team: float = 0.02

    def sight(self, zone: bool) -> float:
        """The share of Merlin's decisions made on his sight, in the Hitler zone or not."""
        return self.merlin_sight_zone if zone else self.merlin_sight

    def merlin_ja(self, zone: bool) -> tuple[float, float]:
        """Merlin's P(ja) on a government with a fascist-party seat and on a liberal-liberal
        one: the mix ``sight(zone)`` of a sighted liberal's and a plain one's."""
        a = self.sight(zone)
        return (
            a * self.sighted_ja_team + (1 - a) * self.liberal_ja_team,
            a * self.sighted_ja_clean + (1 - a) * self.liberal_ja_clean,
        )


def model_from_json(kwargs: dict[str, Any]) -> Model:
    """A ``Model`` from JSON keyword arguments (lists become the tuples the tables use)."""

    def tup(x: Any) -> Any:
        return tuple(tup(v) for v in x) if isinstance(x, list) else x

    return Model(**{k: tup(v) for k, v in kwargs.items()})


def load_model(name: str) -> Model:
    """A fitted model from ``bots/data/NAME.json``, written by the fit script its ``command``
    names (docs/bots.md, "Fitted numbers")."""
    from importlib.resources import files

    data = json.loads(files(__package__).joinpath("data", f"{name}.json").read_text("utf-8"))
    return model_from_json(data["model"])


# The fitted models (numbers and provenance in bots/data/*.json):
# - HUMAN_MODEL: people, the train half of the 7-player secrethitler.io games
#   (``benchmarks/fit_human_model.py``), for ``bayes-human``;
# - BOT_MODEL: our own bots (``benchmarks/fit_bot_model.py``, bayes liberals against bayes and
#   rule fascists), for ``bayes``;
# - EYE_MODEL: the same fit on bayes against bayes games, the "liberal eye" the bayes fascists
#   price moves with;
# - SEARCH_MODEL: BOT_MODEL's counting on today's bots' games with one weight per term fitted
#   by likelihood instead of one temper, for the ``search`` liberals (better calibrated; it
#   would make ``bayes`` against itself lopsided, docs/bots.md).
# The bot fits' games are committed (data/bot-fit), so each refits exactly from its data.
HUMAN_MODEL = load_model("human_model")
EYE_MODEL = load_model("eye_model")
BOT_MODEL = load_model("bot_model")
SEARCH_MODEL = load_model("search_model")
DEFAULT_MODEL = BOT_MODEL


@dataclass(frozen=True, slots=True)
class TalkModel:
    """How each role talks about each role, for listening bots: what is said at the table
    (``talk.said.signals``) as evidence. ``choice[stance][certainty]`` is a table
    [speaker role][target role] of weights of a choice among the other living seats, relative
    to a uniform choice (as a fascist president's nominations): who a liberal accuses, who a
    fascist accuses, ... and how that depends on what the table knew of the seat named
    (``context``) and how the speaker's later votes keep to its words (``consistency``:
    ``bots.listening``). ``weight`` multiplies every talk log-likelihood (talk is read off the
    same public record as the rest of the posterior). Fitted by
    ``benchmarks/fit_talk_model.py`` on games of talking bots (``bots/data/talk_model.json``,
    docs/bots.md "Talk")."""

    choice: tuple[tuple[str, tuple[tuple[str, tuple[tuple[float, ...], ...]], ...]], ...]
    weight: float = 1.0
    # ``context[stance]``: per ``listening.CONTEXTS`` a [speaker role][target role] multiplier
    # of a candidate's weight by what the table knew of it (absent: 1, the choice alone)
    context: tuple[tuple[str, tuple[tuple[tuple[float, ...], ...], ...]], ...] = ()
    # ``consistency[direction][ja, nein][voter role][member role]``: a vote on a government with
    # a seat the voter spoke for or against (``listening.DIRECTIONS``), over the same vote
    # without words (absent: not read)
    consistency: tuple[tuple[tuple[tuple[float, ...], ...], ...], ...] = ()

    def table(self, stance: str, certainty: str) -> tuple[tuple[float, ...], ...] | None:
        for name, by_certainty in self.choice:
            if name == stance:
                return next((t for c, t in by_certainty if c == certainty), None)
        return None

    def by_context(self, stance: str) -> tuple[tuple[tuple[float, ...], ...], ...] | None:
        return next((t for name, t in self.context if name == stance), None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "choice": {s: {c: [list(r) for r in t] for c, t in by} for s, by in self.choice},
            "weight": self.weight,
        }
        if self.context:
            out["context"] = {s: [[list(r) for r in t] for t in by] for s, by in self.context}
        if self.consistency:
            out["consistency"] = [[[list(r) for r in t] for t in by] for by in self.consistency]
        return out

    @staticmethod
    def from_json(data: dict[str, Any]) -> TalkModel:
        def grid(t: Any) -> tuple[tuple[float, ...], ...]:
            return tuple(tuple(float(x) for x in r) for r in t)

        choice = tuple(
            (s, tuple((c, grid(t)) for c, t in by.items())) for s, by in data["choice"].items()
        )
        context = tuple(
            (s, tuple(grid(t) for t in by)) for s, by in data.get("context", {}).items()
        )
        consistency = tuple(tuple(grid(t) for t in by) for by in data.get("consistency", []))
        return TalkModel(choice, float(data["weight"]), context, consistency)


def load_talk_model(name: str = "talk_model") -> TalkModel:
    """The fitted talk model from ``bots/data/NAME.json`` (its ``command`` wrote it)."""
    from importlib.resources import files

    data = json.loads(files(__package__).joinpath("data", f"{name}.json").read_text("utf-8"))
    return TalkModel.from_json(data["model"])


TALK_MODEL = load_talk_model()


__all__ = [
    "BOT_MODEL",
    "DEFAULT_MODEL",
    "EYE_MODEL",
    "FAS",
    "HIT",
    "HUMAN_MODEL",
    "LIB",
    "Model",
    "ROLE_INDEX",
    "ROLE_NAMES",
    "SEARCH_MODEL",
    "TALK_MODEL",
    "TERMS",
    "TalkModel",
    "load_model",
    "load_talk_model",
    "model_from_json",
]
