// Replay viewer for finished games. The rules stay in Python: the server computes each step's view
// (GET /api/games/{id}/replay?step=K&view=V, docs/protocol.md "Replay viewer"), and its analysis
// (GET /api/games/{id}/analysis?view=V) for the analysis panel (analysis.js). This module wires
// the parts: the server's answers and the person's choices are folded into the replay state
// (replay-state.js), and the controls (replay-controls.js) and panels (replay-panels.js) are
// drawn from it. The list of games is replay-list.js.
import { h, replace, update, around, announce } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { get, postText, errorText } from "./api.js";
import { initialState, reduce, momentQuery, nextStep } from "./replay-state.js";
import { replayControls } from "./replay-controls.js";
import { replayPanels } from "./replay-panels.js";
import { RECORD_KEY } from "./replay-list.js";

const PLAY_MS = 1200;

export function mountReplay(root, gameId, params = {}) {
  const p = replayPage(root, gameId, params);
  render(p);
  go(p, p.state.step);
  loadAnalysis(p);
  loadChat(p);
  return { render: () => render(p), destroy() { stop(p); } };
}

/** What the viewer holds: the game (its id, or an opened record file), the replay state, the
 * answers fetched so far (by view and step), the play-through's timer. */
function replayPage(root, gameId, params) {
  const fromFile = gameId === "file";
  const recordText = fromFile ? sessionStorage.getItem(RECORD_KEY) : null;
  let record = null; // a record file's JSON, read for its chat; the server gets its text
  if (recordText) {
    try { record = JSON.parse(recordText); } catch { record = null; }
  }
  const p = {
    gameId, fromFile, record, recordText, cache: new Map(), timer: null,
    state: initialState({
      step: params.step !== undefined ? Number(params.step) : 0,
      view: params.view || "spectator",
      analyse: params.analysis === "1",
      invite: params.invite || null,
      // the table chat, in time order: a record file carries it (or not); a game's is asked for
      chat: fromFile ? ((record && Array.isArray(record.chat)) ? record.chat : []) : null,
    }),
    page: h("div", { class: "replay-page" }),
    // the controls' panel lives across renders: a play-through draws a step every PLAY_MS, and
    // a Pause (or Next) drawn anew under a person's tap loses the tap
    controls: h("div", { class: "replay-controls card-panel" }),
  };
  p.on = {
    go: (step) => { stop(p); go(p, step); },
    shift: (delta) => { stop(p); go(p, p.state.step + delta); },
    play: () => { dispatch(p, { type: "play" }); render(p); tick(p); },
    pause: () => { stop(p); render(p); },
    viewAs: (view) => { dispatch(p, { type: "view_as", view }); stop(p); go(p, p.state.step); loadAnalysis(p); },
    analyse: () => { dispatch(p, { type: "analyse" }); render(p); loadAnalysis(p); },
    shareUrl: () => (p.fromFile ? null : `${location.origin}${location.pathname}${shareHash(p)}`),
  };
  replace(root, p.page);
  return p;
}

function dispatch(p, msg) {
  p.state = reduce(p.state, msg);
}

/** The address of this moment (step and view), kept in the URL so it can be shared. */
function shareHash(p) {
  return `#/replay/${encodeURIComponent(p.gameId)}?${momentQuery(p.state)}`;
}

/** The table chat, from the game's record (a record file carries its own). */
async function loadChat(p) {
  if (p.state.chat !== null) return;
  let chat = [];
  try {
    const q = p.state.invite ? `?invite=${encodeURIComponent(p.state.invite)}` : "";
    const rec = await get(`/api/games/${encodeURIComponent(p.gameId)}/record${q}`);
    chat = Array.isArray(rec && rec.chat) ? rec.chat : [];
  } catch { /* no chat to show */ }
  dispatch(p, { type: "chat", chat });
  render(p);
}

/** The server's answer for `step` from the current point of view (asked once, then kept). */
async function fetchStep(p, step) {
  const key = `${p.state.viewAs}:${step}`;
  if (p.cache.has(key)) return p.cache.get(key);
  const q = momentQuery(p.state, step);
  let data;
  if (p.fromFile) {
    if (!p.record) throw Object.assign(new Error("no record"), { code: "invalid_record" });
    data = await postText(`/api/replay?${q}`, p.recordText);
  } else {
    data = await get(`/api/games/${encodeURIComponent(p.gameId)}/replay?${q}`);
  }
  p.cache.set(`${p.state.viewAs}:${data.step}`, data);
  return data;
}

/** The analysis of the current point of view, once, while the panel is open. */
async function loadAnalysis(p) {
  const view = p.state.viewAs;
  if (!p.state.analyse || view in p.state.analyses) return;
  dispatch(p, { type: "analysis", view, data: null });
  const q = new URLSearchParams({ view });
  let data;
  try {
    data = p.fromFile
      ? await postText(`/api/analysis?${q}`, p.recordText)
      : await get(`/api/games/${encodeURIComponent(p.gameId)}/analysis?${q}`);
  } catch (err) {
    data = { error: errorText(err.code, err.message) };
  }
  dispatch(p, { type: "analysis", view, data });
  render(p);
}

async function go(p, step) {
  if (p.state.loading) return;
  dispatch(p, { type: "loading", loading: true });
  try {
    dispatch(p, { type: "step", data: await fetchStep(p, step) });
  } catch (err) {
    // A server without the replay endpoint answers the framework's plain 404.
    const error = err.status === 404 && err.message === "Not Found" ? t("replay.unavailable") : errorText(err.code, err.message);
    dispatch(p, { type: "step_failed", error });
    stop(p);
  } finally {
    dispatch(p, { type: "loading", loading: false });
  }
  // replaceState, not a hash change: the page stays, the address follows the moment.
  if (p.state.data && !p.fromFile) history.replaceState(null, "", shareHash(p));
  render(p);
  if (p.state.data) announce(t("replay.step", { i: p.state.step, n: p.state.steps }));
}

function stop(p) {
  dispatch(p, { type: "stop" });
  clearTimeout(p.timer);
}

/** One step of the play-through, and the next one after a pause; it stops at the end. */
function tick(p) {
  if (!p.state.playing) return;
  const step = nextStep(p.state);
  if (step === null) { stop(p); render(p); return; }
  go(p, step).then(() => { if (p.state.playing) p.timer = setTimeout(() => tick(p), PLAY_MS); });
}

function render(p) {
  const s = p.state;
  const parts = [h("h1", { class: "page-title", text: t("replay.title") })];
  if (s.error) parts.push(h("p", { class: "error", role: "alert" }, icon("warning"), h("span", { text: s.error })));
  if (!s.data) {
    parts.push(h("p", { class: "hint", text: s.error ? "" : t("app.loading") }));
    replace(p.page, parts);
    return;
  }
  update(p.controls, ...replayControls(s, p.on));
  around(p.page, p.controls, parts, [replayPanels(s, p.on.go)]);
  const log = p.page.querySelector(".log-scroll");
  if (log) log.scrollTop = log.scrollHeight;
}
