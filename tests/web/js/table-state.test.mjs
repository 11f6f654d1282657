// The table page's state reducer (table-state.js), fed the real messages of a game.
import { test } from "node:test";
import assert from "node:assert/strict";
import { initialState, reduce, hello, standinMove, noticesFrom, markStandin, foldGovernments } from "../../../src/secret_hitler/web/static/js/table-state.js";
import { messages, deepFreeze, copy } from "./support.mjs";

const start = () => deepFreeze(initialState({ tableId: "t1", invite: null }));
/** Seated, before the first update (the waiting room's welcome). */
const seated = () => deepFreeze(reduce(start(), copy(messages.opening[0])));

/** Fold `msgs` one by one, each input state frozen: returns every state, the first included. */
function fold(state, msgs) {
  const states = [state];
  for (const msg of msgs) states.push(deepFreeze(reduce(states[states.length - 1], deepFreeze(copy(msg)))));
  return states;
}

test("the opening of a game: waiting room, chat, start, updates, a dropped connection resumed", () => {
  const msgs = messages.opening;
  const states = fold(start(), msgs);
  const [welcome] = msgs;
  const waiting = states[1];
  assert.equal(waiting.conn, "open");
  assert.equal(waiting.seat, welcome.seat);
  assert.equal(waiting.userId, welcome.user_id);
  assert.equal(waiting.view, null); // no game yet
  assert.deepEqual(waiting.table, welcome.table);
  let seen = []; // the events of every update so far, in order
  msgs.forEach((msg, i) => {
    const after = states[i + 1];
    if (msg.type === "chat") assert.deepEqual(after.chat.at(-1), msg.message);
    if (msg.type === "table") assert.deepEqual(after.table, msg.table);
    if (msg.type !== "update") return;
    seen = seen.concat(markStandin(msg));
    // docs/protocol.md 2.2: the welcome's events and every later update's are the view's events
    // (the first event of a move a stand-in made marked, as a welcome marks it)
    assert.deepEqual(after.view.events, seen);
    assert.deepEqual(after.events, seen);
    assert.equal(after.seq, msg.seq);
    assert.deepEqual(after.legal, msg.legal);
    assert.equal(after.deadline, msg.deadline);
    assert.equal(after.view.phase, msg.view.phase);
  });
  const resumed = msgs.findIndex((m) => m.type === "resumed");
  assert.ok(resumed > 0, "the opening has a resume");
  assert.equal(states[resumed + 1].conn, "open");
  assert.equal(states.at(-1).chat.length, 1 + welcome.chat.length);
});

test("an update folded in already changes nothing (a resume may send it again)", () => {
  const msgs = messages.opening;
  const states = fold(start(), msgs);
  const last = states.at(-1);
  for (const old of msgs.filter((m) => m.type === "update")) assert.equal(reduce(last, copy(old)), last);
});

test("a welcome in mid-game replaces the state, and older updates are ignored", () => {
  const before = fold(start(), messages.opening).at(-1);
  const w = messages.welcome;
  const state = reduce(before, copy(w));
  assert.equal(state.seq, w.seq);
  assert.deepEqual(state.view.events, w.view.events);
  assert.deepEqual(state.events, w.view.events);
  assert.deepEqual(state.legal, w.legal);
  assert.deepEqual(state.chat, w.chat);
  assert.equal(state.view.phase, w.view.phase);
  const older = messages.opening.filter((m) => m.type === "update").at(-1);
  assert.ok(older.seq <= w.seq);
  assert.equal(reduce(state, copy(older)), state);
});

test("a spectator's welcome: no seat, nothing to do", () => {
  const state = reduce(start(), copy(messages.spectator));
  assert.equal(state.seat, null);
  assert.deepEqual(state.legal, []);
  assert.equal(state.view.role, null);
});

test("a peek stays on screen until dismissed; the other updates add no notice", () => {
  const [, peek, next] = messages.peek;
  const event = peek.events.find((e) => e.type === "peek");
  const states = fold(seated(), [peek, next]);
  assert.deepEqual(states[1].notices, [{ kind: "peek", policies: event.policies }]);
  assert.deepEqual(states[2].notices, states[1].notices);
  assert.deepEqual(reduce(states[2], { type: "notice_seen", index: 0 }).notices, []);
});

