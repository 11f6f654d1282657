// The lobby's create-table form: table size and rules (a preset, its game types, or custom
// settings starting from the official rules), public or private, the category, bots and their
// level, the decision timer and who moves when it runs out, the chat, blind names, a name and a
// webhook. It draws the form state
// (lobby-state.js) and reports each change to `on`: {set(name, value, redraw), players(n),
// custom(open), power(slot, power), submit(ev)}; `on.categoryEl` is where the lobby shows the
// server's word on the table's category (lobby.js, POST /api/tables/check).
import { engine } from "./engine.js";
import { playerCounts } from "./catalog.js";
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { t, has } from "./i18n.js";
import { limits } from "./limits.js";
import { timerLabel } from "./format.js";
import { errorText } from "./api.js";

const POWERS = ["investigate", "special_election", "peek", "execute"];
// seconds per decision; the long ones are for play-by-post tables (up to 7 days)
const TIMERS = [null, 30, 60, 90, 120, 300, 3600, 4 * 3600, 86400, 2 * 86400, 7 * 86400];
// The custom settings start from the official rules (the engine's, GET /api/rules).
export const BASE = "official";

/** The slots offered when a custom board is first opened: the official board of this size. */
export function boardFor(players) {
  const table = (engine.tables[BASE] || {})[players];
  return table ? table.board.slice() : [];
}

function field(id, labelKey, control, hintKey) {
  return h("div", { class: "field" },
    h("label", { for: id, text: t(labelKey) }), control,
    hintKey ? h("p", { class: "hint", id: `${id}-hint`, text: t(hintKey) }) : null);
}

function select(id, options, value, onchange, extra = {}) {
  return h("select", { id, onchange: (ev) => onchange(ev.target.value), ...extra },
    options.map(([v, label]) => h("option", { value: v, selected: String(v) === String(value) }, label)));
}

function numberInput(id, value, min, max, onchange) {
  return h("input", { id, type: "number", inputmode: "numeric", min, max, value, onchange: (ev) => onchange(ev.target.value) });
}

function checkbox(id, checked, labelKey, onchange) {
  return h("label", { class: "radio" },
    h("input", { type: "checkbox", id, checked, onchange: (ev) => onchange(ev.target.checked) }),
    h("span", {}, h("strong", { text: t(labelKey) }), h("span", { class: "hint", text: t(`${labelKey}.hint`) })));
}

/** The custom board's slots: one power (or none) per fascist slot. */
function powerSlots(form, on) {
  const powers = form.powers || boardFor(form.players);
  const options = [["", t("lobby.custom.power.none")], ...POWERS.map((k) => [k, t(`power.${k}`)])];
  return powers.map((p, i) => {
    const el = field(`power-${i}`, "lobby.custom.slot", select(`power-${i}`, options, p || "", (v) => on.power(i, v)));
    el.querySelector("label").textContent = t("lobby.custom.slot", { slot: i + 1 }); // "Slot N"
    return el;
  });
}

/** The custom settings: the board's powers, the zones, the team, the deck, the tracks' start. */
function customFields(form, on) {
  const track = engine.tracks || {}; // a zone is a slot of the fascist track; the start leaves the last slot free
  const set = (name) => (v) => on.set(name, v);
  const choice = (id, key, values, name) => field(id, key, select(id, values, form[name], set(name)));
  return h("fieldset", { class: "custom" },
    h("legend", { text: t("lobby.custom.title") }),
    h("fieldset", { class: "powers" }, h("legend", { text: t("lobby.custom.powers") }), h("div", { class: "slots-grid" }, powerSlots(form, on))),
    h("div", { class: "grid-2" },
      field("hitler-zone", "lobby.custom.hitler_zone", numberInput("hitler-zone", form.hitler_zone, 1, track.fascist, set("hitler_zone")), "lobby.custom.hitler_zone.hint"),
      field("veto-zone", "lobby.custom.veto_zone", numberInput("veto-zone", form.veto_zone, 1, track.fascist, set("veto_zone")), "lobby.custom.veto_zone.hint"),
      choice("fascists", "lobby.custom.fascists", [["", t("lobby.custom.fascists.auto")], ...[1, 2, 3, 4].map((k) => [k, String(k)])], "fascists"),
      choice("hitler-knows", "lobby.custom.hitler_knows", ["auto", "yes", "no"].map((k) => [k, t(`lobby.custom.hitler_knows.${k}`)]), "hitler_knows")),
    h("fieldset", { class: "grid-2" }, h("legend", { text: t("lobby.custom.deck") }),
      field("deck-l", "lobby.custom.deck.liberal", numberInput("deck-l", form.deck_l, 0, 30, set("deck_l"))),
      field("deck-f", "lobby.custom.deck.fascist", numberInput("deck-f", form.deck_f, 0, 30, set("deck_f")))),
    h("fieldset", { class: "grid-2" }, h("legend", { text: t("lobby.custom.start_track") }),
      field("start-l", "lobby.custom.start_track.liberal", numberInput("start-l", form.start_l, 0, track.liberal - 1, set("start_l"))),
      field("start-f", "lobby.custom.start_track.fascist", numberInput("start-f", form.start_f, 0, track.fascist - 1, set("start_f")))),
    h("button", { type: "button", class: "btn btn-secondary", onclick: () => on.custom(false) }, t("lobby.custom.reset")));
}

