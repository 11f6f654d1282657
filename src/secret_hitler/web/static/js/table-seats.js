// The table page's seats (board.js draws them) with the memory aids on them (aids.js): the
// marks the game set, each player's note, and under the seats the aids' switches.
import { h, replace } from "./dom.js";
import { t } from "./i18n.js";
import { renderSeats } from "./board.js";
import { seatName } from "./format.js";
import { aidsOf, decorateSeats, noteEditor, mountAidSwitches } from "./aids.js";

/** `onAids()`: an aid was switched (the page redraws what the aids change). */
export function seatsArea(tableId, onAids) {
  const body = h("div", { class: "seats-body" });
  const aids = h("div", { class: "area-aids" }); // a box of its own that the seats' redraw leaves alone
  const el = h("section", { class: "area area-seats" }, body, aids);
  const notes = noteEditor(() => render(last));
  let last = null;

  /** `ctx`: the table page's context. */
  function render(ctx) {
    last = ctx;
    const list = renderSeats(ctx);
    decorateSeats(list, {
      aids: aidsOf(tableId), view: ctx.view, mySeat: ctx.mySeat, editor: notes,
      gameKey: (ctx.table && ctx.table.game_id) || tableId, name: (s) => seatName(ctx, s),
    });
    replace(body, h("h2", { id: "seats-title", text: t("lobby.tables.col.players") }), list);
    mountAidSwitches(aids, tableId, onAids);
  }

  return { el, dialog: notes.dialog, render };
}
