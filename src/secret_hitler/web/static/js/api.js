// HTTP API (docs/protocol.md). Errors come back as ApiError with the server's error code.
// The session is the HttpOnly cookie the server sets: this page never sees the token, and never
// puts it in a URL (docs/security.md).
import { t, has } from "./i18n.js";
import { limitText } from "./limits.js";

const NAME_KEY = "sh.name";
// Older versions kept the token in localStorage: forget it.
try { localStorage.removeItem("sh.token"); } catch { /* ignore */ }

// This browser's device id (docs/competitive.md "Rated seats"): a random value kept in the
// `sh_device` cookie, which the server hashes with the User-Agent so that one browser takes one
// rated seat at a table. Not a secret and not a session: best-effort, like any client's word.
export const DEVICE_COOKIE = "sh_device";
export function ensureDeviceId(doc = globalThis.document, random = globalThis.crypto) {
  if (!doc || !random) return null;
  const found = doc.cookie.split(/;\s*/).find((c) => c.startsWith(`${DEVICE_COOKIE}=`));
  if (found) return found.slice(DEVICE_COOKIE.length + 1);
  const id = Array.from(random.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
  doc.cookie = `${DEVICE_COOKIE}=${id}; path=/; max-age=${400 * 86400}; samesite=lax`;
  return id;
}
ensureDeviceId();

export class ApiError extends Error {
  constructor(code, message, status, field) {
    super(message || code);
    this.code = code;
    this.status = status;
    this.field = field || null; // the refused setting or field, named by the server
  }
}

export function rememberedName() {
  try { return localStorage.getItem(NAME_KEY) || ""; } catch { return ""; }
}

/** The answer's text, as the server sent it; an ApiError for a failed request. `payload`: the
 * request's JSON text, or undefined. */
async function exchange(method, path, payload) {
  const headers = { Accept: "application/json" };
  if (payload !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: payload,
    });
  } catch (err) {
    throw new ApiError("network", String(err), 0);
  }
  const text = await response.text();
  if (!response.ok) {
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch { data = null; }
    const error = data && data.error ? data.error : {};
    const code = error.code || (response.status === 401 ? "unauthorized"
      : response.status === 404 ? "not_found" : "http_" + response.status);
    throw new ApiError(code, error.message || response.statusText, response.status, typeof error.field === "string" ? error.field : null);
  }
  return text;
}

function parsed(text) {
  if (!text) return null;
  try { return JSON.parse(text); } catch { return null; }
}

export async function request(method, path, body) {
  return parsed(await exchange(method, path, body === undefined ? undefined : JSON.stringify(body)));
}

/** A record goes and comes as text, byte for byte: JSON.parse would round a 64-bit seed to a
 * double, and a replay from a changed seed draws other cards. */
export const getText = (path) => exchange("GET", path);
export const postText = async (path, text) => parsed(await exchange("POST", path, text));

export const get = (path) => request("GET", path);
export const post = (path, body) => request("POST", path, body === undefined ? {} : body);
export const patch = (path, body) => request("PATCH", path, body);
export const del = (path, body) => request("DELETE", path, body);

let me = null;

/** The current user ({user_id, name}) or null when there is no session. */
export async function currentUser() {
  if (me) return me;
  try {
    const data = await get("/api/me"); // {user_id: null} without a session (no 401 logged)
    me = data && data.user_id ? data : null;
  } catch (err) {
    if (err.status === 401 || err.status === 403 || err.code === "unauthorized") return null;
    throw err;
  }
  return me;
}

/** After sign-in, sign-out or a rename: the user this page now acts as (null: none). */
export function setCurrentUser(user) {
  me = user;
  if (user && user.name) {
    try { localStorage.setItem(NAME_KEY, user.name); } catch { /* ignore */ }
  }
}

/** Make sure there is a session with this display name (creates one when needed). */
export async function ensureSession(name) {
  const wanted = (name || "").trim();
  const user = await currentUser();
  if (user && (!wanted || user.name === wanted)) return user;
  if (!wanted) return user;
  const data = await post("/api/session", { name: wanted });
  try { localStorage.setItem(NAME_KEY, wanted); } catch { /* ignore */ }
  me = { user_id: data.user_id, name: data.name };
  return me;
}

/** The words of a setting or field the server names in an error (`field`). */
function fieldName(field) {
  const keys = {
    players: "lobby.create.players", timer: "lobby.timer", on_timeout: "lobby.on_timeout", rules: "lobby.create.rules", name: "lobby.display_name", webhook: "lobby.webhook",
    bot_level: "lobby.bots.level", bots: "lobby.bots.level", chat: "lobby.chat_mode", category: "lobby.category",
  };
  if (has(`lobby.custom.${field}`)) return t(`lobby.custom.${field}`);
  if (has(`setting.${field}`)) return t(`setting.${field}`); // a game type's setting
  return keys[field] ? t(keys[field]) : field;
}

/**
 * Plain words for an error, all from the catalogs: by code (`detail`: the engine's code of a
 * refusal), with the refused setting (`field`) named. The server's English message is never
 * shown: it is for logs and API users.
 */
export function errorText(code, message, detail, field) {
  if (code === "network") return t("error.network");
  if (typeof detail === "string" && has(`error.code.${detail}`)) return t(`error.code.${detail}`);
  const key = `error.code.${code}`;
  const which = typeof field === "string" && field ? ` ${t("error.field", { field: fieldName(field) })}` : "";
  if (code && has(key)) return `${limitText(key)}${which}`; // (some name the server's limits)
  return `${t("error.unknown", { code: code || "?" })}${which}`;
}

/** The WebSocket URL of `path` on this server; the browser sends the session cookie itself. */
export function wsUrl(path, params = {}) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) q.set(k, v);
  const query = q.toString();
  return `${proto}//${location.host}${path}${query ? "?" + query : ""}`;
}
