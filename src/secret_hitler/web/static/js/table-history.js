// The table page's governments (history.js draws the list): folded away until wanted (open or
// closed is remembered in this browser), shown when its memory aids are on.
import { h, replace } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { aidsOf } from "./aids.js";
import { renderHistory } from "./history.js";

const OPEN_KEY = "sh.history";

export function historyArea(tableId) {
  const body = h("div", { class: "history-body" });
  const summary = h("summary", {});
  const box = h("details", {
    class: "history", ontoggle: () => { try { localStorage.setItem(OPEN_KEY, box.open ? "open" : "closed"); } catch { /* ignore */ } },
  }, summary, body);
  try { box.open = localStorage.getItem(OPEN_KEY) === "open"; } catch { /* ignore */ }
  const el = h("section", { class: "area area-history", "aria-label": t("history.title") }, box);

  function render(ctx) {
    const aids = aidsOf(tableId);
    const title = t(aids.history ? "history.title" : "claim.title");
    el.hidden = !aids.history && !aids.claims;
    el.setAttribute("aria-label", title);
    summary.replaceChildren(icon("tracker"), h("span", { text: title }));
    replace(body, renderHistory(ctx, ctx.governments, { claims: aids.claims, governments: aids.history }));
  }

  return { el, render };
}
