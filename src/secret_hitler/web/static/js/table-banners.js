// The two bars at the top of the table page: the connection's state (with "Retry" once the server
// refused it) and the last error, in plain words, for 8 seconds.
import { h, replace } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { errorText } from "./api.js";

const ERROR_MS = 8000;
const CONN_KEYS = { connecting: "conn.connecting", reconnecting: "conn.reconnecting", closed: "conn.disconnected" };

/** The connection banner: hidden while the connection is open. */
export function connectionBanner(onRetry) {
  const el = h("div", { class: "conn-banner", role: "status", hidden: true });
  function render(conn) {
    if (conn === "open") { el.hidden = true; return; }
    el.hidden = false;
    replace(el, h("span", { text: t(CONN_KEYS[conn] || "conn.connecting") }),
      conn === "closed" ? h("button", { type: "button", class: "btn btn-secondary", onclick: onRetry }, t("conn.retry")) : null);
  }
  return { el, render };
}

/** The error box; `show(code, message, detail, field)` (code "__text": `message` is the words). */
export function errorBox() {
  const el = h("div", { class: "error-box", role: "alert" });
  let errors = [];
  function render() {
    replace(el, errors.map((e) => h("p", { class: "error" }, icon("warning"),
      h("span", { text: e.text }),
      h("button", { type: "button", class: "btn-link", onclick: () => { errors = []; render(); } }, t("app.close")))));
  }
  function show(code, message, detail, field) {
    const text = code === "__text" ? message : errorText(code, message, detail, field);
    errors = [{ text, at: Date.now() }];
    render();
    setTimeout(() => { errors = errors.filter((e) => Date.now() - e.at < ERROR_MS - 100); render(); }, ERROR_MS);
  }
  return { el, show };
}
