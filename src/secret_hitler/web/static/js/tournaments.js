// Tournaments (docs/competitive.md "Tournaments", docs/protocol.md "Tournaments"): the list with
// the form that creates one (#/tournaments), and a tournament's page (#/tournaments/ID): sign-up,
// check-in and withdrawal, the host's steps, the standings, and each round's tables (a bracket
// for single elimination, a table of rounds for Swiss), with the way to one's own table. The
// server decides everything (who plays where, the points, the order); this module shows it, and
// asks again every few seconds while the tournament is open, so the standings move as games end.
import { h, replace, redraw } from "./dom.js";
import { icon } from "./icons.js";
import { t, has, language, list as joinList } from "./i18n.js";
import { get, post, currentUser, errorText } from "./api.js";
import { timerLabel } from "./format.js";

const REFRESH_MS = 4000;
const FORMATS = ["swiss", "elimination"];
const CATEGORIES = ["casual", "rated", "practice"];
const SCORINGS = ["balanced", "flat"];
const OPEN = ["signup", "checkin", "running"];
const TIMERS = [null, 30, 60, 90, 120, 300]; // seconds per decision: a tournament is played live

function styles() {
  if (document.getElementById("tournaments-css")) return;
  document.head.appendChild(h("link", { id: "tournaments-css", rel: "stylesheet", href: "/static/css/tournaments.css" }));
}

const when = (ts) => new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(ts * 1000));
const points = (x) => new Intl.NumberFormat(language(), { maximumFractionDigits: 3 }).format(x);

/** An error of the server in the page's words; the refused setting named in ours. */
function problem(err) {
  const text = errorText(err.code, err.message, null, null);
  const key = err.field === "timer" ? "lobby.timer" : `tournament.form.${err.field}`;
  const field = err.field && has(key) ? ` ${t("error.field", { field: t(key) })}` : "";
  return text + field;
}

const statusBadge = (status) => h("span", { class: `badge tournament-${status}`, text: t(`tournament.status.${status}`) });

/** "Swiss, 3 rounds · tables of 7 · Casual" */
function summary(tm) {
  const parts = [tm.format === "swiss" ? t("tournament.swiss_rounds", { rounds: tm.rounds }) : t("tournament.format.elimination"),
    t("tournament.table_size", { players: tm.players }), t(`category.${tm.category}`)];
  return parts.join(" · ");
}

