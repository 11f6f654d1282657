// The lobby's tables: the public tables to join or watch (refreshed by lobby.js), shown by the
// filters (a category, a game type), and the card of one table (also the invite link's table):
// its rules and game types, its category as the server says it, blind names, the chat, the
// timer and what it does. `on`: {join(table), watch(table), filter(name, value)}.
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { errorText } from "./api.js";
import { engine } from "./engine.js";
import { tableTitle, timerLabel } from "./format.js";
import { rulesName } from "./talk.js";
import { shownTables } from "./lobby-state.js";
import { ratingLimitText } from "./queue.js";

/** The table's own settings, as tags: blind names, a chat that is not free, a timer, and random
 * moves when it runs out (secrethitler.io's timed mode; a stand-in's move, the default, is not
 * tagged). */
function tags(table) {
  const out = [];
  if (table.blind) out.push(h("span", { class: "tag tag-blind", text: t("lobby.tag.blind") }));
  if (table.chat && table.chat !== "free") out.push(h("span", { class: `tag tag-chat-${table.chat}`, text: t(`lobby.chat_mode.${table.chat}`) }));
  if (table.timer) out.push(h("span", { class: "tag tag-timer" }, icon("timer"), h("span", { text: timerLabel(table.timer) })));
  if (table.timer && table.on_timeout === "random") out.push(h("span", { class: "tag tag-random-moves", text: t("lobby.tag.random_moves") }));
  if (table.kind === "newbie" || table.kind === "queue" || table.kind === "tournament") out.push(h("span", { class: `tag tag-${table.kind}`, text: t(`lobby.kind.${table.kind}`) }));
  const limit = ratingLimitText(table);
  if (limit) out.push(h("span", { class: "tag tag-rating-limit", text: limit }));
  return out;
}

/** One table: its name, players, rules, category, status and host, and "Join" (a free seat in a
 * waiting table) and "Watch". */
export function tableCard(table, on) {
  const seats = table.seats || [];
  const taken = seats.filter((s) => s.kind !== "empty").length;
  const free = seats.some((s) => s.kind === "empty");
  const status = table.status || "waiting";
  const extra = tags(table);
  return h("li", { class: `table-card status-${status}` },
    h("div", { class: "table-card-main" },
      h("h3", { text: table.kind === "newbie" && !table.name ? t("lobby.kind.newbie") : tableTitle(table) }),
      h("dl", { class: "facts inline" },
        h("dt", { text: t("lobby.tables.col.players") }), h("dd", { text: t("lobby.tables.players_value", { count: taken, max: table.players }) }),
        h("dt", { text: t("lobby.tables.col.rules") }), h("dd", { text: rulesName(table) }),
        table.category ? [h("dt", { text: t("lobby.category") }),
          h("dd", {}, h("span", { class: `category-tag category-${table.category}`, text: t(`category.${table.category}`) }))] : null,
        h("dt", { text: t("lobby.tables.col.status") }), h("dd", { text: t(`lobby.status.${status}`) }),
        table.host_name ? [h("dt", { text: t("lobby.host") }), h("dd", { text: table.host_name })] : null),
      extra.length ? h("p", { class: "table-tags" }, extra) : null),
    h("div", { class: "table-card-actions" },
      status === "waiting" && free ? h("button", { type: "button", class: "btn btn-primary", onclick: () => on.join(table), dataset: { fkey: `join-${table.id}` } }, t("lobby.join")) : null,
      h("button", { type: "button", class: "btn btn-secondary", onclick: () => on.watch(table), dataset: { fkey: `watch-${table.id}` } }, icon("eye"), h("span", { text: t("lobby.spectate") }))));
}

/** The filters: a category (the catalog's) and a game type (a standard game, or one of the
 * catalog's game-type settings). */
function filters(state, on) {
  const categories = (engine.categories && engine.categories.order) || [];
  const types = Object.entries(engine.gameTypes || {}); // named short: gametype.<setting>
  const menu = (id, name, label, options) => h("div", { class: "field" },
    h("label", { for: id, text: label }),
    h("select", { id, onchange: (ev) => on.filter(name, ev.target.value) },
      options.map(([v, words]) => h("option", { value: v, selected: state.filter[name] === v }, words))));
  return h("div", { class: "table-filters grid-2", role: "group", "aria-label": t("lobby.filter") },
    menu("filter-category", "category", t("lobby.category"),
      [["all", t("lobby.filter.all")], ...categories.map((c) => [c, t(`category.${c}`)])]),
    menu("filter-type", "type", t("lobby.game_type"),
      [["all", t("lobby.filter.all")], ["standard", t("lobby.filter.standard")], ...types.map(([name]) => [name, t(`gametype.${name}`)])]));
}

/** The public tables' panel content: the title, the filters, then the list, "loading", "none"
 * or the error of the last refresh (with the list it had). */
export function tablesList(state, on) {
  const parts = [h("h2", { id: "tables-title", text: t("lobby.tables.title") })];
  const err = state.tablesError;
  if (err) parts.push(h("p", { class: "error", text: errorText(err.code, err.message) }));
  if (state.tables === null) {
    parts.push(h("p", { class: "hint", text: t("app.loading") }));
    return parts;
  }
  if (!state.tables.length) {
    parts.push(h("p", { class: "empty", text: t("lobby.tables.empty") }));
    return parts;
  }
  parts.push(filters(state, on));
  // a new-player table first: where a newcomer looks (docs/competitive.md "New-player tables")
  const shown = [...shownTables(state)].sort((a, b) => (b.kind === "newbie") - (a.kind === "newbie"));
  if (!shown.length) parts.push(h("p", { class: "empty", text: t("lobby.filter.empty") }));
  else parts.push(h("ul", { class: "table-list", "aria-labelledby": "tables-title" }, shown.map((tb) => tableCard(tb, on))));
  return parts;
}
