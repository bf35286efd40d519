"""Hidden information never reaches another player's observation.

Each test changes a hidden fact of one player (the card put to work during
Restructuring, the card marked for firing, the reserve card kept) and checks that
every other player's observation stays byte-identical while the owner's changes.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import pairwise

import numpy as np
import pytest
from encoding_helpers import GAMES, random_decisions, restructuring_position, take_from_supply

from fcm_env.data import EmployeeType as ET
from fcm_env.data import Milestone
from fcm_env.encoding.action_codec import CODEC
from fcm_env.encoding.observation import Observer
from fcm_env.engine.actions import Action, Decision
from fcm_env.engine.events import HIDDEN_DECISIONS, face_down
from fcm_env.engine.game import Game
from fcm_env.engine.state import Phase

OBS = Observer()
LAY = OBS.layout


def flat(game: Game, player: int) -> bytes:
    return OBS.observe_flat(game, player).tobytes()


def field(game: Game, observer: int, player: int, name: str) -> np.ndarray:
    """The ``name`` field of ``player``'s block in ``observer``'s observation."""
    slot = (game.state.seat_of(player) - game.state.seat_of(observer)) % game.num_players
    return OBS.observe(game, observer).vector[LAY.player_field(slot, name)]


# ------------------------------------------------------------------ Restructuring (rules: Phase 1)


def test_cards_put_to_work_during_restructuring_are_hidden_from_the_others():
    # rules: Phase 1 — cards are chosen face down and opened together
    game = restructuring_position(3, seed=2, hands={0: {ET.WAITRESS: 1, ET.TRAINER: 1}, 1: {ET.ERRAND_BOY: 1}})
    p = game.current_player
    assert game.pending.decision == Decision.RESTRUCTURE and p == game.state.turn_order[0]
    others = [q for q in range(3) if q != p]
    before = {q: flat(game, q) for q in range(3)}
    game.apply(Action.put_to_work(ET.WAITRESS))
    for q in others:
        assert flat(game, q) == before[q], f"player {q} saw the card player {p} put to work"
        # the others see what was public when the phase began: both cards in hand, only the CEO at work
        assert field(game, q, p, "hand")[[ET.WAITRESS, ET.TRAINER]].tolist() == [1, 1]
        assert field(game, q, p, "work").tolist() == [1] + [0] * 32
        assert field(game, q, p, "structure_hidden")[0] == 1
    assert flat(game, p) != before[p]
    assert field(game, p, p, "work")[ET.WAITRESS] == 1 and field(game, p, p, "hand")[ET.WAITRESS] == 0
    assert field(game, p, p, "structure_hidden")[0] == 0


def test_the_structure_shows_once_restructuring_is_revealed():
    game = restructuring_position(2, seed=1, hands={0: {ET.WAITRESS: 1}, 1: {ET.TRAINER: 1}})
    first, second = game.state.turn_order
    game.apply(Action.put_to_work(ET.WAITRESS))  # nothing more fits: the first player is done (D53)
    game.apply(Action.pass_())  # the second player keeps the trainer off work: everything is opened
    assert game.state.structure_revealed and game.phase == Phase.ORDER_OF_BUSINESS
    assert field(game, second, first, "work")[ET.WAITRESS] == 1
    assert field(game, second, first, "structure_hidden")[0] == 0
    assert field(game, first, second, "beach")[ET.TRAINER] == 1


def test_derived_features_use_only_the_visible_cards():
    # a pricing manager put to work changes the unit price and open slots only in the owner's view
    # a second card in hand keeps the owner asked, so the choice stays hidden (D53)
    game = restructuring_position(2, seed=0, hands={0: {ET.PRICING_MANAGER: 1, ET.WAITRESS: 1}})
    p = game.current_player
    q = 1 - p
    game.apply(Action.put_to_work(ET.PRICING_MANAGER))
    assert field(game, p, p, "unit_price")[0] == pytest.approx(0.9)  # $10 - $1 (pricing manager)
    assert field(game, q, p, "unit_price")[0] == pytest.approx(1.0)
    assert field(game, p, p, "open_slots")[0] == pytest.approx(0.2)  # 3 CEO slots, 1 used
    assert field(game, q, p, "open_slots")[0] == pytest.approx(0.3)


# ------------------------------------------------------------------ Payday firing (C30)


def _payday(num_players: int = 2) -> Game:
    game = Game.new(num_players, seed=7)
    state = game.state
    for p in range(num_players):
        take_from_supply(game, p, "work", {ET.WAITRESS: 1})
        take_from_supply(game, p, "beach", {ET.TRAINER: 1})
    state.phase = Phase.PAYDAY
    state.firing_revealed = False
    return game


def test_firing_choices_are_hidden_until_revealed():
    # C30: fired cards are chosen secretly and revealed simultaneously
    game = _payday(3)
    before = {q: flat(game, q) for q in range(3)}
    game.state.players[1].fired[ET.TRAINER] = 1
    assert flat(game, 0) == before[0] and flat(game, 2) == before[2]
    assert flat(game, 1) != before[1]
    assert field(game, 1, 1, "fired")[ET.TRAINER] == 1
    assert field(game, 0, 1, "fired")[ET.TRAINER] == 0 and field(game, 0, 1, "firing_hidden")[0] == 1
    game.state.firing_revealed = True
    assert field(game, 0, 1, "fired")[ET.TRAINER] == 1 and field(game, 0, 1, "firing_hidden")[0] == 0


# ------------------------------------------------------------------ reserve cards (Setting goals; C26)


def _reserve_decision(num_players: int = 3) -> Game:
    game = Game.new(num_players, seed=11)
    while game.pending.decision != Decision.RESERVE_CARD:
        actions = game.legal_actions()
        game.apply(next(a for a in actions if a.args) if len(actions) > 1 else actions[0])
    return game


def test_reserve_card_choice_is_hidden_from_the_others():
    # rules: Setting goals — the chosen reserve cards are placed face down
    game = _reserve_decision(3)
    p = game.current_player
    low, high = game.clone(), game.clone()
    low.apply(Action.choose_reserve(0))
    high.apply(Action.choose_reserve(2))
    for q in range(3):
        if q != p:
            assert flat(low, q) == flat(high, q), f"player {q} saw player {p}'s reserve card"
            assert field(low, q, p, "reserve_known")[0] == 0
    assert flat(low, p) != flat(high, p)
    assert field(low, p, p, "reserve").tolist() == [1, 0, 0]  # $100, own card visible from setup
    assert field(high, p, p, "reserve").tolist() == [0, 0, 1]  # $300


def test_reserve_cards_show_to_first_to_have_20_and_after_the_first_break():
    game = _reserve_decision(2)
    p = game.current_player
    q = 1 - p
    game.apply(Action.choose_reserve(1))
    assert field(game, q, p, "reserve_known")[0] == 0
    # C26: First to have $20 may look at the face-down reserve cards
    game.state.players[q].milestones.add(Milestone.FIRST_HAVE_20)
    assert field(game, q, p, "reserve").tolist() == [0, 1, 0]
    game.state.players[q].milestones.clear()
    assert field(game, q, p, "reserve_known")[0] == 0
    # rules: Breaking the bank — the reserve cards are opened
    game.state.reserve_revealed = True
    assert field(game, q, p, "reserve").tolist() == [0, 1, 0]


# ------------------------------------------------------------------ every hidden decision of random games


PER_DECISION = 12  # branch comparisons per hidden decision kind and game (clones are the cost)


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_no_hidden_choice_of_a_random_game_reaches_another_players_observation(num_players):
    """At every hidden decision, the branches of the mover's actions that leave the choice
    hidden and ask the same next decision look byte-identical to every other player,
    and different to the mover."""
    compared = defaultdict(int)
    for seed in range(GAMES):
        for game, rng in random_decisions(num_players, seed):
            decision, mover = game.pending.decision, game.current_player
            if decision not in HIDDEN_DECISIONS or compared[decision] >= PER_DECISION * (seed + 1):
                continue
            ids = [int(i) for i in np.flatnonzero(_mask(game, mover))]
            branches = defaultdict(list)
            for i in rng.sample(ids, min(4, len(ids))):
                trial = game.clone()
                trial.apply(CODEC.decode(i, trial))
                if face_down(trial.state, decision):
                    pend = trial.pending
                    key = (trial.phase, pend and (pend.decision, pend.player, pend.context))
                    branches[key].append(trial)
            for trials in branches.values():
                for a, b in pairwise(trials):
                    for q in range(num_players):
                        if q != mover:
                            assert flat(a, q) == flat(b, q), f"{decision.name} of {mover} leaked to {q}"
                    assert flat(a, mover) != flat(b, mover), "the mover's own choice must show to them"
                    compared[decision] += 1
    assert compared[Decision.RESERVE_CARD] and compared[Decision.RESTRUCTURE] and compared[Decision.FIRE], (
        dict(compared)
    )


def _mask(game: Game, player: int) -> np.ndarray:
    from fcm_env.encoding.mask import legal_action_mask

    return legal_action_mask(game, player)
