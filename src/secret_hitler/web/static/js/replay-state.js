// The replay viewer's state: which moment of a finished game is shown (step and point of view),
// what the server said of it (GET /api/games/{id}/replay, docs/protocol.md 6), whether it plays
// on, the analysis panel and the table chat. Pure: a message in, a new state out (never changed
// in place); no DOM, no network, no clock. The page (replay.js) sends it the server's answers
// ("step", "step_failed", "analysis", "chat") and the person's choices ("view_as", "play",
// "stop", "analyse", "loading").

/** The state before the first answer: the moment of the address (`step`, `view`), the analysis
 * panel open or not, the invite code, and the chat a record file carries (null: ask for it). */
export function initialState({ step = 0, view = "spectator", analyse = false, invite = null, chat = null } = {}) {
  return {
    step: Number.isInteger(step) && step >= 0 ? step : 0, // a replay starts at the deal
    steps: null, // the number of actions of the game, once known
    viewAs: view, // "spectator" or a seat number as text
    data: null, // the server's answer for the moment shown
    prevEvents: 0, // the log's length before the last step forward (its new lines stand out)
    playing: false,
    loading: false,
    error: null, // the words of the last failure
    analyse, // the analysis panel is open
    analyses: {}, // view -> the server's analysis, {error}, or null while it is asked
    chat, // the table chat: the record's lines, in time order (null: not known yet)
    invite,
  };
}

/** The state after `msg`; the same object when `msg` changes nothing. */
export function reduce(state, msg) {
  const fold = FOLD[msg.type];
  return fold ? fold(state, msg) : state;
}

const logLength = (data) => (data && data.view && data.view.events ? data.view.events.length : 0);

const FOLD = {
  loading(s, msg) {
    return s.loading === msg.loading ? s : { ...s, loading: msg.loading };
  },
  /** The server's answer for a moment: one step forward keeps the log's old length, so that
   * the new lines stand out; any other jump shows the whole log as it is. */
  step(s, msg) {
    const forwardOne = Boolean(s.data) && msg.data.step === s.data.step + 1;
    return {
      ...s, data: msg.data, step: msg.data.step, steps: msg.data.steps, error: null,
      prevEvents: forwardOne ? logLength(s.data) : logLength(msg.data),
    };
  },
  /** A moment could not be shown (`error`: the words to show): playing stops. */
  step_failed(s, msg) {
    return { ...s, error: msg.error, playing: false };
  },
  view_as(s, msg) {
    return { ...s, viewAs: String(msg.view), playing: false };
  },
  play(s) {
    return s.playing ? s : { ...s, playing: true };
  },
  stop(s) {
    return s.playing ? { ...s, playing: false } : s;
  },
  analyse(s) {
    return { ...s, analyse: !s.analyse };
  },
  /** The analysis of one point of view: `data` (null: asked, not answered yet). */
  analysis(s, msg) {
    return { ...s, analyses: { ...s.analyses, [msg.view]: msg.data } };
  },
  chat(s, msg) {
    return { ...s, chat: Array.isArray(msg.chat) ? msg.chat.slice() : [] };
  },
};

/** The chat as it stood at `step`: the lines said before the deal and after at most `step`
 * actions (a line's `after`), in time order. */
export function chatAt(chat, step) {
  const said = (m) => m.after === null || m.after === undefined || m.after <= step;
  return (chat || []).filter(said).sort((a, b) => (a.ts - b.ts) || (a.id - b.id));
}

/** The round (of the answer's `rounds`: [{round, step}]) that `step` is in, or null. */
export function roundAt(rounds, step) {
  if (!Array.isArray(rounds) || !rounds.length) return null;
  let current = rounds[0];
  for (const r of rounds) if (r.step <= step) current = r;
  return current;
}

/** The query of a moment: its step and point of view, and the invite code of a private game. */
export function momentQuery(state, step = state.step) {
  const q = new URLSearchParams({ step: String(step), view: state.viewAs });
  if (state.invite) q.set("invite", state.invite);
  return q;
}

/** Where the play-through goes next: the next step, or null at the end (it stops). */
export function nextStep(state) {
  return state.steps !== null && state.step >= state.steps ? null : state.step + 1;
}