test("the notices are this seat's peeks and investigations", () => {
  const events = [
    { type: "peek", policies: ["liberal", "fascist", "fascist"] },
    { type: "investigated", president: 0, target: 2 },
    { type: "investigation", target: 2, party: "fascist" },
  ];
  assert.deepEqual(noticesFrom(events), [
    { kind: "peek", policies: ["liberal", "fascist", "fascist"] },
    { kind: "investigation", target: 2, party: "fascist" },
  ]);
});

test("a move the timer made for this seat is kept until seen; other seats' moves are not", () => {
  const [, forced, after] = messages.forced;
  assert.equal(forced.by, "timer");
  assert.equal(forced.action.seat, messages.opening[0].seat);
  const states = fold(seated(), [forced, after]);
  assert.deepEqual(states[1].forced, [{ by: "timer", i: forced.seq - 2, move: standinMove(forced) }]);
  assert.deepEqual(states[2].forced, states[1].forced);
  const other = { ...copy(forced), action: { ...forced.action, seat: forced.action.seat + 1 }, seq: after.seq + 1 };
  assert.deepEqual(reduce(states[2], other).forced, states[2].forced);
  assert.deepEqual(reduce(states[2], { type: "forced_seen" }).forced, []);
});

test("a person back after closing the tab is told what was played for them, once per device", () => {
  const [, forced] = messages.forced;
  const i = forced.seq - 2; // the action's index
  const live = fold(seated(), [forced]).at(-1);
  // the log marks the move on the update's first event, as a welcome marks it (log.js shows it)
  const first = live.events.length - forced.events.length;
  assert.deepEqual(live.events[first].standin, { by: "timer", i, action: forced.action });
  assert.equal(live.events.filter((e) => e.standin).length, 1);
  // a fresh page: the welcome's log carries the marks, `away` the moves of this seat since its
  // person's own last move
  const welcome = {
    ...copy(messages.opening[0]),
    seq: forced.seq,
    view: { ...copy(live.view), events: copy(live.events) },
    away: [i],
  };
  const back = reduce(start(), deepFreeze(copy(welcome)));
  assert.deepEqual(back.forced, [{ by: "timer", i, move: standinMove(forced) }]);
  assert.deepEqual(reduce(back, deepFreeze(copy(welcome))).forced, back.forced); // not twice
  const seen = reduce(back, { type: "forced_seen" });
  assert.equal(seen.standinSeen, i);
  assert.deepEqual(reduce(seen, deepFreeze(copy(welcome))).forced, []);
  assert.deepEqual(reduce(initialState({ tableId: "t1", standinSeen: i }), deepFreeze(copy(welcome))).forced, []);
  // another seat's welcome: the same marks in its log, nothing played for it
  const other = { ...copy(welcome), seat: welcome.seat + 1, away: [] };
  assert.deepEqual(reduce(start(), deepFreeze(other)).forced, []);
});

test("a stand-in's votes name the government voted on, in an update and in a welcome", () => {
  const [, forced] = messages.forced;
  assert.equal(forced.action.type, "vote");
  const nominated = { type: "nominated", president: 3, chancellor: 4 };
  const before = deepFreeze({ ...seated(), events: [{ type: "nominated", president: 1, chancellor: 2 }, nominated] });
  const live = reduce(before, deepFreeze(copy(forced)));
  assert.deepEqual(live.forced[0].move.government, { president: 3, chancellor: 4 });
  // a fresh page after the person was away: the same government, read from the welcome's log
  const i = forced.seq - 2;
  const events = [...before.events, ...markStandin(forced)];
  const welcome = { ...copy(messages.opening[0]), seq: forced.seq, view: { ...copy(forced.view), events }, away: [i] };
  const back = reduce(start(), deepFreeze(welcome));
  assert.deepEqual(back.forced.map((f) => f.move), live.forced.map((f) => f.move));
});

