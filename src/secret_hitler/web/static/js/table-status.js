// The table page's status bar: table, round, phase, rules, the decision timer (counting down),
// the spectator mark, big screen, and the sound and speech switches.
import { h, replace } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { secondsTo, tableTitle } from "./format.js";
import { renderTalk } from "./talk.js";
import { rulesShown } from "./table-facts.js";
import { soundOn, setSound } from "./alerts.js";
import { speechAvailable, speechOn, setSpeech } from "./speech.js";
import { duration } from "./format.js";

/** `opts`: {tableId, invite, big}. `render(state)` draws it; `tick(state)` counts the timer down. */
export function statusBar({ tableId, invite, big }) {
  const el = h("div", { class: "status-bar" });
  let last = null;

  function render(state) {
    last = state;
    const v = state.view;
    const table = state.table;
    const parts = [];
    parts.push(h("span", { class: "table-name", text: tableTitle({ id: tableId, ...table }) }));
    if (v) {
      parts.push(h("span", { class: "round", text: t("table.round", { n: v.round }) }));
      parts.push(h("span", { class: "phase", text: t(`phase.${v.phase}`) }));
      parts.push(h("span", { class: "rules", text: renderTalk(rulesShown(table, v), {}) }));
      if (table && table.category) parts.push(h("span", { class: "category", text: t(`category.${table.category}`) }));
      if (table && table.blind) parts.push(h("span", { class: "blind", text: t("lobby.tag.blind") }));
      // secrethitler.io's timed mode: what the countdown ends in (a stand-in's move is not said)
      if (table && table.timer && table.on_timeout === "random") parts.push(h("span", { class: "random-moves", text: t("lobby.tag.random_moves") }));
    } else if (table) {
      parts.push(h("span", { class: "phase", text: t(`lobby.status.${table.status}`) }));
    }
    parts.push(h("span", { class: "timer", hidden: true }));
    if (state.seat === null && table) parts.push(h("span", { class: "spectating" }, icon("eye"), h("span", { text: t("spectator.mode") })));
    const href = `#/t/${encodeURIComponent(tableId)}${big ? "" : "?big=1"}${invite ? `${big ? "?" : "&"}invite=${encodeURIComponent(invite)}` : ""}`;
    parts.push(h("a", { class: "btn btn-secondary btn-big", href }, icon("eye"), h("span", { text: t(big ? "table.big_screen.exit" : "table.big_screen") })));
    // Spectators (the room's TV) hear the game's sounds too: the switch is for everyone.
    const on = soundOn();
    parts.push(h("button", {
      type: "button", class: "btn btn-secondary btn-sound", "aria-pressed": on ? "true" : "false",
      dataset: { fkey: "sound" }, title: t("sound.title"),
      onclick: () => { setSound(!soundOn()); render(last); },
    }, icon(on ? "sound" : "sound_off"), h("span", { text: t(on ? "turn.sound_on" : "turn.sound_off") })));
    if (big && speechAvailable()) {
      const speaking = speechOn();
      parts.push(h("button", {
        type: "button", class: "btn btn-secondary btn-speech", "aria-pressed": speaking ? "true" : "false",
        dataset: { fkey: "speech" }, title: t("speech.title"),
        onclick: () => { setSpeech(!speechOn()); render(last); },
      }, icon("speak"), h("span", { text: t(speaking ? "speech.on" : "speech.off") })));
    }
    replace(el, parts);
    tick(state);
  }

  function tick(state) {
    const timer = el.querySelector(".timer");
    if (!timer) return;
    if (!state.deadline || !state.view || state.view.phase === "game_over") { timer.hidden = true; return; }
    const left = Math.max(0, secondsTo(state.deadline));
    timer.hidden = false;
    timer.classList.toggle("urgent", left <= 10);
    timer.replaceChildren(icon("timer"), document.createTextNode(t("timer.left", { time: duration(left) })));
  }

  return { el, render, tick };
}
