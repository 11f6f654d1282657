// The replay viewer's panels for the moment shown: the board, the seats, the log (the lines of
// the last step forward stand out), the table chat as it stood then, and the analysis. Drawn
// from the replay state (replay-state.js); `go(step)` jumps to a move the analysis names.
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { renderBoard, renderSeats } from "./board.js";
import { seatName, displayName } from "./format.js";
import { describeEvents, renderLog } from "./log.js";
import { renderAnalysis } from "./analysis.js";
import { chatText } from "./talk.js";
import { chatAt } from "./replay-state.js";
import { reactions } from "./limits.js";

/** The log, its lines after the last step forward marked fresh (the page scrolls it to its end). */
function logPanel(state, ctx) {
  const events = ctx.view.events || [];
  const lines = describeEvents(events, ctx);
  const before = describeEvents(events.slice(0, state.prevEvents), ctx).length;
  const box = h("div", { class: "log-scroll", tabindex: "0" }, renderLog(lines, { showPrivate: true, highlightFrom: before < lines.length ? before : null }));
  return h("section", { class: "area area-log", "aria-labelledby": "log-title" }, h("h2", { id: "log-title", text: t("log.title") }), box);
}

/** The chat in place: the lines said up to this step, bots' lines in the reader's language. */
function chatPanel(state, view) {
  const lines = chatAt(state.chat, state.step);
  const ctx = { view, table: null };
  const who = (m) => (m.seat !== null && m.seat !== undefined ? `${m.seat + 1} · ${displayName(m.name) || seatName(ctx, m.seat)}` : (m.name || ""));
  return h("section", { class: "area area-chat", "aria-labelledby": "replay-chat-title" },
    h("h2", { id: "replay-chat-title" }, icon("chat"), h("span", { text: t("chat.title") })),
    state.chat === null ? h("p", { class: "hint loading", text: t("app.loading") })
      : !lines.length ? h("p", { class: "hint", text: t("replay.no_chat") })
        : h("ol", { class: "chat-list replay-chat" }, lines.map((m) => h("li", { class: "chat-msg" },
          h("span", { class: "chat-name", text: who(m) }),
          h("span", { class: "chat-text", text: chatText(m, ctx, reactions) })))));
}

function analysisPanel(state, ctx, go) {
  const a = state.analyses[state.viewAs];
  const body = a && a.error
    ? [h("h2", { id: "analysis-title", text: t("analysis.title") }), h("p", { class: "error", role: "alert" }, icon("warning"), h("span", { text: a.error }))]
    : renderAnalysis(a || null, state.step, ctx, go);
  return h("section", { class: "area area-analysis", "aria-labelledby": "analysis-title" }, body);
}

export function replayPanels(state, go) {
  const view = state.data.view;
  const ctx = { view, table: null, mySeat: state.viewAs === "spectator" ? null : Number(state.viewAs), showRoles: true };
  return h("div", { class: "replay-grid" },
    h("section", { class: "area area-board" }, renderBoard(view)),
    h("section", { class: "area area-seats", "aria-labelledby": "seats-title" }, h("h2", { id: "seats-title", text: t("lobby.tables.col.players") }), renderSeats(ctx)),
    logPanel(state, ctx),
    chatPanel(state, view),
    state.analyse ? analysisPanel(state, ctx, go) : null);
}
