// The leaderboard (#/leaderboard; a season's: #/leaderboard?season=ID, seasons.js) and player
// profiles (#/players/ID): ratings of rated tables (docs/protocol.md "Ratings"), the rating
// history as an inline SVG chart drawn here, the player's seasons, and the moderation buttons
// (block, report; docs/protocol.md "Moderation").
import { h, replace, announce } from "./dom.js";
import { icon } from "./icons.js";
import { t, has, language } from "./i18n.js";
import { limits } from "./limits.js";
import { get, post, request, errorText, currentUser } from "./api.js";
import { seasonParts, profileSeasons, standingBox } from "./seasons.js";

const PERIODS = ["week", "month", "all"];
const SVG = "http://www.w3.org/2000/svg";

function styles() {
  if (document.getElementById("profile-css")) return;
  document.head.appendChild(h("link", { id: "profile-css", rel: "stylesheet", href: "/static/css/profile.css" }));
}

const num = (x, digits = 1) => new Intl.NumberFormat(language(), { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(x);
const pct = (x) => (x === null || x === undefined ? "–" : new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 0 }).format(x));
const day = (ts) => new Intl.DateTimeFormat(language(), { dateStyle: "medium" }).format(new Date(ts * 1000));

/** A bot level in the page's language ("Hard", "Сложный"); a level the catalogs do not know (a
 * server's own) by its name. */
const levelName = (level) => (has(`bot.level.${level}`) ? t(`bot.level.${level}`) : level);

function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined && c !== false) el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

/** The rating after each rated game, as a line with a dot per game (no library). */
export function ratingChart(history) {
  const W = 600, H = 220, L = 44, R = 12, T = 12, B = 28;
  const values = history.map((p) => p.rating);
  // whole numbers around the values, at least 4 apart (so the three ticks read well)
  let lo = Math.floor(Math.min(...values)) - 1, hi = Math.ceil(Math.max(...values)) + 1;
  if (hi - lo < 4) { const mid = Math.round((lo + hi) / 2); lo = mid - 2; hi = mid + 2; }
  const x = (i) => L + (history.length === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (history.length - 1));
  const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
  const label = t("profile.history.label", { count: history.length, first: day(history[0].ts), last: day(history[history.length - 1].ts) });
  const ticks = [lo, (lo + hi) / 2, hi];
  const tickDigits = Number.isInteger((lo + hi) / 2) ? 0 : 1;
  return svg("svg", { class: "rating-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label, "data-points": history.length },
    svg("title", {}, label),
    ticks.map((v) => [
      svg("line", { class: "grid", x1: L, x2: W - R, y1: y(v), y2: y(v) }),
      svg("text", { class: "tick", x: L - 6, y: y(v) + 4, "text-anchor": "end" }, num(v, tickDigits)),
    ]),
    svg("text", { class: "tick", x: L, y: H - 8, "text-anchor": "start" }, day(history[0].ts)),
    svg("text", { class: "tick", x: W - R, y: H - 8, "text-anchor": "end" }, day(history[history.length - 1].ts)),
    svg("polyline", { class: "line", fill: "none", points: history.map((p, i) => `${x(i)},${y(p.rating)}`).join(" ") }),
    history.map((p, i) => svg("circle", { class: p.won ? "dot won" : "dot lost", cx: x(i), cy: y(p.rating), r: 4 },
      svg("title", {}, `${day(p.ts)}: ${num(p.rating)} (${t(`role.${p.role}`)}, ${t(p.left ? "profile.left" : p.won ? "profile.won" : "profile.lost")})`))));
}

function rateTable(caption, firstCol, rows) {
  return h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": caption },
    h("table", { class: "rules-table stats-table" },
      h("caption", { text: caption }),
      h("thead", {}, h("tr", {}, [firstCol, t("profile.col.games"), t("profile.col.wins"), t("profile.col.rate")].map((c) => h("th", { scope: "col", text: c })))),
      h("tbody", {}, rows.map(([name, s]) => h("tr", {},
        h("th", { scope: "row", text: name }), h("td", { text: s.games }), h("td", { text: s.wins }), h("td", { text: pct(s.win_rate) }))))));
}

/** Why a report was refused, in words that say what to fix: the server names what it did
 * not find (`field`: the player or the game; a game the reporter may not see reads as one
 * that does not exist). */
function reportRefusal(err) {
  if (err.code === "not_found" && err.field === "game") return t("profile.report.no_game");
  if (err.code === "not_found" && err.field === "player") return t("profile.not_found");
  return errorText(err.code, err.message);
}

