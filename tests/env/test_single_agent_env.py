"""The Gymnasium single-agent view: API checkers, equivalence with the AEC env, opponents, seeding."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from env_helpers import fingerprint, random_legal
from gymnasium.utils import env_checker, passive_env_checker

from fcm_env.encoding import CODEC, FLAT_SIZE, NUM_ACTIONS, Observer, legal_action_mask
from fcm_env.engine.actions import IllegalActionError
from fcm_env.env.aec import raw_env
from fcm_env.env.checks import LegalActionWrapper, check_envs
from fcm_env.env.rewards import final_rewards
from fcm_env.env.single_agent import FcmSingleAgentEnv


class Spy:
    """An observation-only opponent (no act_on_game) that records what it was given."""

    def __init__(self, seed: int = 0):
        self.name = "spy"
        self.rng = np.random.default_rng(seed)
        self.calls = 0
        self.resets = 0

    def reset(self):
        self.resets += 1

    def act(self, observation, action_mask):
        assert observation.shape == (FLAT_SIZE,) and observation.dtype == np.float32
        assert action_mask.shape == (NUM_ACTIONS,) and action_mask.dtype == np.int8 and action_mask.any()
        self.calls += 1
        return random_legal(action_mask, self.rng)


# ------------------------------------------------------------------ API checkers


def test_gymnasium_check_env():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unbounded Box, wrapped env: warnings only
        wrapped = LegalActionWrapper(FcmSingleAgentEnv(num_players=3, max_rounds=3))
        env_checker.check_env(wrapped, skip_render_check=True)  # render: see the next test


def test_check_envs_runs_both_checkers():
    check_envs(num_players=2, max_rounds=2, num_cycles=200)


def test_legal_action_wrapper_maps_ids_onto_the_legal_ones_and_wraps_only_this_env():
    wrapped = LegalActionWrapper(FcmSingleAgentEnv(num_players=2, max_rounds=2))
    wrapped.reset(seed=5)
    legal = np.flatnonzero(wrapped.unwrapped.action_masks())
    assert wrapped.action(legal.size + 2) == legal[2] and wrapped.action(0) == legal[0]
    with pytest.raises(TypeError, match="wraps FcmSingleAgentEnv"):
        LegalActionWrapper(gymnasium.make("CartPole-v1"))


def test_gymnasium_checks_on_the_bare_env():
    # the checks that do not step with an unmasked sample run on the env itself
    e = FcmSingleAgentEnv(num_players=2, max_rounds=2, render_mode="ansi")
    env_checker.check_action_space(e.action_space)
    env_checker.check_observation_space(e.observation_space)
    env_checker.check_reset_return_type(e)
    env_checker.check_reset_seed_determinism(e)
    env_checker.check_reset_options(e)
    passive_env_checker.env_reset_passive_checker(e)
    passive_env_checker.env_step_passive_checker(e, int(np.flatnonzero(e.action_masks())[0]))
    passive_env_checker.env_render_passive_checker(e)
    rgb = FcmSingleAgentEnv(num_players=2, render_mode="rgb_array")
    rgb.reset(seed=0)
    passive_env_checker.env_render_passive_checker(rgb)
    e.close()
    e.close()


def test_stable_baselines3_check_env():
    from stable_baselines3.common.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(LegalActionWrapper(FcmSingleAgentEnv(num_players=2, max_rounds=2)))


def test_gymnasium_make_from_the_registry():
    made = gymnasium.make("fcm/FoodChainMagnateSingle-v0", num_players=2, max_rounds=2)
    obs, info = made.reset(seed=3)
    assert obs.shape == (FLAT_SIZE,) and info["learner_id"] == 0
    masks = made.get_wrapper_attr("action_masks")()
    obs, _reward, _terminated, _truncated, info = made.step(int(np.flatnonzero(masks)[0]))
    assert obs.dtype == np.float32


# ------------------------------------------------------------------ spaces, masks, observations


def test_spaces_masks_and_observations():
    e = FcmSingleAgentEnv(num_players=3, learner_seat=1)
    assert e.observation_space.shape == (FLAT_SIZE,) and e.observation_space.dtype == np.float32
    assert e.action_space == gymnasium.spaces.Discrete(NUM_ACTIONS)
    obs, info = e.reset(seed=5)
    assert e.game.current_player == 1 and info["learner_id"] == 1 and info["to_move_id"] == 1
    np.testing.assert_array_equal(obs, Observer().observe_flat(e.game, 1))
    masks = e.action_masks()
    assert masks.dtype == bool
    np.testing.assert_array_equal(masks, legal_action_mask(e.game, 1).astype(bool))
    assert info["legal_action_count"] == masks.sum()
    np.testing.assert_array_equal(info["action_mask"], masks.astype(np.int8))  # Gymnasium's way (Taxi)
    obs[:] = 7.0
    masks[:] = False
    assert e.action_masks().any() and e.observe_into(np.zeros(FLAT_SIZE, np.float32)).max() < 7.0


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError):
        FcmSingleAgentEnv(num_players=2, learner_seat=2)
    with pytest.raises(ValueError):
        FcmSingleAgentEnv(num_players=2, learner_seat="any")
    with pytest.raises(ValueError):
        FcmSingleAgentEnv(num_players=3, opponents=[Spy()])
    with pytest.raises(ValueError):
        FcmSingleAgentEnv(num_players=2, opponents=[Spy()], opponent_sampler=lambda rng: [Spy()])
    with pytest.raises(TypeError):
        FcmSingleAgentEnv(num_players=2, opponents=[object()])
    with pytest.raises(ValueError):
        FcmSingleAgentEnv(reward="score")


def test_an_illegal_id_raises_and_changes_nothing():
    e = FcmSingleAgentEnv(num_players=2)
    e.reset(seed=1)
    bad = int(np.flatnonzero(~e.action_masks())[0])
    before = fingerprint(e.game)
    with pytest.raises(IllegalActionError, match=rf"player_0: action id {bad} \("):
        e.step(bad)
    assert fingerprint(e.game) == before
    e.step(int(np.flatnonzero(e.action_masks())[0]))


def test_stepping_a_finished_episode_is_refused():
    e = FcmSingleAgentEnv(num_players=2, max_rounds=1)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        _, _, terminated, truncated, info = e.step(random_legal(e.action_masks(), rng))
        done = terminated or truncated
    assert truncated and not terminated and info["truncated_by_max_rounds"]
    assert not e.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)


# ------------------------------------------------------------------ same rewards as the AEC env


def test_rewards_and_observations_match_the_aec_env():
    """One learner (player 1) against heuristic opponents; the same game played through both envs.

    2 players, introductory, seed 2: the game ends by the rules, so the end-of-game reward and
    the cash shaping both show up. The single env's reward for a learner step is what the AEC
    env's ``last()`` reports to the learner at its next turn (or at the end).
    """
    from fcm_agents import HeuristicAgent

    kwargs = {"num_players": 2, "variant": "introductory", "reward": "rank", "shaping": "cash"}
    single = FcmSingleAgentEnv(**kwargs, learner_seat=1, opponents=[HeuristicAgent(seed=0)])
    aec = raw_env(**kwargs)
    twin = HeuristicAgent(seed=0)
    obs, _ = single.reset(seed=2)
    aec.reset(seed=2)
    rng = np.random.default_rng(7)
    rewards = []
    while True:
        # the AEC env: the opponent plays until the learner is to move (or the game ends)
        while aec.agents and aec.agent_selection != "player_1":
            if aec.terminations["player_0"] or aec.truncations["player_0"]:
                aec.step(None)
                continue
            aec.step(CODEC.encode(twin.act_on_game(aec.game, 0)))
        aec_obs, aec_reward, term, trunc, _ = aec.last()
        if rewards:
            assert rewards[-1] == pytest.approx(aec_reward, abs=1e-12)
        if term or trunc:
            break
        np.testing.assert_array_equal(obs, aec_obs["observation"])
        np.testing.assert_array_equal(single.action_masks(), aec_obs["action_mask"].astype(bool))
        action = random_legal(single.action_masks(), rng)
        obs, reward, terminated, truncated, _ = single.step(action)
        rewards.append(reward)
        aec.step(action)
    assert terminated and not truncated and term
    assert fingerprint(single.game) == fingerprint(aec.game)
    # players start with $0, so the shaping adds up to the final cash / 100
    expected = final_rewards(single.game.state, "rank")[1] + single.game.state.players[1].cash / 100
    assert sum(rewards) == pytest.approx(expected, abs=1e-12)


# ------------------------------------------------------------------ opponents and seeding


def test_game_agents_are_asked_through_act_on_game():
    class GameOnly:
        name = "game-only"

        def __init__(self):
            self.calls = 0

        def act_on_game(self, game, player):
            assert game.current_player == player
            self.calls += 1
            return game.legal_actions()[0]

        def act(self, observation, action_mask):  # pragma: no cover - must not be used
            raise AssertionError("act_on_game is preferred")

    opponent = GameOnly()
    e = FcmSingleAgentEnv(num_players=2, max_rounds=1, opponents=[opponent])
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        _, _, terminated, truncated, _ = e.step(random_legal(e.action_masks(), rng))
        done = terminated or truncated
    assert opponent.calls >= 3 and e.game.is_over


def test_observation_agents_get_their_own_observation_and_mask():
    spies = [Spy(1), Spy(2)]
    e = FcmSingleAgentEnv(num_players=3, max_rounds=1, opponents=spies, learner_seat=2)
    e.reset(seed=0)
    assert [s.resets for s in spies] == [1, 1]
    rng = np.random.default_rng(0)
    done = False
    while not done:
        _, _, terminated, truncated, _ = e.step(random_legal(e.action_masks(), rng))
        done = terminated or truncated
    assert all(s.calls >= 3 for s in spies) and e.game.is_over
    assert e.opponents == {0: spies[0], 1: spies[1]}


def test_a_bad_opponent_answer_names_the_opponent():
    class Cheater:
        name = "cheater"

        def act_on_game(self, game, player):
            return game.legal_actions()[0].__class__(game.legal_actions()[0].kind, (99, 99, 99))

    e = FcmSingleAgentEnv(num_players=2, opponents=[Cheater()], learner_seat=0)
    with pytest.raises(IllegalActionError, match="opponent 'cheater' \\(player_1\\)"):
        e.reset(seed=0)  # in this game player 1 places the first restaurant
        e.step(int(np.flatnonzero(e.action_masks())[0]))


def test_the_same_seed_gives_the_same_episode_with_default_opponents():
    def episode(env):
        obs, _ = env.reset(seed=11)
        rng = np.random.default_rng(1)
        trace = [obs.sum()]
        done = False
        while not done:
            obs, reward, terminated, truncated, _ = env.step(random_legal(env.action_masks(), rng))
            trace.append((obs.sum(), reward))
            done = terminated or truncated
        return trace, fingerprint(env.game)

    kwargs = {"num_players": 3, "max_rounds": 2, "learner_seat": "random"}
    assert episode(FcmSingleAgentEnv(**kwargs)) == episode(FcmSingleAgentEnv(**kwargs))


def test_the_default_opponents_play_what_random_agents_with_their_seeds_play():
    # the env's own random player (the env imports no agent package) is fcm_agents.RandomAgent's twin
    from fcm_agents import RandomAgent

    def episode(opponents=None):
        env = FcmSingleAgentEnv(num_players=3, max_rounds=2, learner_seat=0, opponents=opponents)
        env.reset(seed=5)
        rng = np.random.default_rng(2)
        done, steps = False, 0
        while not done:
            _, _, terminated, truncated, _ = env.step(random_legal(env.action_masks(), rng))
            done, steps = terminated or truncated, steps + 1
        return steps, fingerprint(env.game)

    plain = FcmSingleAgentEnv(num_players=3, max_rounds=2, learner_seat=0)
    plain.reset(seed=5)
    seeds = [plain.opponents[p]._rng.bit_generator.seed_seq.entropy for p in sorted(plain.opponents)]
    assert len(set(seeds)) == 2
    assert episode() == episode([RandomAgent(seed=s) for s in seeds])
    assert episode() != episode([RandomAgent(seed=s + 1) for s in seeds])  # the seeds matter


def test_random_learner_seat_and_game_seed_come_from_the_env_generator():
    e = FcmSingleAgentEnv(num_players=4, learner_seat="random")
    twin = FcmSingleAgentEnv(num_players=4, learner_seat="random")
    e.reset(seed=3)
    twin.reset(seed=3)
    assert e.game.state.seed == twin.game.state.seed == 3 and e.learner == twin.learner
    seats, seeds = [], []
    for _ in range(12):
        e.reset()
        twin.reset()
        assert (e.learner, e.game.state.seed) == (twin.learner, twin.game.state.seed)
        assert e.game.current_player == e.learner
        seats.append(e.learner)
        seeds.append(e.game.state.seed)
    assert set(seats) == {0, 1, 2, 3} and len(set(seeds)) == 12


def test_the_opponent_sampler_gets_the_env_generator_every_episode():
    drawn = []

    def sampler(rng):
        assert isinstance(rng, np.random.Generator)
        drawn.append(int(rng.integers(1000)))
        return [Spy(drawn[-1])]

    e = FcmSingleAgentEnv(num_players=2, opponent_sampler=sampler)
    twin_draws = []
    e.reset(seed=4)
    e.reset()
    twin = FcmSingleAgentEnv(num_players=2, opponent_sampler=lambda rng: (twin_draws.append(
        int(rng.integers(1000))), [Spy()])[1])
    twin.reset(seed=4)
    twin.reset()
    assert drawn == twin_draws and len(drawn) == 2
    assert isinstance(e.opponents[1], Spy) and e.opponents[1].resets == 1


def test_render_modes():
    e = FcmSingleAgentEnv(num_players=2, render_mode="ansi")
    e.reset(seed=0)
    assert isinstance(e.render(), str)
    e = FcmSingleAgentEnv(num_players=2, render_mode="rgb_array")
    e.reset(seed=0)
    image = e.render()
    assert image.dtype == np.uint8 and image.shape == (692, 672, 3)  # 2-player map: tests/env/test_render_modes.py


def test_truncation_can_be_reported_as_termination():
    # the end-of-game reward is paid at the cut-off, so a learner may treat it as a true end
    ends = []
    for as_termination in (False, True):
        e = FcmSingleAgentEnv(num_players=2, max_rounds=1, truncation_as_termination=as_termination)
        e.reset(seed=0)
        rng = np.random.default_rng(0)
        while True:
            _, reward, terminated, truncated, info = e.step(random_legal(e.action_masks(), rng))
            if terminated or truncated:
                ends.append((terminated, truncated, reward, info["truncated_by_max_rounds"]))
                break
    assert ends[0][:2] == (False, True) and ends[1][:2] == (True, False)
    assert ends[0][2:] == ends[1][2:] and ends[0][3] is True


def test_cash_lead_shaping_adds_up_to_the_final_lead():
    """2 players, introductory, seed 2, learner player 1 vs the heuristic: the zero-sum shaping
    pays the change of (own cash - the other's cash) / 100, so over the game it sums to the final
    lead / 100 (both start with $0), on top of the end-of-game reward."""
    from fcm_agents import HeuristicAgent

    env = FcmSingleAgentEnv(num_players=2, variant="introductory", reward="win", shaping="cash_lead",
                            learner_seat=1, opponents=[HeuristicAgent(seed=0)])
    env.reset(seed=2)
    rng = np.random.default_rng(3)
    total, done = 0.0, False
    while not done:
        _, reward, terminated, truncated, _ = env.step(random_legal(env.action_masks(), rng))
        total += reward
        done = terminated or truncated
    cash = [p.cash for p in env.game.state.players]
    expected = final_rewards(env.game.state, "win")[1] + (cash[1] - cash[0]) / 100
    assert total == pytest.approx(expected, abs=1e-12)


def test_game_seeds_keep_unseeded_resets_inside_the_range():
    env = FcmSingleAgentEnv(num_players=2, max_rounds=1, game_seeds=(500, 503))
    env.reset(seed=9)  # an explicit seed is used as given
    assert env.game.state.seed == 9
    seen = set()
    for _ in range(12):
        env.reset()
        seen.add(env.game.state.seed)
    assert seen <= {500, 501, 502} and len(seen) > 1
    with pytest.raises(ValueError, match="game_seeds"):
        FcmSingleAgentEnv(num_players=2, game_seeds=(5, 5))
