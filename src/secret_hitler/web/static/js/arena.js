// The arena's leaderboard (#/arena): the report an arena run wrote (GET /api/arena, the file the
// server's operator configured; docs/llm.md "The leaderboard") and its plots. Every figure is
// the report's own, with its 95% interval; nothing is computed here but the order of the rows.
// Narrow screens first: each table scrolls sideways within its frame, the plots shrink to fit.
import { h, replace } from "./dom.js";
import { icon } from "./icons.js";
import { t, has, language } from "./i18n.js";
import { get, errorText } from "./api.js";

const ROLES = ["liberal", "fascist", "hitler"];

function styles() {
  if (document.getElementById("profile-css")) return;
  document.head.appendChild(h("link", { id: "profile-css", rel: "stylesheet", href: "/static/css/profile.css" }));
}

const num = (x, digits = 1) => new Intl.NumberFormat(language(), { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(x);
const percent = (x) => new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 0 }).format(x);

/** A share or rate with its interval: "40% (12–77%)"; "–" when nothing was counted. */
function share(cell) {
  if (!cell || !cell.n) return "–";
  const value = cell.rate !== undefined ? cell.rate : cell.share;
  return `${percent(value)} (${percent(cell.ci95[0])}–${percent(cell.ci95[1])})`;
}

/** A mean with its interval, as a share: "51% (46–57%)". */
function mean(cell) {
  if (!cell || !cell.n || cell.mean === null) return "–";
  return `${percent(cell.mean)} (${percent(cell.ci95[0])}–${percent(cell.ci95[1])})`;
}

/** A participant by name: a model as its endpoint and model name, a bot level in the page's
 * language. */
function who(report, level) {
  if (level.startsWith("llm:")) {
    const name = level.slice(4);
    const endpoint = ((report.settings || {}).endpoints || {})[name];
    return endpoint && endpoint.model ? `${name} (${endpoint.model})` : name;
  }
  return has(`bot.level.${level}`) ? t(`bot.level.${level}`) : level;
}

/** A table whose rows become cards on a phone: each cell carries its column's name
 * (``data-label``, shown before it by profile.css when the columns do not fit). */
function table(id, label, cols, rows) {
  return h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": label },
    h("table", { class: "rules-table stats-table arena-table", id },
      h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col", text: c })))),
      h("tbody", {}, rows.map((make) => make(cols.slice(1))))));
}

/** A participant's row: its name (a model marked as one), then ``cells`` under ``labels``. */
function row(report, level, cells) {
  const model = level.startsWith("llm:");
  return (labels) => h("tr", { class: model ? "is-model" : null },
    h("th", { scope: "row" }, h("span", { text: who(report, level) }),
      model ? h("span", { class: "badge badge-model" }, icon("bot"), h("span", { text: t("seat.model") })) : null),
    cells.map((c, i) => h("td", { "data-label": labels[i], text: c })));
}

export function mountArena(root) {
  styles();
  let report = null, error = null;

  function render() {
    const parts = [h("h1", { class: "page-title", text: t("arena.title") })];
    if (error) parts.push(h("p", { class: "error", role: "alert" }, icon("warning"), h("span", { text: error })));
    else if (!report) parts.push(h("p", { class: "hint", text: t("app.loading") }));
    else parts.push(...body(report));
    parts.push(h("p", {}, h("a", { href: "#/leaderboard", text: t("arena.back") })));
    replace(root, h("div", { class: "leaderboard-page arena-page" }, parts));
  }

  function body(r) {
    const out = [h("p", { class: "hint", text: t("arena.summary", { games: r.games, prompts: (r.prompt_versions || []).join(", ") || "–" }) })];
    const ratings = r.ratings || {};
    const levels = Object.keys(ratings).sort((a, b) => ratings[b].rating - ratings[a].rating);
    const answers = r.answers || {};
    const votes = r.human_votes || {};
    const wins = r.wins || {};
    out.push(h("h2", { text: t("arena.ratings") }), h("p", { class: "hint", text: t("arena.ratings.note") }));
    out.push(table("arena-ratings", t("arena.ratings"),
      [t("leaderboard.player"), t("leaderboard.rating"), t("arena.col.mu"), t("leaderboard.games"), t("arena.col.wins"), t("arena.col.votes"), t("arena.col.invalid"), t("arena.col.tokens")],
      levels.map((level) => {
        const x = ratings[level];
        const a = answers[level];
        const tokens = a ? a.per_game.prompt_tokens + a.per_game.completion_tokens : null;
        return row(r, level, [num(x.rating, 2), `${num(x.mu)} (${num(x.mu_ci95[0])}–${num(x.mu_ci95[1])})`, String(x.games),
          share((wins[level] || {}).all), votes[level] ? share(votes[level].agreement) : "–", a ? share(a.invalid_rate) : "–", tokens === null ? "–" : num(tokens, 0)]);
      })));
    out.push(h("h2", { text: t("arena.wins") }));
    out.push(table("arena-wins", t("arena.wins"), [t("leaderboard.player"), ...ROLES.map((role) => t(`role.${role}`))],
      levels.map((level) => row(r, level, ROLES.map((role) => share((wins[level] || {})[role]))))));
    const deception = r.deception || {};
    const liars = levels.filter((level) => deception[level]);
    if (liars.length) {
      out.push(h("h2", { text: t("arena.deception") }), h("p", { class: "hint", text: t("arena.deception.note") }));
      out.push(table("arena-deception", t("arena.deception"),
        [t("leaderboard.player"), ...ROLES.map((role) => t("arena.col.false_claims", { role: t(`role.${role}`) })), t("arena.col.moved"), t("arena.col.caught")],
        liars.map((level) => {
          const d = deception[level];
          return row(r, level, [...ROLES.map((role) => share((d.false_claims || {})[role])), share(d.moved_toward_lie), share(d.caught)]);
        })));
    }
    const deduction = r.deduction || {};
    const readers = levels.filter((level) => deduction[level]);
    if (readers.length) {
      out.push(h("h2", { text: t("arena.deduction") }), h("p", { class: "hint", text: t("arena.deduction.note") }));
      out.push(table("arena-deduction", t("arena.deduction"), [t("leaderboard.player"), t("arena.col.team_error"), t("arena.col.bayes_error")],
        readers.map((level) => row(r, level, [mean(deduction[level].team_error), mean(deduction[level].bayes_team_error)]))));
    }
    if ((r.plots || []).length) {
      out.push(h("h2", { text: t("arena.plots") }));
      for (const name of r.plots) {
        const key = `arena.plot.${name.replace(/\.png$/, "")}`;
        out.push(h("figure", { class: "arena-plot" },
          h("img", { src: `/api/arena/plots/${encodeURIComponent(name)}`, alt: has(key) ? t(key) : name, loading: "lazy" }),
          has(key) ? h("figcaption", { class: "hint", text: t(key) }) : null));
      }
    }
    return out;
  }

  async function load() {
    try {
      report = await get("/api/arena");
    } catch (err) {
      error = err.code === "no_arena" ? t("arena.empty") : errorText(err.code, err.message);
    }
    render();
  }

  render();
  load();
  return { render, destroy() {} };
}
