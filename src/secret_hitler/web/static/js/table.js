// The table page: waiting room, then the game over the WebSocket (docs/protocol.md). This module
// wires the parts together: the connection (table-connection.js) feeds the server's messages to
// the state reducer (table-state.js), and each message redraws the views it changes.
import { botLevels, NO_LEVELS } from "./levels.js";
import { h, replace, update, announce } from "./dom.js";
import { icon } from "./icons.js";
import { t, language } from "./i18n.js";
import { get, currentUser } from "./api.js";
import { watchMotion, tickStandins } from "./board.js";
import { describeEvents } from "./log.js";
import { playEvents } from "./sounds.js";
import { speakEvents, stopSpeech } from "./speech.js";
import { mountCoach } from "./tutorial.js";
import { tableTools } from "./hosting.js";
import { initialState, reduce, hello } from "./table-state.js";
import { openConnection } from "./table-connection.js";
import { connectionBanner, errorBox } from "./table-banners.js";
import { statusBar } from "./table-status.js";
import { actionArea } from "./table-action.js";
import { roleCard } from "./table-role.js";
import { boardArea } from "./table-board.js";
import { seatsArea } from "./table-seats.js";
import { logArea } from "./table-log.js";
import { historyArea } from "./table-history.js";
import { chatPanel, errorWords } from "./table-chat.js";
import { waitingRoom } from "./table-waiting.js";

const NO_ANSWER_MS = 8000; // an action the server does not answer unlocks the buttons again

/** The stand-in moves this device has told its person of, per table (table-state.js
 * `standinSeen`): a notice dismissed once does not come back with the next page load. */
const STANDIN_SEEN = "sh.standin_seen.";
function standinSeen(tableId) {
  try {
    const raw = localStorage.getItem(`${STANDIN_SEEN}${tableId}`);
    return raw !== null && Number.isInteger(Number(raw)) ? Number(raw) : -1;
  } catch { return -1; }
}

