// The lobby's state (lobby-state.js): the create-table form and the body it sends, the tables,
// the invite's table and the bot levels, folded one message at a time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { initialState, reduce, createBody, rulesValue, shownTables } from "../../../src/secret_hitler/web/static/js/lobby-state.js";
import { messages, deepFreeze } from "./support.mjs";

const official = messages.rules.presets.official; // the engine's official settings (GET /api/rules)
const board5 = messages.rules.tables.official["5"].board;
const gameTypes = messages.rules.settings; // the game types' settings (GET /api/rules)
const start = () => deepFreeze(initialState({ base: official, gameTypes }));

/** Fold `msgs` into `state`, each state frozen (a reducer that changed its input would throw). */
const fold = (state, msgs) => msgs.reduce((s, m) => deepFreeze(reduce(s, deepFreeze(m))), state);

test("the custom settings start from the engine's official rules", () => {
  const { form } = start();
  assert.equal(form.hitler_zone, official.hitler_zone);
  assert.equal(form.veto_zone, official.veto_zone);
  assert.deepEqual([form.deck_l, form.deck_f], [official.deck.liberal, official.deck.fascist]);
  assert.deepEqual([form.start_l, form.start_f], [official.start_track.liberal, official.start_track.fascist]);
  assert.equal(form.custom, false);
  assert.equal(form.level, null); // none until the server says its levels
});

test("the server's levels: the menu, and its default chosen unless one was", () => {
  const s = fold(start(), [{ type: "levels", levels: ["random", "rule", "bayes"], default: "bayes" }]);
  assert.deepEqual(s.levels, ["random", "rule", "bayes"]);
  assert.equal(s.form.level, "bayes");
  const chosen = fold(start(), [{ type: "field", name: "level", value: "rule" }, { type: "levels", levels: ["rule", "bayes"], default: "bayes" }]);
  assert.equal(chosen.form.level, "rule");
});

test("a table with bots in the seats after the creator's, of the chosen level", () => {
  const s = fold(start(), [
    { type: "levels", levels: ["rule", "bayes"], default: "bayes" },
    { type: "players", players: 7 },
    { type: "field", name: "bots", value: 3 },
    { type: "field", name: "timer", value: 60 },
    { type: "field", name: "name", value: "  Friday game " },
    { type: "field", name: "public", value: false },
  ]);
  assert.deepEqual(createBody(s.form, board5, gameTypes, "ru"), {
    players: 7, rules: "official", public: false, bots: { 1: "bayes", 2: "bayes", 3: "bayes" },
    bot_level: "bayes", timer: 60, on_timeout: "standin", name: "Friday game", category: "casual", chat: "free",
  });
});

test("who moves when the timer runs out: the stand-in unless chosen, and asked only with a timer", () => {
  assert.equal("on_timeout" in createBody(start().form), false); // no timer: nothing to say
  const timed = fold(start(), [{ type: "field", name: "timer", value: 120 }, { type: "field", name: "on_timeout", value: "random" }]);
  assert.equal(createBody(timed.form).on_timeout, "random");
  // the timer turned off again: a random move without a timer is never asked for
  const off = fold(timed, [{ type: "field", name: "timer", value: null }]);
  assert.equal("on_timeout" in createBody(off.form), false);
});

test("fewer seats never keep more bots than seats after the creator's", () => {
  const s = fold(start(), [{ type: "players", players: 10 }, { type: "field", name: "bots", value: 9 }, { type: "players", players: 5 }]);
  assert.equal(s.form.bots, 4);
  assert.equal(Object.keys(createBody(s.form).bots).length, 4);
});

test("a rated table: people only and public, whatever the form says; its rules the form's", () => {
  const s = fold(start(), [
    { type: "field", name: "public", value: false },
    { type: "field", name: "category", value: "rated" },
  ]);
  const body = createBody(s.form, board5, gameTypes);
  assert.equal(body.category, "rated");
  assert.equal(body.rules, "official");
  assert.equal(body.public, true);
  assert.deepEqual(body.bots, {});
});

test("the game types: the settings away from the catalog's defaults, rebalancing for this size", () => {
  assert.equal(start().form.avalon, gameTypes.avalon.default);
  const s = fold(start(), [
    { type: "players", players: 7 },
    { type: "field", name: "avalon", value: "percival" },
    { type: "field", name: "monarchist", value: true },
    { type: "field", name: "rebalance", value: true },
    { type: "field", name: "chat", value: "emotes" },
    { type: "field", name: "blind", value: true },
  ]);
  const body = createBody(s.form, board5, gameTypes, "vi");
  assert.deepEqual(body.rules, { preset: "official", avalon: "percival", monarchist: true, rebalanced: [7] });
  assert.deepEqual([body.chat, body.blind, body.lang], ["emotes", true, "vi"]);
  // a size the catalog does not rebalance: no rebalancing asked
  const five = fold(s, [{ type: "players", players: 5 }, { type: "field", name: "monarchist", value: false }]);
  assert.deepEqual(rulesValue(five.form, board5, gameTypes), { preset: "official", avalon: "percival" });
  // the custom settings keep the game types
  const custom = fold(five, [{ type: "custom", on: true, board: board5 }]);
  assert.equal(rulesValue(custom.form, board5, gameTypes).avalon, "percival");
});

