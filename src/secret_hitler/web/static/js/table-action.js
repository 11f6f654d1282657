// The table page's action area: the decision waiting for this seat (actions.js) or who the game
// waits for, the moves a stand-in made, the private notices (peek, investigation), the last vote,
// the claims, the votes to replace an absent player and to remake, and at the end the result. It
// alerts once per new decision ("your turn") and takes the keys: J / N vote, the arrow keys move
// between the players of a choice.
import { h, update } from "./dom.js";
import { icon } from "./icons.js";
import { t, list } from "./i18n.js";
import { policyTile } from "./board.js";
import { seatName, moveText } from "./format.js";
import { renderActions } from "./actions.js";
import { turnStarted, markTurn } from "./alerts.js";
import { afkBox, remakeBox } from "./hosting.js";
import { gameOverPanel } from "./table-end.js";
import { lastVote, ballots, decision as decisionOf } from "./table-facts.js";

/** `root`: the page's root (the focus may rest there). `render(area)`, area: {ctx (the table
 * page's context), state, hosting (hosting.js's context), dismissNotice(i), dismissForced(),
 * showLog()}. */
export function actionArea(root) {
  const el = h("section", { class: "area area-action", "aria-label": t("phase.nominate") });
  let turnKey = null;

  function render(area) {
    const { ctx, state } = area;
    const v = ctx.view;
    if (!v) return;
    const parts = [];
    if (v.phase === "game_over") parts.push(gameOverPanel(area));
    parts.push(forcedMoves(area));
    for (const [i, n] of state.notices.entries()) parts.push(notice(ctx, n, () => area.dismissNotice(i), i));
    if (v.phase !== "game_over") {
      if (ctx.mySeat === null) parts.push(h("p", { class: "banner spectator" }, icon("eye"), h("span", { text: t("spectator.hint") })));
      // (a dead Hitler still names his target at the assassination, and the dead talk then)
      else if (!v.alive[ctx.mySeat] && v.phase !== "assassinate") parts.push(h("p", { class: "banner dead" }, icon("dead"), h("span", { text: t("table.you_are_dead") })));
      const { decision, claims } = renderActions(ctx);
      // Focusable by script (not by Tab), and keeps the focus across re-renders.
      decision.tabIndex = -1;
      decision.dataset.fkey = "decision";
      parts.push(decision);
      if (v.phase !== "vote") parts.push(lastVoteBox(ctx));
      if (claims) parts.push(claims);
      parts.push(afkBox(area.hosting), remakeBox(area.hosting)); // after the decision (hosting.js)
    } else {
      const { claims } = renderActions({ ...ctx, legal: [] });
      if (claims) parts.push(claims);
    }
    update(el, parts); // (the same decision drawn again leaves its buttons under a tap)
    const turn = decisionOf(v, ctx.legal);
    el.classList.toggle("my-turn", turn.mine);
    el.classList.toggle("is-over", v.phase === "game_over");
    // The area is named after the decision it shows ("Choose a Chancellor", ...).
    const prompt = el.querySelector(".decision .prompt, .gameover .prompt");
    el.setAttribute("aria-label", prompt ? prompt.textContent : t("table.actions"));
    checkTurn(turn.mine && ctx.mySeat !== null, turn.key, prompt);
  }

  /** Alert once per new decision of this player; title and favicon follow the turn. */
  function checkTurn(mine, key, prompt) {
    if (!mine) {
      if (turnKey !== null) markTurn(false);
      turnKey = null;
      return;
    }
    if (turnKey === key) return;
    turnKey = key;
    turnStarted(prompt ? prompt.textContent : "");
    // Keep the decision on screen, and bring the keyboard to it: the focus goes to the decision
    // itself (not to a button, so that Space still scrolls and never votes by surprise); Tab
    // then reaches its first button.
    // (the screen's foot may be taken by a bar, the tutorial's coach: the root's scroll-padding)
    const rect = el.getBoundingClientRect();
    const foot = parseFloat(getComputedStyle(document.documentElement).scrollPaddingBottom) || 0;
    if (rect.top < 0 || rect.bottom > window.innerHeight - foot) el.scrollIntoView({ block: "nearest" });
    // Unless the player is typing (the chat, a name), whatever else held the focus (a button
    // outside the decision, a detached one) gives it up to the new decision.
    const active = document.activeElement;
    const typing = active && active.matches("input, textarea, select, [contenteditable='true']");
    if (!typing) {
      const decision = el.querySelector(".decision");
      if (decision) decision.focus({ preventScroll: true });
    }
  }

  // Keys: J / N vote Ja! / Nein! (by key position, so any keyboard layout works); arrow keys move
  // between the players of a choice.
  function onKey(ev) {
    if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const target = ev.target;
    if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
    if (ev.code === "KeyJ" || ev.code === "KeyN") {
      const button = el.querySelector(`.decision button[data-fkey="${ev.code === "KeyJ" ? "vote-ja" : "vote-nein"}"]:not([disabled])`);
      if (button) { ev.preventDefault(); button.focus({ preventScroll: true }); button.click(); }
      return;
    }
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -Infinity, End: Infinity }[ev.key];
    if (step === undefined || !target || !target.classList || !target.classList.contains("target")) return;
    const group = [...el.querySelectorAll(".targets button.target:not([disabled])")];
    const i = group.indexOf(target);
    if (i < 0) return;
    ev.preventDefault();
    const next = step === -Infinity ? 0 : step === Infinity ? group.length - 1 : (i + step + group.length) % group.length;
    group[next].focus();
  }
  document.addEventListener("keydown", onKey);

  return {
    el,
    render,
    /** The prompt shown now (what a screen reader is told after the news). */
    promptText() {
      const prompt = el.querySelector(".prompt");
      return prompt ? prompt.textContent : "";
    },
    destroy() {
      document.removeEventListener("keydown", onKey);
      markTurn(false);
    },
  };
}