// ---------------------------------------------------------------------- the list
export function mountTournaments(root) {
  styles();
  let list = null, user = null, error = null, formError = null, busy = false;

  function field(name, control, hint, label = `tournament.form.${name}`) {
    return h("div", { class: "field" },
      h("label", { for: `tournament-${name}`, text: t(label) }), control,
      hint ? h("p", { class: "hint", text: hint }) : null);
  }

  // what the form holds (kept across a refusal, so that nothing typed is lost)
  let draft = null;

  function createForm() {
    if (!user || !user.username) return h("p", { class: "hint", id: "tournament-sign-in", text: t("tournament.create.sign_in") });
    if (!draft) {
      const start = new Date(Date.now() + 3600 * 1000);
      start.setSeconds(0, 0);
      draft = {
        name: "", format: "swiss", players: "7", rounds: "3", category: "casual", scoring: "balanced", timer: "", max_entrants: "40",
        starts_at: new Date(start.getTime() - start.getTimezoneOffset() * 60000).toISOString().slice(0, 16), checkin: "15",
      };
    }
    const select = (name, values, label) => h("select", { id: `tournament-${name}`, name },
      values.map((v) => h("option", { value: v, selected: v === draft[name] }, label(v))));
    const number = (name, min, max) => h("input", { id: `tournament-${name}`, name, type: "number", min, max, value: draft[name], inputmode: "numeric", required: true });
    const form = h("form", { id: "tournament-form", class: "tournament-form", onsubmit: submit },
      field("name", h("input", { id: "tournament-name", name: "name", value: draft.name, required: true, maxlength: 24, autocomplete: "off" })),
      field("format", select("format", FORMATS, (v) => t(`tournament.format.${v}`)), t("tournament.form.format_hint")),
      field("players", number("players", 5, 10), t("tournament.form.players_hint")),
      field("rounds", number("rounds", 1, 12)),
      field("category", select("category", CATEGORIES, (v) => t(`category.${v}`))),
      field("scoring", select("scoring", SCORINGS, (v) => t(`tournament.scoring.${v}`)), t("tournament.form.scoring_hint")),
      field("timer", select("timer", TIMERS.map((v) => (v === null ? "" : String(v))), (v) => timerLabel(v === "" ? null : Number(v))), t("lobby.timer.hint"), "lobby.timer"),
      field("max_entrants", number("max_entrants", 5, 200)),
      field("starts_at", h("input", { id: "tournament-starts_at", name: "starts_at", type: "datetime-local", value: draft.starts_at, required: true })),
      field("checkin", number("checkin", 0, 1440), t("tournament.form.checkin_hint")),
      formError ? h("p", { class: "error", role: "alert", id: "tournament-form-error" }, icon("warning"), h("span", { text: formError })) : null,
      h("div", { class: "button-row" }, h("button", { class: "btn btn-primary", type: "submit", disabled: busy, text: t("tournament.create.submit") })));
    return h("details", { class: "tournament-create", open: formError !== null },
      h("summary", { text: t("tournament.create.title") }), form);
  }

  async function submit(ev) {
    ev.preventDefault();
    const f = ev.target.elements;
    draft = Object.fromEntries(Object.keys(draft).map((k) => [k, f[k].value]));
    const starts = new Date(draft.starts_at).getTime() / 1000;
    const body = {
      name: draft.name.trim(), format: draft.format, players: Number(draft.players),
      category: draft.category, scoring: draft.scoring, max_entrants: Number(draft.max_entrants),
      starts_at: Number.isFinite(starts) ? starts : 0, checkin: Number(draft.checkin) * 60,
    };
    if (body.format === "swiss") body.rounds = Number(draft.rounds);
    if (draft.timer) body.timer = Number(draft.timer);
    busy = true;
    try {
      const made = await post("/api/tournaments", body);
      location.hash = `#/tournaments/${encodeURIComponent(made.id)}`;
    } catch (err) {
      formError = problem(err);
      busy = false;
      render();
    }
  }

  function card(tm) {
    return h("li", {}, h("a", { class: "tournament-card", href: `#/tournaments/${encodeURIComponent(tm.id)}`, dataset: { tournament: tm.id } },
      h("span", { class: "tournament-name", text: tm.name }), statusBadge(tm.status),
      h("span", { class: "hint", text: summary(tm) }),
      h("span", { class: "hint", text: t("tournament.starts", { time: when(tm.starts_at) }) }),
      h("span", { class: "hint", text: t("tournament.entrants_count", { count: tm.entrants, max: tm.max_entrants }) })));
  }

  function render() {
    const parts = [h("h1", { class: "page-title", text: t("tournament.title") }), h("p", { class: "hint", text: t("tournament.intro") })];
    if (error) parts.push(h("p", { class: "error", role: "alert" }, icon("warning"), h("span", { text: error })));
    else if (!list) parts.push(h("p", { class: "hint", text: t("app.loading") }));
    else {
      parts.push(createForm());
      const open = list.filter((x) => OPEN.includes(x.status));
      const past = list.filter((x) => !OPEN.includes(x.status));
      parts.push(h("h2", { text: t("tournament.open") }));
      parts.push(open.length ? h("ul", { class: "tournament-list", id: "tournaments-open" }, open.map(card)) : h("p", { class: "empty", text: t("tournament.none") }));
      if (past.length) parts.push(h("h2", { text: t("tournament.past") }), h("ul", { class: "tournament-list", id: "tournaments-past" }, past.map(card)));
    }
    replace(root, h("div", { class: "tournaments-page" }, parts));
  }

  (async () => {
    try {
      user = await currentUser();
      list = (await get("/api/tournaments")).tournaments;
    } catch (err) {
      error = problem(err);
    }
    render();
  })();
  render();
  return { render, destroy() {} };
}

// ---------------------------------------------------------------------- a tournament
function seatLine(seat, current) {
  const classes = ["round-seat"];
  if (seat.user_id === current) classes.push("me");
  if (seat.left) classes.push("left");
  if (seat.won) classes.push("won");
  const result = seat.role === null ? null
    : h("span", { class: "seat-result" },
      seat.role !== "none" ? h("span", { class: `role role-${seat.role}`, text: t(`role.${seat.role}`) }) : null,
      h("span", { class: "seat-points", text: t("tournament.points_short", { points: points(seat.points) }) }),
      seat.left ? h("span", { class: "badge standin", text: t("tournament.bot_finished") }) : null);
  return h("li", { class: classes.join(" ") }, h("span", { class: "seat-name", text: seat.name || "?" }), result);
}

/** `next`: the people of the round after this table's (an elimination: who went on from it, as
 * the server seated them), or null when there is none yet. */
