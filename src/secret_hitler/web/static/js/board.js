// The physical game on screen: tracks, election tracker, piles and seats. Shared by the table and
// the replay viewer. Everything comes from the View the server sent; nothing is computed from rules.
import { h } from "./dom.js";
import { engine } from "./engine.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { seatName, standinText, isModel, duration, secondsTo } from "./format.js";

/** A policy tile: colour + icon + word (never colour alone). The word is the card's own
 * (`policy.card.*`), short enough to fit a slot of the board and a card of a phone's hand. */
export function policyTile(policy, { small = false, label } = {}) {
  return h("span", { class: `policy policy-${policy}${small ? " small" : ""}` },
    icon(policy === "liberal" ? "liberal" : "fascist"),
    h("span", { class: "policy-word", text: label || t(`policy.card.${policy}`) }));
}

/** A role's party, as the engine says it (GET /api/rules `roles`: Merlin and Percival are
 * liberals, Morgana and the Monarchist fascists). */
export function partyOf(role) {
  const known = engine.roles && engine.roles[role];
  return known ? known.party : "unknown";
}

/** The icon of a role: its own for Hitler and secrethitler.io's roles, else its party's. */
function roleIcon(role) {
  return ["hitler", "merlin", "percival", "morgana", "monarchist"].includes(role) ? role : partyOf(role);
}

/** A role: a badge, or (`big`) the secret role card itself, its art from static/img/role-*.svg. */
export function roleBadge(role, { big = false } = {}) {
  const party = partyOf(role);
  if (big) {
    return h("span", { class: `role-badge role-card role-${role} party-${party} big` },
      icon(roleIcon(role)),
      h("span", { class: "role-word", text: t(`role.${role}`) }));
  }
  return h("span", { class: `role-badge role-${role} party-${party}` },
    icon(roleIcon(role)),
    h("span", { text: t(`role.${role}`) }));
}

function trackSlot(cls, content, label) {
  return h("li", { class: `slot ${cls}`, "aria-label": label }, content);
}

/** Liberal track, fascist track (this game's board), election tracker and piles. The tracks'
 * lengths and the chaos step are the view's (`*_to_win`, `chaos_at`), never counted here.
 * `fresh`: {liberal, fascist} counts seen before this render: a slot filled since then is marked
 * `just-enacted` (a short animation, none with reduced motion). */
