// The table page's state: what the server has said about this table (docs/protocol.md 2.2),
// folded one message at a time. Pure: a message in, a new state out (never changed in place);
// no DOM, no socket, no clock. The page (table.js) also sends it a few messages of its own, named
// apart from the server's: "connection", "disconnected", "sending", "no_answer", "notice_seen",
// "forced_seen", "table_detail", "rejoin", "claim_offer_done".

/** The state before the server has said anything. `standinSeen`: the last action (its index)
 * whose stand-in move this person has already been told of on this device (table.js keeps it). */
export function initialState({ tableId = null, invite = null, standinSeen = -1 } = {}) {
  return {
    tableId,
    invite,
    conn: "connecting", // connecting | reconnecting | open | closed
    seat: null,
    userId: null,
    table: null, // the table detail
    view: null, // the engine view, with every event this seat has seen as `events`
    events: [],
    legal: [],
    deadline: null,
    modelDeadlines: null, // model seats thinking: {seat: when their fallback plays, at the latest}
    seq: null,
    chat: [],
    chatClaim: null, // the claim the server read in this seat's last chat line (ack), to offer
    governments: [], // every government, claims judged, as the server sends them (engine/history.py)
    silenced: null, // why this seat may not chat now (the server's word), null: it may
    record: null,
    pending: false, // an action of this seat is on its way: the buttons wait
    pendingId: null,
    notices: [], // this seat's peek and investigation results, until dismissed
    forced: [], // the moves a stand-in made for this seat: [{by, i, move}] (see standinMove)
    standinSeen, // the index of the last action in `forced` when it was last dismissed
  };
}

/** The state after `msg`; the same object when `msg` changes nothing. */
export function reduce(state, msg) {
  const fold = FOLD[msg.type];
  return fold ? fold(state, msg) : state;
}

const FOLD = {
  welcome(s, msg) {
    const events = (msg.view && msg.view.events) || [];
    const seat = msg.seat === undefined ? null : msg.seat;
    return {
      ...s,
      conn: "open",
      seat,
      userId: msg.user_id || s.userId,
      table: msg.table || s.table,
      seq: msg.seq !== undefined ? msg.seq : s.seq,
      events,
      view: msg.view ? { ...msg.view, events } : null,
      legal: msg.legal || [],
      deadline: msg.deadline || null,
      modelDeadlines: msg.model_deadlines || null,
      chat: Array.isArray(msg.chat) ? msg.chat.slice() : s.chat,
      governments: foldGovernments([], msg.governments),
      silenced: msg.silenced || null,
      pending: false,
      forced: mergeForced(s, awayMoves(events, msg.away, seat, msg.view)),
    };
  },
  resumed(s, msg) {
    return { ...s, conn: "open", table: msg.table || s.table, pending: false };
  },
  update(s, msg) {
    // an update already folded in (a resume may send it again) changes nothing
    if (typeof msg.seq === "number" && typeof s.seq === "number" && msg.seq <= s.seq && s.view) return s;
    const fresh = markStandin(msg);
    const events = Array.isArray(msg.events) ? s.events.concat(fresh) : s.events;
    const mine = Boolean(msg.by && msg.action && msg.action.seat === s.seat && s.seat !== null);
    const move = mine ? { by: msg.by, i: msg.seq - 2, move: standinMove(msg, s.events) } : null;
    return {
      ...s,
      seq: msg.seq !== undefined ? msg.seq : s.seq,
      events,
      view: msg.view ? { ...msg.view, events: msg.view.events || events } : s.view,
      legal: msg.legal || s.legal,
      deadline: msg.deadline === undefined ? s.deadline : msg.deadline,
      modelDeadlines: msg.model_deadlines || null, // (none in an update: no model is thinking)
      table: msg.table || s.table,
      governments: foldGovernments(s.governments, msg.governments),
      silenced: msg.silenced === undefined ? s.silenced : msg.silenced,
      pending: false,
      // the update of this page's own action carries its ack (hello's `acks: "update"`)
      pendingId: msg.ack !== undefined && msg.ack === s.pendingId ? null : s.pendingId,
      notices: s.notices.concat(noticesFrom(fresh)),
      forced: move ? mergeForced(s, [move]) : s.forced,
    };
  },
  table(s, msg) {
    return msg.table ? { ...s, table: msg.table } : s;
  },
  chat(s, msg) {
    return msg.message ? { ...s, chat: s.chat.concat(msg.message) } : s;
  },
  game_over(s, msg) {
    return { ...s, record: msg.record || null, view: msg.view || s.view };
  },
  ack(s, msg) {
    // a chat line's ack names the claim the server read in it (talk.js offeredClaim)
    if (msg.claim) return { ...s, chatClaim: msg.claim };
    return msg.id === s.pendingId ? { ...s, pendingId: null } : s;
  },
  error(s) {
    return { ...s, pending: false };
  },
  // ---- the page's own messages
  /** The socket's state: {conn: "connecting" | "reconnecting" | "closed"}. */
  connection(s, msg) {
    return { ...s, conn: msg.conn };
  },
  /** The socket is gone: no answer will come to what was sent on it. */
  disconnected(s) {
    return { ...s, pending: false };
  },
  /** An action went out as message `id`: the buttons wait for its update. */
  sending(s, msg) {
    return { ...s, pending: true, pendingId: msg.id };
  },
  /** Message `id` got no answer in time: never stay locked. */
  no_answer(s, msg) {
    return s.pendingId === msg.id && s.pending ? { ...s, pending: false } : s;
  },
  notice_seen(s, msg) {
    return { ...s, notices: s.notices.filter((_, i) => i !== msg.index) };
  },
  forced_seen(s) {
    const seen = s.forced.reduce((last, f) => Math.max(last, f.i), s.standinSeen);
    return { ...s, forced: [], standinSeen: seen };
  },
  /** The table detail from an HTTP answer (joining, a bot added, the host's tools). */
  table_detail(s, msg) {
    return { ...s, table: msg.table };
  },
  /** The claim offered from the chat was made or turned down: offer it no more. */
  claim_offer_done(s) {
    return s.chatClaim ? { ...s, chatClaim: null } : s;
  },
  /** This seat changed (joined, left): start again from a fresh welcome, not a resume. */
  rejoin(s) {
    return { ...s, seq: null };
  },
};

