"""``secret-hitler arena`` end to end on the scripted chat server: games, records, report, resume."""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path

import pytest
from typer.testing import CliRunner

from chat_server import ChatServer
from secret_hitler import cli
from secret_hitler.engine import replay
from secret_hitler.llm.arena import ArenaConfig, read_results
from secret_hitler.llm.endpoints import PROMPT_VERSION

runner = CliRunner()


def _endpoints(tmp_path: Path, chat: ChatServer) -> Path:
    path = tmp_path / "endpoints.toml"
    path.write_text(
        f"""
[[endpoint]]
name = "scripted"
base_url = "{chat.url}"
model = "scripted-model"
timeout_s = 5.0
retries = 1
beliefs = true
price_in = 1.0
price_out = 2.0

[[endpoint]]
name = "russian"
base_url = "{chat.url}"
model = "russian-model"
language = "ru"
retries = 0
""",
        encoding="utf-8",
    )
    return path


def _arena(endpoints: Path, out: Path, *extra: str) -> list[str]:
    return [
        "arena",
        "--endpoints",
        str(endpoints),
        "--seats",
        "llm:scripted,llm:russian,rule,bayes,random",
        "--players",
        "5",
        "--games",
        "5",
        "--seed",
        "3",
        "--out",
        str(out),
        "--human-games",
        "1",
        *extra,
    ]


def test_the_arena_plays_reports_and_resumes(tmp_path: Path, chat: ChatServer) -> None:
    # Aimed at the scripted model: games run in parallel, so a shared script could go to either.
    chat.by_model["scripted-model"] = deque(["malformed", "500", "fence", "prose", "illegal"])
    endpoints = _endpoints(tmp_path, chat)
    out = tmp_path / "arena"
    result = runner.invoke(cli.app, [*_arena(endpoints, out), "--plot"])
    assert result.exit_code == 0, result.output
    lines = read_results(out / "results.jsonl")  # in the order the games finished
    assert sorted(line["key"] for line in lines) == [f"5p-{i:05d}" for i in range(5)]
    # Seats rotate over one deal: each level sits in every seat, the roles stay the deal's.
    assert {tuple(line["roles"]) for line in lines} == {tuple(lines[0]["roles"])}
    for s in range(5):
        assert {line["seats"][s] for line in lines} == {
            "llm:scripted",
            "llm:russian",
            "rule",
            "bayes",
            "random",
        }
    for line in lines:
        record = line["record"]
        assert replay(record).ok
        assert record["llm"]["prompt_versions"] == [PROMPT_VERSION]
        seats = record["llm"]["seats"]
        assert sorted(seats[s]["level"] for s in seats) == ["llm:russian", "llm:scripted"]
        for data in seats.values():
            assert (
                data["prompt"]["version"] == PROMPT_VERSION and len(data["prompt"]["digest"]) == 16
            )
            assert data["decisions"] and data["system"]
        russian = next(d for d in seats.values() if d["level"] == "llm:russian")
        assert "Тайный Гитлер" in russian["system"]
    report = json.loads((out / "report.json").read_text())
    assert report["games"] == 5 and report["prompt_versions"] == [PROMPT_VERSION]
    assert {p["level"] for p in report["participants"]} == {
        "llm:scripted",
        "llm:russian",
        "rule",
        "bayes",
        "random",
    }
    wins = report["wins"]["llm:scripted"]
    assert wins["all"]["n"] == 5 and 0 <= wins["all"]["ci95"][0] <= wins["all"]["ci95"][1] <= 1
    ratings = report["ratings"]
    assert ratings["rule"]["anchor"] and not ratings["llm:scripted"]["anchor"]
    answers = report["answers"]["llm:scripted"]
    assert answers["counts"]["failures"]  # the scripted bad answers were counted
    assert answers["per_game"]["dollars"] > 0
    assert report["deduction"]["llm:scripted"]["team_error"]["n"] > 0
    assert report["deduction"]["llm:scripted"]["bayes_team_error"]["n"] > 0
    assert "llm:russian" not in report["deduction"]  # not asked for beliefs
    assert set(report["deception"]) >= {"rule", "bayes"}
    votes = report["human_votes"]["llm:scripted"]
    assert votes["agreement"]["n"] > 0 and votes["games"] == 1
    assert (out / "wins.png").stat().st_size > 0 and (out / "ratings.png").stat().st_size > 0
    assert "llm:scripted" in result.output

    # An interruption: two games kept and a torn line. The rerun plays the three others only.
    raw = (out / "results.jsonl").read_bytes().splitlines(keepends=True)
    (out / "results.jsonl").write_bytes(b"".join(raw[:2]) + raw[2][:100])
    before = len(chat.requests)
    again = runner.invoke(cli.app, [*_arena(endpoints, out), "--json"])
    assert again.exit_code == 0, again.output
    resumed = read_results(out / "results.jsonl")
    assert resumed[:2] == lines[:2] and len(resumed) == 5
    assert sorted(line["key"] for line in resumed) == sorted(line["key"] for line in lines)
    assert len(chat.requests) > before  # the three games again (the vote figures are cached)
    assert json.loads(again.output)["games"] == 5

    # Other settings in the same folder are refused, changing nothing.
    other = runner.invoke(
        cli.app, [*_arena(endpoints, out)[:-2], "--human-games", "0", "--seed", "4"]
    )
    assert other.exit_code == 2 and "other settings" in other.output
    assert read_results(out / "results.jsonl") == resumed


