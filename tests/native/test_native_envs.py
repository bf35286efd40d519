"""One switch, the same games: the envs on ``engine="native"`` give exactly what they give on ``engine="python"``
for the same seeds and actions: observations, masks, rewards, terminations, truncations and infos, in the
AEC env, the single-agent env and the vector env (the batched C++ one over 1 and 2 threads included), at
2-5 players in both variants; an illegal id is refused on the native engine as on the Python one, and
changes nothing."""

from __future__ import annotations

import numpy as np
import pytest

import fcm_env
from fcm_env.engine.actions import IllegalActionError
from fcm_env.env.single_agent import FcmSingleAgentEnv
from fcm_env.env.vector import FcmVectorEnv, pick_from_masks


def _same(a, b) -> None:
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _same(a[k], b[k])
    elif isinstance(a, (tuple, list)):
        assert type(a) is type(b) and len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _same(x, y)
    elif isinstance(a, np.ndarray) and a.dtype == object:
        assert isinstance(b, np.ndarray) and b.dtype == object and a.shape == b.shape
        for x, y in zip(a, b, strict=True):
            _same(x, y)
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    else:
        assert a == b


@pytest.mark.parametrize(("players", "variant", "reward", "shaping"), [
    (2, "standard", "win", None), (3, "introductory", "rank", "cash"), (4, "standard", "cash_share", "cash_lead"),
    (5, "introductory", "win", None),
])
def test_the_aec_env_is_the_same_on_both_engines(players, variant, reward, shaping):
    envs = {engine: fcm_env.env(num_players=players, variant=variant, max_rounds=8, reward=reward, shaping=shaping,
                                engine=engine) for engine in ("native", "python")}
    assert envs["native"].unwrapped.game is None
    for env in envs.values():
        env.reset(seed=players * 7)
    assert envs["native"].unwrapped.game.native_core is not None and envs["python"].unwrapped.game.native_core is None
    rng = np.random.default_rng(players)
    steps = 0
    while envs["python"].agents:
        agent = envs["python"].agent_selection
        assert envs["native"].agent_selection == agent
        lasts = {engine: env.last() for engine, env in envs.items()}
        _same(lasts["native"][0], lasts["python"][0])
        assert lasts["native"][1:] == lasts["python"][1:]
        if steps % 17 == 0:  # every agent's observation, now and then
            for other in envs["python"].agents:
                _same(envs["native"].observe(other), envs["python"].observe(other))
        done = lasts["python"][2] or lasts["python"][3]
        action = None if done else int(rng.choice(np.flatnonzero(lasts["python"][0]["action_mask"])))
        for env in envs.values():
            env.step(action)
        steps += 1
    assert not envs["native"].agents and steps > 50


def test_the_single_agent_env_is_the_same_on_both_engines():
    envs = {engine: FcmSingleAgentEnv(num_players=3, max_rounds=6, shaping="cash", learner_seat="random",
                                      engine=engine) for engine in ("native", "python")}
    rng = np.random.default_rng(5)
    for episode in range(2):
        results = {engine: env.reset(seed=40 + episode) for engine, env in envs.items()}
        _same(results["native"], results["python"])
        while True:
            mask = results["python"][-1]["action_mask"]
            action = int(rng.choice(np.flatnonzero(mask)))
            results = {engine: env.step(action) for engine, env in envs.items()}
            _same(results["native"][0], results["python"][0])
            assert results["native"][1:4] == results["python"][1:4]
            _same(results["native"][4], results["python"][4])
            if results["python"][2] or results["python"][3]:
                break


@pytest.mark.parametrize("threads", [1, 2, 3])  # 3: shares of 1, 2 and 2 of the 5 games
def test_the_batched_native_vector_env_plays_the_python_vector_envs_games(threads):
    kwargs = {"num_players": 4, "max_rounds": 4, "reward": "rank", "shaping": "cash_lead", "learner_seat": "random"}
    native = FcmVectorEnv(num_envs=5, threads=threads, engine="native", **kwargs)
    python = FcmVectorEnv(num_envs=5, engine="python", **kwargs)
    assert native._native is not None and python._native is None
    obs_n, _ = native.reset(seed=11)
    obs_p, _ = python.reset(seed=11)
    _same(obs_n, obs_p)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        masks = python.action_masks()
        _same(native.action_masks(), masks)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        out_n, out_p = native.step(actions), python.step(actions)
        for a, b in zip(out_n[:4], out_p[:4], strict=True):
            _same(a, b)
        _same(out_n[4], out_p[4])
        for i in range(5):
            assert (native.final_infos[i] is None) == (python.final_infos[i] is None)
            if python.final_infos[i] is not None:
                finished += 1
                _same(native.final_observations[i], python.final_observations[i])
                assert native.final_infos[i] == python.final_infos[i]
    assert finished >= 5


