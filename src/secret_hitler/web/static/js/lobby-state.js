// The lobby's state: the create-table form, the public tables and the filters they are shown by,
// the invite's table, the bot levels the server offers. Pure: a message in, a new state out (never
// changed in place); no DOM, no network, no clock. The page (lobby.js) sends it what the server
// answered ("levels", "tables", "tables_failed", "invite", "check") and what the person did
// ("field", "players", "custom", "power", "busy", "filter"); `createBody` is the POST /api/tables
// body the form stands for, and what POST /api/tables/check is asked about it (the table's
// category: the server's and engine's word, never the page's).

/** The custom board's settings start from `base`, the official rules' settings (GET /api/rules,
 * engine.js `settings.official`), the game types' from their defaults (`gameTypes`, the
 * catalog's `settings`); the rest are the form's defaults. */
export function initialForm(base = {}, gameTypes = {}) {
  const deck = base.deck || {};
  const track = base.start_track || {};
  const types = {};
  for (const [name, setting] of Object.entries(gameTypes)) if (!setting.multiple) types[name] = setting.default;
  return {
    players: 5, preset: "official", public: true, bots: 4, level: null, timer: null, on_timeout: "standin", bots_talk: true,
    custom: false, powers: null, hitler_zone: base.hitler_zone, veto_zone: base.veto_zone, fascists: "", hitler_knows: "auto",
    deck_l: deck.liberal, deck_f: deck.fascist, start_l: track.liberal, start_f: track.fascist, name: "", webhook: "",
    rating_min: "", rating_max: "", // a rating limit (docs/competitive.md "Rating limits"): "" for none
    // the table's category (what the host chooses), chat, blind names; the game types
    category: "casual", chat: "free", blind: false, rebalance: false, ...types,
  };
}

export function initialState({ base = {}, gameTypes = {} } = {}) {
  return {
    form: initialForm(base, gameTypes),
    levels: [], // the bot levels offered (GET /api/bots): none until the server answers
    tables: null, // the public tables; null: not loaded yet
    tablesError: null, // why the last refresh failed: {code, message}
    inviteTable: null, // the table of the invite link this lobby was opened with
    busy: false, // a table is being created
    check: null, // the server's word on the form: {category, category_reasons, rated, problem}
    filter: { category: "all", type: "all" }, // which public tables are shown
  };
}

/** The state after `msg`; the same object when `msg` changes nothing. */
export function reduce(state, msg) {
  const fold = FOLD[msg.type];
  return fold ? fold(state, msg) : state;
}

const FOLD = {
  /** GET /api/bots answered: the levels offered, and the server's default chosen. */
  levels(s, msg) {
    const form = s.form.level === null ? { ...s.form, level: msg.default } : s.form;
    return { ...s, levels: msg.levels.slice(), form };
  },
  tables(s, msg) {
    return { ...s, tables: msg.tables.slice(), tablesError: null };
  },
  /** The list could not be refreshed: the last one stays, with why. */
  tables_failed(s, msg) {
    return { ...s, tables: s.tables || [], tablesError: msg.error };
  },
  /** The invite link's table (its code kept for joining and watching). */
  invite(s, msg) {
    return { ...s, inviteTable: { ...msg.table, invite: msg.table.invite || msg.code } };
  },
  /** A field of the form changed: {name, value}. */
  field(s, msg) {
    if (!(msg.name in s.form) || s.form[msg.name] === msg.value) return s;
    return { ...s, form: { ...s.form, [msg.name]: msg.value } };
  },
  /** Another table size: at most one bot fewer than seats, and the board of that size. */
  players(s, msg) {
    const players = Number(msg.players);
    return { ...s, form: { ...s.form, players, bots: Math.min(s.form.bots, players - 1), powers: null } };
  },
  /** The custom settings opened (with `board`, the slots of the official board of this size)
   * or put back to the preset's. */
  custom(s, msg) {
    return { ...s, form: { ...s.form, custom: msg.on, powers: msg.on ? msg.board.slice() : null } };
  },
  /** One slot of the custom board: {slot, power (null: none), board (the slots so far)}. */
  power(s, msg) {
    const powers = (s.form.powers || msg.board).slice();
    powers[msg.slot] = msg.power || null;
    return { ...s, form: { ...s.form, powers } };
  },
  busy(s, msg) {
    return s.busy === msg.busy ? s : { ...s, busy: msg.busy };
  },
  /** The server checked the form (POST /api/tables/check): its answer, for the body `key`. */
  check(s, msg) {
    return { ...s, check: { ...msg.result, key: msg.key } };
  },
  /** A filter of the public tables: {name: "category" | "type", value}. */
  filter(s, msg) {
    if (!(msg.name in s.filter) || s.filter[msg.name] === msg.value) return s;
    return { ...s, filter: { ...s.filter, [msg.name]: msg.value } };
  },
};

