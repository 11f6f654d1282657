// Words for names, presets, timers, countdowns and a stand-in's moves (format.js), through the
// client's real catalogs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useCatalog } from "../../../src/secret_hitler/web/static/js/i18n.js";
import { displayName, seatName, presetName, policyWords, timerLabel, secondsTo, standinText, moveText, duration, isModel, levelLabel } from "../../../src/secret_hitler/web/static/js/format.js";
import { t } from "../../../src/secret_hitler/web/static/js/i18n.js";
import { catalog, messages } from "./support.mjs";
import { rulesName } from "../../../src/secret_hitler/web/static/js/talk.js";

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

test("rules by preset name, or by the name the server gave them, marked when changed", () => {
  en();
  assert.equal(presetName(null), "Official");
  assert.equal(presetName("forum"), catalog("en")["preset.forum.name"]);
  assert.equal(rulesName({ rules: { preset: "official" } }), "Official"); // no name sent: the preset's
  // what talk/narrate.py rules_named says of {preset: "official", hitler_zone: 4} and of Avalon SH
  const changed = { key: "preset.changed", params: { name: { key: "preset.official.name" }, custom: { key: "preset.custom.name" } } };
  assert.equal(rulesName({ rules: { preset: "official", hitler_zone: 4 }, rules_name: changed }), "Official (Custom)");
  const avalon = { key: "preset.with_types", params: { name: { key: "preset.secrethitler-io.name" }, types: { list: [{ key: "gametype.avalon.merlin" }] } } };
  assert.equal(rulesName({ rules_name: avalon }), `${catalog("en")["preset.secrethitler-io.name"]}: ${catalog("en")["gametype.avalon.merlin"]}`);
  assert.equal(policyWords(["fascist", "liberal"]), `${catalog("en")["policy.short.fascist"]}, ${catalog("en")["policy.short.liberal"]}`);
});

test("a decision timer in its largest whole unit, written as every other length of time", () => {
  en();
  assert.equal(timerLabel(null), "Off");
  // the lobby's menu (lobby.js TIMERS): one style of unit, never "300 seconds" beside "1 h"
  const menu = [30, 60, 90, 120, 300, 3600, 4 * 3600, 86400, 2 * 86400, 7 * 86400];
  assert.deepEqual(menu.map(timerLabel), ["30 s", "1 min", "90 s", "2 min", "5 min", "1 h", "4 h", "1 d", "2 d", "7 d"]);
  for (const lang of ["en", "zh-Hans", "zh-Hant", "ru", "vi"]) {
    const words = catalog(lang);
    useCatalog(lang, words);
    const units = ["days", "hours", "minutes", "seconds"].map((u) =>
      new RegExp(`^${words[`duration.${u}`].replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace("{n}", "\\d+")}$`));
    for (const seconds of menu) {
      const label = timerLabel(seconds);
      assert.ok(units.some((re) => re.test(label)), `${lang} ${seconds}: ${label}`);
    }
  }
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
  // a vote names the government it was on, as the memory aid does
  const government = { president: 0, chancellor: 2 };
  assert.equal(moveText({ type: "vote", ja: false, government }, ctx), "Vote on Ada → Cid: Nein!");
  assert.equal(moveText({ type: "vote", ja: null, government }, ctx), "Voted on Ada → Cid");
  assert.equal(moveText({ type: "discard", policy: "fascist" }, ctx), "Discarded: Fascist policy");
  assert.equal(moveText({ type: "enact", policy: null }, ctx), "A move was made");
  assert.equal(moveText({ type: "veto_response", accepted: false }, ctx), "Veto refused");
  assert.equal(moveText({ type: "execute", target: 1 }, ctx), "Executed: Ben");
  assert.equal(moveText({ type: "other" }, ctx), "A move was made");
});

test("durations read as days, hours and minutes in every language; under a minute, seconds", () => {
  const seconds = [86398, 172799, 42, 3600, 90060, 59, 60, 0, -5];
  const want = {
    en: ["23 h 59 min", "1 d 23 h 59 min", "42 s", "1 h", "1 d 1 h 1 min", "59 s", "1 min", "0 s", "0 s"],
    ru: ["23 ч 59 мин", "1 д 23 ч 59 мин", "42 с", "1 ч", "1 д 1 ч 1 мин", "59 с", "1 мин", "0 с", "0 с"],
    "zh-Hans": ["23 小时 59 分钟", "1 天 23 小时 59 分钟", "42 秒", "1 小时", "1 天 1 小时 1 分钟", "59 秒", "1 分钟", "0 秒", "0 秒"],
    "zh-Hant": ["23 小時 59 分鐘", "1 天 23 小時 59 分鐘", "42 秒", "1 小時", "1 天 1 小時 1 分鐘", "59 秒", "1 分鐘", "0 秒", "0 秒"],
    vi: ["23 giờ 59 phút", "1 ngày 23 giờ 59 phút", "42 giây", "1 giờ", "1 ngày 1 giờ 1 phút", "59 giây", "1 phút", "0 giây", "0 giây"],
  };
  const left = {
    en: "1 d 23 h 59 min left",
    ru: "Осталось 1 д 23 ч 59 мин",
    "zh-Hans": "剩余 1 天 23 小时 59 分钟",
    "zh-Hant": "剩下 1 天 23 小時 59 分鐘",
    vi: "Còn 1 ngày 23 giờ 59 phút",
  };
  for (const [lang, texts] of Object.entries(want)) {
    useCatalog(lang, catalog(lang));
    assert.deepEqual(seconds.map(duration), texts, lang);
    assert.equal(t("timer.left", { time: duration(172799) }), left[lang], lang);
    // Russian: the abbreviations take no plural ending, so any count reads right
    if (lang === "ru") assert.equal(duration(2 * 86400 + 5 * 3600 + 21 * 60), "2 д 5 ч 21 мин");
  }
  en();
  assert.equal(standinText("Cid", 1_000_000 + 3 * 3600, 1_000_000_000), "Cid is away: a bot plays for them in 3 h");
});

test("a language model's seat is marked as one; other bot seats by their level", () => {
  useCatalog("ru", catalog("ru"));
  assert.equal(isModel("llm:local"), true);
  assert.equal(isModel("rule"), false);
  assert.equal(isModel(null), false);
  assert.equal(levelLabel("llm:local"), "Языковая модель");
  assert.equal(levelLabel("rule"), "Обычный");
  en();
  assert.equal(levelLabel("llm:local"), "Language model");
});
