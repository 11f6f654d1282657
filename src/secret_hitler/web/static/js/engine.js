// What the engine says about its rules (GET /api/rules, read by catalog.js): the presets in order
// and their settings, each table size's roles and board, the tracks, which event types are
// addressed to some seats only, and which hand claims fit together. The client keeps no copy of
// any of them: until the server answers they are empty.
import { get } from "./api.js";
import { readCatalog } from "./catalog.js";

export const engine = {
  presets: ["official"],
  settings: {}, // preset -> every setting (Rules.describe())
  tables: {}, // preset -> {"5": {liberals, fascists, hitler, board, hitler_knows_fascists}, ...}
  tracks: null, // {liberal: 5, fascist: 6, chaos_at: 3}
  privateEvents: new Set(),
  claimFits: {}, // the president's claimed liberals -> the chancellor's liberal counts that fit
};

export async function loadEngine() {
  Object.assign(engine, readCatalog(await get("/api/rules")));
}
