// Tables that look after themselves, on the table page (docs/protocol.md "Hosting",
// "Moderation"): the host's tools (name the table, remove someone from a waiting table, give a
// seat to a bot), the anonymous remake vote, the vote to replace an absent player by a bot,
// rematch on the end screen, and reporting a player at this moment of this game. The server
// decides everything; this module only asks it and shows what the table detail says.
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { t, language } from "./i18n.js";
import { limits, limitText } from "./limits.js";
import { post, request } from "./api.js";
import { displayName, tableTitle } from "./format.js";

/** This module's styles, loaded with it (index.html stays as it is). */
function useStyles() {
  if (document.getElementById("hosting-css")) return;
  document.head.appendChild(h("link", { id: "hosting-css", rel: "stylesheet", href: "/static/css/hosting.css" }));
}
useStyles();

// What the user is typing or has chosen, per table: the table page re-renders on every
// broadcast, so drafts live here rather than in the elements.
const memory = new Map();
function mem(tableId) {
  if (!memory.has(tableId)) memory.set(tableId, { name: null, report: null, reason: "", vote: null, notice: null, remakeOpen: false, seenResult: null, away: new Map(), afkVote: null, seenAfk: null, afkTimer: null });
  return memory.get(tableId);
}

/**
 * ctx: { tableId, table, seat, userId, view, seq, showError(code, message, detail, field),
 *        setTable(detail), rerender() }
 */
function isHost(ctx) {
  return Boolean(ctx.table && ctx.userId && ctx.table.host === ctx.userId);
}

function path(ctx, tail = "") {
  return `/api/tables/${encodeURIComponent(ctx.tableId)}${tail}`;
}

async function call(ctx, fn, after) {
  try {
    const detail = await fn();
    if (detail && detail.seats) ctx.setTable(detail);
    if (after) after(detail);
  } catch (err) {
    ctx.showError(err.code, err.message, null, err.field);
  }
  ctx.rerender();
}

function seatLabel(s) {
  return s.kind === "bot" ? (displayName(s.name) || t("seat.bot_name", { seat: s.seat + 1 })) : (s.name || t("seat.number", { seat: s.seat + 1 }));
}

// ------------------------------------------------------------------ host tools and reports
/** The table tools: the host's (the table's name; with `seats`, a row per player) and, for
 * everyone signed in, "Report" per player. The waiting room lists the players itself and puts
 * each one's buttons on their row (`seats: false`, `seatTools`): one list of players, not two. */
export function tableTools(ctx, { seats = true } = {}) {
  const table = ctx.table;
  if (!table || !ctx.userId || !["waiting", "playing", "finished"].includes(table.status)) return null;
  const m = mem(ctx.tableId);
  const host = isHost(ctx) && table.status !== "finished";
  const parts = [];
  if (m.notice) {
    parts.push(h("p", { class: "hint tools-notice", role: "status", text: m.notice }));
  }
  if (host) parts.push(nameForm(ctx, m));
  // (bots talk only where the chat is free: an emote-only or silent table keeps them quiet)
  if (host && table.status !== "finished" && (table.chat || "free") === "free") parts.push(talkSwitch(ctx, m));
  const rows = [];
  for (const s of seats ? (table.seats || []).slice().sort((a, b) => a.seat - b.seat) : []) {
    const tools = seatTools(ctx, s);
    if (!tools) continue;
    rows.push(h("li", { class: "tool-seat" },
      h("span", { class: "seat-num", text: String(s.seat + 1) }),
      h("span", { class: "seat-name", title: seatLabel(s), text: seatLabel(s) }),
      s.connected === false ? h("span", { class: "badge muted" }, icon("offline"), h("span", { text: t("seat.offline") })) : null,
      h("span", { class: "tool-buttons" }, tools.buttons)));
    if (tools.form) rows.push(h("li", { class: "tool-report" }, tools.form));
  }
  if (rows.length) parts.push(h("ul", { class: "tool-seats" }, rows));
  if (!parts.length) return null;
  // The waiting room's notice for a player (a report sent) needs no heading of its own.
  const title = host || seats ? h("h2", { id: "tools-title" }, h("span", { text: t(host ? "tools.host.title" : "tools.title") })) : null;
  return h("div", { class: "table-tools", "aria-labelledby": title ? "tools-title" : null }, title, parts);
}

