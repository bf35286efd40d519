"""RLlib run configs: the shipped ones load, bad settings get one line each (no Ray needed)."""

from __future__ import annotations

import pytest

from fcm_training.common.config import ConfigError
from fcm_training.rllib.config import load_ray_config
from fcm_training.rllib.evaluate import chunks


@pytest.mark.parametrize("name", ["ray_tiny", "ray_4p"])
def test_shipped_ray_configs_load(name):
    config = load_ray_config(name)
    assert config.backend == "ray" and config.modules()[0] == "learner"
    assert set(config.env_config()["opponents"]) <= {"snapshot", "random", "heuristic"}


def test_bad_settings_are_named():
    with pytest.raises(ConfigError) as caught:
        load_ray_config("ray_tiny", minibatch_size=10_000, num_players=7)
    text = str(caught.value)
    assert "num_players" in text
    with pytest.raises(ConfigError, match="minibatch_size 10000 exceeds train_batch_size"):
        load_ray_config("ray_tiny", minibatch_size=10_000)
    with pytest.raises(ConfigError, match="not found"):
        load_ray_config("no_such_config")


def test_chunks_cover_every_game_once_in_order():
    for games, workers in ((20, 2), (7, 4), (1, 1), (100, 3)):
        parts = chunks(games, workers)
        assert [i for part in parts for i in part] == list(range(games))
        assert all(parts)


def test_declares_ray_picks_the_backend_from_the_file(tmp_path):
    from fcm_training.rllib.config import declares_ray

    assert declares_ray("ray_tiny") and declares_ray("ray_4p")
    assert not declares_ray("quick")
    assert not declares_ray(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("backend: [ray\n")
    assert not declares_ray(bad)
