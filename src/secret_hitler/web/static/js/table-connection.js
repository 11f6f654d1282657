// The table's WebSocket (docs/protocol.md 2): hello (resuming from the last update seen),
// keep-alive, and a lost connection retried for as long as the page is open (a phone loses the
// network often): at most every 10 s, at once when the network or the page comes back. Messages
// go out only on an open socket: what cannot be sent now is refused, never kept for later (an
// action sent after the game moved on would be stale).
import { wsUrl } from "./api.js";

const PING_MS = 25000;

/** Milliseconds before the `retry`-th attempt (1, 2, ...): doubling from 0.5 s, at most 10 s. */
export function retryDelay(retry) {
  return Math.min(10000, 500 * 2 ** Math.min(retry - 1, 5));
}

/**
 * Open the table's socket. `on`: {hello() -> the hello message, message(msg), status(conn)
 * ("connecting" | "reconnecting" | "closed"), lost() (the socket is gone), refused(code, reason)
 * (closed by the server with a 4xxx code: not retried)}. Returns {send(msg) -> bool,
 * sendAction(action) -> its message id or null, restart(), retryNow(), close()}.
 */
export function openConnection(tableId, invite, on) {
  let ws = null;
  let status = "connecting";
  let retry = 0;
  let closed = false;
  let retryTimer = null;
  let pingTimer = null;
  let msgId = 0;

  function setStatus(next) {
    status = next;
    on.status(next);
  }

  function connect() {
    if (closed) return;
    clearTimeout(retryTimer);
    setStatus(retry ? "reconnecting" : "connecting");
    let socket;
    try {
      socket = new WebSocket(wsUrl(`/ws/tables/${encodeURIComponent(tableId)}`, { invite }));
    } catch {
      scheduleReconnect();
      return;
    }
    ws = socket;
    socket.addEventListener("open", () => socket.send(JSON.stringify(on.hello())));
    socket.addEventListener("message", (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "welcome" || msg.type === "resumed") { status = "open"; retry = 0; }
      on.message(msg);
    });
    socket.addEventListener("close", (ev) => {
      if (ws !== socket) return;
      clearInterval(pingTimer);
      ws = null;
      on.lost();
      if (closed) return;
      if (ev.code >= 4000 && ev.code < 4500) {
        if (ev.code !== 4404) setStatus("closed");
        on.refused(ev.code, ev.reason);
        return;
      }
      scheduleReconnect();
    });
    clearInterval(pingTimer);
    pingTimer = setInterval(() => send({ v: 1, type: "ping" }), PING_MS);
  }

  function scheduleReconnect() {
    if (closed) return;
    retry += 1;
    setStatus("reconnecting");
    retryTimer = setTimeout(connect, retryDelay(retry));
  }

  function retrySoon() {
    if (closed || ws || status !== "reconnecting" || document.hidden) return;
    connect();
  }
  window.addEventListener("online", retrySoon);
  document.addEventListener("visibilitychange", retrySoon);

  function send(msg) {
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  connect();
  return {
    send,
    /** A game action; its id (echoed by the server's ack or error), or null when offline. */
    sendAction(action) {
      const id = `c${++msgId}`;
      return send({ v: 1, type: "action", id, action }) ? id : null;
    },
    /** A new socket now (this seat changed): the old one closes without being retried. */
    restart() {
      const old = ws;
      ws = null;
      if (old) try { old.close(1000); } catch { /* ignore */ }
      retry = 0;
      connect();
    },
    /** After a refusal: try again from the start. */
    retryNow() {
      retry = 0;
      connect();
    },
    close() {
      closed = true;
      window.removeEventListener("online", retrySoon);
      document.removeEventListener("visibilitychange", retrySoon);
      clearInterval(pingTimer);
      clearTimeout(retryTimer);
      if (ws) try { ws.close(1000); } catch { /* ignore */ }
      ws = null;
    },
  };
}
