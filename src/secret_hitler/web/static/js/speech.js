// Spoken announcements for the big screen (a TV the room watches): the main public events, in
// the page's language, through the browser's speechSynthesis. Off unless switched on (opt-in,
// remembered in localStorage `sh.speech`); offered in big-screen mode only.
import { engine } from "./engine.js";
import { describeEvents } from "./log.js";
import { language, matchLanguage } from "./i18n.js";

const SPEECH_KEY = "sh.speech";

// The events said aloud: what the room must hear; the rest stays in the log.
const SPOKEN = new Set(["nominated", "votes", "chaos", "enacted", "investigated", "special_election",
  "executed", "veto_proposed", "veto", "game_over"]);

export function speechAvailable() {
  return typeof window.speechSynthesis !== "undefined" && typeof window.SpeechSynthesisUtterance !== "undefined";
}

export function speechOn() {
  try { return localStorage.getItem(SPEECH_KEY) === "on"; } catch { return false; }
}

export function setSpeech(on) {
  try { localStorage.setItem(SPEECH_KEY, on ? "on" : "off"); } catch { /* ignore */ }
  if (!on) stopSpeech();
}

export function stopSpeech() {
  if (speechAvailable()) try { window.speechSynthesis.cancel(); } catch { /* ignore */ }
}

/** A voice for the page's language (the browser's default one first), or null. */
export function voiceFor(lang) {
  let voices = [];
  try { voices = window.speechSynthesis.getVoices() || []; } catch { return null; }
  const fit = voices.filter((v) => matchLanguage(v.lang) === lang);
  return fit.find((v) => v.default) || fit.find((v) => v.localService) || fit[0] || null;
}

/** The sentences to say for these events: the log's own sentences, without its detail lines. */
export function spokenLines(events, ctx) {
  const out = [];
  for (const e of events || []) {
    if (!SPOKEN.has(e.type) || engine.privateEvents.has(e.type)) continue;
    for (const line of describeEvents([e], ctx)) {
      if (line.kind !== "detail" && line.kind !== "round" && !line.private && line.text) out.push(line.text);
    }
  }
  return out;
}

/** Say the main events of one update, if switched on: one utterance per sentence, in the voice
 * of the page's language when the browser has one (its own tag, "ru-RU"), else in the page's tag. */
export function speakEvents(events, ctx) {
  if (!speechOn() || !speechAvailable()) return;
  const lang = language();
  const voice = voiceFor(lang);
  for (const text of spokenLines(events, ctx)) {
    try {
      const u = new window.SpeechSynthesisUtterance(text);
      if (voice) { u.voice = voice; u.lang = voice.lang; } else u.lang = lang;
      window.speechSynthesis.speak(u);
    } catch { /* no speech is fine */ }
  }
}
