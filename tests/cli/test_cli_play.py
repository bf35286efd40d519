"""``fcm play`` (fcm_apps.terminal): the story between decisions, names instead of numbers, placements
by coordinate with a preview, the end message per variant and cause, records saved on every exit.

The formatting functions are checked with exact strings on a seeded game (player 0 passes, the
heuristic plays seat 1); the whole command runs with scripted stdin. The pseudo-terminal test
(Ctrl-C, --resume) is tests/cli/test_terminal_pty.py."""

from __future__ import annotations

import io
import json
import re

import pytest
from cli_helpers import run_fcm

from fcm_agents.registry import make_agent
from fcm_apps import cli
from fcm_apps.server import bot_move
from fcm_apps.terminal.board import board_text, preview_text
from fcm_apps.terminal.game import TerminalGame
from fcm_apps.terminal.prompt import parse_coordinate
from fcm_apps.terminal.story import Narrator, end_lines
from fcm_env.data import EmployeeType
from fcm_env.engine.actions import Action, ActionKind, Decision
from fcm_env.engine.board.placement import restaurant_entrance
from fcm_env.engine.game import Game
from fcm_env.engine.persistence.records import GameRecord, new_recorded_game, replay
from fcm_env.text.context import company_text, context_text
from fcm_env.text.explain import placement_refusal
from fcm_env.text.words import action_text
from fcm_env.view import view

# a few bad answers and commands first, then always the first choice, confirming placements
SCRIPT = "x\n0\n999\n\n?\nb\nl\ns\n" + "1\ny\n" * 1500


def seeded_game(stop=lambda game: game.state.round >= 4) -> Game:
    """Seed 4, two players: player 0 passes (placing its first restaurant at (8,8) when it must),
    the heuristic (seeded as ``fcm play`` seeds seat 1) plays player 1; events logged."""
    game = new_recorded_game(2, seed=4, max_rounds=6)
    game.record_events()
    bot = make_agent("heuristic", seed=41)
    while not stop(game):
        if game.current_player == 1:
            game.apply(bot_move(bot, game, 1))
            continue
        legal = game.legal_actions()
        first = game.pending.decision == Decision.INITIAL_RESTAURANT and Action.pass_() not in legal
        game.apply(Action.place_restaurant(8, 8, 0) if first else legal[0])
    return game


def bot_game(variant: str, seed: int = 0) -> Game:
    game = new_recorded_game(2, seed=seed, variant=variant)
    game.record_events()
    bots = [make_agent("heuristic", seed=p) for p in range(2)]
    while not game.is_over:
        game.apply(bot_move(bots[game.current_player], game, game.current_player))
    return game


# ------------------------------------------------------------------ the story


def test_dinnertime_and_payday_are_told_with_the_cash_after_each_change():
    game = seeded_game()
    lines = Narrator(0, [0, 0]).lines(game.events, game.state)
    start = lines.index("== round 3: phase 4: dinnertime ==")
    assert lines[start:] == [
        "== round 3: phase 4: dinnertime ==",
        ("  house 13 eats at player 1: burger at $10 each (distance 0) + $5 bonus (First burger marketed) = $15 "
         "(+$15, now $15)"),
        "== round 3: phase 5: payday ==",
        "  player 1: chooses in secret (fire)",
        "  player 1 pays $5 in salaries (First billboard placed: marketeers unpaid) (-$5, now $10)",
        "== round 3: phase 6: marketing campaigns ==",
        "  campaign #11 of player 1: house 13 +1 burger",
    ]
    assert game.state.players[1].cash == 10  # what the last money line says


def test_moves_are_told_in_words_and_secret_choices_stay_secret():
    game = seeded_game()
    mine = Narrator(0, [0, 0]).lines(game.events, game.state)
    assert mine[:7] == [
        "== setup: first restaurants ==",
        "  player 1: place a restaurant at (4,10), entrance SE on (5,11)",
        "  you: pass",
        "  you: place a restaurant at (8,8), entrance NW on (8,8)",
        "== setup: reserve cards ==",
        "  you: keep the $100 reserve card",
        "  player 1: chooses in secret (reserve card)",
    ]
    assert "  player 1: use campaign tile #11 billboard 2x3" in mine
    assert "  player 1 works with: ceo, marketing trainee" in mine  # the structure, once revealed
    theirs = Narrator(1, [0, 0]).lines(game.events, game.state)
    assert "  player 0: chooses in secret (reserve card)" in theirs
    assert not any("player 0: keep the $" in line for line in theirs)
    assert any(line.startswith("  you: keep the $") for line in theirs)  # player 1's own choice


