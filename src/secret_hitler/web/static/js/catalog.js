// The engine's rule facts as GET /api/rules serves them (engine.catalog, docs/protocol.md), read
// into the shape the pages use. Pure: engine.js fetches, the pages read; nothing here knows a rule.

/** The answer of GET /api/rules, read: see `engine` in engine.js for the fields. */
export function readCatalog(info) {
  return {
    presets: Object.keys(info.presets),
    settings: info.presets,
    tables: info.tables,
    tracks: info.tracks,
    privateEvents: new Set(info.private_events),
    gameTypes: info.settings || {}, // the game types' settings (engine.catalog.game_type_settings)
    roles: info.roles || {}, // role -> {party, label}
    categories: info.categories || null, // {order, labels, forced, ...} (engine/categories.py)
  };
}

/** The table sizes of one preset's tables, smallest first: [5, 6, ...]. */
export function playerCounts(tables) {
  return Object.keys(tables || {}).map(Number).sort((a, b) => a - b);
}

/** The sizes that share a board, in order: [{players: [5, 6], board}, ...]. */
export function boardGroups(tables) {
  const groups = [];
  for (const n of playerCounts(tables)) {
    const board = tables[String(n)].board;
    const last = groups[groups.length - 1];
    if (last && JSON.stringify(last.board) === JSON.stringify(board)) last.players.push(n);
    else groups.push({ players: [n], board });
  }
  return groups;
}