function roundTable(tb, index, current, next) {
  const mine = tb.seats.some((s) => s.user_id === current);
  const live = !tb.done && tb.status === "playing";
  return h("article", { class: `round-table${mine ? " mine" : ""}${tb.done ? " done" : ""}`, dataset: { table: tb.table_id } },
    h("h4", {}, h("span", { text: t("tournament.table", { number: index + 1 }) }),
      h("a", { href: `#/t/${encodeURIComponent(tb.table_id)}`, class: "table-link", text: live ? t(mine ? "tournament.play" : "tournament.watch") : t("tournament.open_table") })),
    h("ol", { class: "round-seats" }, tb.seats.map((s) => seatLine(s, current))),
    next && tb.done ? h("p", { class: "hint", text: t("tournament.advanced", { names: joinList(tb.seats.filter((s) => next.has(s.user_id)).map((s) => s.name)) || "–" }) }) : null);
}

function rounds(tm, current) {
  if (!tm.round_tables.length) return null;
  const cls = tm.format === "elimination" ? "bracket" : "swiss-rounds";
  return h("section", { class: cls, id: "tournament-rounds", "aria-labelledby": "tournament-rounds-title" },
    h("h2", { id: "tournament-rounds-title", text: t(tm.format === "elimination" ? "tournament.bracket" : "tournament.rounds") }),
    h("div", { class: `${cls}-columns` }, tm.round_tables.map((r, k) => {
      const after = tm.format === "elimination" ? tm.round_tables[k + 1] : null;
      const next = after ? new Set(after.tables.flatMap((tb) => tb.seats.map((s) => s.user_id))) : null;
      return h("div", { class: "round", dataset: { round: r.round } },
        h("h3", { text: t("tournament.round", { number: r.round }) }),
        r.tables.map((tb, i) => roundTable(tb, i, current, next)));
    })));
}

function standings(tm, current) {
  if (!tm.standings.length) return null;
  const cols = ["leaderboard.rank", "leaderboard.player", "tournament.col.points", "leaderboard.games", "leaderboard.wins", "tournament.col.left", "tournament.col.strength"];
  return h("section", { id: "tournament-standings", "aria-labelledby": "standings-title" },
    h("h2", { id: "standings-title", text: t("tournament.standings") }),
    h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": t("tournament.standings") },
      h("table", { class: "rules-table stats-table standings-table" },
        h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col", text: t(c) })))),
        h("tbody", {}, tm.standings.map((ln) => h("tr", { class: ln.user_id === current ? "me" : null, dataset: { user: ln.user_id } },
          h("td", { "data-label": t("leaderboard.rank"), text: ln.rank }),
          h("th", { scope: "row" }, h("a", { href: `#/players/${encodeURIComponent(ln.user_id)}`, text: ln.name }),
            ln.champion ? h("span", { class: "badge champion" }, icon("win"), h("span", { text: t("tournament.champion") })) : null,
            ["dropped", "withdrawn", "out"].includes(ln.state) ? h("span", { class: `badge state-${ln.state}`, text: t(`tournament.state.${ln.state}`) }) : null),
          h("td", { "data-label": t("tournament.col.points"), text: points(ln.points) }),
          h("td", { "data-label": t("leaderboard.games"), text: ln.games }),
          h("td", { "data-label": t("leaderboard.wins"), text: ln.wins }),
          h("td", { "data-label": t("tournament.col.left"), class: ln.left ? "left" : null, text: ln.left }),
          h("td", { "data-label": t("tournament.col.strength"), text: points(ln.strength) })))))),
    tm.standings.some((ln) => ln.left) ? h("p", { class: "hint", id: "standings-left-note", text: t("tournament.left_note") }) : null,
    h("p", { class: "hint", text: t("tournament.tiebreaks") }));
}

function pointsTable(tm) {
  const rows = Object.entries(tm.points);
  return h("details", { class: "tournament-points" },
    h("summary", { text: t("tournament.points_title") }),
    h("p", { class: "hint", text: t(`tournament.scoring.${tm.scoring}.hint`) }),
    h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": t("tournament.points_title") },
      h("table", { class: "rules-table stats-table" },
        h("thead", {}, h("tr", {}, [t("lobby.create.players"), t("tournament.col.liberal_win"), t("tournament.col.fascist_win")].map((c) => h("th", { scope: "col", text: c })))),
        h("tbody", {}, rows.map(([n, p]) => h("tr", {}, h("th", { scope: "row", text: n }), h("td", { text: points(p.liberal) }), h("td", { text: points(p.fascist) })))))));
}

