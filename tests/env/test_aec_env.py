"""The PettingZoo AEC env: stock API and seed tests, spaces, masks, illegal ids, rewards, endings,
rendering."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from env_helpers import fingerprint, heuristic_game_ids, random_legal
from gymnasium import spaces
from pettingzoo.test import api_test, render_test, seed_test

import fcm_env
from fcm_env.encoding import CODEC, FLAT_SIZE, NUM_ACTIONS, Observer, legal_action_mask
from fcm_env.engine.actions import IllegalActionError
from fcm_env.engine.game import Game
from fcm_env.engine.state import Phase
from fcm_env.env import DECISION_NAMES, PHASE_NAMES
from fcm_env.env.aec import env, raw_env
from fcm_env.env.common import RENDER_SCALE
from fcm_env.picture import board_array
from fcm_env.text.state import state_ascii


def _play_out(e, seed: int, rng_seed: int = 0) -> dict[str, float]:
    """Random legal play to the end; returns every agent's summed rewards."""
    rng = np.random.default_rng(rng_seed)
    e.reset(seed=seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else random_legal(obs["action_mask"], rng))
        for a, r in e.rewards.items():
            totals[a] += r
    return totals


# ------------------------------------------------------------------ stock PettingZoo tests


# the only warnings allowed: PettingZoo's generic notes on Dict observations (mask inside them)
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_pettingzoo_api_test_plays_whole_games(num_players):
    e = env(num_players=num_players, max_rounds=2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(e, num_cycles=1000)
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_WARNINGS


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_pettingzoo_seed_test(num_players):
    seed_test(lambda: env(num_players=num_players, max_rounds=2), num_cycles=300)


def test_api_test_reaches_the_end_of_the_game():
    # api_test's play loop breaks when env.agents empties; check that a 2-round game fits in it
    e = env(num_players=2, max_rounds=2)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    for agent in e.agent_iter(2000 * 2):
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else random_legal(obs["action_mask"], rng))
        steps += 1
    assert e.agents == [] and steps < 2000 * 2


# ------------------------------------------------------------------ construction, spaces, seeding


def test_metadata_and_agents():
    e = raw_env(num_players=3)
    assert e.metadata["name"] == "fcm_magnate_v0"
    assert e.metadata["render_modes"] == ["human", "ansi", "rgb_array"]
    assert e.metadata["is_parallelizable"] is False
    assert e.possible_agents == ["player_0", "player_1", "player_2"]


def test_aec_to_parallel_is_refused_as_docs_frameworks_says():
    # one player decides at a time and the next one depends on the answer (docs/frameworks.md)
    from pettingzoo.utils.conversions import aec_to_parallel

    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(env(num_players=2))


def test_spaces_are_cached_and_shaped():
    e = env(num_players=4)
    for agent in e.possible_agents:
        obs_space, act_space = e.observation_space(agent), e.action_space(agent)
        assert obs_space is e.observation_space(agent) and act_space is e.action_space(agent)
        assert isinstance(obs_space, spaces.Dict) and set(obs_space) == {"observation", "action_mask"}
        assert obs_space["observation"].shape == (FLAT_SIZE,) and obs_space["observation"].dtype == np.float32
        assert obs_space["action_mask"].shape == (NUM_ACTIONS,) and obs_space["action_mask"].dtype == np.int8
        assert act_space == spaces.Discrete(NUM_ACTIONS)
    assert e.observation_space("player_0") is not e.observation_space("player_1")  # one object per agent


@pytest.mark.parametrize("kwargs", [
    {"num_players": 1}, {"num_players": 6}, {"variant": "deluxe"}, {"max_rounds": 0},
    {"reward": "score"}, {"shaping": "money"}, {"render_mode": "window"},
])
def test_bad_arguments_are_refused(kwargs):
    with pytest.raises(ValueError):
        raw_env(**kwargs)


def test_the_seed_picks_the_game_of_game_new():
    e = raw_env(num_players=3)
    e.reset(seed=17)
    assert fingerprint(e.game) == fingerprint(Game.new(3, 17, "standard", 30))
    assert e.agent_selection == f"player_{Game.new(3, 17).current_player}"


