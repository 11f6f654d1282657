// Table talk in the page (talk.js): bots' lines rendered with the talk phrases merged into the
// reader's catalog, in each language, as the server's Python renderer says them (talk_lines.json:
// talk.message and talk.render of the same lines, checked against the Python side by
// tests/server/test_table_talk.py); the claim read in a person's own line offered while it is legal;
// the reducer keeps the claim an ack names.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { useCatalog } from "../../../src/secret_hitler/web/static/js/i18n.js";
import { renderTalk, chatText, offeredClaim, reactionTokens } from "../../../src/secret_hitler/web/static/js/talk.js";
import { initialState, reduce } from "../../../src/secret_hitler/web/static/js/table-state.js";
import { catalog, deepFreeze, STATIC } from "./support.mjs";

const fixture = JSON.parse(readFileSync(new URL("./talk_lines.json", import.meta.url), "utf8"));
const LANGS = ["en", "zh-Hans", "zh-Hant", "ru", "vi"];

function talkCatalog(lang) {
  return JSON.parse(readFileSync(new URL(`../../talk/phrases/${lang}.json`, STATIC), "utf8"));
}

test("a bot's line reads in the reader's language, plurals and seat names included", () => {
  const ctx = { view: { names: fixture.names }, table: null };
  for (const lang of LANGS) {
    useCatalog(lang, { ...talkCatalog(lang), ...catalog(lang) });
    for (const { message, expect } of fixture.lines) {
      const text = renderTalk(message, ctx);
      assert.equal(text, expect[lang], `${lang}: ${message.key}`);
      assert.ok(!text.includes("⟦"), text);
      assert.equal(chatText({ text: "fallback", message }, ctx), text);
    }
  }
  useCatalog("en", catalog("en"));
  assert.equal(chatText({ text: "RRB", seat: 0 }, ctx), "RRB"); // a person's line as written
});

const CLAIM = { type: "claim", seat: 0, subject: "president_hand", policies: ["fascist", "fascist", "liberal"] };

test("the claim an ack names is offered while the engine lists it, and no longer once done", () => {
  const legal = [{ type: "nominate", seat: 0, target: 2 }, { ...CLAIM }, { ...CLAIM, policies: ["liberal", "liberal", "liberal"] }];
  const s0 = deepFreeze({ ...initialState(), legal });
  assert.equal(offeredClaim(s0), null);
  const s1 = deepFreeze(reduce(s0, { type: "ack", id: "chat1", seq: null, claim: { ...CLAIM } }));
  assert.deepEqual(offeredClaim(s1), CLAIM);
  assert.equal(offeredClaim(deepFreeze({ ...s1, legal: legal.slice(0, 1) })), null); // closed: none
  const s2 = reduce(s1, { type: "claim_offer_done" });
  assert.equal(s2.chatClaim, null);
  assert.equal(offeredClaim(s2), null);
  // an ack without a claim (an action's, a plain line's) leaves the offer as it was
  assert.equal(reduce(s1, { type: "ack", id: "chat2", seq: null }).chatClaim, s1.chatClaim);
});

test("an emote-only table's line of reactions reads in the reader's words, seats by name", () => {
  const names = ["sus", "ja", "gg"]; // the server's reactions (GET /api/limits)
  assert.deepEqual(reactionTokens(":sus: 3", names), [{ reaction: "sus" }, { seat: 2 }]);
  for (const text of ["3 4", ":nope: 3", "sus 3", "", "I am liberal"]) assert.equal(reactionTokens(text, names), null, text);
  const ctx = { view: { names: ["Ann", "Bob", "Cid"] }, table: null };
  useCatalog("ru", catalog("ru"));
  assert.equal(chatText({ text: ":sus: 3" }, ctx, names), `${catalog("ru")["reaction.sus"]} · Cid`);
  assert.equal(chatText({ text: ":sus: 3" }, ctx, []), ":sus: 3"); // reactions unknown: as written
  assert.equal(chatText({ text: "hello 3" }, ctx, names), "hello 3");
});
