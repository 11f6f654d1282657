"""`secret-hitler replay` as a subprocess: JSON lines, exit codes, --view, malformed files."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from engine_helpers import F, L, elect, fail, govern, make_roles, new_game, random_action

from secret_hitler.engine import Action, Game

SUMMARY_FIELDS = [
    "file",
    "ok",
    "applied",
    "error",
    "finished",
    "winner",
    "reason",
    "winners",
    "assassination",
    "liberal_policies",
    "fascist_policies",
    "election_tracker",
    "draw_pile",
    "discard_pile",
    "alive",
    "president",
    "chancellor",
    "next",
]


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "secret_hitler.cli", "replay", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def write(tmp_path: Path, name: str, data: object) -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def finished_game(seed: int = 7) -> Game:
    game = Game(7, "official", seed)
    rng = random.Random(seed)
    while not game.finished:
        game.apply(random_action(game, rng, claim_prob=0.2))
    return game


def in_progress_game() -> Game:
    game = new_game(
        7, {"preset": "official", "start_track": {"liberal": 0, "fascist": 3}}, top="FFF"
    )
    govern(game, 2, F)
    game.apply(Action.execute(0, 5))
    fail(game)
    game.apply(Action.nominate(2, 3))
    game.apply(Action.vote(4, True))
    return game


def test_replay_json_for_ok_records(tmp_path):
    done, going = finished_game(), in_progress_game()
    a = write(tmp_path, "done.json", done.to_record())
    b = write(tmp_path, "going.json", going.to_record())
    proc = run(a, b, "--json")
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(lines) == 2
    for line in lines:
        assert list(line) == SUMMARY_FIELDS
        assert line["ok"] is True and line["error"] is None
    first, second = lines
    assert first["file"] == str(a)
    assert first["applied"] == len(done.actions)
    assert first["finished"] is True and first["next"] is None
    assert (first["winner"], first["reason"]) == (done.winner.value, done.reason.value)
    assert first["alive"] == done.alive
    assert second == {
        "file": str(b),
        "ok": True,
        "applied": len(going.actions),
        "error": None,
        "finished": False,
        "winner": None,
        "reason": None,
        "winners": None,
        "assassination": None,
        "liberal_policies": 0,
        "fascist_policies": 4,
        "election_tracker": 1,
        "draw_pile": 14,
        "discard_pile": 2,
        "alive": [True, True, True, True, True, False, True],
        "president": 0,
        "chancellor": 2,
        "next": {"phase": "vote", "seats": [0, 1, 2, 3, 6]},
    }


#: Every secrethitler.io game type at once (docs/game-types.md): seed 4 of rule bots ends with
#: Hitler (seat 4) executed, then assassinating seat 0, a plain liberal; the Monarchist (seat 5)
#: wins with the liberals.
GAME_TYPES = {
    "preset": "secrethitler-io",
    "avalon": "percival",
    "monarchist": True,
    "rebalanced": [7],
    "top_decking": "not_twice",
}


def game_type_game(seed: int = 4) -> Game:
    from secret_hitler.bots.base import make_agent

    game = Game(7, GAME_TYPES, seed=seed)
    agents = [make_agent("rule", s, s) for s in range(7)]
    while not game.finished:
        seat = game.to_act()[0]
        legal = [a for a in game.legal_actions(seat) if a.type != "claim"]
        game.apply(agents[seat].act(game.view(seat), legal))
    return game


def test_replay_of_every_game_type(tmp_path):
    """A record of Avalon SH with Percival and the Monarchist, rebalanced, without double
    top-decking replays: the line says whom Hitler assassinated and who won (the Monarchist
    with the liberals); a record whose winners are not the game's is a result mismatch."""
    game = game_type_game()
    record = game.to_record()
    assert record["result"]["winners"] == [0, 1, 2, 3, 5]
    path = write(tmp_path, "types.json", record)
    proc = run(path, "--json")
    assert proc.returncode == 0, proc.stderr
    line = json.loads(proc.stdout)
    assert line["ok"] is True and (line["winner"], line["reason"]) == ("liberal", "hitler_executed")
    assert line["winners"] == [0, 1, 2, 3, 5]
    assert line["assassination"] == {"hitler": 4, "trigger": "hitler_executed", "target": 0}
    text = run(path).stdout
    assert "liberal win (hitler_executed); Hitler (seat 4) assassinated seat 0, liberal;" in text
    assert "won: seats 0, 1, 2, 3, 5;" in text
    record["result"]["winners"] = [0, 1, 2, 3]
    wrong = run(write(tmp_path, "wrong.json", record), "--json")
    assert wrong.returncode == 1
    assert json.loads(wrong.stdout)["error"]["code"] == "result_mismatch"