test("a stand-in's move is read from the public action and this seat's events", () => {
  const forced = messages.forced[1];
  const move = standinMove(forced);
  assert.equal(move.type, forced.action.type);
  if ("target" in forced.action) assert.equal(move.target, forced.action.target);
  if (move.type === "vote") assert.equal(typeof move.ja, "boolean"); // its own vote, or the reveal
  const vote = (events, view, earlier) => standinMove({ action: { seat: 1, type: "vote" }, events, view }, earlier);
  assert.deepEqual(vote([{ type: "votes", votes: [true, false, true] }], null), { type: "vote", ja: false, government: null });
  assert.deepEqual(vote([{ type: "voted", seat: 1 }], { own_vote: true }), { type: "vote", ja: true, government: null });
  assert.deepEqual(vote([], {}), { type: "vote", ja: null, government: null });
  // the government voted on: the last nomination before the vote
  const earlier = [{ type: "nominated", president: 0, chancellor: 2 }, { type: "votes", votes: [false, false, true] },
    { type: "nominated", president: 1, chancellor: 3 }, { type: "voted", seat: 0 }];
  assert.deepEqual(vote([{ type: "voted", seat: 1 }], { own_vote: false }, earlier).government, { president: 1, chancellor: 3 });
  const discard = standinMove({ action: { seat: 0, type: "discard" }, events: [{ type: "passed", discarded: "fascist", policies: [] }] });
  assert.deepEqual(discard, { type: "discard", policy: "fascist" });
  const refused = standinMove({ action: { seat: 0, type: "veto_response" }, events: [{ type: "veto", accepted: false }] });
  assert.deepEqual(refused, { type: "veto_response", accepted: false });
  assert.deepEqual(standinMove({ action: { seat: 0, type: "enact" }, events: [] }), { type: "enact", policy: null });
});

test("an action on its way: the buttons wait until its update, an error or no answer", () => {
  const state = fold(start(), messages.opening).at(-1);
  const [ack] = messages.errors;
  const error = messages.errors.find((m) => m.type === "error");
  const sending = reduce(state, { type: "sending", id: ack.id });
  assert.equal(sending.pending, true);
  assert.equal(sending.pendingId, ack.id);
  assert.equal(reduce(sending, { ...copy(ack), id: "other" }), sending); // not ours
  assert.equal(reduce(sending, copy(ack)).pendingId, null);
  assert.equal(reduce(sending, copy(error)).pending, false);
  assert.equal(reduce(sending, { type: "no_answer", id: "other" }), sending);
  assert.equal(reduce(sending, { type: "no_answer", id: ack.id }).pending, false);
  assert.equal(reduce(sending, { type: "disconnected" }).pending, false);
});

test("the update of the page's own action carries its ack: the action is answered", () => {
  const state = fold(start(), messages.opening).at(-1);
  const sending = reduce(state, { type: "sending", id: "c7" });
  const update = { ...copy(messages.end[1]), seq: state.seq + 1 };
  const answered = reduce(sending, { ...update, ack: "c7" });
  assert.equal(answered.pending, false);
  assert.equal(answered.pendingId, null);
  assert.equal(reduce(sending, { ...update, ack: "c6" }).pendingId, "c7"); // another action's
  assert.equal(reduce(sending, update).pendingId, "c7"); // someone else's move
});

test("the end: the last update, then the record", () => {
  const [, last, over] = messages.end;
  const state = fold(seated(), [last, over]).at(-1);
  assert.equal(state.view.phase, "game_over");
  assert.equal(state.view.winner, over.record.result.winner);
  assert.deepEqual(state.record, over.record);
});

test("hello resumes from the last update and chat line seen, and starts afresh after a seat change", () => {
  const acks = "update"; // the ack of an action comes in its update
  assert.deepEqual(hello(start()), { v: 1, type: "hello", since: null, acks });
  const states = fold(start(), messages.opening);
  assert.deepEqual(hello(states[1]), { v: 1, type: "hello", since: null, acks }); // waiting: nothing to resume
  const last = states.at(-1);
  assert.deepEqual(hello(last), { v: 1, type: "hello", since: last.seq, chat_since: last.chat.at(-1).id, acks });
  assert.equal(hello(reduce(last, { type: "rejoin" })).since, null);
});

