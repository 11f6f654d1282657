"""A person plays a whole game against bots through the web client, in a real Chromium."""

from __future__ import annotations

import contextlib
import json
import random
import time
from typing import Any

from web_support import MISSING, FrameLog, SocketPlayer, act_once, missing_keys, play_until_over


def test_one_person_and_bots_play_a_complete_game(web_server, new_context) -> None:
    ctx = new_context(width=390, height=844)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(web_server.url + "/")
    page.fill("#name", "Alice")
    page.select_option("#players", "5")
    page.select_option("#bots", "4")
    page.get_by_role("button", name="Create table").click()
    # every seat is taken: the game starts by itself
    page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
    assert page.locator(".seat").count() == 5
    assert page.locator(".seat.mine .seat-name").inner_text() == "Alice"

    # the role card is secret until tapped
    assert page.locator("#role-secret").count() == 0
    page.get_by_role("button", name="Tap to reveal").click()
    assert page.locator("#role-secret .role-badge").count() == 1
    page.get_by_role("button", name="Tap to hide").click()
    assert page.locator("#role-secret").count() == 0

    play_until_over(page, random.Random(1))

    over = page.locator(".gameover")
    assert over.locator(".winner").inner_text().strip() in ("Liberals win", "Fascists win")
    assert over.locator(".roles-revealed li").count() == 5
    assert over.locator(".roles-revealed .role-badge").count() == 5
    # the whole history is in the log, in sentences
    log = page.locator(".log-list").inner_text()
    assert "The game begins with 5 players" in log
    assert "The game is over" in log
    assert MISSING not in page.locator("body").inner_text(), missing_keys(page)
    assert not errors


def _latest(frames: FrameLog, key: str) -> Any:
    for m in reversed(frames.messages):
        if m.get("type") in ("welcome", "update") and key in m:
            return m[key]
    return None


def _offered(page) -> dict[str, Any]:
    """What the action area offers now, read from the DOM."""
    return page.evaluate(
        """() => {
          const d = document.querySelector('.area-action .decision');
          if (!d) return {kinds: [], targets: []};
          const kinds = [...d.querySelectorAll('button[data-action]')].map(b => b.dataset.action);
          const targets = [...d.querySelectorAll('button.target')].map(b => Number(b.dataset.target));
          return {kinds: [...new Set(kinds)].sort(), targets: targets.sort((a, b) => a - b)};
        }"""
    )


def _expected(legal: list[dict[str, Any]]) -> dict[str, Any]:
    plays = [a for a in legal or [] if a["type"] != "claim"]
    targeted = ("nominate", "investigate", "special_election", "execute")
    kinds = sorted({a["type"] for a in plays})
    return {
        "kinds": kinds,
        "targets": sorted(a["target"] for a in plays if a["type"] in targeted),
    }


def test_only_the_servers_legal_actions_are_offered(web_server, new_context) -> None:
    """Buttons come from the `legal` list the server sent, nothing more and nothing less."""
    ctx = new_context(width=1366, height=768)
    page = ctx.new_page()
    logs = []
    page.on("console", lambda m: logs.append(m.text))
    frames = FrameLog(page)
    page.goto(web_server.url + "/")
    page.fill("#name", "Bea")
    page.select_option("#players", "7")
    page.select_option("#bots", "6")
    page.get_by_role("button", name="Create table").click()
    try:
        page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=60000)
    except Exception as exc:  # say what the page showed instead (an error, the lobby, ...)
        shown = page.locator("main").inner_text()[:500]
        raise AssertionError(f"no board at {page.url}; the page shows: {shown!r}") from exc
    rng = random.Random(2)
    compared = set()
    for _ in range(2000):
        if page.locator(".gameover").count():
            break
        for _attempt in range(20):  # the DOM follows the last frame within a few milliseconds
            offered = _offered(page)
            expected = _expected(_latest(frames, "legal"))
            if offered == expected:
                break
            page.wait_for_timeout(25)
        assert offered == expected
        compared.update(expected["kinds"])
        if not act_once(page, rng):
            page.wait_for_timeout(30)
    assert page.locator(".gameover").count()
    assert {"vote"} <= compared


