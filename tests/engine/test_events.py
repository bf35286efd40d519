"""The event log: exact sales of a hand-written Dinnertime, money events that add up, no hidden leaks."""

# python-only (every test of this file): the event log is the Python engine's alone (a native game has none; its snapshot() starts a new one)

from __future__ import annotations

import json
import os
import random
from collections import defaultdict
from itertools import pairwise

import pytest
from late_builders import GARDEN_2, NEAR_2, TILE_1, add_restaurant, demand, give, position, stock

from fcm_env.data import EmployeeType, Good, Milestone
from fcm_env.engine.actions import Action, Decision
from fcm_env.engine.events import HIDDEN_DECISIONS, face_down, visible
from fcm_env.engine.game import Game

B, BEER = Good.BURGER, Good.BEER
#: random games per player count (the full check: FCM_EVENT_GAMES=50, 200 games in all)
GAMES = int(os.environ.get("FCM_EVENT_GAMES", "2"))


def test_the_sales_of_a_hand_written_dinnertime_are_logged_exactly():
    # rules: Phase 4 example — luxuries manager (+$10): unit price 20, doubled by the garden;
    # First burger marketed +$5 a burger: 45 + 2 x 40 = 125. Player 1's waitress tips $3.
    state = position()
    add_restaurant(state, 0, NEAR_2)
    add_restaurant(state, 1, TILE_1)
    give(state, 0, luxuries_manager=1)
    give(state, 1, waitress=1)
    state.players[0].milestones.add(Milestone.FIRST_BURGER_MARKETED)
    state.milestones_gone.add(Milestone.FIRST_BURGER_MARKETED)
    stock(state, 0, burger=1, beer=2)
    demand(state, 2, B, BEER, BEER, garden=GARDEN_2)
    game = Game(state)
    log = game.record_events()
    game.advance()
    dinner = [{k: v for k, v in e.items() if k not in ("round", "phase")} for e in log
              if e["phase"] == "dinnertime"]
    assert dinner == [
        {"kind": "sale", "visible_to": None, "house": 2, "player": 0, "items": ["burger", "beer", "beer"],
         "unit_price": 20, "garden": True, "distance": 0, "bonus": 5, "amount": 125, "cash": 125,
         "bankrupt": False},
        {"kind": "milestone", "visible_to": None, "player": 0, "milestone": "first_have_20"},
        {"kind": "tips", "visible_to": None, "player": 1, "waitresses": 1, "amount": 3, "cash": 3},
        {"kind": "milestone", "visible_to": None, "player": 0, "milestone": "first_have_100"},
    ]
    assert json.loads(json.dumps(log)) == log  # plain JSON
    assert game.events_for(1) == log  # nothing hidden here


def test_a_face_down_choice_is_an_event_for_its_player_only_until_revealed():
    # rules: Phase 5 — fired cards are chosen secretly and revealed together (C30)
    state = position(bank=100)
    give(state, 0, "beach", burger_cook=1)
    state.players[0].cash = 10
    game = Game(state)
    log = game.record_events()
    game.advance()  # Dinnertime, then Payday asks player 0
    assert game.pending.decision == Decision.FIRE
    game.apply(Action.fire(EmployeeType.BURGER_COOK))
    fire = [e for e in log if e["kind"] == "action"][-1]
    assert fire["decision"] == "fire" and fire["visible_to"] == [0]
    assert fire not in game.events_for(1) and fire in game.events_for(0)
    fired = [e for e in log if e["kind"] == "fired"]
    assert fired and fired[0]["visible_to"] is None and fired[0]["cards"] == {"burger_cook": 1}


def _random_game(num_players: int, seed: int):
    rng = random.Random(f"events/{num_players}/{seed}")
    game = Game.new(num_players, seed=seed, max_rounds=12)
    game.record_events()
    while game.pending is not None:
        yield game, rng
        game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_money_events_add_up_to_every_cash_change(num_players):
    for seed in range(GAMES):
        game = Game.new(num_players, seed=seed, max_rounds=12)
        game.record_events()
        rng = random.Random(seed)
        while game.pending is not None:
            game.apply(rng.choice(game.legal_actions()))
        cash = defaultdict(int)
        for e in game.events:
            if "cash" in e:
                cash[e["player"]] += e["cash"]
        assert [cash[p] for p in range(num_players)] == [p.cash for p in game.state.players]


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_no_hidden_choice_reaches_another_players_events(num_players):
    """At hidden decisions, branches that keep the choice hidden and ask the same next decision
    log the same events for every other player (and different ones for the mover)."""
    compared = defaultdict(int)
    for seed in range(GAMES):
        for game, rng in _random_game(num_players, seed):
            decision, mover = game.pending.decision, game.current_player
            if decision not in HIDDEN_DECISIONS:
                continue
            start = len(game.events)
            branches = defaultdict(list)
            for action in rng.sample(game.legal_actions(), min(4, len(game.legal_actions()))):
                trial = game.clone()
                trial.apply(action)
                if face_down(trial.state, decision):
                    pend = trial.pending
                    branches[(trial.state.phase, pend and (pend.decision, pend.player, pend.context))].append(trial)
            for trials in branches.values():
                for a, b in pairwise(trials):
                    for q in range(num_players):
                        seen_a = [e for e in a.events[start:] if visible(e, q)]
                        seen_b = [e for e in b.events[start:] if visible(e, q)]
                        if q != mover:
                            assert seen_a == seen_b, f"{decision.name} of {mover} leaked to {q}"
                        else:
                            assert seen_a != seen_b
                    compared[decision] += 1
    assert compared[Decision.RESTRUCTURE] and compared[Decision.FIRE], dict(compared)


def test_a_record_can_carry_the_event_log_and_replaying_gives_it_again(tmp_path):
    from fcm_env.engine.persistence.records import GameRecord, new_recorded_game, replay

    game = new_recorded_game(3, seed=5, max_rounds=3)
    game.record_events()
    rng = random.Random(1)
    while game.pending is not None:
        game.apply(rng.choice(game.legal_actions()))
    record = GameRecord.from_game(game, events=True)
    record.save(tmp_path / "r.json")
    loaded = GameRecord.load(tmp_path / "r.json")
    assert loaded.events == game.events and len(loaded.events) > 20
    again = replay(loaded, upto=0)
    again.record_events()
    for action in loaded.actions:
        again.apply(action)
    assert again.events == loaded.events
    assert GameRecord.from_game(game).events is None  # optional
