// The lobby's account panel (claim a username, sign in on another device, change the password,
// sign out, delete) and "My games" (every table you sit at, whose turn it is, one tap to rejoin).
// docs/protocol.md "Accounts".
import { h, replace, redraw, announce } from "./dom.js";
import { icon } from "./icons.js";
import { t } from "./i18n.js";
import { limits, limitText } from "./limits.js";
import { get, post, patch, del, currentUser, setCurrentUser, errorText } from "./api.js";
import { presetName, tableTitle } from "./format.js";

const POLL_MS = 8000;

function input(id, type, autocomplete, extra = {}) {
  return h("input", { id, type, autocomplete, required: true, ...extra });
}

/** A password's lengths, as the server accepts them (limits.js). */
function passwordLength() {
  return { minlength: limits.password_min, maxlength: limits.password_max };
}

function field(id, key, control, hintKey) {
  return h("div", { class: "field" }, h("label", { for: id, text: t(key) }), control,
    hintKey ? h("p", { class: "hint", text: limitText(hintKey) }) : null);
}

/** The account panel; ``changed(user)`` after a sign-in, sign-out or deletion. */
export function accountPanel(changed) {
  const box = h("section", { class: "account-panel card-panel", "aria-labelledby": "account-title" });
  const status = h("div", { class: "account-status", role: "status" });
  let account = null; // {user_id, name, username} or null (no session)

  function say(text, error = false) {
    replace(status, h("p", { class: error ? "error" : "hint" }, error ? icon("warning") : null, h("span", { text })));
  }
  function fail(err) { say(errorText(err.code, err.message), true); }

  function form(id, fields, submitKey, run) {
    return h("form", {
      class: `account-form ${id}`, id,
      onsubmit: async (ev) => {
        ev.preventDefault();
        const values = Object.fromEntries(fields.map(([name, el]) => [name, el.value]));
        try { await run(values); } catch (err) { fail(err); }
      },
    }, fields.map(([, , wrap]) => wrap), h("button", { type: "submit", class: "btn btn-secondary" }, t(submitKey)));
  }

  function credentials(prefix, pwdAutocomplete) {
    const user = input(`${prefix}-username`, "text", "username", { maxlength: limits.name_max });
    const pwd = input(`${prefix}-password`, "password", pwdAutocomplete, passwordLength());
    return [
      ["username", user, field(user.id, "account.username", user)],
      ["password", pwd, field(pwd.id, "account.password", pwd, "account.password.hint")],
    ];
  }

  const signin = form("signin-form", credentials("signin", "current-password"), "account.signin", async (v) => {
    const data = await post("/api/signin", v);
    setCurrentUser({ user_id: data.user_id, name: data.name, username: data.username });
    await load();
    replace(status); // a wrong password tried before is no longer the news
    announce(t("account.signed_in", { username: data.username })); // the panel shows it (once)
    changed(account);
  });

  function render() {
    const parts = [h("h2", { id: "account-title", text: t("account.title") }), status];
    if (account && account.username) {
      parts.push(h("p", { class: "account-name", text: t("account.signed_in", { username: account.username }) }));
      const cur = input("current-password", "password", "current-password");
      const pwd = input("new-password", "password", "new-password", passwordLength());
      parts.push(form("password-form", [
        ["current_password", cur, field(cur.id, "account.current_password", cur)],
        ["password", pwd, field(pwd.id, "account.new_password", pwd, "account.password.hint")],
      ], "account.change_password", async (v) => {
        await patch("/api/account", v);
        say(t("account.saved"));
      }));
      const delPwd = input("delete-password", "password", "current-password");
      parts.push(h("details", { class: "account-delete" }, h("summary", { text: t("account.delete") }),
        form("delete-form", [["password", delPwd, field(delPwd.id, "account.password", delPwd)]],
          "account.delete", async (v) => {
            if (!window.confirm(t("account.delete.confirm"))) return;
            await del("/api/account", v);
            setCurrentUser(null);
            account = null;
            render();
            changed(null);
          })));
    } else if (account) {
      parts.push(h("p", { class: "hint", text: t("account.guest") }));
      parts.push(form("claim-form", credentials("claim", "new-password"), "account.claim", async (v) => {
        const data = await post("/api/account", v);
        account = data;
        render();
        announce(t("account.signed_in", { username: data.username }));
      }));
    }
    parts.push(h("details", { class: "account-signin", open: !account },
      h("summary", { text: t("account.signin.title") }), signin));
    if (account) {
      parts.push(h("button", {
        type: "button", class: "btn-link", id: "signout",
        onclick: async () => {
          try { await post("/api/logout", {}); } catch (err) { fail(err); return; }
          setCurrentUser(null);
          account = null;
          render();
          changed(null);
        },
      }, t("account.signout")));
    }
    replace(box, parts);
  }

  async function load() {
    try {
      account = (await currentUser()) ? await get("/api/account") : null;
    } catch (err) {
      account = null;
      if (err.status !== 401) fail(err);
    }
    render();
  }

  render();
  load();
  return { el: box, reload: load };
}