/** The result of the last election, read from its `votes` event (everyone's vote is public). */
function lastVoteBox(ctx) {
  const last = lastVote(ctx.view.events || []);
  if (!last) return null;
  const { votes: e, nominated } = last;
  const names = (seats) => list(seats.map((s) => seatName(ctx, s)));
  const { ja, nein } = ballots(e);
  return h("section", { class: "last-vote", "aria-labelledby": "last-vote-title" },
    h("h3", { id: "last-vote-title" }, icon(e.passed ? "ja" : "nein"),
      h("span", { text: `${t("votes.title")}: ${t("votes.count", { ja: e.ja, nein: e.nein })}` }),
      h("span", { class: `vote-result ${e.passed ? "passed" : "failed"}`, text: t(e.passed ? "votes.passed" : "votes.failed") })),
    nominated ? h("p", { class: "hint", text: `${t("office.president")}: ${seatName(ctx, nominated.president)} · ${t("office.chancellor")}: ${seatName(ctx, nominated.chancellor)}` }) : null,
    ja.length ? h("p", { class: "vote-list ja" }, icon("ja"), h("span", { text: t("votes.ja_list", { names: names(ja) }) })) : null,
    nein.length ? h("p", { class: "vote-list nein" }, icon("nein"), h("span", { text: t("votes.nein_list", { names: names(nein) }) })) : null);
}

/** A private result (peek or investigation) until "OK". */
function notice(ctx, n, dismiss, index) {
  const ok = h("button", { type: "button", class: "btn btn-primary", dataset: { fkey: `notice-${index}` }, onclick: dismiss }, t("app.ok"));
  if (n.kind === "peek") {
    return h("div", { class: "notice private-notice", role: "group", "aria-label": t("peek.title") },
      h("h2", {}, icon("peek"), h("span", { text: t("peek.title") })),
      h("p", { class: "hint", text: t("prompt.peek") }),
      h("ol", { class: "hand peek" }, n.policies.map((p, i) => h("li", { class: `card card-${p}` },
        i === 0 ? h("span", { class: "card-top", text: t("peek.top") }) : null, policyTile(p)))),
      ok);
  }
  return h("div", { class: "notice private-notice", role: "group", "aria-label": t("investigation.title") },
    h("h2", {}, icon("investigate"), h("span", { text: t("investigation.title") })),
    h("p", { class: `investigation party-${n.party}` }, icon(n.party),
      h("span", { text: t("investigation.result", { name: seatName(ctx, n.target), party: t(`party.inline.${n.party}`) }) })),
    ok);
}

/** The moves a stand-in (or the timer) made for this seat, until "OK"; never a claim. */
function forcedMoves({ ctx, state, dismissForced }) {
  if (!state.forced.length) return null;
  const away = state.forced.some((f) => f.by === "absent");
  return h("div", { class: "notice private-notice forced-notice", role: "group", "aria-labelledby": "forced-title" },
    h("h2", { id: "forced-title" }, icon("bot"), h("span", { text: t(away ? "standin.title.absent" : "standin.title.timer") })),
    h("ul", { class: "forced-moves" }, state.forced.map((f) => h("li", { text: moveText(f.move, ctx) }))),
    h("p", { class: "hint", text: t("standin.no_claims") }),
    h("button", { type: "button", class: "btn btn-primary", dataset: { fkey: "forced-ok" }, onclick: dismissForced }, t("app.ok")));
}
