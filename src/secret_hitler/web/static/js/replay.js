// Replay viewer for finished games. The rules stay in Python: the server computes each step's view
// (GET /api/games/{id}/replay?step=K&view=V, docs/protocol.md "Replay viewer"), and its analysis
// (GET /api/games/{id}/analysis?view=V) for the analysis panel (analysis.js).
import { h, replace, announce } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { get, postText, errorText } from "./api.js";
import { renderBoard, renderSeats } from "./board.js";
import { presetName, seatName, displayName, tableTitle } from "./format.js";
import { describeEvents, renderLog } from "./log.js";
import { renderAnalysis } from "./analysis.js";
import { chatText } from "./talk.js";

const PLAY_MS = 1200;
const PAGE = 20; // finished games per page of the list

export function mountReplayList(root) {
  let games = null;
  let error = null;
  let next = null; // `before` of the next page, null on the last one
  let loadingMore = false;
  const fileInput = h("input", { id: "record-file", type: "file", accept: ".json,application/json", class: "visually-hidden" });
  fileInput.addEventListener("change", async () => {
    const file = fileInput.files && fileInput.files[0];
    if (!file) return;
    try {
      const text = await file.text();
      JSON.parse(text); // not JSON: said here; the server checks the rest
      sessionStorage.setItem("sh.replay.record", text); // as written (its seed is 64 bits)
      location.hash = "#/replay/file";
    } catch {
      error = { text: t("replay.invalid") };
      render();
    }
  });

  function render() {
    const parts = [h("h1", { class: "page-title", text: t("replay.title") })];
    if (error) parts.push(h("p", { class: "error", role: "alert" }, icon("warning"), h("span", { text: error.text })));
    parts.push(h("div", { class: "button-row" }, fileInput,
      h("label", { for: "record-file", class: "btn btn-secondary file-label" }, icon("download"), h("span", { text: t("replay.open") }))));
    if (games === null) parts.push(h("p", { class: "hint", text: t("app.loading") }));
    else if (!games.length) parts.push(h("p", { class: "empty", text: t("replay.empty") }));
    else {
      parts.push(h("ul", { class: "table-list" }, games.map((g) => {
        const names = Array.isArray(g.names) ? g.names : null;
        return h("li", { class: "table-card" },
          h("div", { class: "table-card-main" },
            h("h3", { text: tableTitle(g) }),
            h("dl", { class: "facts inline" },
              h("dt", { text: t("lobby.tables.col.players") }), h("dd", { text: names ? names.map(displayName).join(t("list.separator")) : String(g.players) }),
              h("dt", { text: t("lobby.tables.col.rules") }), h("dd", { text: presetName(g.rules) }),
              g.winner ? [h("dt", { text: t("lobby.tables.col.status") }), h("dd", { text: t(g.winner === "liberal" ? "gameover.liberals_win" : "gameover.fascists_win") })] : null)),
          h("div", { class: "table-card-actions" },
            h("a", { class: "btn btn-primary", href: `#/replay/${encodeURIComponent(g.id)}` }, icon("play"), h("span", { text: t("replay.play") }))));
      })));
      if (next !== null) {
        parts.push(h("div", { class: "button-row" }, h("button", {
          type: "button", class: "btn btn-secondary", disabled: loadingMore, dataset: { fkey: "more-games" },
          onclick: () => load(next),
        }, t("replay.more"))));
      }
    }
    replace(root, h("div", { class: "replay-page" }, parts));
  }

  async function load(before = null) {
    loadingMore = true;
    try {
      const q = new URLSearchParams({ limit: String(PAGE) });
      if (before !== null) q.set("before", String(before));
      const data = await get(`/api/games?${q}`);
      const page = (data && data.games) || [];
      games = before === null ? page : (games || []).concat(page);
      next = data && typeof data.next === "number" ? data.next : null;
    } catch (err) {
      if (games === null) games = [];
      error = { text: errorText(err.code, err.message) };
    }
    loadingMore = false;
    render();
  }
  render();
  load();
  return { render, destroy() {} };
}

