// "Your turn" alerts: a short tone (WebAudio, generated: no sound files), a vibration on phones,
// the tab title and favicon, and a system notification while the page is hidden.
// The tone is sounds.js's "turn" (one switch for all sounds, on by default); notification permission is
// asked only from a click that seats the player or starts a game (askNotifications), never on load.
import { t } from "./i18n.js";
import { playSound } from "./sounds.js";

export { soundOn, setSound } from "./sounds.js";

const ICON = "/static/img/icon.svg";
const TURN_ICON = "/static/img/icon-turn.svg";

/** Ask for notification permission: call from a click (sitting down, starting a game). */
export function askNotifications() {
  if (typeof Notification === "undefined" || Notification.permission !== "default") return;
  try {
    const asked = Notification.requestPermission();
    if (asked && asked.catch) asked.catch(() => {});
  } catch { /* old browsers */ }
}

function setFavicon(href) {
  let link = document.querySelector("link[rel~='icon']");
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.appendChild(link);
  }
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
}

let notification = null;

/** It is this player's turn (a new decision): `prompt` says what to decide. */
export function turnStarted(prompt) {
  markTurn(true);
  playSound("turn");
  if (navigator.vibrate) try { navigator.vibrate([120, 60, 120]); } catch { /* ignore */ }
  if (document.hidden && typeof Notification !== "undefined" && Notification.permission === "granted") {
    try {
      notification = new Notification(t("turn.notify"), { body: prompt || "", tag: "sh-turn", icon: TURN_ICON });
      notification.onclick = () => { window.focus(); if (notification) notification.close(); };
    } catch { notification = null; }
  }
}

/** Title and favicon follow whether a decision waits for this player. */
export function markTurn(mine) {
  const title = t("app.title");
  document.title = mine ? t("turn.title", { title }) : title;
  setFavicon(mine ? TURN_ICON : ICON);
  if (!mine && notification) { try { notification.close(); } catch { /* ignore */ } notification = null; }
}
