// The rules page: every word from the catalogs (rules.*), the tables from the official setup.
import { engine } from "./engine.js";
import { h, replace } from "./dom.js";
import { icon } from "./icons.js";
import { t, has } from "./i18n.js";

const SECTIONS = ["setup", "night", "election", "legislative", "powers", "veto", "chaos", "deck", "winning", "presets"];
// RULES.md S2 and the executive power table.
const ROLE_TABLE = { 5: [3, 1], 6: [4, 1], 7: [4, 2], 8: [5, 2], 9: [5, 3], 10: [6, 3] };
const BOARDS = {
  players_5_6: [null, null, "peek", "execute", "execute"],
  players_7_8: [null, "investigate", "special_election", "execute", "execute"],
  players_9_10: ["investigate", "investigate", "special_election", "execute", "execute"],
};

function paragraphs(prefix) {
  const out = [];
  for (let i = 1; has(`${prefix}.p${i}`); i++) out.push(h("p", { text: t(`${prefix}.p${i}`) }));
  return out;
}

function setupTable() {
  const counts = Object.keys(ROLE_TABLE);
  return h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": t("rules.setup.title") },
    h("table", { class: "rules-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("rules.setup.table.players") }), counts.map((n) => h("th", { scope: "col", text: n })))),
      h("tbody", {},
        h("tr", {}, h("th", { scope: "row", text: t("rules.setup.table.liberals") }), counts.map((n) => h("td", { text: ROLE_TABLE[n][0] }))),
        h("tr", {}, h("th", { scope: "row", text: t("rules.setup.table.fascists") }), counts.map((n) => h("td", { text: ROLE_TABLE[n][1] }))),
        h("tr", {}, h("th", { scope: "row", text: t("rules.setup.table.hitler") }), counts.map(() => h("td", { text: "1" }))))));
}

function powerCell(power, slot) {
  const parts = [];
  if (slot === 6) parts.push(h("span", { class: "power-cell" }, icon("fascist"), h("span", { text: t("board.fascists_win_slot") })));
  else if (power) parts.push(h("span", { class: "power-cell" }, icon(power), h("span", { text: t(`power.${power}`) })));
  else parts.push(h("span", { class: "power-cell muted", text: t("power.none") }));
  if (slot === 5) parts.push(h("span", { class: "power-cell" }, icon("veto"), h("span", { text: t("power.veto_unlocked") })));
  return h("td", {}, parts);
}

function powersTable() {
  const cols = Object.keys(BOARDS);
  return h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": t("rules.powers.title") },
    h("table", { class: "rules-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("rules.powers.table.slot") }), cols.map((c) => h("th", { scope: "col", text: t(`rules.powers.table.${c}`) })))),
      h("tbody", {}, [1, 2, 3, 4, 5, 6].map((slot) => h("tr", {},
        h("th", { scope: "row", text: String(slot) }), cols.map((c) => powerCell(BOARDS[c][slot - 1], slot)))))));
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