export function mountTournament(root, id) {
  styles();
  let tm = null, user = null, error = null, actionError = null, busy = false, timer = null, gone = false;

  const me = () => (user && tm ? tm.entrants.find((e) => e.user_id === user.user_id) || null : null);

  async function act(path) {
    busy = true;
    actionError = null;
    render();
    try {
      tm = await post(`/api/tournaments/${encodeURIComponent(id)}/${path}`);
    } catch (err) {
      actionError = problem(err);
    }
    busy = false;
    render();
  }

  function button(path, key, primary = false) {
    return h("button", { class: primary ? "btn btn-primary" : "btn btn-secondary", id: `tournament-${path}`, type: "button", disabled: busy, onclick: () => act(path), text: t(key) });
  }

  function actions() {
    if (!OPEN.includes(tm.status)) return null;
    const entry = me();
    const row = [];
    let note = null;
    if (!user) note = t("tournament.sign_in");
    else if (!entry && tm.status !== "running") row.push(button("signup", "tournament.sign_up", true));
    else if (entry && entry.state === "signed" && tm.status === "checkin") row.push(button("checkin", "tournament.check_in", true));
    if (entry) {
      note = t(`tournament.you.${entry.state}`);
      if (["signed", "checked", "playing"].includes(entry.state)) row.push(button("withdraw", "tournament.withdraw"));
    }
    if (user && user.user_id === tm.host) {
      if (tm.status === "signup" && tm.checkin > 0) row.push(button("open-checkin", "tournament.open_checkin"));
      if (tm.status === "checkin" || (tm.status === "signup" && tm.checkin === 0)) row.push(button("start", "tournament.start", true));
      row.push(button("cancel", "tournament.cancel"));
    }
    const mine = tm.status === "running" && user
      ? tm.round_tables.flatMap((r) => r.tables).find((tb) => !tb.done && tb.seats.some((s) => s.user_id === user.user_id))
      : null;
    return h("section", { class: "tournament-actions", id: "tournament-actions" },
      mine ? h("a", { class: "btn btn-primary your-table", id: "your-table", href: `#/t/${encodeURIComponent(mine.table_id)}` }, icon("play"), h("span", { text: t("tournament.your_table") })) : null,
      note ? h("p", { id: "tournament-you", text: note }) : null,
      row.length ? h("div", { class: "button-row" }, row) : null,
      actionError ? h("p", { class: "error", role: "alert", id: "tournament-error" }, icon("warning"), h("span", { text: actionError })) : null);
  }

  function head() {
    const facts = [
      [t("tournament.host"), tm.host_name],
      [t("tournament.format"), summary(tm)],
      [t("tournament.scoring"), t(`tournament.scoring.${tm.scoring}`)],
      [t("lobby.timer"), timerLabel(tm.timer)],
      [t("tournament.starts_at"), when(tm.starts_at)],
      [t("tournament.checkin_opens"), when(tm.checkin_opens)],
      [t("tournament.entrants"), `${tm.entrants.length} / ${tm.max_entrants}`],
    ];
    if (tm.status === "running") facts.push([t("tournament.current_round"), tm.format === "swiss" ? t("tournament.round_of", { number: tm.round, rounds: tm.rounds }) : t("tournament.round", { number: tm.round })]);
    return [
      h("h1", { class: "page-title tournament-title" }, h("span", { text: tm.name }), statusBadge(tm.status)),
      h("dl", { class: "facts tournament-facts" }, facts.flatMap(([k, v]) => [h("dt", { text: k }), h("dd", { text: v })])),
    ];
  }

  function entrants() {
    if (tm.status === "running" || tm.status === "finished" || !tm.entrants.length) return null;
    return h("section", { id: "tournament-entrants" }, h("h2", { text: t("tournament.entrants") }),
      h("ul", { class: "entrant-list" }, tm.entrants.map((e) => h("li", { dataset: { user: e.user_id } },
        h("span", { text: e.name }), h("span", { class: `badge state-${e.state}`, text: t(`tournament.state.${e.state}`) })))));
  }

  // drawn again only when what it shows changed (``redraw``: it polls while the tournament is open)
  function render() {
    if (gone) return;
    redraw(root, [tm, user, error, actionError, busy], () => {
      const parts = [h("p", {}, h("a", { href: "#/tournaments", text: t("tournament.all") }))];
      if (error) parts.push(h("p", { class: "error", role: "alert" }, icon("warning"), h("span", { text: error })));
      else if (!tm) parts.push(h("p", { class: "hint", text: t("app.loading") }));
      else {
        const current = user ? user.user_id : null;
        parts.push(...head(), actions(), entrants(), standings(tm, current), rounds(tm, current), pointsTable(tm));
      }
      return h("div", { class: "tournament-page", dataset: { status: tm ? tm.status : "" } }, parts);
    });
  }

  async function load() {
    try {
      tm = await get(`/api/tournaments/${encodeURIComponent(id)}`);
      error = null;
    } catch (err) {
      error = problem(err);
    }
    render();
    if (!gone && (!tm || OPEN.includes(tm.status))) timer = setTimeout(load, REFRESH_MS);
  }

  (async () => {
    try { user = await currentUser(); } catch { user = null; }
    load();
  })();
  render();
  return { render, destroy() { gone = true; clearTimeout(timer); } };
}
