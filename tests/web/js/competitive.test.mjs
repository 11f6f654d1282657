// Competitive play in the page (docs/competitive.md): the browser's device id, and the refusals
// and the AFK vote's texts naming the server's numbers in every language.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readLimits, limitText } from "../../../src/secret_hitler/web/static/js/limits.js";
import { useCatalog } from "../../../src/secret_hitler/web/static/js/i18n.js";
import { ensureDeviceId, errorText } from "../../../src/secret_hitler/web/static/js/api.js";
import { catalog } from "./support.mjs";

const LANGUAGES = ["en", "zh-Hans", "zh-Hant", "ru", "vi"];

test("a browser makes its device id once and keeps it in the sh_device cookie", () => {
  const doc = { cookie: "sh_session=abc" };
  const cookies = [];
  Object.defineProperty(doc, "cookie", { get: () => cookies.join("; ") || "sh_session=abc", set: (v) => cookies.push(v.split(";")[0]) });
  let draws = 0;
  const random = { getRandomValues: (a) => { draws += 1; return a.fill(171); } };
  const id = ensureDeviceId(doc, random);
  assert.match(id, /^[0-9a-f]{32}$/);
  assert.equal(ensureDeviceId(doc, random), id);
  assert.equal(draws, 1);
  assert.equal(ensureDeviceId(undefined, random), null); // (no document: Node, a worker)
});

test("the refusals of a rated seat and the AFK vote name the server's numbers", () => {
  readLimits({ rated_min_games: 7, rated_min_hours: 36, afk_after: 45 });
  const named = {
    "error.code.rated_needs_games": "7", "error.code.rated_account_new": "36",
    "error.code.player_not_absent": "45", "afk.hint": "45", "afk.hint.rated": "45",
  };
  for (const lang of LANGUAGES) {
    useCatalog(lang, catalog(lang));
    for (const [key, number] of Object.entries(named)) {
      const text = limitText(key);
      assert.doesNotMatch(text, /[{}…]/, `${lang} ${key}: ${text}`);
      assert.ok(text.includes(number), `${lang} ${key}: ${text}`);
    }
    for (const code of ["rated_needs_account", "rated_cooldown", "rated_same_address", "rated_same_device", "use_afk_vote", "afk_vote_open", "no_afk_vote", "not_a_player"]) {
      const text = errorText(code);  // its own words, not "unexpected error (code)"
      assert.ok(!text.includes(code) && !/[{}]/.test(text), `${lang} ${code}: ${text}`);
    }
  }
  useCatalog("en", catalog("en"));
  assert.equal(errorText("rated_same_device"), "A rated table takes one player per device, and someone at this table joined from this one.");
});
