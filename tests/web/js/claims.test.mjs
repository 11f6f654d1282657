// The governments of a game and the claim tracker's conflicts (claims.js): which hand claims fit
// is the engine's `claim_fits` (GET /api/rules), never a rule of the client's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { governments, claimConflicts, handsFit } from "../../../src/secret_hitler/web/static/js/claims.js";
import { messages } from "./support.mjs";

const FITS = messages.rules.claim_fits;
const L = "liberal";
const F = "fascist";

test("one government per candidacy, with its vote, result and claims (a whole game's events)", () => {
  const events = messages.final.view.events;
  const rounds = governments(events);
  assert.equal(rounds.length, events.filter((e) => e.type === "candidate").length);
  assert.deepEqual(rounds.map((r) => r.round), events.filter((e) => e.type === "candidate").map((e) => e.round));
  const tallies = events.filter((e) => e.type === "votes");
  assert.deepEqual(rounds.filter((r) => r.passed !== null).map((r) => [r.ja, r.nein, r.passed]), tallies.map((e) => [e.ja, e.nein, e.passed]));
  const enacted = events.filter((e) => e.type === "enacted");
  assert.deepEqual(rounds.filter((r) => r.policy).map((r) => r.policy), enacted.map((e) => e.policy));
  // every claim is filed under an elected government its claimer sat in
  const filed = rounds.flatMap((r) => r.claims.map((c) => [r, c]));
  assert.equal(filed.length, events.filter((e) => e.type === "claim").length);
  for (const [r, c] of filed) assert.ok(r.passed && (c.seat === r.president || c.seat === r.chancellor));
});

const government = (claims, policy = F) => ({ president: 0, chancellor: 1, passed: true, policy, chaos: false, vetoed: false, claims });
const claim = (seat, subject, policies) => ({ type: "claim", seat, subject, policies });

test("two hand claims conflict when the engine says they do not fit", () => {
  const pres = claim(0, "president_hand", [F, F, L]);
  assert.deepEqual(claimConflicts(government([pres, claim(1, "chancellor_hand", [F, F])]), FITS), []);
  const lie = claim(1, "chancellor_hand", [L, L]);
  assert.deepEqual(claimConflicts(government([pres, lie], L), FITS), [pres, lie]);
});

test("the fit follows claim_fits, whatever it says (the client keeps no copy of the rule)", () => {
  assert.equal(handsFit(FITS, [F, F, L], [L, L]), false);
  assert.equal(handsFit({ 1: [2] }, [F, F, L], [L, L]), true);
  assert.equal(handsFit({}, [F, F, L], [F, F]), false);
  for (const [president, chancellors] of Object.entries(FITS)) {
    const hand = [...Array(Number(president)).fill(L), ...Array(3 - Number(president)).fill(F)];
    for (let c = 0; c <= 2; c++) {
      const passed = [...Array(c).fill(L), ...Array(2 - c).fill(F)];
      assert.equal(handsFit(FITS, hand, passed), chancellors.includes(c), `${hand} / ${passed}`);
    }
  }
});

test("a claimed hand without the enacted policy conflicts; chaos and a veto enact nothing of it", () => {
  const pres = claim(0, "president_hand", [F, F, F]);
  const chan = claim(1, "chancellor_hand", [F, F]);
  assert.deepEqual(claimConflicts(government([pres, chan], L), FITS), [pres, chan]);
  assert.deepEqual(claimConflicts({ ...government([pres, chan], L), vetoed: true }, FITS), []);
  assert.deepEqual(claimConflicts({ ...government([pres, chan], L), chaos: true }, FITS), []);
});

test("only the last claim of each office counts", () => {
  const first = claim(0, "president_hand", [L, L, L]);
  const last = claim(0, "president_hand", [F, F, L]);
  const chan = claim(1, "chancellor_hand", [F, F]);
  assert.deepEqual(claimConflicts(government([first, last, chan]), FITS), []);
});