def test_unseeded_resets_follow_the_last_seed():
    a, b = raw_env(num_players=2), raw_env(num_players=2)
    a.reset(seed=5)
    b.reset(seed=5)
    games = []
    for _ in range(3):
        a.reset()
        b.reset()
        assert fingerprint(a.game) == fingerprint(b.game)
        games.append(a.game.state.seed)
    assert len(set(games)) == 3 and 5 not in games  # new games, drawn from the env's generator


def test_reset_accepts_options_and_numpy_seeds():
    e = raw_env(num_players=2)
    e.reset(seed=np.int64(3), options={"anything": 1})
    assert e.game.state.seed == 3
    with pytest.raises(TypeError):
        e.reset(seed=1.5)


def test_make_from_the_pettingzoo_registry_and_the_package():
    import pettingzoo

    made = pettingzoo.make("aec", "fcm/FoodChainMagnate-v0", num_players=2)
    made.reset(seed=1)
    assert made.possible_agents == ["player_0", "player_1"] and isinstance(made.unwrapped, raw_env)
    called = fcm_env.env(num_players=3)
    assert isinstance(called.unwrapped, raw_env) and called.unwrapped.num_players == 3
    assert fcm_env.raw_env is raw_env


def test_raw_env_pickles_through_ezpickle():
    e = pickle.loads(pickle.dumps(raw_env(num_players=5, variant="introductory", reward="rank")))
    assert (e.num_players, e.variant, e.reward_scheme) == (5, "introductory", "rank")


# ------------------------------------------------------------------ observations and masks


def test_observation_matches_the_encoder_and_the_mask_is_only_the_movers():
    e = raw_env(num_players=4)
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    observer = Observer()
    for _ in range(60):  # setup, restructuring, order of business and into working
        mover = e.game.current_player
        for p, agent in enumerate(e.possible_agents):
            obs = e.observe(agent)
            assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
            np.testing.assert_array_equal(obs["observation"], observer.observe_flat(e.game, p))
            if p == mover:
                np.testing.assert_array_equal(obs["action_mask"], legal_action_mask(e.game, p))
                assert obs["action_mask"].sum() == len(e.game.legal_actions()) > 0
            else:
                assert not obs["action_mask"].any()  # PettingZoo classic: all zeros when not your turn
        assert e.agent_selection == f"player_{mover}"
        e.step(random_legal(e.observe(e.agent_selection)["action_mask"], rng))


def test_returned_observations_are_copies():
    e = raw_env(num_players=2)
    e.reset(seed=0)
    first = e.observe("player_0")
    first["observation"][:] = 99.0
    first["action_mask"][:] = 1
    again = e.observe("player_0")
    assert again["observation"].max() < 99.0
    assert again["action_mask"].sum() in (0, len(e.game.legal_actions()))


def test_agent_selection_follows_the_changing_turn_order():
    e = raw_env(num_players=3, max_rounds=3)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    orders = set()
    while e.agents and not any(e.terminations.values()) and not any(e.truncations.values()):
        assert e.agent_selection == f"player_{e.game.current_player}"
        orders.add(tuple(e.game.state.turn_order))
        e.step(random_legal(e.observe(e.agent_selection)["action_mask"], rng))
    assert len(orders) > 1  # the turn order really changed during these rounds


# ------------------------------------------------------------------ illegal actions


def test_an_illegal_id_raises_naming_everything_and_changes_nothing():
    e = env(num_players=3)
    e.reset(seed=8)
    raw = e.unwrapped
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    # id 0 is "pass", legal here; the first unset id is a reserve card
    bad = int(np.flatnonzero(mask == 0)[0])
    before = (fingerprint(raw.game), agent, dict(raw.rewards), dict(raw._cumulative_rewards),
              repr(raw.infos), dict(raw.terminations), dict(raw.truncations))
    with pytest.raises(IllegalActionError) as caught:
        e.step(bad)
    message = str(caught.value)
    assert agent in message and f"action id {bad}" in message
    assert CODEC.action_to_string(bad, raw.game) in message
    assert raw.game.pending.decision.name in message  # INITIAL_RESTAURANT
    after = (fingerprint(raw.game), e.agent_selection, dict(raw.rewards), dict(raw._cumulative_rewards),
             repr(raw.infos), dict(raw.terminations), dict(raw.truncations))
    assert after == before
    e.step(int(np.flatnonzero(mask)[0]))  # the agent may still play a legal id


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 3.0, True, None, "pass"])
def test_ids_outside_the_space_raise(bad):
    e = env(num_players=2)
    e.reset(seed=1)
    before = fingerprint(e.unwrapped.game)
    with pytest.raises(IllegalActionError):
        e.step(bad)
    assert fingerprint(e.unwrapped.game) == before


