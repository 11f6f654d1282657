// What the table page's views read from its state (table-facts.js), on a real game's views.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lastVote, ballots, knownOthers, decision, rulesShown, specialRoles } from "../../../src/secret_hitler/web/static/js/table-facts.js";
import { messages } from "./support.mjs";

const final = messages.final.view;

test("the last vote is the game's last reveal, with the nomination it was about", () => {
  const events = final.events;
  const { votes, nominated } = lastVote(events);
  assert.equal(votes, events.filter((e) => e.type === "votes").at(-1));
  const before = events.slice(0, events.indexOf(votes));
  assert.equal(nominated, before.filter((e) => e.type === "nominated").at(-1));
  const { ja, nein } = ballots(votes);
  assert.equal(ja.length, votes.ja);
  assert.equal(nein.length, votes.nein);
  for (const s of ja) assert.equal(votes.votes[s], true);
  assert.equal(lastVote(events.slice(0, events.findIndex((e) => e.type === "votes"))), null);
});

test("a seat knows the roles its view shows: fellow fascists and Hitler", () => {
  // at the end every role is known
  const roles = final.known_roles;
  for (let seat = 0; seat < roles.length; seat++) {
    const { fellows, hitler } = knownOthers(final, seat);
    assert.deepEqual(fellows, roles.map((r, s) => (r === "fascist" && s !== seat ? s : null)).filter((s) => s !== null));
    assert.equal(hitler, roles[seat] === "hitler" ? null : roles.indexOf("hitler"));
  }
  const early = messages.opening.find((m) => m.type === "update").view; // seat 0 after the night
  const known = knownOthers(early, early.seat);
  if (early.role === "liberal") assert.deepEqual(known, { fellows: [], hitler: null, fascists: [] });
});

test("a decision is this seat's when it may act; claims are not one", () => {
  const updates = messages.opening.filter((m) => m.type === "update");
  for (const u of updates) {
    const turn = decision(u.view, u.legal);
    assert.equal(turn.mine, u.legal.some((a) => a.type !== "claim"));
    assert.ok(turn.key.startsWith(`${u.view.round}:${u.view.phase}:`));
  }
  const claimOnly = [{ type: "claim", subject: "president_hand", policies: ["fascist", "fascist", "liberal"] }];
  assert.equal(decision(final, claimOnly).mine, false);
  assert.equal(decision(final, [{ type: "vote", ja: true }]).mine, false); // the game is over
});

test("the rules shown: the table's name of them, else the game's, as its first line told it", () => {
  const named = { key: "preset.forum.name" };
  assert.equal(rulesShown({ rules: "forum", rules_name: named }, final), named);
  const told = { part: "line", key: "log.game_started", params: { count: 7, rules: named } };
  const view = { ...final, events: [{ type: "game_started", told: [told] }] };
  assert.deepEqual(rulesShown(null, view), named);
  assert.deepEqual(rulesShown(null, { events: [] }), { key: "preset.official.name" });
});

test("what a role of secrethitler.io's game types knows: the parties it was shown, Hitler apart", () => {
  // Merlin at seat 2 (a 7-seat game with Percival and the Monarchist): the fascist party by party
  const merlin = { known_roles: [null, null, "merlin", null, null, null, null], known_parties: ["fascist", "fascist", "liberal", null, null, null, "fascist"] };
  assert.deepEqual(knownOthers(merlin, 2), { fellows: [0, 1, 6], hitler: null, fascists: [0, 1, 6] });
  // a Fascist at seat 6 knows Hitler by role and the Monarchist by party
  const fascist = { known_roles: ["hitler", null, null, null, null, null, "fascist"], known_parties: ["fascist", "fascist", null, null, null, null, "fascist"] };
  assert.deepEqual(knownOthers(fascist, 6), { fellows: [1], hitler: 0, fascists: [0, 1] });
  assert.deepEqual(specialRoles({ composition: { hitler: 1, fascist: 2, liberal: 4 } }), []);
  const avalon = { composition: { hitler: 1, morgana: 1, fascist: 1, merlin: 1, percival: 1, liberal: 2 } };
  assert.deepEqual(specialRoles(avalon).map(([role]) => role), ["hitler", "morgana", "fascist", "merlin", "percival", "liberal"]);
});