def test_bad_arena_settings_are_refused_before_any_game(tmp_path: Path, chat: ChatServer) -> None:
    endpoints = _endpoints(tmp_path, chat)
    out = tmp_path / "a"
    cases = [
        (["--seats", "llm:nowhere,rule,rule,rule,rule"], "unknown bot 'llm:nowhere'"),
        (["--seats", "rule,rule"], "--seats names 2 seats: 5 players need 5"),
        (["--seats", "rule,rule,rule,rule,rule", "--rules", "nope"], "--rules"),
        (["--seats", "rule,rule,rule,rule,rule", "--players", "5,11"], "--players: 5 to 10"),
        (
            ["--seats", "rule,rule,rule,rule,rule", "--rules", '{"avalon": "merlin"}'],
            "these rules deal merlin at 5 players",
        ),
    ]
    for args, message in cases:
        result = runner.invoke(
            cli.app,
            ["arena", "--endpoints", str(endpoints), "--players", "5", "--out", str(out), *args],
        )
        assert result.exit_code == 2, result.output
        assert message in result.output
    assert not (out / "results.jsonl").exists()
    assert not chat.requests
    # a wrong endpoints file is said even when no seat needs it (a typo is not ignored)
    missing = tmp_path / "no-such-endpoints.toml"
    args = ["arena", "--endpoints", str(missing), "--seats", "rule,rule,rule,rule,rule"]
    result = runner.invoke(cli.app, [*args, "--players", "5", "--out", str(out)])
    assert result.exit_code == 2 and f"{missing}: no such file" in result.output
    assert not out.exists()


def test_a_prompt_version_that_cannot_describe_the_rules_is_refused(
    tmp_path: Path, chat: ChatServer
) -> None:
    """An endpoint on prompt v1 (written before secrethitler.io's game types) at a table that
    plays one is refused before any game, naming the endpoint and the settings; the game types
    that deal no new role play in the arena (no top-decking, rebalanced tables)."""
    path = tmp_path / "v1.toml"
    path.write_text(
        f'[[endpoint]]\nname = "old"\nbase_url = "{chat.url}"\nmodel = "m"\nprompt = "v1"\n',
        encoding="utf-8",
    )
    rules = '{"preset": "official", "top_decking": "forbidden"}'
    seats = "llm:old,rule,rule,rule,rule"
    args = ["arena", "--endpoints", str(path), "--seats", seats, "--players", "5"]
    result = runner.invoke(cli.app, [*args, "--rules", rules, "--out", str(tmp_path / "a")])
    assert result.exit_code == 2, result.output
    assert "endpoint 'old'" in result.output and "top_decking" in result.output
    assert not chat.requests and not (tmp_path / "a").exists()
    config = ArenaConfig(("rule",) * 7, (6, 7), games=2, rules={"rebalanced": [6, 7]})
    assert len(config.plan()) == 4


def test_the_plan_rotates_every_deal_through_every_seat() -> None:
    config = ArenaConfig(("a", "b", "c", "d", "e", "f", "g"), (5, 7), games=9, seed=2)
    plan = config.plan()
    assert len(plan) == 18
    five = [g for g in plan if g.players == 5]
    assert [g.deal for g in five] == [0] * 5 + [1] * 4
    assert five[1].seats == ("b", "c", "d", "e", "a") and five[0].seed == five[4].seed
    assert five[5].seed != five[0].seed


@pytest.mark.parametrize("jobs", [1, 2])
def test_bot_games_are_the_same_on_any_number_of_processes(tmp_path: Path, jobs: int) -> None:
    from secret_hitler.llm.arena import run_arena

    config = ArenaConfig(("rule", "random", "rule", "random", "rule"), (5,), games=6, seed=9)
    one = run_arena(config, tmp_path / "one", jobs=1)
    many = run_arena(config, tmp_path / f"many{jobs}", jobs=jobs)
    assert one == many
