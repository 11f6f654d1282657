// The tutorial (issue 11, point 6): the lobby's "Learn to play" opens a real table of the server
// (server/tutorial.py: a fixed deal and four scripted bots), and this coach explains each step
// over the real table UI. The coach reads the phase and the legal actions from the view the
// server sent (never a rule of its own) and points at the area to use; the player acts with the
// table's own controls (mouse, touch or keyboard: Tab, Enter, the arrow keys, J / N to vote).
import { h, replace } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { post } from "./api.js";

// In order: each is shown when the game reaches it; "done" once the veto was played.
export const STEPS = ["night", "nominate", "vote", "session", "power", "veto", "done"];
const TARGET = {
  night: ".area-role", nominate: ".area-action", vote: ".area-action", session: ".area-action",
  power: ".area-action", veto: ".area-action", done: ".area-action",
};

/** The text of `step` (`over`: the game ended before every step was shown). A step told with
 * keys ("press J or N") has a text of its own for a device with a keyboard, known by its fine
 * pointer that hovers (a mouse or a touchpad); a phone or a tablet is told to tap. */
export function stepText(step, over, keyboard = hasKeyboard()) {
  if (over) return t("tutorial.step.over.text");
  return t(keyboard && KEYS_TEXT[step] ? KEYS_TEXT[step] : `tutorial.step.${step}.text`);
}
const KEYS_TEXT = { vote: "tutorial.step.vote.text_keys" };
const hasKeyboard = () => Boolean(globalThis.matchMedia && matchMedia("(hover: hover) and (pointer: fine)").matches);

/** Start a tutorial table for the signed-in player (`session()` signs in) and open it. */
export async function startTutorial(session) {
  await session();
  const table = await post("/api/tutorial");
  location.hash = `#/t/${encodeURIComponent(table.id)}?tutorial=1`;
}

/** The lobby's invitation: "Learn to play" and the glossary. `onError(err)` shows a failure. */
export function learnPanel(session, onError) {
  let busy = false;
  return h("section", { class: "learn card-panel", "aria-labelledby": "learn-title" },
    h("h2", { id: "learn-title", text: t("tutorial.learn.title") }),
    h("p", { class: "hint", text: t("tutorial.learn.text") }),
    h("div", { class: "button-row" },
      h("button", {
        type: "button", class: "btn btn-primary", id: "learn-to-play",
        onclick: async () => {
          if (busy) return;
          busy = true;
          try { await startTutorial(session); } catch (err) { if (err && err.code) onError(err); } finally { busy = false; }
        },
      }, icon("play"), h("span", { text: t("tutorial.learn.start") })),
      h("a", { class: "btn btn-secondary", href: "#/glossary" }, h("span", { text: t("tutorial.learn.glossary") }))));
}

/** Which step the game is at for this player, or null (the bots are playing). */
function stepOf(state, acknowledged) {
  const v = state.view;
  if (!v) return null;
  const events = v.events || [];
  if (v.phase === "game_over" || events.some((e) => e.type === "veto")) return "done";
  if (!acknowledged.has("night")) return "night";
  const mine = new Set(state.legal.filter((a) => a.type !== "claim").map((a) => a.type));
  if (mine.has("veto")) return "veto";
  if (mine.has("execute") || mine.has("investigate") || mine.has("special_election")) return "power";
  if (mine.has("discard") || mine.has("enact")) return "session";
  if (mine.has("vote")) return "vote";
  if (mine.has("nominate")) return "nominate";
  return null;
}

/**
 * The coach over a table page. `update(state)` after every render of the table; `destroy()`.
 * A step that only explains (the night, the end) has a button that the keyboard reaches at once;
 * a step that asks for a decision leaves the focus to the decision.
 */
export function mountCoach(page) {
  const acknowledged = new Set();
  const seen = new Set();
  let shown = null;
  let last = null;
  let progress = 0; // the counter never goes back (round 2 has a vote again, after the power)
  const box = h("aside", { class: "coach", role: "region", "aria-labelledby": "coach-title", tabindex: "-1" });
  const live = h("div", { class: "visually-hidden", "aria-live": "polite" });
  page.append(box, live);
  document.body.classList.add("with-coach");
  // The coach's height, for the decision that sticks above it (app.css): it never covers a button.
  const root = document.documentElement;
  const measure = () => root.style.setProperty("--coach-h", `${Math.ceil(box.getBoundingClientRect().height)}px`);
  const sizes = window.ResizeObserver ? new ResizeObserver(measure) : null;
  if (sizes) sizes.observe(box);

  function next(step) {
    acknowledged.add(step);
    if (last) update(last);
    const decision = document.querySelector(".area-action .decision");
    if (decision && decision.querySelector("button:not([disabled])")) decision.focus();
  }

  function update(state) {
    last = state;
    const step = stepOf(state, acknowledged) || shown;
    if (!step) return;
    seen.add(step);
    for (const el of document.querySelectorAll(".coach-target")) el.classList.remove("coach-target");
    const target = document.querySelector(TARGET[step]);
    if (target) target.classList.add("coach-target");
    const over = step === "done" && !(state.view.events || []).some((e) => e.type === "veto");
    const waiting = stepOf(state, acknowledged) === null && step !== "done";
    progress = Math.max(progress, STEPS.indexOf(step) + 1);
    const parts = [
      h("p", { class: "coach-progress", text: t("tutorial.progress", { step: progress, total: STEPS.length }) }),
      h("h2", { id: "coach-title" }, icon(step === "done" ? "win" : "chat"), h("span", { text: t(`tutorial.step.${step}.title`) })),
      h("p", { class: "coach-text", text: stepText(step, over) }),
    ];
    if (waiting) parts.push(h("p", { class: "hint coach-waiting", text: t("tutorial.waiting") }));
    const buttons = [];
    if (step === "night") {
      buttons.push(h("button", { type: "button", class: "btn btn-primary coach-next", dataset: { fkey: "coach-next" }, onclick: () => next("night") }, h("span", { text: t("tutorial.next") })));
    } else if (step === "done") {
      buttons.push(h("a", { class: "btn btn-primary coach-lobby", href: "#/", dataset: { fkey: "coach-lobby" } }, h("span", { text: t("tutorial.lobby") })));
      buttons.push(h("a", { class: "btn btn-secondary", href: "#/glossary", dataset: { fkey: "coach-glossary" } }, h("span", { text: t("tutorial.learn.glossary") })));
      if (over) {
        buttons.push(h("button", {
          type: "button", class: "btn btn-secondary", dataset: { fkey: "coach-again" },
          onclick: () => startTutorial(async () => null).catch(() => { /* the lobby offers it again */ }),
        }, h("span", { text: t("tutorial.again") })));
      }
    }
    if (buttons.length) parts.push(h("div", { class: "button-row" }, buttons));
    box.dataset.step = step;
    replace(box, parts);
    if (step !== shown) {
      shown = step;
      live.textContent = `${t(`tutorial.step.${step}.title`)}: ${stepText(step, over)}`;
      // An explaining step takes the keyboard (its button); a decision keeps it (table.js).
      const button = box.querySelector(".coach-next, .coach-lobby");
      if (button) button.focus({ preventScroll: true });
    }
  }

  return {
    update,
    seen,
    destroy() {
      if (sizes) sizes.disconnect();
      root.style.removeProperty("--coach-h");
      document.body.classList.remove("with-coach");
      for (const el of document.querySelectorAll(".coach-target")) el.classList.remove("coach-target");
    },
  };
}
