"""Run settings: every bad setting is one line naming it, configs are found by path or shipped name,
the device must exist, and total_timesteps is rounded up to whole rollouts (said once)."""

from __future__ import annotations

import re
from dataclasses import asdict
from pathlib import Path

import pytest
import yaml

from fcm_training.common import config as cfg
from fcm_training.common.config import (
    Config,
    ConfigError,
    check_device,
    load_config,
    make_config,
    planned_timesteps,
)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "training.md"


def lines_of(settings: dict) -> list[str]:
    with pytest.raises(ConfigError) as info:
        make_config(settings)
    assert str(info.value) == "\n".join(info.value.lines)
    return info.value.lines


@pytest.mark.parametrize(("settings", "line"), [
    ({"totl_timesteps": 100}, "config: unknown setting 'totl_timesteps' (did you mean 'total_timesteps'?)"),
    ({"zzz": 1}, "config: unknown setting 'zzz'"),
    ({"total_timesteps": "abc"}, "config: total_timesteps: expected an integer, got 'abc'"),
    ({"total_timesteps": 0}, "config: total_timesteps: must be greater than or equal to 1, got 0"),
    ({"n_envs": 0}, "config: n_envs: must be greater than or equal to 1, got 0"),
    ({"n_steps": 0}, "config: n_steps: must be greater than or equal to 1, got 0"),
    ({"batch_size": 1}, "config: batch_size: must be greater than or equal to 2, got 1"),
    ({"n_envs": 4, "env_workers": 5}, "config: env_workers must be 1..n_envs=4, got 5"),
    ({"env_workers": 0}, "config: env_workers: must be greater than or equal to 1, got 0"),
    ({"num_players": 6}, "config: num_players: must be less than or equal to 5, got 6"),
    ({"learning_rate": "fast"}, "config: learning_rate: expected a number, got 'fast'"),
    ({"gamma": 1.5}, "config: gamma: must be less than or equal to 1, got 1.5"),
    ({"progress_bar": "maybe"}, "config: progress_bar: expected true or false, got 'maybe'"),
    ({"net_arch": [16, "x"]}, "config: net_arch[1]: expected an integer, got 'x'"),
    ({"reward": "lose"}, "config: reward: must be 'win', 'rank' or 'cash_share', got 'lose'"),
    ({"extractor": "transformer"},
     "config: extractor: must be 'cnn', 'compact' or 'spatial', got 'transformer'"),
    ({"opponents": {"grandmaster": 1.0}},
     ("config: opponents.grandmaster: must be 'snapshot', 'random', 'heuristic', 'strategist' or 'frozen', "
      "got 'grandmaster'")),
    ({"opponents": {"random": 0.0}}, "config: opponents: the probabilities must sum to more than 0"),
    ({"device": "gpu"}, "config: device: expected auto, cpu, cuda, cuda:N or mps, got 'gpu'"),
    ({"train_seeds": [0, 100], "eval_seeds": [50, 150], "eval_games": 10},
     "config: train_seeds [0, 100] and eval_seeds [50, 150] overlap"),
    ({"train_seeds": [100, 0]}, "config: train_seeds: expected [first, end) with first < end, got [100, 0]"),
    ({"eval_seeds": [10_000_000, 10_000_005]},
     "config: eval_seeds holds 5 seeds, fewer than eval_games=40 or bc_holdout_games=10"),
])
def test_each_bad_setting_is_one_line_naming_it(settings, line):
    assert lines_of(settings) == [line]


def test_several_bad_settings_give_one_line_each():
    assert lines_of({"n_envs": 0, "seed": -1, "totl_timesteps": 5}) == [
        "config: n_envs: must be greater than or equal to 1, got 0",
        "config: seed: must be greater than or equal to 0, got -1",
        "config: unknown setting 'totl_timesteps' (did you mean 'total_timesteps'?)",
    ]


def test_bad_settings_are_still_value_errors_for_direct_construction():
    with pytest.raises(ValueError, match="overlap"):
        Config(train_seeds=[0, 100], eval_seeds=[50, 150], eval_games=10)


def test_numbers_given_for_text_settings_become_text():
    assert make_config({"name": 123, "out_dir": 2024}).name == "123"


def test_a_config_is_still_a_dataclass_that_round_trips_through_yaml(tmp_path):
    config = make_config({"net_arch": [32], "opponents": {"random": 1.0}, "shaping": "cash_lead"})
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump(asdict(config)))
    assert load_config(path) == config


def test_extractor_names_match_the_extractors():
    from fcm_training.sb3.features import EXTRACTORS

    assert cfg.EXTRACTOR_NAMES == tuple(sorted(EXTRACTORS))


# ------------------------------------------------------------------ finding configs


