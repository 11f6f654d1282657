"""The `bayes` level: decisions by expected value under the exact role posterior (``beliefs``).

A liberal acts on its own posterior: it backs governments that are likely liberal-liberal, keeps
Hitler out of the chancellorship in the Hitler zone, shoots the likeliest Hitler and tells the
truth. A fascist knows the truth, so what matters is what the liberals can infer: it keeps a
second posterior built from public events only (the "liberal eye") and prices every risky move
(a bad discard, a fascist enactment, a lie) by how much it raises the public suspicion of its
team, choosing among lies the one that looks most liberal under deck counting and the partner's
claims. Hitler at 7+ players knows nobody and plays liberal to get elected later.

Fascists vote exactly as a liberal reading the public record would (except to elect Hitler in
the zone), nominate by predicting every seat's vote with the liberal rule on the liberal eye,
and choose investigation targets and claims by a one-step lookahead on that posterior.

secrethitler.io's game types (docs/bots.md, "Game types"): Merlin and Percival decide as
liberals and Morgana as a fascist (``bots.team``), on a posterior that reads what the engine showed
them (``Beliefs``). Merlin acts on his sight in a share of his decisions only (``Model.merlin_sight``)
and on the posterior of the plain liberal he passes for in the rest (his ``cover``), and talks
mostly from the latter, so that Hitler does not find him; Hitler names the seat likeliest Merlin
(``Beliefs.p_merlin``) at the assassination. The Monarchist plays a fascist who wants six fascist
policies or Hitler shot: he never helps Hitler into the chancellorship in the zone and shoots the
seat likeliest Hitler.

Fascists and blind Hitler also replay the `rule` liberals' public suspicion scores (a
``RuleAgent`` fed the same view: the scores are a deterministic function of the public record)
and play moves that those scores forgive: all-fascist stories, a fascist chancellor's FF claim,
Hitler cleared by investigation, Hitler's nein votes and, while his score is low, his forced
fascist policies (docs/bots.md, "Rule eye").
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..engine import Action, View
from ..talk.lines import Line
from ..talk.said import Said
from . import bayes_moves
from .base import Agent, register, twin_rng
from .bayes_claims import choose_claims
from .bayes_moves import Tuning, _find, _pick
from .beliefs import DEFAULT_MODEL, EYE_MODEL, FAS, HIT, HUMAN_MODEL, LIB, Beliefs, Model
from .human_vote import VOTE_FEATURES, VoteTrees, human_vote_trees, vote_features
from .model import ROLE_INDEX
from .rule import RuleAgent
from .talk_value import team_judge
from .team import is_monarchist, team_known, team_role
from .voice import Judge, Reading, Voice

LIBERAL = "liberal"
FASCIST = "fascist"


class BayesAgent(Agent):
    name = "bayes"

    def __init__(
        self,
        seat: int,
        rng: Any = None,
        model: Model | None = None,
        eye_model: Model | None = None,
    ) -> None:
        super().__init__(seat, rng)
        self.model = model or DEFAULT_MODEL
        # The model of the public posterior a fascist (or blind Hitler) prices his moves with.
        self.eye_model = eye_model or (EYE_MODEL if model is None else self.model)
        # A vote model fitted to people (on ``VOTE_FEATURES``); None: vote by the posterior.
        self.vote_model: VoteTrees | None = None
        self.beliefs: Beliefs | None = None
        self.public: Beliefs | None = None
        # Merlin's: the posterior of the plain liberal he passes for (his night unread)
        self.cover: Beliefs | None = None
        self.shadow: RuleAgent | None = None  # the rule liberals' public scores (fascists)
        self.deferred: set[int] = set()
        self.forced = False  # blind Hitler forced FF at his last discard (claims FFF)
        self._initial: int | None = None  # sessions (round) where the chancellor waited to claim
        self.voice: Voice | None = None  # made when first asked to talk (``speak``/``listen``)
        self.seated: tuple[bool, ...] | None = None  # which seats people play, when told

    def seated_with(self, people: Sequence[bool]) -> None:
        """With people in at least half of the other seats, read with ``HUMAN_MODEL``: on
        people's held-out games its liberals would vote ja for Hitler in the zone 5% of the
        time against 16% with ``BOT_MODEL``, and shoot fewer liberals (44% against 48%;
        ``benchmarks/people_decisions.py``, docs/bots.md). Only a level on the bots' model
        (not ``bayes-human``; ``search`` has its own), and only before it has read anything."""
        if self.beliefs is None and self.model is DEFAULT_MODEL and self.people_hold_half(people):
            self.model = HUMAN_MODEL
        self.seated = tuple(people)  # told to the voice (who answers a table's question)
        self._tell_people()

    def _tell_people(self) -> None:
        """The posteriors leave people's silence unread (a person is slow or away, not evasive:
        ``Beliefs.people``)."""
        if self.seated is None:
            return
        people = frozenset(s for s, person in enumerate(self.seated) if person)
        for b in (self.beliefs, self.public, self.cover):
            if b is not None:
                b.people = people

    def fork(self, rng: random.Random | None = None) -> BayesAgent:
        """A copy for a rollout (``Agent.fork``): the beliefs forked, the models shared; its
        random source ``rng`` if given (a search's rollout bot gets its own), else a twin."""
        other = copy.copy(self)
        other.rng = twin_rng(self.rng) if rng is None else rng
        other.deferred = set(self.deferred)
        if self.beliefs is not None:
            other.beliefs = self.beliefs.fork()
        if self.public is not None:
            other.public = self.public.fork()
        if self.cover is not None:
            other.cover = self.cover.fork()
        if self.shadow is not None:
            other.shadow = self.shadow.fork()
        if self.voice is not None:
            other.voice = copy.deepcopy(self.voice)
        return other

    # ------------------------------------------------------------------ plumbing
    def _sync(self, view: View) -> Beliefs:
        if self.beliefs is None:
            self.beliefs = Beliefs.for_view(view, model=self.model)
            if team_role(view) != LIBERAL:
                self.public = Beliefs.for_view(view, public=True, model=self.eye_model)
                # The eye prices this seat's own silence (``talk_value.TeamJudge``) but reads
                # no other seat's: at a listening table almost every question is answered
                # (``listening.UNANSWERED``), and a seat that cannot hear, a deaf bot or a
                # person away, would read as evasive and mislead every move priced on the eye.
                self.public.reads_silence = False
            if view.role == "merlin":
                self.cover = Beliefs.for_view(view, model=self.model, sight=False)
            self._tell_people()
        self.beliefs.update(view)
        if self.cover is not None:
            self.cover.update(view)
        if self._initial is None:
            R = self.beliefs.R
            keep = np.ones(len(R), dtype=bool)
            for s, role in enumerate(view.known_roles):
                if role is not None and (s == self.seat or view.winner is None):
                    keep &= R[:, s] == ROLE_INDEX[role]
            self._initial = int(keep.sum())
        if self.public is not None:
            self.public.update(view)
            if self.shadow is None:
                self.shadow = RuleAgent(self.seat)
            self.shadow._update(view)
        return self.beliefs

    def posterior(self, view: View) -> tuple[np.ndarray, np.ndarray]:
        """(worlds matrix, probabilities): this seat's belief now (for evaluation)."""
        b = self._sync(view)
        return b.R, b.probs()

    @property
    def initial_possible(self) -> int | None:
        """Worlds consistent with the night knowledge alone: the uniform prior's support."""
        return self._initial

    def _team(self, view: View) -> list[int]:
        return [
            s for s, r in enumerate(team_known(view)) if r in (FASCIST, "hitler") and s != self.seat
        ]

    def _informed_fascist(self, view: View) -> bool:
        """A fascist (Morgana and the Monarchist too), or Hitler who knows his team."""
        role = team_role(view)
        return role == FASCIST or (role == "hitler" and bool(self._team(view)))

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        turn = [a for a in legal if a.type != "claim"]
        if not turn:
            made = self.claims(view, legal)
            return made[0] if made else legal[0]
        self._sync(view)
        phase = view.phase
        handler = getattr(self, "_" + phase, None)
        own = self.beliefs
        if self.cover is not None and len(turn) > 1:
            # Merlin: this decision on his sight (``Model.sight``) or as the plain
            # liberal he passes for; his own posterior is back whatever happens.
            power = phase in ("investigate", "special_election", "execute")
            sight = self.model.merlin_sight_powers if power else None
            if sight is None:
                sight = self.model.sight(view.hitler_zone_active)
            if self.rng.random() >= sight:
                self.beliefs = self.cover
        try:
            choice: Action | None = handler(view, turn) if handler is not None else None
        finally:
            self.beliefs = own
        if choice is None or choice not in turn:
            choice = turn[self.rng.randrange(len(turn))]
        return choice

    def _assassinate(self, view: View, legal: Sequence[Action]) -> Action | None:
        """Hitler names the seat likeliest Merlin (``Beliefs.p_merlin``); ties at random."""
        return _pick(legal, self._assassination_scores(view, legal), self.rng)

    def _assassination_scores(self, view: View, legal: Sequence[Action]) -> list[float]:
        assert self.beliefs is not None
        p = self.beliefs.p_merlin()
        return [float(p[a.target]) if a.target is not None else 0.0 for a in legal]

    def evaluate(self, view: View, legal: Sequence[Action]) -> dict[str, Any]:
        """What the bot would play here and its estimate of each option, leaving its own later
        choices unchanged (its random state and memory are restored): for game analysis.

        ``scores``: one number per turn action where the bot ranks options by a score
        (nominations, investigations, special elections, a liberal's executions), else None.
        ``facts``: the posterior figures the decision turns on (docs/bots.md, "Analysis").
        """
        turn = [a for a in legal if a.type != "claim"]
        state, forced, deferred = self.rng.getstate(), self.forced, set(self.deferred)
        try:
            choice = self.act(view, turn or legal)
        finally:
            self.rng.setstate(state)
            self.forced, self.deferred = forced, deferred
        b = self._sync(view)
        phase = view.phase
        scores: list[float] | None = None
        informed = self._informed_fascist(view)
        if phase == "nominate":
            scores = self._nomination_scores(view, turn)
        elif phase == "investigate" and not informed:
            scores = self._investigation_scores(view, turn)
        elif phase == "special_election" and not informed:
            scores = self._special_election_scores(view, turn)
        elif phase == "execute" and not informed:
            scores = self._execution_scores(view, turn)
        facts: dict[str, float] = {}
        eye = self.public if informed and self.public is not None else b
        probs = eye.conditioned_liberal(self.seat) if eye is self.public else None
        if phase == "vote" and view.candidate is not None and view.nominee is not None:
            m = eye.marginals(probs)
            facts["p_liberal_government"] = eye.p_both_liberal(view.candidate, view.nominee, probs)
            facts["average_liberal_government"] = self._clean_baseline(eye, view)
            facts["p_chancellor_hitler"] = float(m[view.nominee, HIT])
        elif phase in ("discard", "enact"):
            partner = view.chancellor if phase == "discard" else view.president
            if partner is None and phase == "discard":
                partner = view.nominee
            if partner is not None:
                facts["p_partner_fascist"] = float(b.p_fascist_party()[partner])
        return {
            "choice": choice,
            "options": turn,
            "scores": scores,
            "facts": {k: round(float(v), 4) for k, v in facts.items()},
        }

    # ------------------------------------------------------------------ helpers
    def _suspicion(self, view: View, probs: np.ndarray | None = None) -> float:
        """How fascist the public thinks this seat and Hitler are (what a fascist protects)."""
        assert self.public is not None
        m = self.public.marginals(probs)
        if view.role == "hitler":  # (the Monarchist protects only himself: no Hitler known)
            return Tuning.hitler_weight * float(m[self.seat, HIT] + m[self.seat, FAS])
        out = Tuning.self_weight * float(m[self.seat, FAS] + m[self.seat, HIT])
        for s in self._team(view):
            if view.known_roles[s] == "hitler":
                out += Tuning.hitler_weight * float(m[s, HIT])
        return out

    def _clean_baseline(self, b: Beliefs, view: View) -> float:
        """The average P(liberal-liberal) over governments of living players."""
        return b.p_liberal_government(view.alive)

    # ------------------------------------------------------------------ decisions
    def _liberal_rule(
        self, b: Beliefs, probs: np.ndarray | None, view: View, p: int, c: int
    ) -> bool:
        """The vote a liberal casts from posterior ``probs`` of ``b`` (seat not in government)."""
        zone = view.hitler_zone_active
        m = b.marginals(probs)
        clean = b.p_both_liberal(p, c, probs)
        base = self._clean_baseline(b, view)
        share = Tuning.vote_share[min(view.election_tracker, 2)]
        ja = clean >= base * share
        if zone and float(m[c, HIT]) > Tuning.hitler_risk:
            ja = False
        return ja

    def _predicted_ja(self, view: View, p: int, cands: Sequence[int]) -> np.ndarray:
        """Ja votes expected from the other living seats for each chancellor in ``cands``.

        Liberals (and blind Hitler) are modelled by the liberal rule on the public posterior
        conditioned on themselves being liberal; informed teammates back any team government;
        the two candidates vote ja.
        """
        pub = self.public
        assert pub is not None
        R = pub.R
        probs = pub.probs()
        voters = tuple(v for v in range(view.players) if view.alive[v] and v != self.seat)
        K = len(cands)
        if not voters or not K:
            return np.zeros(K)
        cidx = tuple(cands)
        # the role columns the prediction reads (the same for every posterior of the table)
        lib = pub.column(("liberal_voters", voters), lambda: (R[:, voters] == LIB).T.astype(float))
        clean_with = pub.column(
            ("liberal_with", p, cidx),
            lambda: ((R[:, p] == LIB)[:, None] & (R[:, cidx] == LIB)).astype(float),
        )
        pv = probs[None, :] * lib
        tot = pv.sum(axis=1, keepdims=True)
        pv = np.where(tot > 0, pv / np.maximum(tot, 1e-300), probs[None, :])
        clean = pv @ clean_with
        base = self._clean_baseline(pub, view)
        share = Tuning.vote_share[min(view.election_tracker, 2)]
        ja = clean >= base * share
        if view.hitler_zone_active:
            hitler = pub.column(("hitler_among", cidx), lambda: (R[:, cidx] == HIT).astype(float))
            ja &= (pv @ hitler) <= Tuning.hitler_risk
        team = set(self._team(view)) | {self.seat}
        informed = {
            s
            for s in team
            if view.known_roles[s] == FASCIST
            or (view.known_roles[s] == "hitler" and self._informed_fascist(view))
        }
        out: np.ndarray = ja.sum(axis=0).astype(float)
        for i, v in enumerate(voters):
            for k, c in enumerate(cands):
                if v in (p, c) or (v in informed and (p in team or c in team)):
                    out[k] += 1 - ja[i, k]
        return out

    def _need(self, view: View) -> int:
        return sum(view.alive) // 2 + 1

    def _nominate(self, view: View, legal: Sequence[Action]) -> Action | None:
        return _pick(legal, self._nomination_scores(view, legal), self.rng)

    def _nomination_scores(self, view: View, legal: Sequence[Action]) -> list[float]:
        """The bot's score of each nominee (higher is better; ``_pick`` breaks ties)."""
        b = self.beliefs
        assert b is not None
        zone = view.hitler_zone_active
        team = self._team(view)
        out: list[float] = []
        if self._informed_fascist(view):
            assert self.public is not None
            pub = self.public.conditioned_marginals(self.seat)
            cands = [a.target for a in legal if a.target is not None]
            counts = self._predicted_ja(view, self.seat, cands)
            need = self._need(view)
            passes = {c: counts[k] + 1 >= need for k, c in enumerate(cands)}
            for a in legal:
                c = a.target
                assert c is not None
                trust = float(pub[c, LIB])
                s = trust
                if c in team:
                    hitler = view.known_roles[c] == "hitler"
                    if zone and hitler:
                        s = trust + (10.0 if passes[c] else Tuning.zone_hitler_fallback)
                    elif passes[c]:
                        s = trust + (
                            Tuning.nominate_hitler_early if hitler else Tuning.nominate_mate
                        )
                if zone and is_monarchist(view):
                    # He loses if Hitler is elected: the seats his posterior takes for Hitler.
                    s -= Tuning.nominate_hitler_penalty * float(b.marginals()[c, HIT])
                out.append(s)
            return out
        m = b.marginals()
        for a in legal:
            c = a.target
            assert c is not None
            s = float(m[c, LIB])
            if zone:
                s -= Tuning.nominate_hitler_penalty * float(m[c, HIT])
            out.append(s)
        return out

    def vote_features(self, view: View) -> np.ndarray:
        """The features of ``VOTE_FEATURES`` for the open election, from this seat's view
        (``human_vote.vote_features``)."""
        return vote_features(self, view)

    def _vote(self, view: View, legal: Sequence[Action]) -> Action | None:
        b = self.beliefs
        assert b is not None
        p, c = view.candidate, view.nominee
        assert p is not None and c is not None
        zone = view.hitler_zone_active
        ja = True
        if self.vote_model is not None:
            # Plain sense first (tests/bots/test_plain_sense.py): the vote that wins or loses
            # the game on the spot is never left to the fitted model.
            if zone and c not in view.not_hitler:
                if self._informed_fascist(view) and view.known_roles[c] == "hitler":
                    return _find(legal, "vote", ja=True)
                if team_role(view) == LIBERAL and float(b.p_fascist_party()[c]) > 0.999:
                    return _find(legal, "vote", ja=False)
            z = self.vote_model.margin(self.vote_features(view))
            return _find(legal, "vote", ja=z >= 0.0)
        if self.seat in (p, c):
            ja = True
        elif self._informed_fascist(view):
            team = self._team(view)
            assert self.public is not None
            probs = self.public.conditioned_liberal(self.seat)
            if zone and c in team and view.known_roles[c] == "hitler":
                ja = True
            elif zone and is_monarchist(view) and float(b.marginals()[c, HIT]) > Tuning.hitler_risk:
                ja = False  # the Monarchist loses if Hitler is elected
            elif p not in team and c not in team and view.liberal_to_win <= 1:
                ja = False
            else:  # vote as a liberal reading the public record would
                ja = self._liberal_rule(self.public, probs, view, p, c)
        else:
            probs = None
            if view.role == "hitler" and self.public is not None:
                # Blind Hitler votes as a liberal would from the public record alone: his own
                # certainty of not being Hitler must not show in his votes.
                probs = self.public.conditioned_liberal(self.seat)
                b = self.public
            ja = self._liberal_rule(b, probs, view, p, c)
            if view.role == "hitler" and self.shadow is not None:
                # Rule liberals charge every ja voter of a government that enacts a fascist
                # policy: a blind Hitler keeps his score clean for the zone by voting nein.
                own = self.beliefs
                assert own is not None
                ja = ja and own.p_both_liberal(p, c) >= Tuning.hitler_ja_clean
            if view.role == "hitler" and zone and c == self.seat:
                ja = True
        return _find(legal, "vote", ja=ja)

    # What it does with a hand and with a power: ``bayes_moves``'s functions, as methods.
    _discard = bayes_moves.discard
    _enact = bayes_moves.enact
    _veto_response = bayes_moves.veto_response
    _investigate = bayes_moves.investigate
    _investigation_scores = bayes_moves.investigation_scores
    _special_election = bayes_moves.special_election
    _special_election_scores = bayes_moves.special_election_scores
    _execute = bayes_moves.execute
    _execution_scores = bayes_moves.execution_scores
    _threats = bayes_moves.threats

    # ------------------------------------------------------------------ talk
    def _voice(self) -> Voice:
        if self.voice is None:
            self.voice = Voice(self.seat, self.rng)
            if self.seated is not None:
                self.voice.seated_with(self.seated)
        return self.voice

    def reading(self, view: View) -> Reading:
        """What this seat says it believes (``bots.voice``): a liberal's own posterior; a
        fascist's or Hitler's (blind or not) that of the liberal it pretends to be, the public
        posterior given that its seat is liberal."""
        if team_role(view) != LIBERAL and self.public is not None:
            m = self.public.conditioned_marginals(self.seat)
        else:
            assert self.beliefs is not None
            m = self.beliefs.marginals()
            if self.cover is not None:
                # Merlin talks mostly as the liberal he passes for (``Model.merlin_talk_sight``)
                a = self.model.merlin_talk_sight
                m = a * m + (1 - a) * self.cover.marginals()
        return Reading((m[:, FAS] + m[:, HIT]).tolist(), m[:, HIT].tolist())

    def judge(self, view: View) -> Judge | None:
        """What a line is worth to this seat's team as the table reads it (``talk_value``): a
        fascist's or Hitler's voice bends its lines by it; a liberal's says what it believes."""
        if team_role(view) == LIBERAL or self.public is None:
            return None
        team = [self.seat, *self._team(view)]
        hitler = next((s for s in team if view.known_roles[s] == "hitler"), None)
        return team_judge(self.public, self.seat, team, hitler)

    def speak(self, view: View) -> list[Line]:
        self._sync(view)
        return self._voice().speak(view, lambda: self.reading(view), self.judge(view))

    def listen(self, view: View, said: Sequence[Said]) -> None:
        """Weigh what other seats said: a claim said in the chat as that claim
        (``Beliefs.hear_claim``), accusations, trust and Hitler reads as talk evidence
        (``Beliefs.hear_signal``, the fitted ``TalkModel``), in this seat's posterior and, for
        a fascist, in the liberal eye too (the liberals hear it as well)."""
        self._sync(view)
        posteriors = [b for b in (self.beliefs, self.public) if b is not None]
        for seat, line in self._voice().hear(view, said):
            if seat is None:
                continue  # a person without a seat: no role to weigh
            for b in posteriors:
                b.hear_line(seat, line)

    # ------------------------------------------------------------------ claims
    def claims(self, view: View, options: Sequence[Action]) -> list[Action]:
        """The claims this seat makes among ``options`` (``bayes_claims.choose_claims``)."""
        return choose_claims(self, view, options)


def _factory(seat: int, rng: Any) -> Agent:
    return BayesAgent(seat, rng)


def _human_factory(seat: int, rng: Any) -> Agent:
    agent = BayesAgent(seat, rng, HUMAN_MODEL)
    agent.name = "bayes-human"
    agent.vote_model = human_vote_trees()
    return agent


register("bayes", _factory)
# The same decisions over a posterior whose behaviour model is fitted to people (for tables
# with humans, and for ``evaluate`` on secrethitler.io games).
register("bayes-human", _human_factory)

# ``VOTE_FEATURES`` and ``human_vote_trees`` live in ``bots/human_vote.py``, and are named here
# too (what ``bayes-human`` votes with; the fit scripts import them from here).
__all__ = ["VOTE_FEATURES", "BayesAgent", "Tuning", "VoteTrees", "human_vote_trees"]
