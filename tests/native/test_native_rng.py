"""The native core's generator draws what numpy.random.default_rng draws, bit for bit: the seeds, the raw
words, and every call the project makes (``integers``, ``random``, ``permutation``, ``choice(..., replace=False)``), so
the native engine can set up the very games ``Game.new`` sets up and play the seeded agents' very choices."""

from __future__ import annotations

import numpy as np
import pytest

from fcm_env.data import MAP_TILES, setup_for
from fcm_env.engine.game import Game
from fcm_env.native import Pcg64, seed_sequence_pool

SEEDS = [0, 1, 7, 42, 123456789, 2**32 - 1, 2**32 + 5, 2**63 - 1, 2**64 - 1]


@pytest.mark.parametrize("seed", SEEDS)
def test_the_seed_sequence_and_the_raw_words_are_numpys(seed):
    assert list(seed_sequence_pool(seed)) == [int(w) for w in np.random.SeedSequence(seed).pool]
    numpy_bits = np.random.PCG64(seed)
    state = numpy_bits.state["state"]
    high, low, inc_high, inc_low = Pcg64(seed).state_words()
    assert (high << 64 | low, inc_high << 64 | inc_low) == (state["state"], state["inc"])
    ours = Pcg64(seed)
    assert [ours.next64() for _ in range(50)] == [int(w) for w in numpy_bits.random_raw(50)]


def test_integers_permutation_and_choice_are_numpys_on_300_seeds():
    for seed in range(300):
        numpy_rng, ours = np.random.default_rng(seed), Pcg64(seed)
        for low, high in ((0, 1), (0, 2), (0, 5), (0, 17), (-5, 5), (0, 2**31), (3, 2**40), (0, 10**18)):
            assert ours.integers(low, high) == int(numpy_rng.integers(low, high)), (seed, low, high)
        for n in (0, 1, 2, 5, 20):
            assert ours.permutation(n) == [int(v) for v in numpy_rng.permutation(n)], (seed, n)
        for pop, size in ((20, 9), (20, 12), (20, 16), (20, 20), (1, 0), (20_000, 500), (20_000, 100)):
            assert ours.choice(pop, size) == [int(v) for v in numpy_rng.choice(pop, size=size, replace=False)], seed


def test_random_doubles_are_numpys_mixed_with_integers():
    # the strategist draws random() and integers() from one generator (its seeded timings and placements)
    for seed in range(100):
        numpy_rng, ours = np.random.default_rng(seed), Pcg64(seed)
        for k in range(20):
            assert ours.random() == float(numpy_rng.random()), (seed, k)
            assert ours.integers(0, k + 1) == int(numpy_rng.integers(0, k + 1)), (seed, k)


def test_it_draws_the_maps_and_turn_orders_of_game_new():
    # Game.new: choice(20 tiles, n, replace=False), integers(0, 4, size=n) for the turns, permutation(players)
    ids = [tile.id for tile in MAP_TILES]
    for players in (2, 3, 4, 5):
        setup = setup_for(players)
        n = setup.tile_rows * setup.tile_cols
        for seed in range(50):
            rng = Pcg64(seed)
            picks = rng.choice(len(MAP_TILES), n)
            turns = [rng.integers(0, 4) for _ in range(n)]
            order = rng.permutation(players)
            game = Game.new(players, seed=seed)
            flat = [tile for row in game.state.board.layout_strings() for tile in row]
            assert flat == [f"{ids[p]}{t}" for p, t in zip(picks, turns, strict=True)], (players, seed)
            assert game.state.turn_order == order, (players, seed)


def test_the_seeded_random_agent_draws_the_same_choices():
    from fcm_agents import RandomAgent

    agent, ours = RandomAgent(seed=11), Pcg64(11)
    for count in (3, 1, 12, 40, 7, 2, 2757):
        assert int(agent._rng.integers(count)) == ours.integers(0, count)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: Pcg64(-1), "seed must be an integer 0 <= seed < 2**64, got -1"),
    (lambda: Pcg64(2**64), "seed must be an integer 0 <= seed < 2**64, got 18446744073709551616"),
    (lambda: Pcg64(1).integers(5, 5), "integers: high must be greater than low, got low=5, high=5"),
    (lambda: Pcg64(1).permutation(-2), "permutation: n must be non-negative, got -2"),
    (lambda: Pcg64(1).choice(3, 4), "choice: need 0 <= size <= pop, got pop=3, size=4"),
])
def test_bad_arguments_are_value_errors_naming_them(call, message):
    with pytest.raises(ValueError, match=message.replace("*", r"\*").replace("(", r"\(")):
        call()
