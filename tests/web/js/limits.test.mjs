// The lengths of what people type, as the server says them (limits.js, GET /api/limits): kept
// only when they are lengths, and named by the catalogs' texts in every language.
import { test } from "node:test";
import assert from "node:assert/strict";
import { limits, readLimits, limitText } from "../../../src/secret_hitler/web/static/js/limits.js";
import { useCatalog } from "../../../src/secret_hitler/web/static/js/i18n.js";
import { errorText } from "../../../src/secret_hitler/web/static/js/api.js";
import { catalog } from "./support.mjs";

const LANGUAGES = ["en", "zh-Hans", "zh-Hant", "ru", "vi"];
const NAMED = ["error.code.invalid_name", "error.code.invalid_table_name", "error.code.invalid_username",
  "error.code.invalid_webhook", "error.code.invalid_password", "account.password.hint"];

test("before the server answers a text names no number; then the server's, in every language", () => {
  useCatalog("en", catalog("en"));
  assert.equal(limitText("account.password.hint"), "At least … characters.");
  readLimits({ chat_max: 120, name_max: 30, password_min: 10, password_max: 200, webhook_max: 400, report_max: 700 });
  for (const lang of LANGUAGES) {
    useCatalog(lang, catalog(lang));
    for (const key of NAMED) {
      const text = limitText(key);
      assert.doesNotMatch(text, /[{}…]/, `${lang} ${key}: ${text}`);
      assert.match(text, /30|400|10|200/, `${lang} ${key}: the server's number`);
      assert.doesNotMatch(text, /\b(24|512|256|8)\b/, `${lang} ${key}: no number of its own`);
    }
  }
  useCatalog("en", catalog("en"));
  assert.equal(errorText("invalid_password"), "The password must have 10 to 200 characters.");
  assert.equal(limitText("account.password.hint"), "At least 10 characters.");
});

test("only positive whole numbers are taken; the rest stays as it was", () => {
  readLimits({ chat_max: 300 });
  readLimits({ chat_max: -1, name_max: "24", password_min: 2.5, webhook_max: null, report_max: 0, other: 7 });
  assert.equal(limits.chat_max, 300);
  assert.equal(limits.name_max, 30);
  assert.equal(limits.password_min, 10);
  assert.equal("other" in limits, false);
  readLimits(null);
  assert.equal(limits.chat_max, 300);
});

test("an analysis refused for the game's roles says so in each language", () => {
  for (const lang of LANGUAGES) {
    useCatalog(lang, catalog(lang));
    const text = errorText("unsupported_roles");
    assert.ok(!text.includes("unsupported_roles") && !/[{}]/.test(text), `${lang}: ${text}`);
  }
  useCatalog("en", catalog("en"));
});
