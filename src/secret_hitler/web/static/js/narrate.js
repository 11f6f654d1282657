// The game's events in words, as the server's narrator says them: this is the mirror of
// talk/narrate.py (one narrator for the log, the spoken announcements and a language model's
// prompt), kept equal to it by tests/web/js/narrate.test.mjs, which feeds both the events of
// recorded games (narration.json, written by the Python side) and compares every message.
// A message is a catalog key and its parameters, as a bot's talk line is (talk.js renders
// both): a seat is {seat}, a list {list}, a word a nested {key}. Pure: no DOM, so it runs under
// Node as well.

/** The parts of a told event: a new round's heading, a line, more of the line before. */
export const HEADING = "heading";
export const LINE = "line";
export const DETAIL = "detail";

const seat = (s) => ({ seat: s });
const seats = (list) => ({ list: list.map(seat) });
const word = (family, value) => ({ key: `${family}.${value}` });
const policies = (list) => ({ list: list.map((p) => word("policy.short", p)) });
const say = (key, params, part = LINE) => (params && Object.keys(params).length ? { part, key, params } : { part, key });

/** The catalog keys of the game types `r` turns on ("gametype.avalon.percival",
 * "gametype.monarchist"): each game-type setting of the engine's catalog (`settings`, GET
 * /api/rules) away from its default, named by its value unless it is a switch or holds several. */
export function gameTypeKeys(r, settings = {}) {
  const keys = [];
  for (const [name, setting] of Object.entries(settings)) {
    const value = r && name in r ? r[name] : setting.default;
    if (JSON.stringify(value) === JSON.stringify(setting.default) || (setting.multiple && !value.length)) continue;
    const plain = setting.multiple || !Object.keys(setting.value_labels).length;
    keys.push(plain ? `gametype.${name}` : `gametype.${name}.${value}`);
  }
  return keys;
}

/** A table's rules by its preset's name and its game types, marked when other settings were
 * changed. */
function rules(r, settings) {
  let name = { key: `preset.${(r && r.preset) || "official"}.name` };
  const types = gameTypeKeys(r, settings);
  if (types.length) name = { key: "preset.with_types", params: { name, types: { list: types.map((key) => ({ key })) } } };
  const changed = r && Object.keys(r).some((k) => k !== "preset" && !(k in settings));
  return changed ? { key: "preset.changed", params: { name, custom: { key: "preset.custom.name" } } } : name;
}

/** A narrator of one log, read in order. `tracks`: the engine's track lengths and chaos step
 * (GET /api/rules `tracks`: {liberal, fascist, chaos_at}); `settings`: its game-type settings
 * (`settings`). `tell(e)` gives the messages of one event (none for an event the log keeps
 * quiet about). */