/** The tools of another person's seat `s` (a table detail's seat): {buttons, form (the report
 * form while it is open, else null)}, or null for a bot, an empty seat or one's own. */
export function seatTools(ctx, s) {
  const table = ctx.table;
  if (!table || !ctx.userId || s.kind !== "human" || !s.user_id || s.user_id === ctx.userId) return null;
  const m = mem(ctx.tableId);
  const host = isHost(ctx) && table.status !== "finished";
  const buttons = [];
  if (host && table.status === "waiting") {
    buttons.push(h("button", { type: "button", class: "btn btn-secondary", dataset: { fkey: `tool-remove-${s.seat}` }, onclick: () => freeSeat(ctx, s, "empty") },
      h("span", { text: t("tools.seat.remove") })));
    if (!table.rated) {
      buttons.push(h("button", { type: "button", class: "btn btn-secondary", dataset: { fkey: `tool-bot-${s.seat}` }, onclick: () => freeSeat(ctx, s, "bot") },
        icon("bot"), h("span", { text: t("tools.seat.to_bot") })));
    }
  }
  if (host && table.status === "playing" && s.connected === false && !table.rated) { // (a rated table votes: afkBox)
    buttons.push(h("button", { type: "button", class: "btn btn-secondary", dataset: { fkey: `tool-bot-${s.seat}` }, onclick: () => freeSeat(ctx, s, "bot") },
      icon("bot"), h("span", { text: t("tools.seat.to_bot") })));
  }
  buttons.push(h("button", { type: "button", class: "btn btn-link", dataset: { fkey: `tool-report-${s.seat}` }, "aria-expanded": m.report === s.seat ? "true" : "false",
    onclick: () => { m.report = m.report === s.seat ? null : s.seat; m.notice = null; ctx.rerender(); } },
  icon("warning"), h("span", { text: t("tools.report") })));
  return { buttons, form: m.report === s.seat ? reportForm(ctx, m, s) : null };
}

/** The host turns the bots' table talk on or off (PATCH; at once, also during a game). */
function talkSwitch(ctx, m) {
  const on = ctx.table.bots_talk !== false;
  return h("label", { class: "radio tool-talk" },
    h("input", {
      type: "checkbox", id: "tools-bots-talk", checked: on, dataset: { fkey: "tools-bots-talk" },
      onchange: () => call(ctx, () => request("PATCH", path(ctx), { bots_talk: !on }), () => { m.notice = t(on ? "tools.bots_talk.off" : "tools.bots_talk.on"); }),
    }),
    h("span", {}, h("strong", { text: t("lobby.bots_talk") }), h("span", { class: "hint", text: t("lobby.bots_talk.hint") })));
}

function nameForm(ctx, m) {
  const input = h("input", {
    id: "tools-table-name", type: "text", maxlength: limits.name_max, autocomplete: "off",
    value: m.name !== null ? m.name : (ctx.table.name || ""), dataset: { fkey: "tools-table-name" },
    placeholder: tableTitle({ ...ctx.table, name: null }),
    oninput: () => { m.name = input.value; },
  });
  return h("form", {
    class: "tool-name", onsubmit: (ev) => {
      ev.preventDefault();
      const name = input.value.trim();
      call(ctx, () => request("PATCH", path(ctx), { name }), () => { m.name = null; m.notice = t("tools.name.saved"); });
    },
  },
  h("label", { for: "tools-table-name", text: t("tools.name") }),
  h("div", { class: "invite-row" }, input,
    h("button", { type: "submit", class: "btn btn-secondary", dataset: { fkey: "tools-table-name-save" }, text: t("tools.name.save") })));
}

