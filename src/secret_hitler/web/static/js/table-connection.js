// The table's WebSocket (docs/protocol.md 2): hello (resuming from the last update seen),
// keep-alive, and a lost connection retried for as long as the page is open (a phone loses the
// network often): at most every 10 s, at once when the network or the page comes back. Messages
// go out only on an open socket: what cannot be sent now is refused, never kept for later (an
// action sent after the game moved on would be stale). What it uses of the browser (the socket
// class, timers, the window's and the document's events) comes in `env`, so that the Node tests
// (tests/web/js/table-connection.test.mjs) drive it with a fake socket and a fake clock.
import { wsUrl } from "./api.js";

export const PING_MS = 25000;

/** The browser's: what `openConnection` uses unless a test gives its own. */
export function browserEnv() {
  return {
    WebSocket: globalThis.WebSocket,
    url: wsUrl,
    window: globalThis.window,
    document: globalThis.document,
    // (wrapped: a browser's timers refuse to be called as another object's methods)
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (id) => clearTimeout(id),
    setInterval: (fn, ms) => setInterval(fn, ms),
    clearInterval: (id) => clearInterval(id),
  };
}

/** Milliseconds before the `retry`-th attempt (1, 2, ...): doubling from 0.5 s, at most 10 s. */
export function retryDelay(retry) {
  return Math.min(10000, 500 * 2 ** Math.min(retry - 1, 5));
}

/**
 * Open the table's socket. `on`: {hello() -> the hello message, message(msg), status(conn)
 * ("connecting" | "reconnecting" | "closed"), lost() (the socket is gone), refused(code, reason)
 * (closed by the server with a 4xxx code: not retried)}. Returns {send(msg) -> bool,
 * sendAction(action) -> its message id or null, restart(), retryNow(), close()}. `env`: see
 * `browserEnv`.
 */
export function openConnection(tableId, invite, on, env = browserEnv()) {
  const conn = new TableConnection(tableId, invite, on, env);
  conn.connect();
  return conn;
}

class TableConnection {
  constructor(tableId, invite, on, env) {
    Object.assign(this, { tableId, invite, on, env });
    this.ws = null;
    this.status = "connecting";
    this.retry = 0;
    this.closed = false;
    this.retryTimer = null;
    this.pingTimer = null;
    this.msgId = 0;
    this.retrySoon = () => {
      if (this.closed || this.ws || this.status !== "reconnecting" || env.document.hidden) return;
      this.connect();
    };
    env.window.addEventListener("online", this.retrySoon);
    env.document.addEventListener("visibilitychange", this.retrySoon);
  }

  setStatus(next) {
    this.status = next;
    this.on.status(next);
  }

  connect() {
    if (this.closed) return;
    const env = this.env;
    env.clearTimeout(this.retryTimer);
    this.setStatus(this.retry ? "reconnecting" : "connecting");
    let socket;
    try {
      socket = new env.WebSocket(env.url(`/ws/tables/${encodeURIComponent(this.tableId)}`, { invite: this.invite }));
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = socket;
    socket.addEventListener("open", () => socket.send(JSON.stringify(this.on.hello())));
    socket.addEventListener("message", (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "welcome" || msg.type === "resumed") { this.status = "open"; this.retry = 0; }
      this.on.message(msg);
    });
    socket.addEventListener("close", (ev) => this.closedBy(socket, ev));
    env.clearInterval(this.pingTimer);
    this.pingTimer = env.setInterval(() => this.send({ v: 1, type: "ping" }), PING_MS);
  }

  /** `socket` closed (`ev`: its code and reason): retried, unless it was refused or replaced. */
  closedBy(socket, ev) {
    if (this.ws !== socket) return;
    this.env.clearInterval(this.pingTimer);
    this.ws = null;
    this.on.lost();
    if (this.closed) return;
    if (ev.code >= 4000 && ev.code < 4500) {
      if (ev.code !== 4404) this.setStatus("closed");
      this.on.refused(ev.code, ev.reason);
      return;
    }
    this.scheduleReconnect();
  }

  scheduleReconnect() {
    if (this.closed) return;
    this.retry += 1;
    this.setStatus("reconnecting");
    this.retryTimer = this.env.setTimeout(() => this.connect(), retryDelay(this.retry));
  }

  /** `msg` on the open socket (true), or nothing at all (false): never kept for later. */
  send(msg) {
    if (this.ws && this.ws.readyState === this.env.WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** A game action; its id (echoed by the server's ack or error), or null when offline. */
  sendAction(action) {
    const id = `c${++this.msgId}`;
    return this.send({ v: 1, type: "action", id, action }) ? id : null;
  }

  /** A new socket now (this seat changed): the old one closes without being retried. */
  restart() {
    const old = this.ws;
    this.ws = null;
    if (old) try { old.close(1000); } catch { /* ignore */ }
    this.retry = 0;
    this.connect();
  }

  /** After a refusal: try again from the start. */
  retryNow() {
    this.retry = 0;
    this.connect();
  }

  close() {
    const env = this.env;
    this.closed = true;
    env.window.removeEventListener("online", this.retrySoon);
    env.document.removeEventListener("visibilitychange", this.retrySoon);
    env.clearInterval(this.pingTimer);
    env.clearTimeout(this.retryTimer);
    if (this.ws) try { this.ws.close(1000); } catch { /* ignore */ }
    this.ws = null;
  }
}
