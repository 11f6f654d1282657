// HTTP API (docs/protocol.md). Errors come back as ApiError with the server's error code.
// The session is the HttpOnly cookie the server sets: this page never sees the token, and never
// puts it in a URL (docs/security.md).
import { t, has } from "./i18n.js";

const NAME_KEY = "sh.name";
// Older versions kept the token in localStorage: forget it.
try { localStorage.removeItem("sh.token"); } catch { /* ignore */ }

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message || code);
    this.code = code;
    this.status = status;
  }
}

export function rememberedName() {
  try { return localStorage.getItem(NAME_KEY) || ""; } catch { return ""; }
}

export async function request(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError("network", String(err), 0);
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!response.ok) {
    const error = data && data.error ? data.error : {};
    const code = error.code || (response.status === 401 ? "unauthorized"
      : response.status === 404 ? "not_found" : "http_" + response.status);
    throw new ApiError(code, error.message || response.statusText, response.status);
  }
  return data;
}

export const get = (path) => request("GET", path);
export const post = (path, body) => request("POST", path, body === undefined ? {} : body);
export const patch = (path, body) => request("PATCH", path, body);
export const del = (path, body) => request("DELETE", path, body);

let me = null;

/** The current user ({user_id, name}) or null when there is no session. */
export async function currentUser() {
  if (me) return me;
  try {
    me = await get("/api/me");
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

/** Plain words for an error code (from the catalogs), with the server's message as a detail. */
const WITH_DETAILS = new Set(["invalid_request", "invalid_settings", "invalid_record"]);

export function errorText(code, message, detail) {
  if (code === "network") return t("error.network");
  if (typeof detail === "string" && has(`error.code.${detail}`)) return t(`error.code.${detail}`);
  const key = `error.code.${code}`;
  // The server's message names the field or setting: worth showing for these.
  if (code && has(key) && message && WITH_DETAILS.has(code)) return `${t(key)} ${t("error.details", { message })}`;
  if (code && has(key)) return t(key);
  if (message) return `${t("error.generic")} ${t("error.details", { message })}`;
  return t("error.unknown", { code: code || "?" });
}

/** The WebSocket URL of `path` on this server; the browser sends the session cookie itself. */
export function wsUrl(path, params = {}) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined) q.set(k, v);
  const query = q.toString();
  return `${proto}//${location.host}${path}${query ? "?" + query : ""}`;
}