def test_turn_order_labels_say_what_happens():
    game = seeded_game(stop=lambda g: g.pending.decision == Decision.TURN_ORDER and g.current_player == 0)
    spots = game.legal_actions()
    assert [action_text(a, game.state, 0) for a in spots] == ["go 1st in turn order", "go 2nd in turn order"]
    for place, action in enumerate(spots, start=1):
        after = game.clone()
        after.apply(action)
        assert after.state.turn_order.index(0) == place - 1  # "go 1st" puts player 0 first


def test_context_is_named_not_numbered():
    state = Game.new(2, seed=4).state
    marketeer = int(EmployeeType.MARKETING_TRAINEE)
    assert context_text(Decision.CAMPAIGN_PLACE, {"marketeer": marketeer, "tile": 11}, state, 0) == (
        "marketeer: marketing trainee; tile #11 billboard 2x3"
    )
    fields = {"marketeer": marketeer, "tile": 11, "row": 8, "col": 13, "orientation": 1, "product": 0}
    assert context_text(Decision.CAMPAIGN_DURATION, fields, state, 0) == (
        "marketeer: marketing trainee; tile #11 billboard 2x3; placed at (8,13) rotated; advertising burger"
    )
    local = int(EmployeeType.LOCAL_MANAGER)
    assert context_text(Decision.RESTAURANT_PLACE, {"manager": local, "restaurant": 0}, state, 0) == (
        "Open a new restaurant with the local manager"
    )
    assert action_text(Action.recruit(EmployeeType.ERRAND_BOY), state, 0) == "hire an errand boy"


def test_cards_marked_for_firing_are_gone_from_their_owner_but_secret_to_the_others():
    game, player = _at_a_firing()
    before = company_text(view(game, player)["players"][player])
    assert before == "$0 | hand: - | at work: ceo | beach: marketing trainee | stock: -"
    game.apply(Action.fire(EmployeeType.MARKETING_TRAINEE))
    assert company_text(view(game, player)["players"][player]) == (
        "$0 | hand: - | at work: ceo | beach: - | stock: - | to be fired: marketing trainee"
    )
    assert company_text(view(game, 1 - player)["players"][player]) == before  # face down to the other


# ------------------------------------------------------------------ the map and placements


def test_the_board_keeps_house_numbers_apart_from_restaurants():
    lines = board_text(seeded_game().state).splitlines()
    assert lines[0] == "      0  1  2  3  4   5  6  7  8  9  10 11 12 13 14"
    assert lines[6:13] == [
        "  4 | .  . #########|######### .  . |[1][1]### .  . |",
        "    +---------------+---------------+---------------+",
        "  5 | .  . ### .  . | .  . ### .  . |[1]<1>### .  . |",
        "  6 | .  . ### s  . | .  . ### .  b | .  . ### .  . |",
        "  7 |###############|######=X=######|###############|",
        "  8 | .  . ### .  . | .  . ###<0>[0]| . H13H13$11$11|",
        "  9 | .  . ### .  . | .  l ###[0][0]| . H13H13$11$11|",
    ]
    assert lines[17] == " 13 | .  . ###H4 H4 | .  b ### .  . | .  . ### .  . |"
    assert lines[22:] == [
        "house 13 wants: burger",
        "campaign #11 billboard of player 1: burger, forever",
        "bank $90 (breaks 0); turn order: 1st player 0, 2nd player 1",
    ]


def test_a_placement_preview_marks_its_footprint():
    state = Game.new(2, seed=4).state
    assert preview_text(Action.place_restaurant(8, 8, 0), state).splitlines() == [
        "      5  6  7  8  9  10 11 12",
        "    +---------------+---------+",
        "  5 | .  . ### .  . | .  . ###|",
        "  6 | .  . ### .  b | .  . ###|",
        "  7 |######=X=######|#########|",
        "  8 | .  . ###*E****| . H13H13|",
        "  9 | .  l ###******| . H13H13|",
        "    +---------------+---------+",
        " 10 | .  . ### .  . | .  . ###|",
        " 11 | .  . ### .  . | .  s ###|",
        " 12 |######### .  . | .  . ###|",
        "    +---------------+---------+",
    ]


