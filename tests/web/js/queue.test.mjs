// The lobby's "Play now" panel and rating limits (docs/competitive.md "The queue", "Rating
// limits"): what the panel shows for each state the server answers, a table's limit in words in
// every language, and the form's body with and without a limit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { queueView, ratingLimitText } from "../../../src/secret_hitler/web/static/js/queue.js";
import { readLimits, limitText } from "../../../src/secret_hitler/web/static/js/limits.js";
import { initialState, createBody } from "../../../src/secret_hitler/web/static/js/lobby-state.js";
import { useCatalog, t } from "../../../src/secret_hitler/web/static/js/i18n.js";
import { catalog } from "./support.mjs";

const LANGUAGES = ["en", "zh-Hans", "zh-Hant", "ru", "vi"];
const CHOICE = { players: 7, category: "rated" };
const NOW = 1_000_000; // the server's Unix seconds in these answers
const counts = [{ players: 7, category: "rated", waiting: 12 }, { players: 5, category: "casual", waiting: 3 }];

test("the panel shows the server's state, counting down on the server's clock", () => {
  assert.deepEqual(queueView({ state: "idle", counts, now: NOW, cooldown_until: null }, CHOICE, NOW * 1000),
    { mode: "idle", waiting: 12, cooldown: null });
  const waiting = queueView({ state: "waiting", players: 5, category: "casual", joined_at: NOW - 75, counts, now: NOW }, CHOICE, NOW * 1000);
  assert.deepEqual(waiting, { mode: "waiting", waited: 75, players: 5, category: "casual", waiting: 3 });
  const match = { id: "m1", deadline: NOW + 20, players: 7, in: 7, ready: 3, you_ready: false };
  // the page's clock runs 100 s ahead of the server's, and 4 s passed since the answer: the
  // countdown keeps to the server's clock
  const check = queueView({ state: "check", players: 7, category: "rated", match, counts, now: NOW }, CHOICE, (NOW + 100) * 1000 + 4000, -100_000);
  assert.deepEqual(check, { mode: "check", match: "m1", left: 16, ready: 3, of: 7, youReady: false, waiting: 12 });
  assert.equal(queueView({ state: "seated", table_id: "tX", counts, now: NOW }, CHOICE, NOW * 1000).table, "tX");
  const cooling = queueView({ state: "idle", counts, now: NOW, cooldown_until: NOW + 60 }, CHOICE, NOW * 1000);
  assert.equal(cooling.cooldown, NOW + 60);
  assert.equal(queueView({ state: "idle", counts, now: NOW, cooldown_until: NOW - 1 }, CHOICE, NOW * 1000).cooldown, null);
});

test("a table's rating limit and the panel's texts exist in every language", () => {
  readLimits({ newbie_games: 4, rating_limit_range: [-50, 100] });
  for (const lang of LANGUAGES) {
    useCatalog(lang, catalog(lang));
    assert.equal(ratingLimitText({}), null);
    assert.match(ratingLimitText({ rating_min: 10, rating_max: 30.5 }), /10.*30\.5/);
    assert.match(ratingLimitText({ rating_min: 10 }), /10/);
    assert.match(ratingLimitText({ rating_max: 30 }), /30/);
    assert.match(limitText("error.code.newbie_table"), /4/);
    for (const key of ["queue.title", "queue.join", "queue.check.ready", "queue.check.decline", "lobby.kind.newbie", "error.code.rating_too_low", "error.code.queue_cooldown"]) {
      assert.ok(!t(key).startsWith("⟦"), `${lang}: ${key}`);
    }
    assert.match(t("queue.check.count", { ready: 3, players: 7 }), /3.*7/);
  }
});

test("the form sends a rating limit only when one is typed", () => {
  const form = initialState({}).form;
  const plain = createBody(form);
  assert.ok(!("rating_min" in plain) && !("rating_max" in plain));
  const limited = createBody({ ...form, rating_min: " 12.5 ", rating_max: "" });
  assert.equal(limited.rating_min, 12.5);
  assert.ok(!("rating_max" in limited));
});
