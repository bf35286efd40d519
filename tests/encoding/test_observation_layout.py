"""The observation encoder: fixed shapes, the named layout, and hand-checked planes and fields."""

from __future__ import annotations

import numpy as np
import pytest
from encoding_helpers import GAMES, play_setup, random_decisions, take_from_supply

from fcm_env.data import CampaignType, Good, Milestone
from fcm_env.data import EmployeeType as ET
from fcm_env.encoding import BOARD_SHAPE, FLAT_SIZE, VECTOR_SIZE, observation_layout
from fcm_env.encoding.observation import Observation, Observer
from fcm_env.engine.actions import Decision, Pending
from fcm_env.engine.board.placement import restaurant_entrance, restaurant_squares
from fcm_env.engine.game import Game
from fcm_env.engine.state import Campaign

OBS = Observer()
LAY = observation_layout()
CH = {c.name: c.index for c in LAY.channels}


def vec(game: Game, observer: int, name: str) -> np.ndarray:
    return OBS.observe(game, observer).vector[LAY.slice(name)]


def pfield(game: Game, observer: int, slot: int, name: str) -> np.ndarray:
    return OBS.observe(game, observer).vector[LAY.player_field(slot, name)]


def plane(game: Game, observer: int, name: str) -> np.ndarray:
    return OBS.observe(game, observer).board[CH[name]]


def _state_bytes(game: Game) -> bytes:
    s = game.state
    parts = [repr((s.phase, s.round, s.bank, s.pending, s.turn_order, s.houses, s.campaigns)).encode()]
    for p in s.players:
        parts += [p.hand.tobytes(), p.work.tobytes(), p.beach.tobytes(), p.fired.tobytes(), repr(p).encode()]
    return b"".join(parts)


# ------------------------------------------------------------------ layout


def test_layout_names_are_unique_and_slices_contiguous():
    assert len({c.name for c in LAY.channels}) == len(LAY.channels)
    assert [c.index for c in LAY.channels] == list(range(len(LAY.channels)))
    names = [v.name for v in LAY.vector]
    assert len(set(names)) == len(names)
    offset = 0
    for v in LAY.vector:
        assert v.start == offset and v.size > 0 and (not v.labels or len(v.labels) == v.size)
        offset = v.stop
    assert LAY.vector_size == offset
    assert LAY.board_shape == (len(LAY.channels), 20, 25)
    assert LAY.flat_size == LAY.board_size + LAY.vector_size
    assert LAY.slice("player4").stop == LAY.vector_size  # the player blocks close the vector
    assert (BOARD_SHAPE, VECTOR_SIZE, FLAT_SIZE) == (LAY.board_shape, LAY.vector_size, LAY.flat_size)
    assert (OBS.board_shape, OBS.vector_size, OBS.flat_size) == (BOARD_SHAPE, VECTOR_SIZE, FLAT_SIZE)
    with pytest.raises(KeyError):
        LAY.slice("nope")
    with pytest.raises(ValueError):
        LAY.player_field(5, "cash")


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
@pytest.mark.parametrize("variant", ["standard", "introductory"])
def test_shape_is_the_same_for_every_player_count_and_variant(num_players, variant):
    game = Game.new(num_players, seed=1, variant=variant)
    for p in range(num_players):
        obs = OBS.observe(game, p)
        assert obs.board.shape == LAY.board_shape and obs.board.dtype == np.float32
        assert obs.vector.shape == (LAY.vector_size,) and obs.vector.dtype == np.float32
        assert OBS.observe_flat(game, p).shape == (LAY.flat_size,)


# ------------------------------------------------------------------ buffers


def test_observe_writes_into_the_given_buffers_and_flat_matches():
    game = Game.new(3, seed=2)
    play_setup(game)
    buf = Observation(np.full(LAY.board_shape, 9, np.float32), np.full(LAY.vector_size, 9, np.float32))
    out = OBS.observe(game, 1, out=buf)
    assert out is buf
    fresh = OBS.observe(game, 1)
    assert np.array_equal(out.board, fresh.board) and np.array_equal(out.vector, fresh.vector)
    flat = np.full(LAY.flat_size, 9, np.float32)
    assert OBS.observe_flat(game, 1, out=flat) is flat
    assert np.array_equal(flat, np.concatenate([fresh.board.ravel(), fresh.vector]))
    with pytest.raises(ValueError):
        OBS.observe_flat(game, 1, out=np.zeros(LAY.flat_size, np.float64))
    with pytest.raises(ValueError):
        OBS.observe(game, 1, out=Observation(np.zeros((3, 3), np.float32), fresh.vector))
    with pytest.raises(ValueError, match="player must be"):
        OBS.observe(game, 3)
    assert np.array_equal(OBS.observe_flat(game.state, 1), flat)  # a GameState works too


