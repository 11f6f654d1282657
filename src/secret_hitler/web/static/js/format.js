// Words for things the pages show again and again: names of seats and bots, rule presets, lists
// of policies, decision timers, countdowns. Through the catalogs (i18n.js); no DOM, so they run
// under Node as well.
import { t, list } from "./i18n.js";

/** A name as shown: the server names bot seats "Bot 3" (no person may take such a name), so
 * those are said in the page's language ("Бот 3", "机器人 3"). */
export function displayName(name) {
  const bot = /^Bot (\d{1,2})$/.exec(name || "");
  return bot ? t("seat.bot_name", { seat: bot[1] }) : name;
}

/** Whether a bot seat's level is a language model's (``llm:<endpoint>``, docs/llm.md). */
export function isModel(level) {
  return typeof level === "string" && level.startsWith("llm:");
}

/** A bot seat's level as its mark says it: a model's seat "Language model" (its name is the
 * model's), any other the level's name. */
export function levelLabel(level) {
  return isModel(level) ? t("seat.model") : t(`bot.level.${level}`);
}

/** Display name of a seat: the game's names, else the table's seat names, else "Seat N". A
 * blind game is played by aliases: once it is over, the table shows the real names. */
export function seatName(ctx, seat) {
  if (seat === null || seat === undefined) return "?";
  const seats = ctx.table && ctx.table.seats;
  const entry = seats ? seats.find((s) => s.seat === seat) : null;
  const unmasked = ctx.table && ctx.table.blind && ctx.table.status === "finished";
  if (unmasked && entry && entry.name) return displayName(entry.name);
  const fromView = ctx.view && ctx.view.names ? ctx.view.names[seat] : null;
  if (fromView) return displayName(fromView);
  if (entry && entry.name) return displayName(entry.name);
  if (entry && entry.kind === "bot") return t("seat.bot_name", { seat: seat + 1 });
  return t("seat.number", { seat: seat + 1 });
}

/** A rule preset by its name ("Official"): a game's `preset` as GET /api/me/games gives it. A
 * table's or a game's whole rules are named by the server (`rules_name`: talk.js `rulesName`). */
export function presetName(preset) {
  return t(`preset.${preset || "official"}.name`);
}

export function policyWords(policies) {
  return list(policies.map((p) => t(`policy.short.${p}`)));
}

/** A decision timer (seconds per decision, null: none) in its largest whole unit, written as
 * every other length of time on the page is (`duration`'s units): "90 s", "5 min", "1 h", "7 d". */
export function timerLabel(seconds) {
  if (seconds === null) return t("lobby.timer.off");
  for (const [unit, size] of [["days", 86400], ["hours", 3600], ["minutes", 60]]) {
    if (seconds >= size && seconds % size === 0) return t(`duration.${unit}`, { n: seconds / size });
  }
  return t("duration.seconds", { n: seconds });
}

/** A length of time in the page's language: days, hours and minutes, the largest first and a
 * part of 0 left out ("1 d 23 h 59 min", "Осталось 1 д 23 ч 59 мин" with "timer.left"); under a
 * minute, seconds ("42 s"). Whole units only: 86,398 s is "23 h 59 min" (the seconds are cut, so
 * a countdown never shows more time than is left). The units are the catalogs' abbreviations,
 * which take no plural ending in any of the five languages; a space parts them in all five. */
export function duration(seconds) {
  const total = Math.max(0, Math.floor(seconds));
  if (total < 60) return t("duration.seconds", { n: total });
  const minutes = Math.floor(total / 60);
  const parts = [[Math.floor(minutes / 1440), "days"], [Math.floor(minutes / 60) % 24, "hours"], [minutes % 60, "minutes"]];
  return parts.filter(([n]) => n > 0).map(([n, unit]) => t(`duration.${unit}`, { n })).join(" ");
}

/** Whole seconds from `nowMs` (milliseconds, as Date.now()) to `at` (Unix seconds), rounded. */
export function secondsTo(at, nowMs = Date.now()) {
  return Math.round(at - nowMs / 1000);
}

/** "A bot plays for Cid in 42 s" / "A bot is playing for Cid": a disconnected seat's stand-in
 * from `at` (the table detail's `standin_at`). */
export function standinText(name, at, nowMs = Date.now()) {
  const left = secondsTo(at, nowMs);
  return left > 0 ? t("standin.countdown", { name, time: duration(left) }) : t("standin.playing", { name });
}

/** A move a stand-in made for this seat (table-state.js standinMove), in words. */
export function moveText(move, ctx) {
  const name = (s) => seatName(ctx, s);
  const policy = (p) => t(`policy.${p}`);
  switch (move.type) {
    case "nominate": return t("standin.move.nominate", { name: name(move.target) });
    case "vote": {
      // the government voted on, as the memory aid names one ("Ann → Bob")
      const g = move.government;
      const government = g ? t("history.government", { president: name(g.president), chancellor: name(g.chancellor) }) : null;
      if (move.ja === null) return government ? t("standin.move.voted_on", { government }) : t("standin.move.voted");
      const vote = t(move.ja ? "vote.ja" : "vote.nein");
      return government ? t("standin.move.vote_on", { government, vote }) : t("standin.move.vote", { vote });
    }
    case "discard": return move.policy ? t("standin.move.discard", { policy: policy(move.policy) }) : t("standin.move.other");
    case "enact": return move.policy ? t("standin.move.enact", { policy: policy(move.policy) }) : t("standin.move.other");
    case "veto": return t("standin.move.veto");
    case "veto_response":
      return move.accepted === null ? t("standin.move.other") : t(move.accepted ? "standin.move.veto_accepted" : "standin.move.veto_refused");
    case "investigate": case "special_election": case "execute":
      return t(`standin.move.${move.type}`, { name: name(move.target) });
    default: return t("standin.move.other");
  }
}

/** A table's name as people read it: the name its host gave it, else after its host ("Alice's
 * table"), else "Table {id}" (`table`: a table detail, a lobby row, a game of "My games" or of the
 * replays, with `name`, `host_name` and `id`). */
export function tableTitle(table) {
  if (table.name) return table.name;
  if (table.host_name) return t("lobby.tables.of_host", { name: displayName(table.host_name) });
  return t("lobby.tables.name", { id: table.id });
}
