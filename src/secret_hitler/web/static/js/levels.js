// The bot levels a person may choose and the one the server fills seats with: both from
// GET /api/bots ("offered", "default"), asked once per page load for the lobby and the waiting
// room alike. Their names are the catalogs' bot.level.*.
import { get } from "./api.js";

const FALLBACK = { levels: ["random", "rule", "bayes", "bayes-human"], default: "bayes" };
let asked = null;

/** -> Promise<{levels: string[], default: string}>; the fallback while the server cannot say. */
export function botLevels() {
  if (!asked) {
    asked = get("/api/bots").then((bots) => {
      const levels = bots.offered && bots.offered.length ? bots.offered : FALLBACK.levels;
      return { levels, default: levels.includes(bots.default) ? bots.default : levels[0] };
    }).catch(() => { asked = null; return FALLBACK; });
  }
  return asked;
}

export const FALLBACK_LEVELS = FALLBACK;