export function renderBoard(view, fresh = null) {
  const lib = view.liberal_policies;
  const fas = view.fascist_policies;
  const libTrack = lib + view.liberal_to_win; // the slot that wins
  const fasTrack = fas + view.fascist_to_win;
  const chaos = view.chaos_at;

  const libSlots = [];
  for (let i = 1; i <= libTrack; i++) {
    const filled = i <= lib;
    const parts = [];
    if (filled) parts.push(policyTile("liberal", { small: true }));
    else parts.push(h("span", { class: "slot-num", text: String(i) }));
    if (i === libTrack) parts.push(h("span", { class: "slot-note", text: t("board.liberals_win_slot") }));
    const label = `${t("board.liberal_track")} ${i}: ${filled ? t("policy.liberal") : "—"}${i === libTrack ? ", " + t("board.liberals_win_slot") : ""}`;
    const isNew = filled && fresh && i > fresh.liberal;
    libSlots.push(trackSlot(`${filled ? "filled" : "empty"}${isNew ? " just-enacted" : ""}`, parts, label));
  }

  const fasSlots = [];
  const board = view.board || [];
  for (let i = 1; i <= fasTrack; i++) {
    const filled = i <= fas;
    const power = i <= board.length ? board[i - 1] : null;
    const parts = [];
    if (filled) parts.push(policyTile("fascist", { small: true }));
    else parts.push(h("span", { class: "slot-num", text: String(i) }));
    const notes = [];
    if (i === fasTrack) {
      parts.push(h("span", { class: "slot-note", text: t("board.fascists_win_slot") }));
      notes.push(t("board.fascists_win_slot"));
    } else if (power) {
      parts.push(h("span", { class: "slot-power" }, icon(power), h("span", { text: t(`power.${power}`) })));
      notes.push(t(`power.${power}`));
    }
    if (i === view.veto_zone && i < fasTrack) {
      parts.push(h("span", { class: "slot-veto" }, icon("veto"), h("span", { text: t("power.veto_unlocked") })));
      notes.push(t("power.veto_unlocked"));
    }
    const zone = i > view.hitler_zone;
    const label = `${t("board.fascist_track")} ${i}: ${filled ? t("policy.fascist") : "—"}${notes.length ? ", " + notes.join(", ") : ""}${zone ? ", " + t("board.hitler_zone") : ""}`;
    const isNew = filled && fresh && i > fresh.fascist;
    fasSlots.push(trackSlot(`${filled ? "filled" : "empty"}${zone ? " hitler-zone" : ""}${isNew ? " just-enacted" : ""}`, parts, label));
  }

  const tracker = [];
  for (let i = 0; i <= chaos; i++) {
    tracker.push(h("li", {
      class: `step${i === view.election_tracker ? " current" : ""}${i === chaos ? " chaos" : ""}`,
      "aria-hidden": "true",
    }, h("span", { text: i === chaos ? "!" : String(i) })));
  }

  return h("div", { class: "board" },
    h("section", { class: "track track-liberal", "aria-labelledby": "lib-track-title" },
      h("h3", { id: "lib-track-title", class: "track-title" }, icon("liberal"),
        h("span", { text: t("board.liberal_track") }),
        h("span", { class: "track-count", text: `${lib}/${libTrack}` })),
      h("ol", { class: "slots" }, libSlots)),
    h("section", { class: "track track-fascist", "aria-labelledby": "fas-track-title" },
      h("h3", { id: "fas-track-title", class: "track-title" }, icon("fascist"),
        h("span", { text: t("board.fascist_track") }),
        h("span", { class: "track-count", text: `${fas}/${fasTrack}` })),
      h("ol", { class: "slots" }, fasSlots),
      h("p", { class: "zone-legend" }, h("span", { class: "zone-swatch", "aria-hidden": "true" }),
        h("span", { text: `${t("board.hitler_zone")}: ${t("board.hitler_zone.hint")}` }))),
    h("div", { class: "board-row" },
      h("section", { class: "tracker", "aria-label": `${t("term.election_tracker")}: ${t("board.tracker_value", { count: view.election_tracker, max: chaos })}` },
        h("h3", { class: "track-title" }, icon("tracker"), h("span", { text: t("term.election_tracker") })),
        h("ol", { class: "tracker-steps" }, tracker),
        h("p", { class: "tracker-value", text: t("board.tracker_value", { count: view.election_tracker, max: chaos }) }),
        h("p", { class: "hint", text: t("board.tracker.hint") }),
        // no top-decking (the view's word): the chaos would end the game
        view.top_deck_forbidden ? h("p", { class: "warning top-deck" }, icon("warning"), h("span", { text: t("board.top_deck_forbidden") })) : null),
      h("section", { class: "piles" },
        h("p", { class: "pile" }, icon("draw"), h("span", { text: t("board.draw_pile", { count: view.draw_pile }) })),
        h("p", { class: "pile" }, icon("discard"), h("span", { text: t("board.discard_pile", { count: view.discard_pile }) })))));
}

/** The stand-in mark of a seat (`entry`: the table detail's seat), or null. It counts down:
 * the table page calls tickStandins() once a second. */
export function standinMark(entry, name, cls = "badge muted") {
  if (!entry || entry.kind !== "human" || entry.connected !== false || typeof entry.standin_at !== "number") return null;
  return h("span", { class: `${cls} standin`, dataset: { standinAt: entry.standin_at, name } },
    icon("bot"), h("span", { class: "standin-text", text: standinText(name, entry.standin_at) }));
}

