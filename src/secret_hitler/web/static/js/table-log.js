// The table page's game log (log.js says each event in words): new lines are marked and
// scrolled to; private lines stay hidden while the role card is.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { describeEvents, renderLog } from "./log.js";

export function logArea() {
  const list = h("div", { class: "log-scroll", tabindex: "0", role: "region", "aria-labelledby": "log-title" });
  const title = h("h2", { id: "log-title" });
  const el = h("section", { class: "area area-log", id: "log", "aria-labelledby": "log-title" }, title, list);
  let count = 0; // lines drawn so far: the ones after are new

  function render(ctx) {
    const lines = describeEvents(ctx.view.events || [], ctx);
    title.textContent = t("log.title");
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    const fresh = lines.length > count ? count : null;
    replace(list, renderLog(lines, { showPrivate: ctx.showRoles, highlightFrom: count ? fresh : null }));
    count = lines.length;
    if (atBottom || fresh !== null) list.scrollTop = list.scrollHeight;
  }

  return {
    el,
    render,
    /** A fresh welcome: the whole log again, nothing marked new. */
    reset() { count = 0; },
    /** Bring the log into view with the keyboard in it (the end screen's "Game history"). */
    show() {
      el.scrollIntoView({ behavior: "smooth", block: "start" });
      list.focus({ preventScroll: true });
    },
  };
}
