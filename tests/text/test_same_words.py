"""One move, one wording: ``fcm play``, ``fcm web`` (play and replay) and ``fcm replay`` (``--list``,
``--events``) print the same words for the same action, because all of them call
``fcm_env.text.words`` (``action_text`` for a choice, ``move_text`` once it is made).

One seeded game (the heuristic against random, as tests/cli/test_cli_commands.py records it) is cut at
the first move of each kind checked: a reserve card (by its dollar value), a turn-order spot (1st,
2nd), a hire, a training and a card put to work. At that decision each front end renders the game and
the expected words must appear in what a person sees, in each one's own form.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from fcm_agents.match import play_game
from fcm_agents.registry import make_agent
from fcm_apps import cli
from fcm_apps.server import Session
from fcm_apps.terminal import TerminalGame
from fcm_apps.terminal.story import Narrator
from fcm_apps.web.replay import ReplayCursor
from fcm_apps.web.table import SAVE_FORMAT, PlayTable
from fcm_env.engine.actions import ActionKind
from fcm_env.engine.persistence.records import replay
from fcm_env.text.cards import choice_note, choice_tip
from fcm_env.text.sentences import cash_before
from fcm_env.text.words import action_text, move_now_text, pending_tile
from fcm_env.view import describe_action

ROOT = Path(__file__).resolve().parents[2]
KINDS = (ActionKind.CHOOSE_RESERVE, ActionKind.TURN_SPOT, ActionKind.RECRUIT, ActionKind.TRAIN,
         ActionKind.PUT_TO_WORK)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """The record, its file and, per action kind, the step of its first move and that move's words."""
    result = play_game([make_agent("heuristic", 1), make_agent("random", 2)], seed=5, max_rounds=5)
    record = result.record
    path = tmp_path_factory.mktemp("same") / "game.json"
    record.save(path)
    game, firsts = replay(record, upto=0), {}
    for step, action in enumerate(record.actions):
        if action.kind in KINDS and action.kind not in firsts:
            firsts[action.kind] = (step, move_now_text(action, game.state))
        game.apply(action)
    assert set(firsts) == set(KINDS), firsts  # the game has a move of every kind checked
    return record, path, firsts


def test_the_expected_words(recorded):
    _record, _path, firsts = recorded
    words = {kind: text for kind, (_step, text) in firsts.items()}
    assert re.fullmatch(r"keep the \$\d00 reserve card", words[ActionKind.CHOOSE_RESERVE])
    assert re.fullmatch(r"go (1st|2nd) in turn order", words[ActionKind.TURN_SPOT])
    assert re.fullmatch(r"hire an? [a-z ]+", words[ActionKind.RECRUIT])
    assert re.fullmatch(r"train an? [a-z ]+ into an? [a-z ]+ \(with an? [a-z ]+\)", words[ActionKind.TRAIN])
    assert re.fullmatch(r"put an? [a-z ]+ to work", words[ActionKind.PUT_TO_WORK])


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name.lower())
def test_the_terminal_prints_the_words_in_its_choice_list_and_its_story(recorded, kind):
    record, _path, firsts = recorded
    step, words = firsts[kind]
    game = replay(record, upto=step)
    game.record_events()
    player, action = game.current_player, record.actions[step]
    assert action_text(action, game.state, player, pending_tile(game.state)) == words  # the choice's words
    out = io.StringIO()
    bots = {p: make_agent("random", seed=p) for p in range(game.num_players) if p != player}
    session = TerminalGame(game, player, bots, ["human"] * game.num_players, io.StringIO(""), out)
    session._human_turn()
    note = choice_note(action)
    expected = words + (f" -- {note}" if note else "")
    assert any(re.fullmatch(rf"\s*\d+\) {re.escape(expected)}", line) for line in out.getvalue().splitlines()), \
        out.getvalue()
    game.apply(action)  # then the story tells it, in the second person
    story = Narrator(player, cash_before(game.events, [p.cash for p in game.state.players])).lines(game.events,
                                                                                                 game.state)
    assert f"  you: {words}" in story


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name.lower())
def test_the_web_table_prints_the_words_on_its_button_and_in_its_log(recorded, kind):
    record, _path, firsts = recorded
    step, words = firsts[kind]
    game = replay(record, upto=step)
    player, action = game.current_player, record.actions[step]
    document = record.to_dict()
    document.update(actions=document["actions"][:step], result=None)
    others = {str(p): "random" for p in range(record.num_players) if p != player}
    table = PlayTable.load(Session(make_agent), {"format": SAVE_FORMAT, "human": player, "bots": others,
                                                 "record": document, "state": {}})
    assert table.human == player
    button = next(a for a in table.message()["legal"] if a["id"] == describe_action(action)["id"])
    assert button["text"] == words  # table.js prints a button's "text" (capitalised)
    assert button.get("card") == choice_tip(action)  # and its tooltip: the cards it names
    log = [entry["text"] for entry in table.act(button["id"])["log"]]
    assert log[0] == f"you: {words}"


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name.lower())
def test_the_web_replay_prints_the_words_in_its_step_title_and_events(recorded, kind):
    record, _path, firsts = recorded
    step, words = firsts[kind]
    msg = ReplayCursor(record.to_dict(), "game.json").message(step + 1)
    assert msg["move"]["text"] == words  # table.js: "Step N: player P (decision): <text>"
    assert f"player {msg['move']['player']}: {words}" in [entry["text"] for entry in msg["events"]]


def test_fcm_replay_prints_the_words_in_list_and_events(recorded, capsys):
    record, path, firsts = recorded
    assert cli.main(["replay", str(path), "--list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert cli.main(["replay", str(path), "--events"]) == 0
    told = capsys.readouterr().out.splitlines()
    game = replay(record, upto=0)
    for step, action in enumerate(record.actions):
        for kind, (first, words) in firsts.items():
            if step == first:
                player = game.current_player
                assert listed[step].split()[0] == str(step) and listed[step].endswith(f"  {words}"), kind
                assert re.search(rf"\bplayer {player}\b", listed[step])
                assert f"  player {player}: {words}" in told, kind
        game.apply(action)


def test_the_page_renders_the_servers_words():
    """What table.js prints for a choice, a replayed step and a log heading is the server's text (the page
    is not run here; tests/web/test_web_browser.py clicks it in Chromium)."""
    script = (ROOT / "apps" / "web" / "static" / "table.js").read_text(encoding="utf-8")
    assert "return cap(action.text || words(action.label));" in script  # a choice's button
    assert "${msg.move.text || msg.move.label}" in script  # a replayed step's title
    assert "entry.heading ? cap(entry.heading)" in script  # the log's round and phase headings
    assert "if (action.card) attrs.title = action.card;" in script  # a choice's card tooltip
    assert 'title: cardText(key)' in script  # an employee chip's tooltip
    assert "keep reserve card" not in script and "P${" not in script.replace("`P${rest.owner}`", "")
