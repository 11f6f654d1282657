// The lobby: display name, account and my games (account.js), create a table, public tables
// (join or watch), invite links.
import { botLevels, NO_LEVELS } from "./levels.js";
import { engine } from "./engine.js";
import { playerCounts } from "./catalog.js";
import { h, replace } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { get, post, patch, ensureSession, currentUser, setCurrentUser, rememberedName, errorText } from "./api.js";
import { presetName, timerLabel, tableTitle } from "./format.js";
import { accountPanel, myGamesPanel } from "./account.js";
import { askNotifications } from "./alerts.js";
import { learnPanel } from "./tutorial.js";

const POWERS = ["investigate", "special_election", "peek", "execute"];
// Easy, normal, hard, human-like: the server says which (levels.js, GET /api/bots).
let BOT_LEVELS = NO_LEVELS.levels;
// seconds per decision; the long ones are for play-by-post tables (up to 7 days)
const TIMERS = [null, 30, 60, 90, 120, 300, 3600, 4 * 3600, 86400, 2 * 86400, 7 * 86400];
const POLL_MS = 4000;
// The custom settings start from the official rules (the engine's, GET /api/rules).
const BASE = "official";

export function mountLobby(root, params = {}) {
  const base = engine.settings[BASE] || {};
  const form = {
    players: 5, preset: "official", public: true, bots: 4, level: NO_LEVELS.default, timer: null, rated: false, bots_talk: true,
    custom: false, powers: null, hitler_zone: base.hitler_zone, veto_zone: base.veto_zone, fascists: "", hitler_knows: "auto",
    deck_l: base.deck && base.deck.liberal, deck_f: base.deck && base.deck.fascist,
    start_l: base.start_track && base.start_track.liberal, start_f: base.start_track && base.start_track.fascist, name: "", webhook: "",
  };
  let tables = null;
  let me = null;
  let pollTimer = null;
  let destroyed = false;
  let busy = false;
  let inviteTable = null;

  const errorBox = h("div", { class: "error-box", role: "alert" });
  const nameInput = h("input", {
    id: "name", type: "text", maxlength: "24", autocomplete: "nickname", value: rememberedName(), required: true,
  });
  const page = h("div", { class: "lobby-page" });
  replace(root, page);
  const myGames = myGamesPanel();
  const account = accountPanel((user) => {
    me = user;
    if (user && user.name) nameInput.value = user.name;
    myGames.refresh();
  });

  function showError(code, message, field) {
    replace(errorBox, h("p", { class: "error" }, icon("warning"), h("span", { text: errorText(code, message, null, field) })));
  }
  function showText(text) { replace(errorBox, h("p", { class: "error" }, icon("warning"), h("span", { text }))); }
  function clearError() { replace(errorBox); }

  async function session() {
    let name = nameInput.value.trim();
    const user = await currentUser();
    if (!name && user && user.name) {
      // signed in, and the click came before the lobby had shown the name: it is the user's
      name = user.name;
      nameInput.value = name;
    }
    if (!name) {
      showText(t("lobby.display_name.required"));
      nameInput.focus();
      throw new Error("no name");
    }
    if (user && user.name !== name) {
      // a new name for the same user (seats, games and any account stay): PATCH, not a new guest
      const data = await patch("/api/account", { name });
      me = { ...user, name: data.name };
      setCurrentUser(me);
      return me;
    }
    me = await ensureSession(name);
    return me;
  }

  /** The slots offered when a custom board is first opened: the official board of this size. */
  function boardFor(players) {
    const table = (engine.tables[BASE] || {})[players];
    return table ? table.board.slice() : [];
  }

  function rulesValue() {
    if (!form.custom) return form.preset;
    const rules = { preset: form.preset, powers: form.powers || boardFor(form.players) };
    rules.hitler_zone = Number(form.hitler_zone);
    rules.veto_zone = Number(form.veto_zone);
    if (form.fascists !== "") rules.fascists = Number(form.fascists);
    rules.hitler_knows_fascists = form.hitler_knows === "auto" ? "auto" : form.hitler_knows === "yes";
    rules.deck = { liberal: Number(form.deck_l), fascist: Number(form.deck_f) };
    rules.start_track = { liberal: Number(form.start_l), fascist: Number(form.start_f) };
    return rules;
  }

  async function create(ev) {
    ev.preventDefault();
    if (busy) return;
    askNotifications(); // the creator sits down: "your turn" may come while the tab is hidden
    clearError();
    try {
      await session();
    } catch (err) {
      if (err.code) showError(err.code, err.message, err.field);
      return;
    }
    busy = true;
    try {
      const bots = {};
      for (let s = 1; s <= Math.min(form.bots, form.players - 1); s++) bots[String(s)] = form.level;
      const body = {
        players: Number(form.players), rules: rulesValue(), public: form.public, bots,
        bot_level: form.level, timer: form.timer,
      };
      if (form.name.trim()) body.name = form.name.trim();
      if (form.webhook.trim()) body.webhook = form.webhook.trim();
      if (!form.bots_talk) body.bots_talk = false; // the bots' table talk (docs/talk.md)
      // a rated table (docs/ratings.md): official rules, people only, public
      if (form.rated) Object.assign(body, { rated: true, rules: "official", public: true, bots: {} });
      const table = await post("/api/tables", body);
      location.hash = `#/t/${encodeURIComponent(table.id)}`;
    } catch (err) {
      showError(err.code, err.message, err.field);
    } finally {
      busy = false;
    }
  }

  async function join(table, seat) {
    askNotifications();
    clearError();
    try {
      await session();
      const body = {};
      if (seat !== undefined) body.seat = seat;
      if (table.invite || params.invite) body.invite = table.invite || params.invite;
      await post(`/api/tables/${encodeURIComponent(table.id)}/join`, body);
      location.hash = `#/t/${encodeURIComponent(table.id)}`;
    } catch (err) {
      if (err.code) showError(err.code, err.message, err.field);
    }
  }

  function watch(table) {
    // Watching needs no name: anonymous spectators may follow a game.
    const code = table.invite || params.invite;
    location.hash = `#/t/${encodeURIComponent(table.id)}${code ? `?invite=${encodeURIComponent(code)}` : ""}`;
  }

  /** The server's levels; until it answers, the menu is empty and tables get its default. */
  async function askLevels() {
    if (BOT_LEVELS.length) return;
    try {
      const bots = await botLevels();
      BOT_LEVELS = bots.levels;
      form.level = bots.default;
    } catch { /* asked again at the next refresh */ }
  }

  async function refresh() {
    if (!BOT_LEVELS.length) askLevels().then(() => { if (BOT_LEVELS.length && !destroyed) render(); });
    try {
      const data = await get("/api/tables");
      tables = (data && data.tables) || [];
      renderTables();
    } catch (err) {
      tables = tables || [];
      renderTables(err);
    }
    if (!destroyed) pollTimer = setTimeout(refresh, POLL_MS);
  }

  // ------------------------------------------------------------------ rendering
  const tablesBox = h("div", { class: "tables-box" });

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

  function renderCustom() {
    if (!form.custom) return null;
    const powers = form.powers || boardFor(form.players);
    const track = engine.tracks || {}; // a zone is a slot of the fascist track; the start leaves the last slot free
    const slots = powers.map((p, i) => field(`power-${i}`, "lobby.custom.slot",
      select(`power-${i}`, [["", t("lobby.custom.power.none")], ...POWERS.map((k) => [k, t(`power.${k}`)])], p || "",
        (v) => { const next = (form.powers || boardFor(form.players)).slice(); next[i] = v || null; form.powers = next; })));
    // "Slot N" labels: fill in the number
    slots.forEach((el, i) => { el.querySelector("label").textContent = t("lobby.custom.slot", { slot: i + 1 }); });
    return h("fieldset", { class: "custom" },
      h("legend", { text: t("lobby.custom.title") }),
      h("fieldset", { class: "powers" }, h("legend", { text: t("lobby.custom.powers") }), h("div", { class: "slots-grid" }, slots)),
      h("div", { class: "grid-2" },
        field("hitler-zone", "lobby.custom.hitler_zone", numberInput("hitler-zone", form.hitler_zone, 1, track.fascist, (v) => { form.hitler_zone = v; }), "lobby.custom.hitler_zone.hint"),
        field("veto-zone", "lobby.custom.veto_zone", numberInput("veto-zone", form.veto_zone, 1, track.fascist, (v) => { form.veto_zone = v; }), "lobby.custom.veto_zone.hint"),
        field("fascists", "lobby.custom.fascists", select("fascists", [["", t("lobby.custom.fascists.auto")], ...[1, 2, 3, 4].map((k) => [k, String(k)])], form.fascists, (v) => { form.fascists = v; })),
        field("hitler-knows", "lobby.custom.hitler_knows", select("hitler-knows", [["auto", t("lobby.custom.hitler_knows.auto")], ["yes", t("lobby.custom.hitler_knows.yes")], ["no", t("lobby.custom.hitler_knows.no")]], form.hitler_knows, (v) => { form.hitler_knows = v; }))),
      h("fieldset", { class: "grid-2" }, h("legend", { text: t("lobby.custom.deck") }),
        field("deck-l", "lobby.custom.deck.liberal", numberInput("deck-l", form.deck_l, 0, 30, (v) => { form.deck_l = v; })),
        field("deck-f", "lobby.custom.deck.fascist", numberInput("deck-f", form.deck_f, 0, 30, (v) => { form.deck_f = v; }))),
      h("fieldset", { class: "grid-2" }, h("legend", { text: t("lobby.custom.start_track") }),
        field("start-l", "lobby.custom.start_track.liberal", numberInput("start-l", form.start_l, 0, track.liberal - 1, (v) => { form.start_l = v; })),
        field("start-f", "lobby.custom.start_track.fascist", numberInput("start-f", form.start_f, 0, track.fascist - 1, (v) => { form.start_f = v; }))),
      h("button", { type: "button", class: "btn btn-secondary", onclick: () => { form.custom = false; form.powers = null; render(); } }, t("lobby.custom.reset")));
  }

  function renderCreate() {
    const players = select("players", playerCounts(engine.tables[BASE]).map((n) => [n, t("lobby.create.players_value", { count: n })]), form.players,
      (v) => { form.players = Number(v); form.bots = Math.min(form.bots, form.players - 1); form.powers = null; render(); });
    const presetSel = select("preset", engine.presets.map((p) => [p, t(`preset.${p}.name`)]), form.preset,
      (v) => { form.preset = v; render(); }, { "aria-describedby": "preset-hint" });
    const vis = h("fieldset", { class: "radios" }, h("legend", { text: t("lobby.visibility") }),
      ["public", "private"].map((k) => h("label", { class: "radio" },
        h("input", { type: "radio", name: "visibility", value: k, checked: (k === "public") === form.public, onchange: () => { form.public = k === "public"; } }),
        h("span", {}, h("strong", { text: t(`lobby.visibility.${k}`) }), h("span", { class: "hint", text: t(`lobby.visibility.${k}.hint`) })))));
    const bots = select("bots", Array.from({ length: form.players }, (_, i) => [i, String(i)]), form.bots, (v) => { form.bots = Number(v); });
    const level = select("level", BOT_LEVELS.map((l) => [l, t(`bot.level.${l}`)]), form.level, (v) => { form.level = v; render(); }, { "aria-describedby": "level-hint", disabled: !BOT_LEVELS.length });
    const timer = select("timer", TIMERS.map((s) => [s === null ? "" : s, timerLabel(s)]), form.timer === null ? "" : form.timer,
      (v) => { form.timer = v === "" ? null : Number(v); }, { "aria-describedby": "timer-hint" });
    return h("form", { class: "create card-panel", onsubmit: create, "aria-labelledby": "create-title" },
      h("h2", { id: "create-title", text: t("lobby.create.title") }),
      h("div", { class: "grid-2" },
        field("players", "lobby.create.players", players),
        h("div", { class: "field" }, h("label", { for: "preset", text: t("lobby.create.rules") }), presetSel,
          h("p", { class: "hint", id: "preset-hint", text: t(`preset.${form.preset}.description`) }))),
      form.custom ? renderCustom() : h("button", {
        type: "button", class: "btn-link", onclick: () => { form.custom = true; form.powers = boardFor(form.players); render(); },
      }, t("lobby.custom.toggle")),
      vis,
      h("label", { class: "radio" },
        h("input", { type: "checkbox", id: "rated", checked: form.rated, onchange: (ev) => { form.rated = ev.target.checked; } }),
        h("span", {}, h("strong", { text: t("lobby.rated") }), h("span", { class: "hint", text: t("lobby.rated.hint") }))),
      h("fieldset", { class: "grid-2" }, h("legend", { text: t("lobby.bots") }),
        field("bots", "lobby.bots.count", bots),
        h("div", { class: "field" }, h("label", { for: "level", text: t("lobby.bots.level") }), level,
          h("p", { class: "hint", id: "level-hint", text: form.level ? t(`bot.level.${form.level}.description`) : "" })),
        h("label", { class: "radio" },
          h("input", { type: "checkbox", id: "bots-talk", checked: form.bots_talk, onchange: (ev) => { form.bots_talk = ev.target.checked; } }),
          h("span", {}, h("strong", { text: t("lobby.bots_talk") }), h("span", { class: "hint", text: t("lobby.bots_talk.hint") })))),
      h("div", { class: "field" }, h("label", { for: "timer", text: t("lobby.timer") }), timer,
        h("p", { class: "hint", id: "timer-hint", text: t("lobby.timer.hint") })),
      field("table-name", "lobby.table_name", h("input", { id: "table-name", type: "text", maxlength: "24", value: form.name, oninput: (ev) => { form.name = ev.target.value; } })),
      field("webhook", "lobby.webhook", h("input", { id: "webhook", type: "url", maxlength: "512", inputmode: "url", value: form.webhook, "aria-describedby": "webhook-hint", oninput: (ev) => { form.webhook = ev.target.value; } }), "lobby.webhook.hint"),
      h("button", { type: "submit", class: "btn btn-primary big", dataset: { fkey: "create" } }, icon("play"), h("span", { text: t("lobby.create.submit") })));
  }

  function tableCard(table, { invite = false } = {}) {
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
        status === "waiting" && free ? h("button", { type: "button", class: "btn btn-primary", onclick: () => join(table), dataset: { fkey: `join-${table.id}` } }, t("lobby.join")) : null,
        h("button", { type: "button", class: "btn btn-secondary", onclick: () => watch(table), dataset: { fkey: `watch-${table.id}` } }, icon("eye"), h("span", { text: t("lobby.spectate") })),
        invite ? null : null));
  }

  function renderTables(err) {
    const parts = [h("h2", { id: "tables-title", text: t("lobby.tables.title") })];
    if (err) parts.push(h("p", { class: "error", text: errorText(err.code, err.message) }));
    if (tables === null) parts.push(h("p", { class: "hint", text: t("app.loading") }));
    else if (!tables.length) parts.push(h("p", { class: "empty", text: t("lobby.tables.empty") }));
    else parts.push(h("ul", { class: "table-list", "aria-labelledby": "tables-title" }, tables.map((tb) => tableCard(tb))));
    replace(tablesBox, parts);
  }

  function render() {
    const nameField = h("div", { class: "field name-field card-panel" },
      h("label", { for: "name", text: t("lobby.display_name") }), nameInput);
    nameInput.placeholder = t("lobby.display_name.placeholder");
    const parts = [
      h("h1", { class: "page-title", text: t("lobby.title") }),
      h("p", { class: "tagline", text: t("app.tagline") }),
      errorBox,
      nameField,
      learnPanel(session, (err) => showError(err.code, err.message, err.field)),
    ];
    if (inviteTable) {
      parts.push(h("section", { class: "invite-box card-panel", "aria-labelledby": "invite-title" },
        h("h2", { id: "invite-title", text: t("lobby.invite") }),
        h("ul", { class: "table-list" }, tableCard(inviteTable, { invite: true }))));
    }
    parts.push(h("div", { class: "lobby-grid" }, myGames.el, account.el));
    parts.push(h("div", { class: "lobby-grid" }, h("section", { class: "card-panel tables-panel", "aria-labelledby": "tables-title" }, tablesBox), renderCreate()));
    replace(page, parts);
    renderTables();
  }

  async function boot() {
    try {
      me = await currentUser();
      if (me && !nameInput.value) nameInput.value = me.name;
    } catch { /* offline: the list shows the error */ }
    await askLevels();
    if (params.invite) {
      try {
        inviteTable = await get(`/api/invite/${encodeURIComponent(params.invite)}`);
        if (inviteTable && !inviteTable.invite) inviteTable.invite = params.invite;
      } catch (err) {
        showError(err.code, err.message, err.field);
      }
    }
    render();
    refresh();
  }

  render();
  boot();

  return {
    render,
    destroy() { destroyed = true; clearTimeout(pollTimer); myGames.destroy(); },
  };
}
