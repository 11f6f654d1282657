// The page tells the game's events as the server's narrator does (narrate.js mirrors
// talk/narrate.py): narration.json holds whole logs, the messages Python's narrator tells of each
// event and their texts in the five languages (written by tests/talk/narration_cases.py, and
// checked against the narrator by tests/talk/test_narrate.py), so any difference between the two
// narrators, in a key, a parameter, a part or a word, fails here. Then the log's lines: what they
// look like (icons, kinds, private lines) and what the big screen says aloud.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { useCatalog } from "../../../src/secret_hitler/web/static/js/i18n.js";
import { engine } from "../../../src/secret_hitler/web/static/js/engine.js";
import { createNarrator } from "../../../src/secret_hitler/web/static/js/narrate.js";
import { renderTalk } from "../../../src/secret_hitler/web/static/js/talk.js";
import { describeEvents } from "../../../src/secret_hitler/web/static/js/log.js";
import { spokenLines } from "../../../src/secret_hitler/web/static/js/speech.js";
import { catalog, messages } from "./support.mjs";

const fixture = JSON.parse(readFileSync(new URL("./narration.json", import.meta.url), "utf8"));
const LANGS = ["en", "zh-Hans", "zh-Hant", "ru", "vi"];
const ctx = { view: { names: fixture.names }, table: null };

test("every event of the logs is told with the messages of the server's narrator", () => {
  for (const [name, log] of Object.entries(fixture.logs)) {
    const narrator = createNarrator(fixture.tracks, fixture.settings);
    log.events.forEach((e, i) => {
      assert.deepEqual(narrator.tell(e), log.told[i], `${name} #${i} ${e.type}`);
    });
  }
});

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
  const before = { tracks: engine.tracks, privateEvents: engine.privateEvents };
  engine.tracks = fixture.tracks;
  engine.privateEvents = new Set(messages.rules.private_events);
  try { fn(); } finally { Object.assign(engine, before); }
}

test("the log shows the told lines: rounds, details, private lines and their icons", () => {
  useCatalog("en", catalog("en"));
  withRules(() => {
    const log = fixture.logs["6p"];
    const lines = describeEvents(log.events, ctx);
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

test("the big screen says the main public lines of an update, no detail, no secret", () => {
  useCatalog("en", catalog("en"));
  withRules(() => {
    const events = fixture.logs["6p"].events;
    const said = spokenLines(events, ctx);
    assert.ok(said.some((s) => s.startsWith("The votes are revealed")));
    assert.ok(!said.some((s) => s.startsWith("Ja!:") || s.startsWith("You ") || s.startsWith("Your ")));
    assert.ok(!said.some((s) => /Round \d/.test(s)));
  });
});
