// What the engine says about its rules (GET /api/rules, read by catalog.js): the presets in order
// and their settings, each table size's roles and board, the tracks, and which event types are
// addressed to some seats only. The client keeps no copy of any of them: until the server answers
// they are empty. (Which claims conflict comes judged with the governments of a game: the
// table's messages, docs/protocol.md 2.2.)
import { get } from "./api.js";
import { readCatalog } from "./catalog.js";

export const engine = {
  presets: ["official"],
  settings: {}, // preset -> every setting (Rules.describe())
  tables: {}, // preset -> {"5": {liberals, fascists, hitler, board, hitler_knows_fascists}, ...}
  tracks: null, // {liberal: 5, fascist: 6, chaos_at: 3}
  privateEvents: new Set(),
  gameTypes: {}, // the game types' settings: name -> {values, default, multiple, label, value_labels}
  categories: null, // {order, labels, forced, ...}: the categories and what forces each
  roles: {}, // role -> {party, label}: every role's party
};

export async function loadEngine() {
  Object.assign(engine, readCatalog(await get("/api/rules")));
}
