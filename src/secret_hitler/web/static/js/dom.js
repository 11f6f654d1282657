// Tiny DOM helpers. All text goes through textContent / createTextNode: never innerHTML.
import { language } from "./i18n.js";

/**
 * h("button", {class: "x", onclick: fn, "aria-label": "..."}, "text", child, [more])
 * Attribute values: strings/numbers set as attributes; `false`/`null`/`undefined` are skipped;
 * `true` sets an empty boolean attribute. Keys starting with "on" add event listeners.
 * `text` sets textContent; `dataset` copies into element.dataset.
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) setAttrs(el, attrs);
  append(el, children);
  return el;
}

export function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") {
      el.textContent = String(value);
    } else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) if (v !== undefined && v !== null) el.dataset[k] = String(v);
    } else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "value" && "value" in el) {
      el.value = String(value);
    } else if (key === "checked" || key === "selected" || key === "disabled") {
      el[key] = Boolean(value);
      if (value) el.setAttribute(key, "");
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

// A focused element that append() moved into a tree being built (a field a page keeps across its
// renders, like the lobby's name): moving it drops the focus before replace() can see it, so
// replace() gives it back. Renders are synchronous: it is forgotten at the end of the task.
let movedFocus = null;

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    if (child instanceof Node) {
      const active = document.activeElement;
      if (active && active !== document.body && child.contains(active)) {
        movedFocus = active;
        queueMicrotask(() => { movedFocus = null; });
      }
      el.appendChild(child);
    } else {
      el.appendChild(document.createTextNode(String(child)));
    }
  }
  return el;
}

const drawnFrom = new WeakMap();

/** Replace the children of `el` with `build()` only when `shown` (what they show, as JSON
 * values; the page's language is added) differs from what they were last drawn from here. A
 * part that polls draws through this: drawn anew, it would replace its buttons, and a tap whose
 * press and release straddle that is lost. Returns whether it drew. */
export function redraw(el, shown, build) {
  const key = JSON.stringify([shown, language()]);
  if (drawnFrom.get(el) === key) return false;
  drawnFrom.set(el, key);
  replace(el, build());
  return true;
}

/** The same markup: type, attributes and children (no HTML strings, as everywhere here). */
function sameNode(a, b) {
  return Boolean(a && b && a.isEqualNode(b));
}

/** Set the children of `el` to `children`, child by child: a child whose markup is the one
 * already in its place stays there, attached, with its listeners (equivalent: drawn from the same
 * facts) and what a person chose in it; the others are replaced. The parts of a table that every
 * update draws (the decision, the host's tools, the waiting room) go through this: another
 * seat's vote must not replace the Ja! under a tap (a tap whose press and release straddle a
 * replacement is lost), nor a seat taken the Start button. Keeps the keyboard focus as
 * `replace` does. Returns whether anything changed. `children` must be new nodes. */
export function update(el, ...children) {
  const next = document.createElement("div");
  append(next, children);
  const fresh = [...next.childNodes];
  if (fresh.length === el.childNodes.length && fresh.every((n, i) => sameNode(n, el.childNodes[i]))) return false;
  keepingFocus(el, () => {
    fresh.forEach((n, i) => {
      const at = el.childNodes[i];
      if (!at) el.appendChild(n);
      else if (!sameNode(n, at)) el.replaceChild(n, at);
    });
    while (el.childNodes.length > fresh.length) el.lastChild.remove();
  });
  return true;
}

/** Set the children of `el` to `before`, `kept` and `after` (arrays of new nodes), leaving `kept`
 * attached where it is: a part that lives across the renders of a page that is otherwise drawn
 * anew (the replay's controls, under a play-through's steps). Moving it out and back would lose
 * a tap on it as surely as replacing it. */
export function around(el, kept, before, after) {
  if (kept.parentNode !== el) return replace(el, before, kept, after);
  keepingFocus(el, () => {
    while (el.firstChild !== kept) el.firstChild.remove();
    while (kept.nextSibling) kept.nextSibling.remove();
    const head = document.createDocumentFragment();
    append(head, before);
    el.insertBefore(head, kept);
    append(el, after);
  });
  return el;
}

/** Replace all children of `el` (keeps keyboard focus on an equivalent element when possible, or
 * on the focused element itself when it is one of the new children). */
export function replace(el, ...children) {
  keepingFocus(el, () => {
    el.replaceChildren();
    append(el, children);
  });
  return el;
}

/** Run `change` (which redraws inside `el`); a focus it took away goes to the equivalent element
 * (the same `data-fkey`, else id), or to a focused element moved into `el`. */
function keepingFocus(el, change) {
  const active = document.activeElement;
  const inside = active && active !== document.body && el.contains(active);
  const key = inside ? active.dataset.fkey : undefined;
  const id = inside && !key ? active.id : undefined;
  change();
  let again = null;
  if (key) again = el.querySelector(`[data-fkey="${CSS.escape(key)}"]`);
  else if (id) again = document.getElementById(id);
  if (!again && movedFocus && el.contains(movedFocus) && (!document.activeElement || document.activeElement === document.body)) again = movedFocus;
  movedFocus = null;
  if (again && again !== document.activeElement) again.focus({ preventScroll: true });
}

/** Announce a message to screen readers through the polite live region. */
export function announce(text) {
  const region = document.getElementById("live");
  if (!region) return;
  region.textContent = "";
  // A separate task, so that repeating the same text is announced again.
  setTimeout(() => { region.textContent = text; }, 30);
}

export function clear(el) { el.replaceChildren(); return el; }

/** Offer `text` (JSON, as the server sent it) as a file named `filename` (the browser's
 * download). */
export function downloadText(filename, text) {
  const blob = new Blob([text], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: filename });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
