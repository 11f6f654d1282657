// Game analysis in the replay viewer: per-seat role probabilities at the current step, from the
// chosen point of view, and the moves the bot would have played differently. The server computes
// it (GET /api/games/{id}/analysis?view=V, POST /api/analysis?view=V; docs/protocol.md, 6.).
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./format.js";

const pct = (p) => `${Math.round(100 * p)}%`;

/** A short description of one action (the seat's own move or the bot's alternative). */
export function describeAction(action, ctx) {
  switch (action.type) {
    case "vote": return t(action.ja ? "vote.ja" : "vote.nein");
    case "discard":
    case "enact": return `${t(`action.${action.type}`)}: ${t(`policy.short.${action.policy}`)}`;
    case "veto": return t("action.veto");
    case "veto_response": return t(action.accept ? "action.veto_accept" : "action.veto_refuse");
    default:
      if (action.target !== undefined) return `${t(`action.${action.type}`)}: ${seatName(ctx, action.target)}`;
      return t(`action.${action.type}`);
  }
}

function bar(kind, p, label) {
  const fill = h("span", { class: "analysis-bar-fill" });
  fill.style.width = pct(p); // a CSSOM property: the CSP forbids style attributes
  return h("div", { class: `analysis-bar bar-${kind}` },
    h("span", { class: "analysis-bar-label", text: label }),
    h("span", { class: "analysis-bar-track", "aria-hidden": "true" }, fill));
}

function moveDetail(move, ctx) {
  if (move.options.some((o) => o.score !== null)) {
    return move.options.map((o) => `${describeAction(o.action, ctx)} ${o.score.toFixed(2)}`).join(" · ");
  }
  return Object.entries(move.facts).map(([k, v]) => t(`analysis.fact.${k}`, { p: pct(v) })).join(" · ");
}

/**
 * The analysis panel. ``analysis`` is the server's answer (or null while loading), ``step`` the
 * replay's current step, ``go(step)`` jumps the replay to a step.
 */
export function renderAnalysis(analysis, step, ctx, go) {
  const parts = [h("h2", { id: "analysis-title", text: t("analysis.title") })];
  if (!analysis) {
    parts.push(h("p", { class: "hint", text: t("app.loading") }));
    return parts;
  }
  const who = analysis.seat === null ? t("replay.view.spectator") : seatName(ctx, analysis.seat);
  parts.push(h("p", { class: "hint", text: t("analysis.by", { who, bot: t(`bot.level.${analysis.bot}`) }) }));
  const point = analysis.steps[Math.min(step, analysis.steps.length - 1)];
  parts.push(h("ul", { class: "analysis-seats" }, point.p_fascist.map((pf, s) => h("li", { class: "analysis-seat" },
    h("span", { class: "seat-name", text: `${s + 1} · ${seatName(ctx, s)}` }),
    bar("fascist", pf, t("analysis.fascist", { p: pct(pf) })),
    bar("hitler", point.p_hitler[s], t("analysis.hitler", { p: pct(point.p_hitler[s]) }))))));
  if (analysis.seat === null) {
    parts.push(h("p", { class: "hint", text: t("analysis.spectator_moves") }));
    return parts;
  }
  const marked = analysis.moves.filter((m) => m.differs);
  parts.push(h("h3", { text: t("analysis.moves", { n: marked.length, total: analysis.moves.length }) }));
  if (!marked.length) {
    parts.push(h("p", { class: "empty", text: t("analysis.no_moves") }));
    return parts;
  }
  parts.push(h("ol", { class: "analysis-moves" }, marked.map((m) => h("li", { class: m.step === step ? "current" : "" },
    h("button", { type: "button", class: "btn btn-link", onclick: () => go(m.step) },
      t("analysis.move", { step: m.step, played: describeAction(m.played, ctx), bot: describeAction(m.bot, ctx) })),
    h("div", { class: "hint", text: moveDetail(m, ctx) })))));
  return parts;
}