/** Count down every stand-in mark and every model seat's wait under `root`. */
export function tickStandins(root) {
  for (const el of root.querySelectorAll("[data-standin-at]")) {
    const text = el.querySelector(".standin-text");
    if (text) text.textContent = standinText(el.dataset.name, Number(el.dataset.standinAt));
  }
  for (const el of root.querySelectorAll("[data-thinking-until]")) el.textContent = thinkingText(Number(el.dataset.thinkingUntil));
}

/** A seat's "Thinking…" mark; a language model's (`until`: the update's `model_deadlines`, when
 * its fallback plays at the latest) counts down to it. */
function thinkingMark(until) {
  if (typeof until !== "number") return h("span", { class: "badge thinking", text: t("status.thinking") });
  return h("span", { class: "badge thinking", dataset: { thinkingUntil: until }, text: thinkingText(until) });
}

function thinkingText(until) {
  const left = secondsTo(until);
  return left > 0 ? t("status.thinking_until", { time: duration(left) }) : t("status.thinking");
}

function badge(name, text, cls = "") {
  return h("span", { class: `badge badge-${name} ${cls}`.trim() }, icon(name), h("span", { text }));
}

/**
 * The seats in order with placards and marks. `ctx`: {view, table, mySeat, showRoles, onSeat}.
 * `showRoles`: show the roles this seat knows (only when the secret card is revealed, or at the end).
 */
