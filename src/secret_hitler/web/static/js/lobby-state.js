// The lobby's state: the create-table form, the public tables, the invite's table, the bot
// levels the server offers. Pure: a message in, a new state out (never changed in place); no
// DOM, no network, no clock. The page (lobby.js) sends it what the server answered ("levels",
// "tables", "tables_failed", "invite") and what the person did ("field", "players", "custom",
// "power", "busy"); `createBody` is the POST /api/tables body the form stands for.

/** The custom board's settings start from `base`, the official rules' settings (GET /api/rules,
 * engine.js `settings.official`); the rest are the form's defaults. */
export function initialForm(base = {}) {
  const deck = base.deck || {};
  const track = base.start_track || {};
  return {
    players: 5, preset: "official", public: true, bots: 4, level: null, timer: null, rated: false, bots_talk: true,
    custom: false, powers: null, hitler_zone: base.hitler_zone, veto_zone: base.veto_zone, fascists: "", hitler_knows: "auto",
    deck_l: deck.liberal, deck_f: deck.fascist, start_l: track.liberal, start_f: track.fascist, name: "", webhook: "",
  };
}

export function initialState({ base = {} } = {}) {
  return {
    form: initialForm(base),
    levels: [], // the bot levels offered (GET /api/bots): none until the server answers
    tables: null, // the public tables; null: not loaded yet
    tablesError: null, // why the last refresh failed: {code, message}
    inviteTable: null, // the table of the invite link this lobby was opened with
    busy: false, // a table is being created
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
};

/** The `rules` of the table the form stands for: a preset's name, or the custom settings
 * (`board`: the official board of this size, when no slot was chosen). */
export function rulesValue(form, board = []) {
  if (!form.custom) return form.preset;
  const rules = {
    preset: form.preset,
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
 * 0, bots of the chosen level in the next seats. A rated table has official rules, people only
 * and is public (docs/ratings.md). */
export function createBody(form, board = []) {
  const bots = {};
  for (let s = 1; s <= Math.min(form.bots, form.players - 1); s++) bots[String(s)] = form.level;
  const body = {
    players: Number(form.players), rules: rulesValue(form, board), public: form.public, bots,
    bot_level: form.level, timer: form.timer,
  };
  if (form.name.trim()) body.name = form.name.trim();
  if (form.webhook.trim()) body.webhook = form.webhook.trim();
  if (!form.bots_talk) body.bots_talk = false; // the bots' table talk (docs/talk.md)
  if (form.rated) Object.assign(body, { rated: true, rules: "official", public: true, bots: {} });
  return body;
}