export function mountProfile(root, userId) {
  styles();
  let data = null, error = null, me = null, blocked = false, notice = null, reporting = false;
  let standing = null; // one's own: may one take a rated seat now (seasons.js)
  let pending = false; // a block or a report on its way: their buttons wait for its answer
  // the report being written: every render makes the form anew, and a refused report keeps it
  const draft = { reason: "", game: "" };

  function moderation() {
    if (!me || me.user_id === userId) return null;
    const reason = h("textarea", { id: "report-reason", maxlength: limits.report_max, rows: "3", required: true, oninput: (ev) => { draft.reason = ev.target.value; } });
    reason.value = draft.reason;
    const game = h("input", { id: "report-game", maxlength: "32", autocomplete: "off", value: draft.game, oninput: (ev) => { draft.game = ev.target.value; } });
    const form = reporting ? h("form", { class: "report-form", onsubmit: (ev) => {
      ev.preventDefault();
      const body = { player: userId, reason: draft.reason };
      if (draft.game.trim()) body.game = draft.game.trim();
      settle(async () => {
        try {
          await post("/api/reports", body);
          reporting = false;
          draft.reason = draft.game = "";
          notice = { text: t("profile.report.sent") };
        } catch (err) {
          notice = { text: reportRefusal(err), error: true };
        }
        announce(notice.text);
      });
    } },
      h("div", { class: "field" }, h("label", { for: "report-reason", text: t("profile.report.reason") }), reason),
      h("div", { class: "field" }, h("label", { for: "report-game", text: t("profile.report.game") }), game),
      h("div", { class: "button-row" },
        h("button", { type: "submit", class: "btn btn-danger", disabled: pending, text: t("profile.report.send") }),
        h("button", { type: "button", class: "btn btn-secondary", text: t("app.cancel"), onclick: () => { reporting = false; draft.reason = draft.game = ""; render(); } }))) : null;
    return h("section", { class: "profile-moderation" },
      blocked ? h("p", { class: "hint", text: t("profile.blocked") }) : null,
      h("div", { class: "button-row" },
        h("button", { type: "button", id: "block-toggle", class: "btn btn-secondary", disabled: pending, text: t(blocked ? "profile.unblock" : "profile.block"), onclick: () => settle(toggleBlock) }),
        reporting ? null : h("button", { type: "button", id: "report-open", class: "btn btn-secondary", text: t("profile.report"), onclick: () => { reporting = true; notice = null; render(); } })),
      form,
      // the answer to a block or a report, where it was asked
      notice ? h("p", { class: notice.error ? "error" : "notice", role: notice.error ? "alert" : "status", text: notice.text }) : null);
  }

  /** One block or report at a time: a second press before the answer would send it again. */
  async function settle(work) {
    if (pending) return;
    pending = true;
    render();
    try {
      await work();
    } finally {
      pending = false;
      render();
    }
  }

  async function toggleBlock() {
    try {
      if (blocked) await request("DELETE", `/api/blocks/${encodeURIComponent(userId)}`);
      else await post("/api/blocks", { player: userId });
      blocked = !blocked;
      notice = null;
    } catch (err) {
      notice = { text: errorText(err.code, err.message), error: true };
    }
  }

  function render() {
    const parts = [];
    if (error) parts.push(h("p", { class: "error", role: "alert" }, icon("warning"), h("span", { text: error })));
    else if (!data) parts.push(h("p", { class: "hint", text: t("app.loading") }));
    else {
      const r = data.rating;
      parts.push(h("h1", { class: "page-title", text: data.name }));
      parts.push(h("dl", { class: "facts profile-facts" },
        h("dt", { text: t("profile.rating") }), h("dd", { id: "profile-rating", text: num(r.rating) }),
        h("dt", { text: t("profile.rated_games") }), h("dd", { text: data.rated_games }),
        h("dt", { text: t("profile.games") }), h("dd", { id: "profile-games", text: data.games }),
        h("dt", { text: t("profile.win_rate") }), h("dd", { text: pct(data.win_rate) })));
      parts.push(h("p", { class: "hint", text: t("profile.rating_detail", { mu: num(r.mu), sigma: num(r.sigma) }) }));
      parts.push(h("h2", { text: t("profile.history.title") }));
      parts.push(data.history.length ? h("figure", { class: "chart" }, ratingChart(data.history)) : h("p", { class: "empty", text: t("profile.history.empty") }));
      const roles = Object.entries(data.by_role).map(([role, s]) => [t(`role.${role}`), s]);
      parts.push(rateTable(t("profile.by_role.title"), t("profile.col.role"), roles));
      const counts = Object.entries(data.by_players).map(([n, s]) => [t("profile.players", { count: n }), s]);
      if (counts.length) parts.push(rateTable(t("profile.by_players.title"), t("profile.col.players"), counts));
      parts.push(standingBox(standing));
      parts.push(profileSeasons(data.seasons, pct));
      parts.push(moderation());
    }
    parts.push(h("p", {}, h("a", { href: "#/leaderboard", text: t("leaderboard.title") })));
    replace(root, h("div", { class: "profile-page" }, parts));
  }

  async function load() {
    try {
      data = await get(`/api/players/${encodeURIComponent(userId)}`);
    } catch (err) {
      error = err.code === "not_found" ? t("profile.not_found") : errorText(err.code, err.message);
    }
    try {
      me = await currentUser();
      if (me && me.user_id !== userId) {
        const list = await get("/api/blocks");
        blocked = list.blocked.some((b) => b.user_id === userId);
      }
      if (me && me.user_id === userId) standing = await get("/api/me/standing");
    } catch {
      me = null;
    }
    render();
  }

  render();
  load();
  return { render, destroy() {} };
}

