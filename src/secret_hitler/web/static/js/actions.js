// The action area: one decision at a time, built only from the `legal` list the server sent.
// Nothing here decides what is legal: an action that is not in `legal` is never offered.
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { t, tn } from "./i18n.js";
import { policyTile, standinMark } from "./board.js";
import { seatName, policyWords } from "./format.js";

const TARGETED = ["nominate", "investigate", "special_election", "execute", "assassinate"];
const ORDER = ["nominate", "vote", "discard", "enact", "veto", "veto_response", "investigate", "special_election", "execute", "assassinate"];
// Choices that end a player's game (or the whole game): the confirm button says so.
const DANGER = ["execute", "assassinate"];

function groupBy(items, key) {
  const out = new Map();
  for (const item of items) {
    const k = key(item);
    if (!out.has(k)) out.set(k, []);
    out.get(k).push(item);
  }
  return out;
}

function lastIndex(events, pred) {
  for (let i = events.length - 1; i >= 0; i--) if (pred(events[i])) return i;
  return -1;
}

/**
 * ctx: {view, legal, mySeat, table, ui, pending, send(action), rerender()}
 * Returns {decision: Element, claims: Element|null}.
 */
export function renderActions(ctx) {
  const { view, legal } = ctx;
  const plays = legal.filter((a) => a.type !== "claim");
  const claims = legal.filter((a) => a.type === "claim");
  const groups = groupBy(plays, (a) => a.type);
  const kinds = ORDER.filter((k) => groups.has(k));
  let decision;
  if (!kinds.length) decision = renderWaiting(ctx);
  else if (kinds[0] === "vote") decision = renderVote(ctx, groups.get("vote"));
  else if (kinds[0] === "discard") decision = renderHand(ctx, "discard", groups);
  else if (kinds[0] === "enact" || kinds[0] === "veto") decision = renderHand(ctx, "enact", groups);
  else if (kinds[0] === "veto_response") decision = renderVetoResponse(ctx, groups.get("veto_response"));
  else if (TARGETED.includes(kinds[0])) decision = renderTargets(ctx, kinds[0], groups.get(kinds[0]));
  else decision = renderWaiting(ctx);
  return { decision, claims: claims.length ? renderClaims(ctx, claims) : null };
}

function prompt(title, hint, extra) {
  return [
    h("h2", { class: "prompt", id: "prompt-title", text: title }),
    hint ? h("p", { class: "hint", text: hint }) : null,
    extra || null,
  ];
}

function renderWaiting(ctx) {
  const { view, mySeat } = ctx;
  const phase = view.phase;
  if (phase === "game_over") return h("div", { class: "decision waiting" });
  const toAct = view.to_act || [];
  const parts = [];
  if (phase === "vote") {
    const mine = mySeat !== null && mySeat !== undefined && view.voted && view.voted[mySeat];
    parts.push(h("h2", { class: "prompt", id: "prompt-title", text: mine ? t("vote.cast") : t("waiting.vote") }));
    parts.push(h("p", { class: "hint", text: tn("prompt.waiting_votes", toAct.length) }));
  } else {
    const who = toAct.length ? seatName(ctx, toAct[0]) : "?";
    parts.push(h("h2", { class: "prompt", id: "prompt-title", text: t(`waiting.${phase}`, { name: who }) }));
    if (phase === "discard" || phase === "enact" || phase === "veto_response") {
      const holding = view.hand && view.hand.length;
      if (holding) parts.push(h("div", { class: "hand", "aria-label": tn("claim.pick_policies", view.hand.length) },
        view.hand.map((p) => h("div", { class: `card card-${p}` }, policyTile(p)))));
    }
  }
  // Who is away and played by a stand-in (or soon will be).
  const seats = (ctx.table && ctx.table.seats) || [];
  for (const s of toAct) {
    const mark = standinMark(seats.find((x) => x.seat === s), seatName(ctx, s), "hint");
    if (mark) parts.push(h("p", {}, mark));
  }
  return h("div", { class: "decision waiting", "aria-labelledby": "prompt-title" }, parts);
}

function actionButton(ctx, label, action, { cls = "", fkey, iconName } = {}) {
  return h("button", {
    type: "button",
    class: `btn ${cls}`.trim(),
    disabled: ctx.pending,
    dataset: { fkey, action: action.type },
    onclick: () => ctx.send(action),
  }, iconName ? icon(iconName) : null, h("span", { text: label }));
}

