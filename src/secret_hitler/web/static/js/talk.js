// Table talk in the page (docs/talk.md, docs/web.md "Table talk"): a bot's chat line comes as a
// message of the talk phrases (a catalog key and its parameters, seats as {seat: n}), rendered
// here with the reader's own catalog, plurals and seat names; a person's line is shown as written.
// The claim a person's own line was read as comes from the server (the ack of the line); the
// page offers it only while the engine still lists it among this seat's legal actions.
// Pure: no DOM, so it runs under Node as well.
import { t, tn, list } from "./i18n.js";
import { seatName, presetName } from "./format.js";

/** A parameter of a message in words: a seat ({seat}), a list ({list}: its items joined by the
 * catalog's separator), a nested message, or a number or text as it is. */
function paramText(value, ctx) {
  if (value === null || typeof value !== "object") return value;
  if ("seat" in value) return seatName(ctx, value.seat);
  if (Array.isArray(value.list)) return list(value.list.map((item) => paramText(item, ctx)));
  return renderTalk(value, ctx);
}

/** A message in words (a bot's talk line, or an event as the server's narrator told it): each parameter
 * a number, a seat ({seat}), a list ({list}) or a nested message. A sentence (a key family's
 * member, `talk.accuse.hedged.2`) begins with a capital letter unless it begins with a seat,
 * whose name stands as written (talk/phrases.py renders by the same rule). */
export function renderTalk(msg, ctx) {
  const params = {};
  for (const [name, value] of Object.entries(msg.params || {})) params[name] = paramText(value, ctx);
  const text = msg.count === null || msg.count === undefined ? t(msg.key, params) : tn(msg.key, msg.count, params);
  if (!/\.\d+$/.test(msg.key)) return text;
  const first = /^\{(\w+)\}/.exec(t(msg.key));
  const lead = first && msg.params ? msg.params[first[1]] : null;
  if (lead !== null && typeof lead === "object" && "seat" in lead) return text;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A table's or a game's rules in words ("secrethitler.io: Avalon SH, Monarchist", "(Custom)"
 * when other settings were changed), as the server's narrator names them (`rules_name`, sent
 * with every table and game, docs/protocol.md); a preset's name when only that is known. */
export function rulesName(item) {
  if (item && item.rules_name) return renderTalk(item.rules_name, {});
  return presetName(item && typeof item.rules === "string" ? item.rules : item && item.rules && item.rules.preset);
}

/** An emote-only table's line (":sus: 3"): its tokens, each {reaction} (one of `names`, the
 * server's reactions) or {seat}; null when the text is not such a line. */
export function reactionTokens(text, names) {
  const tokens = String(text || "").split(/\s+/).filter(Boolean);
  const out = [];
  for (const token of tokens) {
    const named = /^:([a-z_]+):$/.exec(token);
    if (named && names.includes(named[1])) out.push({ reaction: named[1] });
    else if (/^[0-9]{1,2}$/.test(token)) out.push({ seat: Number(token) - 1 });
    else return null;
  }
  return out.some((x) => x.reaction) ? out : null;
}

/** A chat line's text for this reader: a bot's line in the reader's language, a line of
 * reactions in the reader's words ("Suspicious · Ann"), else its text. `names`: the reactions. */
export function chatText(line, ctx, names = []) {
  if (line.message && typeof line.message === "object") return renderTalk(line.message, ctx);
  const tokens = reactionTokens(line.text, names);
  if (!tokens) return line.text;
  return tokens.map((x) => (x.reaction ? t(`reaction.${x.reaction}`) : seatName(ctx, x.seat))).join(" · ");
}

/** Whether two engine actions (JSON) are the same action. */
function sameAction(a, b) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) return false;
  return true;
}

/** The claim to offer with one tap: the one the server read in this seat's last chat line, as
 * the engine lists it in the legal actions now; null when there is none or it is no longer open. */
export function offeredClaim(state) {
  const claim = state.chatClaim;
  if (!claim) return null;
  return (state.legal || []).find((a) => a.type === "claim" && sameAction(a, claim)) || null;
}
