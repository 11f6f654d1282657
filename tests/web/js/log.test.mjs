// The page tells the game's events with the server's narrator's messages (talk/narrate.py): each
// event arrives with its `told` messages (docs/protocol.md 2.2) and the log renders them, deciding
// none. narration.json holds whole logs, the messages Python's narrator tells of each event and
// their texts in the five languages (written by tests/talk/narration_cases.py, and checked against
// the narrator by tests/talk/test_narrate.py), so the page's renderer (talk.js) must read every
// message as the server's renders it. Then the log's lines: what they look like (icons, kinds,
// private lines) and what the big screen says aloud.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { useCatalog, t } from "../../../src/secret_hitler/web/static/js/i18n.js";
import { engine } from "../../../src/secret_hitler/web/static/js/engine.js";
import { renderTalk } from "../../../src/secret_hitler/web/static/js/talk.js";
import { describeEvents } from "../../../src/secret_hitler/web/static/js/log.js";
import { spokenLines } from "../../../src/secret_hitler/web/static/js/speech.js";
import { catalog, messages } from "./support.mjs";

const fixture = JSON.parse(readFileSync(new URL("./narration.json", import.meta.url), "utf8"));
const LANGS = ["en", "zh-Hans", "zh-Hant", "ru", "vi"];
const ctx = { view: { names: fixture.names }, table: null };

/** A log's events as the server sends them: each with what the narrator told of it. */
const sent = (log) => log.events.map((e, i) => ({ ...e, told: log.told[i] }));

test("the told messages read as the server renders them, in every language", () => {
  let lines = 0;
  for (const lang of LANGS) {
    useCatalog(lang, catalog(lang));
    for (const [name, log] of Object.entries(fixture.logs)) {
      if (!log.texts) continue;
      log.told.forEach((told, i) => {
        const texts = told.map((m) => renderTalk(m, ctx));
        assert.deepEqual(texts, log.texts[lang][i], `${lang} ${name} #${i}`);
        for (const text of texts) assert.ok(!text.includes("⟦") && !text.includes("{"), text);
        lines += texts.length;
      });
    }
  }
  assert.ok(lines > 1000, `${lines} lines`); // whole games, not a few events
});

function withRules(fn) {
  const before = { privateEvents: engine.privateEvents };
  engine.privateEvents = new Set(messages.rules.private_events);
  try { fn(); } finally { Object.assign(engine, before); }
}

test("the log shows the told lines: rounds, details, private lines and their icons", () => {
  useCatalog("en", catalog("en"));
  withRules(() => {
    const log = fixture.logs["6p"];
    const lines = describeEvents(sent(log), ctx);
    assert.deepEqual(lines.map((l) => l.text), log.texts.en.flat());
    const kinds = new Set(lines.map((l) => l.kind));
    for (const kind of ["round", "line", "detail", "important", "claim"]) assert.ok(kinds.has(kind), kind);
    for (const line of lines) {
      if (line.kind === "round" || line.kind === "detail") assert.equal(line.icon, undefined, line.text);
      else assert.ok(line.icon, `no icon: ${line.text}`);
    }
    const secret = lines.filter((l) => l.private);
    assert.ok(secret.length > 10 && secret.every((l) => l.icon === "lock"));
    assert.ok(secret.some((l) => l.text.startsWith("Your secret role")));
    const enacted = lines.find((l) => l.text.startsWith("A fascist policy is enacted"));
    assert.equal(enacted.icon, "fascist");
    assert.equal(enacted.kind, "important");
  });
});

test("the log decides no message: an event says what the server told of it, and nothing without it", () => {
  useCatalog("en", catalog("en"));
  withRules(() => {
    const enacted = fixture.logs["6p"].events.find((e) => e.type === "enacted");
    const told = [{ part: "line", key: "log.tracker_reset" }, { part: "detail", key: "log.term_limits_cleared" }];
    const lines = describeEvents([{ ...enacted, told }], ctx);
    assert.deepEqual(lines.map((l) => [l.text, l.kind]),
      [[t("log.tracker_reset"), "line"], [t("log.term_limits_cleared"), "detail"]]);
    assert.deepEqual(describeEvents([enacted], ctx), []); // no `told`: no line of its own
    assert.deepEqual(describeEvents([{ ...enacted, told: [] }], ctx), []);
  });
});

test("the big screen says the main public lines of an update, no detail, no secret", () => {
  useCatalog("en", catalog("en"));
  withRules(() => {
    const events = sent(fixture.logs["6p"]);
    const said = spokenLines(events, ctx);
    assert.ok(said.some((s) => s.startsWith("The votes are revealed")));
    assert.ok(!said.some((s) => s.startsWith("Ja!:") || s.startsWith("You ") || s.startsWith("Your ")));
    assert.ok(!said.some((s) => /Round \d/.test(s)));
  });
});

test("a real server's welcome: every told message of its log is one line, the rules named as sent", () => {
  useCatalog("en", catalog("en"));
  withRules(() => {
    const { view, table } = messages.final; // the end of a real game (capture_messages.py)
    const own = view.events.filter((e) => !e.standin); // (a stand-in's move adds its own line)
    const lines = describeEvents(own, { view, table });
    const told = own.flatMap((e) => e.told);
    assert.ok(told.length > 50);
    assert.deepEqual(lines.map((l) => l.text), told.map((m) => renderTalk(m, { view, table })));
    assert.ok(lines.every((l) => l.text && !l.text.includes("{")), "a message left unfilled");
    assert.ok(lines.some((l) => l.text.startsWith("The game begins with 5 players. Rules: Official.")));
    assert.equal(renderTalk(table.rules_name, {}), "Official");
  });
});