def test_numpy_integer_ids_are_accepted():
    e = raw_env(num_players=2)
    e.reset(seed=1)
    legal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    e.step(np.int32(legal))
    e.step(np.array(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])))


# ------------------------------------------------------------------ endings and rewards


def test_truncation_at_max_rounds_pays_the_final_standing():
    # rules: not a rule (D44); rewards from the standing when the game is cut off
    e = env(num_players=3, max_rounds=2)
    totals = _play_out(e, seed=6)
    raw = e.unwrapped
    assert raw.game.is_over and raw.game.state.truncated and raw.game.state.round == 2
    winner = f"player_{raw.game.winners[0]}"
    assert totals[winner] == 1.0
    assert all(totals[a] == -0.5 for a in raw.possible_agents if a != winner)
    assert e.agents == []


def test_truncation_flags_and_final_infos():
    e = raw_env(num_players=2, max_rounds=1, info_strings=True)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    while not e.game.is_over:
        assert not any(e.truncations.values()) and not any(e.terminations.values())
        e.step(random_legal(e.observe(e.agent_selection)["action_mask"], rng))
    assert e.truncations == {"player_0": True, "player_1": True}
    assert e.terminations == {"player_0": False, "player_1": False}
    winner = f"player_{e.game.winners[0]}"
    for agent in e.possible_agents:
        info = e.infos[agent]
        assert info["phase"] == "game_over" and info["decision"] is None and info["to_move"] is None
        assert info["phase_id"] == PHASE_NAMES.index("game_over")
        assert info["decision_id"] == -1 and info["to_move_id"] == -1
        assert info["winners"] == [winner] and info["truncated_by_max_rounds"] is True
        assert info["winner"] is (agent == winner)
        assert info["rank"] == (0 if agent == winner else 1)
        assert info["cash"] == e.game.state.players[int(agent[-1])].cash
    # each agent steps None once, then the env is empty
    for agent in e.agent_iter():
        assert e.last()[3] is True
        e.step(None)
    assert e.agents == []


@pytest.fixture(scope="module")
def heuristic_ids():
    # 4 players, introductory, seed 1: the heuristic game ends by the rules (the bank breaks, D32)
    # with cash [88, 81, 81, 66] and the final turn order [1, 2, 0, 3]
    return heuristic_game_ids(4, 1, "introductory")


def _replay(ids, **kwargs) -> tuple[raw_env, dict[str, float]]:
    e = raw_env(num_players=4, variant="introductory", **kwargs)
    e.reset(seed=1)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for index in ids:
        e.step(index)
        for a, r in e.rewards.items():
            totals[a] += r
    return e, totals


# rules: C23 (most cash wins, a tie to the earlier seat); rank: 88 > 81 = 81 > 66, player 1 sits
# before player 2 in the final turn order [1, 2, 0, 3]
EXPECTED = {
    "win": {"player_0": 1.0, "player_1": -1 / 3, "player_2": -1 / 3, "player_3": -1 / 3},
    "rank": {"player_0": 1.0, "player_1": 1 / 3, "player_2": -1 / 3, "player_3": -1.0},
    "cash_share": {"player_0": 88 / 316 - 0.25, "player_1": 81 / 316 - 0.25, "player_2": 81 / 316 - 0.25,
                   "player_3": 66 / 316 - 0.25},
}


@pytest.mark.parametrize("scheme", ["win", "rank", "cash_share"])
def test_termination_by_the_rules_pays_hand_checked_zero_sum_rewards(heuristic_ids, scheme):
    e, totals = _replay(heuristic_ids, reward=scheme)
    state = e.game.state
    assert e.game.is_over and not state.truncated
    assert [p.cash for p in state.players] == [88, 81, 81, 66] and state.turn_order == [1, 2, 0, 3]
    assert all(e.terminations.values()) and not any(e.truncations.values())
    assert totals == pytest.approx(EXPECTED[scheme], abs=1e-12)
    assert sum(totals.values()) == pytest.approx(0.0, abs=1e-12)
    assert [e.infos[f"player_{p}"]["winner"] for p in range(4)] == [True, False, False, False]
    assert [e.infos[f"player_{p}"]["rank"] for p in range(4)] == [0, 1, 2, 3]


