// Boot: language, header, hash router. Pages: lobby, table, replays, rules, leaderboard, profiles,
// the arena's leaderboard of language models, tournaments.
import { loadEngine } from "./engine.js";
import { readLimits } from "./limits.js";
import { get } from "./api.js";
import { h, replace } from "./dom.js";
import { icon } from "./icons.js";
import { t, LANGUAGES, detectLanguage, loadLanguage, language } from "./i18n.js";
import { mountLobby } from "./lobby.js";
import { mountTable } from "./table.js";
import { mountReplay } from "./replay.js";
import { mountReplayList } from "./replay-list.js";
import { mountRules } from "./rules.js";
import { mountLeaderboard, mountProfile } from "./profile.js";
import { mountArena } from "./arena.js";
import { mountGlossary } from "./glossary.js";
import { mountTournaments, mountTournament } from "./tournaments.js";

const app = document.getElementById("app");
let page = null;
let routeKey = null;

function parseHash() {
  const raw = decodeURIComponent(location.hash.replace(/^#/, "")) || "/";
  const [path, query] = raw.split("?");
  const params = Object.fromEntries(new URLSearchParams(query || ""));
  const parts = path.split("/").filter(Boolean);
  return { parts, params };
}

function route() {
  const { parts, params } = parseHash();
  const key = JSON.stringify([parts.slice(0, 2), params]);
  if (key === routeKey && page) return;
  routeKey = key;
  if (page && page.destroy) page.destroy();
  page = null;
  // Each page draws into a root of its own, dropped when the page goes: an answer that comes
  // after the person moved on (a list still loading) then draws nowhere, not over the next page.
  const root = h("div", { class: "page-root" });
  replace(app, root);
  const [first, second] = parts;
  let nav = "lobby";
  if (first === "t" && second) {
    page = mountTable(root, second, params);
    nav = null;
  } else if (first === "invite" && second) {
    page = mountLobby(root, { ...params, invite: second });
  } else if (first === "replay") {
    page = second ? mountReplay(root, second, params) : mountReplayList(root);
    nav = "replays";
  } else if (first === "leaderboard") {
    page = mountLeaderboard(root, params);
    nav = "leaderboard";
  } else if (first === "arena") {
    page = mountArena(root);
    nav = "leaderboard";
  } else if (first === "players" && second) {
    page = mountProfile(root, second);
    nav = "leaderboard";
  } else if (first === "tournaments") {
    page = second ? mountTournament(root, second) : mountTournaments(root);
    nav = "leaderboard"; // (the leaderboard's tab: the header keeps its four links)
  } else if (first === "glossary") {
    page = mountGlossary(root);
    nav = "rules";
  } else if (first === "rules") {
    page = mountRules(root);
    nav = "rules";
    if (second) requestAnimationFrame(() => { const el = document.getElementById(`rules-${second}`); if (el) el.scrollIntoView(); });
  } else {
    page = mountLobby(root, params);
  }
  renderHeader(nav);
  document.body.dataset.page = first || "lobby";
  app.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}

let currentNav = "lobby";
function renderHeader(nav = currentNav) {
  currentNav = nav;
  document.title = t("app.title");
  const header = document.getElementById("topbar");
  const link = (name, href, key) => h("a", { href, class: "nav-link", "aria-current": nav === name ? "page" : null, text: t(key) });
  const select = h("select", {
    id: "lang-select",
    onchange: async (ev) => {
      await loadLanguage(ev.target.value, { remember: true });
      renderHeader();
      if (page && page.render) page.render();
    },
  }, LANGUAGES.map((l) => h("option", { value: l, lang: l, selected: l === language() }, t(`lang.${l}`))));
  replace(header,
    h("a", { class: "brand", href: "#/" }, icon("fascist", "brand-icon"), h("span", { text: t("app.title") })),
    h("nav", { class: "main-nav", "aria-label": t("nav.menu") },
      link("lobby", "#/", "nav.lobby"), link("replays", "#/replay", "nav.replays"), link("leaderboard", "#/leaderboard", "nav.leaderboard"), link("rules", "#/rules", "nav.rules")),
    h("div", { class: "lang" }, h("label", { for: "lang-select", class: "lang-label" }, icon("globe"), h("span", { class: "visually-hidden", text: t("app.language") })), select));
}

async function boot() {
  try {
    await loadLanguage(detectLanguage());
  } catch {
    await loadLanguage("en");
  }
  // the server is away: the pages that need the engine's facts or its limits say so themselves
  await Promise.allSettled([loadEngine(), get("/api/limits").then(readLimits)]);
  renderHeader();
  // The sticky header's height, for what sticks below it (the action area on one's turn).
  const topbar = document.getElementById("topbar");
  const measure = () => document.documentElement.style.setProperty("--topbar-h", `${Math.ceil(topbar.getBoundingClientRect().height)}px`);
  if (window.ResizeObserver) new ResizeObserver(measure).observe(topbar);
  measure();
  window.addEventListener("hashchange", route);
  route();
}

boot();
