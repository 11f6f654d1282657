// The catalogs' machinery (i18n.js) without a browser: placeholders, missing keys, and the
// plural form each language's rules pick (Intl.PluralRules), on the client's real catalogs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useCatalog, t, tn, tFirst, list, matchLanguage } from "../../../src/secret_hitler/web/static/js/i18n.js";
import { catalog } from "./support.mjs";

test("placeholders are filled; a missing key or parameter shows itself", () => {
  useCatalog("en", catalog("en"));
  assert.equal(t("seat.number", { seat: 3 }), "Seat 3");
  assert.equal(t("seat.number"), "Seat {seat}");
  assert.equal(t("no.such.key"), "⟦no.such.key⟧");
  assert.equal(tFirst(["no.such.key", "seat.you"]), t("seat.you"));
  assert.equal(tFirst(["no.such.key", "no.other"]), "⟦no.other⟧");
  assert.equal(list(["a", "b"]), "a, b");
});

test("English: one and other", () => {
  useCatalog("en", catalog("en"));
  assert.equal(tn("prompt.waiting_votes", 1), "Waiting for 1 vote");
  assert.equal(tn("prompt.waiting_votes", 2), "Waiting for 2 votes");
  assert.equal(tn("prompt.waiting_votes", 0), "Waiting for 0 votes");
});

test("Russian: one, few and many, by the last digits", () => {
  const ru = catalog("ru");
  useCatalog("ru", ru);
  const form = (name) => ru[`prompt.waiting_votes#${name}`];
  for (const [count, name] of [[1, "one"], [21, "one"], [2, "few"], [4, "few"], [22, "few"], [5, "many"], [11, "many"], [12, "many"], [25, "many"]]) {
    assert.equal(tn("prompt.waiting_votes", count), form(name).replace("{count}", count), `${count}`);
  }
});

test("Chinese and Vietnamese have one form; a language without the form picked uses #other", () => {
  for (const lang of ["zh-Hans", "zh-Hant", "vi"]) {
    const words = catalog(lang);
    useCatalog(lang, words);
    assert.equal(tn("prompt.waiting_votes", 1), words["prompt.waiting_votes#other"].replace("{count}", 1));
  }
  useCatalog("ru", { "x#other": "{count} x" }); // no #one: the other form
  assert.equal(tn("x", 1), "1 x");
});

test("browser language tags map to the client's languages", () => {
  assert.equal(matchLanguage("zh-TW"), "zh-Hant");
  assert.equal(matchLanguage("zh-Hant-HK"), "zh-Hant");
  assert.equal(matchLanguage("zh-CN"), "zh-Hans");
  assert.equal(matchLanguage("ru-RU"), "ru");
  assert.equal(matchLanguage("en-GB"), "en");
  assert.equal(matchLanguage("de"), null);
  assert.equal(matchLanguage(""), null);
});