def test_refusals_are_shown_in_plain_words(web_server, new_context) -> None:
    """A signed-in spectator is not offered the chat during a game, and is told why; a refused
    setting is named in the catalog's words, never in the server's English message."""
    host = web_server.session("Host")
    bots = {str(s): "random" for s in range(1, 5)}
    table = web_server.api("POST", "/api/tables", {"players": 5, "bots": bots}, token=host["token"])
    watcher = web_server.session("Watcher")
    ctx = new_context(width=390, height=844, token=watcher["token"])
    page = ctx.new_page()
    page.goto(f"{web_server.url}/#/t/{table['id']}")
    page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
    assert page.locator(".status-bar .spectating").count() == 1
    assert page.locator(".area-role").is_hidden()
    assert page.locator(".chat-form").is_hidden()
    assert page.locator(".chat-hint").inner_text() == "Spectators can read the chat but not write."
    # the engine refuses five Execution slots at five players (A12): in plain, translated words
    page.goto(f"{web_server.url}/#/")
    page.wait_for_selector("form.create")
    page.select_option("#players", "5")
    page.get_by_role("button", name="Change the rules").click()
    for i in range(5):
        page.select_option(f"#power-{i}", "execute")
    page.get_by_role("button", name="Create table").click()
    error = page.locator(".error").first
    error.wait_for(timeout=5000)
    assert error.inner_text() == "These rule settings are not valid. Check: Powers per slot."


UNLABELLED = """() => {
  const bad = [];
  for (const b of document.querySelectorAll('button, a[href]')) {
    const name = (b.getAttribute('aria-label') || b.textContent || b.title || '').trim();
    if (!name) bad.push(b.outerHTML.slice(0, 120));
  }
  for (const f of document.querySelectorAll('input:not([type=hidden]), select, textarea')) {
    const labelled = f.getAttribute('aria-label') || (f.id && document.querySelector(`label[for="${f.id}"]`))
      || f.closest('label');
    if (!labelled) bad.push(f.outerHTML.slice(0, 120));
  }
  for (const el of document.querySelectorAll('[onclick], div[role=button], span[role=button]')) bad.push(el.outerHTML.slice(0, 120));
  return bad;
}"""


def test_keyboard_and_screen_reader_basics(web_server, new_context) -> None:
    """Every control is a real button or field with a name; a vote can be cast with the keyboard."""
    ctx = new_context(width=390, height=844)
    page = ctx.new_page()
    frames = FrameLog(page)
    page.goto(web_server.url + "/")
    page.wait_for_selector("form.create")
    assert page.evaluate(UNLABELLED) == []
    page.fill("#name", "Kim")
    page.select_option("#players", "5")
    page.select_option("#bots", "4")
    page.locator("form.create button[type=submit]").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
    assert page.evaluate(UNLABELLED) == []
    rng = random.Random(5)
    for _ in range(400):
        if page.locator(".area-action .decision .btn-ja:not([disabled])").count():
            break
        if not act_once(page, rng):
            page.wait_for_timeout(30)
    ja = page.locator(".area-action .decision .btn-ja")
    ja.focus()
    page.keyboard.press("Shift+Tab")  # move with the keyboard, as a keyboard user would
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.classList.contains('btn-ja')")
    # the focus ring is visible
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    votes_before = sum('"type":"vote"' in f for f in frames.sent)
    page.keyboard.press("Enter")
    # the vote went out and the server accepted it (the next election may follow at once, so
    # the buttons are not a reliable sign)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        votes = [f for f in frames.sent if '"type":"vote"' in f]
        if len(votes) > votes_before:
            last_id = json.loads(votes[-1])["id"]
            # the page asks for its acks in the updates (docs/protocol.md 'hello'): the update
            # the vote caused carries its id, or an ack message does (an id too long to pad)
            if any(
                (m.get("type") == "ack" and m.get("id") == last_id)
                or (m.get("type") == "update" and m.get("ack") == last_id)
                for m in frames.messages
            ):
                break
        page.wait_for_timeout(30)
    else:
        raise AssertionError("the keyboard vote was not accepted")
    assert page.evaluate(UNLABELLED) == []


