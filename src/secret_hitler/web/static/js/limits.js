// The lengths the server accepts of what people type (GET /api/limits, docs/protocol.md): a chat
// line, a name, a password, a webhook URL, a report's reason; and the reactions an emote-only
// table's chat takes during its game (`reactions`). The server keeps each in one place
// (its settings and its rules for names, passwords, webhooks and reports); the page keeps no copy:
// main.js asks once per page load, the fields read `limits` (a null attribute is left out: dom.js,
// so until the server answers a field has no limit of its own and the server's refusal says it),
// and the catalogs' texts name them as parameters ({name_max}, {password_min}, ...).
import { t } from "./i18n.js";

export const limits = {
  chat_max: null,
  name_max: null,
  password_min: null,
  password_max: null,
  webhook_max: null,
  report_max: null,
  // rated seats and the AFK vote (docs/competitive.md): the numbers their texts name
  rated_min_games: null,
  rated_min_hours: null,
  afk_after: null,
  // new-player tables and rating limits (docs/competitive.md)
  newbie_games: null,
  rating_limit_range: null,
};

/** The reactions of an emote-only table (their names: ":sus:" is "sus"), none until the server
 * answers. */
export const reactions = [];

/** Take the server's answer: each known limit that is a positive whole number, the reactions. */
export function readLimits(answer) {
  for (const key of Object.keys(limits)) {
    const value = answer && answer[key];
    if (Number.isInteger(value) && value > 0) limits[key] = value;
    else if (Array.isArray(value) && value.length === 2 && value.every(Number.isFinite)) limits[key] = value;
  }
  const named = answer && Array.isArray(answer.reactions) ? answer.reactions.filter((r) => typeof r === "string") : [];
  reactions.splice(0, reactions.length, ...named);
}

/** The catalog's text `key` with the limits it names filled in (one not known yet: "…"). */
export function limitText(key) {
  return t(key, Object.fromEntries(Object.entries(limits).map(([name, v]) => [name, v ?? "…"])));
}
