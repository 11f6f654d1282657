// The lobby: display name, account and my games (account.js), create a table (lobby-create.js),
// public tables to join or watch and an invite link's table (lobby-tables.js). This module wires
// them: what the server answers and what the person does is folded into the lobby state
// (lobby-state.js), and the views are drawn from it.
import { botLevels } from "./levels.js";
import { engine } from "./engine.js";
import { h, replace, redraw } from "./dom.js";
import { icon } from "./icons.js";
import { t, language } from "./i18n.js";
import { limits } from "./limits.js";
import { get, post, patch, ensureSession, currentUser, setCurrentUser, rememberedName, errorText } from "./api.js";
import { accountPanel, myGamesPanel } from "./account.js";
import { askNotifications } from "./alerts.js";
import { learnPanel } from "./tutorial.js";
import { initialState, reduce, createBody } from "./lobby-state.js";
import { createForm, boardFor, categoryResult, BASE } from "./lobby-create.js";
import { tableCard, tablesList } from "./lobby-tables.js";
import { queuePanel } from "./queue.js";

const POLL_MS = 4000;
const CHECK_MS = 250; // the form's settings are checked this long after the last change

export function mountLobby(root, params = {}) {
  const p = lobbyPage(root, params);
  render(p);
  boot(p);
  return {
    render: () => render(p),
    destroy() { p.destroyed = true; clearTimeout(p.pollTimer); clearTimeout(p.checkTimer); p.myGames.destroy(); p.queue.destroy(); },
  };
}

/** The page's parts and what it holds: the lobby state, the signed-in user, the poll. */
function lobbyPage(root, params) {
  const p = {
    params, state: initialState({ base: engine.settings[BASE] || {}, gameTypes: engine.gameTypes }), me: null,
    pollTimer: null, checkTimer: null, checking: false, destroyed: false,
    categoryEl: h("div", { class: "category-box", role: "status", "aria-live": "polite" }), // the server's word
    errorBox: h("div", { class: "error-box", role: "alert" }),
    nameInput: h("input", {
      id: "name", type: "text", maxlength: limits.name_max, autocomplete: "nickname", value: rememberedName(), required: true,
    }),
    page: h("div", { class: "lobby-page" }),
    tablesBox: h("div", { class: "tables-box" }),
  };
  replace(root, p.page);
  p.myGames = myGamesPanel();
  p.queue = queuePanel(() => session(p), (err) => showError(p, err.code, err.message, err.field)); // "Play now"
  p.account = accountPanel((user) => {
    p.me = user;
    if (user && user.name) p.nameInput.value = user.name;
    p.myGames.refresh();
  });
  p.on = {
    set: (name, value, redraw = false) => dispatch(p, { type: "field", name, value }, redraw),
    players: (players) => dispatch(p, { type: "players", players }, true),
    custom: (on) => dispatch(p, { type: "custom", on, board: boardFor(p.state.form.players) }, true),
    power: (slot, power) => dispatch(p, { type: "power", slot, power, board: boardFor(p.state.form.players) }),
    submit: (ev) => create(p, ev),
    join: (table) => join(p, table),
    watch: (table) => watch(p, table),
    filter: (name, value) => { dispatch(p, { type: "filter", name, value }); showTables(p); },
    categoryEl: p.categoryEl,
  };
  return p;
}

function dispatch(p, msg, redraw = false) {
  const form = p.state.form;
  p.state = reduce(p.state, msg);
  if (redraw) render(p);
  if (p.state.form !== form) askCheck(p);
}

/** The body the form stands for now. */
function body(p) {
  return createBody(p.state.form, boardFor(p.state.form.players), engine.gameTypes, language());
}

/** Ask the server what the form's table would be (its category and why, or why it would be
 * refused), a moment after the last change; an answer to an older form is dropped. */
function askCheck(p) {
  clearTimeout(p.checkTimer);
  replace(p.categoryEl, categoryResult(null));
  p.checking = true;
  p.checkTimer = setTimeout(async () => {
    const sent = body(p);
    const key = JSON.stringify(sent);
    try {
      const result = await post("/api/tables/check", sent);
      if (p.destroyed || key !== JSON.stringify(body(p))) return;
      p.checking = false;
      dispatch(p, { type: "check", result, key });
      replace(p.categoryEl, categoryResult(p.state.check));
    } catch { p.checking = false; /* offline: creating the table says why */ }
  }, CHECK_MS);
}

function showError(p, code, message, field) {
  showText(p, errorText(code, message, null, field));
}

function showText(p, text) {
  replace(p.errorBox, h("p", { class: "error" }, icon("warning"), h("span", { text })));
}