# ------------------------------------------------------------------ board planes


def test_map_planes_mark_the_real_squares_roads_and_drinks():
    game = Game.new(2, seed=3)  # 2 players: 3 x 3 tiles = 15 x 15 squares
    board = game.board
    obs = OBS.observe(game, 0).board
    assert obs[CH["valid"]].sum() == 225 and obs[CH["valid"], :15, :15].all()
    assert not obs[:, 15:, :].any() and not obs[:, :, 15:].any(), "padding must stay zero"
    assert np.array_equal(obs[CH["road"], :15, :15], board.road_mask)
    beer = [sq for sq, good in board.drink_sources if good == Good.BEER]
    assert obs[CH["drink_beer"]].sum() == len(beer)
    for r, c in beer:
        assert obs[CH["drink_beer"], r, c] == 1
    # tile parity: squares (0,0) and (0,5) are on neighbouring tiles
    assert obs[CH["tile_parity"], 0, 0] == 0 and obs[CH["tile_parity"], 0, 5] == 1
    assert obs[CH["tile_parity"], 5, 5] == 0
    # a road square linked eastwards has a road square to its east
    for r, c in zip(*np.nonzero(obs[CH["road_link_E"]])):
        assert board.road_mask[r, c] and board.road_mask[r, c + 1]


def test_restaurants_are_drawn_relative_to_the_observer_in_turn_order():
    game = Game.new(3, seed=4)
    play_setup(game)
    state = game.state
    order = state.turn_order
    for observer in range(3):
        me = order.index(observer)
        for p in state.players:
            slot = (order.index(p.player) - me) % 3
            r = p.restaurants[0]
            squares = restaurant_squares(r.row, r.col, r.orientation)
            assert all(plane(game, observer, f"restaurant_p{slot}")[sq] == 1 for sq in squares)
            assert plane(game, observer, f"entrance_p{slot}")[restaurant_entrance(r.row, r.col, r.orientation)] == 1
        assert pfield(game, observer, 0, "seat")[me] == 1  # slot 0 is always the observer
    assert plane(game, 0, "restaurant_p3").sum() == 0 and plane(game, 0, "restaurant_p4").sum() == 0
    assert pfield(game, 0, 3, "present")[0] == 0 and pfield(game, 0, 2, "present")[0] == 1


def test_houses_show_number_garden_and_demand():
    game = Game.new(2, seed=5)
    number = min(game.state.houses)
    house = game.state.houses[number]
    house.demand = [int(Good.BURGER), int(Good.SODA), int(Good.BURGER)]
    obs = OBS.observe(game, 0).board
    for sq in house.squares:
        assert obs[CH["house"]][sq] == 1
        assert obs[CH["house_number"]][sq] == pytest.approx(number / 19)
        assert obs[CH["demand_burger"]][sq] == 2 and obs[CH["demand_soda"]][sq] == 1
        assert obs[CH["demand_pizza"]][sq] == 0
    assert obs[CH["garden"]].sum() == 0  # no gardens on a fresh map


def test_campaign_planes_show_kind_product_owner_and_tokens():
    game = Game.new(2, seed=6)
    state = game.state
    me, other = state.turn_order
    # billboard #14 (2 x 1) of the other player, burger, 2 tokens left
    state.campaigns.append(Campaign(14, int(CampaignType.BILLBOARD), other, int(ET.MARKETING_TRAINEE),
                                    int(Good.BURGER), 2, False, 1, 1, 0, ((1, 1), (1, 2))))
    # airplane #5 (3 columns) of the observer on the north edge over columns 2-4, eternal, soda
    state.campaigns.append(Campaign(5, int(CampaignType.AIRPLANE), me, int(ET.BRAND_MANAGER),
                                    int(Good.SODA), 1, True, 0, 2, 0))
    obs = OBS.observe(game, me).board
    assert obs[CH["campaign_billboard"]].sum() == 2 and obs[CH["campaign_billboard"], 1, 1] == 1
    assert obs[CH["campaign_product_burger"], 1, 2] == 1
    assert obs[CH["campaign_owner_p1"], 1, 1] == 1 and obs[CH["campaign_owner_p0"], 1, 1] == 0
    assert obs[CH["campaign_remaining"], 1, 1] == pytest.approx(2 / 5)
    airplane = obs[CH["campaign_airplane"]]
    assert airplane[:15, 2:5].all() and airplane.sum() == 15 * 3
    assert obs[CH["campaign_eternal"], 14, 3] == 1 and obs[CH["campaign_owner_p0"], 0, 4] == 1
    # the billboard square (1, 2) lies under the plane too: counts add up
    assert obs[CH["campaign_product_soda"], 1, 2] == 1 and obs[CH["campaign_product_burger"], 1, 2] == 1


