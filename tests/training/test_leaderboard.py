"""``fcm leaderboard``: a tiny leaderboard regenerates, parses, and resumes to the same table."""

from __future__ import annotations

import json

import pytest

from fcm_apps import cli
from fcm_training.common.leaderboard import LeaderboardConfig, logged_runs

AGENTS = "random,heuristic,search:iterations=2,horizon=0"


def _run(tmp_path, *extra: str) -> int:
    return cli.main(["leaderboard", "--agents", AGENTS, "--players", "2,3", "--games", "2", "--max-rounds", "3",
                     "--out", str(tmp_path / "games"), "--markdown", str(tmp_path / "lb.md"), "--no-progress", *extra])


def test_a_tiny_leaderboard_regenerates_and_parses(tmp_path, capsys):
    assert _run(tmp_path) == 0
    table = json.loads((tmp_path / "lb.json").read_text())
    # 2 players: the 3 pairs; 3 players: random and search against two heuristics, and three heuristics
    assert [t["lineup"] for t in table["tables"]] == [
        ["random", "heuristic"], ["random", "search:iterations=2,horizon=0"],
        ["heuristic", "search:iterations=2,horizon=0"],
        ["random", "heuristic", "heuristic"], ["search:iterations=2,horizon=0", "heuristic", "heuristic"],
        ["heuristic", "heuristic", "heuristic"]]
    assert [t["seed"] for t in table["tables"]] == [7_200_000, 7_201_000, 7_202_000, 7_300_000, 7_301_000, 7_302_000]
    two = {s["name"]: s for s in table["standings"]["2"]}
    assert set(two) == {"random", "heuristic", "search:iterations=2,horizon=0"}
    assert all(s["games"] == 4 for s in two.values())  # two tables of 2 games each
    markdown = (tmp_path / "lb.md").read_text()
    assert " (12 games in " in markdown and "1 worker(s))." in markdown
    assert "## 2 players" in markdown and "## 3 players" in markdown and "| `heuristic` |" in markdown
    assert len((tmp_path / "games" / "2p-0.jsonl").read_text().splitlines()) == 2


def test_an_interrupted_leaderboard_resumes_to_the_same_table(tmp_path):
    assert _run(tmp_path) == 0
    whole = json.loads((tmp_path / "lb.json").read_text())["standings"]
    games = tmp_path / "games" / "3p-1.jsonl"
    lines = games.read_text().splitlines()
    games.write_text(lines[1] + "\n")  # as if the run had stopped before game 0 of that table finished
    assert _run(tmp_path) == 0
    assert len(games.read_text().splitlines()) == 2  # only the missing game was played again
    assert json.loads((tmp_path / "lb.json").read_text())["standings"] == whole
    # the time it states is that of both runs: 12 games, then the 1 played again
    assert [r["games"] for r in logged_runs(tmp_path / "games")] == [12, 1]
    assert " (13 games in " in (tmp_path / "lb.md").read_text()
    assert "over 2 runs of the command" in (tmp_path / "lb.md").read_text()


def test_a_damaged_games_file_is_refused_by_name(tmp_path, capsys):
    assert _run(tmp_path) == 0
    (tmp_path / "games" / "2p-1.jsonl").write_text("{not json\n")
    assert _run(tmp_path) == 2
    assert "2p-1.jsonl:1: not a finished game" in capsys.readouterr().err


def test_bad_leaderboard_settings_are_named():
    with pytest.raises(ValueError, match="table sizes are 2 to 5"):
        LeaderboardConfig(sizes=(6,))
    with pytest.raises(ValueError, match="at least two different specs"):
        LeaderboardConfig(agents=("heuristic",))
    assert cli.main(["leaderboard", "--agents", "heuristic,nobody", "--games", "1"]) == 2


def test_a_table_played_on_two_machines_states_each_machines_time():
    from fcm_training.common.leaderboard import _time_text

    runs = [{"games": 600, "seconds": 1800.0, "workers": 2, "backend": "processes", "sizes": [2, 3],
             "machine": "AMD EPYC, 2 cores"},
            {"games": 400, "seconds": 540.0, "workers": 16, "backend": "processes", "sizes": [4, 5],
             "machine": "Intel Xeon, 16 cores"}]
    assert _time_text(runs) == (
        " (600 games (the 2, 3-player tables) in 30.0 minutes of wall time on AMD EPYC, 2 cores; 2 worker(s);"
        " 400 games (the 4, 5-player tables) in 9.0 minutes of wall time on Intel Xeon, 16 cores; 16 worker(s)).")
    # one machine, one run: no sizes named
    assert _time_text(runs[:1]) == " (600 games in 30.0 minutes of wall time on AMD EPYC, 2 cores; 2 worker(s))."


