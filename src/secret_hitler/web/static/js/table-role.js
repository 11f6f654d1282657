// The secret role card (tap to reveal / tap to hide): role, party, what this seat knows of the
// others, its investigations and its last peek. Hidden for spectators.
import { h, replace } from "./dom.js";
import { icon } from "./icons.js";
import { t, list, has } from "./i18n.js";
import { roleBadge, policyTile } from "./board.js";
import { seatName } from "./format.js";
import { knownOthers, specialRoles } from "./table-facts.js";

/** `onToggle()`: the card was tapped (the page flips `revealed` and redraws what shows roles). */
export function roleCard(onToggle) {
  const el = h("section", { class: "area area-role" });

  /** `ctx`: the table page's context (view, mySeat, showRoles: the card is open). */
  function render(ctx) {
    const v = ctx.view;
    if (ctx.mySeat === null || !v.role) { el.hidden = true; replace(el); return; }
    el.hidden = false;
    const open = ctx.showRoles;
    const toggle = h("button", {
      type: "button", class: `btn role-toggle${open ? " open" : ""}`, "aria-expanded": open ? "true" : "false",
      "aria-controls": "role-secret", dataset: { fkey: "role-toggle" }, onclick: onToggle,
    }, icon(open ? "eye_off" : "eye"), h("span", { text: t(open ? "table.hide" : "table.reveal") }));
    const parts = [h("div", { class: "role-head" },
      h("h2", { id: "role-title" }, icon("lock"), h("span", { text: t("table.your_role") })), toggle)];
    if (open) {
      const secret = [h("div", { class: "role-main" }, roleBadge(v.role, { big: true }),
        h("p", { class: "party-line", text: `${t("table.your_party")}: ${t(`party.${v.party}`)}` }))];
      secret.push(h("ul", { class: "knowledge" }, knowledge(ctx).map((line) => h("li", { text: line }))));
      const inv = v.investigations || [];
      if (inv.length) {
        secret.push(h("h3", { text: t("investigation.title") }),
          h("ul", { class: "knowledge" }, inv.map(([target, party]) => h("li", { class: `party-${party}` }, icon(party),
            h("span", { text: t("investigation.result", { name: seatName(ctx, target), party: t(`party.inline.${party}`) }) })))));
      }
      const peeks = (v.events || []).filter((e) => e.type === "peek");
      if (peeks.length) {
        const last = peeks[peeks.length - 1];
        secret.push(h("h3", { text: t("peek.title") }),
          h("div", { class: "hand small" }, last.policies.map((p) => policyTile(p, { small: true }))));
      }
      secret.push(h("p", { class: "hint", text: t("table.role_secret") }));
      parts.push(h("div", { id: "role-secret", class: `role-secret party-${v.party}` }, secret));
    }
    replace(el, parts);
    el.setAttribute("aria-labelledby", "role-title");
  }

  return { el, render };
}

/** What this seat knows, in sentences: what its role was shown at the deal (the view's
 * `known_roles`, `known_parties`, `merlin_candidates`), and what a role of secrethitler.io's
 * game types is for. */
function knowledge(ctx) {
  const v = ctx.view;
  const { fellows, hitler, fascists } = knownOthers(v, ctx.mySeat);
  const names = (seats) => list(seats.map((s) => seatName(ctx, s)));
  const lines = [];
  const special = specialRoles(v);
  if (special.length) {
    const roles = special.map(([role, count]) => (count > 1 ? `${t(`role.${role}`)} ×${count}` : t(`role.${role}`)));
    lines.push(t("table.composition", { roles: list(roles) }));
  }
  if (has(`role.about.${v.role}`)) lines.push(t(`role.about.${v.role}`));
  const dealt = (role) => special.some(([r]) => r === role);
  if (v.role === "liberal") {
    lines.push(t("know.nothing"));
  } else if (v.role === "merlin") {
    lines.push(t("know.merlin_sees", { names: names(fascists) }));
  } else if (v.role === "percival") {
    const [first, second] = v.merlin_candidates || [];
    if (first !== undefined) lines.push(t("know.merlin_candidates", { first: seatName(ctx, first), second: seatName(ctx, second) }));
  } else if (v.role === "hitler") {
    lines.push(fellows.length ? t("know.fellow_fascists", { names: names(fellows) }) : t("know.nothing"));
    lines.push(t("know.fascists_know_you"));
    if (dealt("monarchist")) lines.push(t("know.monarchist_unaware"));
  } else {
    if (fellows.length) lines.push(t("know.fellow_fascists", { names: names(fellows) }));
    if (hitler !== null) lines.push(t("know.hitler_is", { name: seatName(ctx, hitler) }));
    else if (v.role === "monarchist") lines.push(t("know.hitler_unknown"));
  }
  return lines;
}
