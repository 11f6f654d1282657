// The replay viewer's controls: first, previous, play or pause, next, last; the step slider; the
// point of view; the round picker; the address of this moment to share; the analysis switch.
// Drawn from the replay state (replay-state.js); `on`: {go(step), shift(delta): the step that
// many away from the one shown when pressed, play(), pause(), viewAs(view), analyse(),
// shareUrl() -> the address of this moment, or null (a record file has none)}. The controls are
// parts whose markup says all their buttons do (no step in a handler), so that the viewer can
// keep a part that did not change between steps under a person's tap (dom.js `update`).
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { seatName } from "./format.js";
import { roundAt } from "./replay-state.js";

function control(name, label, onclick, disabled) {
  return h("button", { type: "button", class: "btn btn-icon", "aria-label": label, title: label, disabled, onclick, dataset: { fkey: `replay-${name}` } },
    icon(name), h("span", { class: "btn-text", text: label }));
}

/** The step buttons; play becomes pause while playing. */
function stepButtons(state, on) {
  const d = state.data;
  const atStart = d.step <= 0;
  const atEnd = d.step >= d.steps;
  return h("div", { class: "button-row" },
    control("first", t("replay.first"), () => on.go(0), atStart),
    control("prev", t("replay.previous"), () => on.shift(-1), atStart),
    state.playing
      ? control("pause", t("replay.pause"), () => on.pause(), false)
      : control("play", t("replay.play"), () => on.play(), atEnd),
    control("next", t("replay.next"), () => on.shift(1), atEnd),
    control("last", t("replay.last"), () => on.go(d.steps), atEnd));
}

/** The point of view: the spectator's, or a seat's own. */
function viewPicker(state, on) {
  const view = state.data.view;
  return h("div", { class: "field inline" }, h("label", { for: "replay-view", text: t("replay.view_as") }),
    h("select", { id: "replay-view", onchange: (ev) => on.viewAs(ev.target.value) },
      h("option", { value: "spectator", selected: state.viewAs === "spectator" }, t("replay.view.spectator")),
      Array.from({ length: view.players }, (_, s) => h("option", { value: String(s), selected: state.viewAs === String(s) },
        `${s + 1} · ${seatName({ view }, s)}`))));
}

/** "Jump to round": the step at which each round begins (the answer's `rounds`). */
function roundPicker(state, on) {
  const rounds = state.data.rounds;
  const current = roundAt(rounds, state.data.step);
  if (!current) return null;
  return h("div", { class: "field inline" },
    h("label", { for: "replay-round", text: t("replay.round") }),
    h("select", { id: "replay-round", onchange: (ev) => on.go(Number(ev.target.value)) },
      rounds.map((r) => h("option", { value: String(r.step), selected: r === current }, t("table.round", { n: r.round })))));
}

/** Copy this moment's address (it shows the address where the clipboard is refused). */
function shareButton(url) {
  const done = h("span", { class: "copied", role: "status" });
  return h("div", { class: "share" }, h("button", {
    type: "button", class: "btn btn-secondary", dataset: { fkey: "replay-share" },
    onclick: async () => {
      const full = url();
      try { await navigator.clipboard.writeText(full); done.textContent = t("lobby.invite.copied"); } catch { done.textContent = full; }
    },
  }, icon("copy"), h("span", { text: t("replay.share") })), done);
}

/** The controls' parts, for the children of a `.replay-controls` panel. */
export function replayControls(state, on) {
  const d = state.data;
  const n = d.steps;
  const slider = h("input", {
    type: "range", id: "replay-step", min: 0, max: n, value: d.step, "aria-valuetext": t("replay.step", { i: d.step, n }),
    onchange: (ev) => on.go(Number(ev.target.value)),
  });
  return [
    stepButtons(state, on),
    h("label", { for: "replay-step", class: "step-label", text: t("replay.step", { i: d.step, n }) }), slider,
    viewPicker(state, on),
    roundPicker(state, on),
    on.shareUrl() === null ? null : shareButton(on.shareUrl),
    h("button", {
      type: "button", class: "btn btn-secondary", "aria-pressed": state.analyse ? "true" : "false", dataset: { fkey: "replay-analysis" },
      onclick: () => on.analyse(),
    }, t("analysis.toggle")),
  ];
}
