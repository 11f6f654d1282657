// The replay viewer's state (replay-state.js): the moment shown and what the server said of it,
// the play-through, the point of view, the analysis and the chat as it stood at each step.
import { test } from "node:test";
import assert from "node:assert/strict";
import { initialState, reduce, chatAt, roundAt, momentQuery, nextStep } from "../../../src/secret_hitler/web/static/js/replay-state.js";
import { messages, deepFreeze } from "./support.mjs";

const fold = (state, msgs) => msgs.reduce((s, m) => deepFreeze(reduce(s, deepFreeze(m))), deepFreeze(state));
const EVENTS = messages.final.view.events; // a whole game's log
/** The server's answer for step `k` of `n`, its log cut to `events` events. */
const answer = (k, n, events) => ({ step: k, steps: n, view: { ...messages.final.view, events: EVENTS.slice(0, events) }, rounds: [] });

test("a replay starts at the deal, as the spectator, unless the address says otherwise", () => {
  assert.deepEqual([initialState().step, initialState().viewAs], [0, "spectator"]);
  const s = initialState({ step: 12, view: "3", analyse: true, invite: "code" });
  assert.deepEqual([s.step, s.viewAs, s.analyse], [12, "3", true]);
  assert.equal(initialState({ step: Number("x") }).step, 0); // a broken address: the deal
  assert.equal(momentQuery(s).toString(), "step=12&view=3&invite=code");
  assert.equal(momentQuery(initialState(), 5).toString(), "step=5&view=spectator");
});

test("one step forward keeps the old log's length (its new lines stand out); a jump does not", () => {
  const s1 = fold(initialState(), [{ type: "step", data: answer(4, 90, 20) }]);
  assert.deepEqual([s1.step, s1.steps, s1.prevEvents], [4, 90, 20]);
  const s2 = fold(s1, [{ type: "step", data: answer(5, 90, 23) }]);
  assert.equal(s2.prevEvents, 20);
  const whole = EVENTS.length; // (the captured game's log: messages.json)
  const s3 = fold(s2, [{ type: "step", data: answer(40, 90, whole) }]);
  assert.equal(s3.prevEvents, whole);
  const back = fold(s3, [{ type: "step", data: answer(39, 90, whole - 3) }]);
  assert.equal(back.prevEvents, whole - 3);
});

test("the play-through stops at the end and on a failure; another point of view stops it", () => {
  let s = fold(initialState(), [{ type: "step", data: answer(89, 90, 110) }, { type: "play" }]);
  assert.equal(s.playing, true);
  assert.equal(nextStep(s), 90);
  s = fold(s, [{ type: "step", data: answer(90, 90, 114) }]);
  assert.equal(nextStep(s), null);
  const failed = fold(s, [{ type: "step_failed", error: "gone" }]);
  assert.deepEqual([failed.playing, failed.error], [false, "gone"]);
  const other = fold(s, [{ type: "view_as", view: 2 }]);
  assert.deepEqual([other.playing, other.viewAs], [false, "2"]);
  assert.equal(fold(other, [{ type: "step", data: answer(3, 90, 9) }]).error, null);
  assert.equal(reduce(other, { type: "stop" }), other);
});

test("each point of view's analysis is kept apart; the panel opens and closes", () => {
  const s = fold(initialState(), [
    { type: "analyse" },
    { type: "analysis", view: "spectator", data: null },
    { type: "analysis", view: "2", data: { error: "too slow" } },
    { type: "analysis", view: "spectator", data: { steps: [] } },
  ]);
  assert.equal(s.analyse, true);
  assert.deepEqual(s.analyses, { spectator: { steps: [] }, 2: { error: "too slow" } });
  assert.equal(fold(s, [{ type: "analyse" }]).analyse, false);
});

test("the chat as it stood: the lines before the deal and those after at most that many actions, in time order", () => {
  const chat = [
    { id: 3, ts: 30, after: 5, text: "after five" },
    { id: 1, ts: 10, after: null, text: "before the deal" },
    { id: 2, ts: 20, after: 0, text: "at the deal" },
    { id: 4, ts: 30, after: 6, text: "after six" },
  ];
  assert.deepEqual(chatAt(chat, 0).map((m) => m.id), [1, 2]);
  assert.deepEqual(chatAt(chat, 5).map((m) => m.id), [1, 2, 3]);
  assert.deepEqual(chatAt(chat, 90).map((m) => m.id), [1, 2, 3, 4]);
  assert.deepEqual(chatAt(null, 3), []);
  const s = fold(initialState(), [{ type: "chat", chat: messages.final.chat }]);
  assert.deepEqual(s.chat, messages.final.chat);
  assert.deepEqual(fold(initialState(), [{ type: "chat", chat: "nonsense" }]).chat, []);
});

test("the round a step is in: the last that began at or before it", () => {
  const rounds = [{ round: 1, step: 0 }, { round: 2, step: 7 }, { round: 3, step: 15 }];
  assert.equal(roundAt(rounds, 0).round, 1);
  assert.equal(roundAt(rounds, 14).round, 2);
  assert.equal(roundAt(rounds, 15).round, 3);
  assert.equal(roundAt([], 3), null);
  assert.equal(roundAt(undefined, 3), null);
});