export function mountReplay(root, gameId, params = {}) {
  const fromFile = gameId === "file";
  let record = null; // a record file's JSON, read for its chat; the server gets its text
  const recordText = fromFile ? sessionStorage.getItem("sh.replay.record") : null;
  if (recordText) {
    try { record = JSON.parse(recordText); } catch { record = null; }
  }
  const state = {
    step: params.step !== undefined ? Number(params.step) : 0, // a replay starts at the deal
    steps: null,
    viewAs: params.view || "spectator",
    data: null,
    prevEvents: 0,
    playing: false,
    timer: null,
    error: null,
    cache: new Map(),
    loading: false,
    analyse: params.analysis === "1",
    analyses: new Map(), // view -> the server's analysis, or {error}
    chat: fromFile ? ((record && Array.isArray(record.chat)) ? record.chat : []) : null,
    invite: params.invite || null,
  };

  // The table chat, in time order (the record carries it; a record file may not).
  async function loadChat() {
    if (state.chat !== null) return;
    try {
      const q = state.invite ? `?invite=${encodeURIComponent(state.invite)}` : "";
      const rec = await get(`/api/games/${encodeURIComponent(gameId)}/record${q}`);
      state.chat = Array.isArray(rec && rec.chat) ? rec.chat : [];
    } catch { state.chat = []; }
    render();
  }

  /** The address of this moment (step and view), kept in the URL so it can be shared. */
  function shareUrl() {
    const q = new URLSearchParams({ step: String(state.step), view: state.viewAs });
    if (state.invite) q.set("invite", state.invite);
    return `#/replay/${encodeURIComponent(gameId)}?${q}`;
  }

  const page = h("div", { class: "replay-page" });
  replace(root, page);

  async function fetchStep(step) {
    const key = `${state.viewAs}:${step}`;
    if (state.cache.has(key)) return state.cache.get(key);
    const q = new URLSearchParams({ step: String(step), view: state.viewAs });
    if (state.invite) q.set("invite", state.invite);
    let data;
    if (fromFile) {
      if (!record) throw Object.assign(new Error("no record"), { code: "invalid_record" });
      data = await postText(`/api/replay?${q}`, recordText);
    } else {
      data = await get(`/api/games/${encodeURIComponent(gameId)}/replay?${q}`);
    }
    state.cache.set(`${state.viewAs}:${data.step}`, data);
    return data;
  }

  async function loadAnalysis() {
    const key = state.viewAs;
    if (!state.analyse || state.analyses.has(key)) return;
    state.analyses.set(key, null);
    const q = new URLSearchParams({ view: key });
    try {
      const data = fromFile
        ? await postText(`/api/analysis?${q}`, recordText)
        : await get(`/api/games/${encodeURIComponent(gameId)}/analysis?${q}`);
      state.analyses.set(key, data);
    } catch (err) {
      state.analyses.set(key, { error: errorText(err.code, err.message) });
    }
    render();
  }

  async function go(step) {
    if (state.loading) return;
    state.loading = true;
    const before = state.data ? (state.data.view.events || []).length : 0;
    const forwardOne = state.data && step === state.data.step + 1;
    try {
      const data = await fetchStep(step);
      state.data = data;
      state.step = data.step;
      state.steps = data.steps;
      state.prevEvents = forwardOne ? before : (data.view.events || []).length;
      state.error = null;
    } catch (err) {
      // A server without the replay endpoint answers the framework's plain 404.
      state.error = err.status === 404 && err.message === "Not Found" ? t("replay.unavailable") : errorText(err.code, err.message);
      stop();
    } finally {
      state.loading = false;
    }
    // replaceState, not a hash change: the page stays, the address follows the moment.
    if (state.data && !fromFile) history.replaceState(null, "", shareUrl());
    render();
    if (state.data) announce(t("replay.step", { i: state.step, n: state.steps }));
  }

  function stop() {
    state.playing = false;
    clearTimeout(state.timer);
  }

  function tick() {
    if (!state.playing) return;
    if (state.step >= state.steps) { stop(); render(); return; }
    go(state.step + 1).then(() => { if (state.playing) state.timer = setTimeout(tick, PLAY_MS); });
  }

  function control(name, label, onclick, disabled) {
    return h("button", { type: "button", class: "btn btn-icon", "aria-label": label, title: label, disabled, onclick, dataset: { fkey: `replay-${name}` } },
      icon(name), h("span", { class: "btn-text", text: label }));
  }

  function render() {
    const parts = [h("h1", { class: "page-title", text: t("replay.title") })];
    if (state.error) parts.push(h("p", { class: "error", role: "alert" }, icon("warning"), h("span", { text: state.error })));
    const d = state.data;
    if (!d) {
      parts.push(h("p", { class: "hint", text: state.error ? "" : t("app.loading") }));
      replace(page, parts);
      return;
    }
    const view = d.view;
    const n = d.steps;
    const atStart = d.step <= 0;
    const atEnd = d.step >= n;
    const slider = h("input", {
      type: "range", id: "replay-step", min: 0, max: n, value: d.step, "aria-valuetext": t("replay.step", { i: d.step, n }),
      onchange: (ev) => { stop(); go(Number(ev.target.value)); },
    });
    const viewSel = h("select", {
      id: "replay-view",
      onchange: (ev) => { state.viewAs = ev.target.value; stop(); go(state.step); loadAnalysis(); },
    }, h("option", { value: "spectator", selected: state.viewAs === "spectator" }, t("replay.view.spectator")),
    Array.from({ length: view.players }, (_, s) => h("option", { value: String(s), selected: state.viewAs === String(s) },
      `${s + 1} · ${seatName({ view }, s)}`)));
    parts.push(h("div", { class: "replay-controls card-panel" },
      h("div", { class: "button-row" },
        control("first", t("replay.first"), () => { stop(); go(0); }, atStart),
        control("prev", t("replay.previous"), () => { stop(); go(d.step - 1); }, atStart),
        state.playing
          ? control("pause", t("replay.pause"), () => { stop(); render(); }, false)
          : control("play", t("replay.play"), () => { state.playing = true; render(); tick(); }, atEnd),
        control("next", t("replay.next"), () => { stop(); go(d.step + 1); }, atEnd),
        control("last", t("replay.last"), () => { stop(); go(n); }, atEnd)),
      h("label", { for: "replay-step", class: "step-label", text: t("replay.step", { i: d.step, n }) }), slider,
      h("div", { class: "field inline" }, h("label", { for: "replay-view", text: t("replay.view_as") }), viewSel),
      roundPicker(d),
      fromFile ? null : shareButton(),
      h("button", {
        type: "button", class: "btn btn-secondary", "aria-pressed": state.analyse ? "true" : "false", dataset: { fkey: "replay-analysis" },
        onclick: () => { state.analyse = !state.analyse; render(); loadAnalysis(); },
      }, t("analysis.toggle"))));
    const ctx = { view, table: null, mySeat: state.viewAs === "spectator" ? null : Number(state.viewAs), showRoles: true };
    const lines = describeEvents(view.events || [], ctx);
    const prevLines = describeEvents((view.events || []).slice(0, state.prevEvents), ctx).length;
    const logBox = h("div", { class: "log-scroll", tabindex: "0" }, renderLog(lines, { showPrivate: true, highlightFrom: prevLines < lines.length ? prevLines : null }));
    parts.push(h("div", { class: "replay-grid" },
      h("section", { class: "area area-board" }, renderBoard(view)),
      h("section", { class: "area area-seats", "aria-labelledby": "seats-title" }, h("h2", { id: "seats-title", text: t("lobby.tables.col.players") }), renderSeats(ctx)),
      h("section", { class: "area area-log", "aria-labelledby": "log-title" }, h("h2", { id: "log-title", text: t("log.title") }), logBox),
      chatPanel(view),
      state.analyse ? analysisPanel(ctx) : null));
    replace(page, parts);
    logBox.scrollTop = logBox.scrollHeight;
  }

  function analysisPanel(ctx) {
    const a = state.analyses.get(state.viewAs);
    const body = a && a.error
      ? [h("h2", { id: "analysis-title", text: t("analysis.title") }), h("p", { class: "error", role: "alert" }, icon("warning"), h("span", { text: a.error }))]
      : renderAnalysis(a || null, state.step, ctx, (step) => { stop(); go(step); });
    return h("section", { class: "area area-analysis", "aria-labelledby": "analysis-title" }, body);
  }

  function roundPicker(d) {
    const rounds = Array.isArray(d.rounds) ? d.rounds : [];
    if (!rounds.length) return null;
    let current = rounds[0];
    for (const r of rounds) if (r.step <= d.step) current = r;
    return h("div", { class: "field inline" },
      h("label", { for: "replay-round", text: t("replay.round") }),
      h("select", { id: "replay-round", onchange: (ev) => { stop(); go(Number(ev.target.value)); } },
        rounds.map((r) => h("option", { value: String(r.step), selected: r === current }, t("table.round", { n: r.round })))));
  }

  function shareButton() {
    const done = h("span", { class: "copied", role: "status" });
    return h("div", { class: "share" }, h("button", {
      type: "button", class: "btn btn-secondary", dataset: { fkey: "replay-share" },
      onclick: async () => {
        const url = `${location.origin}${location.pathname}${shareUrl()}`;
        try { await navigator.clipboard.writeText(url); done.textContent = t("lobby.invite.copied"); } catch { done.textContent = url; }
      },
    }, icon("copy"), h("span", { text: t("replay.share") })), done);
  }

  /** The chat in place: the lines said before the deal and up to this step (a line's `after`:
   * the actions played before it), bots' lines in the reader's language (talk.js). */
  function chatPanel(view) {
    const said = (m) => m.after === null || m.after === undefined || m.after <= state.step;
    const lines = (state.chat || []).filter(said).sort((a, b) => (a.ts - b.ts) || (a.id - b.id));
    const ctx = { view, table: null };
    return h("section", { class: "area area-chat", "aria-labelledby": "replay-chat-title" },
      h("h2", { id: "replay-chat-title" }, icon("chat"), h("span", { text: t("chat.title") })),
      state.chat === null ? h("p", { class: "hint loading", text: t("app.loading") })
        : !lines.length ? h("p", { class: "hint", text: t("replay.no_chat") })
          : h("ol", { class: "chat-list replay-chat" }, lines.map((m) => h("li", { class: "chat-msg" },
            h("span", { class: "chat-name", text: m.seat !== null && m.seat !== undefined ? `${m.seat + 1} · ${displayName(m.name) || seatName(ctx, m.seat)}` : (m.name || "") }),
            h("span", { class: "chat-text", text: chatText(m, ctx) })))));
  }

  render();
  go(state.step);
  loadAnalysis();
  loadChat();
  return { render, destroy() { stop(); } };
}