export function renderSeats(ctx) {
  const view = ctx.view;
  const n = view.players;
  const voting = view.phase === "vote";
  const tableSeats = (ctx.table && ctx.table.seats) || [];
  const items = [];
  for (let s = 0; s < n; s++) {
    const alive = view.alive[s];
    const mine = s === ctx.mySeat;
    const entry = tableSeats.find((x) => x.seat === s) || {};
    const marks = [];
    if (view.president === s) marks.push(badge("president", t("office.president"), "placard"));
    if (view.chancellor === s) marks.push(badge("chancellor", t("office.chancellor"), "placard"));
    if ((view.phase === "nominate" || voting) && view.candidate === s) marks.push(badge("candidate", t("office.candidate"), "placard-candidate"));
    if (voting && view.nominee === s) marks.push(badge("chancellor", t("office.nominee"), "placard-candidate"));
    if ((view.term_limited || []).includes(s)) marks.push(badge("term_limited", t("status.term_limited")));
    if (!alive) marks.push(badge("dead", t("status.dead"), "dead"));
    if (view.investigated && view.investigated[s]) marks.push(badge("investigate", t("status.investigated")));
    if ((view.not_hitler || []).includes(s)) marks.push(badge("not_hitler", t("status.not_hitler")));
    const vote = view.votes ? view.votes[s] : null;
    const cast = vote !== null && vote !== undefined;
    let card = null;
    if (voting) {
      // Face down until the engine reveals the votes; only the public sequential vote shows them.
      if (view.rules && view.rules.voting === "public_sequential" && cast) card = voteCard(view, s, vote);
      else if (view.voted && view.voted[s]) card = voteCard(view, s, null);
    } else if (alive && cast && view.phase !== "game_over") {
      card = voteCard(view, s, vote);
    }
    if ((view.to_act || []).includes(s) && view.phase !== "game_over") marks.push(thinkingMark(ctx.modelDeadlines && ctx.modelDeadlines[s]));
    // a language model's seat says so to everyone (its name is the model's)
    if (entry.kind === "bot" && isModel(entry.level)) marks.push(h("span", { class: "badge badge-model" }, icon("bot"), h("span", { text: t("seat.model") })));
    // (after the game nobody waits for anyone: a finished table's people are all "offline")
    if (entry.kind === "human" && entry.connected === false && view.phase !== "game_over") {
      marks.push(badge("offline", t("seat.offline"), "muted"), standinMark(entry, seatName(ctx, s)));
    }

    const known = view.known_roles ? view.known_roles[s] : null;
    const roleShown = known && (ctx.showRoles || view.phase === "game_over");
    // what the role card shows of a seat without its role: its party (Merlin's fascists, a
    // teammate shown by party), Percival's two candidates for Merlin
    // (an investigation's result has its own mark: aids.js)
    const found = (view.investigations || []).some(([target]) => target === s);
    const party = !known && !mine && !found && view.known_parties ? view.known_parties[s] : null;
    const candidate = !known && (view.merlin_candidates || []).includes(s);

    const name = seatName(ctx, s);
    const head = h("div", { class: "seat-head" },
      h("span", { class: "seat-num", "aria-label": t("seat.number", { seat: s + 1 }), text: String(s + 1) }),
      h("span", { class: "seat-name", title: name, text: name }),
      mine ? h("span", { class: "you-tag", text: t("seat.you") }) : null,
      entry.kind === "bot" ? h("span", { class: "seat-kind", title: t("seat.bot") }, icon("bot"),
        h("span", { class: "visually-hidden", text: t("seat.bot") })) : null);
    const body = [head, h("div", { class: "marks" }, marks), card];
    if (roleShown) body.push(h("div", { class: "seat-role" }, roleBadge(known)));
    // Hitler's card is turned face up for everyone at the assassination (the view's own word)
    else if (view.assassination && view.assassination.hitler === s) body.push(h("div", { class: "seat-role" }, roleBadge("hitler")));
    else if (ctx.showRoles && (party || candidate)) {
      body.push(h("div", { class: "seat-role" }, party
        ? h("span", { class: `role-badge party-${party}` }, icon(party), h("span", { text: t(`claim.party.${party}`) }))
        : h("span", { class: "role-badge party-liberal" }, icon("merlin"), h("span", { text: t("status.merlin_candidate") }))));
    }

    const cls = ["seat", alive ? "alive" : "is-dead", mine ? "mine" : "", card ? "has-vote" : "",
      view.president === s ? "is-president" : "", view.chancellor === s ? "is-chancellor" : "",
      (view.to_act || []).includes(s) ? "acting" : ""].filter(Boolean).join(" ");
    items.push(h("li", { class: cls, dataset: { seat: s } }, body));
  }
  return h("ol", { class: "seats", "aria-label": t("lobby.tables.col.players") }, items);
}

/** Which reveal of votes a view shows: flipping cards are keyed by it (see watchMotion). */
function revealId(view) {
  const count = (view.events || []).filter((e) => e.type === "votes").length;
  return `${view.round}:${count}:${view.phase === "vote" ? "open" : "done"}`;
}

/** A seat's Ja!/Nein! card: face down (`vote` null: has voted, not revealed) or face up. The face
 * up card turns over once when it first appears (watchMotion); a face down one holds no vote. */
function voteCard(view, seat, vote) {
  if (vote === null) {
    return h("span", { class: "vote-card face-down", role: "img", "aria-label": t("status.voted") },
      h("span", { class: "vote-inner" },
        h("span", { class: "vote-face vote-back" }, icon("lock"), h("span", { class: "vote-word", text: t("status.voted") }))));
  }
  const word = t(vote ? "vote.ja" : "vote.nein");
  return h("span", {
    class: `vote-card revealed vote-${vote ? "ja" : "nein"}`, role: "img", "aria-label": word,
    dataset: { vote: vote ? "ja" : "nein", motion: `flip:${revealId(view)}:${seat}` },
  }, h("span", { class: "vote-inner" },
    h("span", { class: "vote-face vote-front" }, icon(vote ? "ja" : "nein"), h("span", { class: "vote-word", text: word })),
    h("span", { class: "vote-face vote-back", "aria-hidden": "true" })));
}