@pytest.mark.parametrize(("text", "kind", "expected"), [
    ("9 8 r2", ActionKind.PLACE_RESTAURANT, (9, 8, 2)),
    ("9,8,2", ActionKind.PLACE_RESTAURANT, (9, 8, 2)),
    ("(9,8) sw", ActionKind.PLACE_RESTAURANT, (9, 8, 3)),
    ("9 8", ActionKind.PLACE_RESTAURANT, (9, 8, None)),
    ("3 4 e", ActionKind.PLACE_HOUSE, (3, 4, 1)),
    ("3 4 1", ActionKind.PLACE_CAMPAIGN, (3, 4, 1)),
    ("12", ActionKind.PLACE_RESTAURANT, None),
    ("board", ActionKind.PLACE_RESTAURANT, None),
])
def test_coordinates_are_read(text, kind, expected):
    assert parse_coordinate(text, kind) == expected


def test_an_unknown_orientation_word_is_named():
    with pytest.raises(ValueError, match="orientation 'zz': use a number or one of nw, ne, se, sw"):
        parse_coordinate("9 8 zz", ActionKind.PLACE_RESTAURANT)


# ------------------------------------------------------------------ the end


def test_an_introductory_game_ends_at_its_first_bank_break():
    game = bot_game("introductory")
    assert end_lines(game, ["human", "heuristic"], 0) == [
        "== game over after round 9: the bank broke (introductory game: its first break ends the game) ==",
        "  1. you (player 0): $81  winner",
        "  2. player 1 (heuristic): $78",
        "winner: you with $81",
    ]
    told = Narrator(0, [0, 0]).lines(game.events, game.state)
    assert "  the bank breaks (introductory game: its first break is the last): the game ends after this " \
           "dinnertime" in told


def test_a_standard_game_ends_at_the_second_break():
    game = bot_game("standard")
    lines = end_lines(game, ["human", "heuristic"], 0)
    assert lines[0] == "== game over after round 11: the bank broke for the second time =="
    assert lines[-1] == "winner: player 1 (heuristic) with $379"
    told = Narrator(0, [0, 0]).lines(game.events, game.state)
    assert "  the bank breaks: reserve cards (you $200, player 1 $200) add $400; CEOs get 3 slots" in told
    assert "  the bank breaks for the second time: the game ends after this dinnertime" in told


# ------------------------------------------------------------------ the command


def test_a_whole_game_with_scripted_input_ends_with_a_winner(tmp_path):
    path = tmp_path / "game.json"
    done = run_fcm("play", "--players", "2", "--seat", "0", "--opponents", "heuristic", "--seed", "3",
                   "--max-rounds", "3", "--save-record", str(path), stdin=SCRIPT)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "'x' is not a choice: type a number from 1 to" in out
    assert "'0' is not a choice" in out and "'999' is not a choice" in out
    assert "'(empty line)' is not a choice" in out
    assert "ROW COL [O]     place by coordinate" in out  # ?
    assert "you, 1st in turn order: $0" in out  # s
    assert "== game over after round 3: the round limit (3 rounds, --max-rounds) stopped the game" in out
    record = GameRecord.load(path)
    game = replay(record)  # the saved record replays to its result
    first = re.search(r"^  1\. (?:you \(player (\d)\)|player (\d) )", out, re.MULTILINE)
    winner = int(first.group(1) or first.group(2))
    assert game.is_over and list(game.winners) == [winner] == record.result.winners
    for p, cash in enumerate(record.result.cash):
        assert re.search(rf"^  \d\. (you \(player {p}\)|player {p} \(heuristic\)): \${cash}\b", out, re.MULTILINE)
    assert record.agents == ["human", "heuristic"]
    assert f"record of the finished game saved to {path}" in out


def test_the_map_shows_at_each_first_restaurant_decision_and_on_request_only(tmp_path):
    done = run_fcm("play", "--players", "2", "--seed", "3", "--max-rounds", "2",
                   "--save-record", str(tmp_path / "g.json"), stdin=SCRIPT)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    boards = [i for i, line in enumerate(lines) if line == "      0  1  2  3  4   5  6  7  8  9  10 11 12 13 14"]
    assert len(boards) == 3  # setup round 1, the "b" of the script, setup round 2 (the script passed)
    assert lines[boards[0] - 1] == "  player 1: place a restaurant at (9,13), entrance SW on (10,13)"
    assert lines[boards[1] - 1].endswith(": b")
    assert lines[boards[2] - 1] == "  you: pass"