test("the server's word on the form is kept with the body it was about, the form as the host set it", () => {
  const result = { category: "casual", category_reasons: ["category.reason.avalon"], rated: false, problem: null };
  // an Avalon SH table with bayes bots: every level plays every game type, the level stays
  const before = fold(start(), [
    { type: "levels", levels: ["random", "rule", "bayes", "search"], default: "bayes" },
    { type: "field", name: "avalon", value: "percival" },
  ]);
  const s = fold(before, [{ type: "check", result, key: "k1" }]);
  assert.deepEqual(s.check, { ...result, key: "k1" });
  assert.equal(s.form, before.form); // the same form: nothing changed, nothing asked again
  assert.equal(createBody(s.form, board5, gameTypes, "en").bot_level, "bayes");
});

test("the filters show the tables of a category and of a game type, as the server names them", () => {
  // `game_types`: the settings a table's rules turn on, which the server sends with each table
  const tables = [
    { id: "a", category: "rated", rules: "official", game_types: [] },
    { id: "b", category: "casual", rules: { preset: "secrethitler-io", avalon: "merlin" }, game_types: ["avalon"] },
    { id: "c", category: "casual", rules: { preset: "official", monarchist: true, rebalanced: [] }, game_types: ["monarchist"] },
    { id: "d", category: "custom", rules: { preset: "official", hitler_zone: 4 }, game_types: [] },
  ];
  const s = fold(start(), [{ type: "tables", tables }]);
  const ids = (state) => shownTables(state).map((x) => x.id);
  assert.deepEqual(ids(s), ["a", "b", "c", "d"]);
  assert.deepEqual(ids(fold(s, [{ type: "filter", name: "category", value: "casual" }])), ["b", "c"]);
  assert.deepEqual(ids(fold(s, [{ type: "filter", name: "type", value: "standard" }])), ["a", "d"]);
  assert.deepEqual(ids(fold(s, [{ type: "filter", name: "type", value: "monarchist" }])), ["c"]);
  assert.equal(fold(s, [{ type: "filter", name: "nope", value: 1 }]), s);
});

test("custom rules: the board's slots, zones, team, deck and tracks as numbers", () => {
  const s = fold(start(), [
    { type: "custom", on: true, board: board5 },
    { type: "power", slot: 0, power: "investigate", board: board5 },
    { type: "power", slot: 3, power: "", board: board5 },
    { type: "field", name: "hitler_zone", value: "4" },
    { type: "field", name: "fascists", value: "2" },
    { type: "field", name: "hitler_knows", value: "no" },
    { type: "field", name: "deck_f", value: "12" },
    { type: "field", name: "start_l", value: "1" },
  ]);
  const powers = board5.slice();
  powers[0] = "investigate";
  powers[3] = null;
  assert.deepEqual(rulesValue(s.form, board5), {
    preset: "official", powers, hitler_zone: 4, veto_zone: official.veto_zone, fascists: 2,
    hitler_knows_fascists: false, deck: { liberal: official.deck.liberal, fascist: 12 },
    start_track: { liberal: 1, fascist: official.start_track.fascist },
  });
  // put back: the preset's name, the slots forgotten
  const back = fold(s, [{ type: "custom", on: false }]);
  assert.equal(rulesValue(back.form, board5), "official");
  assert.equal(back.form.powers, null);
  // a new table size forgets the chosen slots (the official board of that size is offered)
  assert.equal(fold(s, [{ type: "players", players: 7 }]).form.powers, null);
});

test("bots' talk is said only when turned off; an empty webhook is left out", () => {
  const quiet = fold(start(), [{ type: "field", name: "bots_talk", value: false }, { type: "field", name: "webhook", value: "   " }]);
  const body = createBody(quiet.form);
  assert.equal(body.bots_talk, false);
  assert.equal("webhook" in body, false);
  assert.equal("bots_talk" in createBody(start().form), false);
});

test("the tables: loaded, a failed refresh keeps the list and says why, then clears", () => {
  const table = messages.opening[0].table;
  const s = fold(start(), [{ type: "tables", tables: [table] }]);
  assert.deepEqual(s.tables, [table]);
  const failed = fold(s, [{ type: "tables_failed", error: { code: "network", message: "down" } }]);
  assert.deepEqual(failed.tables, [table]);
  assert.deepEqual(failed.tablesError, { code: "network", message: "down" });
  assert.deepEqual(fold(start(), [{ type: "tables_failed", error: { code: "network" } }]).tables, []);
  assert.equal(fold(failed, [{ type: "tables", tables: [] }]).tablesError, null);
});

test("the invite's table keeps the link's code; a change that changes nothing is the same state", () => {
  const s = fold(start(), [{ type: "invite", table: { id: "t9", invite: null }, code: "abc" }]);
  assert.equal(s.inviteTable.invite, "abc");
  assert.equal(reduce(s, { type: "field", name: "players", value: s.form.players }), s);
  assert.equal(reduce(s, { type: "field", name: "no_such_field", value: 1 }), s);
  assert.equal(reduce(s, { type: "busy", busy: false }), s);
  assert.equal(reduce(s, { type: "nonsense" }), s);
});