def test_invite_link_to_a_private_table(web_server, new_context) -> None:
    host = web_server.session("Ivy")
    table = web_server.api(
        "POST",
        "/api/tables",
        {"players": 5, "public": False, "bots": {"1": "random", "2": "random", "3": "random"}},
        token=host["token"],
    )
    # the host sees the invite link in the waiting room
    hctx = new_context(width=1366, height=768, token=host["token"])
    hp = hctx.new_page()
    hp.goto(f"{web_server.url}/#/t/{table['id']}")
    link = hp.locator("#invite-url").input_value()
    assert link.endswith(f"#/invite/{table['invite']}")
    # a guest follows it, gives a name and joins: the table fills up and the game starts
    ctx = new_context(width=390, height=844)
    page = ctx.new_page()
    page.goto(link)
    page.wait_for_selector(".invite-box .table-card")
    assert (
        page.locator(".tables-panel .table-card", has_text=table["id"]).count() == 0
    )  # not public
    page.fill("#name", "Guest")
    page.locator(".invite-box").get_by_role("button", name="Join").click()
    page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
    assert page.locator(".seat.mine .seat-name").inner_text() == "Guest"


def test_the_governments_memory_aid(web_server, new_context) -> None:
    """The governments list follows the public events: one row per nominated government, the
    vote counts of the `votes` events, the enacted policies, and claims under their government."""
    ctx = new_context(width=390, height=844)
    page = ctx.new_page()
    frames = FrameLog(page)
    page.goto(web_server.url + "/")
    page.fill("#name", "Mem")
    page.select_option("#players", "5")
    page.select_option("#bots", "4")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
    page.locator(".history summary").click()  # opened, and remembered
    play_until_over(page, random.Random(8))
    events = [
        e
        for m in frames.of_type("welcome", "update")
        for e in (
            (m.get("view") or {}).get("events") or []
            if m["type"] == "welcome"
            else m.get("events") or []
        )
    ]
    nominated = [e for e in events if e["type"] == "nominated"]
    votes = [e for e in events if e["type"] == "votes"]
    rows = page.locator(".history-row")
    assert rows.count() == len(nominated) >= 4
    for i, (n, v) in enumerate(zip(nominated, votes, strict=False)):
        row = rows.nth(i)
        names = page.locator(".seat .seat-name").all_inner_texts()
        assert (
            row.locator(".history-gov").inner_text()
            == f"{names[n['president']]} → {names[n['chancellor']]}"
        )
        assert row.locator(".history-vote").inner_text() == f"{v['ja']} Ja, {v['nein']} Nein"
    enacted = [e["policy"] for e in events if e["type"] == "enacted" and not e.get("chaos")]
    shown = page.locator(".history-row .result:not(.failed)").all_inner_texts()
    assert [s.split()[0].lower() for s in shown if "policy" in s] == enacted
    # every claim is listed under the government its claimer sat in, saying whose it is
    claims = [e for e in events if e["type"] == "claim"]
    assert page.locator(".history-claims li").count() == len(claims)
    names = page.locator(".seat .seat-name").all_inner_texts()
    for i, n in enumerate(nominated):
        whose = rows.nth(i).locator(".claim-who").all_inner_texts()
        offices = {f"President {names[n['president']]}:", f"Chancellor {names[n['chancellor']]}:"}
        assert set(whose) <= offices, (whose, offices)
    assert page.evaluate("localStorage.getItem('sh.history')") == "open"
    assert MISSING not in page.locator(".area-history").inner_text()