export function mountTable(root, tableId, params = {}) {
  let state = initialState({ tableId, invite: params.invite || null, standinSeen: standinSeen(tableId) });
  let me = null; // the signed-in user (GET /api/me), null: none
  let levels = NO_LEVELS; // the bot levels offered, once GET /api/bots answers
  let revealed = false; // the role card is open
  let ui = { key: null }; // the decision's choices so far (actions.js), for one round and phase
  let connection = null;
  let closed = false;
  const big = params.big === "1"; // big-screen mode (#/t/{id}?big=1): a TV the whole room watches

  // ------------------------------------------------------------------ the parts
  const banner = connectionBanner(() => connection && connection.retryNow());
  const errors = errorBox();
  const status = statusBar({ tableId, invite: state.invite, big });
  const action = actionArea(root);
  const role = roleCard(() => { revealed = !revealed; const ctx = context(); role.render(ctx); seats.render(ctx); log.render(ctx); });
  const board = boardArea();
  const seats = seatsArea(tableId, () => { const ctx = context(); seats.render(ctx); history.render(ctx); });
  const log = logArea();
  const history = historyArea(tableId);
  let chatId = 0; // a chat line's id: its ack may name the claim the server read in it
  const chat = chatPanel(
    // the page's language goes with each line: the server reads the line in it (docs/protocol.md)
    (text) => Boolean(connection) && connection.send({ v: 1, type: "chat", id: `chat${++chatId}`, text, lang: language() }),
    () => errors.show("network"),
    (claim) => { apply({ type: "claim_offer_done" }, false); if (claim) send(claim); renderChat(); });
  const waiting = waitingRoom({
    tableId, state: () => state, me: () => me, setMe: (user) => { me = user; }, levels: () => levels,
    showError: errors.show, apply, rejoin, hosting: hostingContext,
  });
  const tools = h("section", { class: "area area-tools", hidden: true }); // hosting.js
  const mainCol = h("div", { class: "main-col" }, board.el, action.el, tools);
  const sideCol = h("div", { class: "side-col" }, role.el, history.el, log.el, chat.el);
  const grid = h("div", { class: "table-grid", hidden: true }, seats.el, mainCol, sideCol);
  const page = h("div", { class: "table-page" }, banner.el, errors.el, status.el, waiting.el, grid, seats.dialog);
  replace(root, page);
  const coach = params.tutorial === "1" ? mountCoach(page) : null; // the tutorial (tutorial.js)
  document.documentElement.classList.toggle("big-screen", big);
  const motion = watchMotion(page, () => state.view); // cards turn over, roles one by one
  const clock = setInterval(() => { status.tick(state); tickStandins(root); }, 1000);

  // ------------------------------------------------------------------ messages
  /** Fold `msg` into the state (and redraw everything, unless `redraw` is false). */
  function apply(msg, redraw = true) {
    state = reduce(state, msg);
    if (redraw) renderAll();
  }

  function onMessage(msg) {
    const before = state;
    state = reduce(state, msg);
    switch (msg.type) {
      case "welcome":
        log.reset();
        renderConn();
        renderAll();
        break;
      case "resumed":
        renderConn();
        renderAll();
        break;
      case "update": {
        if (state === before) break; // seen already
        if (before.view && before.view.phase !== (state.view && state.view.phase)) ui = { key: null };
        renderAll();
        const events = msg.events || [];
        announceNews(events);
        playEvents(events);
        if (big) speakEvents(events, context());
        break;
      }
      case "table":
      case "game_over":
        if (state !== before) renderAll();
        break;
      case "chat":
        chat.renderLines(state, context());
        break;
      case "ack":
        if (msg.claim) renderChat();
        break;
      case "error":
        errors.show(...errorWords(msg, Boolean(me)));
        renderAll();
        break;
      default:
        break;
    }
  }

  function connect() {
    connection = openConnection(tableId, state.invite, {
      hello: () => hello(state),
      message: onMessage,
      status: (conn) => { state = reduce(state, { type: "connection", conn }); renderConn(); },
      lost: () => { state = reduce(state, { type: "disconnected" }); },
      refused: (code, reason) => {
        if (code === 4404) notFound();
        else errors.show(code === 4401 ? "unauthorized" : "ws_closed", reason);
      },
    });
  }

  /** This seat changed (joined, left): a fresh welcome on a new socket. */
  function rejoin() {
    state = reduce(state, { type: "rejoin" });
    if (connection) connection.restart();
  }

  function send(actionMsg) {
    if (state.pending) return;
    const id = connection && connection.sendAction(actionMsg);
    if (!id) { errors.show("network"); return; }
    state = reduce(state, { type: "sending", id });
    renderAction();
    setTimeout(() => {
      const before = state;
      state = reduce(state, { type: "no_answer", id });
      if (state !== before) renderAction();
    }, NO_ANSWER_MS);
  }

  /** The news of an update for screen readers: its last lines, and the prompt if it changed. */
  let lastPrompt = null;
  function announceNews(events) {
    const lines = describeEvents(events, context()).filter((l) => l.kind !== "round");
    const said = lines.slice(-3).map((l) => l.text);
    const prompt = action.promptText();
    if (prompt && prompt !== lastPrompt) said.push(prompt);
    lastPrompt = prompt;
    if (said.length) announce(said.join(" "));
  }

  // ------------------------------------------------------------------ drawing
  /** What the views of a game read (actions.js, board.js, log.js, ...). */
  function context() {
    const v = state.view;
    const key = v ? `${v.round}:${v.phase}` : null;
    if (ui.key !== key) ui = { key };
    return {
      view: v, table: state.table, mySeat: state.seat, legal: state.legal, governments: state.governments,
      modelDeadlines: state.modelDeadlines, ui, pending: state.pending, send, rerender: renderAction, showRoles: revealed,
    };
  }

  /** What hosting.js needs: the table as this page holds it, and a way to change it. */
  function hostingContext() {
    return {
      tableId, table: state.table, seat: state.seat, view: state.view, seq: state.seq,
      userId: state.userId || (me && me.user_id) || null,
      showError: errors.show, setTable: (detail) => { state = reduce(state, { type: "table_detail", table: detail }); }, rerender: renderAll,
    };
  }

  function renderConn() {
    page.dataset.conn = state.conn;
    banner.render(state.conn);
  }

  function renderAction() {
    if (!state.view) return;
    action.render({
      ctx: context(), state, hosting: hostingContext(),
      dismissNotice: (index) => { state = reduce(state, { type: "notice_seen", index }); renderAction(); },
      dismissForced: () => {
        state = reduce(state, { type: "forced_seen" });
        try { localStorage.setItem(`${STANDIN_SEEN}${tableId}`, String(state.standinSeen)); } catch { /* ignore */ }
        renderAction();
      },
      showLog: log.show,
    });
  }

  function renderChat() {
    chat.renderChrome(state, Boolean(me || state.userId), Boolean(connection));
    chat.renderLines(state, context());
  }

  function renderAll() {
    const playing = Boolean(state.view);
    waiting.el.hidden = playing;
    grid.hidden = !playing;
    if (playing && chat.el.parentNode !== sideCol) sideCol.append(chat.el);
    status.render(state);
    if (!playing) { waiting.render(chat.el); renderChat(); return; }
    const ctx = context();
    renderAction();
    role.render(ctx);
    board.render(state.view);
    seats.render(ctx);
    log.render(ctx);
    history.render(ctx);
    const toolbox = tableTools(hostingContext());
    tools.hidden = !toolbox;
    update(tools, toolbox);
    renderChat();
    if (coach) coach.update(state);
  }

  // ------------------------------------------------------------------ start
  async function boot() {
    // Unanswered, the level menu stays empty and seats get the server's default level.
    botLevels().then((answer) => { levels = answer; if (!closed) renderAll(); }, () => {});
    try {
      me = await currentUser();
    } catch (err) { errors.show(err.code, err.message, null, err.field); }
    const q = state.invite ? `?invite=${encodeURIComponent(state.invite)}` : "";
    try {
      state = reduce(state, { type: "table_detail", table: await get(`/api/tables/${encodeURIComponent(tableId)}${q}`) });
    } catch (err) {
      if (err.status === 404) { notFound(); return; }
      errors.show(err.code, err.message, null, err.field);
    }
    if (state.table && state.table.status === "finished") {
      // A finished table, which the server may no longer hold: the game as this person saw it
      // from their seat (the roles revealed, the board, the log, what a stand-in played for
      // them), in the shape of the socket's welcome; no socket, the chat read-only.
      try {
        // (a private table's game is served to its members, or with its invite code)
        const gameId = state.table.game_id || tableId;
        const welcome = await get(`/api/games/${encodeURIComponent(gameId)}/welcome${q}`);
        state = reduce(state, { ...welcome, type: "welcome", table: state.table });
      } catch (err) {
        errors.show(err.code, err.message, null, err.field);
        state = reduce(state, { type: "connection", conn: "open" }); // nothing to wait for
      }
      renderConn();
      renderAll();
      return;
    }
    renderAll();
    if (!closed) connect();
  }

  /** An unknown table, or a private one without its invite: one message and the way back. */
  function notFound() {
    closed = true;
    if (connection) connection.close();
    replace(root, h("section", { class: "card-panel not-found", role: "alert", "aria-labelledby": "not-found-title" },
      h("h2", { id: "not-found-title" }, icon("warning"), h("span", { text: t("table.not_found.title") })),
      h("p", { text: t("table.not_found.text") }),
      h("a", { class: "btn btn-primary", href: "#/" }, t("gameover.back_to_lobby"))));
  }

  boot();

  return {
    render: renderAll,
    destroy() {
      closed = true;
      action.destroy();
      document.documentElement.classList.remove("big-screen");
      motion.disconnect();
      stopSpeech();
      if (coach) coach.destroy();
      clearInterval(clock);
      if (connection) connection.close();
    },
    // For tests and debugging only: the state this page holds now.
    get _state() { return state; },
  };
}
