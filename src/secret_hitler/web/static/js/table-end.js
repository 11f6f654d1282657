// The end of a game on the table page: the live game's end screen in the action area, and a
// finished table opened later (its result from the stored record).
import { h, downloadText } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { roleBadge } from "./board.js";
import { displayName, seatName } from "./format.js";
import { rematchButton } from "./hosting.js";
import { getText } from "./api.js";

/** "Game over", who won and why. */
function result(winner, reason) {
  return [
    h("h2", { class: "prompt", id: "prompt-title", text: t("gameover.title") }),
    winner ? h("p", { class: `winner winner-${winner}` }, icon(winner === "liberal" ? "liberal" : "fascist"),
      h("span", { text: t(winner === "liberal" ? "gameover.liberals_win" : "gameover.fascists_win") })) : null,
    reason ? h("p", { class: "reason", text: t(`gameover.reason.${reason}`) }) : null,
  ];
}

/** The game's record as a file: the stored one, asked for on the tap, since only it holds the
 * whole chat and talk (a live table keeps its last 100 lines, and so does the end message's). */
function downloadButton(gameId, invite, showError) {
  const q = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  return h("button", {
    type: "button", class: "btn btn-secondary download-record", onclick: async () => {
      try {
        downloadText(`secret-hitler-${gameId}.json`, await getText(`/api/games/${encodeURIComponent(gameId)}/record${q}`));
      } catch (err) { showError(err.code, err.message, null, err.field); }
    },
  }, icon("download"), h("span", { text: t("gameover.download") }));
}

function replayLink(gameId, cls) {
  return h("a", { class: `btn ${cls}`, href: `#/replay/${encodeURIComponent(gameId)}` }, icon("play"), h("span", { text: t("gameover.replay") }));
}

const lobbyLink = (cls) => h("a", { class: `btn ${cls}`, href: "#/" }, h("span", { text: t("gameover.back_to_lobby") }));

/** The live game's end: `end`: {ctx, state, hosting (hosting.js's context), showLog()}. */
export function gameOverPanel({ ctx, state, hosting, showLog }) {
  const v = ctx.view;
  const parts = result(v.winner, v.reason);
  if (state.seat !== null && v.party) {
    parts.push(h("p", { class: "you-result", text: t(v.party === v.winner ? "gameover.you_won" : "gameover.you_lost") }));
  }
  const roles = (v.known_roles || []).map((role, s) => h("li", { class: `reveal-row${s === state.seat ? " mine" : ""}` },
    h("span", { class: "seat-num", text: String(s + 1) }),
    h("span", { class: "seat-name", title: seatName(ctx, s), text: seatName(ctx, s) }),
    role ? roleBadge(role) : null,
    v.alive[s] ? null : h("span", { class: "badge badge-dead" }, icon("dead"), h("span", { text: t("status.dead") }))));
  parts.push(h("h3", { text: t("gameover.roles_revealed") }), h("ul", { class: "roles-revealed" }, roles));
  const gameId = state.table && state.table.game_id;
  const buttons = [];
  buttons.push(downloadButton(gameId || state.tableId, state.invite, hosting.showError));
  if (gameId) buttons.push(replayLink(gameId, "btn-secondary"));
  buttons.push(h("button", { type: "button", class: "btn btn-secondary", onclick: showLog }, h("span", { text: t("gameover.history") })));
  buttons.push(rematchButton(hosting));
  buttons.push(lobbyLink("btn-primary"));
  parts.push(h("div", { class: "button-row" }, buttons));
  return h("div", { class: "gameover", "aria-labelledby": "prompt-title" }, parts);
}

/** A finished table's result, read from its stored record (`state.record`, may be null). */
export function finishedScreen(state, hosting) {
  const table = state.table;
  const gameId = table.game_id || state.tableId;
  const rec = state.record;
  const names = rec && Array.isArray(rec.players) ? rec.players : (table.seats || []).map((x) => x.name);
  const roles = (rec && rec.roles) || [];
  const parts = result(table.winner || (rec && rec.result && rec.result.winner),
    table.reason || (rec && rec.result && rec.result.reason));
  if (roles.length) {
    parts.push(h("h3", { text: t("gameover.roles_revealed") }), h("ul", { class: "roles-revealed" },
      roles.map((role, s) => h("li", { class: "reveal-row" },
        h("span", { class: "seat-num", text: String(s + 1) }),
        h("span", { class: "seat-name", text: displayName(names && names[s]) || t("seat.number", { seat: s + 1 }) }),
        roleBadge(role)))));
  }
  const buttons = [rematchButton(hosting), replayLink(gameId, "btn-primary")];
  if (rec) buttons.push(downloadButton(gameId, state.invite, hosting.showError));
  buttons.push(lobbyLink("btn-secondary"));
  parts.push(h("div", { class: "button-row" }, buttons));
  return h("div", { class: "gameover card-panel", "aria-labelledby": "prompt-title" }, parts);
}
