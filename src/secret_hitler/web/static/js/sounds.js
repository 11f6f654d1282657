// The game's sounds, synthesized with WebAudio (no sound files, nothing copyrighted): each is a few
// short notes with a soft attack and release. One switch for all of them (localStorage `sh.sound`,
// on by default; the status bar's "Sound on / Sound off" button). Browsers start audio only after a
// gesture, so the context is made on the first tap or key.

const SOUND_KEY = "sh.sound";

/** Each sound: notes [frequency Hz, start s, length s, wave]. Distinct first notes, so that a
 * listener (and the browser test) tells them apart. The turn tone is alerts.js's two rising notes. */
export const SOUNDS = {
  turn: [[660, 0, 0.12, "sine"], [880, 0.16, 0.12, "sine"]],
  votes: [[392, 0, 0.07, "triangle"], [392, 0.09, 0.07, "triangle"], [523, 0.18, 0.16, "triangle"]],
  liberal: [[523.25, 0, 0.14, "sine"], [659.25, 0.13, 0.14, "sine"], [783.99, 0.26, 0.3, "sine"]],
  fascist: [[220, 0, 0.2, "sawtooth"], [207.65, 0.2, 0.2, "sawtooth"], [164.81, 0.4, 0.4, "sawtooth"]],
  executed: [[110, 0, 0.5, "square"], [82.41, 0.08, 0.6, "sawtooth"]],
  game_over: [[293.66, 0, 0.2, "triangle"], [369.99, 0.2, 0.2, "triangle"], [440, 0.4, 0.2, "triangle"], [587.33, 0.6, 0.6, "triangle"]],
};

const LEVEL = { sine: 0.2, triangle: 0.22, sawtooth: 0.07, square: 0.06 };

let audio = null;
let freeAt = 0; // sounds queue up rather than overlap (a chaos update brings a vote and a policy)

export function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) !== "off"; } catch { return true; }
}

export function setSound(on) {
  try { localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch { /* ignore */ }
  if (on) unlockAudio();
}

function unlockAudio() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  try {
    if (!audio) audio = new Ctx();
    if (audio.state === "suspended") audio.resume();
  } catch { audio = null; }
}
for (const type of ["pointerdown", "keydown"]) window.addEventListener(type, () => { if (soundOn()) unlockAudio(); }, { capture: true });

/** Play the sound `name` of SOUNDS (nothing when sound is off or audio not allowed yet). */
export function playSound(name) {
  const notes = SOUNDS[name];
  if (!notes || !soundOn() || !audio) return;
  try {
    const start = Math.max(audio.currentTime + 0.01, freeAt);
    let end = start;
    for (const [freq, at, length, wave] of notes) {
      const t0 = start + at;
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = wave;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0);
      gain.gain.exponentialRampToValueAtTime(LEVEL[wave] || 0.15, t0 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(t0);
      osc.stop(t0 + length + 0.01);
      end = Math.max(end, t0 + length);
    }
    freeAt = Math.min(end + 0.08, audio.currentTime + 3); // never a long backlog
  } catch { /* no sound is fine */ }
}

/** The sound of one engine event, or null: the main events of the game only. */
export function soundOf(e) {
  switch (e.type) {
    case "votes": return "votes";
    case "enacted": return e.policy === "liberal" ? "liberal" : "fascist";
    case "executed": return "executed";
    case "game_over": return "game_over";
    default: return null;
  }
}

/** Sounds for the events of one update, in order. */
export function playEvents(events) {
  for (const e of events || []) {
    const name = soundOf(e);
    if (name) playSound(name);
  }
}