def test_placing_by_coordinate_checks_and_previews(tmp_path):
    script = "99 99\n8 8 zz\n8 8\n8 8 nw\nn\n8 8 nw\ny\n" + "1\ny\n" * 400
    done = run_fcm("play", "--players", "2", "--seed", "4", "--max-rounds", "1",
                   "--save-record", str(tmp_path / "g.json"), stdin=script)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "no legal placement has its top-left square at (99,99)" in out
    assert "orientation 'zz': use a number or one of nw, ne, se, sw" in out
    assert re.search(r"\(8,8\) takes an orientation: 8 8 nw, .*8 8 \w\w", out)
    assert "not placed; choose again" in out
    assert out.count("  8 | .  . ###*E****| . H13H13|") == 2  # two previews
    assert "  you: place a restaurant at (8,8), entrance NW on (8,8)" in out
    first = GameRecord.load(tmp_path / "g.json").actions[1]
    assert first == Action.place_restaurant(8, 8, 0)


def test_bot_secret_choices_are_not_shown(tmp_path):
    done = run_fcm("play", "--players", "3", "--seed", "2", "--opponents", "heuristic,random",
                   "--max-rounds", "3", "--save-record", str(tmp_path / "g.json"), stdin=SCRIPT)
    assert done.returncode == 0, done.stderr
    bot_lines = [line for line in done.stdout.splitlines() if re.match(r"  player [12]", line)]
    assert any("chooses in secret (restructure)" in line for line in bot_lines)
    assert any("chooses in secret (reserve card)" in line for line in bot_lines)
    assert not any("to work" in line or "keep the $" in line or ": fire " in line for line in bot_lines)


def test_input_ending_early_leaves_the_game_unfinished(tmp_path):
    path = tmp_path / "partial.json"
    done = run_fcm("play", "--players", "2", "--max-rounds", "3", "--save-record", str(path), stdin="1\n")
    assert done.returncode == 1
    assert "input ended before the game did" in done.stdout
    assert f"continue it with: fcm play --resume {path}" in done.stdout
    record = GameRecord.load(path)
    assert record.result is None and record.actions  # the record so far, which still replays
    assert not replay(record).is_over


def test_quit_saves_to_a_default_path_under_runs(tmp_path):
    done = run_fcm("play", "--players", "2", stdin="q\n", cwd=tmp_path)
    assert done.returncode == 1
    assert "quit: the game is unfinished" in done.stdout
    saved = re.search(r"saved to (runs/play-\d{8}-\d{6}\.json) \((\d+) actions\)", done.stdout)
    assert saved and (tmp_path / saved.group(1)).is_file()
    assert GameRecord.load(tmp_path / saved.group(1)).agents == ["human", "heuristic"]


def test_resuming_a_finished_game_tells_its_end(tmp_path):
    path = tmp_path / "done.json"
    game = seeded_game(stop=lambda g: g.is_over)
    GameRecord.from_game(game, agents=["human", "heuristic"]).save(path)
    done = run_fcm("play", "--resume", str(path), stdin="")
    assert done.returncode == 0, done.stderr
    assert f"resumed {path}: {len(game.history)} actions replayed (round 6, game_over)" in done.stdout
    assert "== game over after round 6: the round limit (6 rounds, --max-rounds) stopped the game" in done.stdout


def test_bad_play_options_exit_2(capsys, tmp_path):
    assert cli.main(["play", "--seat", "2"]) == 2
    assert "--seat must be a player id 0..1, got 2" in capsys.readouterr().err
    assert cli.main(["play", "--players", "3", "--opponents", "a,b,c"]) == 2
    assert "give one spec or 2 (one per other player), got 3" in capsys.readouterr().err
    assert cli.main(["play", "--resume", str(tmp_path / "missing.json")]) == 2
    assert "missing.json" in capsys.readouterr().err
    bots_only = tmp_path / "bots.json"
    record = GameRecord.from_game(new_recorded_game(2, seed=1), agents=["random", "heuristic"])
    bots_only.write_text(json.dumps(record.to_dict()))
    assert cli.main(["play", "--resume", str(bots_only)]) == 2
    assert "name no single human seat" in capsys.readouterr().err


