// The bot levels a person may choose and the one the server fills seats with: both from
// GET /api/bots ("offered", "default"), asked once per page load for the lobby and the waiting
// room alike; "models": the language models the server's operator configured, which a host may
// seat ({level: "llm:<name>", name}). Their names are the catalogs' bot.level.*. There is no built-in copy of the list:
// until the server answers, the menus are empty and a table gets the server's default level.
import { get } from "./api.js";

let asked = null;

/** -> Promise<{levels: string[], default: string, models: {level, name}[]}>; a failed request
 * is asked again next call. */
export function botLevels() {
  if (!asked) {
    asked = get("/api/bots").then(
      (bots) => ({ levels: bots.offered, default: bots.default, models: bots.models || [] }),
      (err) => { asked = null; throw err; },
    );
  }
  return asked;
}

/** What the menus show before the server has answered. */
export const NO_LEVELS = Object.freeze({ levels: [], default: null, models: [] });
