// The list of finished games (GET /api/games, a page at a time) and "Open a record file": the
// replay viewer (replay.js) shows one of them.
import { h, replace } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { get, errorText } from "./api.js";
import { displayName, tableTitle } from "./format.js";
import { rulesName } from "./talk.js";

const PAGE = 20; // finished games per page of the list
/** Where an opened record file waits for the viewer (its text as written: its seed is 64 bits). */
export const RECORD_KEY = "sh.replay.record";

/** One finished game: its name, players, rules and winner, and "Play" (the viewer). */
function gameCard(g) {
  const names = Array.isArray(g.names) ? g.names : null;
  return h("li", { class: "table-card" },
    h("div", { class: "table-card-main" },
      h("h3", { text: tableTitle(g) }),
      h("dl", { class: "facts inline" },
        h("dt", { text: t("lobby.tables.col.players") }), h("dd", { text: names ? names.map(displayName).join(t("list.separator")) : String(g.players) }),
        h("dt", { text: t("lobby.tables.col.rules") }), h("dd", { text: rulesName(g) }),
        g.winner ? [h("dt", { text: t("lobby.tables.col.status") }), h("dd", { text: t(g.winner === "liberal" ? "gameover.liberals_win" : "gameover.fascists_win") })] : null)),
    h("div", { class: "table-card-actions" },
      h("a", { class: "btn btn-primary", href: `#/replay/${encodeURIComponent(g.id)}` }, icon("play"), h("span", { text: t("replay.play") }))));
}

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
      sessionStorage.setItem(RECORD_KEY, text);
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
      parts.push(h("ul", { class: "table-list" }, games.map(gameCard)));
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
