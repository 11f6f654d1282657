// The secret role card (tap to reveal / tap to hide): role, party, what this seat knows of the
// others, its investigations and its last peek. Hidden for spectators.
import { h, replace } from "./dom.js";
import { icon } from "./icons.js";
import { t, list } from "./i18n.js";
import { roleBadge, policyTile } from "./board.js";
import { seatName } from "./format.js";
import { knownOthers } from "./table-facts.js";

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

/** What this seat knows, in sentences. */
function knowledge(ctx) {
  const v = ctx.view;
  const { fellows, hitler } = knownOthers(v, ctx.mySeat);
  const names = list(fellows.map((s) => seatName(ctx, s)));
  const lines = [];
  if (v.role === "liberal") {
    lines.push(t("know.nothing"));
  } else if (v.role === "fascist") {
    if (fellows.length) lines.push(t("know.fellow_fascists", { names }));
    if (hitler !== null) lines.push(t("know.hitler_is", { name: seatName(ctx, hitler) }));
  } else {
    if (fellows.length) lines.push(t("know.fellow_fascists", { names }));
    else lines.push(t("know.nothing"));
    lines.push(t("know.fascists_know_you"));
  }
  return lines;
}