def test_a_bare_name_finds_the_shipped_config(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no configs/ folder here
    assert cfg.shipped_configs() == ["beat_heuristic_2p", "finetune_2p", "finetune_3p", "finetune_4p",
                                     "finetune_5p", "five_minutes_2p", "league_2p", "long", "quick", "ray_4p",
                                     "ray_tiny", "refine_2p"]
    assert load_config("quick").name == "quick"
    assert load_config("long.yaml").num_players == 4


def test_an_existing_file_wins_over_a_shipped_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("quick").write_text("name: mine\n")
    assert load_config("quick").name == "mine"


def test_a_missing_config_lists_the_shipped_ones(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    expected = ("no such file and no shipped config of that name (shipped: beat_heuristic_2p, finetune_2p, "
                "finetune_3p, finetune_4p, finetune_5p, five_minutes_2p, league_2p, long, quick, ray_4p, ray_tiny, "
                "refine_2p)")
    with pytest.raises(ConfigError, match=re.escape(f"config 'quik' not found: {expected}")):
        load_config("quik")
    with pytest.raises(ConfigError, match=re.escape(f"config 'runs/quick.yaml' not found: {expected}")):
        load_config("runs/quick.yaml")  # a path is never looked up by name


@pytest.mark.parametrize("name", ["quick", "long", "beat_heuristic_2p", "five_minutes_2p", "refine_2p", "league_2p",
                                  *(f"finetune_{n}p" for n in range(2, 6))])
def test_every_shipped_config_is_valid(name, tmp_path, monkeypatch):
    # the fine-tuning stages start from an earlier stage's output, which a fresh clone lacks: put a file
    # where each expects it (the check is that it exists), and the rest of the config must hold
    monkeypatch.chdir(tmp_path)
    for earlier in ("runs/beat_heuristic_2p/policy.onnx", "runs/finetune_2p/final_model.zip"):
        Path(earlier).parent.mkdir(parents=True, exist_ok=True)
        Path(earlier).touch()
    assert load_config(name).name == name


@pytest.mark.parametrize(("name", "earlier"), [("finetune_3p", "runs/beat_heuristic_2p/policy.onnx"),
                                               ("refine_2p", "runs/finetune_2p/final_model.zip")])
def test_a_stage_without_its_earlier_stage_names_the_missing_file(name, earlier, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match=re.escape(f"init_from: no such file {earlier}")):
        load_config(name)


def test_overrides_apply_and_none_keeps_the_files_value(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("total_timesteps: 5000\nseed: 3\n")
    config = load_config(path, total_timesteps=100, seed=None)
    assert (config.total_timesteps, config.seed) == (100, 3)


def test_a_file_that_is_not_a_mapping_or_not_yaml_is_one_line(tmp_path):
    listing = tmp_path / "list.yaml"
    listing.write_text("- 1\n- 2\n")
    with pytest.raises(ConfigError, match="expected a mapping of settings, got list"):
        load_config(listing)
    broken = tmp_path / "broken.yaml"
    broken.write_text("a: [1, 2\n")
    with pytest.raises(ConfigError) as info:
        load_config(broken)
    assert len(info.value.lines) == 1 and "not valid YAML" in info.value.lines[0]


def test_the_docs_table_lists_every_setting():
    documented = set(re.findall(r"^\| `(\w+)` \|", DOCS.read_text(), flags=re.MULTILINE))
    assert set(cfg.setting_names()) <= documented


# ------------------------------------------------------------------ device and rollouts


def test_a_missing_gpu_is_an_error_naming_it(monkeypatch):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(ConfigError) as info:
        check_device("cuda")
    assert info.value.lines == [("config: device: 'cuda' is not available here: torch sees no CUDA device "
                                "(torch.cuda.is_available() is False); use device=cpu or device=auto")]
    check_device("auto")
    check_device("cpu")


def test_a_gpu_index_past_the_devices_is_an_error(monkeypatch):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    check_device("cuda")
    check_device("cuda:0")
    with pytest.raises(ConfigError, match="'cuda:1' is not available here: torch sees 1 CUDA device"):
        check_device("cuda:1")


def test_total_timesteps_rounds_up_to_whole_rollouts_and_says_so_once(capsys):
    config = make_config({"n_envs": 16, "n_steps": 128, "env_workers": 1, "total_timesteps": 64})
    assert planned_timesteps(config) == 2048
    assert capsys.readouterr().out == ("total_timesteps 64 rounded up to 2,048: PPO trains whole rollouts of "
                                       "n_envs x n_steps = 16 x 128 = 2,048 steps\n")
    exact = make_config({"n_envs": 2, "n_steps": 64, "total_timesteps": 256})
    assert planned_timesteps(exact) == 256
    assert capsys.readouterr().out == ""
    assert planned_timesteps(make_config({"n_envs": 2, "n_steps": 64, "total_timesteps": 257}),
                             announce=False) == 384


@pytest.mark.parametrize(("settings", "line"), [
    ({"n_envs": True}, "config: n_envs: expected an integer, got True"),
    ({"train_seeds": [False, 5]}, "config: train_seeds[0]: expected an integer, got False"),
])
def test_a_boolean_is_not_taken_for_an_integer(settings, line):
    # pydantic alone reads `true` as 1: `n_envs: true` in a YAML file would silently train one game
    with pytest.raises(ConfigError) as raised:
        make_config(settings)
    assert str(raised.value) == line
