// The table page: waiting room, then the game over the WebSocket (docs/protocol.md).
import { botLevels, NO_LEVELS } from "./levels.js";
import { h, replace, announce } from "./dom.js";
import { icon } from "./icons.js";
import { aidsOf, decorateSeats, noteEditor, mountAidSwitches } from "./aids.js";
import { mountCoach } from "./tutorial.js";
import { t } from "./i18n.js";
import { get, post, request, currentUser, ensureSession, rememberedName, errorText, wsUrl } from "./api.js";
import { renderBoard, renderSeats, roleBadge, policyTile, watchMotion } from "./board.js";
import { seatName, displayName, presetName, standinText } from "./format.js";
import { describeEvents, renderLog } from "./log.js";
import { renderActions } from "./actions.js";
import { renderHistory } from "./history.js";
import { turnStarted, markTurn, soundOn, setSound, askNotifications } from "./alerts.js";
import { playEvents } from "./sounds.js";
import { speakEvents, speechAvailable, speechOn, setSpeech, stopSpeech } from "./speech.js";
import { tableTools, remakeBox, rematchButton } from "./hosting.js";

const PING_MS = 25000;

export function mountTable(root, tableId, params = {}) {
  const state = {
    tableId,
    invite: params.invite || null,
    me: null,
    table: null,
    seat: null,
    view: null,
    events: [],
    legal: [],
    deadline: null,
    chat: [],
    seq: null,
    record: null,
    revealed: false,
    pending: false,
    pendingId: null,
    ui: { key: null },
    notices: [],
    errors: [],
    conn: "connecting",
    ws: null,
    closed: false,
    retry: 0,
    retryTimer: null,
    pingTimer: null,
    clockTimer: null,
    msgId: 0,
    logCount: 0,
    lastPrompt: null,
    turnKey: null,
    forced: [], // moves the server's stand-in made for this seat: [{by, text}]
    levels: NO_LEVELS, // the bot levels offered, once GET /api/bots answers
    draft: { name: null, fill: true, level: null }, // the waiting room's fields, kept across redraws
  };

  // ------------------------------------------------------------------ skeleton
  const connBanner = h("div", { class: "conn-banner", role: "status", hidden: true });
  const errorBox = h("div", { class: "error-box", role: "alert" });
  const statusBar = h("div", { class: "status-bar" });
  const actionArea = h("section", { class: "area area-action", "aria-label": t("phase.nominate") });
  const roleArea = h("section", { class: "area area-role" });
  const boardArea = h("section", { class: "area area-board" });
  const seatsArea = h("section", { class: "area area-seats" });
  const logList = h("div", { class: "log-scroll", tabindex: "0", role: "region", "aria-labelledby": "log-title" });
  const logArea = h("section", { class: "area area-log", id: "log", "aria-labelledby": "log-title" });
  const chatList = h("ol", { class: "chat-list" });
  const chatScroll = h("div", { class: "chat-scroll", tabindex: "0", role: "region", "aria-labelledby": "chat-title", "aria-live": "polite" }, chatList);
  const CHAT_MAX = 300; // the server's limit (docs/protocol.md 3.3)
  const chatCount = h("span", { class: "chat-count", id: "chat-count", "aria-live": "off" });
  const chatInput = h("input", {
    id: "chat-input", type: "text", maxlength: String(CHAT_MAX), autocomplete: "off",
    "aria-describedby": "chat-count", dataset: { fkey: "chat-input" }, oninput: () => countChat(),
  });
  const chatShown = new Map(); // chat id -> its <li>: new lines are appended, never re-rendered
  const chatHint = h("p", { class: "hint chat-hint" });
  const chatButton = h("button", { type: "submit", class: "btn btn-secondary" });
  const chatForm = h("form", { class: "chat-form", onsubmit: (ev) => { ev.preventDefault(); sendChat(); } });
  const chatLabel = h("label", { for: "chat-input", class: "visually-hidden" });
  const chatTitle = h("h2", { id: "chat-title" });
  const chatArea = h("section", { class: "area area-chat", "aria-labelledby": "chat-title" });
  chatForm.append(chatLabel, chatInput, chatButton, chatCount);
  chatArea.append(chatTitle, chatScroll, chatHint, chatForm);
  const logTitle = h("h2", { id: "log-title" });
  logArea.append(logTitle, logList);
  // Memory aids (aids.js): their switches, and the note editor the seats open.
  // They sit under the seats, in a box of their own that the seats' re-render leaves alone.
  const aidsArea = h("div", { class: "area-aids" });
  const seatsBody = h("div", { class: "seats-body" });
  seatsArea.append(seatsBody, aidsArea);
  const notes = noteEditor(() => renderSeatsArea());

  // Memory aid: every government so far, folded away until wanted (remembered per browser).
  const historyBody = h("div", { class: "history-body" });
  const historySummary = h("summary", {});
  const historyBox = h("details", {
    class: "history", ontoggle: () => { try { localStorage.setItem("sh.history", historyBox.open ? "open" : "closed"); } catch { /* ignore */ } },
  }, historySummary, historyBody);
  try { historyBox.open = localStorage.getItem("sh.history") === "open"; } catch { /* ignore */ }
  const historyArea = h("section", { class: "area area-history", "aria-label": t("history.title") }, historyBox);

  const toolsArea = h("section", { class: "area area-tools", hidden: true }); // hosting.js
  const mainCol = h("div", { class: "main-col" }, boardArea, actionArea, toolsArea);
  const sideCol = h("div", { class: "side-col" }, roleArea, historyArea, logArea, chatArea);
  const grid = h("div", { class: "table-grid", hidden: true }, seatsArea, mainCol, sideCol);
  const waiting = h("div", { class: "waiting-room" }, h("p", { text: t("app.loading") }));
  const page = h("div", { class: "table-page" }, connBanner, errorBox, statusBar, waiting, grid, notes.dialog);
  replace(root, page);
  const coach = params.tutorial === "1" ? mountCoach(page) : null; // the tutorial (tutorial.js)
  // Big-screen mode (#/t/{id}?big=1): everything larger, for a TV the whole room watches.
  const big = params.big === "1";
  document.documentElement.classList.toggle("big-screen", big);
  const motion = watchMotion(page, () => state.view); // cards turn over, roles one by one

  // ------------------------------------------------------------------ errors & connection
  function showError(code, message, detail, field) {
    const text = code === "__text" ? message : errorText(code, message, detail, field);
    state.errors = [{ text, at: Date.now() }];
    renderErrors();
    setTimeout(() => { state.errors = state.errors.filter((e) => Date.now() - e.at < 7900); renderErrors(); }, 8000);
  }

  function renderErrors() {
    replace(errorBox, state.errors.map((e) => h("p", { class: "error" }, icon("warning"),
      h("span", { text: e.text }),
      h("button", { type: "button", class: "btn-link", onclick: () => { state.errors = []; renderErrors(); } }, t("app.close")))));
  }

  function renderConn() {
    page.dataset.conn = state.conn;
    if (state.conn === "open") { connBanner.hidden = true; return; }
    connBanner.hidden = false;
    const key = { connecting: "conn.connecting", reconnecting: "conn.reconnecting", closed: "conn.disconnected" }[state.conn] || "conn.connecting";
    replace(connBanner, h("span", { text: t(key) }),
      state.conn === "closed" ? h("button", { type: "button", class: "btn btn-secondary", onclick: () => { state.retry = 0; connect(); } }, t("conn.retry")) : null);
  }

  // ------------------------------------------------------------------ websocket
  function connect() {
    if (state.closed) return;
    clearTimeout(state.retryTimer);
    state.conn = state.retry ? "reconnecting" : "connecting";
    renderConn();
    let ws;
    try {
      ws = new WebSocket(wsUrl(`/ws/tables/${encodeURIComponent(tableId)}`, { invite: state.invite }));
    } catch (err) {
      scheduleReconnect();
      return;
    }
    state.ws = ws;
    ws.addEventListener("open", () => {
      const lastChat = state.chat.length ? state.chat[state.chat.length - 1].id : null;
      const hello = { v: 1, type: "hello", since: state.view ? state.seq : null };
      if (state.view && typeof lastChat === "number") hello.chat_since = lastChat;
      ws.send(JSON.stringify(hello));
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      onMessage(msg);
    });
    ws.addEventListener("close", (ev) => {
      if (state.ws !== ws) return;
      clearInterval(state.pingTimer);
      state.ws = null;
      state.pending = false;
      if (state.closed) return;
      if (ev.code >= 4000 && ev.code < 4500) {
        if (ev.code === 4404) { notFound(); return; }
        state.conn = "closed";
        renderConn();
        showError(ev.code === 4401 ? "unauthorized" : "ws_closed", ev.reason);
        return;
      }
      scheduleReconnect();
    });
    clearInterval(state.pingTimer);
    state.pingTimer = setInterval(() => sendRaw({ v: 1, type: "ping" }), PING_MS);
  }

  // A lost connection is retried for as long as the page is open (a phone loses the network
  // often): at most every 10 s, and at once when the network or the page comes back.
  function scheduleReconnect() {
    if (state.closed) return;
    state.retry += 1;
    state.conn = "reconnecting";
    renderConn();
    const delay = Math.min(10000, 500 * 2 ** Math.min(state.retry - 1, 5));
    state.retryTimer = setTimeout(connect, delay);
  }

  function retrySoon() {
    if (state.closed || state.ws || state.conn !== "reconnecting" || document.hidden) return;
    connect();
  }
  window.addEventListener("online", retrySoon);
  document.addEventListener("visibilitychange", retrySoon);

  function sendRaw(msg) {
    if (state.ws && state.ws.readyState === WebSocket.OPEN) {
      state.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  function reconnectNow() {
    const ws = state.ws;
    state.ws = null;
    state.seq = null;
    if (ws) try { ws.close(1000); } catch { /* ignore */ }
    state.retry = 0;
    connect();
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "welcome": {
        const wasOpen = state.conn === "open";
        state.conn = "open";
        state.retry = 0;
        state.seat = msg.seat === undefined ? null : msg.seat;
        if (msg.user_id) state.userId = msg.user_id;
        if (msg.table) state.table = msg.table;
        if (msg.seq !== undefined) state.seq = msg.seq;
        state.events = (msg.view && msg.view.events) || [];
        state.view = msg.view ? { ...msg.view, events: state.events } : null;
        state.logCount = 0;
        state.legal = msg.legal || [];
        state.deadline = msg.deadline || null;
        if (Array.isArray(msg.chat)) state.chat = msg.chat.slice();
        state.pending = false;
        renderConn();
        if (wasOpen === false && state.retry === 0) { /* first connection */ }
        renderAll();
        break;
      }
      case "resumed":
        state.conn = "open";
        state.retry = 0;
        if (msg.table) state.table = msg.table;
        state.pending = false;
        renderConn();
        renderAll();
        break;
      case "update": {
        if (typeof msg.seq === "number" && typeof state.seq === "number" && msg.seq <= state.seq && state.view) break;
        if (msg.seq !== undefined) state.seq = msg.seq;
        const before = state.view;
        if (Array.isArray(msg.events)) state.events = state.events.concat(msg.events);
        if (msg.view) state.view = { ...msg.view, events: msg.view.events || state.events };
        if (msg.legal) state.legal = msg.legal;
        state.deadline = msg.deadline === undefined ? state.deadline : msg.deadline;
        if (msg.table) state.table = msg.table;
        state.pending = false;
        noticesFrom(msg.events || []);
        if (msg.by && msg.action && msg.action.seat === state.seat && state.seat !== null) {
          state.forced.push({ by: msg.by, text: describeForced(msg) });
        }
        if (before && before.phase !== (state.view && state.view.phase)) state.ui = { key: null };
        renderAll();
        announceNews(msg.events || []);
        playEvents(msg.events || []);
        if (big) speakEvents(msg.events || [], context());
        break;
      }
      case "table":
        if (msg.table) {
          state.table = msg.table;
          renderAll();
        }
        break;
      case "chat":
        if (msg.message) { state.chat.push(msg.message); renderChat(); }
        break;
      case "game_over":
        state.record = msg.record || null;
        if (msg.view) state.view = msg.view;
        renderAll();
        break;
      case "ack":
        if (msg.id === state.pendingId) state.pendingId = null;
        break;
      case "error":
        state.pending = false;
        showError(...chatError(msg));
        renderAll();
        break;
      default:
        break;
    }
  }

  // Chat refusals have their own words in the catalogs.
  function chatError(msg) {
    const d = msg.detail;
    if (msg.code === "chat_forbidden") {
      const key = { spectator: "chat.spectators_read_only", dead: "chat.dead", legislative_session: "chat.government_silent" }[d];
      if (key) return ["__text", t(key)];
    }
    if (msg.code === "chat_too_long") return ["__text", t("chat.too_long", { max: 300 })];
    if (msg.code === "chat_empty") return ["__text", t("error.code.chat_empty")];
    if (msg.code === "unauthorized" && !state.me) return ["__text", t("chat.spectators_read_only")];
    return [msg.code, msg.message, d];
  }

  function send(action) {
    if (state.pending) return;
    const id = `c${++state.msgId}`;
    if (!sendRaw({ v: 1, type: "action", id, action })) {
      showError("network");
      return;
    }
    state.pending = true;
    state.pendingId = id;
    renderAction();
    // Never stay locked if the server does not answer.
    setTimeout(() => { if (state.pendingId === id && state.pending) { state.pending = false; renderAction(); } }, 8000);
  }

  function sendChat() {
    const text = chatInput.value.trim();
    if (!text) return;
    if (sendRaw({ v: 1, type: "chat", text })) { chatInput.value = ""; countChat(); } else showError("network");
  }

  function countChat() {
    const n = chatInput.value.length;
    chatCount.textContent = t("chat.count", { count: n, max: CHAT_MAX });
    chatCount.classList.toggle("near", n > CHAT_MAX - 30);
  }

  /** The move a stand-in made for this seat, in words: the update's public `action` and the
   * events and view this seat got with it (its own discard, its own vote). */
  function describeForced(msg) {
    const a = msg.action;
    const events = msg.events || [];
    const find = (type) => events.find((e) => e.type === type);
    const name = (s) => seatName(context(), s);
    const policy = (p) => t(`policy.${p}`);
    switch (a.type) {
      case "nominate": return t("standin.move.nominate", { name: name(a.target) });
      case "vote": {
        const reveal = find("votes");
        const ja = reveal ? reveal.votes[a.seat] : msg.view && msg.view.own_vote;
        return typeof ja === "boolean" ? t("standin.move.vote", { vote: t(ja ? "vote.ja" : "vote.nein") }) : t("standin.move.voted");
      }
      case "discard": {
        const e = find("passed") || find("chancellor_discarded");
        const p = e && (e.discarded || e.policy);
        return p ? t("standin.move.discard", { policy: policy(p) }) : t("standin.move.other");
      }
      case "enact": {
        const e = find("enacted");
        return e ? t("standin.move.enact", { policy: policy(e.policy) }) : t("standin.move.other");
      }
      case "veto": return t("standin.move.veto");
      case "veto_response": {
        const e = find("veto");
        return e ? t(e.accepted ? "standin.move.veto_accepted" : "standin.move.veto_refused") : t("standin.move.other");
      }
      case "investigate": case "special_election": case "execute":
        return t(`standin.move.${a.type}`, { name: name(a.target) });
      default: return t("standin.move.other");
    }
  }

  function renderForced() {
    if (!state.forced.length) return null;
    const away = state.forced.some((f) => f.by === "absent");
    return h("div", { class: "notice private-notice forced-notice", role: "group", "aria-labelledby": "forced-title" },
      h("h2", { id: "forced-title" }, icon("bot"), h("span", { text: t(away ? "standin.title.absent" : "standin.title.timer") })),
      h("ul", { class: "forced-moves" }, state.forced.map((f) => h("li", { text: f.text }))),
      h("p", { class: "hint", text: t("standin.no_claims") }),
      h("button", {
        type: "button", class: "btn btn-primary", dataset: { fkey: "forced-ok" },
        onclick: () => { state.forced = []; renderAction(); },
      }, t("app.ok")));
  }

  // ------------------------------------------------------------------ notices & announcements
  function noticesFrom(events) {
    for (const e of events) {
      if (e.type === "peek") state.notices.push({ kind: "peek", policies: e.policies });
      if (e.type === "investigation") state.notices.push({ kind: "investigation", target: e.target, party: e.party });
    }
  }

  function announceNews(events) {
    const ctx = context();
    const lines = describeEvents(events, ctx).filter((l) => l.kind !== "round");
    const last = lines.slice(-3).map((l) => l.text);
    const prompt = actionArea.querySelector(".prompt");
    const promptText = prompt ? prompt.textContent : "";
    if (promptText && promptText !== state.lastPrompt) last.push(promptText);
    state.lastPrompt = promptText;
    if (last.length) announce(last.join(" "));
  }

  // ------------------------------------------------------------------ rendering
  function context() {
    return {
      view: state.view, table: state.table, mySeat: state.seat, legal: state.legal,
      ui: uiState(), pending: state.pending, send, rerender: renderAction,
      showRoles: state.revealed,
    };
  }

  function uiState() {
    const v = state.view;
    const key = v ? `${v.round}:${v.phase}` : null;
    if (state.ui.key !== key) state.ui = { key };
    return state.ui;
  }

  function renderAll() {
    const playing = Boolean(state.view);
    waiting.hidden = playing;
    grid.hidden = !playing;
    if (playing && chatArea.parentNode !== sideCol) sideCol.append(chatArea);
    renderStatus();
    if (!playing) { renderWaitingRoom(); renderChatChrome(); renderChat(); return; }
    renderAction();
    renderRole();
    renderBoardArea();
    renderSeatsArea();
    renderLogArea();
    renderHistoryArea();
    renderTools();
    renderChatChrome();
    renderChat();
    if (coach) coach.update(state);
  }

  /** What hosting.js needs: the table as this page holds it, and a way to change it. */
  function hostingContext() {
    return {
      tableId, table: state.table, seat: state.seat, view: state.view, seq: state.seq,
      userId: state.userId || (state.me && state.me.user_id) || null,
      showError, setTable: (detail) => { state.table = detail; }, rerender: renderAll,
    };
  }

  function renderTools() {
    const tools = tableTools(hostingContext());
    toolsArea.hidden = !tools;
    replace(toolsArea, tools);
  }

  function renderHistoryArea() {
    const aids = aidsOf(tableId);
    const title = t(aids.history ? "history.title" : "claim.title");
    mountAidSwitches(aidsArea, tableId, () => { renderSeatsArea(); renderHistoryArea(); });
    historyArea.hidden = !aids.history && !aids.claims;
    historyArea.setAttribute("aria-label", title);
    historySummary.replaceChildren(icon("tracker"), h("span", { text: title }));
    replace(historyBody, renderHistory(context(), state.view.events || [], { claims: aids.claims, governments: aids.history }));
  }

  function renderStatus() {
    const v = state.view;
    const table = state.table;
    const parts = [];
    parts.push(h("span", { class: "table-name", text: t("lobby.tables.name", { id: tableId }) }));
    if (v) {
      parts.push(h("span", { class: "round", text: t("table.round", { n: v.round }) }));
      parts.push(h("span", { class: "phase", text: t(`phase.${v.phase}`) }));
      parts.push(h("span", { class: "rules", text: presetName(rulesOf(v)) }));
    } else if (table) {
      parts.push(h("span", { class: "phase", text: t(`lobby.status.${table.status}`) }));
    }
    const timer = h("span", { class: "timer", hidden: true });
    parts.push(timer);
    if (state.seat === null && table) parts.push(h("span", { class: "spectating" }, icon("eye"), h("span", { text: t("spectator.mode") })));
    const href = `#/t/${encodeURIComponent(tableId)}${big ? "" : "?big=1"}${state.invite ? `${big ? "?" : "&"}invite=${encodeURIComponent(state.invite)}` : ""}`;
    parts.push(h("a", { class: "btn btn-secondary btn-big", href }, icon("eye"), h("span", { text: t(big ? "table.big_screen.exit" : "table.big_screen") })));
    // Spectators (the room's TV) hear the game's sounds too: the switch is for everyone.
    const on = soundOn();
    parts.push(h("button", {
      type: "button", class: "btn btn-secondary btn-sound", "aria-pressed": on ? "true" : "false",
      dataset: { fkey: "sound" }, title: t("sound.title"),
      onclick: () => { setSound(!soundOn()); renderStatus(); },
    }, icon(on ? "sound" : "sound_off"), h("span", { text: t(on ? "turn.sound_on" : "turn.sound_off") })));
    if (big && speechAvailable()) {
      const speaking = speechOn();
      parts.push(h("button", {
        type: "button", class: "btn btn-secondary btn-speech", "aria-pressed": speaking ? "true" : "false",
        dataset: { fkey: "speech" }, title: t("speech.title"),
        onclick: () => { setSpeech(!speechOn()); renderStatus(); },
      }, icon("speak"), h("span", { text: t(speaking ? "speech.on" : "speech.off") })));
    }
    replace(statusBar, parts);
    tickClock();
  }

  function rulesOf(v) {
    if (state.table && state.table.rules) return state.table.rules;
    const started = (v.events || []).find((e) => e.type === "game_started");
    return started ? started.rules : v.rules && v.rules.preset;
  }

  function tickClock() {
    const el = statusBar.querySelector(".timer");
    if (!el) return;
    if (!state.deadline || !state.view || state.view.phase === "game_over") { el.hidden = true; return; }
    const left = Math.max(0, Math.round(state.deadline - Date.now() / 1000));
    el.hidden = false;
    el.classList.toggle("urgent", left <= 10);
    el.replaceChildren(icon("timer"), document.createTextNode(t("timer.left", { seconds: left })));
  }
  function tickStandins() {
    for (const el of root.querySelectorAll("[data-standin-at]")) {
      const text = el.querySelector(".standin-text");
      if (text) text.textContent = standinText(el.dataset.name, Number(el.dataset.standinAt));
    }
  }
  state.clockTimer = setInterval(() => { tickClock(); tickStandins(); }, 1000);

  function renderAction() {
    const v = state.view;
    if (!v) return;
    const ctx = context();
    const parts = [];
    if (v.phase === "game_over") parts.push(renderGameOver(ctx));
    parts.push(renderForced());
    for (const [i, n] of state.notices.entries()) parts.push(renderNotice(ctx, n, i));
    if (v.phase !== "game_over") {
      if (state.seat === null) parts.push(h("p", { class: "banner spectator" }, icon("eye"), h("span", { text: t("spectator.hint") })));
      else if (!v.alive[state.seat]) parts.push(h("p", { class: "banner dead" }, icon("dead"), h("span", { text: t("table.you_are_dead") })));
      const { decision, claims } = renderActions(ctx);
      // Focusable by script (not by Tab), and keeps the focus across re-renders.
      decision.tabIndex = -1;
      decision.dataset.fkey = "decision";
      parts.push(decision);
      const votes = renderLastVote(ctx);
      if (votes) parts.push(votes);
      if (claims) parts.push(claims);
      parts.push(remakeBox(hostingContext())); // after the decision (hosting.js)
    } else {
      const { claims } = renderActions({ ...ctx, legal: [] });
      if (claims) parts.push(claims);
    }
    replace(actionArea, parts);
    const plays = state.legal.filter((a) => a.type !== "claim");
    const mine = plays.length > 0 && v.phase !== "game_over";
    actionArea.classList.toggle("my-turn", mine);
    actionArea.classList.toggle("is-over", v.phase === "game_over");
    // The area is named after the decision it shows ("Choose a Chancellor", ...).
    const prompt = actionArea.querySelector(".decision .prompt, .gameover .prompt");
    actionArea.setAttribute("aria-label", prompt ? prompt.textContent : t("table.actions"));
    checkTurn(mine, `${v.round}:${v.phase}:${[...new Set(plays.map((a) => a.type))].join(",")}`, prompt);
  }

  /** Alert once per new decision of this player; title and favicon follow the turn. */
  function checkTurn(mine, key, prompt) {
    if (!mine || state.seat === null) {
      if (state.turnKey !== null) markTurn(false);
      state.turnKey = null;
      return;
    }
    if (state.turnKey === key) return;
    state.turnKey = key;
    turnStarted(prompt ? prompt.textContent : "");
    // Keep the decision on screen, and bring the keyboard to it: the focus goes to the decision
    // itself (not to a button, so that Space still scrolls and never votes by surprise); Tab
    // then reaches its first button.
    const rect = actionArea.getBoundingClientRect();
    if (rect.top < 0 || rect.bottom > window.innerHeight) actionArea.scrollIntoView({ block: "nearest" });
    const active = document.activeElement;
    if (!active || active === document.body || active === root || active.classList.contains("decision")) {
      const decision = actionArea.querySelector(".decision");
      if (decision) decision.focus({ preventScroll: true });
    }
  }

  // Keys: J / N vote Ja! / Nein! (by key position, so any keyboard layout works); arrow keys move
  // between the players of a choice.
  function onKey(ev) {
    if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const el = ev.target;
    if (el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName))) return;
    if (ev.code === "KeyJ" || ev.code === "KeyN") {
      const button = actionArea.querySelector(`.decision button[data-fkey="${ev.code === "KeyJ" ? "vote-ja" : "vote-nein"}"]:not([disabled])`);
      if (button) { ev.preventDefault(); button.focus({ preventScroll: true }); button.click(); }
      return;
    }
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -Infinity, End: Infinity }[ev.key];
    if (step === undefined || !el || !el.classList || !el.classList.contains("target")) return;
    const group = [...actionArea.querySelectorAll(".targets button.target:not([disabled])")];
    const i = group.indexOf(el);
    if (i < 0) return;
    ev.preventDefault();
    const next = step === -Infinity ? 0 : step === Infinity ? group.length - 1 : (i + step + group.length) % group.length;
    group[next].focus();
  }
  document.addEventListener("keydown", onKey);

  /** The result of the last election, read from its `votes` event (everyone's vote is public). */
  function renderLastVote(ctx) {
    const v = state.view;
    if (v.phase === "vote") return null;
    const events = v.events || [];
    let i = events.length - 1;
    while (i >= 0 && events[i].type !== "votes") i--;
    if (i < 0) return null;
    const e = events[i];
    let nominated = null;
    for (let j = i - 1; j >= 0; j--) if (events[j].type === "nominated") { nominated = events[j]; break; }
    const ja = [];
    const nein = [];
    (e.votes || []).forEach((x, s) => { if (x === true) ja.push(seatName(ctx, s)); else if (x === false) nein.push(seatName(ctx, s)); });
    const sep = t("list.separator");
    return h("section", { class: "last-vote", "aria-labelledby": "last-vote-title" },
      h("h3", { id: "last-vote-title" }, icon(e.passed ? "ja" : "nein"),
        h("span", { text: `${t("votes.title")}: ${t("votes.count", { ja: e.ja, nein: e.nein })}` }),
        h("span", { class: `vote-result ${e.passed ? "passed" : "failed"}`, text: t(e.passed ? "votes.passed" : "votes.failed") })),
      nominated ? h("p", { class: "hint", text: `${t("office.president")}: ${seatName(ctx, nominated.president)} · ${t("office.chancellor")}: ${seatName(ctx, nominated.chancellor)}` }) : null,
      ja.length ? h("p", { class: "vote-list ja" }, icon("ja"), h("span", { text: t("votes.ja_list", { names: ja.join(sep) }) })) : null,
      nein.length ? h("p", { class: "vote-list nein" }, icon("nein"), h("span", { text: t("votes.nein_list", { names: nein.join(sep) }) })) : null);
  }

  function renderNotice(ctx, notice, index) {
    const ok = h("button", {
      type: "button", class: "btn btn-primary", dataset: { fkey: `notice-${index}` },
      onclick: () => { state.notices.splice(index, 1); renderAction(); },
    }, t("app.ok"));
    if (notice.kind === "peek") {
      return h("div", { class: "notice private-notice", role: "group", "aria-label": t("peek.title") },
        h("h2", {}, icon("peek"), h("span", { text: t("peek.title") })),
        h("p", { class: "hint", text: t("prompt.peek") }),
        h("ol", { class: "hand peek" }, notice.policies.map((p, i) => h("li", { class: `card card-${p}` },
          i === 0 ? h("span", { class: "card-top", text: t("peek.top") }) : null, policyTile(p)))),
        ok);
    }
    return h("div", { class: "notice private-notice", role: "group", "aria-label": t("investigation.title") },
      h("h2", {}, icon("investigate"), h("span", { text: t("investigation.title") })),
      h("p", { class: `investigation party-${notice.party}` }, icon(notice.party),
        h("span", { text: t("investigation.result", { name: seatName(ctx, notice.target), party: t(`party.inline.${notice.party}`) }) })),
      ok);
  }

  function renderGameOver(ctx) {
    const v = state.view;
    const winner = v.winner;
    const parts = [
      h("h2", { class: "prompt", id: "prompt-title", text: t("gameover.title") }),
      h("p", { class: `winner winner-${winner}` }, icon(winner === "liberal" ? "liberal" : "fascist"),
        h("span", { text: t(winner === "liberal" ? "gameover.liberals_win" : "gameover.fascists_win") })),
      v.reason ? h("p", { class: "reason", text: t(`gameover.reason.${v.reason}`) }) : null,
    ];
    if (state.seat !== null && v.party) {
      parts.push(h("p", { class: "you-result", text: t(v.party === winner ? "gameover.you_won" : "gameover.you_lost") }));
    }
    const roles = (v.known_roles || []).map((role, s) => h("li", { class: `reveal-row${s === state.seat ? " mine" : ""}` },
      h("span", { class: "seat-num", text: String(s + 1) }),
      h("span", { class: "seat-name", title: seatName(ctx, s), text: seatName(ctx, s) }),
      role ? roleBadge(role) : null,
      v.alive[s] ? null : h("span", { class: "badge badge-dead" }, icon("dead"), h("span", { text: t("status.dead") }))));
    parts.push(h("h3", { text: t("gameover.roles_revealed") }), h("ul", { class: "roles-revealed" }, roles));
    const buttons = [];
    if (state.record) {
      buttons.push(h("button", { type: "button", class: "btn btn-secondary", onclick: downloadRecord },
        icon("download"), h("span", { text: t("gameover.download") })));
    }
    const gameId = state.table && state.table.game_id;
    if (gameId) buttons.push(h("a", { class: "btn btn-secondary", href: `#/replay/${encodeURIComponent(gameId)}` }, icon("play"), h("span", { text: t("gameover.replay") })));
    buttons.push(h("button", {
      type: "button", class: "btn btn-secondary",
      onclick: () => { logArea.scrollIntoView({ behavior: "smooth", block: "start" }); logList.focus({ preventScroll: true }); },
    }, h("span", { text: t("gameover.history") })));
    buttons.push(rematchButton(hostingContext()));
    buttons.push(h("a", { class: "btn btn-primary", href: "#/" }, h("span", { text: t("gameover.back_to_lobby") })));
    parts.push(h("div", { class: "button-row" }, buttons));
    return h("div", { class: "gameover", "aria-labelledby": "prompt-title" }, parts);
  }

  function downloadRecord() {
    if (!state.record) return;
    const blob = new Blob([JSON.stringify(state.record, null, 2)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const a = h("a", { href: url, download: `secret-hitler-${(state.table && state.table.game_id) || tableId}.json` });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  function renderRole() {
    const v = state.view;
    if (state.seat === null || !v.role) { roleArea.hidden = true; replace(roleArea); return; }
    roleArea.hidden = false;
    const ctx = context();
    const open = state.revealed;
    const toggle = h("button", {
      type: "button", class: `btn role-toggle${open ? " open" : ""}`, "aria-expanded": open ? "true" : "false",
      "aria-controls": "role-secret", dataset: { fkey: "role-toggle" },
      onclick: () => { state.revealed = !state.revealed; renderRole(); renderSeatsArea(); renderLogArea(); },
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
    replace(roleArea, parts);
    roleArea.setAttribute("aria-labelledby", "role-title");
  }

  function knowledge(ctx) {
    const v = state.view;
    const lines = [];
    const known = v.known_roles || [];
    const fellows = [];
    let hitler = null;
    known.forEach((role, s) => {
      if (s === state.seat || !role) return;
      if (role === "hitler") hitler = s;
      else if (role === "fascist") fellows.push(seatName(ctx, s));
    });
    if (v.role === "liberal") {
      lines.push(t("know.nothing"));
    } else if (v.role === "fascist") {
      if (fellows.length) lines.push(t("know.fellow_fascists", { names: fellows.join(t("list.separator")) }));
      if (hitler !== null) lines.push(t("know.hitler_is", { name: seatName(ctx, hitler) }));
    } else {
      if (fellows.length) lines.push(t("know.fellow_fascists", { names: fellows.join(t("list.separator")) }));
      else lines.push(t("know.nothing"));
      lines.push(t("know.fascists_know_you"));
    }
    return lines;
  }

  function renderBoardArea() {
    const v = state.view;
    // An update that changes nothing the board shows (a vote, a chat line, presence) leaves its
    // DOM alone, so a policy still falling into its slot is not cut short by a redraw.
    const shown = renderBoard(v); // detached, without the animation marks: compared, not shown
    if (state.boardShown && shown.isEqualNode(state.boardShown)) return;
    state.boardShown = shown;
    const seen = state.boardSeen; // the counts of the last render: newer slots are animated once
    const fresh = seen && (v.liberal_policies > seen.liberal || v.fascist_policies > seen.fascist) ? seen : null;
    state.boardSeen = { liberal: v.liberal_policies, fascist: v.fascist_policies };
    replace(boardArea, h("h2", { class: "visually-hidden", text: t("board.fascist_track") }), renderBoard(v, fresh));
  }

  function renderSeatsArea() {
    const ctx = context();
    const list = renderSeats(ctx);
    decorateSeats(list, {
      aids: aidsOf(tableId), view: state.view, mySeat: state.seat, editor: notes,
      gameKey: (state.table && state.table.game_id) || tableId, name: (s) => seatName(ctx, s),
    });
    replace(seatsBody, h("h2", { id: "seats-title", text: t("lobby.tables.col.players") }), list);
  }

  function renderLogArea() {
    const lines = describeEvents(state.view.events || [], context());
    logTitle.textContent = t("log.title");
    const atBottom = logList.scrollHeight - logList.scrollTop - logList.clientHeight < 40;
    const fresh = lines.length > state.logCount ? state.logCount : null;
    replace(logList, renderLog(lines, { showPrivate: state.revealed, highlightFrom: state.logCount ? fresh : null }));
    state.logCount = lines.length;
    if (atBottom || fresh !== null) logList.scrollTop = logList.scrollHeight;
  }

  function renderChatChrome() {
    chatTitle.replaceChildren(icon("chat"), document.createTextNode(t("chat.title")));
    chatLabel.textContent = t("chat.placeholder");
    chatInput.placeholder = t("chat.placeholder");
    chatButton.textContent = t("chat.send");
    countChat();
    // Offer the chat only to those the server lets write (docs/protocol.md 3.3).
    const v = state.view;
    const playing = Boolean(v) && v.phase !== "game_over";
    let hint = "";
    let silent = false; // may write later in this game
    if (!state.me && !state.userId) hint = t("chat.spectators_read_only");
    else if (playing && state.seat === null) hint = t("chat.spectators_read_only");
    else if (playing && v.alive && !v.alive[state.seat]) hint = t("chat.dead");
    else if (playing && ["discard", "enact", "veto_response"].includes(v.phase)
      && (v.president === state.seat || v.chancellor === state.seat)) { hint = t("chat.government_silent"); silent = true; }
    chatHint.textContent = hint;
    chatHint.hidden = !hint;
    chatForm.hidden = Boolean(hint) && !silent;
    chatInput.disabled = silent;
    chatButton.disabled = silent;
  }

  /** Append the chat lines not shown yet (the list is a live region: only new lines are read). */
  function renderChat() {
    const atBottom = chatScroll.scrollHeight - chatScroll.scrollTop - chatScroll.clientHeight < 40;
    const ids = new Set(state.chat.map((m) => m.id));
    for (const [id, li] of chatShown) if (!ids.has(id)) { li.remove(); chatShown.delete(id); }
    for (const m of state.chat) {
      if (chatShown.has(m.id)) continue;
      const li = h("li", { class: `chat-msg${m.seat === state.seat && m.seat !== null ? " mine" : ""}` },
        h("span", { class: "chat-name", text: m.seat !== null && m.seat !== undefined ? `${m.seat + 1} · ${displayName(m.name) || seatName(context(), m.seat)}` : (m.name || "") }),
        h("span", { class: "chat-text", text: m.text }));
      chatShown.set(m.id, li);
      chatList.append(li);
    }
    if (atBottom) chatScroll.scrollTop = chatScroll.scrollHeight;
  }

  // ------------------------------------------------------------------ waiting room
  function renderWaitingRoom() {
    const table = state.table;
    if (!table) { replace(waiting, h("p", { text: t("app.loading") })); return; }
    const mine = state.seat;
    const isHost = table.host && (table.host === state.userId || (state.me && table.host === state.me.user_id));
    const seats = (table.seats || []).slice().sort((a, b) => a.seat - b.seat);
    const free = seats.filter((s) => s.kind === "empty").length;
    const parts = [h("h2", { class: "table-title", text: table.name || t("lobby.tables.name", { id: table.id || tableId }) })];
    parts.push(h("dl", { class: "facts" },
      h("dt", { text: t("lobby.create.rules") }), h("dd", { text: presetName(table.rules) }),
      h("dt", { text: t("lobby.create.players") }), h("dd", { text: t("lobby.create.players_value", { count: table.players }) }),
      h("dt", { text: t("lobby.visibility") }), h("dd", { text: t(table.public ? "lobby.visibility.public" : "lobby.visibility.private") }),
      h("dt", { text: t("lobby.timer") }), h("dd", { text: table.timer ? t("lobby.timer.seconds", { seconds: table.timer }) : t("lobby.timer.off") })));
    if (table.invite) parts.push(inviteBox(table.invite));
    const rows = seats.map((s) => {
      const who = s.kind === "empty" ? t("seat.empty") : s.kind === "bot" ? (displayName(s.name) || t("seat.bot_name", { seat: s.seat + 1 })) : (s.name || "");
      const tags = [];
      if (s.seat === mine) tags.push(h("span", { class: "you-tag", text: t("seat.you") }));
      if (s.kind === "bot") tags.push(h("span", { class: "badge muted" }, icon("bot"), h("span", { text: s.level ? t(`bot.level.${s.level}`) : t("seat.bot") })));
      if (s.kind === "human" && s.connected === false) tags.push(h("span", { class: "badge muted" }, icon("offline"), h("span", { text: t("seat.offline") })));
      const waitingNow = table.status === "waiting";
      const buttons = [];
      if (s.kind === "empty" && mine === null && waitingNow) {
        buttons.push(h("button", { type: "button", class: "btn btn-primary", dataset: { fkey: `join-${s.seat}` }, onclick: () => join(s.seat) }, t("lobby.join")));
      }
      if (isHost && waitingNow && s.kind === "empty") {
        buttons.push(h("button", { type: "button", class: "btn btn-secondary", dataset: { fkey: `add-bot-${s.seat}` }, onclick: () => addBot(s.seat) }, icon("bot"), h("span", { text: t("lobby.add_bot") })));
      }
      if (isHost && waitingNow && s.kind === "bot") {
        buttons.push(h("button", { type: "button", class: "btn btn-secondary", dataset: { fkey: `remove-bot-${s.seat}` }, onclick: () => removeBot(s.seat) }, t("lobby.remove_bot")));
      }
      return h("li", { class: `wait-seat kind-${s.kind}` },
        h("span", { class: "seat-num", text: String(s.seat + 1) }),
        h("span", { class: "seat-name", title: who, text: who }), tags, h("span", { class: "wait-buttons" }, buttons));
    });
    if (!state.me && mine === null && free && table.status === "waiting") {
      parts.push(h("div", { class: "field" },
        h("label", { for: "join-name", text: t("lobby.display_name") }),
        h("input", {
          id: "join-name", type: "text", maxlength: "24", autocomplete: "nickname", placeholder: t("lobby.display_name.placeholder"),
          value: state.draft.name ?? rememberedName(), oninput: (e) => { state.draft.name = e.target.value; },
        })));
    }
    parts.push(h("h3", { text: t("lobby.tables.col.players") }), h("ol", { class: "wait-seats" }, rows));
    if (table.status === "waiting") {
      parts.push(h("p", { class: "hint", text: free ? t("lobby.need_players", { count: free }) : (isHost ? t("lobby.table_ready") : t("lobby.waiting_for_host")) }));
      if (!isHost && !free) { /* already said */ } else if (!isHost) parts.push(h("p", { class: "hint", text: t("lobby.waiting_for_host") }));
      const buttons = [];
      if (isHost) {
        // What the host chose survives the waiting room's redraws (each table update).
        const fill = h("input", { type: "checkbox", id: "fill-bots", checked: state.draft.fill && state.levels.levels.length > 0, disabled: !state.levels.levels.length, onchange: (e) => { state.draft.fill = e.target.checked; } });
        const chosen = state.draft.level ?? state.levels.default;
        const level = h("select", { id: "fill-level", "aria-label": t("lobby.bots.level"), onchange: (e) => { state.draft.level = e.target.value; } },
          state.levels.levels.map((l) => h("option", { value: l, selected: l === chosen }, t(`bot.level.${l}`))));
        buttons.push(h("div", { class: "fill-row" }, h("label", { for: "fill-bots" }, fill, h("span", { text: t("lobby.fill_bots") })), level));
        buttons.push(h("button", {
          type: "button", class: "btn btn-primary big", dataset: { fkey: "start" },
          onclick: () => start(fill.checked ? level.value : null),
        }, icon("play"), h("span", { text: t("lobby.start") })));
      }
      if (mine !== null) buttons.push(h("button", { type: "button", class: "btn btn-secondary", onclick: leave }, t("lobby.leave")));
      parts.push(h("div", { class: "button-row" }, buttons));
    }
    if (mine === null) parts.push(h("p", { class: "banner spectator" }, icon("eye"), h("span", { text: t("spectator.hint") })));
    parts.push(tableTools(hostingContext()));
    replace(waiting, parts, h("div", { class: "waiting-chat" }, chatArea));
  }

  function inviteBox(code) {
    const url = `${location.origin}${location.pathname}#/invite/${encodeURIComponent(code)}`;
    const field = h("input", { id: "invite-url", type: "text", readonly: true, value: url });
    const copied = h("span", { class: "copied", role: "status" });
    return h("div", { class: "invite" },
      h("label", { for: "invite-url", text: t("lobby.invite") }),
      h("div", { class: "invite-row" }, field,
        h("button", {
          type: "button", class: "btn btn-secondary",
          onclick: async () => {
            try { await navigator.clipboard.writeText(url); } catch { field.select(); document.execCommand && document.execCommand("copy"); }
            copied.textContent = t("lobby.invite.copied");
          },
        }, icon("copy"), h("span", { text: t("lobby.invite.copy") }))),
      h("p", { class: "hint", text: t("lobby.invite.hint") }), copied);
  }

  async function join(seat) {
    askNotifications();
    try {
      if (!state.me) {
        const input = document.getElementById("join-name");
        const name = input ? input.value.trim() : "";
        if (!name) { showError("__text", t("lobby.display_name.required")); if (input) input.focus(); return; }
        state.me = await ensureSession(name);
      }
      const body = { seat };
      if (state.invite) body.invite = state.invite;
      const table = await post(`/api/tables/${encodeURIComponent(tableId)}/join`, body);
      if (table && table.seats) state.table = table;
      reconnectNow();
    } catch (err) { showError(err.code, err.message, null, err.field); }
  }

  async function leave() {
    try {
      await post(`/api/tables/${encodeURIComponent(tableId)}/leave`);
      reconnectNow();
    } catch (err) { showError(err.code, err.message, null, err.field); }
  }

  async function addBot(seat) {
    try {
      const level = (document.getElementById("fill-level") || {}).value;
      const body = level ? { seat, level } : { seat };
      state.table = await post(`/api/tables/${encodeURIComponent(tableId)}/bots`, body);
      renderAll();
    } catch (err) { showError(err.code, err.message, null, err.field); }
  }

  async function removeBot(seat) {
    try {
      state.table = await request("DELETE", `/api/tables/${encodeURIComponent(tableId)}/bots/${seat}`);
      renderAll();
    } catch (err) { showError(err.code, err.message, null, err.field); }
  }

  async function start(fill) {
    askNotifications();
    try {
      const body = fill ? { fill_with_bots: fill } : {};
      await post(`/api/tables/${encodeURIComponent(tableId)}/start`, body);
    } catch (err) { showError(err.code, err.message, null, err.field); }
  }

  // ------------------------------------------------------------------ start
  async function boot() {
    // Unanswered, the level menu stays empty and seats get the server's default level.
    botLevels().then((levels) => { state.levels = levels; if (!state.closed) renderAll(); }, () => {});
    try {
      state.me = await currentUser();
    } catch (err) { showError(err.code, err.message, null, err.field); }
    try {
      const q = state.invite ? `?invite=${encodeURIComponent(state.invite)}` : "";
      state.table = await get(`/api/tables/${encodeURIComponent(tableId)}${q}`);
    } catch (err) {
      if (err.status === 404) { notFound(); return; }
      showError(err.code, err.message, null, err.field);
    }
    if (state.table && state.table.status === "finished") {
      // A finished table is no longer live: show its result from the stored record.
      await showFinished();
      return;
    }
    renderAll();
    connect();
  }

  /** An unknown table, or a private one without its invite: one message and the way back. */
  function notFound() {
    state.closed = true;
    clearTimeout(state.retryTimer);
    clearInterval(state.pingTimer);
    replace(root, h("section", { class: "card-panel not-found", role: "alert", "aria-labelledby": "not-found-title" },
      h("h2", { id: "not-found-title" }, icon("warning"), h("span", { text: t("table.not_found.title") })),
      h("p", { text: t("table.not_found.text") }),
      h("a", { class: "btn btn-primary", href: "#/" }, t("gameover.back_to_lobby"))));
  }

  async function showFinished() {
    const table = state.table;
    const gameId = table.game_id || tableId;
    try {
      // A private table's record is served to its members, or with its invite code.
      const q = state.invite ? `?invite=${encodeURIComponent(state.invite)}` : "";
      state.record = await get(`/api/games/${encodeURIComponent(gameId)}/record${q}`);
    } catch (err) {
      showError(err.code, err.message, null, err.field);
    }
    state.conn = "open";
    renderConn();
    renderStatus();
    grid.hidden = true;
    waiting.hidden = false;
    const rec = state.record;
    const names = rec && Array.isArray(rec.players) ? rec.players : (table.seats || []).map((x) => x.name);
    const roles = (rec && rec.roles) || [];
    const winner = table.winner || (rec && rec.result && rec.result.winner);
    const reason = table.reason || (rec && rec.result && rec.result.reason);
    const parts = [h("h2", { class: "prompt", id: "prompt-title", text: t("gameover.title") })];
    if (winner) {
      parts.push(h("p", { class: `winner winner-${winner}` }, icon(winner === "liberal" ? "liberal" : "fascist"),
        h("span", { text: t(winner === "liberal" ? "gameover.liberals_win" : "gameover.fascists_win") })));
    }
    if (reason) parts.push(h("p", { class: "reason", text: t(`gameover.reason.${reason}`) }));
    if (roles.length) {
      parts.push(h("h3", { text: t("gameover.roles_revealed") }), h("ul", { class: "roles-revealed" },
        roles.map((role, s) => h("li", { class: "reveal-row" },
          h("span", { class: "seat-num", text: String(s + 1) }),
          h("span", { class: "seat-name", text: displayName(names && names[s]) || t("seat.number", { seat: s + 1 }) }),
          roleBadge(role)))));
    }
    const buttons = [rematchButton(hostingContext()), h("a", { class: "btn btn-primary", href: `#/replay/${encodeURIComponent(gameId)}` }, icon("play"), h("span", { text: t("gameover.replay") }))];
    if (rec) buttons.push(h("button", { type: "button", class: "btn btn-secondary", onclick: downloadRecord }, icon("download"), h("span", { text: t("gameover.download") })));
    buttons.push(h("a", { class: "btn btn-secondary", href: "#/" }, h("span", { text: t("gameover.back_to_lobby") })));
    parts.push(h("div", { class: "button-row" }, buttons));
    replace(waiting, h("div", { class: "gameover card-panel", "aria-labelledby": "prompt-title" }, parts));
  }

  boot();

  return {
    render: renderAll,
    destroy() {
      state.closed = true;
      document.removeEventListener("keydown", onKey);
      document.documentElement.classList.remove("big-screen");
      motion.disconnect();
      stopSpeech();
      window.removeEventListener("online", retrySoon);
      document.removeEventListener("visibilitychange", retrySoon);
      markTurn(false);
      if (coach) coach.destroy();
      clearInterval(state.pingTimer);
      clearInterval(state.clockTimer);
      clearTimeout(state.retryTimer);
      if (state.ws) try { state.ws.close(1000); } catch { /* ignore */ }
      state.ws = null;
    },
    // For tests and debugging only: the last state this page holds.
    _state: state,
  };
}
