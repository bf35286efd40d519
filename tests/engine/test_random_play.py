"""Random legal play through setup and turns 1-3 with invariants checked after every action."""

from __future__ import annotations

import random

import numpy as np
import pytest
from builders import fingerprint, next_round

from fcm_env.data import EMPLOYEES, MARKETING_TILES, EmployeeType
from fcm_env.engine.actions import Action, ActionKind, IllegalActionError
from fcm_env.engine.game import Game
from fcm_env.engine.state import Phase, initial_supply


def _random_illegal(rng: random.Random, legal: set[Action]) -> Action:
    while True:
        kind = rng.choice(list(ActionKind))
        arity = {ActionKind.PASS: 0, ActionKind.PLACE_RESTAURANT: 3, ActionKind.TRAIN: 3}.get(kind, 1)
        action = Action(kind, tuple(rng.randrange(0, 33) for _ in range(arity)))
        if action not in legal:
            return action


def _check_invariants(game: Game, total: np.ndarray, tiles: list[int]) -> None:
    state = game.state
    cards = state.total_cards()
    for campaign in state.campaigns:
        if campaign.eternal:
            cards[campaign.marketeer] += 1  # the card lives with its eternal campaign (design.md)
    assert (cards == total).all(), "employee cards are conserved"
    assert (state.supply >= 0).all()
    for p in state.players:
        for vec in (p.hand, p.work, p.beach, p.busy):
            assert (vec >= 0).all()
        for spec in EMPLOYEES:
            if spec.unique:
                assert p.owned()[spec.type] <= 1, f"player {p.player} owns two {spec.type.key}"
    on_board = [campaign.number for campaign in state.campaigns]
    assert sorted(state.marketing_supply + on_board) == tiles, "marketing tiles are conserved"


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(4))
def test_random_play_turns_1_to_3_keep_invariants(num_players, seed):
    rng = random.Random(1000 * num_players + seed)
    game = Game.new(num_players, seed=seed)
    total = initial_supply(num_players)
    total[EmployeeType.CEO] = num_players  # one CEO each, always at work
    tiles = [t.number for t in MARKETING_TILES if num_players in t.available_for_players]
    for round_no in range(1, 4):
        while game.pending is not None:
            legal = game.legal_actions()
            assert legal, f"no legal action for {game.pending}"
            assert legal == sorted(legal) and len(set(legal)) == len(legal)
            before = fingerprint(game.state)
            for _ in range(2):
                bad = _random_illegal(rng, set(legal))
                with pytest.raises(IllegalActionError):
                    game.apply(bad)
                assert fingerprint(game.state) == before, "a rejected action changed the state"
            # apply accepts every legal action (checked on clones for a sample)
            for action in rng.sample(legal, min(3, len(legal))):
                trial = game.clone()
                trial.apply(action)
                assert fingerprint(game.state) == before, "a clone shares state with its original"
            game.apply(rng.choice(legal))
            _check_invariants(game, total, tiles)
        assert game.phase == Phase.WORKING and game.state.round == round_no
        if round_no < 3:
            next_round(game)


def test_same_seed_and_actions_give_the_same_game():
    def play(seed):
        rng = random.Random(seed)
        game = Game.new(4, seed=seed)
        trace = []
        while game.pending is not None:
            action = rng.choice(game.legal_actions())
            trace.append(action)
            game.apply(action)
        return trace, fingerprint(game.state)

    assert play(11) == play(11)
