// The waiting room of a table that has not started: its settings, the invite link, the seats
// (join one, or as the host put a bot on it), the host's start with bots for the empty seats, and
// the chat. What is typed or chosen here survives the redraws (each table update).
import { h, replace, update } from "./dom.js";
import { timerLabel } from "./format.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { limits, limitText } from "./limits.js";
import { ratingLimitText } from "./queue.js";
import { post, request, ensureSession, rememberedName } from "./api.js";
import { displayName, tableTitle, isModel, levelLabel } from "./format.js";
import { rulesName } from "./talk.js";
import { askNotifications } from "./alerts.js";
import { tableTools, seatTools } from "./hosting.js";

/**
 * `page`: {tableId, state() (table-state.js), me() / setMe(user) (the signed-in user),
 * levels() (levels.js), showError(code, message, detail, field), apply(msg) (fold a message and
 * redraw), rejoin() (a fresh welcome for this seat), hosting() (hosting.js's context)}.
 * `render(chat)` draws it with the chat panel's element at its foot.
 */
export function waitingRoom(page) {
  const el = h("div", { class: "waiting-room" }, h("p", { text: t("app.loading") }));
  // the room (``update``d: its buttons stay under a tap when a seat is taken) and the chat beside
  // it, whose element lives across renders
  const main = h("div", { class: "waiting-main" });
  const chatBox = h("div", { class: "waiting-chat" });
  const draft = { name: null, fill: true, level: null }; // the fields, kept across redraws
  const path = (tail = "") => `/api/tables/${encodeURIComponent(page.tableId)}${tail}`;
  const failed = (err) => page.showError(err.code, err.message, null, err.field);

  async function join(seat) {
    askNotifications();
    try {
      if (!page.me()) {
        const input = document.getElementById("join-name");
        const name = input ? input.value.trim() : "";
        if (!name) { page.showError("__text", t("lobby.display_name.required")); if (input) input.focus(); return; }
        page.setMe(await ensureSession(name));
      }
      const body = { seat };
      if (page.state().invite) body.invite = page.state().invite;
      const table = await post(path("/join"), body);
      if (table && table.seats) page.apply({ type: "table_detail", table }, false);
      page.rejoin();
    } catch (err) { failed(err); }
  }

  async function leave() {
    try {
      await post(path("/leave"));
      page.rejoin();
    } catch (err) { failed(err); }
  }

  async function addBot(seat) {
    try {
      const level = (document.getElementById("fill-level") || {}).value;
      page.apply({ type: "table_detail", table: await post(path("/bots"), level ? { seat, level } : { seat }) });
    } catch (err) { failed(err); }
  }

  async function removeBot(seat) {
    try {
      page.apply({ type: "table_detail", table: await request("DELETE", path(`/bots/${seat}`)) });
    } catch (err) { failed(err); }
  }

  async function start(fill) {
    askNotifications();
    try {
      await post(path("/start"), fill ? { fill_with_bots: fill } : {});
    } catch (err) { failed(err); }
  }

  function render(chat) {
    const state = page.state();
    const table = state.table;
    if (!table) { replace(el, h("p", { text: t("app.loading") })); return; }
    const me = page.me();
    const levels = page.levels();
    const mine = state.seat;
    const isHost = table.host && (table.host === state.userId || (me && table.host === me.user_id));
    const seats = (table.seats || []).slice().sort((a, b) => a.seat - b.seat);
    const free = seats.filter((s) => s.kind === "empty").length;
    const waitingNow = table.status === "waiting";
    const parts = [h("h2", { class: "table-title", text: tableTitle({ id: page.tableId, ...table }) })];
    parts.push(h("dl", { class: "facts" },
      h("dt", { text: t("lobby.create.rules") }), h("dd", { text: rulesName(table) }),
      h("dt", { text: t("lobby.create.players") }), h("dd", { text: t("lobby.create.players_value", { count: table.players }) }),
      h("dt", { text: t("lobby.visibility") }), h("dd", { text: t(table.public ? "lobby.visibility.public" : "lobby.visibility.private") }),
      h("dt", { text: t("lobby.timer") }), h("dd", { text: timerLabel(table.timer || null) }),
      table.timer && table.on_timeout ? [h("dt", { text: t("lobby.on_timeout") }), h("dd", { class: "on-timeout", text: t(`lobby.on_timeout.${table.on_timeout}`) })] : null,
      table.category ? [h("dt", { text: t("lobby.category") }), h("dd", { text: t(`category.${table.category}`) })] : null,
      table.chat ? [h("dt", { text: t("lobby.chat_mode") }), h("dd", { text: t(`lobby.chat_mode.${table.chat}`) })] : null,
      table.blind ? [h("dt", { text: t("lobby.blind") }), h("dd", { text: t("lobby.blind.hint") })] : null,
      ratingLimitText(table) ? [h("dt", { text: t("lobby.rating_limit") }), h("dd", { class: "rating-limit", text: ratingLimitText(table) })] : null,
      table.kind === "newbie" ? [h("dt", { text: t("lobby.kind.newbie") }), h("dd", { text: limitText("lobby.kind.newbie.hint") })] : null));
    if (table.invite) parts.push(inviteBox(table.invite));
    const rows = seats.map((s) => {
      const who = s.kind === "empty" ? t("seat.empty") : s.kind === "bot" ? (displayName(s.name) || t("seat.bot_name", { seat: s.seat + 1 })) : (s.name || "");
      const tags = [];
      if (s.seat === mine) tags.push(h("span", { class: "you-tag", text: t("seat.you") }));
      if (s.kind === "bot") tags.push(h("span", { class: isModel(s.level) ? "badge badge-model" : "badge muted" }, icon("bot"), h("span", { text: s.level ? levelLabel(s.level) : t("seat.bot") })));
      if (s.kind === "human" && s.connected === false) tags.push(h("span", { class: "badge muted" }, icon("offline"), h("span", { text: t("seat.offline") })));
      const buttons = [];
      if (s.kind === "empty" && mine === null && waitingNow) {
        buttons.push(h("button", { type: "button", class: "btn btn-primary", dataset: { fkey: `join-${s.seat}` }, onclick: () => join(s.seat) }, t("lobby.join")));
      }
      if (isHost && waitingNow && s.kind === "empty") {
        buttons.push(h("button", { type: "button", class: "btn btn-secondary", dataset: { fkey: `add-bot-${s.seat}` }, onclick: () => addBot(s.seat) }, icon("bot"), h("span", { text: t("lobby.add_bot") })));
      }
      if (isHost && waitingNow && s.kind === "bot") {
        buttons.push(h("button", { type: "button", class: "btn btn-secondary", dataset: { fkey: `remove-bot-${s.seat}` }, onclick: () => removeBot(s.seat) }, t("lobby.remove_bot")));
      }
      // the host's buttons for this player and "Report" (hosting.js), on the player's own row
      const tools = seatTools(page.hosting(), s);
      return [h("li", { class: `wait-seat kind-${s.kind}` },
        h("span", { class: "seat-num", text: String(s.seat + 1) }),
        h("span", { class: "seat-name", title: who, text: who }), tags, h("span", { class: "wait-buttons" }, buttons, tools && tools.buttons)),
      tools && tools.form ? h("li", { class: "tool-report" }, tools.form) : null];
    });
    if (!me && mine === null && free && waitingNow) {
      parts.push(h("div", { class: "field" },
        h("label", { for: "join-name", text: t("lobby.display_name") }),
        h("input", {
          id: "join-name", type: "text", maxlength: limits.name_max, autocomplete: "nickname", placeholder: t("lobby.display_name.placeholder"),
          value: draft.name ?? rememberedName(), oninput: (e) => { draft.name = e.target.value; },
        })));
    }
    parts.push(h("h3", { text: t("lobby.tables.col.players") }), h("ol", { class: "wait-seats" }, rows));
    if (waitingNow) {
      parts.push(h("p", { class: "hint", text: free ? t("lobby.need_players", { count: free }) : (isHost ? t("lobby.table_ready") : t("lobby.waiting_for_host")) }));
      if (!isHost && free) parts.push(h("p", { class: "hint", text: t("lobby.waiting_for_host") }));
      const buttons = [];
      if (isHost) {
        // What the host chose survives the waiting room's redraws (each table update).
        const fill = h("input", { type: "checkbox", id: "fill-bots", checked: draft.fill && levels.levels.length > 0, disabled: !levels.levels.length, onchange: (e) => { draft.fill = e.target.checked; } });
        const chosen = draft.level ?? levels.default;
        const level = h("select", { id: "fill-level", "aria-label": t("lobby.bots.level"), onchange: (e) => { draft.level = e.target.value; } },
          levels.levels.map((l) => h("option", { value: l, selected: l === chosen }, t(`bot.level.${l}`))),
          // the host may seat the server's language models (never a URL: the server's list)
          levels.models.length ? h("optgroup", { label: t("lobby.models") },
            levels.models.map((m) => h("option", { value: m.level, selected: m.level === chosen }, m.name))) : null);
        buttons.push(h("div", { class: "fill-row" }, h("label", { for: "fill-bots" }, fill, h("span", { text: t("lobby.fill_bots") })), level));
        buttons.push(h("button", {
          type: "button", class: "btn btn-primary big", dataset: { fkey: "start" },
          onclick: () => start(fill.checked ? level.value : null),
        }, icon("play"), h("span", { text: t("lobby.start") })));
      }
      if (mine !== null) buttons.push(h("button", { type: "button", class: "btn btn-secondary", onclick: leave }, t("lobby.leave")));
      parts.push(h("div", { class: "button-row" }, buttons));
    }
    if (mine === null) parts.push(h("p", { class: "banner spectator" }, icon("eye"), h("span", { text: t("spectator.hint") })));
    parts.push(tableTools(page.hosting(), { seats: false }));
    if (main.parentNode !== el) replace(el, main, chatBox);
    if (chat.parentNode !== chatBox) chatBox.append(chat);
    update(main, parts);
  }

  return { el, render };
}

/** The invite link with a copy button. */
function inviteBox(code) {
  const url = `${location.origin}${location.pathname}#/invite/${encodeURIComponent(code)}`;
  const field = h("input", { id: "invite-url", type: "text", readonly: true, value: url });
  const copied = h("span", { class: "copied", role: "status" });
  return h("div", { class: "invite" },
    h("label", { for: "invite-url", text: t("lobby.invite") }),
    h("div", { class: "invite-row" }, field,
      h("button", {
        type: "button", class: "btn btn-secondary",
        onclick: async () => {
          try { await navigator.clipboard.writeText(url); } catch { field.select(); document.execCommand && document.execCommand("copy"); }
          copied.textContent = t("lobby.invite.copied");
        },
      }, icon("copy"), h("span", { text: t("lobby.invite.copy") }))),
    h("p", { class: "hint", text: t("lobby.invite.hint") }), copied);
}
