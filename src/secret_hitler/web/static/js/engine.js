// What the engine says about itself (GET /api/rules): the presets in order, and which event
// types are addressed to some seats only. The client keeps no copy of either.
import { get } from "./api.js";

export const engine = { presets: ["official"], privateEvents: new Set() };

export async function loadEngine() {
  const info = await get("/api/rules");
  engine.presets = Object.keys(info.presets);
  engine.privateEvents = new Set(info.private_events);
}