function renderVote(ctx, actions) {
  const { view } = ctx;
  const ja = actions.find((a) => a.ja === true);
  const nein = actions.find((a) => a.ja === false);
  const title = t("prompt.vote", { president: seatName(ctx, view.candidate), chancellor: seatName(ctx, view.nominee) });
  const warn = view.hitler_zone_active
    ? h("p", { class: "warning" }, icon("warning"), h("span", { text: t("prompt.vote.hitler_zone", { count: view.hitler_zone }) })) : null;
  const hint = view.rules && view.rules.voting === "public_sequential" ? t("vote.public_hint") : t("vote.change_hint");
  return h("div", { class: "decision", "aria-labelledby": "prompt-title" },
    prompt(title, hint, warn),
    h("div", { class: "vote-buttons" },
      ja ? actionButton(ctx, t("vote.ja"), ja, { cls: "btn-ja big", fkey: "vote-ja", iconName: "ja" }) : null,
      nein ? actionButton(ctx, t("vote.nein"), nein, { cls: "btn-nein big", fkey: "vote-nein", iconName: "nein" }) : null));
}

function renderHand(ctx, kind, groups) {
  const { view } = ctx;
  const hand = view.hand || [];
  const main = groups.get(kind) || [];
  const vetoes = groups.get("veto") || [];
  const plainVeto = vetoes.find((a) => a.policy === undefined || a.policy === null);
  let title;
  let hint;
  if (kind === "discard") {
    title = t("prompt.discard");
    hint = t("prompt.discard.hint");
  } else if (view.veto_refused) {
    title = t("prompt.veto_refused");
    hint = t("prompt.enact.hint");
  } else {
    title = t("prompt.enact");
    hint = t("prompt.enact.hint");
  }
  const cards = hand.map((policy, i) => {
    const act = main.find((a) => a.policy === policy);
    const veto = vetoes.find((a) => a.policy === policy);
    const verb = t(kind === "discard" ? "action.discard" : "action.enact");
    return h("div", { class: `card card-${policy}` },
      policyTile(policy),
      act ? h("button", {
        type: "button", class: `btn card-btn ${kind === "discard" ? "btn-discard" : "btn-enact"}`,
        disabled: ctx.pending, dataset: { fkey: `${kind}-${i}`, action: kind },
        "aria-label": `${verb}: ${t(`policy.${policy}`)}`,
        onclick: () => ctx.send(act),
      }, icon(kind === "discard" ? "discard" : "ja"), h("span", { text: verb })) : null,
      veto ? h("button", {
        type: "button", class: "btn card-btn btn-veto", disabled: ctx.pending,
        dataset: { fkey: `veto-${i}`, action: "veto" },
        "aria-label": `${t("action.veto")}: ${t(`policy.${policy}`)}`,
        onclick: () => ctx.send(veto),
      }, icon("veto"), h("span", { text: t("action.veto") })) : null);
  });
  const extra = [];
  if (plainVeto || vetoes.length) {
    extra.push(h("p", { class: "hint", text: t("prompt.veto.hint") }));
    if (plainVeto) extra.push(actionButton(ctx, t("action.veto"), plainVeto, { cls: "btn-veto", fkey: "veto", iconName: "veto" }));
  }
  return h("div", { class: "decision", "aria-labelledby": "prompt-title" },
    prompt(title, hint),
    h("div", { class: "hand" }, cards),
    extra);
}

function renderVetoResponse(ctx, actions) {
  const { view } = ctx;
  const yes = actions.find((a) => a.accept === true);
  const no = actions.find((a) => a.accept === false);
  return h("div", { class: "decision", "aria-labelledby": "prompt-title" },
    prompt(t("prompt.veto_response"), t("prompt.veto.hint")),
    view.hand && view.hand.length ? h("div", { class: "hand" },
      view.hand.map((p) => h("div", { class: `card card-${p}` }, policyTile(p)))) : null,
    h("div", { class: "vote-buttons" },
      yes ? actionButton(ctx, t("action.veto_accept"), yes, { cls: "btn-ja", fkey: "veto-yes", iconName: "ja" }) : null,
      no ? actionButton(ctx, t("action.veto_refuse"), no, { cls: "btn-nein", fkey: "veto-no", iconName: "nein" }) : null));
}