/** "My games": the tables you sit at, polled; tap one to go back to it. */
export function myGamesPanel() {
  const box = h("section", { class: "my-games card-panel", "aria-labelledby": "my-games-title" });
  let timer = null;
  let stopped = false;

  function turnText(game) {
    if (game.status !== "playing") return t(`lobby.status.${game.status}`);
    if (game.your_turn) return t("mygames.your_turn");
    const names = game.to_act.map((s) => game.seats[s].name || String(s + 1));
    return names.length ? t("mygames.waiting_for", { names: names.join(t("list.separator")) }) : t("lobby.status.playing");
  }

  function card(game) {
    return h("li", { class: `table-card my-game status-${game.status}${game.your_turn ? " your-turn" : ""}`, dataset: { table: game.id } },
      h("div", { class: "table-card-main" },
        h("h3", { text: tableTitle(game) }),
        h("dl", { class: "facts inline" },
          h("dt", { text: t("lobby.tables.col.rules") }), h("dd", { text: presetName(game.preset || "official") }),
          h("dt", { text: t("lobby.tables.col.status") }), h("dd", { class: "turn", text: turnText(game) }))),
      h("div", { class: "table-card-actions" },
        h("a", { class: "btn btn-primary", href: `#/t/${encodeURIComponent(game.id)}`, dataset: { fkey: `open-${game.id}` } },
          game.your_turn ? icon("play") : null, h("span", { text: t("mygames.open") })),
        game.status !== "finished" ? null : game.rematch
          ? h("a", { class: "btn btn-secondary", href: `#/t/${encodeURIComponent(game.rematch)}` }, t("mygames.to_rematch"))
          : h("button", { type: "button", class: "btn btn-secondary", onclick: () => rematch(game) }, t("mygames.rematch"))));
  }

  async function rematch(game) {
    try {
      const table = await post(`/api/tables/${encodeURIComponent(game.id)}/rematch`, {});
      location.hash = `#/t/${encodeURIComponent(table.id)}`;
    } catch (err) {
      redraw(box, ["error", err.code, err.message], () => h("p", { class: "error", text: errorText(err.code, err.message) }));
      timer = setTimeout(refresh, POLL_MS);
    }
  }

  async function refresh() {
    clearTimeout(timer);
    let games = [];
    try {
      if (await currentUser()) games = (await get("/api/me/games")).games;
    } catch (err) {
      if (err.status !== 401) redraw(box, ["error", err.code, err.message], () => h("p", { class: "error", text: errorText(err.code, err.message) }));
    }
    if (stopped) return;
    // drawn again only when the games changed (``redraw``: it polls)
    redraw(box, games, () => {
      const parts = [h("h2", { id: "my-games-title", text: t("mygames.title") })];
      if (!games.length) parts.push(h("p", { class: "empty", text: t("mygames.empty") }));
      else parts.push(h("ul", { class: "table-list", "aria-labelledby": "my-games-title" }, games.map(card)));
      return parts;
    });
    timer = setTimeout(refresh, POLL_MS);
  }

  refresh();
  return { el: box, refresh, destroy() { stopped = true; clearTimeout(timer); } };
}
