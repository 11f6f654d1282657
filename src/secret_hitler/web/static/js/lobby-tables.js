// The lobby's tables: the public tables to join or watch (refreshed by lobby.js), and the card of
// one table (also the invite link's table). `on`: {join(table), watch(table)}.
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { errorText } from "./api.js";
import { presetName, tableTitle } from "./format.js";

/** One table: its name, players, rules, status and host, and "Join" (a free seat in a waiting
 * table) and "Watch". */
export function tableCard(table, on) {
  const seats = table.seats || [];
  const taken = seats.filter((s) => s.kind !== "empty").length;
  const free = seats.some((s) => s.kind === "empty");
  const status = table.status || "waiting";
  return h("li", { class: `table-card status-${status}` },
    h("div", { class: "table-card-main" },
      h("h3", { text: tableTitle(table) }),
      h("dl", { class: "facts inline" },
        h("dt", { text: t("lobby.tables.col.players") }), h("dd", { text: t("lobby.tables.players_value", { count: taken, max: table.players }) }),
        h("dt", { text: t("lobby.tables.col.rules") }), h("dd", { text: presetName(table.rules) }),
        h("dt", { text: t("lobby.tables.col.status") }), h("dd", { text: t(`lobby.status.${status}`) }),
        table.host_name ? [h("dt", { text: t("lobby.host") }), h("dd", { text: table.host_name })] : null)),
    h("div", { class: "table-card-actions" },
      status === "waiting" && free ? h("button", { type: "button", class: "btn btn-primary", onclick: () => on.join(table), dataset: { fkey: `join-${table.id}` } }, t("lobby.join")) : null,
      h("button", { type: "button", class: "btn btn-secondary", onclick: () => on.watch(table), dataset: { fkey: `watch-${table.id}` } }, icon("eye"), h("span", { text: t("lobby.spectate") }))));
}

/** The public tables' panel content: the title, then the list, "loading", "none" or the error of
 * the last refresh (with the list it had). */
export function tablesList(state, on) {
  const parts = [h("h2", { id: "tables-title", text: t("lobby.tables.title") })];
  const err = state.tablesError;
  if (err) parts.push(h("p", { class: "error", text: errorText(err.code, err.message) }));
  if (state.tables === null) parts.push(h("p", { class: "hint", text: t("app.loading") }));
  else if (!state.tables.length) parts.push(h("p", { class: "empty", text: t("lobby.tables.empty") }));
  else parts.push(h("ul", { class: "table-list", "aria-labelledby": "tables-title" }, state.tables.map((tb) => tableCard(tb, on))));
  return parts;
}