function renderTargets(ctx, kind, actions) {
  const { ui } = ctx;
  const selected = ui.target !== undefined && actions.find((a) => a.target === ui.target) ? ui.target : null;
  const title = t(`prompt.${kind}`);
  const hint = t(`prompt.${kind}.hint`);
  // One tab stop for the group (the selected player, else the first); arrow keys move inside it
  // (table.js), Enter/Space select, Tab goes on to the confirm button.
  const stop = selected !== null ? selected : (actions[0] && actions[0].target);
  const buttons = actions.map((a) => h("button", {
    type: "button",
    class: `btn target${selected === a.target ? " selected" : ""}`,
    "aria-pressed": selected === a.target ? "true" : "false",
    tabindex: a.target === stop ? "0" : "-1",
    disabled: ctx.pending,
    dataset: { fkey: `target-${a.target}`, target: a.target },
    onclick: () => { ui.target = a.target; ctx.rerender(); },
  }, h("span", { class: "seat-num", text: String(a.target + 1) }), h("span", { class: "target-name", title: seatName(ctx, a.target), text: seatName(ctx, a.target) })));
  const chosen = selected !== null ? actions.find((a) => a.target === selected) : null;
  const confirm = h("button", {
    type: "button",
    class: `btn btn-primary confirm${DANGER.includes(kind) ? " btn-danger" : ""}`,
    disabled: ctx.pending || !chosen,
    dataset: { fkey: "confirm", action: kind },
    onclick: () => { if (chosen) { ui.target = undefined; ctx.send(chosen); } },
  }, icon(kind === "nominate" ? "chancellor" : kind), h("span", {
    text: chosen ? `${t(`action.${kind}`)}: ${seatName(ctx, chosen.target)}` : t(`action.${kind}`),
  }));
  return h("div", { class: "decision", "aria-labelledby": "prompt-title" },
    prompt(title, hint),
    h("div", { class: "targets", role: "group", "aria-labelledby": "prompt-title" }, buttons),
    confirm);
}

// ---------------------------------------------------------------- claims

function truthFor(ctx, subject, options) {
  const events = ctx.view.events || [];
  const find = (type) => { const i = lastIndex(events, (e) => e.type === type); return i >= 0 ? events[i] : null; };
  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  const sameCount = (a, b) => a.filter((x) => x === "liberal").length === b.filter((x) => x === "liberal").length;
  if (subject === "president_hand") {
    const e = find("drew");
    return e ? options.find((o) => sameCount(o.policies, e.policies)) : null;
  }
  if (subject === "chancellor_hand") {
    const e = find("received");
    return e ? options.find((o) => sameCount(o.policies, e.policies)) : null;
  }
  if (subject === "peek") {
    const e = find("peek");
    return e ? options.find((o) => same(o.policies, e.policies)) : null;
  }
  if (subject === "investigation") {
    const e = events.filter((x) => x.type === "investigation");
    return options.find((o) => e.some((x) => x.target === o.target && x.party === o.party)) || null;
  }
  return null;
}

function renderClaims(ctx, claims) {
  const { ui } = ctx;
  const bySubject = groupBy(claims, (a) => a.subject);
  const blocks = [];
  for (const [subject, options] of bySubject) {
    const open = ui.claim === subject;
    const panelId = `claim-${subject}`;
    const toggle = h("button", {
      type: "button", class: "btn btn-secondary claim-toggle",
      "aria-expanded": open ? "true" : "false", "aria-controls": panelId,
      disabled: ctx.pending,
      dataset: { fkey: `claim-${subject}` },
      onclick: () => { ui.claim = open ? undefined : subject; ctx.rerender(); },
    }, icon("chat"), h("span", { text: t(`claim.${subject}`) }));
    const block = [toggle];
    if (open) {
      const truth = truthFor(ctx, subject, options);
      const buttons = options.map((o, i) => {
        const label = o.subject === "investigation"
          ? t("claim.investigation_option", { name: seatName(ctx, o.target), party: t(`claim.party.${o.party}`) })
          : policyWords(o.policies);
        const content = o.subject === "investigation"
          ? [icon(o.party), h("span", { text: label })]
          : o.policies.map((p) => policyTile(p, { small: true }));
        return h("button", {
          type: "button", class: "btn claim-option", disabled: ctx.pending,
          "aria-label": `${t("claim.submit")}: ${label}`,
          dataset: { fkey: `claim-${subject}-${i}`, action: "claim" },
          onclick: () => { ui.claim = undefined; ctx.send(o); },
        }, content);
      });
      block.push(h("div", { class: "claim-panel", id: panelId },
        h("p", { class: "hint", text: subject === "investigation" ? t("claim.pick_party") : tn("claim.pick_policies", options[0].policies.length) }),
        truth ? h("button", {
          type: "button", class: "btn btn-primary claim-truth", disabled: ctx.pending,
          dataset: { fkey: `claim-${subject}-truth`, action: "claim" },
          onclick: () => { ui.claim = undefined; ctx.send(truth); },
        }, icon("ja"), h("span", { text: t("claim.fill_truth") })) : null,
        h("div", { class: "claim-options" }, buttons)));
    }
    blocks.push(h("div", { class: "claim-block" }, block));
  }
  return h("section", { class: "claims", "aria-labelledby": "claims-title" },
    h("h3", { id: "claims-title", text: t("claim.title") }),
    h("p", { class: "hint", text: t("claim.hint") }),
    blocks);
}
