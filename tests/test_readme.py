"""The README's code examples run as written (the training one with fewer steps)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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
    code = code.replace("max_rounds=20", "max_rounds=3").replace("num_envs=16", "num_envs=2")
    code = code.replace("n_steps=128, batch_size=512", "n_steps=32, batch_size=64")
    assert "total_timesteps=128" in code and "num_envs=2" in code and "n_steps=32" in code  # the README's words
    torch = pytest.importorskip("torch")
    threads = torch.get_num_threads()  # the example sets one thread: the rest of the suite keeps its own
    try:
        exec(code, {})  # noqa: S102 - our own README
    finally:
        torch.set_num_threads(threads)
    assert (tmp_path / "fcm_ppo.zip").exists()


def test_shipped_policy_example_plays_a_game():
    scope: dict = {}
    exec(_block('load_agent("policy")'), scope)  # noqa: S102 - our own README
    result = scope["result"]
    assert result.winners and len(result.cash) == 2


def test_every_fcm_command_in_the_readme_parses():
    """A newcomer pastes these: each names a real subcommand with real options."""
    import shlex

    from fcm_apps.cli import build_parser

    mentions = {"fcm replay --png"}  # an option named in prose, not a command to run
    commands = [c for c in re.findall(r"`(fcm [^`]+)`", README)
                if len(c.split()) > 2 and c.split()[1] != "--help" and c not in mentions]
    commands += re.findall(r"^[^#\n]*&& (fcm [^\n]+)$", README, flags=re.MULTILINE)  # the Quickstart's
    assert {"fcm play --opponents policy", "fcm web --open", "fcm train configs/five_minutes_2p.yaml",
            "fcm map --players 4"} <= set(commands)
    parser = build_parser()
    for command in commands:
        try:
            parser.parse_args(shlex.split(command)[1:])
        except SystemExit:
            raise AssertionError(f"README command does not parse: {command}") from None


def test_the_quickstart_offers_cpu_torch_and_no_unpublished_install():
    quickstart = re.search(r"## Quickstart\n(.*?)\n## ", README, flags=re.DOTALL).group(1)
    block = re.search(r"```bash\n(.*?)```", quickstart, flags=re.DOTALL).group(1)
    first, *_ = block.splitlines()  # printed as a command, not a comment the user pastes as a no-op
    assert first == 'python -m pip install "torch==2.13.0" --index-url https://download.pytorch.org/whl/cpu'
    ci = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text()
    assert "pip install torch==2.13.0\n" in ci  # CI tests the torch the Quickstart installs
    assert "`pip install fcm-magnate`" not in README.split("not on PyPI yet")[0]  # not offered before the note
