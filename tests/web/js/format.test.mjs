// Words for names, presets, timers, countdowns and a stand-in's moves (format.js), through the
// client's real catalogs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useCatalog } from "../../../src/secret_hitler/web/static/js/i18n.js";
import { displayName, seatName, presetName, policyWords, timerLabel, secondsTo, standinText, moveText } from "../../../src/secret_hitler/web/static/js/format.js";
import { catalog, messages } from "./support.mjs";

const en = () => useCatalog("en", catalog("en"));

test("bot seats are named in the page's language; people keep their names", () => {
  useCatalog("ru", catalog("ru"));
  assert.equal(displayName("Bot 3"), "Бот 3");
  assert.equal(displayName("Bot 3x"), "Bot 3x");
  assert.equal(displayName("Ada"), "Ada");
  en();
  assert.equal(displayName("Bot 10"), "Bot 10");
});

test("a seat's name: the game's, else the table's, else its number", () => {
  en();
  const view = messages.final.view;
  assert.equal(seatName({ view }, 0), view.names[0]);
  const table = { seats: [{ seat: 0, kind: "human", name: "Ada" }, { seat: 1, kind: "bot", name: null }, { seat: 2, kind: "empty" }] };
  assert.equal(seatName({ view: null, table }, 0), "Ada");
  assert.equal(seatName({ view: null, table }, 1), "Bot 2");
  assert.equal(seatName({ view: null, table }, 2), "Seat 3");
  assert.equal(seatName({ view }, null), "?");
});

test("rules by preset name, marked when changed", () => {
  en();
  assert.equal(presetName(null), "Official");
  assert.equal(presetName("forum"), catalog("en")["preset.forum.name"]);
  assert.equal(presetName({ preset: "official" }), "Official");
  assert.equal(presetName({ preset: "official", hitler_zone: 4 }), "Official (Custom)");
  assert.equal(policyWords(["fascist", "liberal"]), `${catalog("en")["policy.short.fascist"]}, ${catalog("en")["policy.short.liberal"]}`);
});

test("a decision timer in its largest whole unit", () => {
  en();
  assert.equal(timerLabel(null), "Off");
  assert.equal(timerLabel(90), "90 seconds");
  assert.equal(timerLabel(4 * 3600), "4 h");
  assert.equal(timerLabel(7 * 86400), "7 d");
});

test("countdowns: whole seconds to a Unix time; a stand-in's mark counts down, then plays", () => {
  en();
  const now = 1_000_000_000_000; // ms
  assert.equal(secondsTo(now / 1000 + 41.6, now), 42);
  assert.equal(secondsTo(now / 1000 - 3, now), -3);
  assert.equal(standinText("Cid", now / 1000 + 42, now), "Cid is away: a bot plays for them in 42 s");
  assert.equal(standinText("Cid", now / 1000, now), "A bot is playing for Cid");
});

test("a stand-in's moves in words", () => {
  en();
  const ctx = { view: { names: ["Ada", "Ben", "Cid"] } };
  assert.equal(moveText({ type: "nominate", target: 2 }, ctx), "Chancellor nominee: Cid");
  assert.equal(moveText({ type: "vote", ja: true }, ctx), "Vote: Ja!");
  assert.equal(moveText({ type: "vote", ja: null }, ctx), "Voted");
  assert.equal(moveText({ type: "discard", policy: "fascist" }, ctx), "Discarded: Fascist policy");
  assert.equal(moveText({ type: "enact", policy: null }, ctx), "A move was made");
  assert.equal(moveText({ type: "veto_response", accepted: false }, ctx), "Veto refused");
  assert.equal(moveText({ type: "execute", target: 1 }, ctx), "Executed: Ben");
  assert.equal(moveText({ type: "other" }, ctx), "A move was made");
});
