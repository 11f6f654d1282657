// The table page's board area (board.js draws the board). An update that changes nothing the
// board shows (a vote, a chat line, presence) leaves its DOM alone, so a policy still falling
// into its slot is not cut short by a redraw; a slot filled since the last drawing is animated.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { renderBoard } from "./board.js";

export function boardArea() {
  const el = h("section", { class: "area area-board" });
  let shown = null; // the last board drawn, without the animation marks
  let seen = null; // the policy counts of the last drawing: newer slots are animated once

  function render(view) {
    const board = renderBoard(view); // detached, without the animation marks: compared, not shown
    if (shown && board.isEqualNode(shown)) return;
    shown = board;
    const fresh = seen && (view.liberal_policies > seen.liberal || view.fascist_policies > seen.fascist) ? seen : null;
    seen = { liberal: view.liberal_policies, fascist: view.fascist_policies };
    replace(el, h("h2", { class: "visually-hidden", text: t("board.fascist_track") }), renderBoard(view, fresh));
  }

  return { el, render };
}