export function mountLeaderboard(root, params) {
  styles();
  const season = typeof params.season === "string" && params.season ? params.season : null;
  const period = PERIODS.includes(params.period) ? params.period : "all";
  let data = null, error = null, seasons = null;
  let arena = false; // whether the server shows an arena's results (#/arena)

  function render() {
    const parts = [h("h1", { class: "page-title", text: t("leaderboard.title") })];
    parts.push(h("nav", { class: "button-row period-tabs", "aria-label": t("leaderboard.period") },
      PERIODS.map((p) => h("a", { class: p === period && !season ? "btn btn-primary" : "btn btn-secondary", href: `#/leaderboard?period=${p}`, "aria-current": p === period && !season ? "page" : null, text: t(`leaderboard.period.${p}`) })),
      h("a", { class: season ? "btn btn-primary" : "btn btn-secondary", id: "season-tab", href: "#/leaderboard?season=current", "aria-current": season ? "page" : null, text: t("season.tab") }),
      h("a", { class: "btn btn-secondary", id: "tournaments-tab", href: "#/tournaments", text: t("nav.tournaments") })));
    if (arena) parts.push(h("p", {}, h("a", { id: "arena-link", href: "#/arena" }, icon("bot"), h("span", { text: t("arena.link") }))));
    if (error) parts.push(h("p", { class: "error", role: "alert" }, icon("warning"), h("span", { text: error })));
    else if (season) parts.push(seasons || h("p", { class: "hint", text: t("app.loading") }));
    else if (!data) parts.push(h("p", { class: "hint", text: t("app.loading") }));
    else {
      if (!data.players.length) parts.push(h("p", { class: "empty", text: t("leaderboard.empty") }));
      else {
        const withWins = period !== "all";
        const cols = [t("leaderboard.rank"), t("leaderboard.player"), t("leaderboard.rating"), t("leaderboard.games"), withWins ? t("leaderboard.wins") : null].filter(Boolean);
        parts.push(h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": t("leaderboard.title") },
          h("table", { class: "rules-table stats-table", id: "leaderboard" },
            h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col", text: c })))),
            h("tbody", {}, data.players.map((p, i) => h("tr", {},
              h("td", { text: i + 1 }),
              h("th", { scope: "row" }, h("a", { href: `#/players/${encodeURIComponent(p.user_id)}`, text: p.name })),
              h("td", { text: num(p.rating) }), h("td", { text: p.games }), withWins ? h("td", { text: p.wins }) : null))))));
      }
      if (data.bots.length) {
        parts.push(h("h2", { text: t("leaderboard.bots.title") }), h("p", { class: "hint", text: t("leaderboard.bots.note") }));
        parts.push(h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": t("leaderboard.bots.title") },
          h("table", { class: "rules-table stats-table", id: "bot-ratings" },
            h("thead", {}, h("tr", {}, [t("leaderboard.bots.level"), t("leaderboard.rating"), t("leaderboard.games")].map((c) => h("th", { scope: "col", text: c })))),
            h("tbody", {}, data.bots.map((b) => h("tr", {}, h("th", { scope: "row", text: levelName(b.level) }), h("td", { text: num(b.rating) }), h("td", { text: b.games })))))));
      }
    }
    replace(root, h("div", { class: "leaderboard-page" }, parts));
  }

  async function load() {
    try {
      if (season) seasons = await seasonParts(season);
      else data = await get(`/api/leaderboard?period=${period}`);
    } catch (err) {
      error = err.code === "not_found" ? t("season.not_found") : errorText(err.code, err.message);
    }
    render();
  }

  // the arena's leaderboard of language models, linked when the server shows one
  get("/api/arena").then(() => { arena = true; render(); }, () => {});

  render();
  load();
  return { render, destroy() {} };
}