# ------------------------------------------------------------------ vector


def test_globals_and_player_fields_are_scaled_as_documented():
    game = Game.new(4, seed=8)
    state = game.state
    p = state.turn_order[0]
    state.players[p].cash = 37
    state.bank = 150
    take_from_supply(game, p, "work", {ET.PRICING_MANAGER: 1, ET.LUXURIES_MANAGER: 1})
    state.players[p].milestones.add(Milestone.FIRST_LOWER_PRICES)
    state.players[p].stock[:] = [3, 0, 2, 0, 0]
    assert vec(game, p, "bank")[0] == pytest.approx(1.5)
    assert vec(game, p, "num_players").tolist() == [0, 0, 1, 0]
    assert pfield(game, p, 0, "cash")[0] == pytest.approx(0.37)
    # $10 - $1 pricing manager + $10 luxuries manager - $1 First to lower prices = $18
    assert pfield(game, p, 0, "unit_price")[0] == pytest.approx(1.8)
    assert pfield(game, p, 0, "stock").tolist() == pytest.approx([0.3, 0, 0.2, 0, 0])
    assert pfield(game, p, 0, "milestones")[Milestone.FIRST_LOWER_PRICES] == 1
    assert vec(game, p, "phase")[int(state.phase)] == 1 and vec(game, p, "phase").sum() == 1
    assert vec(game, p, "milestones_available").sum() == 18
    assert vec(game, p, "supply")[ET.PRICING_MANAGER] == pytest.approx(11 / 18)  # 12 in the box, 1 taken


def test_pending_decision_and_context_of_a_campaign_being_launched():
    game = Game.new(2, seed=9)
    state = game.state
    p = state.turn_order[0]
    # billboard #11 (3 wide x 2 high) rotated at (4, 6): 3 rows x 2 cols; pizza
    state.pending = [Pending(Decision.CAMPAIGN_DURATION, p, (int(ET.BRAND_DIRECTOR), 11, 4, 6, 1, int(Good.PIZZA)))]
    for observer in (p, 1 - p):  # a public decision: both players see its context
        assert vec(game, observer, "decision")[Decision.CAMPAIGN_DURATION] == 1
        assert vec(game, observer, "observer_to_move")[0] == float(observer == p)
        assert vec(game, observer, "ctx_marketeer").tolist() == [0, 0, 0, 1]
        assert vec(game, observer, "ctx_campaign_tile")[10] == 1
        assert vec(game, observer, "ctx_product").tolist() == [0, 1, 0, 0, 0]
        assert vec(game, observer, "context")[:2].tolist() == pytest.approx([27 / 32, 11 / 32])
        piece = plane(game, observer, "pending_piece")
        assert piece[4:7, 6:8].all() and piece.sum() == 6
    assert vec(game, 1 - p, "decider")[1] == 1 and vec(game, p, "decider")[0] == 1


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_observations_of_random_games_are_finite_consistent_and_leave_the_state_alone(num_players):
    steps = 0
    for seed in range(GAMES):
        for game, _ in random_decisions(num_players, seed, max_rounds=8):
            steps += 1
            if steps % 3:
                continue
            before = _state_bytes(game)
            for observer in range(num_players):
                obs = OBS.observe(game, observer)
                assert np.isfinite(obs.board).all() and np.isfinite(obs.vector).all()
                assert np.abs(obs.vector).max() < 50 and np.abs(obs.board).max() < 50
                assert obs.board[CH["valid"]].sum() == game.board.height * game.board.width
                present = [obs.vector[LAY.player_field(k, "present")][0] for k in range(5)]
                assert present == [1.0] * num_players + [0.0] * (5 - num_players)
                to_move = obs.vector[LAY.slice("observer_to_move")][0]
                assert to_move == float(game.current_player == observer)
                assert obs.vector[LAY.slice("decider")].sum() == 1
            assert _state_bytes(game) == before, "observing changed the game"
    assert steps > 30
