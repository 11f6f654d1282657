// The end of a game on the table page, in the action area: who won and why, every role, and the
// ways on (the record, the replay, the log, a rematch, the lobby); the same for a live game that
// just ended and for a finished table opened later (table.js).
import { h, downloadText } from "./dom.js";
import { icon } from "./icons.js";
import { t, list } from "./i18n.js";
import { partyOf, roleBadge } from "./board.js";
import { seatName } from "./format.js";
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
  // who won: the view's `winners`, which a game with a Monarchist names apart (he wins and
  // loses on his own), else the winning party
  const own = Boolean(v.winners && (v.composition || {}).monarchist);
  const won = (s) => (v.winners ? v.winners.includes(s) : partyOf((v.known_roles || [])[s]) === v.winner);
  if (own) parts.push(h("p", { class: "winners", text: t("log.winners", { names: list(v.winners.map((s) => seatName(ctx, s))) }) }));
  if (state.seat !== null && v.party) {
    parts.push(h("p", { class: "you-result", text: t(won(state.seat) ? "gameover.you_won" : "gameover.you_lost") }));
  }
  const roles = (v.known_roles || []).map((role, s) => h("li", { class: `reveal-row${s === state.seat ? " mine" : ""}${won(s) ? " won" : ""}` },
    h("span", { class: "seat-num", text: String(s + 1) }),
    h("span", { class: "seat-name", title: seatName(ctx, s), text: seatName(ctx, s) }),
    role ? roleBadge(role) : null,
    own && won(s) ? h("span", { class: "badge badge-won" }, icon("win"), h("span", { text: t("status.won") })) : null,
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
