"""ObservationRows (the envs' observations, redrawn from the engine's move stamps) equal a full redraw.

The rows skip what the stamps of ``fcm_env.engine.changes`` say did not change; a stamp
missing anywhere would leave a stale part in a row. These tests compare, at every decision
of seeded random games (2-5 players, both variants, playing rather than passing so that
campaigns, houses, firing and bankruptcies happen), every player's row with what a fresh
``Observer`` draws, byte for byte; a second set of rows observed only now and then checks
gaps of many moves.
"""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest
from encoding_helpers import DEFAULT_ROUNDS, GAMES

from fcm_env.encoding import Observer
from fcm_env.encoding.rows import ObservationRows
from fcm_env.engine.actions import Decision
from fcm_env.engine.changes import ChangeLog
from fcm_env.engine.game import Game
from fcm_env.engine.invariants.random_sim import pick


def _expected(game: Game, player: int) -> np.ndarray:
    return Observer().observe_flat(game, player)


@pytest.mark.parametrize("variant", ["standard", "introductory"])
@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_rows_equal_a_full_redraw_at_every_decision(num_players, variant):
    reference = Observer()
    out = np.zeros(reference.flat_size, dtype=np.float32)
    checked = 0
    for seed in range(GAMES):
        rng = random.Random(f"rows/{num_players}/{variant}/{seed}")
        game = Game.new(num_players, seed=seed, variant=variant, max_rounds=DEFAULT_ROUNDS)
        every_step, now_and_then = ObservationRows(num_players), ObservationRows(num_players)
        while game.pending is not None:
            for player in range(num_players):
                expected = reference.observe_flat(game, player, out=out)
                assert np.array_equal(every_step.observe(game, player), expected), (seed, game.phase, player)
                checked += 1
            if rng.random() < 0.15:
                player = rng.randrange(num_players)
                assert np.array_equal(now_and_then.observe(game, player), reference.observe_flat(game, player))
            game.apply(pick(rng, game.legal_actions(), 0.9))
        for player in range(num_players):  # the final position too
            assert np.array_equal(every_step.observe(game, player), _expected(game, player))
    assert checked > 200


def test_a_new_game_or_forget_redraws_everything():
    rows = ObservationRows(2)
    first, second = Game.new(2, seed=1), Game.new(2, seed=2)
    rows.observe(first, 0)
    assert np.array_equal(rows.observe(second, 0), _expected(second, 0))
    game = Game.new(2, seed=3)
    rows.observe(game, 1)
    game.state.players[1].cash = 77  # a hand edit: invisible to the stamps ...
    game.advance()  # ... until advance() stamps everything
    assert np.array_equal(rows.observe(game, 1), _expected(game, 1))
    game.state.players[1].cash = 78
    rows.forget()
    assert np.array_equal(rows.observe(game, 1), _expected(game, 1))


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_copied_rows_keep_drawing_into_their_own_rows(how):
    game = Game.new(3, seed=4)
    rows = ObservationRows(3)
    rows.observe(game, game.current_player)
    twin_rows, twin_game = (copy.deepcopy((rows, game)) if how == "deepcopy"
                            else pickle.loads(pickle.dumps((rows, game))))
    assert twin_game.changes.uid != game.changes.uid  # a copy is another game for the stamps
    rng = random.Random(0)
    for _ in range(30):
        twin_game.apply(pick(rng, twin_game.legal_actions()))
        player = twin_game.current_player
        assert np.array_equal(twin_rows.observe(twin_game, player), _expected(twin_game, player))
    assert np.array_equal(rows.observe(game, game.current_player), _expected(game, game.current_player))


def test_rows_must_fit_the_players():
    with pytest.raises(ValueError, match="float32 array of shape"):
        ObservationRows(2, rows=np.zeros((3, Observer().flat_size), dtype=np.float32))


def test_a_decision_without_engine_steps_stamps_its_player_and_the_next_only():
    """rules: Working 9-5 — one player's hiring touches that player and the table, nobody else."""
    game = Game.new(4, seed=5)
    rng = random.Random(1)
    changes = game.changes
    quiet_recruits = 0
    while game.pending is not None:
        mover, decision, before_all = game.current_player, game.pending.decision, changes.all_at
        game.apply(pick(rng, game.legal_actions(), 0.9))
        if changes.all_at == changes.moves:  # an engine step or a table fact: everybody is stamped
            continue
        assert changes.all_at == before_all
        stamped = {q for q, at in enumerate(changes.player_at) if at == changes.moves}
        assert stamped == {mover, game.current_player}
        if decision == Decision.RECRUIT and game.current_player == mover:
            quiet_recruits += 1
    assert quiet_recruits > 0


def test_change_log_copies_get_a_new_uid_and_the_same_stamps():
    log = ChangeLog(3)
    log.everything()
    log.player_at[2] = 1
    twin = copy.deepcopy(log)
    assert twin.uid != log.uid
    assert (twin.moves, twin.all_at, twin.map_at, twin.player_at) == (1, 1, 1, [0, 0, 1])
