"""One event, one sentence, in every front end: ``fcm replay --events``, the terminal story (``fcm play``),
the web page's log and its replay tab all write the engine's events with ``fcm_env.text.sentences``.

One seeded game is played through the web table (``PlayTable``, seat 0 human, the heuristic in seat 1,
the moves ``tests/cli/test_cli_play.py`` makes), then told by each front end: the third person (nobody's
seat) must match word for word, the human's seat reads ``you`` in the terminal and on the page alike.
"""

from __future__ import annotations

import json

import pytest

from fcm_agents.registry import make_agent
from fcm_apps import cli
from fcm_apps.server import Session, bot_move
from fcm_apps.terminal.story import Narrator
from fcm_apps.web.replay import ReplayCursor
from fcm_apps.web.table import PlayTable
from fcm_env.data import MARKETING_TILES, CampaignType
from fcm_env.engine.events import visible
from fcm_env.engine.game import Game
from fcm_env.engine.persistence.records import new_recorded_game
from fcm_env.text import sentences as text_sentences
from fcm_env.text.sentences import EventWriter, cash_before, sentences

HUMAN = 0


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """The game (its event log), its record file and the web log lines the human's page received."""
    session = Session(make_agent)
    table = PlayTable.start(session, {"num_players": 2, "human": HUMAN, "bots": {"1": "heuristic"}, "seed": 4,
                                      "max_rounds": 6})
    msg, page = table.message(), []
    while msg["view"]["round"] < 4:
        page += msg["log"]
        legal = msg["legal"]
        first = msg["status"]["decision"] == "INITIAL_RESTAURANT" and all(a["kind"] != "PASS" for a in legal)
        pick = next(a for a in legal if a["params"] == {"row": 8, "col": 8, "orientation": 0}) if first else legal[0]
        msg = table.act(pick["id"])
    page += msg["log"]
    game = session.games[table.game].game
    path = tmp_path_factory.mktemp("record") / "game.json"
    path.write_text(json.dumps(session.handle({"cmd": "record", "game": table.game})["record"]))
    return game, path, page


def _replay_events(path, capsys) -> list[str]:
    assert cli.main(["replay", str(path), "--events"]) == 0
    return [line[2:] for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]


def _story(game) -> list[str]:
    """The terminal's sentence for each event the human may see, told event by event as ``fcm play`` does."""
    narrator = Narrator(HUMAN, cash_before(game.events, [p.cash for p in game.state.players]))
    told = []
    for e in game.events:
        lines = narrator.lines([e], game.state)
        if visible(e, HUMAN):
            told.append(lines[-1].removeprefix("  "))
    return told


def test_replay_events_the_story_and_the_web_log_tell_each_event_alike(played, capsys):
    game, path, page = played
    third = _replay_events(path, capsys)  # nobody's seat: third person for everyone
    assert len(third) == len(game.events)
    mine = [i for i, e in enumerate(game.events) if visible(e, HUMAN)]
    web = [entry["text"] for entry in page]
    assert [entry["index"] for entry in page] == list(range(len(mine)))
    assert web == _story(game)  # the human's seat: the page and the terminal say the same
    about_others = 0
    for text, i in zip(web, mine, strict=True):
        event = game.events[i]
        if event.get("player") != HUMAN and event["kind"] != "bank_break":
            assert text == third[i]  # another seat's event: word for word the replay's sentence
            about_others += 1
        else:  # the human's own: "you" on the page and in the terminal, "player 0" in the replay
            assert "you" in text and "player 0" not in text, text
            assert "player 0" in third[i] and "you" not in third[i], third[i]
    assert about_others > 10


def test_the_web_replay_tab_tells_the_record_as_fcm_replay_events_does(played, capsys):
    _game, path, _page = played
    cursor = ReplayCursor(json.loads(path.read_text()), "game.json")
    tab = [entry["text"] for step in range(1, cursor.total + 1) for entry in cursor.message(step)["events"]]
    assert tab == _replay_events(path, capsys)


def test_hand_checked_sentences(played, capsys):
    _game, path, page = played
    third = _replay_events(path, capsys)
    web = [entry["text"] for entry in page]
    # the milestone's printed name and its effect (milestones.json's card text)
    assert "player 1 claims a milestone: First burger produced (effect: +1 Burger Cook)" in third
    assert "player 1: hire a recruiting girl" in third  # a recruit action
    sale = ("house 13 eats at player 1: burger at $10 each (distance 0) + $5 bonus (First burger marketed) "
            "= $15 (+$15, now $15)")
    assert sale in third and sale in web
    assert "player 1 pays $5 in salaries (First billboard placed: marketeers unpaid) (-$5, now $10)" in web
    assert "you: keep the $100 reserve card" in web and "player 0: keep the $100 reserve card" in third
    assert "you work with: ceo" in web and "player 0 works with: ceo" in third
    assert "campaign #11 of player 1: house 13 +1 burger" in web


