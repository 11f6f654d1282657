// The game log in sentences: every engine event this seat received, as the server's narrator
// told it (talk/narrate.py: each event comes with its `told` messages, docs/protocol.md 2.2, the
// same messages as a language model's prompt), rendered in the reader's catalog with the page's
// own seat names. The page decides no message; here only how each line looks: its icon and kind.
import { engine } from "./engine.js";
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { seatName } from "./format.js";
import { renderTalk } from "./talk.js";

// The parts of a told event (the narrator's): a new round's heading, a line, more of the line
// before (the ballots under a vote's result, the roles at the end).
const HEADING = "heading";
const DETAIL = "detail";

// Each line's icon by its message (a function: by the event it tells of).
const ICONS = {
  "log.game_started": "draw", "log.candidate": "candidate", "log.candidate_special": "candidate",
  "log.nominated": "chancellor", "log.voted_ja": "ja", "log.voted_nein": "nein", "log.votes_revealed": "ja",
  "log.rejected": "nein", "log.elected": "president", "log.tracker_advanced": "tracker", "log.tracker_reset": "tracker",
  "log.not_hitler": "not_hitler", "log.veto_unlocked": "veto", "log.legislative_started": "draw",
  "log.passed_to_chancellor": "chancellor", "log.chaos": "warning", "log.peeked": "peek",
  "log.power_granted": (e) => e.power, "log.power_skipped": (e) => e.power, "log.investigated": "investigate",
  "log.special_election": "special_election", "log.executed": "execute", "log.veto_proposed": "veto",
  "log.veto_accepted": "veto", "log.veto_refused": "veto", "log.reshuffled": "draw",
  "log.enacted.liberal": "liberal", "log.enacted.fascist": "fascist",
};
// The lines that stand out: a policy on a track, chaos, an execution, the end.
const IMPORTANT = new Set(["log.chaos", "log.enacted.liberal", "log.enacted.fascist", "log.executed",
  "log.game_over.liberal", "log.game_over.fascist"]);

/** One told message as a log line: {text, kind, icon?, private?}. */
function logLine(told, e, ctx, priv) {
  const text = renderTalk(told, ctx);
  if (told.part === HEADING) return { kind: "round", text };
  if (told.part === DETAIL) return { kind: "detail", text };
  const line = { text, kind: "line" };
  const mark = ICONS[told.key];
  if (priv) Object.assign(line, { private: true, icon: "lock" });
  else if (mark) line.icon = typeof mark === "function" ? mark(e) : mark;
  else if (told.key.startsWith("log.claim.")) Object.assign(line, { icon: "chat", kind: "claim" });
  else if (told.key.startsWith("log.game_over.")) line.icon = "win";
  if (IMPORTANT.has(told.key)) line.kind = "important";
  return line;
}

/** Turn events into log lines: {text, private, icon, kind}, each event's `told` messages (none
 * for an event the log keeps quiet about, a secret ballot). */
export function describeEvents(events, ctx) {
  const lines = [];
  const name = (s) => seatName(ctx, s);
  const add = (text, extra = {}) => lines.push({ text, kind: "line", ...extra });
  for (const e of events) {
    const before = lines.length;
    const priv = engine.privateEvents.has(e.type);
    for (const told of e.told || []) lines.push(logLine(told, e, ctx, priv));
    if (e.standin) { // a move a stand-in made (the server's mark: table-state.js markStandin)
      if (lines.length === before && e.type === "voted") add(t("log.voted", { name: name(e.seat) }), { icon: "ja" });
      add(t(`log.standin.${e.standin.by}`, { name: name(e.standin.action.seat) }), { kind: "detail", icon: "bot" });
    }
  }
  return lines;
}

/** The log as an ordered list. Private lines stay hidden unless `showPrivate`: a run of them is
 * one line ("Private: reveal your role card"), not one per secret. */
export function renderLog(lines, { showPrivate = false, highlightFrom = null } = {}) {
  const items = lines.map((line, i) => {
    if (line.private && !showPrivate && i > 0 && lines[i - 1].private) return null; // said once
    const cls = [`log-${line.kind}`];
    if (line.private) cls.push("private");
    if (highlightFrom !== null && i >= highlightFrom) cls.push("fresh");
    if (line.kind === "round") return h("li", { class: cls.join(" ") }, h("span", { text: line.text }));
    const hidden = line.private && !showPrivate;
    return h("li", { class: cls.join(" ") },
      line.icon || hidden ? icon(hidden ? "lock" : line.icon) : h("span", { class: "icon-gap", "aria-hidden": "true" }),
      h("span", { class: "log-text", text: hidden ? t("log.private_hidden") : line.text }));
  });
  return h("ol", { class: "log-list" }, items);
}