/** The public tables the filters let through: `category` and `type` ("standard": no game type;
 * else a game type's setting name), as the server says them (a table's `category` and
 * `game_types`, the settings its rules turn on). */
export function shownTables(state) {
  const { category, type } = state.filter;
  return (state.tables || []).filter((table) => {
    if (category !== "all" && table.category !== category) return false;
    if (type === "all") return true;
    const types = table.game_types || [];
    return type === "standard" ? !types.length : types.includes(type);
  });
}

/** The game types the form turns on, as rule settings: each game-type setting of the catalog
 * (`gameTypes`) the form sets away from its default; rebalancing is for the table's size. */
function gameTypeSettings(form, gameTypes) {
  const out = {};
  for (const [name, setting] of Object.entries(gameTypes)) {
    const value = setting.multiple ? (form.rebalance && setting.values.includes(form.players) ? [form.players] : []) : form[name];
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(setting.default)) out[name] = value;
  }
  return out;
}

/** The `rules` of the table the form stands for: a preset's name, or its settings (the game
 * types the form turns on, the custom settings; `board`: the official board of this size, when
 * no slot was chosen). */
export function rulesValue(form, board = [], gameTypes = {}) {
  const types = gameTypeSettings(form, gameTypes);
  if (!form.custom) return Object.keys(types).length ? { preset: form.preset, ...types } : form.preset;
  const rules = {
    preset: form.preset,
    ...types,
    powers: form.powers || board,
    hitler_zone: Number(form.hitler_zone),
    veto_zone: Number(form.veto_zone),
  };
  if (form.fascists !== "") rules.fascists = Number(form.fascists);
  rules.hitler_knows_fascists = form.hitler_knows === "auto" ? "auto" : form.hitler_knows === "yes";
  rules.deck = { liberal: Number(form.deck_l), fascist: Number(form.deck_f) };
  rules.start_track = { liberal: Number(form.start_l), fascist: Number(form.start_f) };
  return rules;
}

/** The body of POST /api/tables (docs/protocol.md "Lobby") for the form: the creator in seat
 * 0, bots of the chosen level in the next seats, who moves when a timer runs out (only with a
 * timer: a random move needs one), the category, chat and blind names (`lang`:
 * the page's language, the language of a blind table's aliases). A rated table is public and
 * for people only (docs/ratings.md); the server says whether these settings may be rated. */
export function createBody(form, board = [], gameTypes = {}, lang = null) {
  const bots = {};
  for (let s = 1; s <= Math.min(form.bots, form.players - 1); s++) bots[String(s)] = form.level;
  const body = {
    players: Number(form.players), rules: rulesValue(form, board, gameTypes), public: form.public, bots,
    bot_level: form.level, timer: form.timer, category: form.category, chat: form.chat,
  };
  if (form.timer !== null) body.on_timeout = form.on_timeout; // who moves when the timer runs out
  if (form.blind) Object.assign(body, { blind: true, lang });
  if (form.name.trim()) body.name = form.name.trim();
  if (form.webhook.trim()) body.webhook = form.webhook.trim();
  if (!form.bots_talk) body.bots_talk = false; // the bots' table talk (docs/talk.md)
  for (const name of ["rating_min", "rating_max"]) {
    const value = String(form[name] ?? "").trim();
    if (value !== "") body[name] = Number(value); // the server checks it (a number, its range)
  }
  if (form.category === "rated") Object.assign(body, { public: true, bots: {} });
  return body;
}
