// The lobby's "Play now" panel: the matchmaking queue (docs/competitive.md "The queue",
// docs/protocol.md "The queue"). A person chooses a player count and a category and joins; the
// panel shows how many wait, how long she has waited, the ready check (its countdown, Ready and
// Decline) and, once the server has seated her, takes her to the table. The server decides
// everything (bands, deadlines, cooldowns): the panel polls GET /api/queue and shows its answer.
import { h, redraw } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { get, post, del, currentUser } from "./api.js";
import { duration } from "./format.js";

const POLL_MS = 2000; // while in the queue (docs/protocol.md says so)
const COUNTS_MS = 10000; // the waiting counts, signed in but not queued
export const QUEUE_PLAYERS = [5, 6, 7, 8, 9, 10];
export const QUEUE_CATEGORIES = ["rated", "casual"];

/** What the panel shows for the server's state `s` (GET /api/queue) at `nowMs` (the page's
 * clock; `skewMs`: the server's clock minus the page's, measured when `s` came): a pure summary
 * the views draw (and the Node tests read). */
export function queueView(s, choice, nowMs = Date.now(), skewMs = 0) {
  if (!s) return { mode: "idle", waiting: null, cooldown: null };
  const serverNow = (nowMs + skewMs) / 1000;
  const pool = (s.counts || []).find((c) => c.players === (s.players ?? choice.players) && c.category === (s.category ?? choice.category));
  const waiting = pool ? pool.waiting : 0;
  const cooldown = s.cooldown_until && s.cooldown_until > serverNow ? s.cooldown_until : null;
  if (s.state === "seated" && s.table_id) return { mode: "seated", table: s.table_id, waiting };
  if (s.state === "check" && s.match) {
    const m = s.match;
    return { mode: "check", match: m.id, left: Math.max(0, Math.ceil(m.deadline - serverNow)), ready: m.ready, of: m.players, youReady: m.you_ready, waiting };
  }
  if (s.state === "waiting") return { mode: "waiting", waited: Math.max(0, serverNow - s.joined_at), players: s.players, category: s.category, waiting };
  return { mode: "idle", waiting, cooldown };
}

/** The panel; `session()` gives the signed-in user (a guest made from the typed name) before
 * joining, `onError(err)` shows a refusal. Returns {el, destroy}. */
export function queuePanel(session, onError) {
  const q = { state: null, skew: 0, choice: { players: 7, category: "casual" }, timer: null, ticker: null, destroyed: false, busy: false, moved: false };
  const el = h("section", { class: "card-panel queue-panel", "aria-labelledby": "queue-title" });
  // drawn again only when more than its clock changed (a poll with news, a choice: ``redraw``)
  const draw = () => {
    const view = queueView(q.state, q.choice, Date.now(), q.skew);
    const shown = [{ ...view, left: null, waited: null }, q.choice, q.busy, q.moved];
    if (redraw(el, shown, () => panel(q, act))) return;
    const clock = el.querySelector(".queue-clock");
    if (clock) clock.textContent = clockText(view);
  };
  const schedule = () => {
    clearTimeout(q.timer);
    if (q.destroyed) return;
    const inQueue = q.state && q.state.state !== "idle";
    q.timer = setTimeout(poll, inQueue ? POLL_MS : COUNTS_MS);
  };
  const take = (s) => {
    // to the table only when this panel saw the wait end there (back in the lobby later, the
    // server still says "seated" for a while: the panel offers the table, and a new game)
    const wasQueued = q.state && (q.state.state === "waiting" || q.state.state === "check");
    q.state = s;
    q.skew = s && typeof s.now === "number" ? s.now * 1000 - Date.now() : 0; // the server's clock
    const view = queueView(s, q.choice, Date.now(), q.skew);
    if (view.mode === "seated" && wasQueued && !q.moved) {
      q.moved = true;
      location.hash = `#/t/${encodeURIComponent(view.table)}`;
    }
    draw();
  };
  async function poll() {
    try {
      if (await currentUser()) take(await get("/api/queue"));
    } catch { /* offline: the next poll tries again */ }
    schedule();
  }
  async function send(work) {
    if (q.busy) return;
    q.busy = true;
    draw();
    try {
      take(await work());
    } catch (err) {
      if (err && err.code) onError(err);
    } finally {
      q.busy = false;
      draw();
      schedule();
    }
  }
  const act = {
    choose: (name, value) => { q.choice = { ...q.choice, [name]: value }; draw(); },
    join: () => send(async () => {
      await session();
      q.moved = false;
      return post("/api/queue", { players: Number(q.choice.players), category: q.choice.category });
    }),
    leave: () => send(() => del("/api/queue")),
    answer: (match, ready) => send(() => post("/api/queue/ready", { match_id: match, ready })),
  };
  // the countdowns move every second between two polls
  q.ticker = setInterval(() => { if (q.state && q.state.state !== "idle") draw(); }, 1000);
  draw();
  poll();
  return { el, destroy() { q.destroyed = true; clearTimeout(q.timer); clearInterval(q.ticker); } };
}

