"""The README's code examples run as written (the training one with fewer steps)."""

from __future__ import annotations

import re
from pathlib import Path

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL)


def _block(marker: str) -> str:
    found = [b for b in BLOCKS if marker in b]
    assert len(found) == 1, f"one README example must contain {marker!r}"
    return found[0]


def test_pettingzoo_example_plays_a_game():
    scope: dict = {}
    exec(_block('pettingzoo.make("aec"'), scope)  # noqa: S102 - our own README
    assert scope["env"].unwrapped.game.is_over


def test_sb3_example_trains_and_saves(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = _block("MaskablePPO(").replace("total_timesteps=20_000", "total_timesteps=128")
    code = code.replace("max_rounds=20", "max_rounds=3").replace('"MlpPolicy", env,', '"MlpPolicy", env, n_steps=64,')
    exec(code, {})  # noqa: S102 - our own README
    assert (tmp_path / "fcm_ppo.zip").exists()


def test_shipped_policy_example_plays_a_game():
    scope: dict = {}
    exec(_block('load_agent("policy")'), scope)  # noqa: S102 - our own README
    result = scope["result"]
    assert result.winners and len(result.cash) == 2
