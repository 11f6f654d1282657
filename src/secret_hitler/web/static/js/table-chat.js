// The table chat: the lines so far (a polite live region: new lines are appended, never redrawn,
// so a screen reader reads only them), and the field, offered only to those the server lets
// write (docs/protocol.md 3.3: the update's `silenced`, the engine's speech rule), with the
// server's length limit (GET /api/limits `chat_max`, limits.js). At an emote-only table the
// game's chat is a row of reactions to tap (the server's `reactions`), each sent with the seats
// chosen first; at a silent one the players read only.
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { limits, reactions } from "./limits.js";
import { displayName, policyWords, seatName } from "./format.js";
import { chatText, offeredClaim } from "./talk.js";

// Why a seat may not chat (the update's `silenced`, the `chat_forbidden` details), in words.
const SILENCED = {
  spectator: "chat.spectators_read_only", dead: "chat.dead", legislative_session: "chat.government_silent", silent_game: "chat.silent_game",
};
// Reactions with an icon of their own (the others go by their word alone).
const REACTION_ICONS = { ja: "ja", nein: "nein", liberal: "liberal", fascist: "fascist", hitler: "hitler", sus: "sus", trust: "trust" };
const SEATS_MAX = 3; // seats one reaction may point at (the server takes four tokens a line)
const NEAR = 30; // characters before the limit at which the counter says so

/** `send(text) -> bool`: sends a line (false: offline). `claim(action | null)`: the claim
 * offered from the chat was tapped (null: turned down). `render(state, signedIn)`, `ctx` names. */
