// The governments of a game and the claims made about them, read from the public events (so the
// same for every seat and the spectator). Pure: history.js draws them. Which claims fit together
// is the engine's word (GET /api/rules `claim_fits`), passed in; nothing here checks a claim's
// truth (A9).

/** Rounds from the public events: [{round, president, chancellor, ja, nein, passed, policy, chaos, vetoed, power, claims}]. */
export function governments(events) {
  const rounds = [];
  let cur = null;
  for (const e of events || []) {
    switch (e.type) {
      case "candidate":
        cur = { round: e.round, president: e.seat, chancellor: null, ja: null, nein: null, passed: null, policy: null, chaos: false, vetoed: false, power: null, claims: [] };
        rounds.push(cur);
        break;
      case "nominated":
        if (cur) cur.chancellor = e.chancellor;
        break;
      case "votes":
        if (cur) Object.assign(cur, { ja: e.ja, nein: e.nein, passed: e.passed });
        break;
      case "enacted":
        if (cur) { cur.policy = e.policy; cur.chaos = Boolean(e.chaos); }
        break;
      case "veto":
        if (cur && e.accepted) cur.vetoed = true;
        break;
      case "investigated": case "special_election": case "executed":
        if (cur) cur.power = { type: e.type === "investigated" ? "investigate" : e.type === "executed" ? "execute" : "special_election", target: e.target };
        break;
      case "claim": {
        // A claim about a hand or a power belongs to the last government the claimer sat in.
        for (let i = rounds.length - 1; i >= 0; i--) {
          const r = rounds[i];
          if (r.passed && (r.president === e.seat || r.chancellor === e.seat)) { r.claims.push(e); break; }
        }
        break;
      }
      default:
        break;
    }
  }
  return rounds;
}

const liberals = (policies) => policies.filter((p) => p === "liberal").length;

/** Whether a chancellor's claimed hand can follow from the president's, by the engine's
 * `claim_fits` (the president's liberals -> the chancellor's liberal counts that fit). */
export function handsFit(claimFits, president, chancellor) {
  const fits = claimFits[String(liberals(president))] || [];
  return fits.includes(liberals(chancellor));
}

/**
 * Claims of one government (`r`, from governments()) that cannot all be true: the two hand claims
 * do not fit (`claimFits`, see handsFit), or a hand claimed without the policy that was enacted.
 * Returns the conflicting claim events (empty: no conflict).
 */
export function claimConflicts(r, claimFits) {
  const last = (subject, seat) => r.claims.filter((c) => c.subject === subject && c.seat === seat).pop();
  const pres = last("president_hand", r.president);
  const chan = last("chancellor_hand", r.chancellor);
  const bad = new Set();
  if (pres && chan && !handsFit(claimFits, pres.policies, chan.policies)) bad.add(pres).add(chan);
  const enacted = r.policy && !r.chaos && !r.vetoed ? r.policy : null;
  for (const c of [pres, chan]) if (c && enacted && !c.policies.includes(enacted)) bad.add(c);
  return [...bad];
}
