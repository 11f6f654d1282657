// Inline SVG icons, built with createElementNS (no markup strings). 24x24, stroke = currentColor.
// Every icon is decorative (aria-hidden): a word always goes with it.

const SVG = "http://www.w3.org/2000/svg";

// Each icon: a list of [tag, attributes]; `f` in attributes marks a filled shape.
const ICONS = {
  liberal: [ // a dove
    ["path", { d: "M2.5 13.5c3 .4 5.6-.6 7.4-3.2C11.6 7.8 13.6 5 17 5c1.8 0 3 .9 3.8 2.1L23 8l-2.4.9c-.2 5.6-4.3 10.1-10.4 10.1-3.5 0-6.2-1.9-7.7-5.5z" }],
    ["path", { d: "M10.6 11.5C8.4 9.6 7.4 6.8 8 3.5c2.6 1.2 4.4 3.3 5 5.8" }],
    ["circle", { cx: 17.6, cy: 7.6, r: 0.9, f: 1 }],
  ],
  fascist: [ // a skull
    ["path", { d: "M12 2.5a8 8 0 0 0-8 8c0 2.8 1.3 4.7 3 5.9V20a1 1 0 0 0 1 1h8a1 1 0 0 0 1-1v-3.6c1.7-1.2 3-3.1 3-5.9a8 8 0 0 0-8-8z" }],
    ["circle", { cx: 9, cy: 11, r: 1.8, f: 1 }],
    ["circle", { cx: 15, cy: 11, r: 1.8, f: 1 }],
    ["path", { d: "M10 17.5V21M14 17.5V21M12 13.8l-1 2h2z" }],
  ],
  hitler: [ // a skull with a crown
    ["path", { d: "M6.5 7.5 5 2.5l4 2.5L12 1.5 15 5l4-2.5-1.5 5" }],
    ["path", { d: "M12 7a7 7 0 0 0-7 7c0 2.3 1 3.9 2.5 5v2.5h9V19c1.5-1.1 2.5-2.7 2.5-5a7 7 0 0 0-7-7z" }],
    ["circle", { cx: 9.5, cy: 14, r: 1.6, f: 1 }],
    ["circle", { cx: 14.5, cy: 14, r: 1.6, f: 1 }],
  ],
  merlin: [ // a wizard's hat with a star
    ["path", { d: "M3 20.5h18M6 20.5 11 3l7 17.5" }],
    ["path", { d: "M13.2 9.2l.7 1.5 1.6.2-1.2 1.1.3 1.6-1.4-.8-1.4.8.3-1.6-1.2-1.1 1.6-.2z", f: 1 }],
  ],
  percival: [ // a shield with a cross
    ["path", { d: "M12 2.5 4 5.5v6c0 5 3.4 8.6 8 10 4.6-1.4 8-5 8-10v-6z" }],
    ["path", { d: "M12 6.5v11M7.5 10.5h9" }],
  ],
  morgana: [ // a crescent moon
    ["path", { d: "M20 14.5A8.5 8.5 0 1 1 9.5 4a6.8 6.8 0 0 0 10.5 10.5z" }],
  ],
  monarchist: [ // a crown
    ["path", { d: "M3 8l4.5 4L12 5l4.5 7L21 8l-2 10.5H5z" }],
    ["path", { d: "M5 21h14" }],
  ],
  assassinate: [ // a dagger
    ["path", { d: "M14.5 3.5 20.5 9.5 10 20l-6-6z" }],
    ["path", { d: "M7.5 16.5 3 21M5.5 12.5l6 6" }],
  ],
  sus: [ // an eye with a question
    ["path", { d: "M1.5 12S5.5 5 12 5s10.5 7 10.5 7-4 7-10.5 7S1.5 12 1.5 12z" }],
    ["path", { d: "M10 10a2 2 0 1 1 2.8 1.8c-.5.3-.8.7-.8 1.2M12 15.5v.5" }],
  ],
  trust: [ // a handshake-ish heart
    ["path", { d: "M12 20.5S3 15 3 8.8A4.8 4.8 0 0 1 12 6a4.8 4.8 0 0 1 9 2.8C21 15 12 20.5 12 20.5z" }],
  ],
  investigate: [
    ["circle", { cx: 10.5, cy: 10.5, r: 6.5 }],
    ["path", { d: "M21 21l-5.6-5.6" }],
  ],
  special_election: [ // a person with a plus
    ["circle", { cx: 9, cy: 7, r: 4 }],
    ["path", { d: "M1.5 21v-2a4 4 0 0 1 4-4h7a4 4 0 0 1 4 4v2M20 8v6M17 11h6" }],
  ],
  peek: [ // an eye
    ["path", { d: "M1.5 12S5.5 4.5 12 4.5 22.5 12 22.5 12 18.5 19.5 12 19.5 1.5 12 1.5 12z" }],
    ["circle", { cx: 12, cy: 12, r: 3 }],
  ],
  execute: [ // a crosshair
    ["circle", { cx: 12, cy: 12, r: 9 }],
    ["path", { d: "M12 1.5v5M12 17.5v5M1.5 12h5M17.5 12h5" }],
    ["circle", { cx: 12, cy: 12, r: 1.4, f: 1 }],
  ],
  veto: [ // a "no" sign
    ["circle", { cx: 12, cy: 12, r: 9.5 }],
    ["path", { d: "M5.3 5.3l13.4 13.4" }],
  ],
  president: [ // a star
    ["path", { d: "M12 2.5l2.9 6 6.6.9-4.8 4.6 1.2 6.5L12 17.4l-5.9 3.1 1.2-6.5-4.8-4.6 6.6-.9z" }],
  ],
  chancellor: [ // a scroll
    ["path", { d: "M6 3.5h11a2 2 0 0 1 2 2V18a2.5 2.5 0 0 1-2.5 2.5H7" }],
    ["path", { d: "M6 3.5a2 2 0 0 0-2 2V7h4V5.5a2 2 0 0 0-2-2zM8 7v11a2.5 2.5 0 0 1-5 0v-.5h2" }],
    ["path", { d: "M11 8.5h5M11 12h5M11 15.5h3" }],
  ],
  candidate: [ // a star outline with a question
    ["path", { d: "M12 2.5l2.9 6 6.6.9-4.8 4.6 1.2 6.5L12 17.4l-5.9 3.1 1.2-6.5-4.8-4.6 6.6-.9z" }],
  ],
  dead: [ // a tombstone
    ["path", { d: "M6 21V10a6 6 0 0 1 12 0v11z" }],
    ["path", { d: "M12 8v7M9.5 10.5h5M3.5 21h17" }],
  ],
  term_limited: [ // a clock
    ["circle", { cx: 12, cy: 12, r: 9.5 }],
    ["path", { d: "M12 6.5V12l3.5 2" }],
  ],
  timer: [ // an hourglass
    ["path", { d: "M6 2.5h12M6 21.5h12M7 2.5c0 5 5 6 5 9.5s-5 4.5-5 9.5M17 2.5c0 5-5 6-5 9.5s5 4.5 5 9.5" }],
  ],
  not_hitler: [ // a shield with a check
    ["path", { d: "M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10z" }],
    ["path", { d: "M8.5 12l2.5 2.5 4.5-5" }],
  ],
  ja: [["path", { d: "M20 6L9 17l-5-5" }]],
  nein: [["path", { d: "M18 6L6 18M6 6l12 12" }]],
  draw: [ // a stack of cards
    ["path", { d: "M12 2.5 2.5 7 12 11.5 21.5 7z" }],
    ["path", { d: "M2.5 12 12 16.5 21.5 12M2.5 17 12 21.5 21.5 17" }],
  ],
  discard: [ // a bin
    ["path", { d: "M3 6h18M19 6v14a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V6M8.5 6V4a2 2 0 0 1 2-2h3a2 2 0 0 1 2 2v2" }],
  ],
  tracker: [
    ["circle", { cx: 12, cy: 12, r: 9.5 }],
    ["path", { d: "M12 7v5l3 3" }],
  ],
  lock: [
    ["rect", { x: 4, y: 11, width: 16, height: 10.5, rx: 2 }],
    ["path", { d: "M8 11V7.5a4 4 0 0 1 8 0V11" }],
  ],
  eye: [
    ["path", { d: "M1.5 12S5.5 4.5 12 4.5 22.5 12 22.5 12 18.5 19.5 12 19.5 1.5 12 1.5 12z" }],
    ["circle", { cx: 12, cy: 12, r: 3 }],
  ],
  eye_off: [
    ["path", { d: "M9.9 4.7A9.8 9.8 0 0 1 12 4.5c6.5 0 10.5 7.5 10.5 7.5a18 18 0 0 1-2.6 3.4M6.4 6.4C3.3 8.4 1.5 12 1.5 12s4 7.5 10.5 7.5c2 0 3.8-.6 5.3-1.6" }],
    ["path", { d: "M2 2l20 20M9.9 9.9a3 3 0 0 0 4.2 4.2" }],
  ],
  chat: [["path", { d: "M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z" }]],
  bot: [
    ["rect", { x: 4, y: 7, width: 16, height: 13, rx: 3 }],
    ["path", { d: "M12 7V3.5M9 12.5v1M15 12.5v1M9.5 17h5" }],
    ["circle", { cx: 12, cy: 3, r: 1, f: 1 }],
  ],
  you: [
    ["circle", { cx: 12, cy: 8, r: 4.5 }],
    ["path", { d: "M3.5 21.5a8.5 8.5 0 0 1 17 0" }],
  ],
  globe: [
    ["circle", { cx: 12, cy: 12, r: 9.5 }],
    ["path", { d: "M2.5 12h19M12 2.5a14.5 14.5 0 0 1 0 19 14.5 14.5 0 0 1 0-19z" }],
  ],
  first: [["path", { d: "M6 5v14M18 6l-8 6 8 6z" }]],
  prev: [["path", { d: "M15 6l-6 6 6 6" }]],
  next: [["path", { d: "M9 6l6 6-6 6" }]],
  last: [["path", { d: "M18 5v14M6 6l8 6-8 6z" }]],
  play: [["path", { d: "M7 4.5l13 7.5-13 7.5z" }]],
  pause: [["path", { d: "M8 5v14M16 5v14" }]],
  sound: [ // a speaker with waves
    ["path", { d: "M3.5 9.5h4l5-4v13l-5-4h-4z" }],
    ["path", { d: "M16 9a4 4 0 0 1 0 6M18.5 6.5a7.5 7.5 0 0 1 0 11" }],
  ],
  sound_off: [ // a speaker, crossed out
    ["path", { d: "M3.5 9.5h4l5-4v13l-5-4h-4z" }],
    ["path", { d: "M16 9.5l5 5M21 9.5l-5 5" }],
  ],
  speak: [ // a head speaking (spoken announcements)
    ["path", { d: "M4 21v-3.5A6.5 6.5 0 0 1 2.5 13V10a7 7 0 0 1 13.4-2.8l1.6 4.3-2 .8V15a2 2 0 0 1-2 2h-2v4" }],
    ["path", { d: "M19 9.5a3 3 0 0 1 0 4M21.5 7a6.5 6.5 0 0 1 0 9" }],
  ],
  warning: [
    ["path", { d: "M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z" }],
    ["path", { d: "M12 9v4M12 17h.01" }],
  ],
  win: [ // a laurel-ish trophy
    ["path", { d: "M7 3.5h10v5a5 5 0 0 1-10 0zM7 5.5H3.5a3.5 3.5 0 0 0 3.8 3.5M17 5.5h3.5a3.5 3.5 0 0 1-3.8 3.5M12 13.5v4M8 21h8l-1-3.5H9z" }],
  ],
  copy: [
    ["rect", { x: 9, y: 9, width: 12, height: 12, rx: 2 }],
    ["path", { d: "M5 15H4.5A1.5 1.5 0 0 1 3 13.5v-9A1.5 1.5 0 0 1 4.5 3h9A1.5 1.5 0 0 1 15 4.5V5" }],
  ],
  download: [["path", { d: "M12 3v12M7 10l5 5 5-5M4 20h16" }]],
  offline: [
    ["path", { d: "M2 2l20 20M8.5 16.5a5 5 0 0 1 7 0M5 13a10 10 0 0 1 4-2.4M19 13a10 10 0 0 0-2.6-1.8M12 20h.01" }],
  ],
};

/** An <svg> element for the icon `name`, with an optional extra class. */
export function icon(name, cls) {
  const parts = ICONS[name] || ICONS.warning;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("class", cls ? `icon ${cls}` : "icon");
  for (const [tag, attrs] of parts) {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "f") continue;
      el.setAttribute(k, String(v));
    }
    if (attrs.f) el.setAttribute("class", "fill");
    svg.appendChild(el);
  }
  return svg;
}

export const ICON_NAMES = Object.keys(ICONS);
