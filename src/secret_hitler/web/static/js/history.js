// Memory aid: every government of the game in one list (who was President and Chancellor, the
// vote, what was enacted, the power used, and what each of them claimed), read from the public
// events only, so it is the same for every seat and the spectator.
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { seatName } from "./board.js";

/** Rounds from the public events: [{round, president, chancellor, ja, nein, passed, policy, chaos, vetoed, power, claims}]. */
export function governments(events) {
  const rounds = [];
  let cur = null;
  for (const e of events || []) {
    switch (e.type) {
      case "candidate":
        cur = { round: e.round, president: e.seat, chancellor: null, ja: null, nein: null, passed: null, policy: null, chaos: false, vetoed: false, power: null, claims: [] };
        rounds.push(cur);
        break;
      case "nominated":
        if (cur) cur.chancellor = e.chancellor;
        break;
      case "votes":
        if (cur) Object.assign(cur, { ja: e.ja, nein: e.nein, passed: e.passed });
        break;
      case "enacted":
        if (cur) { cur.policy = e.policy; cur.chaos = Boolean(e.chaos); }
        break;
      case "veto":
        if (cur && e.accepted) cur.vetoed = true;
        break;
      case "investigated": case "special_election": case "executed":
        if (cur) cur.power = { type: e.type === "investigated" ? "investigate" : e.type === "executed" ? "execute" : "special_election", target: e.target };
        break;
      case "claim": {
        // A claim about a hand or a power belongs to the last government the claimer sat in.
        for (let i = rounds.length - 1; i >= 0; i--) {
          const r = rounds[i];
          if (r.passed && (r.president === e.seat || r.chancellor === e.seat)) { r.claims.push(e); break; }
        }
        break;
      }
      default:
        break;
    }
  }
  return rounds;
}

function without(pool, taken) {
  const left = [...pool];
  for (const p of taken) {
    const i = left.indexOf(p);
    if (i < 0) return null;
    left.splice(i, 1);
  }
  return left;
}

/**
 * Claims of one government that cannot all be true: the Chancellor's two are not the President's
 * three less one, or a hand claimed without the policy that was enacted. Display logic comparing
 * claims with each other and with the enacted policy; the engine never checks a claim (A9).
 * Returns the conflicting claim events (empty: no conflict).
 */
export function claimConflicts(r) {
  const last = (subject, seat) => r.claims.filter((c) => c.subject === subject && c.seat === seat).pop();
  const pres = last("president_hand", r.president);
  const chan = last("chancellor_hand", r.chancellor);
  const bad = new Set();
  if (pres && chan && without(pres.policies, chan.policies) === null) bad.add(pres).add(chan);
  const enacted = r.policy && !r.chaos && !r.vetoed ? r.policy : null;
  for (const c of [pres, chan]) if (c && enacted && !c.policies.includes(enacted)) bad.add(c);
  return [...bad];
}

function letters(policies) {
  return h("span", { class: "letters" }, policies.map((p) => h("abbr", {
    class: `letter letter-${p}`, title: t(`policy.${p}`), text: t(`policy.letter.${p}`),
  })));
}

/** The list of governments; `ctx` names the seats. `opts.claims`: show the claim tracker;
 * `opts.governments: false`: only the governments with claims, without the other facts. */
export function renderHistory(ctx, events, opts = { claims: true, governments: true }) {
  const facts = opts.governments !== false;
  const rows = governments(events).filter((r) => r.chancellor !== null && (facts || r.claims.length));
  const name = (s) => seatName(ctx, s);
  if (!rows.length) return h("p", { class: "hint", text: t("history.empty") });
  return h("ol", { class: "history-list" }, rows.map((r) => {
    let result;
    if (r.passed === false) result = h("span", { class: "result failed" }, icon("nein"), h("span", { text: t("votes.failed") }));
    else if (r.vetoed) result = h("span", { class: "result" }, icon("veto"), h("span", { text: t("history.vetoed") }));
    else if (r.policy && !r.chaos) result = h("span", { class: `result policy-${r.policy}` }, icon(r.policy), h("span", { text: t(`policy.${r.policy}`) }));
    else result = h("span", { class: "result muted", text: "…" });
    const conflicts = opts.claims ? claimConflicts(r) : [];
    const claims = !opts.claims ? [] : r.claims.filter((c) => c.policies || c.party).map((c) => h("li", { class: conflicts.includes(c) ? "claim-conflict" : null },
      h("span", { class: "claim-who", text: `${name(c.seat)}: ` }),
      c.policies ? letters(c.policies) : h("span", { text: t("claim.investigation_option", { name: name(c.target), party: t(`claim.party.${c.party}`) }) }),
      conflicts.includes(c) ? h("span", { class: "badge conflict-mark" }, icon("warning"), h("span", { text: t("aids.claims.conflict") })) : null));
    return h("li", { class: `history-row${conflicts.length ? " has-conflict" : ""}`, dataset: { round: r.round } },
      h("div", { class: "history-head" },
        h("span", { class: "history-round", text: t("table.round", { n: r.round }) }),
        h("span", { class: "history-gov", text: t("history.government", { president: name(r.president), chancellor: name(r.chancellor) }) })),
      !facts ? null : h("div", { class: "history-facts" },
        r.ja !== null ? h("span", { class: "history-vote", text: t("votes.count", { ja: r.ja, nein: r.nein }) }) : null,
        result,
        r.chaos && r.policy ? h("span", { class: "badge muted", text: t("history.chaos", { policy: t(`policy.short.${r.policy}`) }) }) : null,
        r.power ? h("span", { class: "history-power" }, icon(r.power.type), h("span", { text: `${t(`power.${r.power.type}`)}: ${name(r.power.target)}` })) : null),
      claims.length ? h("ul", { class: "history-claims", "aria-label": t("claim.title") }, claims) : null);
  }));
}
