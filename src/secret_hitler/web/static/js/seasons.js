// Seasons on the leaderboard and the profile (docs/competitive.md, docs/protocol.md "Seasons"):
// a season's ladder (#/leaderboard?season=ID) with the list of seasons, current and past; on a
// profile, each season the player played (rating, rank or placement, wins and leaves, win rates
// by role and by player count); and on one's own profile whether one may take a rated seat now.
// The server decides every figure; this module shows them.
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { t, language } from "./i18n.js";
import { get } from "./api.js";

const num = (x) => new Intl.NumberFormat(language(), { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(x);
const day = (ts) => new Intl.DateTimeFormat(language(), { dateStyle: "medium" }).format(new Date(ts * 1000));
const when = (ts) => new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(ts * 1000));

/** "1 Jan 2027 – 1 Apr 2027" in the page's language. */
export function seasonDates(season) {
  return t("season.dates", { start: day(season.starts_at), end: day(season.ends_at) });
}

/** The seasons as links (the chosen one marked), current and upcoming first, then the past. */
function seasonLinks(seasons, chosen) {
  return h("nav", { class: "season-list", "aria-label": t("season.list") },
    h("ul", {}, seasons.map((s) => h("li", {},
      h("a", { href: `#/leaderboard?season=${encodeURIComponent(s.id)}`, "aria-current": s.id === chosen ? "page" : null, class: s.id === chosen ? "current" : null },
        h("span", { class: "season-name", text: s.name }),
        h("span", { class: `badge season-${s.state}`, text: t(`season.state.${s.state}`) }),
        h("span", { class: "hint", text: seasonDates(s) }))))));
}

/** A season's ladder: rank, player, rating, games, wins, leaves. */
function ladderTable(board) {
  const cols = ["leaderboard.rank", "leaderboard.player", "leaderboard.rating", "leaderboard.games", "leaderboard.wins", "season.leaves"];
  return h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": board.season.name },
    h("table", { class: "rules-table stats-table season-ladder", id: "season-ladder" },
      h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col", text: t(c) })))),
      h("tbody", {}, board.players.map((p) => h("tr", {},
        h("td", { "data-label": t("leaderboard.rank"), text: p.rank }),
        h("th", { scope: "row" }, h("a", { href: `#/players/${encodeURIComponent(p.user_id)}`, text: p.name })),
        h("td", { "data-label": t("leaderboard.rating"), text: num(p.rating) }),
        h("td", { "data-label": t("leaderboard.games"), text: p.games }),
        h("td", { "data-label": t("leaderboard.wins"), text: p.wins }),
        h("td", { "data-label": t("season.leaves"), text: p.leaves }))))));
}

/**
 * The seasons part of the leaderboard page for `wanted` ("current" or a season id): its parts
 * once loaded, drawn by `draw(parts)` (the page's own render).
 */
export async function seasonParts(wanted) {
  const { seasons, current } = await get("/api/seasons");
  if (!seasons.length) return [h("p", { class: "empty", id: "no-seasons", text: t("season.none") })];
  const id = wanted === "current" || !wanted ? (current || seasons[0].id) : wanted;
  const board = await get(`/api/seasons/${encodeURIComponent(id)}/ladder`);
  const season = board.season;
  const parts = [
    h("h2", { id: "season-title" }, h("span", { text: season.name }), h("span", { class: `badge season-${season.state}`, text: t(`season.state.${season.state}`) })),
    h("p", { class: "hint", text: `${seasonDates(season)} · ${t("season.placement", { count: season.placement })}` }),
  ];
  if (board.players.length) parts.push(ladderTable(board));
  else parts.push(h("p", { class: "empty", text: t("season.empty") }));
  if (board.placing) parts.push(h("p", { class: "hint", id: "season-placing", text: t("season.placing", { count: board.placing }) }));
  parts.push(h("h2", { text: t("season.list") }), seasonLinks(seasons, id));
  return parts;
}

function rateRows(caption, firstCol, rows, pct) {
  return h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": caption },
    h("table", { class: "rules-table stats-table" },
      h("caption", { text: caption }),
      h("thead", {}, h("tr", {}, [firstCol, t("profile.col.games"), t("profile.col.wins"), t("profile.col.rate")].map((c) => h("th", { scope: "col", text: c })))),
      h("tbody", {}, rows.map(([name, s]) => h("tr", {},
        h("th", { scope: "row", text: name }), h("td", { text: s.games }), h("td", { text: s.wins }), h("td", { text: pct(s.win_rate) }))))));
}

/** A profile's seasons, newest first: one card each. `pct` formats a win rate. */
export function profileSeasons(seasons, pct) {
  if (!seasons || !seasons.length) return null;
  return h("section", { class: "profile-seasons", id: "profile-seasons", "aria-labelledby": "profile-seasons-title" },
    h("h2", { id: "profile-seasons-title", text: t("season.profile.title") }),
    seasons.map((s) => {
      const season = s.season;
      const standing = s.placed
        ? t("season.rank", { rank: s.rank })
        : t("season.placing_games", { games: s.games, placement: season.placement });
      const roles = Object.entries(s.by_role).filter(([, r]) => r.games).map(([role, r]) => [t(`role.${role}`), r]);
      const counts = Object.entries(s.by_players).map(([n, r]) => [t("profile.players", { count: n }), r]);
      return h("article", { class: "season-card", dataset: { season: season.id } },
        h("h3", {}, h("a", { href: `#/leaderboard?season=${encodeURIComponent(season.id)}`, text: season.name }),
          h("span", { class: `badge season-${season.state}`, text: t(`season.state.${season.state}`) })),
        h("dl", { class: "facts" },
          h("dt", { text: t("profile.rating") }), h("dd", { class: "season-rating", text: s.rating === null ? "–" : num(s.rating) }),
          h("dt", { text: t("season.standing") }), h("dd", { class: "season-standing", text: standing }),
          h("dt", { text: t("profile.rated_games") }), h("dd", { text: s.games }),
          h("dt", { text: t("leaderboard.wins") }), h("dd", { text: s.wins }),
          h("dt", { text: t("season.leaves") }), h("dd", { class: "season-leaves", text: s.leaves })),
        roles.length ? rateRows(t("profile.by_role.title"), t("profile.col.role"), roles, pct) : null,
        counts.length ? rateRows(t("profile.by_players.title"), t("profile.col.players"), counts, pct) : null);
    }));
}

/** On one's own profile: whether one may take a rated seat now, and if not why and until when. */
export function standingBox(standing) {
  if (!standing) return null;
  let text;
  if (standing.eligible) text = t("standing.ok");
  else if (standing.reason === "rated_account_new") text = t("standing.rated_account_new", { time: when(standing.ready_at) });
  else if (standing.reason === "rated_needs_games") text = t("standing.rated_needs_games", { games: standing.games, needed: standing.min_games });
  else if (standing.reason === "rated_cooldown") text = t("standing.rated_cooldown", { time: when(standing.cooldown_until), count: standing.recent_leaves });
  else text = t("standing.rated_needs_account");
  return h("section", { class: standing.eligible ? "standing ok" : "standing", id: "standing", role: "status" },
    h("h2", {}, icon(standing.eligible ? "win" : "warning"), h("span", { text: t("standing.title") })),
    h("p", { text }),
    standing.eligible ? null : h("p", { class: "hint", text: t("standing.rules") }));
}