// ---------------------------------------------------------------------- motion
// Animations with the Web Animations API, keyed by what they show: a card turns over the first
// time its key appears, and a re-render in the middle (the next update) carries on from where it
// was instead of starting again. Nothing moves with prefers-reduced-motion, nor for what was
// already on the table when the page opened.
const MOTIONS = {
  flip: { duration: 600, stagger: 90, easing: "cubic-bezier(.3,.7,.4,1)",
    frames: [{ transform: "rotateY(180deg)" }, { transform: "rotateY(0deg)" }] },
  deal: { duration: 450, stagger: 220, easing: "ease-out",
    frames: [{ transform: "translateY(-48px) rotate(-10deg)", opacity: 0 }, { transform: "none", opacity: 1 }] },
  reveal: { duration: 700, stagger: 0, easing: "ease-out",
    frames: [{ transform: "perspective(400px) rotateX(90deg)", opacity: 0 }, { transform: "none", opacity: 1 }] },
  roles: { duration: 500, stagger: 650, easing: "ease-out",
    frames: [{ transform: "perspective(500px) rotateY(90deg)", opacity: 0 }, { transform: "none", opacity: 1 }] },
};

// Elements other modules draw, found by selector: [selector, kind, key from the view].
const count = (view, type) => (view.events || []).filter((e) => e.type === type).length;
const SELECTED = [
  [".private-notice .hand.peek .card", "deal", (v) => `peek:${count(v, "peek")}`],
  [".private-notice .investigation", "reveal", (v) => `investigation:${count(v, "investigation")}`],
  [".gameover .roles-revealed .reveal-row", "roles", (v) => `${(v.events || []).length}`],
  // the seats' roles at the end come with the end screen's rows, one by one
  [".seats .seat-role", "roles", (v) => (v.phase === "game_over" ? `${(v.events || []).length}` : null)],
];

export function reducedMotion() {
  return Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/** Watch `root` and animate what newly appears (see MOTIONS). `getView()`: the view shown. */
export function watchMotion(root, getView) {
  const started = new Map(); // key -> time first seen (null: was there already, never animated)
  const done = new WeakSet(); // elements already given their animation
  let primed = false;
  let seenEvents = 0; // fewer events than before: a new game at this table, every key is new
  const items = (view) => {
    const out = [];
    const ranks = {};
    for (const el of root.querySelectorAll("[data-motion]")) {
      const kind = el.dataset.motion.split(":")[0];
      ranks[kind] = (ranks[kind] || 0) + 1;
      out.push([el.querySelector(".vote-inner") || el, kind, el.dataset.motion, ranks[kind] - 1]);
    }
    for (const [sel, kind, key] of SELECTED) {
      const k = key(view);
      if (k === null) continue;
      root.querySelectorAll(sel).forEach((el, i) => out.push([el, kind, `${kind}:${k}`, i]));
    }
    return out;
  };
  const run = () => {
    const view = getView();
    if (!view) return;
    const now = performance.now();
    const events = (view.events || []).length;
    if (events < seenEvents) started.clear();
    seenEvents = events;
    const found = items(view);
    if (!primed) {
      for (const [, , key] of found) started.set(key, null);
      primed = true;
      return;
    }
    const quiet = reducedMotion();
    for (const [el, kind, key, rank] of found) {
      if (!started.has(key)) started.set(key, quiet ? null : now);
      const at = started.get(key);
      const m = MOTIONS[kind];
      if (at === null || !m || done.has(el) || typeof el.animate !== "function") continue;
      done.add(el);
      const delay = rank * m.stagger - (now - at);
      if (delay + m.duration <= 0) continue;
      el.animate(m.frames, { duration: m.duration, delay, easing: m.easing, fill: "backwards" });
    }
  };
  const observer = new MutationObserver(run);
  observer.observe(root, { childList: true, subtree: true });
  run();
  return { disconnect: () => observer.disconnect() };
}