def test_second_person_forms_and_names():
    writer = EventWriter([10, 20], viewer=1, names=["Ann", "Bob"])
    salaries = {"kind": "salaries", "round": 3, "phase": "payday", "visible_to": None, "player": 1, "due": 15,
                "paid": 10, "cash": -10}
    demand = {"kind": "demand", "round": 3, "phase": "marketing", "visible_to": None, "player": 1, "campaign": 7,
              "product": "pizza", "houses": {}}
    milestone = {"kind": "milestone", "round": 3, "phase": "working", "visible_to": None, "player": 0,
                 "milestone": "first_have_20"}
    board = Game.new(2, seed=0).state.board
    assert writer.sentence(salaries, board) == "you pay $10 in salaries ($15 due: could not pay it all) " \
                                               "(-$10, you have $10)"
    assert writer.sentence(demand, board) == "your campaign #7: no house in reach has room"
    assert writer.sentence(milestone, board) == ("Ann claims a milestone: First to have $20 "
                                                 "(effect: May see bank reserve cards)")
    assert writer.secret(0, "restructure") == "Ann: chooses in secret (restructure)"


def _event(kind: str, player: int = 0, round_: int = 3, **fields) -> dict:
    return {"kind": kind, "round": round_, "phase": "dinnertime", "visible_to": None, "player": player, **fields}


def test_milestone_effects_are_named_when_they_act():
    # player 0 holds four milestones from the start (First to have $100 since an earlier round);
    # player 1 claims First waitress played in round 3, and its tips say so at once
    held = {0: ["first_lower_prices", "first_train", "first_have_100", "first_radio"]}
    writer = EventWriter([50, 0], viewer=0, milestones=held)
    board = Game.new(2, seed=0).state.board
    sale = _event("sale", house=4, items=["pizza", "beer"], unit_price=9, garden=False, distance=2, bonus=0,
                  amount=18, cash=18, bankrupt=False)
    assert writer.sentence(sale, board) == ("house 4 eats at you: pizza, beer at $9 each (First to lower prices: "
                                            "$1 less) (distance 2) = $18 (+$18, you have $68)")
    assert writer.sentence(_event("milestone", 1, milestone="first_waitress"), board) == (
        "player 1 claims a milestone: First waitress played (effect: Each Waitress +$2 ($5 total))")
    assert writer.sentence(_event("tips", 1, waitresses=2, amount=10, cash=10), board) == (
        "player 1: 2 waitress(es) earn $10 in tips ($5 each: First waitress played) (+$10, now $10)")
    assert writer.sentence(_event("cfo_bonus", income=18, amount=9, cash=9), board) == (
        "you: the CFO share of $18 income is $9 (the CEO acts as CFO: First to have $100) (+$9, you have $77)")
    assert writer.sentence(_event("salaries", due=5, paid=5, cash=-5), board) == (
        "you pay $5 in salaries (First to train someone: $15 off) (-$5, you have $72)")
    radio = next(t.number for t in MARKETING_TILES if t.type == CampaignType.RADIO)
    demand = _event("demand", campaign=radio, product="beer", houses={"4": 2})
    assert writer.sentence(demand, board) == (f"your campaign #{radio}: house 4 +2 beer (First radio campaign: "
                                              "2 each)")


def test_your_milestone_is_told_with_its_whole_effect():
    narrator = Narrator(0, [0, 0])
    game = Game.new(2, seed=0)
    lines = narrator.lines([_event("milestone", 0, milestone="first_train")], game.state)
    assert lines[1:] == [
        "  you claim a milestone: First to train someone (effect: $15 discount on salaries)",
        "    what it does: Pay $15 less in total salaries every Payday (total cannot go below $0; mandatory).",
    ]


def test_every_event_of_a_whole_game_has_its_own_words(monkeypatch):
    def unknown(event, who):
        raise AssertionError(f"no words for {event['kind']} events")

    monkeypatch.setattr(text_sentences, "_unknown", unknown)  # the fallback for kinds it does not know
    game = new_recorded_game(3, seed=2)
    game.record_events()
    bots = [make_agent("heuristic", seed=p) for p in range(3)]
    while not game.is_over:
        game.apply(bot_move(bots[game.current_player], game, game.current_player))
    told = sentences(game.events, game.state)
    assert len(told) == len(game.events)
    kinds = {e["kind"] for e in game.events}
    assert {"action", "sale", "tips", "milestone", "demand", "salaries", "bank_break", "structure_revealed",
            "freezer", "thrown_away"} <= kinds, kinds
    assert "the bank breaks for the second time: the game ends after this dinnertime" in told


def test_the_reveal_of_your_own_firing_only_repeats_your_fire_moves():
    from fcm_env.text.sentences import repeats_own_moves

    fired = _event("fired", player=1, cards={"waitress": 1})
    assert repeats_own_moves(fired, viewer=1)  # told to player 1: its fire move said it already
    assert not repeats_own_moves(fired, viewer=0)  # another seat learns it here
    assert not repeats_own_moves(fired, viewer=None)  # a replay keeps the moment every firing opens
    assert not repeats_own_moves(_event("salaries", player=1, due=5, paid=5, cash=-5), viewer=1)
