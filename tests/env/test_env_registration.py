"""Registration with PettingZoo and Gymnasium, the ``fcm_env.env`` spelling, a light ``import fcm_env``,
and the documentation page staying in step with the action codec."""

from __future__ import annotations

import subprocess
import sys

import gymnasium
import numpy as np
import pettingzoo

from fcm_env.encoding import CODEC, FLAT_SIZE, NUM_ACTIONS, VECTOR_SIZE, observation_layout
from fcm_env.env import aec


def test_import_fcm_env_loads_no_torch_and_no_engine():
    code = ("import sys, fcm_env; "
            "print(sorted(m for m in ('torch', 'stable_baselines3', 'fcm_env.engine', 'fcm_env.env') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_both_ids_are_registered():
    assert "fcm/FoodChainMagnate-v0" in pettingzoo.aec_registry
    assert pettingzoo.spec("aec", "fcm/FoodChainMagnate-v0").entry_point == "fcm_env.env.aec:env"
    assert gymnasium.spec("fcm/FoodChainMagnateSingle-v0").entry_point == (
        "fcm_env.env.single_agent:FcmSingleAgentEnv")


def test_fcm_env_env_is_the_package_and_the_constructor():
    import fcm_env.env.vector

    e = fcm_env.env(num_players=2, max_rounds=1)
    e.reset(seed=0)
    assert e.agent_selection in ("player_0", "player_1")
    assert fcm_env.env.aec is aec and fcm_env.env.raw_env is aec.raw_env


def test_the_documentation_page_lists_the_codec_segments():
    doc = aec.__doc__
    for seg in CODEC.segments:
        assert f"| `{seg.name}` | {seg.start}-{seg.stop - 1} | {seg.size} |" in doc, seg.name
    assert f"Discrete({NUM_ACTIONS})" in doc and f"({FLAT_SIZE},)" in doc and f"{VECTOR_SIZE} scalars" in doc
    channels, rows, cols = observation_layout().board_shape
    assert f"{channels} board planes of {rows} x {cols}" in doc


def test_a_chain_that_left_the_turn_order_can_still_observe():
    # rules: C21, D45 - a bankrupt chain leaves the turn order at Clean-up but stays in the env's agents
    # until the game ends, and every agent observes the end (the AEC env's final last() calls).
    e = aec.raw_env(num_players=3, engine="python")  # a position edited by hand: the Python engine's state
    e.reset(seed=0)
    state = e.game.state
    gone = next(p for p in reversed(state.turn_order) if p != e.game.current_player)
    state.players[gone].bankrupt = True
    state.turn_order = [p for p in state.turn_order if p != gone]
    e.game.advance()  # a hand-edited position: the engine stamps it as changed everywhere
    obs = e.observe(f"player_{gone}")
    assert obs["observation"].shape == (FLAT_SIZE,) and not np.asarray(obs["action_mask"]).any()


def test_the_usage_example_of_the_documentation_page_runs(capsys):
    doc = aec.__doc__
    block = doc.split("### Usage", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    exec(compile(block, "aec-usage", "exec"), {})  # noqa: S102 - our own docstring: a whole random game
    printed = capsys.readouterr().out
    assert "player 0" in printed and "player 2" in printed  # the ansi picture lists every player