function freeSeat(ctx, s, to) {
  const m = mem(ctx.tableId);
  m.notice = null;
  call(ctx, () => post(path(ctx, `/seats/${s.seat}`), { to }), () => {
    m.notice = t(to === "empty" ? "tools.seat.removed" : "tools.seat.botted", { name: seatLabel(s) });
  });
}

function reportForm(ctx, m, s) {
  const reason = h("textarea", {
    id: "table-report-reason", maxlength: limits.report_max, rows: "3", required: true, dataset: { fkey: "table-report-reason" },
    oninput: () => { m.reason = reason.value; },
  });
  reason.value = m.reason;
  const game = ctx.table.game_id;
  // The moment: how many moves of this game were made when the report was written.
  const moment = game && typeof ctx.seq === "number" ? Math.max(0, ctx.seq - 1) : null;
  return h("form", {
    class: "report-form", onsubmit: (ev) => {
      ev.preventDefault();
      const body = { player: s.user_id, reason: reason.value };
      if (game) body.game = game;
      if (moment !== null) body.moment = moment;
      call(ctx, () => post("/api/reports", body), () => { m.report = null; m.reason = ""; m.notice = t("tools.report.sent"); });
    },
  },
  h("h3", { text: t("tools.report.title", { name: seatLabel(s) }) }),
  h("div", { class: "field" }, h("label", { for: "table-report-reason", text: t("tools.report.reason") }), reason),
  h("p", { class: "hint", text: moment !== null ? t("tools.report.moment", { count: moment }) : t("tools.report.table") }),
  h("div", { class: "button-row" },
    h("button", { type: "submit", class: "btn btn-danger", dataset: { fkey: "table-report-send" }, text: t("tools.report.send") }),
    h("button", { type: "button", class: "btn btn-secondary", text: t("app.cancel"), onclick: () => { m.report = null; ctx.rerender(); } })));
}

// ------------------------------------------------------------------ remake vote
// The server's rule, mirrored to offer only what it accepts: a remake needs two living people at
// the table (a lone person among bots may not deal again and again).
const REMAKE_PEOPLE = 2;

/** The remake vote in the action area, kept small (a phone's decision area is for the decision):
 * one line that opens on demand (what a remake is, and the button to call one), the open poll's
 * count and buttons, and how the last poll went until "OK". */