def test_a_whole_game_against_the_search_bot(tmp_path):
    # docs/search.md: `fcm play --opponents search` (a small fixed budget keeps the test short)
    path = tmp_path / "game.json"
    done = run_fcm("play", "--players", "2", "--seat", "1", "--opponents", "search:iterations=8,horizon=1",
                   "--seed", "5", "--max-rounds", "3", "--save-record", str(path), stdin="1\ny\n" * 600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert "== game over after round 3" in done.stdout
    record = GameRecord.load(path)
    assert record.agents == ["search:iterations=8,horizon=1", "human"]
    assert replay(record).is_over


# ------------------------------------------------------------------ what a newcomer needs told


def _prompt_once(game: Game, human: int, typed: str) -> str:
    """What ``fcm play`` prints at one decision of ``human`` when ``typed`` is answered (then q)."""
    out = io.StringIO()
    bots = {p: make_agent("heuristic", seed=p) for p in range(game.num_players) if p != human}
    session = TerminalGame(game, human, bots, ["human"] * game.num_players, io.StringIO(typed + "q\n"), out)
    session._human_turn()
    return out.getvalue()


def test_the_first_map_is_drawn_after_the_bots_placed_their_restaurants(tmp_path):
    done = run_fcm("play", "--players", "2", "--seed", "4", "--save-record", str(tmp_path / "g.json"), stdin="q\n")
    lines = done.stdout.splitlines()
    placed = lines.index("  player 1: place a restaurant at (4,10), entrance SE on (5,11)")
    top = lines.index("      0  1  2  3  4   5  6  7  8  9  10 11 12 13 14")
    assert placed < top < lines.index(
        "-- your decision: place your first restaurant (in the first setup round you may pass)")
    assert "  4 | .  . #########|######### .  . |[1][1]### .  . |" in lines[top:]  # the bot's restaurant


def _at_a_firing() -> tuple:
    """Seed 1 played by heuristics up to the first Payday firing with a card to fire: (game, player)."""
    game = new_recorded_game(2, seed=1, max_rounds=8)
    bots = [make_agent("heuristic", seed=p) for p in range(2)]
    while not (game.pending.decision == Decision.FIRE
               and any(a.kind == ActionKind.FIRE for a in game.legal_actions())):
        game.apply(bot_move(bots[game.current_player], game, game.current_player))
    return game, game.current_player


def test_a_forced_firing_says_what_is_owed():
    game, player = _at_a_firing()
    assert "   you owe $0 in salaries and have $0: pass to pay, or fire cards to pay less" in \
        _prompt_once(game.clone(), player, "").splitlines()
    game.state.players[player].beach[EmployeeType.BURGER_COOK] += 1  # a salaried card and no cash: must fire
    game._legal_cache = None  # the state was changed by hand
    assert Action.pass_() not in game.legal_actions()
    assert "   you owe $5 in salaries and have $0: fire until you can pay" in \
        _prompt_once(game, player, "").splitlines()


def test_an_illegal_placement_names_the_rule_it_breaks():
    game = seeded_game(stop=lambda g: g.pending.decision == Decision.INITIAL_RESTAURANT and g.current_player == 0)
    out = _prompt_once(game, 0, "99 99\n7 8 nw\n8 8 se\n")
    assert ("no legal placement has its top-left square at (99,99): a restaurant covers 2x2 squares: from (99,99) "
            "it runs off the map (rows 0-14, columns 0-14); b shows the map, l lists every placement") in out
    assert "no legal placement has its top-left square at (7,8): it would overlap a road at (7,8);" in out
    assert "orientation 2 is not legal at (8,8) (its entrance (9,9) (SE) is not next to a road); legal there: nw" in out
    # the first restaurants' one-per-tile rule: a spot legal without player 1's restaurant, whose entrance
    # is on the tile of player 1's entrance (5,11)
    state, empty = game.state, game.clone()
    empty.state.players[1].restaurants.clear()
    empty._legal_cache = None  # the state was changed by hand
    tile = state.board.tile_at(5, 11)
    spot = next(a for a in empty.legal_actions() if a.kind == ActionKind.PLACE_RESTAURANT
                and state.board.tile_at(*restaurant_entrance(*a.args)) == tile
                and not ({4, 5} & {a.args[0], a.args[0] + 1} and {10, 11} & {a.args[1], a.args[1] + 1}))
    assert spot not in game.legal_actions()
    door = restaurant_entrance(*spot.args)
    assert placement_refusal(state, Decision.INITIAL_RESTAURANT, ActionKind.PLACE_RESTAURANT, *spot.args) == (
        f"its entrance ({door[0]},{door[1]}) would be on the map tile of player 1's first restaurant's entrance: "
        "one first restaurant per tile")


def test_campaign_choices_name_the_houses_they_reach():
    game = seeded_game(stop=lambda g: g.pending.decision == Decision.CAMPAIGN_PLACE)
    assert game.current_player == 1
    lines = _prompt_once(game, 1, "l\n").splitlines()
    spots = [line for line in lines if "place the campaign at" in line]
    assert any("place the campaign at (0,12) (reaches houses 15)" in line for line in spots)
    assert any("place the campaign at (0,4) (reaches no house)" in line for line in spots)
