// The browser tests' layout checker, run in the page (web_support.layout_problems): every piece of
// visible text that does not fit where it is drawn, read from the line boxes of its text nodes
// (Range.getClientRects), not from a picture:
//   overflow   text outside its own box or a box around it (spilling over a neighbour, out of
//              a card, or a board that no longer fits its panel);
//   clipped    text cut by an ancestor that hides or scrolls its overflow sideways (a nav bar
//              that hides "Правила"), or that hides it vertically; a one-line text ellipsized on
//              purpose, with its whole text in a `title`, is not a problem;
//   offscreen  text left or right of the screen;
//   broken     a word split across two lines without a hyphen ("либера/льный"): two letters of
//              a script that separates words by spaces, on two lines, with no hyphen or soft
//              hyphen between them. (Chromium here has no hyphenation dictionary: `hyphens:
//              auto` never hyphenates, so every word has to fit its line.)
//   clipped    also: an empty field's placeholder, or a menu's option, wider than the
//              control that draws it (they are no text nodes: measured apart, at the end).
// With `viewport: true` (the big screen: a TV cannot scroll) the page must not scroll at all and
// every text must be inside the screen, but for text in a scrolling list (the log), whose list
// must be inside the screen.
// `opts`: {root: a selector (default: body), viewport: false, ignore: a selector of subtrees to
// skip}. Returns a list of strings, empty when everything fits.
(opts = {}) => {
  const root = opts.root ? document.querySelector(opts.root) : document.body;
  if (!root) return [`no ${opts.root}`];
  const W = document.documentElement.clientWidth;
  const H = document.documentElement.clientHeight;
  const TOL = 1.5;
  const SKIP = "script, style, noscript, template, title, select, option, textarea, .visually-hidden";
  const problems = [];
  const styleOf = new Map();
  const css = (el) => {
    let s = styleOf.get(el);
    if (!s) { s = getComputedStyle(el); styleOf.set(el, s); }
    return s;
  };
  const describe = (el) => {
    const cls = typeof el.className === "string" && el.className.trim() ? "." + el.className.trim().split(/\s+/).slice(0, 2).join(".") : "";
    return `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}${cls}`;
  };
  const say = (kind, el, text, detail = "") => {
    problems.push(`${kind}: ${describe(el)} ${JSON.stringify(text.trim().slice(0, 48))}${detail ? " " + detail : ""}`);
  };
  const WORD = /[\p{L}\p{N}\p{M}]/u;
  const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
  const HYPHENS = "-\u00ad\u2010\u2011";

  if (document.documentElement.scrollWidth > W + 1) problems.push(`page: ${document.documentElement.scrollWidth} px wide on a ${W} px screen`);
  if (opts.viewport && document.documentElement.scrollHeight > H + 1) problems.push(`page: ${document.documentElement.scrollHeight} px tall on a ${H} px screen`);

  /** The words split across lines without a hyphen in one text node. */
  function brokenWords(node) {
    const text = node.data;
    const range = document.createRange();
    let prev = null; // [index, rect] of the last character drawn
    for (let i = 0; i < text.length; i++) {
      if (/\s/.test(text[i])) { prev = null; continue; }
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const r = range.getBoundingClientRect();
      if (!r.width && !r.height) { prev = null; continue; }
      if (prev) {
        const [j, p] = prev;
        const newLine = r.top >= p.top + p.height / 2;
        const a = text[j], b = text[i];
        if (newLine && WORD.test(a) && WORD.test(b) && !UNSPACED.test(a) && !UNSPACED.test(b) && !HYPHENS.includes(a)) {
          let start = j; while (start > 0 && WORD.test(text[start - 1])) start--;
          let end = i; while (end < text.length && WORD.test(text[end])) end++;
          say("broken", node.parentElement, text.slice(start, end), `at "${text.slice(start, j + 1)}/${text.slice(i, end)}"`);
        }
      }
      prev = [i, r];
    }
  }

  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.data.trim()) continue;
    const el = node.parentElement;
    if (!el || el.closest(SKIP) || (opts.ignore && el.closest(opts.ignore))) continue;
    if (el.namespaceURI !== "http://www.w3.org/1999/xhtml") continue; // SVG text: drawn to scale
    // not drawn: hidden, or in a closed <details> (laid out, never shown)
    if (!el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true })) continue;
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0.5 && r.height > 0.5);
    if (!rects.length) continue; // not rendered (display: none, a closed <details>)
    const text = node.data;
    const size = parseFloat(css(el).fontSize) || 16;
    // its own box: the nearest ancestor that is not inline
    let box = el;
    while (box !== root && box.parentElement && ["inline", "contents"].includes(css(box).display)) box = box.parentElement;
    const vtol = Math.max(TOL, size * 0.35);
    // Its box and every box around it: the text must be inside each that lets it overflow (else
    // it spills out of its card or panel), and inside each that clips it (else it is cut).
    let scroller = null; // the nearest ancestor that scrolls vertically
    let upright = rects; // what must fit vertically: the text, or the list it scrolls in
    let sideways = rects; // and sideways: the text, or the box that clipped it
    const found = [];
    let hidden = false;
    let spilled = false;
    for (let a = box; a && a !== document.documentElement; a = a.parentElement) {
      const s = css(a);
      if (s.display === "contents" || (a !== box && s.display === "inline")) continue;
      const ox = s.overflowX, oy = s.overflowY;
      const ar = a.getBoundingClientRect();
      if (ox === "visible" || oy === "visible") {
        const out = sideways.find((r) => ox === "visible" && (r.left < ar.left - TOL || r.right > ar.right + TOL))
          || upright.find((r) => oy === "visible" && (r.top < ar.top - vtol || r.bottom > ar.bottom + vtol));
        if (out && !spilled && ar.width && ar.height) {
          spilled = true;
          found.push(["overflow", a, `(${Math.round(out.left)}..${Math.round(out.right)} x ${Math.round(out.top)}..${Math.round(out.bottom)} out of ${describe(a)} ${Math.round(ar.left)}..${Math.round(ar.right)} x ${Math.round(ar.top)}..${Math.round(ar.bottom)})`]);
        }
      }
      if (s.position === "fixed") break;
      if (ox === "visible" && oy === "visible") continue;
      if (a.clientWidth <= 1 && a.clientHeight <= 1) { hidden = true; break; } // visually hidden
      const left = ar.left + a.clientLeft, right = left + a.clientWidth;
      const top = ar.top + a.clientTop, bottom = top + a.clientHeight;
      if (ox !== "visible") {
        if (sideways.some((r) => r.left < left - TOL || r.right > right + TOL)) {
          const ellipsis = s.textOverflow === "ellipsis" && (a.closest("[title]") || a.querySelector("[title]"));
          if (!ellipsis) found.push(["clipped", a, `(sideways, by ${describe(a)})`]);
        }
        sideways = [ar];
      }
      if (oy === "hidden" || oy === "clip") {
        if (upright.some((r) => r.top < top - vtol || r.bottom > bottom + vtol)) found.push(["clipped", a, `(vertically, by ${describe(a)})`]);
      } else if (oy !== "visible") {
        // text scrolled out of its list is fine; the list itself must be seen
        if (!scroller) scroller = a;
        upright = [ar];
      }
    }
    if (hidden) continue;
    for (const [kind, a, detail] of found) say(kind, a, text, detail);
    const fixed = (r) => r.left < -TOL || r.right > W + TOL;
    if (rects.some(fixed)) say("offscreen", el, text);
    if (opts.viewport) {
      const shown = scroller ? [scroller.getBoundingClientRect()] : rects;
      if (shown.some((r) => r.top < -TOL || r.bottom > H + TOL)) say("offscreen", scroller || el, text, "(below or above the screen)");
    }
    // a word split across lines: only a text node drawn on more than one line can have one
    if (rects.length > 1 || rects[0].height > size * 2.2) brokenWords(node);
  }

  // The texts the browser draws inside a control, which are no text nodes: an empty field's
  // placeholder and a menu's options (each may be the chosen one). A placeholder is cut when its
  // field, given it as its value, scrolls sideways (scrollWidth over clientWidth); an option when
  // the menu is narrower than a copy of it at its natural width (its widest option, its arrow).
  for (const el of root.querySelectorAll("input[placeholder], select")) {
    if (el.closest(SKIP.replace("select, option, ", "")) || (opts.ignore && el.closest(opts.ignore))) continue;
    if (!el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true })) continue;
    if (el.clientWidth <= 1) continue;
    if (el.tagName === "INPUT") {
      if (el.value || !el.placeholder.trim()) continue;
      el.value = el.placeholder;
      const over = el.scrollWidth - el.clientWidth;
      el.value = "";
      if (over > TOL) say("clipped", el, el.placeholder, `(placeholder, ${over} px too long)`);
      continue;
    }
    const option = [...el.options].reduce((a, b) => (b.textContent.length > a.textContent.length ? b : a), el.options[0]);
    if (!option || !option.textContent.trim()) continue;
    const s = css(el);
    const probe = document.createElement("select");
    probe.append(...[...el.options].map((o) => o.cloneNode(true)));
    for (const prop of ["font", "letterSpacing", "paddingLeft", "paddingRight", "borderLeftWidth", "borderRightWidth", "borderStyle", "boxSizing", "appearance"]) probe.style[prop] = s[prop];
    Object.assign(probe.style, { position: "absolute", visibility: "hidden", width: "auto", minWidth: "0", maxWidth: "none", left: "0", top: "0" });
    document.body.append(probe);
    const need = probe.getBoundingClientRect().width;
    probe.remove();
    const has = el.getBoundingClientRect().width;
    if (need > has + TOL) say("clipped", el, option.textContent, `(an option, ${Math.ceil(need)} px in ${Math.floor(has)})`);
  }
  return [...new Set(problems)];
}