def test_an_enacted_policy_is_marked_once(web_server, new_context) -> None:
    """The slot a policy was just enacted into is marked (for its animation) on the render that
    shows it, and only that slot."""
    ctx = new_context(width=1366, height=768)
    page = ctx.new_page()
    page.goto(web_server.url + "/")
    page.evaluate(
        """() => { window.__marks = [];
          new MutationObserver(() => {
            for (const s of document.querySelectorAll('.slot.just-enacted')) {
              const track = s.closest('.track').classList.contains('track-liberal') ? 'liberal' : 'fascist';
              const slots = [...s.parentNode.children];
              const filled = slots.filter(x => x.classList.contains('filled')).length;
              window.__marks.push([track, slots.indexOf(s) + 1, filled]);
            }
          }).observe(document.body, {subtree: true, childList: true}); }"""
    )
    page.fill("#name", "Ena")
    page.select_option("#players", "5")
    page.select_option("#bots", "4")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_selector(".table-grid:not([hidden]) .board", timeout=20000)
    play_until_over(page, random.Random(12))
    marks = page.evaluate("window.__marks")
    assert marks, "no enactment was marked"
    assert all(slot == filled for _, slot, filled in marks), marks  # the newest slot only
    counts = [int(c.split("/")[0]) for c in page.locator(".track-count").all_inner_texts()]
    # every enactment was marked, on the render that showed it
    assert {(track, slot) for track, slot, _ in marks} == {
        *(("liberal", i) for i in range(1, counts[0] + 1)),
        *(("fascist", i) for i in range(1, counts[1] + 1)),
    }


def _at_vote(view: dict[str, Any]) -> bool:
    """Where the socket players stop: at their vote, which the test casts itself."""
    return bool(view["phase"] == "vote")


def test_the_vote_buttons_stay_while_the_others_vote(web_server, new_context) -> None:
    """Every update draws the table again; the decision it leaves as it was keeps its buttons, so
    another seat's vote arriving under a person's tap on Ja! does not take the button away."""
    ann = web_server.session("Ann")
    table = web_server.api("POST", "/api/tables", {"players": 5}, token=ann["token"])
    tid = table["id"]
    others = [web_server.session(f"Voter{i}")["token"] for i in range(1, 5)]
    for seat, token in enumerate(others, start=1):
        web_server.api("POST", f"/api/tables/{tid}/join", {"seat": seat}, token)
    page = new_context(width=390, height=844, token=ann["token"]).new_page()
    page.goto(f"{web_server.url}/#/t/{tid}")
    with contextlib.ExitStack() as stack:
        players = [stack.enter_context(SocketPlayer(web_server, t, tid)) for t in others]
        rng = random.Random(5)
        ja = page.locator(".area-action .decision [data-fkey=vote-ja]")
        deadline = time.monotonic() + 60
        while not ja.count():  # the president nominates (the page's person, or a socket's)
            assert time.monotonic() < deadline, "no vote came"
            act_once(page, rng, avoid="[data-fkey=vote-ja]")
            for p in players:
                try:
                    p.play(rng, _at_vote, timeout=0.3)
                except (AssertionError, TimeoutError):
                    pass
        button = ja.element_handle()
        voter = players[0]
        voter.play(rng, _at_vote, timeout=20)  # its vote is offered
        vote = next(a for a in voter.legal if a["type"] == "vote")
        voter.ws.send(json.dumps({"v": 1, "type": "action", "id": "v1", "action": vote}))
        page.locator(".vote-card.face-down").first.wait_for(timeout=15_000)  # the page heard it
        assert button.evaluate("b => b.isConnected")
        button.click()
        page.wait_for_function(
            "() => document.querySelectorAll('.vote-card.face-down').length >= 2", timeout=15_000
        )
