"""A pure-Python install (``FCM_PURE_PYTHON=1 pip install .``: no compiled core) still plays: ``engine="auto"``
falls back to the Python engine with one line on stderr and no traceback, ``engine="native"`` is refused with
a message that says what is missing, and the Python engine is unchanged. The core is hidden from a fresh
interpreter as it would be missing."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import sys
sys.modules["fcm_env.native._core"] = None  # as an install without the compiled part
import fcm_env
env = fcm_env.env(num_players=2)
env.reset(seed=3)
print(type(env.unwrapped.game).__name__, env.unwrapped.engine)
env = fcm_env.env(num_players=2)  # the notice is given once per process
try:
    fcm_env.env(num_players=2, engine="native")
except ValueError as error:
    print("refused:", error)
"""


def test_without_the_core_the_envs_run_on_python_with_one_notice():
    done = subprocess.run([sys.executable, "-c", SCRIPT], check=False, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert out[0] == "PythonGame python"
    assert out[1].startswith("refused: engine='native' needs the C++ core, which this install lacks: ")
    assert done.stderr.splitlines() == [(
        "fcm_env: the native core is not built in this install; the envs run on the Python engine "
        "(docs/native.md says how to build it)")]