export function remakeBox(ctx) {
  const { table, view } = ctx;
  if (!table || table.status !== "playing" || !view || view.phase === "game_over") return null;
  const m = mem(ctx.tableId);
  const poll = table.remake;
  const early = !(view.liberal_policies || view.fascist_policies); // the server's window: no policy yet
  const result = early && table.remake_result && table.remake_result.at !== m.seenResult ? table.remake_result : null;
  const people = (table.seats || []).filter((s) => s.kind === "human" && view.alive && view.alive[s.seat]);
  const voter = people.some((s) => s.seat === ctx.seat);
  const canCall = voter && early && people.length >= REMAKE_PEOPLE;
  if (!poll && !result && !canCall) return null;
  if (poll && m.vote && m.vote.ends_at !== poll.ends_at) m.vote = null;
  const parts = [];
  if (poll) {
    parts.push(h("p", { class: "remake-count", role: "status", text: t("remake.open", { yes: poll.yes, no: poll.no, needed: poll.needed }) }));
    if (voter) {
      parts.push(h("div", { class: "button-row" },
        h("button", { type: "button", class: "btn btn-primary btn-small", dataset: { fkey: "remake-yes" }, onclick: () => vote(ctx, true, poll) }, t("remake.yes")),
        h("button", { type: "button", class: "btn btn-secondary btn-small", dataset: { fkey: "remake-no" }, onclick: () => vote(ctx, false, poll) }, t("remake.no"))));
    }
    const ends = t("remake.ends", { time: new Date(poll.ends_at * 1000).toLocaleTimeString(language()) });
    parts.push(h("p", { class: "hint", text: m.vote ? `${t(m.vote.yes ? "remake.voted_yes" : "remake.voted_no")} ${ends}` : ends }));
  } else {
    if (result) {
      parts.push(h("p", { class: "remake-result", role: "status" },
        h("span", { text: result.passed ? t("remake.passed") : t("remake.failed", { yes: result.yes, needed: result.needed }) }),
        h("button", { type: "button", class: "btn btn-secondary btn-small", dataset: { fkey: "remake-seen" }, onclick: () => { m.seenResult = result.at; ctx.rerender(); } }, t("app.ok"))));
    }
    if (canCall) {
      // Open or not survives the redraws (each update): the state is kept here, not in the element.
      parts.push(h("details", { class: "remake-more", open: m.remakeOpen, ontoggle: (ev) => { m.remakeOpen = ev.target.open; } },
        h("summary", {}, icon("draw"), h("span", { text: t("remake.title") })),
        h("p", { class: "hint", text: t("remake.hint") }),
        h("button", { type: "button", class: "btn btn-secondary btn-small", dataset: { fkey: "remake-call" }, onclick: () => vote(ctx, true, null) }, t("remake.call"))));
    }
  }
  return h("div", { class: "remake", role: "group", "aria-label": t("remake.title") }, parts);
}

function vote(ctx, yes, poll) {
  const m = mem(ctx.tableId);
  call(ctx, () => post(path(ctx, "/remake"), { vote: yes }), (detail) => {
    const open = detail && detail.remake;
    m.vote = open ? { yes, ends_at: open.ends_at } : null;
    if (!poll && !open) m.vote = null;
  });
}

// ------------------------------------------------------------------ the AFK vote
/** The other living people's seats the game has waited on, or that have been offline, for at
 * least the server's `afk_after` seconds by this page's clock (the server checks again): whom a
 * vote may replace now. A redraw is asked for when the next one becomes due (nothing else would
 * redraw the page while the table waits on someone). */
function awaySeats(ctx, m, people) {
  const now = Date.now();
  const toAct = new Set((ctx.view && ctx.view.to_act) || []);
  const after = (limits.afk_after ?? 60) * 1000;
  const due = [];
  let next = Infinity;
  for (const s of people) {
    if (s.seat === ctx.seat) continue;
    if (!(s.connected === false || toAct.has(s.seat))) { m.away.delete(s.seat); continue; }
    if (!m.away.has(s.seat)) m.away.set(s.seat, now);
    const at = m.away.get(s.seat) + after;
    if (at <= now) due.push(s);
    else next = Math.min(next, at);
  }
  clearTimeout(m.afkTimer);
  if (next < Infinity) m.afkTimer = setTimeout(() => ctx.rerender(), next - now + 50);
  return due;
}

/** The vote to replace an absent player by a bot, in the action area: the open poll (its count,
 * Yes and No; to its target, that she may keep her seat by playing), how the last one went until
 * "OK", or for a player, who seems away with the button that opens a vote. */
