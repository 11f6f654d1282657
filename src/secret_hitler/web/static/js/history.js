// Memory aid: every government of the game in one list (who was President and Chancellor, the
// vote, what was enacted, the power used, and what each of them claimed, the claims that cannot
// be true marked), as the server sends them (the engine reads them from the public events:
// engine/history.py, docs/protocol.md 2.2), so the same for every seat and the spectator. Nothing
// here folds events or judges a claim.
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { seatName } from "./format.js";

function letters(policies) {
  return h("span", { class: "letters" }, policies.map((p) => h("abbr", {
    class: `letter letter-${p}`, title: t(`policy.${p}`), text: t(`policy.letter.${p}`),
  })));
}

/** The list of `governments` (the table state's, table-state.js); `ctx` names the seats.
 * `opts.claims`: show the claim tracker; `opts.governments: false`: only the governments with
 * claims, without the other facts. */
export function renderHistory(ctx, governments, opts = { claims: true, governments: true }) {
  const facts = opts.governments !== false;
  const rows = (governments || []).filter((r) => r.chancellor !== null && (facts || r.claims.length));
  const name = (s) => seatName(ctx, s);
  // whose claim it is: "President Ada:", "Chancellor Bo:"
  const claimant = (r, s) => (s === r.president ? t("history.claim.president", { name: name(s) })
    : s === r.chancellor ? t("history.claim.chancellor", { name: name(s) }) : `${name(s)}:`);
  if (!rows.length) return h("p", { class: "hint", text: t("history.empty") });
  return h("ol", { class: "history-list" }, rows.map((r) => {
    let result;
    if (r.passed === false) result = h("span", { class: "result failed" }, icon("nein"), h("span", { text: t("votes.failed") }));
    else if (r.vetoed) result = h("span", { class: "result" }, icon("veto"), h("span", { text: t("history.vetoed") }));
    else if (r.policy && !r.chaos) result = h("span", { class: `result policy-${r.policy}` }, icon(r.policy), h("span", { text: t(`policy.${r.policy}`) }));
    else result = h("span", { class: "result muted", text: "…" });
    const conflict = opts.claims && r.claims.some((c) => c.conflict);
    const claims = !opts.claims ? [] : r.claims.filter((c) => c.policies || c.party).map((c) => h("li", { class: c.conflict ? "claim-conflict" : null },
      h("span", { class: "claim-who", text: claimant(r, c.seat) }),
      c.policies ? letters(c.policies) : h("span", { text: t("claim.investigation_option", { name: name(c.target), party: t(`claim.party.${c.party}`) }) }),
      c.conflict ? h("span", { class: "badge conflict-mark" }, icon("warning"), h("span", { text: t("aids.claims.conflict") })) : null));
    return h("li", { class: `history-row${conflict ? " has-conflict" : ""}`, dataset: { round: r.round } },
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