test("the page's own messages", () => {
  const state = start();
  assert.equal(reduce(state, { type: "connection", conn: "reconnecting" }).conn, "reconnecting");
  const table = messages.opening[0].table;
  assert.deepEqual(reduce(state, { type: "table_detail", table }).table, table);
  assert.equal(reduce(state, { type: "table" }), state); // a table message without a table
  assert.equal(reduce(state, { type: "pong" }), state);
  assert.equal(reduce(state, { type: "no_such_message" }), state);
});

test("a model seat's wait: an update's model_deadlines are kept until an update without them", () => {
  const opening = fold(start(), messages.opening).at(-1);
  const update = messages.opening.filter((m) => m.type === "update").at(-1);
  const thinking = { ...copy(update), seq: opening.seq + 1, model_deadlines: { 3: 1732900060.5 } };
  const waiting = deepFreeze(reduce(opening, thinking));
  assert.deepEqual(waiting.modelDeadlines, { 3: 1732900060.5 });
  const done = reduce(waiting, { ...copy(update), seq: opening.seq + 2 });
  assert.equal(done.modelDeadlines, null); // the model moved: no wait is shown any more
  const welcome = reduce(opening, { ...copy(messages.welcome), model_deadlines: { 1: 5 } });
  assert.deepEqual(welcome.modelDeadlines, { 1: 5 });
});

test("the governments the server sends: each update's from its first changed one, the rest kept", () => {
  const states = fold(start(), messages.opening);
  messages.opening.forEach((msg, i) => {
    const s = states[i + 1];
    if (msg.type !== "update") return;
    // one government per candidacy of the log, in its rounds (the engine's fold, as sent)
    const candidacies = s.events.filter((e) => e.type === "candidate").map((e) => e.round);
    assert.deepEqual(s.governments.map((g) => g.round), candidacies);
    const { from, rows } = msg.governments;
    assert.deepEqual(s.governments.slice(0, from), states[i].governments.slice(0, from)); // kept
    assert.deepEqual(s.governments.slice(from), rows);
  });
  // a page opened after the end: every government, each claim of the game filed once
  const final = reduce(start(), copy(messages.final));
  assert.deepEqual(final.governments, messages.final.governments.rows);
  const claims = final.events.filter((e) => e.type === "claim").length;
  assert.ok(claims > 0);
  assert.equal(final.governments.flatMap((g) => g.claims).length, claims);
});

test("foldGovernments replaces from `from` on, and ignores what is not a government list", () => {
  const held = deepFreeze([{ round: 1 }, { round: 2 }, { round: 3 }]);
  assert.deepEqual(foldGovernments(held, { from: 1, rows: [{ round: 2, x: 1 }] }), [{ round: 1 }, { round: 2, x: 1 }]);
  assert.deepEqual(foldGovernments(held, { from: 3, rows: [{ round: 4 }] }).length, 4);
  assert.deepEqual(foldGovernments(held, { from: 0, rows: [] }), []);
  for (const bad of [undefined, null, {}, { from: -1, rows: [] }, { from: 1.5, rows: [] }, { from: 0, rows: "x" }]) {
    assert.equal(foldGovernments(held, bad), held);
  }
});

test("who may not chat is the server's word: the spectator's welcome, a seat's updates", () => {
  assert.equal(reduce(start(), copy(messages.spectator)).silenced, "spectator");
  const states = fold(start(), messages.opening);
  assert.equal(states[1].silenced, null); // the waiting room: everyone may talk
  const updates = messages.opening.map((m, i) => [m, states[i + 1]]).filter(([m]) => m.type === "update");
  for (const [msg, s] of updates) assert.equal(s.silenced, msg.silenced);
  const mute = { ...copy(updates.at(-1)[0]), seq: 999, silenced: "legislative_session" };
  assert.equal(reduce(states.at(-1), mute).silenced, "legislative_session");
});
