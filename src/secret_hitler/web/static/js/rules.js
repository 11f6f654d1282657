// The rules page: every word from the catalogs (rules.*), the tables from the engine's official
// setup (GET /api/rules, engine.js): its roles and boards by table size, and its tracks.
import { engine } from "./engine.js";
import { boardGroups, playerCounts } from "./catalog.js";
import { h, replace } from "./dom.js";
import { icon } from "./icons.js";
import { t, has } from "./i18n.js";

const SECTIONS = ["setup", "night", "election", "legislative", "powers", "veto", "chaos", "deck", "winning", "presets"];
const PRESET = "official"; // the rules page explains the official rules

function paragraphs(prefix) {
  const out = [];
  for (let i = 1; has(`${prefix}.p${i}`); i++) out.push(h("p", { text: t(`${prefix}.p${i}`) }));
  return out;
}

function setupTable() {
  const tables = engine.tables[PRESET] || {};
  const counts = playerCounts(tables);
  const row = (key, field) => h("tr", {}, h("th", { scope: "row", text: t(`rules.setup.table.${key}`) }),
    counts.map((n) => h("td", { text: tables[n][field] })));
  return h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": t("rules.setup.title") },
    h("table", { class: "rules-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("rules.setup.table.players") }), counts.map((n) => h("th", { scope: "col", text: n })))),
      h("tbody", {}, row("liberals", "liberals"), row("fascists", "fascists"), row("hitler", "hitler"))));
}

/** A slot of the fascist track: its power, or the win on the last slot; the veto from its slot. */
function powerCell(power, slot, { win, veto }) {
  const parts = [];
  if (slot === win) parts.push(h("span", { class: "power-cell" }, icon("fascist"), h("span", { text: t("board.fascists_win_slot") })));
  else if (power) parts.push(h("span", { class: "power-cell" }, icon(power), h("span", { text: t(`power.${power}`) })));
  else parts.push(h("span", { class: "power-cell muted", text: t("power.none") }));
  if (slot === veto) parts.push(h("span", { class: "power-cell" }, icon("veto"), h("span", { text: t("power.veto_unlocked") })));
  return h("td", {}, parts);
}

function powersTable() {
  // one column per group of table sizes with the same board ("5-6 players", ...)
  const cols = boardGroups(engine.tables[PRESET]);
  const slots = engine.tracks ? engine.tracks.fascist : 0;
  const marks = { win: slots, veto: (engine.settings[PRESET] || {}).veto_zone };
  const colName = (c) => `players_${c.players[0]}_${c.players[c.players.length - 1]}`;
  return h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": t("rules.powers.title") },
    h("table", { class: "rules-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("rules.powers.table.slot") }), cols.map((c) => h("th", { scope: "col", text: t(`rules.powers.table.${colName(c)}`) })))),
      h("tbody", {}, Array.from({ length: slots }, (_, i) => i + 1).map((slot) => h("tr", {},
        h("th", { scope: "row", text: String(slot) }), cols.map((c) => powerCell(c.board[slot - 1], slot, marks)))))));
}

export function mountRules(root) {
  function render() {
    const toc = h("nav", { class: "toc", "aria-label": t("rules.title") },
      h("ol", {}, SECTIONS.map((s) => h("li", {}, h("a", { href: `#/rules/${s}`, onclick: (ev) => { ev.preventDefault(); document.getElementById(`rules-${s}`).scrollIntoView(); document.getElementById(`rules-${s}`).focus(); } }, t(`rules.${s}.title`))))));
    const sections = SECTIONS.map((s) => {
      const body = [h("h2", { id: `rules-${s}`, tabindex: "-1", text: t(`rules.${s}.title`) })];
      const ps = paragraphs(`rules.${s}`);
      if (s === "setup") body.push(ps[0], setupTable(), ps.slice(1));
      else if (s === "powers") {
        body.push(ps[0], powersTable());
        body.push(h("ul", { class: "power-list" }, ["investigate", "special_election", "peek", "execute"].map((p) =>
          h("li", {}, icon(p), h("span", { text: t(`rules.powers.${p}`) })))));
        body.push(ps.slice(1));
      } else if (s === "presets") {
        body.push(ps[0]);
        body.push(h("dl", { class: "presets" }, engine.presets.map((p) => [h("dt", { text: t(`preset.${p}.name`) }), h("dd", { text: t(`preset.${p}.description`) })])));
        body.push(ps.slice(1));
      } else body.push(ps);
      return h("section", { class: "rules-section" }, body);
    });
    replace(root, h("article", { class: "rules-page" },
      h("h1", { class: "page-title", text: t("rules.title") }),
      paragraphs("rules.intro"), toc, sections));
  }
  render();
  return { render, destroy() {} };
}
