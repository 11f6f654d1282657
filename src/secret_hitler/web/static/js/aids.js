// Memory aids (issue 11, point 3), each switchable per table and remembered in this browser:
// the table of governments, the claim tracker (claims per government, conflicts highlighted),
// per-player notes (kept in this browser, per game and seat, edited from the seat), and marks set
// by the game (`proven_not_hitler`, this seat's own investigations: both from the engine's view,
// nothing is inferred here).
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { t, language } from "./i18n.js";

export const AIDS = ["history", "claims", "notes", "marks"];
const NOTE_MAX = 500;

function readJson(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    const value = raw ? JSON.parse(raw) : null;
    return value && typeof value === "object" ? value : fallback;
  } catch {
    return fallback;
  }
}

function writeJson(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* storage full or off: the aid still works for this page */ }
}

/** Which aids are on at this table: {history, claims, notes, marks}, every one on by default. */
export function aidsOf(tableId) {
  const saved = readJson(`sh.aids.${tableId}`, {});
  return Object.fromEntries(AIDS.map((a) => [a, saved[a] !== false]));
}

export function setAid(tableId, name, on) {
  writeJson(`sh.aids.${tableId}`, { ...aidsOf(tableId), [name]: Boolean(on) });
}

/** The switches, one checkbox per aid, into `area`; `onChange()` re-renders the table. Built
 * again only when the language changed, so a switch keeps its focus and the box stays open. */
export function mountAidSwitches(area, tableId, onChange) {
  const shown = area.firstElementChild;
  if (shown && shown.dataset.lang === language()) return;
  const box = renderAidSwitches(tableId, onChange);
  if (shown) box.open = shown.open;
  area.replaceChildren(box);
}

function renderAidSwitches(tableId, onChange) {
  const aids = aidsOf(tableId);
  return h("details", { class: "aids", dataset: { lang: language() } },
    h("summary", {}, icon("eye"), h("span", { text: t("aids.title") })),
    h("fieldset", { class: "aid-switches" },
      h("legend", { class: "hint", text: t("aids.hint") }),
      AIDS.map((name) => h("label", { class: "aid-switch" },
        h("input", {
          type: "checkbox", checked: aids[name], dataset: { aid: name },
          onchange: (ev) => { setAid(tableId, name, ev.target.checked); onChange(); },
        }),
        h("span", { text: t(`aids.${name}`) })))));
}

// ------------------------------------------------------------------ notes
export function notesOf(gameKey) {
  return readJson(`sh.notes.${gameKey}`, {});
}

export function saveNote(gameKey, seat, text) {
  const notes = notesOf(gameKey);
  const clean = String(text || "").slice(0, NOTE_MAX).trim();
  if (clean) notes[seat] = clean; else delete notes[seat];
  writeJson(`sh.notes.${gameKey}`, notes);
}

/** The note editor: one modal dialog per table page (outside the seats, which re-render). */
export function noteEditor(onSaved) {
  const area = h("textarea", { id: "note-text", maxlength: String(NOTE_MAX), rows: "4" });
  const label = h("label", { for: "note-text" });
  // Named from the start: a closed dialog's buttons are still in the page for assistive tools.
  const save = h("button", { type: "submit", class: "btn", value: "save", text: t("aids.note.save") });
  const cancel = h("button", { type: "button", class: "btn btn-secondary", value: "cancel", text: t("aids.note.cancel") });
  const form = h("form", { method: "dialog" }, label, area, h("div", { class: "button-row" }, save, cancel));
  const dialog = h("dialog", { class: "note-dialog" }, form);
  let current = null;
  form.addEventListener("submit", () => {
    if (current) { saveNote(current.gameKey, current.seat, area.value); onSaved(current.seat); }
  });
  cancel.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    const seat = current && current.seat;
    current = null;
    // The seats were re-rendered meanwhile: focus the note button of the same seat again.
    const back = document.querySelector(`.seat[data-seat="${seat}"] .note-button`);
    if (back) back.focus();
  });
  return {
    dialog,
    open(gameKey, seat, name) {
      current = { gameKey, seat };
      label.textContent = t("aids.note.label", { name });
      save.textContent = t("aids.note.save");
      cancel.textContent = t("aids.note.cancel");
      area.value = notesOf(gameKey)[seat] || "";
      dialog.showModal();
      area.focus();
    },
  };
}

// ------------------------------------------------------------------ seats
function mark(name, text, cls) {
  return h("span", { class: `badge badge-${name} aid-mark ${cls}` }, icon(name), h("span", { text }));
}

/**
 * Add the aids to a rendered seat list (board.js `renderSeats`): the marks the game set and, when
 * notes are on, each seat's note with a button to edit it. `opts`: {aids, gameKey, view, mySeat,
 * name(seat), editor}.
 */
export function decorateSeats(list, opts) {
  const { aids, view } = opts;
  const proven = new Set(view.proven_not_hitler || view.not_hitler || []);
  const found = new Map((view.investigations || []).map(([seat, party]) => [seat, party]));
  const notes = aids.notes ? notesOf(opts.gameKey) : {};
  for (const li of list.querySelectorAll(".seat[data-seat]")) {
    const s = Number(li.dataset.seat);
    const marks = li.querySelector(".marks");
    const shown = li.querySelector(".badge-not_hitler");
    if (!aids.marks) {
      if (shown) shown.remove();
    } else if (marks) {
      if (proven.has(s) && !shown) marks.append(mark("not_hitler", t("status.not_hitler"), ""));
      if (found.has(s)) marks.append(mark("investigate", t("aids.mark.investigated", { party: t(`party.inline.${found.get(s)}`) }), `found-${found.get(s)}`));
    }
    if (aids.notes && s !== opts.mySeat) {
      const note = notes[s];
      const name = opts.name(s);
      li.append(h("div", { class: "seat-note" },
        note ? h("p", { class: "note-text", text: note }) : null,
        h("button", {
          type: "button", class: "btn btn-small btn-secondary note-button",
          "aria-label": t(note ? "aids.note.edit_for" : "aids.note.add_for", { name }),
          onclick: () => opts.editor.open(opts.gameKey, s, name),
        }, icon("chat"), h("span", { text: t(note ? "aids.note.edit" : "aids.note.add") }))));
    }
  }
}