export function createNarrator(tracks, settings = {}) {
  let special = null; // the next candidate by special election
  let chancellor = null; // of the government in office
  let vetoSeen = false;
  let ownRole = null; // the reader's own role (a seat's log tells it first)
  const inSeatOrder = (obj) => Object.entries(obj || {}).map(([s, v]) => [Number(s), v]).sort((a, b) => a[0] - b[0]);
  const TELL = {
    game_started: (e) => [say("log.game_started", { count: e.players, rules: rules(e.rules, settings) })],
    role: (e) => {
      ownRole = e.role;
      return [say("log.your_role", { role: word("role", e.role) })];
    },
    night: (e) => {
      const known = inSeatOrder(e.known);
      const byParty = inSeatOrder(e.parties).map(([s]) => s);
      const out = [];
      if (ownRole === "merlin") {
        out.push(say("know.merlin_sees", { names: seats(byParty) })); // the fascist party, not who is Hitler
      } else if (byParty.length || known.some(([, role]) => role !== "hitler")) {
        const fellows = [...new Set([...known.filter(([, role]) => role !== "hitler").map(([s]) => s), ...byParty])].sort((a, b) => a - b);
        out.push(say("know.fellow_fascists", { names: seats(fellows) }));
      }
      for (const [s, role] of known) if (role === "hitler") out.push(say("know.hitler_is", { name: seat(s) }));
      if (e.merlin_candidates && e.merlin_candidates.length) {
        out.push(say("know.merlin_candidates", { first: seat(e.merlin_candidates[0]), second: seat(e.merlin_candidates[1]) }));
      }
      return out;
    },
    candidate: (e) => {
      const key = special !== null && special === e.seat ? "log.candidate_special" : "log.candidate";
      special = null;
      return [say("table.round", { n: e.round }, HEADING), say(key, { name: seat(e.seat) })];
    },
    nominated: (e) => [say("log.nominated", { president: seat(e.president), chancellor: seat(e.chancellor) })],
    voted: (e) => (e.ja === true || e.ja === false ? [say(e.ja ? "log.voted_ja" : "log.voted_nein", { name: seat(e.seat) })] : []),
    votes: (e) => {
      const out = [say("log.votes_revealed", { ja: e.ja, nein: e.nein })];
      const ja = [];
      const nein = [];
      (e.votes || []).forEach((v, s) => { if (v === true) ja.push(s); else if (v === false) nein.push(s); });
      if (ja.length) out.push(say("votes.ja_list", { names: seats(ja) }, DETAIL));
      if (nein.length) out.push(say("votes.nein_list", { names: seats(nein) }, DETAIL));
      if (!e.passed) out.push(say("log.rejected"));
      return out;
    },
    elected: (e) => {
      chancellor = e.chancellor;
      return [say("log.elected", { president: seat(e.president), chancellor: seat(e.chancellor) })];
    },
    tracker: (e) => [e.value > 0 ? say("log.tracker_advanced", { count: e.value, max: tracks.chaos_at }) : say("log.tracker_reset")],
    not_hitler: (e) => [say("log.not_hitler", { name: seat(e.seat) })],
    legislative_session: (e) => {
      chancellor = e.chancellor;
      const out = e.veto && !vetoSeen ? [say("log.veto_unlocked")] : [];
      vetoSeen = vetoSeen || Boolean(e.veto);
      out.push(say("log.legislative_started", { president: seat(e.president) }));
      return out;
    },
    drew: (e) => [say("log.you_drew", { policies: policies(e.policies) })],
    president_discarded: (e) => [say("log.passed_to_chancellor", { president: seat(e.president), chancellor: chancellor === null ? "?" : seat(chancellor) })],
    passed: (e) => [say("log.you_discarded", { policy: word("policy.short", e.discarded) })],
    received: (e) => [say("log.you_received", { policies: policies(e.policies) })],
    chancellor_discarded: (e) => [say("log.you_discarded", { policy: word("policy.short", e.policy) })],
    chaos: (e) => {
      const out = [say("log.chaos", { policy: word("policy.short", e.policy) })];
      if (e.term_limits_cleared) out.push(say("log.term_limits_cleared", null, DETAIL)); // the engine's word
      return out;
    },
    enacted: (e) => {
      const count = e.policy === "liberal" ? e.liberal_policies : e.fascist_policies;
      return [say(`log.enacted.${e.policy}`, { count, max: tracks[e.policy] })];
    },
    veto_proposed: (e) => [say("log.veto_proposed", { chancellor: seat(e.chancellor) })],
    veto: (e) => [say(e.accepted ? "log.veto_accepted" : "log.veto_refused", { president: seat(e.president) })],
    reshuffled: (e) => [{ part: LINE, key: "log.reshuffled", count: e.draw_pile }],
    power: (e) => [e.power === "peek" ? say("log.peeked", { president: seat(e.president) })
      : say("log.power_granted", { president: seat(e.president), power: word("power", e.power) })],
    peek: (e) => [say("log.you_peeked", { policies: policies(e.policies) })],
    power_skipped: (e) => [say("log.power_skipped", { power: word("power", e.power) })],
    investigated: (e) => [say("log.investigated", { president: seat(e.president), target: seat(e.target) })],
    investigation: (e) => [say("log.you_investigated", { name: seat(e.target), party: word("party.inline", e.party) })],
    special_election: (e) => {
      special = e.target;
      return [say("log.special_election", { president: seat(e.president), target: seat(e.target) })];
    },
    executed: (e) => {
      const out = [say("log.executed", { president: seat(e.president), target: seat(e.target) })];
      if (e.role) out.push(say("log.executed_role", { name: seat(e.target), role: word("role", e.role) }, DETAIL));
      return out;
    },
    claim: (e) => {
      const params = { name: seat(e.seat) };
      if (e.policies && e.policies.length) params.policies = policies(e.policies);
      if (e.party) {
        params.target = e.target === null || e.target === undefined ? "?" : seat(e.target);
        params.party = word("party.inline", e.party);
      }
      return [say(`log.claim.${e.subject}`, params)];
    },
    assassination: (e) => [say(`log.assassination.${e.trigger}`, { hitler: seat(e.hitler) })],
    assassin_sight: (e) => {
      const team = inSeatOrder(e.known).map(([s]) => s);
      const out = team.length ? [say("log.assassin_team", { names: seats(team) })] : [];
      out.push(say("log.assassin_targets", { names: seats(e.targets || []) }));
      return out;
    },
    assassinated: (e) => [say("log.assassinated", { hitler: seat(e.hitler), target: seat(e.target), role: word("role", e.role) })],
    game_over: (e) => [
      say(`log.game_over.${e.winner}`, { reason: word("gameover.reason", e.reason) }),
      ...(Array.isArray(e.winners) ? [say("log.winners", { names: seats(e.winners) }, DETAIL)] : []),
      say("log.roles_revealed", null, DETAIL),
      ...(Array.isArray(e.roles) ? e.roles.map((role, s) => say("log.role_revealed", { name: seat(s), role: word("role", role) }, DETAIL)) : []),
    ],
  };
  return {
    tell(e) {
      const fn = Object.prototype.hasOwnProperty.call(TELL, e.type) ? TELL[e.type] : null;
      return fn ? fn(e) : [];
    },
  };
}