def test_replay_view_of_a_game_type_seat(tmp_path):
    """--view shows what each role of a game type knows: Percival his pair, Merlin the
    fascists by party, and every role at the end."""
    record = game_type_game().to_record()
    cut = dict(record, actions=record["actions"][:10])
    cut.pop("result")
    path = write(tmp_path, "cut.json", cut)
    roles = record["roles"]
    percival, merlin = roles.index("percival"), roles.index("merlin")
    seen = json.loads(run(path, "--view", str(percival), "--json").stdout)
    assert seen["role"] == "percival"
    assert sorted(seen["merlin_candidates"]) == sorted([merlin, roles.index("morgana")])
    seen = json.loads(run(path, "--view", str(merlin), "--json").stdout)
    fascist_party = [s for s, r in enumerate(roles) if r in ("hitler", "morgana", "monarchist")]
    assert [s for s, p in enumerate(seen["known_parties"]) if p == "fascist"] == fascist_party
    assert seen["known_roles"] == [r if s == merlin else None for s, r in enumerate(roles)]
    spectator = json.loads(run(path, "--view", "spectator", "--json").stdout)
    assert spectator["composition"] == {
        "hitler": 1,
        "morgana": 1,
        "monarchist": 1,
        "merlin": 1,
        "percival": 1,
        "liberal": 2,
    }
    assert spectator["known_roles"] == [None] * 7


def test_replay_text_output(tmp_path):
    path = write(tmp_path, "done.json", finished_game().to_record())
    proc = run(path)
    assert proc.returncode == 0
    assert str(path) in proc.stdout and "ok" in proc.stdout


def test_replay_illegal_action_and_result_mismatch_exit_1(tmp_path):
    game = finished_game()
    good = write(tmp_path, "good.json", game.to_record())
    record = game.to_record()
    record["actions"].insert(3, {"seat": 0, "type": "execute", "target": 1})
    illegal = write(tmp_path, "illegal.json", record)
    record = game.to_record()
    record["result"] = {"winner": "liberal" if game.winner.value == "fascist" else "fascist"}
    mismatch = write(tmp_path, "mismatch.json", record)
    proc = run(good, illegal, mismatch, "--json")
    assert proc.returncode == 1, proc.stderr
    ok, bad, wrong = (json.loads(line) for line in proc.stdout.splitlines())
    assert ok["ok"] is True
    assert bad["ok"] is False and bad["applied"] == 3
    assert set(bad["error"]) == {"index", "code", "message"}
    assert bad["error"]["index"] == 3 and bad["error"]["code"] == "wrong_phase"
    assert bad["finished"] is False and bad["next"] is not None
    assert wrong["ok"] is False and wrong["error"]["code"] == "result_mismatch"
    assert wrong["error"]["index"] == len(game.actions) == wrong["applied"]


@pytest.mark.parametrize(
    ("content", "field"),
    [
        ("{not json", "JSON"),
        ({"players": "seven", "seed": 1}, "players"),
        ({"players": 7, "seed": 1, "rules": "chess"}, "rules"),
        ({"players": 7, "seed": 1, "roles": ["liberal"] * 7}, "roles"),
        ({"players": 7, "seed": 1, "roles": "hitler"}, "roles"),
        ({"players": 7, "seed": "x"}, "seed"),
        ({"players": 7, "seed": 1, "actions": [{"seat": 0, "type": "fly"}]}, "actions[0]"),
        ([1, 2, 3], "record"),
    ],
)
def test_replay_malformed_file_exit_2_with_a_clear_message(tmp_path, content, field):
    good = write(tmp_path, "good.json", finished_game().to_record())
    bad = write(tmp_path, "bad.json", content)
    proc = run(good, bad, "--json")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr + proc.stdout
    assert str(bad) in proc.stderr and field in proc.stderr
    assert len(proc.stdout.splitlines()) == 1  # the good file is still reported