export function afkBox(ctx) {
  const { table, view } = ctx;
  if (!table || table.status !== "playing" || !view || view.phase === "game_over") return null;
  const m = mem(ctx.tableId);
  const alive = view.alive || [];
  const people = (table.seats || []).filter((s) => s.kind === "human" && alive[s.seat]);
  const voter = people.some((s) => s.seat === ctx.seat);
  const nameOf = (seat) => seatLabel((table.seats || [])[seat] || { seat, kind: "human" });
  const poll = table.afk;
  const result = table.afk_result && table.afk_result.at !== m.seenAfk ? table.afk_result : null;
  if (poll && m.afkVote && m.afkVote.ends_at !== poll.ends_at) m.afkVote = null;
  const parts = [];
  if (poll && poll.seat === ctx.seat) {
    parts.push(h("p", { class: "afk-you", role: "alert" }, icon("warning"), h("span", { text: t("afk.you") })));
  } else if (poll) {
    parts.push(h("p", { class: "afk-count", role: "status", text: t("afk.open", { name: nameOf(poll.seat), yes: poll.yes, no: poll.no, needed: poll.needed }) }));
    if (voter) {
      parts.push(h("div", { class: "button-row" },
        h("button", { type: "button", class: "btn btn-primary btn-small", dataset: { fkey: "afk-yes" }, onclick: () => afkVote(ctx, poll.seat, true) }, t("afk.yes")),
        h("button", { type: "button", class: "btn btn-secondary btn-small", dataset: { fkey: "afk-no" }, onclick: () => afkVote(ctx, poll.seat, false) }, t("afk.no"))));
    }
    const ends = t("remake.ends", { time: new Date(poll.ends_at * 1000).toLocaleTimeString(language()) });
    parts.push(h("p", { class: "hint", text: m.afkVote ? `${t(m.afkVote.yes ? "remake.voted_yes" : "remake.voted_no")} ${ends}` : ends }));
  } else {
    if (result) {
      const said = result.passed ? t("afk.passed", { name: nameOf(result.seat) }) : t("afk.failed", { name: nameOf(result.seat), yes: result.yes, needed: result.needed });
      parts.push(h("p", { class: "afk-result", role: "status" }, h("span", { text: said }),
        h("button", { type: "button", class: "btn btn-secondary btn-small", dataset: { fkey: "afk-seen" }, onclick: () => { m.seenAfk = result.at; ctx.rerender(); } }, t("app.ok"))));
    }
    if (voter) {
      for (const s of awaySeats(ctx, m, people)) {
        parts.push(h("div", { class: "afk-away" },
          h("span", { text: t("afk.away", { name: seatLabel(s) }) }),
          h("button", { type: "button", class: "btn btn-secondary btn-small", dataset: { fkey: `afk-call-${s.seat}` }, onclick: () => afkVote(ctx, s.seat, true) }, icon("bot"), h("span", { text: t("afk.call") }))));
      }
      if (parts.length && !result) parts.push(h("p", { class: "hint", text: limitText(table.rated ? "afk.hint.rated" : "afk.hint") }));
    }
  }
  if (!parts.length) return null;
  return h("div", { class: "afk", role: "group", "aria-label": t("afk.title") }, parts);
}

function afkVote(ctx, seat, yes) {
  const m = mem(ctx.tableId);
  call(ctx, () => post(path(ctx, "/afk"), { seat, vote: yes }), (detail) => {
    const open = detail && detail.afk;
    m.afkVote = open ? { yes, ends_at: open.ends_at } : null;
  });
}

// ------------------------------------------------------------------ rematch
/** On the end screen: "Rematch" (a new table, same people and settings) or the way to it. */
export function rematchButton(ctx) {
  const table = ctx.table;
  if (!table || !ctx.userId) return null;
  const seated = (table.seats || []).some((s) => s.kind === "human" && s.user_id === ctx.userId);
  if (!seated) return null;
  if (table.rematch) {
    return h("a", { class: "btn btn-secondary", id: "to-rematch", href: `#/t/${encodeURIComponent(table.rematch)}` }, icon("play"), h("span", { text: t("mygames.to_rematch") }));
  }
  return h("button", {
    type: "button", class: "btn btn-secondary", id: "rematch", dataset: { fkey: "rematch" },
    onclick: async () => {
      try {
        const next = await post(path(ctx, "/rematch"), {});
        location.hash = `#/t/${encodeURIComponent(next.id)}`;
      } catch (err) { ctx.showError(err.code, err.message, null, err.field); }
    },
  }, icon("play"), h("span", { text: t("mygames.rematch") }));
}
