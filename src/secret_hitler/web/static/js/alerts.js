// "Your turn" alerts: a short tone (WebAudio, generated: no sound files), a vibration on phones,
// the tab title and favicon, and a system notification while the page is hidden.
// Sound is on by default and switchable (localStorage `sh.sound`); notification permission is
// asked only from a click that seats the player or starts a game (askNotifications), never on load.
import { t } from "./i18n.js";

const SOUND_KEY = "sh.sound";
const ICON = "/static/img/icon.svg";
const TURN_ICON = "/static/img/icon-turn.svg";

let audio = null;

export function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) !== "off"; } catch { return true; }
}

export function setSound(on) {
  try { localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch { /* ignore */ }
  if (on) unlockAudio();
}

/** Browsers start audio only after a gesture: make the context on the first tap or key. */
function unlockAudio() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  try {
    if (!audio) audio = new Ctx();
    if (audio.state === "suspended") audio.resume();
  } catch { audio = null; }
}
for (const type of ["pointerdown", "keydown"]) window.addEventListener(type, () => { if (soundOn()) unlockAudio(); }, { capture: true });

function tone() {
  if (!soundOn() || !audio) return;
  try {
    const now = audio.currentTime;
    // Two rising notes, 120 ms each, with a soft attack and release (no clicks).
    [[660, 0], [880, 0.16]].forEach(([freq, at]) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(0.2, now + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.14);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + at);
      osc.stop(now + at + 0.15);
    });
  } catch { /* no sound is fine */ }
}

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
  tone();
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