def test_a_run_killed_outright_keeps_its_time_up_to_its_last_game(tmp_path):
    import json as _json

    from fcm_training.common.leaderboard import LIVE_FILE, RunClock

    games = tmp_path / "games"
    clock = RunClock(games, 2, "processes", (2, 3))
    clock.game_done()
    clock.game_done()
    live = _json.loads((games / LIVE_FILE).read_text())
    assert live["games"] == 2 and live["workers"] == 2 and live["sizes"] == [2, 3]
    # the process dies here (no close): the next run keeps the dead one's line before playing
    assert _run(tmp_path) == 0
    runs = logged_runs(games)
    assert [(r["games"], r.get("cut_short", False)) for r in runs] == [(2, True), (12, False)]
    assert not (games / LIVE_FILE).exists()
    assert "(1 of them killed, timed to their last finished game)" in (tmp_path / "lb.md").read_text()


def _game(seed: int, agents: list[str], places: list[int]):
    from fcm_agents.match import MatchResult

    return MatchResult(seed=seed, num_players=len(agents), variant="standard", agents=agents,
                       winners=[places.index(1)], cash=[100 - 10 * p for p in places], ranks=places,
                       places=places, rounds=10, ended_by="bank", decisions=100, record=None)


def test_ratings_take_the_tables_game_by_game_not_table_by_table():
    """An online rating depends on game order. Table by table, the field's rating moves between the
    tables (up after beating random, down after losing to "b"), and an agent's rating depends on where
    its table stands in the list. Game g of every table, then game g + 1, spreads every agent's games
    alike."""
    from fcm_training.common.leaderboard import rating_order, standings

    def table(seed: int, agent: str, losses: set[int]) -> dict:
        return {g: _game(seed + g, [agent, "heuristic"], [2, 1] if g in losses else [1, 2]) for g in range(10)}

    # random loses every game; "b" beats the heuristic in 7 of 10 games, "a" in 8 of 10 (losses spread)
    tables = {(2, 0): table(200, "random", set(range(10))), (2, 1): table(100, "b", {1, 4, 7}),
              (2, 2): table(0, "a", {2, 8})}
    ordered = rating_order(tables, games=10)
    assert [r.seed for r in ordered[2][:4]] == [200, 100, 0, 201]
    assert len(ordered[2]) == 30
    assert [s.name for s in standings(ordered)[2]] == ["a", "b", "heuristic", "random"]
    # table by table, "b" meets a heuristic just raised by ten wins over random and is rated above "a"
    blocked = {2: [r for key in sorted(tables) for r in tables[key].values()]}
    assert [s.name for s in standings(blocked)[2]] == ["b", "a", "heuristic", "random"]


def test_larger_tables_play_their_own_game_count_and_either_engine_gives_the_same_table(tmp_path):
    for engine in ("python", "native"):
        out = tmp_path / engine
        assert cli.main(["leaderboard", "--agents", "random,heuristic,strategist", "--players", "2,3", "--games", "3",
                         "--games-multi", "2", "--max-rounds", "3", "--engine", engine, "--out", str(out / "games"),
                         "--markdown", str(out / "lb.md"), "--no-progress"]) == 0
    python, native = (json.loads((tmp_path / e / "lb.json").read_text()) for e in ("python", "native"))
    assert python["standings"] == native["standings"]
    assert python["config"]["multi_games"] == 2 and native["config"]["engine"] == "native"
    games = python["standings"]
    assert {s["name"]: s["games"] for s in games["2"]} == {"random": 6, "heuristic": 6, "strategist": 6}
    # 3 players: random and strategist against two heuristics, and three heuristics: 2 games a table
    assert {s["name"]: s["games"] for s in games["3"]} == {"random": 2, "strategist": 2, "heuristic": 6}
    for name in ("2p-0", "3p-0"):
        assert (tmp_path / "python" / "games" / f"{name}.jsonl").read_text() == \
            (tmp_path / "native" / "games" / f"{name}.jsonl").read_text()
