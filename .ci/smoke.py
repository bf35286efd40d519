"""Smoke test of an installed (non-editable) core install: run from outside the checkout.

.ci/run installs the package with the lowest declared dependency versions
(.ci/lowest-constraints.txt) into a fresh virtualenv without the [train] extra (no torch)
and runs this file; it exercises every entry point a core user touches.
"""

from __future__ import annotations

import importlib.metadata
import importlib.resources
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pettingzoo

import fcm_env

here = Path(fcm_env.__file__).resolve().parent
assert "site-packages" in str(here), f"run against an installed package, not a checkout: {here}"
for name in ("agents", "training", "configs"):
    assert importlib.util.find_spec(name) is None, f"the wheel installs a generic top-level package {name!r}"
assert importlib.util.find_spec("torch") is None, "the core install must not pull torch"

# the compiled native core is in the wheel and draws numpy's numbers (tests/native/test_native_rng.py)
from fcm_env.native import Pcg64

assert Pcg64(3).permutation(5) == [int(v) for v in np.random.default_rng(3).permutation(5)]

# the README's PettingZoo example
env = pettingzoo.make("aec", "fcm/FoodChainMagnate-v0", num_players=3)
env.reset(seed=42)
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    mask = observation["action_mask"]
    env.step(None if termination or truncation else env.action_space(agent).sample(mask))
assert env.unwrapped.game.is_over

# the Gymnasium registry, the single-agent and the vector env, the API checkers
single = gymnasium.make("fcm/FoodChainMagnateSingle-v0", num_players=2, max_rounds=2)
obs, info = single.reset(seed=1)
single.step(int(np.flatnonzero(single.get_wrapper_attr("action_masks")())[0]))
vec = fcm_env.env.FcmVectorEnv(num_envs=2, num_players=2, max_rounds=2)
vec.reset(seed=0)
vec.step(np.array([np.flatnonzero(m)[0] for m in vec.action_masks()]))
fcm_env.env.check_envs(num_players=2, max_rounds=2, num_cycles=100)

# the shipped policy plays with onnxruntime alone
from fcm_agents import load_agent
from fcm_agents.match import play_game

result = play_game([load_agent("policy"), load_agent("heuristic")], seed=20_000_000, max_rounds=3)
assert len(result.cash) == 2

# the configs ship as package data
configs = sorted(p.name for p in importlib.resources.files("fcm_training.configs").iterdir() if p.name.endswith(".yaml"))
assert "quick.yaml" in configs, configs

# the command line, as a user runs it
def fcm(*args: str, stdin: str | None = None) -> str:
    done = subprocess.run([sys.executable, "-m", "fcm_apps", *args], input=stdin, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, f"fcm {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


fcm("map", "--players", "2")
fcm("simulate", "--agents", "heuristic,random", "--games", "2", "--max-rounds", "3", "--no-progress")
reply = fcm("serve", "--stdio", stdin='{"cmd": "new", "num_players": 2, "bots": {"1": "heuristic"}}\n')
assert json.loads(reply.splitlines()[0])["ok"], reply

versions = {d: importlib.metadata.version(d) for d in ("numpy", "gymnasium", "pettingzoo", "onnxruntime",
                                                       "openskill", "rich", "pydantic", "pillow")}
print("smoke test passed with", ", ".join(f"{k} {v}" for k, v in versions.items()))