/** `rows` (the governments held) with a message's `governments` ({from, rows}: those from
 * index `from` on, as the server judged them) in place of the ones from there on; `rows` itself
 * when the message has none. */
export function foldGovernments(rows, sent) {
  if (!sent || !Array.isArray(sent.rows) || !Number.isInteger(sent.from) || sent.from < 0) return rows;
  return rows.slice(0, sent.from).concat(sent.rows);
}

/** The first message on a (re)opened socket: resume from the last update and chat line seen;
 * the ack of an action comes in the update it caused (`acks: "update"`, docs/protocol.md 2.1). */
export function hello(state) {
  const lastChat = state.chat.length ? state.chat[state.chat.length - 1].id : null;
  const msg = { v: 1, type: "hello", since: state.view ? state.seq : null, acks: "update" };
  if (state.view && typeof lastChat === "number") msg.chat_since = lastChat;
  return msg;
}

/** An update's events, the first one marked when a stand-in made the move (`by`: "timer",
 * "absent"): `standin: {by, i, action}` (`i`: the action's index, `seq` - 2), as a welcome marks
 * each such move in the log it carries (docs/protocol.md). */
export function markStandin(msg) {
  const events = msg.events || [];
  if (!msg.by || !msg.action || !events.length) return events;
  return [{ ...events[0], standin: { by: msg.by, i: msg.seq - 2, action: msg.action } }, ...events.slice(1)];
}

/** The moves a stand-in made for `seat` while its person was away, from a welcome: its log's
 * marked events whose action is among `away` (the welcome's indices of this seat's stand-in
 * moves since its person's own last move), each read as an update of that move would be. */
export function awayMoves(events, away, seat, view) {
  if (!Array.isArray(away) || !away.length || seat === null) return [];
  const out = [];
  events.forEach((e, k) => {
    const mark = e.standin;
    if (mark && mark.action.seat === seat && away.includes(mark.i)) {
      out.push({ by: mark.by, i: mark.i, move: standinMove({ action: mark.action, events: events.slice(k), view }, events.slice(0, k)) });
    }
  });
  return out;
}

/** `s.forced` and `moves`, each action once, none this person was already told of. */
function mergeForced(s, moves) {
  const known = new Set(s.forced.map((f) => f.i));
  const fresh = moves.filter((f) => f.i > s.standinSeen && !known.has(f.i));
  return fresh.length ? s.forced.concat(fresh) : s.forced;
}

/** The private results to show this seat until dismissed: its peek and its investigation. */
export function noticesFrom(events) {
  const out = [];
  for (const e of events) {
    if (e.type === "peek") out.push({ kind: "peek", policies: e.policies });
    if (e.type === "investigation") out.push({ kind: "investigation", target: e.target, party: e.party });
  }
  return out;
}

/** The move a stand-in made for this seat, from the update's public `action` and the events and
 * view this seat got with it (its own discard, its own vote), and `earlier`, this seat's log
 * before it (the government a vote was on): {type, target?, ja?, government?, policy?,
 * accepted?}; a part it cannot tell is null, a move of no known type is {type: "other"}. */
export function standinMove(msg, earlier = []) {
  const a = msg.action;
  const find = (type) => (msg.events || []).find((e) => e.type === type);
  switch (a.type) {
    case "nominate": case "investigate": case "special_election": case "execute":
      return { type: a.type, target: a.target };
    case "vote": {
      const reveal = find("votes");
      const ja = reveal ? reveal.votes[a.seat] : msg.view && msg.view.own_vote;
      return { type: "vote", ja: typeof ja === "boolean" ? ja : null, government: nominationBefore(earlier) };
    }
    case "discard": {
      const e = find("passed") || find("chancellor_discarded");
      return { type: "discard", policy: (e && (e.discarded || e.policy)) || null };
    }
    case "enact": {
      const e = find("enacted");
      return { type: "enact", policy: e ? e.policy : null };
    }
    case "veto": return { type: "veto" };
    case "veto_response": {
      const e = find("veto");
      return { type: "veto_response", accepted: e ? e.accepted : null };
    }
    default: return { type: "other" };
  }
}

/** The government of the last nomination in `events` ({president, chancellor}), or null. */
function nominationBefore(events) {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.type === "nominated") return { president: e.president, chancellor: e.chancellor };
  }
  return null;
}