export function chatPanel(send, onOffline, claim = () => {}) {
  const list = h("ol", { class: "chat-list" });
  const scroll = h("div", { class: "chat-scroll", tabindex: "0", role: "region", "aria-labelledby": "chat-title", "aria-live": "polite" }, list);
  const count = h("span", { class: "chat-count", id: "chat-count", "aria-live": "off" });
  const input = h("input", {
    id: "chat-input", type: "text", maxlength: limits.chat_max, autocomplete: "off",
    "aria-describedby": "chat-count", dataset: { fkey: "chat-input" }, oninput: () => countChat(),
  });
  const shown = new Map(); // chat id -> its <li>
  const hint = h("p", { class: "hint chat-hint" });
  const offer = h("div", { class: "chat-claim", hidden: true }); // the claim read in my line
  const button = h("button", { type: "submit", class: "btn btn-secondary" });
  const form = h("form", { class: "chat-form", onsubmit: (ev) => { ev.preventDefault(); submit(); } });
  const label = h("label", { for: "chat-input", class: "visually-hidden" });
  const title = h("h2", { id: "chat-title" });
  const react = h("div", { class: "chat-reactions", hidden: true }); // an emote-only game's
  const aimed = new Set(); // the seats the next reaction points at
  const el = h("section", { class: "area area-chat", "aria-labelledby": "chat-title" });
  form.append(label, input, button, count);
  el.append(title, scroll, hint, offer, react, form);

  function submit() {
    const text = input.value.trim();
    if (!text) return;
    if (send(text)) { input.value = ""; countChat(); } else onOffline();
  }

  function countChat() {
    const n = input.value.length;
    const max = limits.chat_max; // (null until the server has said it: no counter)
    count.textContent = max ? t("chat.count", { count: n, max }) : "";
    count.classList.toggle("near", Boolean(max) && n > max - NEAR);
  }

  /** The title, the field and who may write. `signedIn`: the page has a user; `live`: it has
   * a socket to the table (a finished table opened later is read from the server, read-only). */
  function renderChrome(state, signedIn, live = true) {
    title.replaceChildren(icon("chat"), document.createTextNode(t("chat.title")));
    label.textContent = t("chat.placeholder");
    input.placeholder = t("chat.placeholder");
    button.textContent = t("chat.send");
    countChat();
    let why = "";
    let silent = false; // may write later in this game
    if (!live) why = t("chat.closed");
    else if (!signedIn) why = t("chat.spectators_read_only");
    else if (state.silenced) {
      why = t(SILENCED[state.silenced] || "chat.spectators_read_only");
      silent = state.silenced === "legislative_session";
    }
    const reacting = !why && emotesNow(state);
    if (reacting) why = t("chat.reactions_hint");
    hint.textContent = why;
    hint.hidden = !why;
    form.hidden = reacting || (Boolean(why) && !silent);
    input.disabled = silent;
    button.disabled = silent;
    renderReactions(state, reacting);
    renderOffer(state);
  }

  /** An emote-only table while its game runs (before and after it the chat is free). */
  function emotesNow(state) {
    return Boolean(state.table && state.table.chat === "emotes" && state.view && state.view.phase !== "game_over");
  }

  /** The reactions to tap, after the seats they point at. */
  function renderReactions(state, on) {
    react.hidden = !on;
    if (!on) { aimed.clear(); react.replaceChildren(); return; }
    const ctx = { view: state.view, table: state.table };
    const players = state.view.players || 0;
    const seats = Array.from({ length: players }, (_, s) => h("button", {
      type: "button", class: `btn btn-secondary seat-aim${aimed.has(s) ? " selected" : ""}`,
      "aria-pressed": aimed.has(s) ? "true" : "false", title: seatName(ctx, s), dataset: { fkey: `aim-${s}` },
      onclick: () => {
        if (aimed.has(s)) aimed.delete(s);
        else if (aimed.size < SEATS_MAX) aimed.add(s);
        renderReactions(state, true);
      },
    }, String(s + 1)));
    const buttons = reactions.map((r) => h("button", {
      type: "button", class: "btn btn-secondary reaction", dataset: { fkey: `react-${r}`, reaction: r },
      onclick: () => {
        const text = [`:${r}:`, ...[...aimed].sort((a, b) => a - b).map((s) => String(s + 1))].join(" ");
        if (send(text)) { aimed.clear(); renderReactions(state, true); } else onOffline();
      },
    }, REACTION_ICONS[r] ? icon(REACTION_ICONS[r]) : null, h("span", { text: t(`reaction.${r}`) })));
    react.replaceChildren(
      h("div", { class: "aim-row", role: "group", "aria-label": t("chat.reactions_seats") },
        h("span", { class: "aim-label", text: t("chat.reactions_seats") }), seats),
      h("div", { class: "reaction-row", role: "group", "aria-label": t("chat.reactions") }, buttons));
  }

  /** The claim the server read in this person's own line, offered with one tap (never made
   * for her), while the engine still lists it. */
  function renderOffer(state, ctx = state) {
    const o = offeredClaim(state);
    offer.hidden = !o;
    if (!o) { offer.replaceChildren(); return; }
    const words = o.subject === "investigation"
      ? t("claim.investigation_option", { name: seatName(ctx, o.target), party: t(`claim.party.${o.party}`) })
      : policyWords(o.policies);
    offer.replaceChildren(
      h("button", {
        type: "button", class: "btn btn-primary chat-claim-make", dataset: { action: "claim", fkey: "chat-claim" },
        onclick: () => claim(o),
      }, icon("chat"), h("span", { text: t("chat.claim_offer", { claim: words }) })),
      h("button", {
        type: "button", class: "btn btn-secondary chat-claim-no", "aria-label": t("chat.claim_dismiss"),
        onclick: () => claim(null),
      }, h("span", { text: "×" })));
  }

  /** Append the lines not shown yet (and drop those no longer in the state). */
  function renderLines(state, ctx) {
    const atBottom = scroll.scrollHeight - scroll.scrollTop - scroll.clientHeight < 40;
    const ids = new Set(state.chat.map((m) => m.id));
    for (const [id, li] of shown) if (!ids.has(id)) { li.remove(); shown.delete(id); }
    for (const m of state.chat) {
      if (shown.has(m.id)) continue;
      const li = h("li", { class: `chat-msg${m.seat === state.seat && m.seat !== null ? " mine" : ""}` },
        h("span", { class: "chat-name", text: m.seat !== null && m.seat !== undefined ? `${m.seat + 1} · ${displayName(m.name) || seatName(ctx, m.seat)}` : (m.name || "") }),
        h("span", { class: "chat-text", text: chatText(m, ctx, reactions) }));
      shown.set(m.id, li);
      list.append(li);
    }
    if (atBottom) scroll.scrollTop = scroll.scrollHeight;
    renderOffer(state, ctx);
  }

  return { el, renderChrome, renderLines };
}

/** The words for an `error` message: [code, message, detail] for the error box, chat refusals
 * in the chat's own words ("__text"). `signedIn`: the page has a user. */
export function errorWords(msg, signedIn) {
  const d = msg.detail;
  if (msg.code === "chat_forbidden" && SILENCED[d]) return ["__text", t(SILENCED[d])];
  if (msg.code === "chat_too_long" && limits.chat_max) return ["__text", t("chat.too_long", { max: limits.chat_max })];
  if (msg.code === "chat_empty") return ["__text", t("error.code.chat_empty")];
  if (msg.code === "unauthorized" && !signedIn) return ["__text", t("chat.spectators_read_only")];
  return [msg.code, msg.message, d];
}
