"""``fcm play`` in a real pseudo-terminal (pexpect): three rounds answered at the prompt, a first
restaurant placed by coordinate, the Dinnertime and Payday story printed with cash that matches the
game, Ctrl-C saving the record, and ``--resume`` going on from it."""

from __future__ import annotations

import re
import sys

import pytest
from cli_helpers import ROOT, fcm_env_vars

from fcm_env.engine.persistence.records import GameRecord, replay

pexpect = pytest.importorskip("pexpect")

PROMPT = re.compile(r"your choice \(1-\d+[^)]*\): |\? \[y/n\]: ")
HINT = re.compile(r"e\.g\. (\d+ \d+ \w+)")
MONEY = re.compile(r"^  (?:house \d+.*? eats at )?(you|player \d)\b.*\(([+-]\$\d+), (?:now|you have) \$(\d+)\)\s*$", re.MULTILINE)
SEED = 4


def _spawn(*args: str, plain: bool = True) -> pexpect.spawn:
    """``fcm play ARGS`` in a pty; ``plain``: the prompt is read with input() (readline), whose output
    the regular expressions here can follow (prompt_toolkit redraws the line with escape codes)."""
    env = fcm_env_vars()
    env["FCM_PLAIN_INPUT"] = "1" if plain else "0"
    return pexpect.spawn(sys.executable, ["-m", "fcm_apps", "play", *args], cwd=str(ROOT), env=env,
                         encoding="utf-8", timeout=60, dimensions=(50, 200))  # a hang check


def _answer_until(child: pexpect.spawn, stop: str) -> str:
    """Answer every prompt (placements by the coordinate the hint suggests, else choice 1) until ``stop``
    has been printed; returns everything read."""
    seen = ""
    placed = False
    while stop not in seen:
        child.expect(PROMPT)
        seen += child.before + child.after
        if child.after.endswith("[y/n]: "):
            child.sendline("y")
            continue
        hint = HINT.findall(child.before)
        if hint and "place your first restaurant" in child.before and not placed:
            child.sendline(hint[-1])  # by coordinate, e.g. "5 0 ne"
            placed = True
        else:
            child.sendline("1")
    return seen


def test_three_rounds_at_the_prompt_then_ctrl_c_saves_and_resume_continues(tmp_path):
    path = tmp_path / "game.json"
    child = _spawn("--players", "2", "--seat", "0", "--opponents", "heuristic", "--seed", str(SEED),
                   "--max-rounds", "6", "--save-record", str(path))
    seen = _answer_until(child, "== round 4:")
    child.expect(PROMPT)
    seen += child.before
    child.sendintr()  # Ctrl-C at the prompt
    child.expect(pexpect.EOF)
    seen += child.before
    child.close()
    assert child.exitstatus == 130, seen[-2000:]
    assert "interrupted (Ctrl-C)" in seen
    assert f"record of the unfinished game saved to {path}" in seen
    assert f"continue it with: fcm play --resume {path}" in seen

    # the coordinate typed was previewed, confirmed and placed
    typed = re.search(r"your choice \([^)]*\): (\d+) (\d+) (nw|ne|se|sw)\r?\n", seen)
    assert typed, "no placement by coordinate was typed"
    row, col = typed.group(1), typed.group(2)
    assert f"you: place a restaurant at ({row},{col})" in seen
    assert "*E*" in seen  # the footprint preview marks the entrance

    # the story between decisions: Dinnertime sales and Payday salaries, under their headings
    assert "== round 3: phase 4: dinnertime ==" in seen
    assert re.search(r"house \d+ .*eats at player 1: .* = \$\d+", seen)
    assert re.search(r"player 1 pays \$\d+ in salaries", seen)

    # every cash change printed adds up, and the last cash printed is the game's
    record = GameRecord.load(path)
    game = replay(record)
    assert record.result is None and game.state.round == 4
    last: dict[str, int] = {}
    for who, delta, after in MONEY.findall(seen):
        sign = 1 if delta[0] == "+" else -1
        assert int(after) == last.get(who, 0) + sign * int(delta[2:]), (who, delta, after)
        last[who] = int(after)
    assert last["player 1"] == game.state.players[1].cash > 0
    assert last.get("you", 0) == game.state.players[0].cash
    assert "(cash of" not in seen  # the guard line never fired: events explained everything

    # --resume replays the record, bots in their seats, and play goes on from there
    child = _spawn("--resume", str(path))
    child.expect(r"resumed .*: (\d+) actions replayed \(round 4")
    assert int(child.match.group(1)) == len(record.actions)
    for _ in range(3):
        child.expect(PROMPT)
        child.sendline("1")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    longer = GameRecord.load(path)
    assert len(longer.actions) > len(record.actions) and longer.actions[:len(record.actions)] == record.actions
    assert longer.agents == ["human", "heuristic"]


def test_the_prompt_edits_lines_and_recalls_history(tmp_path):
    pytest.importorskip("prompt_toolkit")
    child = _spawn("--players", "2", "--seed", str(SEED), "--max-rounds", "2", "--save-record", str(tmp_path / "g.json"),
                   plain=False)  # the record goes to tmp_path, not runs/ in the checkout
    child.expect("your choice")
    child.send("s\r")  # status
    child.expect(r"you, \d\w\w in turn order")
    child.expect("your choice")
    child.send("\x1b[A\r")  # arrow up: the last line again (s), then Enter
    child.expect(r"you, \d\w\w in turn order")
    child.expect("your choice")
    child.send("qx\x7f\r")  # "qx", backspace: "q"
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert "quit: the game is unfinished" in child.before