def test_replay_missing_file_exit_2(tmp_path):
    proc = run(tmp_path / "nope.json")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "nope.json" in proc.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xd0\x00\xff binary", "not a UTF-8 text file"),
        (b"\x1f\x8b\x08 cut short", "a damaged gzip file"),
        (None, "is a directory"),
    ],
)
def test_replay_unreadable_file_exit_2_with_a_clear_message(tmp_path, content, message):
    bad = tmp_path / "bad.json"
    if content is None:
        bad.mkdir()
    else:
        bad.write_bytes(content)
    proc = run(bad)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert str(bad) in proc.stderr and message in proc.stderr


def test_replay_reads_a_gzip_record(tmp_path):
    import gzip

    record = finished_game().to_record()
    path = tmp_path / "game.json.gz"
    path.write_bytes(gzip.compress(json.dumps(record).encode()))
    proc = run(path, "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["ok"] is True


def test_replay_record_with_a_wrong_reshuffle_is_an_invalid_file(tmp_path):
    game = finished_game(seed=2)
    while not game.reshuffles:
        game = finished_game(seed=game.seed + 1)
    record = game.to_record()
    pile = record["reshuffles"][0]
    record["reshuffles"][0] = pile[:-1] + [L if pile[-1] == F else F]
    path = write(tmp_path, "reshuffle.json", record)
    proc = run(path, "--json")
    assert proc.returncode == 2, proc.stdout
    assert "reshuffles[0]" in proc.stderr and "Traceback" not in proc.stderr


def test_replay_view_of_a_seat_and_of_a_spectator(tmp_path):
    going = in_progress_game()
    done = finished_game()
    a = write(tmp_path, "going.json", going.to_record())
    b = write(tmp_path, "done.json", done.to_record())
    for seat, arg in ((4, "4"), (None, "spectator")):
        proc = run(a, b, "--json", "--view", arg)
        assert proc.returncode == 0, proc.stderr
        first, second = (json.loads(line) for line in proc.stdout.splitlines())
        assert first == going.view(seat).to_json()
        assert second == done.view(seat).to_json()
        assert second["known_roles"] == [r.value for r in done.roles]  # W2
    proc = run(a, "--view", "4")  # pretty printed without --json
    assert proc.returncode == 0 and json.loads(proc.stdout) == going.view(4).to_json()


@pytest.mark.parametrize("arg", ["7", "someone"])
def test_replay_view_of_a_seat_not_at_the_table(tmp_path, arg):
    path = write(tmp_path, "going.json", in_progress_game().to_record())
    proc = run(path, "--view", arg)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr


def _story(roles: list[str], top: str) -> Game:
    game = new_game(7, roles=roles, top=top)
    govern(game, 2, L)
    fail(game, 3)
    elect(game, 3)
    game.apply(Action.discard(game.president, F))
    game.apply(Action.enact(3, L))
    game.apply(Action.claim_policies(2, "president_hand", [L, F, F]))
    return game


def test_replay_view_depends_only_on_what_the_seat_has_seen(tmp_path):
    # Seat 0 (Liberal) saw its own hand in round 1 but neither the other roles nor the
    # order of the hand drawn in round 3 nor the undrawn policies.
    a = _story(make_roles(7, hitler=6, fascists=(4, 5)), "LLF LLF FFLL")
    b = _story(make_roles(7, hitler=3, fascists=(1, 5)), "LLF FLL LFLF")
    pa = write(tmp_path, "a.json", a.to_record())
    pb = write(tmp_path, "b.json", b.to_record())
    assert pa.read_text() != pb.read_text()
    for arg in ("0", "spectator"):
        out_a, out_b = run(pa, "--json", "--view", arg), run(pb, "--json", "--view", arg)
        assert out_a.returncode == out_b.returncode == 0
        assert out_a.stdout == out_b.stdout
    # Seat 2 drew the reordered hand and seat 4 changed role: both can tell.
    for arg in ("2", "4"):
        assert run(pa, "--json", "--view", arg).stdout != run(pb, "--json", "--view", arg).stdout