def test_cash_shaping_pays_cash_changes_on_top(heuristic_ids):
    # players start with $0 (rules: Setting up), so the shaping sums to final cash / 100
    e, totals = _replay(heuristic_ids, reward="win", shaping="cash")
    cash = [88, 81, 81, 66]
    for p, agent in enumerate(e.possible_agents):
        assert totals[agent] == pytest.approx(EXPECTED["win"][agent] + cash[p] / 100, abs=1e-12)
    assert sum(totals.values()) == pytest.approx(sum(cash) / 100)  # not zero-sum


def test_cash_shaping_pays_on_the_step_the_cash_changes(heuristic_ids):
    e = raw_env(num_players=4, variant="introductory", shaping="cash")
    e.reset(seed=1)
    paid = False
    for index in heuristic_ids[:-1]:  # the last step also pays the end-of-game rewards
        before = [p.cash for p in e.game.state.players]
        e.step(index)
        after = [p.cash for p in e.game.state.players]
        for p, agent in enumerate(e.possible_agents):
            assert e.rewards[agent] == pytest.approx((after[p] - before[p]) / 100)
        paid |= before != after
    assert paid


def test_last_returns_rewards_accumulated_since_the_agents_last_move(heuristic_ids):
    e = env(num_players=4, variant="introductory", shaping="cash")
    e.reset(seed=1)
    since = dict.fromkeys(e.possible_agents, 0.0)
    for index in heuristic_ids:
        agent = e.agent_selection
        assert e.last(observe=False)[1] == pytest.approx(since[agent])
        since[agent] = 0.0
        e.step(index)
        for a, r in e.rewards.items():
            since[a] += r


# ------------------------------------------------------------------ infos, rendering, close


def test_infos_are_deterministic_and_describe_the_decision():
    e = raw_env(num_players=2)
    e.reset(seed=9)
    mover = e.agent_selection
    other = next(a for a in e.possible_agents if a != mover)
    mover_id = e.agent_name_mapping[mover]
    # numbers only, the same keys on every step: any framework can tensorize them (TorchRL does)
    assert e.infos[mover] == {"phase_id": 0, "decision_id": 0, "round": 0, "to_move_id": mover_id,
                              "legal_action_count": len(e.game.legal_actions()), "cash": 0, "rank": -1,
                              "winner": False, "truncated_by_max_rounds": False}
    assert e.infos[other]["legal_action_count"] == 0 and e.infos[other]["to_move_id"] == mover_id
    assert PHASE_NAMES[0] == "setup_restaurants" and DECISION_NAMES[0] == "initial_restaurant"
    twin = raw_env(num_players=2)
    twin.reset(seed=9)
    assert twin.infos == e.infos
    # info_strings=True adds the readable names (the keys of the infos before the numeric ones)
    named = raw_env(num_players=2, info_strings=True)
    named.reset(seed=9)
    assert named.infos[mover] == {**e.infos[mover], "phase": "setup_restaurants",
                                  "decision": "initial_restaurant", "to_move": mover}
    assert named.infos[other]["to_move"] == mover


def test_render_modes():
    ansi = raw_env(num_players=2, render_mode="ansi")
    ansi.reset(seed=0)
    text = ansi.render()
    assert isinstance(text, str) and text == state_ascii(ansi.game.snapshot().state)
    rgb = env(num_players=2, render_mode="rgb_array")
    rgb.reset(seed=0)
    image = rgb.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    np.testing.assert_array_equal(image, board_array(rgb.unwrapped.game.snapshot().state, scale=RENDER_SCALE))
    silent = raw_env(num_players=2)
    silent.reset(seed=0)
    with pytest.warns(UserWarning):
        assert silent.render() is None
    silent.close()
    silent.close()  # closing twice is fine


@pytest.mark.parametrize("num_players", [3, 4, 5])  # 2 players: tests/env/test_render_modes.py
def test_pettingzoo_render_test(num_players):
    render_test(lambda render_mode=None: env(num_players=num_players, render_mode=render_mode))


def test_the_game_over_phase_is_reached_by_the_env():
    e = raw_env(num_players=2, max_rounds=1)
    _play_out(e, seed=0)
    assert e.game.state.phase == Phase.GAME_OVER
