// The table's WebSocket (table-connection.js), driven with a fake socket class and a fake clock:
// the hello on every new socket, the backoff of a lost connection and its reset by a welcome,
// the refusals that are not retried, the network and the page coming back, and sends, which go
// out on an open socket only and are never kept for later.
import { test } from "node:test";
import assert from "node:assert/strict";
import { openConnection, retryDelay, PING_MS } from "../../../src/secret_hitler/web/static/js/table-connection.js";

/** Timers that run only when the test moves the time on (`advance`). */
class FakeClock {
  constructor() { this.now = 0; this.timers = new Map(); this.next = 1; }
  setTimeout(fn, ms) { return this.add(fn, ms, null); }
  setInterval(fn, ms) { return this.add(fn, ms, ms); }
  clearTimeout(id) { this.timers.delete(id); }
  clearInterval(id) { this.timers.delete(id); }
  add(fn, ms, every) {
    const id = this.next++;
    this.timers.set(id, { fn, at: this.now + ms, every });
    return id;
  }
  /** Run every timer due within `ms`, in time order. */
  advance(ms) {
    const end = this.now + ms;
    for (;;) {
      const due = [...this.timers].filter(([, tm]) => tm.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      const [id, tm] = due;
      this.now = tm.at;
      if (tm.every) tm.at += tm.every; else this.timers.delete(id);
      tm.fn();
    }
    this.now = end;
  }
}

/** A WebSocket the test plays the server of: `open()`, `receive(msg)`, `drop(code, reason)`. */
function fakeSocketClass() {
  const made = [];
  class FakeSocket extends EventTarget {
    static OPEN = 1;
    static CLOSED = 3;
    constructor(url) {
      super();
      this.url = url;
      this.readyState = 0;
      this.sent = [];
      this.closedWith = null; // the code the client closed it with
      made.push(this);
    }
    send(text) {
      if (this.readyState !== FakeSocket.OPEN) throw new Error("not open");
      this.sent.push(JSON.parse(text));
    }
    close(code) {
      this.closedWith = code;
      this.drop(code);
    }
    open() {
      this.readyState = FakeSocket.OPEN;
      this.dispatchEvent(new Event("open"));
    }
    receive(msg) {
      this.dispatchEvent(Object.assign(new Event("message"), { data: typeof msg === "string" ? msg : JSON.stringify(msg) }));
    }
    drop(code = 1006, reason = "") {
      if (this.readyState === FakeSocket.CLOSED) return;
      this.readyState = FakeSocket.CLOSED;
      this.dispatchEvent(Object.assign(new Event("close"), { code, reason }));
    }
  }
  return { FakeSocket, made };
}

/** A connection to table "t1" over fake sockets: what it reported, and the means to drive it. */
function connect({ invite = null } = {}) {
  const clock = new FakeClock();
  const { FakeSocket, made } = fakeSocketClass();
  const document = Object.assign(new EventTarget(), { hidden: false });
  const window = new EventTarget();
  const seen = { statuses: [], messages: [], lost: 0, refused: [], hellos: 0 };
  const env = {
    WebSocket: FakeSocket,
    url: (path, params) => `ws://test${path}${params.invite ? `?invite=${params.invite}` : ""}`,
    window,
    document,
    setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
    clearTimeout: (id) => clock.clearTimeout(id),
    setInterval: (fn, ms) => clock.setInterval(fn, ms),
    clearInterval: (id) => clock.clearInterval(id),
  };
  const conn = openConnection("t1", invite, {
    hello: () => { seen.hellos += 1; return { v: 1, type: "hello", since: seen.hellos }; },
    message: (msg) => seen.messages.push(msg),
    status: (s) => seen.statuses.push(s),
    lost: () => { seen.lost += 1; },
    refused: (code, reason) => seen.refused.push([code, reason]),
  }, env);
  const last = () => made[made.length - 1];
  return { conn, clock, made, last, seen, window, document };
}

const WELCOME = { v: 1, type: "welcome", seat: 0, seq: 3 };

test("a new socket says hello first, with the page's hello of that moment", () => {
  const { made, last, seen } = connect({ invite: "code" });
  assert.equal(made.length, 1);
  assert.equal(last().url, "ws://test/ws/tables/t1?invite=code");
  assert.deepEqual(seen.statuses, ["connecting"]);
  assert.deepEqual(last().sent, []); // nothing before the socket opens
  last().open();
  assert.deepEqual(last().sent, [{ v: 1, type: "hello", since: 1 }]);
  last().receive(WELCOME);
  last().receive("not json"); // ignored
  assert.deepEqual(seen.messages, [WELCOME]);
});

test("a lost connection is retried with a doubling wait up to 10 s, and a welcome starts it over", () => {
  const { clock, made, last, seen } = connect();
  last().open();
  last().receive(WELCOME);
  const waits = [];
  for (let k = 1; k <= 7; k++) {
    const before = made.length;
    last().drop(1006);
    assert.equal(seen.lost, k);
    assert.equal(seen.statuses.at(-1), "reconnecting");
    clock.advance(retryDelay(k) - 1);
    assert.equal(made.length, before, `no new socket before ${retryDelay(k)} ms`);
    clock.advance(1);
    assert.equal(made.length, before + 1);
    waits.push(retryDelay(k));
  }
  assert.deepEqual(waits, [500, 1000, 2000, 4000, 8000, 10000, 10000]);
  // the eighth socket gets through: its hello, then the welcome resets the backoff
  last().open();
  assert.deepEqual(last().sent, [{ v: 1, type: "hello", since: 2 }]);
  last().receive(WELCOME);
  const before = made.length;
  last().drop(1006);
  clock.advance(500);
  assert.equal(made.length, before + 1, "the first wait again");
});

test("a refusal (4xxx) is not retried; 'retry now' starts over", () => {
  const { conn, clock, made, last, seen } = connect();
  last().open();
  last().drop(4401, "signed out");
  assert.deepEqual(seen.refused, [[4401, "signed out"]]);
  assert.equal(seen.statuses.at(-1), "closed");
  clock.advance(60000);
  assert.equal(made.length, 1);
  conn.retryNow();
  assert.equal(made.length, 2);
  assert.equal(seen.statuses.at(-1), "connecting");
  // an unknown table: refused, and the page says so itself (no "closed" banner)
  last().open();
  const statuses = seen.statuses.length;
  last().drop(4404, "no table");
  assert.deepEqual(seen.refused.at(-1), [4404, "no table"]);
  assert.equal(seen.statuses.length, statuses);
});

test("the network or the page coming back retries at once; a hidden page waits", () => {
  const { made, last, window, document } = connect();
  last().open();
  last().drop(1006);
  assert.equal(made.length, 1);
  document.hidden = true;
  document.dispatchEvent(new Event("visibilitychange"));
  assert.equal(made.length, 1, "a hidden page does not hurry");
  document.hidden = false;
  document.dispatchEvent(new Event("visibilitychange"));
  assert.equal(made.length, 2);
  last().drop(1006);
  window.dispatchEvent(new Event("online"));
  assert.equal(made.length, 3);
  // connected: the network coming back changes nothing
  last().open();
  window.dispatchEvent(new Event("online"));
  assert.equal(made.length, 3);
});

test("sends go out on an open socket only and are never kept for later", () => {
  const { conn, clock, last } = connect();
  assert.equal(conn.send({ v: 1, type: "chat", text: "early" }), false);
  assert.equal(conn.sendAction({ type: "vote", ja: true }), null);
  last().open();
  assert.equal(conn.send({ v: 1, type: "chat", text: "hi" }), true);
  assert.equal(conn.sendAction({ type: "vote", ja: true }), "c2"); // ids count every attempt
  assert.equal(conn.sendAction({ type: "vote", ja: false }), "c3");
  assert.deepEqual(last().sent.slice(1), [
    { v: 1, type: "chat", text: "hi" },
    { v: 1, type: "action", id: "c2", action: { type: "vote", ja: true } },
    { v: 1, type: "action", id: "c3", action: { type: "vote", ja: false } },
  ]);
  last().drop(1006);
  assert.equal(conn.send({ v: 1, type: "chat", text: "while away" }), false);
  assert.equal(conn.sendAction({ type: "nominate", target: 2 }), null);
  clock.advance(500);
  last().open();
  assert.deepEqual(last().sent, [{ v: 1, type: "hello", since: 2 }], "only the hello: nothing queued");
});

test("an open socket pings every 25 s; a closed connection stops for good", () => {
  const { conn, clock, made, last, window } = connect();
  last().open();
  clock.advance(PING_MS * 2);
  assert.deepEqual(last().sent.slice(1), [{ v: 1, type: "ping" }, { v: 1, type: "ping" }]);
  conn.close();
  assert.equal(last().closedWith, 1000);
  clock.advance(PING_MS * 4);
  window.dispatchEvent(new Event("online"));
  assert.equal(made.length, 1);
  assert.equal(last().sent.length, 3);
});

test("a restart (this seat changed) opens a new socket; the old one's close is not a loss", () => {
  const { conn, clock, made, last, seen } = connect();
  last().open();
  last().receive(WELCOME);
  const old = last();
  conn.restart();
  assert.equal(old.closedWith, 1000);
  assert.equal(made.length, 2);
  assert.equal(seen.lost, 0);
  clock.advance(60000);
  assert.equal(made.length, 2, "no retry of the old socket");
  last().open();
  assert.deepEqual(last().sent, [{ v: 1, type: "hello", since: 2 }]);
});