/** A session in the typed name (a new guest, or the user renamed), before creating or joining. */
async function session(p) {
  const input = p.nameInput;
  let name = input.value.trim();
  const user = await currentUser();
  if (!name && user && user.name) {
    // signed in, and the click came before the lobby had shown the name: it is the user's
    name = user.name;
    input.value = name;
  }
  if (!name) {
    showText(p, t("lobby.display_name.required"));
    input.focus();
    throw new Error("no name");
  }
  if (user && user.name !== name) {
    // a new name for the same user (seats, games and any account stay): PATCH, not a new guest
    const data = await patch("/api/account", { name });
    p.me = { ...user, name: data.name };
    setCurrentUser(p.me);
    return p.me;
  }
  p.me = await ensureSession(name);
  return p.me;
}

async function create(p, ev) {
  ev.preventDefault();
  if (p.state.busy) return;
  askNotifications(); // the creator sits down: "your turn" may come while the tab is hidden
  replace(p.errorBox);
  try {
    await session(p);
  } catch (err) {
    if (err.code) showError(p, err.code, err.message, err.field);
    return;
  }
  dispatch(p, { type: "busy", busy: true });
  try {
    const table = await post("/api/tables", body(p));
    location.hash = `#/t/${encodeURIComponent(table.id)}`;
  } catch (err) {
    showError(p, err.code, err.message, err.field);
  } finally {
    dispatch(p, { type: "busy", busy: false });
  }
}

async function join(p, table) {
  askNotifications();
  replace(p.errorBox);
  try {
    await session(p);
    const code = table.invite || p.params.invite;
    await post(`/api/tables/${encodeURIComponent(table.id)}/join`, code ? { invite: code } : {});
    location.hash = `#/t/${encodeURIComponent(table.id)}`;
  } catch (err) {
    if (err.code) showError(p, err.code, err.message, err.field);
  }
}

function watch(p, table) {
  // Watching needs no name: anonymous spectators may follow a game.
  const code = table.invite || p.params.invite;
  location.hash = `#/t/${encodeURIComponent(table.id)}${code ? `?invite=${encodeURIComponent(code)}` : ""}`;
}

/** The server's bot levels; until it answers, the menu is empty and tables get its default. */
async function askLevels(p) {
  if (p.state.levels.length) return;
  try {
    const bots = await botLevels();
    dispatch(p, { type: "levels", levels: bots.levels, default: bots.default });
  } catch { /* asked again at the next refresh */ }
}

/** The tables list, drawn again only when what it shows changed (``redraw``: it polls). */
function showTables(p) {
  redraw(p.tablesBox, [p.state.tables, p.state.tablesError, p.state.filter], () => tablesList(p.state, p.on));
}

async function refresh(p) {
  if (!p.state.levels.length) askLevels(p).then(() => { if (p.state.levels.length && !p.destroyed) render(p); });
  try {
    const data = await get("/api/tables");
    dispatch(p, { type: "tables", tables: (data && data.tables) || [] });
  } catch (err) {
    dispatch(p, { type: "tables_failed", error: { code: err.code, message: err.message } });
  }
  showTables(p);
  if (!p.destroyed) p.pollTimer = setTimeout(() => refresh(p), POLL_MS);
}

function render(p) {
  p.nameInput.placeholder = t("lobby.display_name.placeholder");
  const invite = p.state.inviteTable;
  replace(p.page, [
    h("h1", { class: "page-title", text: t("lobby.title") }),
    h("p", { class: "tagline", text: t("app.tagline") }),
    p.errorBox,
    h("div", { class: "field name-field card-panel" }, h("label", { for: "name", text: t("lobby.display_name") }), p.nameInput),
    learnPanel(() => session(p), (err) => showError(p, err.code, err.message, err.field)),
    p.queue.el,
    invite ? h("section", { class: "invite-box card-panel", "aria-labelledby": "invite-title" },
      h("h2", { id: "invite-title", text: t("lobby.invite") }),
      h("ul", { class: "table-list" }, tableCard(invite, p.on))) : null,
    h("div", { class: "lobby-grid" }, p.myGames.el, p.account.el),
    h("div", { class: "lobby-grid" },
      h("section", { class: "card-panel tables-panel", "aria-labelledby": "tables-title" }, p.tablesBox), createForm(p.state, p.on)),
  ]);
  showTables(p);
  // the server's last word, in the page's language now (a language change redraws the page),
  // unless the form changed since and its new answer is awaited
  if (p.state.check && !p.checking) replace(p.categoryEl, categoryResult(p.state.check));
}

async function boot(p) {
  try {
    p.me = await currentUser();
    if (p.me && !p.nameInput.value) p.nameInput.value = p.me.name;
  } catch { /* offline: the list shows the error */ }
  await askLevels(p);
  if (p.params.invite) {
    try {
      const table = await get(`/api/invite/${encodeURIComponent(p.params.invite)}`);
      if (table) dispatch(p, { type: "invite", table, code: p.params.invite });
    } catch (err) {
      showError(p, err.code, err.message, err.field);
    }
  }
  render(p);
  askCheck(p);
  refresh(p);
}