/** The words of the time that moves in `view`: the ready check's time left, or how long she
 * has waited. */
function clockText(view) {
  if (view.mode === "check") return t("queue.check.left", { time: duration(view.left) });
  if (view.mode === "waiting") return t("queue.waited", { time: duration(view.waited) });
  return "";
}

function panel(q, act) {
  const view = queueView(q.state, q.choice, Date.now(), q.skew);
  const parts = [h("h2", { id: "queue-title" }, icon("play"), h("span", { text: t("queue.title") }))];
  if (view.mode === "check") {
    parts.push(h("div", { class: "queue-check", role: "alertdialog", "aria-labelledby": "queue-check-title" },
      h("h3", { id: "queue-check-title", text: t("queue.check.title") }),
      h("p", { class: "queue-countdown queue-clock", text: clockText(view) }),
      h("p", { text: t("queue.check.count", { ready: view.ready, players: view.of }) }),
      view.youReady ? h("p", { class: "hint", text: t("queue.check.you_ready") })
        : h("div", { class: "queue-actions" },
          h("button", { type: "button", class: "btn btn-primary", disabled: q.busy, onclick: () => act.answer(view.match, true) }, t("queue.check.ready")),
          h("button", { type: "button", class: "btn btn-secondary", disabled: q.busy, onclick: () => act.answer(view.match, false) }, t("queue.check.decline")))));
    return parts;
  }
  if (view.mode === "seated") {
    parts.push(q.moved ? h("p", { role: "status", text: t("queue.seated") }) : null,
      h("a", { class: "btn btn-primary", href: `#/t/${encodeURIComponent(view.table)}` }, t("queue.to_table")));
  }
  if (view.mode === "waiting") {
    parts.push(h("p", { role: "status", class: "queue-status", text: t("queue.looking", { players: view.players, category: t(`category.${view.category}`) }) }),
      h("p", { class: "hint queue-clock", text: clockText(view) }),
      h("p", { class: "hint", text: t("queue.in_pool", { count: view.waiting }) }),
      h("button", { type: "button", class: "btn btn-secondary", disabled: q.busy, onclick: act.leave }, t("queue.leave")));
    return parts;
  }
  parts.push(h("p", { class: "hint", text: t("queue.intro") }));
  const menu = (id, name, label, options) => h("div", { class: "field" },
    h("label", { for: id, text: label }),
    h("select", { id, onchange: (ev) => act.choose(name, name === "players" ? Number(ev.target.value) : ev.target.value) },
      options.map(([v, words]) => h("option", { value: String(v), selected: q.choice[name] === v }, words))));
  parts.push(h("div", { class: "grid-2" },
    menu("queue-players", "players", t("queue.players"), QUEUE_PLAYERS.map((n) => [n, String(n)])),
    menu("queue-category", "category", t("lobby.category"), QUEUE_CATEGORIES.map((c) => [c, t(`category.${c}`)]))));
  if (view.waiting != null) parts.push(h("p", { class: "hint", text: t("queue.in_pool", { count: view.waiting }) }));
  if (view.cooldown) parts.push(h("p", { class: "error", text: t("queue.cooldown", { time: new Date(view.cooldown * 1000).toLocaleTimeString() }) }));
  parts.push(h("button", { type: "button", class: "btn btn-primary", disabled: q.busy || Boolean(view.cooldown), onclick: act.join, dataset: { fkey: "queue-join" } }, t("queue.join")));
  return parts;
}

/** A table's rating limit in words ("Rating 10–30", "Rating ≥ 10", "Rating ≤ 30"), or null. */
export function ratingLimitText(table) {
  const low = table.rating_min, high = table.rating_max;
  if (low == null && high == null) return null;
  if (low != null && high != null) return t("lobby.tag.rating_range", { min: low, max: high });
  return low != null ? t("lobby.tag.rating_min", { min: low }) : t("lobby.tag.rating_max", { max: high });
}

