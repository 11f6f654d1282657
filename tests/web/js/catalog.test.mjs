// The engine's rule facts as the client reads them (catalog.js), from a real GET /api/rules.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readCatalog, playerCounts, boardGroups } from "../../../src/secret_hitler/web/static/js/catalog.js";
import { messages } from "./support.mjs";

const info = messages.rules;

test("the catalog as the pages read it", () => {
  const engine = readCatalog(info);
  assert.deepEqual(engine.presets, Object.keys(info.presets));
  assert.equal(engine.presets[0], info.default);
  assert.deepEqual(engine.tracks, info.tracks);
  assert.ok(engine.privateEvents.has("peek") && !engine.privateEvents.has("votes"));
});

test("the table sizes in order, and the sizes grouped by their board", () => {
  const tables = info.tables.official;
  const counts = playerCounts(tables);
  assert.deepEqual(counts, Object.keys(tables).map(Number).sort((a, b) => a - b));
  const groups = boardGroups(tables);
  assert.deepEqual(groups.flatMap((g) => g.players), counts); // every size once, in order
  for (const g of groups) for (const n of g.players) assert.deepEqual(tables[n].board, g.board);
  for (let i = 1; i < groups.length; i++) assert.notDeepEqual(groups[i].board, groups[i - 1].board);
  // a preset with one board for every size is one group
  assert.equal(boardGroups(info.tables.forum).length, 1);
  assert.deepEqual(boardGroups({}), []);
});