def test_pick_from_masks_takes_the_floor_of_u_times_k_th_set_column():
    masks = np.zeros((3, 10), dtype=bool)
    masks[0, [2, 5, 7]] = True  # k = 3: u = 0.5 -> the 1st (0-based) -> column 5
    masks[1, [9]] = True  # k = 1: any u -> column 9
    masks[2, [0, 1, 3, 4]] = True  # k = 4: u = 0.99 -> the 3rd -> column 4
    assert pick_from_masks(masks, np.array([0.5, 0.0, 0.99])).tolist() == [5, 9, 4]
    masks[1, 9] = False
    with pytest.raises(ValueError, match="sub-env 1 has no legal action"):
        pick_from_masks(masks, np.array([0.5, 0.5, 0.5]))


@pytest.mark.parametrize("threads", [1, 2])
def test_random_actions_are_legal_and_the_same_ids_on_both_engines(threads):
    envs = {engine: FcmVectorEnv(num_envs=6, engine=engine, threads=threads if engine == "native" else 1,
                                 num_players=3, max_rounds=3) for engine in ("native", "python")}
    with pytest.raises(RuntimeError, match="call reset"):
        envs["native"].random_actions(np.random.default_rng(0))
    rngs = {engine: np.random.default_rng(5) for engine in envs}
    for engine, env in envs.items():
        env.reset(seed=3)
    for _ in range(150):
        picked = {engine: env.random_actions(rngs[engine]) for engine, env in envs.items()}
        assert picked["native"].tolist() == picked["python"].tolist()
        assert envs["python"].action_masks()[np.arange(6), picked["python"]].all()
        for engine, env in envs.items():
            env.step(picked[engine])
    with pytest.raises(ValueError, match=r"draw 2 must lie in \[0, 1\), got 1\.5"):
        envs["native"]._native.pick(np.array([0.1, 0.1, 1.5, 0.1, 0.1, 0.1]))


def test_an_illegal_id_in_the_native_batch_changes_nothing():
    env = FcmVectorEnv(num_envs=3, engine="native", num_players=2, max_rounds=3)
    env.reset(seed=1)
    masks = env.action_masks()
    actions = np.array([np.flatnonzero(m)[0] for m in masks])
    bad = int(np.flatnonzero(masks[1] == 0)[-1])  # a board placement the position does not allow
    actions[1] = bad
    with pytest.raises(IllegalActionError, match=f"sub-env 1: action id {bad} is not legal"):
        env.step(actions)
    _same(env.action_masks(), masks)
    actions[1] = np.flatnonzero(masks[1])[0]
    env.step(actions)  # the batch goes on from where it was


def test_an_illegal_id_on_the_native_aec_env_is_refused_as_on_python():
    messages = {}
    for engine in ("native", "python"):
        env = fcm_env.env(num_players=2, engine=engine)
        env.reset(seed=3)
        mask = env.last()[0]["action_mask"]
        bad = int(np.flatnonzero(mask == 0)[-1])
        with pytest.raises(IllegalActionError) as error:
            env.step(bad)
        messages[engine] = str(error.value)
        _same(env.last()[0]["action_mask"], mask)
    assert messages["native"] == messages["python"]


class _Spy:
    """An opponent that plays the first legal action and notes which engine's game it was shown."""

    def __init__(self, plays_native: bool):
        self.plays_native = plays_native
        self.shown: set[str] = set()

    def act_on_game(self, game, player):
        self.shown.add(getattr(game, "engine", "python"))
        return game.legal_actions()[0]


def test_an_opponent_that_plays_native_is_shown_the_native_game_the_others_a_python_copy():
    native, python = _Spy(True), _Spy(False)
    env = FcmSingleAgentEnv(num_players=3, max_rounds=2, opponents=[native, python], engine="native")
    _, info = env.reset(seed=3)
    for _ in range(30):
        _, _, done, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if done or truncated:
            break
    assert native.shown == {"native"} and python.shown == {"python"}