/** A switch with its label and hint given as texts. */
function switchField(id, checked, label, hint, onchange) {
  return h("label", { class: "radio" },
    h("input", { type: "checkbox", id, checked, onchange: (ev) => onchange(ev.target.checked) }),
    h("span", {}, h("strong", { text: label }), hint ? h("span", { class: "hint", text: hint }) : null));
}

/** secrethitler.io's game types (docs/game-types.md), as the engine's catalog offers them
 * (`engine.gameTypes`: each setting's values, default and label keys): Avalon SH, the
 * Monarchist, the rebalanced table of this size, top-decking. */
function gameTypeFields(form, on) {
  const types = engine.gameTypes || {};
  const parts = [];
  const menu = (name) => {
    const setting = types[name];
    const id = `gt-${name}`;
    const options = setting.values.map((v) => [v, t(setting.value_labels[String(v)])]);
    const hint = has(`${setting.label}.hint`) ? `${setting.label}.hint` : null;
    return field(id, setting.label, select(id, options, form[name], (v) => on.set(name, v)), hint);
  };
  if (types.avalon) parts.push(menu("avalon"));
  if (types.monarchist) parts.push(checkbox("gt-monarchist", form.monarchist, types.monarchist.label, (v) => on.set("monarchist", v)));
  if (types.rebalanced && types.rebalanced.values.includes(form.players)) {
    const setting = types.rebalanced;
    parts.push(switchField("gt-rebalanced", form.rebalance, t(setting.label), t(setting.value_labels[String(form.players)]),
      (v) => on.set("rebalance", v)));
  }
  if (types.top_decking) parts.push(menu("top_decking"));
  return parts.length ? h("fieldset", { class: "game-types" }, h("legend", { text: t("lobby.game_type") }), parts) : null;
}

/** The table size and the rules: a preset, and the custom settings (or the link that opens them). */
function rulesFields(form, on) {
  const players = select("players", playerCounts(engine.tables[BASE]).map((n) => [n, t("lobby.create.players_value", { count: n })]), form.players,
    (v) => on.players(Number(v)));
  const preset = select("preset", engine.presets.map((p) => [p, t(`preset.${p}.name`)]), form.preset,
    (v) => on.set("preset", v, true), { "aria-describedby": "preset-hint" });
  return [
    h("div", { class: "grid-2" },
      field("players", "lobby.create.players", players),
      h("div", { class: "field" }, h("label", { for: "preset", text: t("lobby.create.rules") }), preset,
        h("p", { class: "hint", id: "preset-hint", text: t(`preset.${form.preset}.description`) }))),
    gameTypeFields(form, on),
    form.custom ? customFields(form, on) : h("button", {
      type: "button", class: "btn-link", onclick: () => on.custom(true),
    }, t("lobby.custom.toggle")),
  ];
}

/** The category the host chooses (rated, practice, casual: the catalog's, but custom, which
 * only changed rules make), and under it the server's word on these settings (`on.categoryEl`). */
function categoryFields(form, on) {
  const order = (engine.categories && engine.categories.order) || [];
  return h("fieldset", { class: "radios category" }, h("legend", { text: t("lobby.category") }),
    order.filter((c) => has(`lobby.category.${c}.hint`)).map((c) => h("label", { class: "radio" },
      h("input", { type: "radio", name: "category", value: c, checked: form.category === c, onchange: () => on.set("category", c) }),
      h("span", {}, h("strong", { text: t(`category.${c}`) }), h("span", { class: "hint", text: t(`lobby.category.${c}.hint`) })))),
    on.categoryEl || null);
}

/** The server's word on the form's table (POST /api/tables/check): its category and why, or
 * why it would be refused. */
export function categoryResult(check) {
  if (!check) return [h("p", { class: "hint", text: t("lobby.category.checking") })];
  if (check.problem) {
    const p = check.problem;
    return [h("p", { class: "error" }, icon("warning"), h("span", { text: errorText(p.code, p.message, null, p.field) }))];
  }
  const seconds = engine.categories ? engine.categories.fast_timer_s : null;
  return [
    h("p", { class: `category-result category-${check.category}` },
      h("strong", { text: t("lobby.category.result", { category: t(`category.${check.category}`) }) })),
    check.category_reasons.length ? h("ul", { class: "hint category-reasons" },
      check.category_reasons.map((key) => h("li", { text: t(key, { seconds }) }))) : null,
  ];
}

