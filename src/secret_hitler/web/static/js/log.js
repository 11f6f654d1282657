// The game log in sentences: every engine event this seat received, through the catalogs.
import { engine } from "./engine.js";
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { t, list } from "./i18n.js";
import { seatName, presetName, policyWords } from "./format.js";


/** Turn events into log lines: {text, private, icon, kind}. */
export function describeEvents(events, ctx) {
  const lines = [];
  const name = (s) => seatName(ctx, s);
  const add = (text, extra = {}) => lines.push({ text, kind: "line", ...extra });
  let special = null;
  let chancellor = null;
  let vetoSeen = false;
  const tracks = engine.tracks || {}; // the tracks' lengths and the chaos step (GET /api/rules)
  for (const e of events) {
    const before = lines.length;
    const priv = engine.privateEvents.has(e.type);
    const p = { private: priv };
    switch (e.type) {
      case "game_started":
        add(t("log.game_started", { count: e.players, rules: presetName(e.rules) }), { icon: "draw" });
        break;
      case "role":
        add(t("log.your_role", { role: t(`role.${e.role}`) }), { ...p, icon: "lock" });
        break;
      case "night": {
        const known = e.known || {};
        const fellows = [];
        let hitler = null;
        for (const [seat, role] of Object.entries(known)) {
          if (role === "hitler") hitler = Number(seat);
          else fellows.push(name(Number(seat)));
        }
        if (fellows.length) add(t("know.fellow_fascists", { names: list(fellows) }), { ...p, icon: "lock" });
        if (hitler !== null) add(t("know.hitler_is", { name: name(hitler) }), { ...p, icon: "lock" });
        break;
      }
      case "candidate":
        lines.push({ kind: "round", text: t("table.round", { n: e.round }) });
        if (special !== null && special === e.seat) add(t("log.candidate_special", { name: name(e.seat) }), { icon: "candidate" });
        else add(t("log.candidate", { name: name(e.seat) }), { icon: "candidate" });
        special = null;
        break;
      case "nominated":
        add(t("log.nominated", { president: name(e.president), chancellor: name(e.chancellor) }), { icon: "chancellor" });
        break;
      case "voted":
        if (e.ja === true) add(t("log.voted_ja", { name: name(e.seat) }), { icon: "ja" });
        else if (e.ja === false) add(t("log.voted_nein", { name: name(e.seat) }), { icon: "nein" });
        break;
      case "votes": {
        add(t("log.votes_revealed", { ja: e.ja, nein: e.nein }), { icon: "ja" });
        const ja = [];
        const nein = [];
        (e.votes || []).forEach((v, s) => { if (v === true) ja.push(name(s)); else if (v === false) nein.push(name(s)); });
        if (ja.length) add(t("votes.ja_list", { names: list(ja) }), { kind: "detail" });
        if (nein.length) add(t("votes.nein_list", { names: list(nein) }), { kind: "detail" });
        if (!e.passed) add(t("log.rejected"), { icon: "nein" });
        break;
      }
      case "elected":
        chancellor = e.chancellor;
        add(t("log.elected", { president: name(e.president), chancellor: name(e.chancellor) }), { icon: "president" });
        break;
      case "tracker":
        if (e.value > 0) add(t("log.tracker_advanced", { count: e.value, max: tracks.chaos_at }), { icon: "tracker" });
        else add(t("log.tracker_reset"), { icon: "tracker" });
        break;
      case "not_hitler":
        add(t("log.not_hitler", { name: name(e.seat) }), { icon: "not_hitler" });
        break;
      case "legislative_session":
        chancellor = e.chancellor;
        if (e.veto && !vetoSeen) add(t("log.veto_unlocked"), { icon: "veto" });
        vetoSeen = vetoSeen || Boolean(e.veto);
        add(t("log.legislative_started", { president: name(e.president) }), { icon: "draw" });
        break;
      case "drew":
        add(t("log.you_drew", { policies: policyWords(e.policies) }), { ...p, icon: "lock" });
        break;
      case "president_discarded":
        add(t("log.passed_to_chancellor", { president: name(e.president), chancellor: name(chancellor) }), { icon: "chancellor" });
        break;
      case "passed":
        add(t("log.you_discarded", { policy: t(`policy.short.${e.discarded}`) }), { ...p, icon: "lock" });
        break;
      case "received":
        add(t("log.you_received", { policies: policyWords(e.policies) }), { ...p, icon: "lock" });
        break;
      case "chancellor_discarded":
        add(t("log.you_discarded", { policy: t(`policy.short.${e.policy}`) }), { ...p, icon: "lock" });
        break;
      case "chaos":
        add(t("log.chaos", { policy: t(`policy.short.${e.policy}`) }), { icon: "warning", kind: "important" });
        if (e.term_limits_cleared) add(t("log.term_limits_cleared"), { kind: "detail" }); // (the engine's word)
        break;
      case "enacted": {
        const count = e.policy === "liberal" ? e.liberal_policies : e.fascist_policies;
        add(t(`log.enacted.${e.policy}`, { count, max: tracks[e.policy] }), { icon: e.policy, kind: "important", policy: e.policy });
        break;
      }
      case "power":
        if (e.power === "peek") add(t("log.peeked", { president: name(e.president) }), { icon: "peek" });
        else add(t("log.power_granted", { president: name(e.president), power: t(`power.${e.power}`) }), { icon: e.power });
        break;
      case "peek":
        add(t("log.you_peeked", { policies: policyWords(e.policies) }), { ...p, icon: "lock" });
        break;
      case "power_skipped":
        add(t("log.power_skipped", { power: t(`power.${e.power}`) }), { icon: e.power });
        break;
      case "investigated":
        add(t("log.investigated", { president: name(e.president), target: name(e.target) }), { icon: "investigate" });
        break;
      case "investigation":
        add(t("log.you_investigated", { name: name(e.target), party: t(`party.inline.${e.party}`) }), { ...p, icon: "lock" });
        break;
      case "special_election":
        special = e.target;
        add(t("log.special_election", { president: name(e.president), target: name(e.target) }), { icon: "special_election" });
        break;
      case "executed":
        add(t("log.executed", { president: name(e.president), target: name(e.target) }), { icon: "execute", kind: "important" });
        if (e.role) add(t("log.executed_role", { name: name(e.target), role: t(`role.${e.role}`) }), { kind: "detail" });
        break;
      case "veto_proposed":
        add(t("log.veto_proposed", { chancellor: name(e.chancellor) }), { icon: "veto" });
        break;
      case "veto":
        add(t(e.accepted ? "log.veto_accepted" : "log.veto_refused", { president: name(e.president) }), { icon: "veto" });
        break;
      case "reshuffled":
        add(t("log.reshuffled", { count: e.draw_pile }), { icon: "draw" });
        break;
      case "claim": {
        const params = { name: name(e.seat) };
        if (e.policies) params.policies = policyWords(e.policies);
        if (e.party) { params.target = name(e.target); params.party = t(`party.inline.${e.party}`); }
        add(t(`log.claim.${e.subject}`, params), { icon: "chat", kind: "claim" });
        break;
      }
      case "game_over":
        add(t(`log.game_over.${e.winner}`, { reason: t(`gameover.reason.${e.reason}`) }), { icon: "win", kind: "important" });
        add(t("log.roles_revealed"), { kind: "detail" });
        if (Array.isArray(e.roles)) {
          e.roles.forEach((role, s) => add(t("log.role_revealed", { name: name(s), role: t(`role.${role}`) }), { kind: "detail", role }));
        }
        break;
      default:
        break;
    }
    if (e.standin) { // a move a stand-in made (the server's mark: table-state.js markStandin)
      if (lines.length === before && e.type === "voted") add(t("log.voted", { name: name(e.seat) }), { icon: "ja" });
      add(t(`log.standin.${e.standin.by}`, { name: name(e.standin.action.seat) }), { kind: "detail", icon: "bot" });
    }
  }
  return lines;
}

/** The log as an ordered list. Private lines stay hidden unless `showPrivate`: a run of them is
 * one line ("Private: reveal your role card"), not one per secret. */
export function renderLog(lines, { showPrivate = false, highlightFrom = null } = {}) {
  const items = lines.map((line, i) => {
    if (line.private && !showPrivate && i > 0 && lines[i - 1].private) return null; // said once
    const cls = [`log-${line.kind}`];
    if (line.private) cls.push("private");
    if (highlightFrom !== null && i >= highlightFrom) cls.push("fresh");
    if (line.kind === "round") return h("li", { class: cls.join(" ") }, h("span", { text: line.text }));
    const hidden = line.private && !showPrivate;
    return h("li", { class: cls.join(" ") },
      line.icon || hidden ? icon(hidden ? "lock" : line.icon) : h("span", { class: "icon-gap", "aria-hidden": "true" }),
      h("span", { class: "log-text", text: hidden ? t("log.private_hidden") : line.text }));
  });
  return h("ol", { class: "log-list" }, items);
}