/** Who plays: public or private, the category, the bots and their level, whether they talk. */
function seatingFields(state, on) {
  const form = state.form;
  const visibility = h("fieldset", { class: "radios" }, h("legend", { text: t("lobby.visibility") }),
    ["public", "private"].map((k) => h("label", { class: "radio" },
      h("input", { type: "radio", name: "visibility", value: k, checked: (k === "public") === form.public, onchange: () => on.set("public", k === "public") }),
      h("span", {}, h("strong", { text: t(`lobby.visibility.${k}`) }), h("span", { class: "hint", text: t(`lobby.visibility.${k}.hint`) })))));
  const bots = select("bots", Array.from({ length: form.players }, (_, i) => [i, String(i)]), form.bots, (v) => on.set("bots", Number(v)));
  // every level plays every game type (docs/bots.md "Game types")
  const level = select("level", state.levels.map((l) => [l, t(`bot.level.${l}`)]), form.level, (v) => on.set("level", v, true),
    { "aria-describedby": "level-hint", disabled: !state.levels.length });
  return [
    visibility,
    categoryFields(form, on),
    h("fieldset", { class: "grid-2" }, h("legend", { text: t("lobby.bots") }),
      field("bots", "lobby.bots.count", bots),
      h("div", { class: "field" }, h("label", { for: "level", text: t("lobby.bots.level") }), level,
        h("p", { class: "hint", id: "level-hint", text: form.level ? t(`bot.level.${form.level}.description`) : "" })),
      // bots talk only where the chat is free
      form.chat === "free" ? checkbox("bots-talk", form.bots_talk, "lobby.bots_talk", (v) => on.set("bots_talk", v)) : null),
  ];
}

/** Who moves when the timer runs out (a table with a timer): its stand-in bot, or a random move
 * (secrethitler.io's timed mode); the choices are the engine's (`on_timeout_modes`). */
function onTimeoutField(form, on) {
  if (form.timer === null) return null;
  const modes = (engine.categories && engine.categories.on_timeout_modes) || [];
  if (modes.length < 2) return null;
  return field("on-timeout", "lobby.on_timeout",
    select("on-timeout", modes.map((m) => [m, t(`lobby.on_timeout.${m}`)]), form.on_timeout, (v) => on.set("on_timeout", v),
      { "aria-describedby": "on-timeout-hint" }), "lobby.on_timeout.hint");
}

/** The timer, the table's name and its webhook (a text field: `on.set` as it is typed). */
function tableFields(form, on) {
  const timer = select("timer", TIMERS.map((s) => [s === null ? "" : s, timerLabel(s)]), form.timer === null ? "" : form.timer,
    (v) => on.set("timer", v === "" ? null : Number(v), true), { "aria-describedby": "timer-hint" });
  const typed = (name) => (ev) => on.set(name, ev.target.value);
  const chats = ((engine.categories && engine.categories.chat_modes) || ["free"]).map((c) => [c, t(`lobby.chat_mode.${c}`)]);
  return [
    h("div", { class: "field" }, h("label", { for: "timer", text: t("lobby.timer") }), timer,
      h("p", { class: "hint", id: "timer-hint", text: t("lobby.timer.hint") })),
    onTimeoutField(form, on),
    field("chat-mode", "lobby.chat_mode", select("chat-mode", chats, form.chat, (v) => on.set("chat", v, true)), "lobby.chat_mode.hint"),
    checkbox("blind", form.blind, "lobby.blind", (v) => on.set("blind", v)),
    field("table-name", "lobby.table_name", h("input", { id: "table-name", type: "text", maxlength: limits.name_max, value: form.name, oninput: typed("name") })),
    field("webhook", "lobby.webhook", h("input", {
      id: "webhook", type: "url", maxlength: limits.webhook_max, inputmode: "url", value: form.webhook, "aria-describedby": "webhook-hint", oninput: typed("webhook"),
    }), "lobby.webhook.hint"),
    ratingLimitFields(form, on),
  ];
}

/** The rating limit: the least and the most rating a player needs to sit (empty: none); the
 * server checks them (its range: /api/limits) and says why it refuses. */
function ratingLimitFields(form, on) {
  const [low, high] = limits.rating_limit_range || [null, null];
  const input = (id, name) => h("input", {
    id, type: "number", inputmode: "decimal", step: "0.5", min: low, max: high, value: form[name],
    "aria-describedby": "rating-limit-hint", oninput: (ev) => on.set(name, ev.target.value),
  });
  return h("fieldset", { class: "rating-limit" },
    h("legend", { text: t("lobby.rating_limit") }),
    h("div", { class: "grid-2" },
      field("rating-min", "lobby.rating_min", input("rating-min", "rating_min")),
      field("rating-max", "lobby.rating_max", input("rating-max", "rating_max"))),
    h("p", { class: "hint", id: "rating-limit-hint", text: t("lobby.rating_limit.hint") }));
}

/** The whole form, for the lobby state `state`. */
export function createForm(state, on) {
  return h("form", { class: "create card-panel", onsubmit: on.submit, "aria-labelledby": "create-title" },
    h("h2", { id: "create-title", text: t("lobby.create.title") }),
    rulesFields(state.form, on),
    seatingFields(state, on),
    tableFields(state.form, on),
    h("button", { type: "submit", class: "btn btn-primary big", dataset: { fkey: "create" } }, icon("play"), h("span", { text: t("lobby.create.submit") })));
}
