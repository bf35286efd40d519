"""Ray backends: RLlib self-play (masked sampling, checkpoint, ONNX export) and Ray tournaments.

Skipped without the ``distributed`` extra. One local Ray cluster (2 CPUs) serves the module.
"""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

ray = pytest.importorskip("ray")
torch = pytest.importorskip("torch")

from ray.rllib.core.columns import Columns

from fcm_agents import HeuristicAgent, OnnxAgent
from fcm_agents.match import play_game
from fcm_apps.cli import main as fcm_main
from fcm_training.common.evaluate import run_games
from fcm_training.common.tournament_games import TournamentConfig
from fcm_training.common.tournament_results import summarise
from fcm_training.rllib.config import load_ray_config
from fcm_training.rllib.env import FcmMultiAgentEnv, module_for
from fcm_training.rllib.evaluate import run_games_ray
from fcm_training.rllib.export import load_module
from fcm_training.rllib.module import MaskedPPOModule
from fcm_training.rllib.selfplay import train


@pytest.fixture(scope="module")
def ray_cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def trained_run(ray_cluster, tmp_path_factory):
    out = tmp_path_factory.mktemp("ray_tiny")
    config = load_ray_config("ray_tiny", out_dir=str(out))
    assert config.num_env_runners == 2
    lines: list[str] = []
    train(config, log=lines.append)
    return config, out, lines


def _learner_samples(module: MaskedPPOModule, config, steps: int) -> tuple[int, int]:
    """Play ``steps`` learner decisions sampled from the module's exploration distribution; returns
    (samples, samples outside the mask)."""
    env = FcmMultiAgentEnv(config.env_config())
    obs, _ = env.reset(seed=123)
    samples = illegal = 0
    while samples < steps:
        (agent, view), = obs.items()
        if module_for(agent) == "learner":
            batch = {Columns.OBS: {k: torch.as_tensor(v)[None] for k, v in view.items()}}
            logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
            dist = module.get_exploration_action_dist_cls().from_logits(logits)
            action = int(dist.sample()[0])
            probs = torch.softmax(logits[0], dim=0).numpy()
            assert probs[view["action_mask"] == 0].sum() == 0.0  # masked ids have probability exactly 0
            samples += 1
            illegal += int(view["action_mask"][action] == 0)
            if illegal:
                break
        else:
            action = int(np.flatnonzero(view["action_mask"])[0])
        obs, _, terminated, truncated, _ = env.step({agent: action})
        if terminated["__all__"] or truncated["__all__"]:
            obs, _ = env.reset()
    return samples, illegal


def test_rllib_selfplay_trains_masked_and_exports(trained_run):
    config, out, lines = trained_run
    # The env raises IllegalActionError on any id outside the mask, so a finished run proves that no
    # sampled action (learner or frozen opponent) was illegal.
    metrics = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert metrics[-1]["env_steps"] >= config.total_timesteps
    assert metrics[-1]["episodes"] >= 2
    assert any("exported" in line for line in lines)

    learner = load_module(out / "checkpoint")
    assert isinstance(learner, MaskedPPOModule)
    samples, illegal = _learner_samples(learner, config, steps=60)
    assert (samples, illegal) == (60, 0)

    # snapshot_every=1: the frozen snapshot is the learner as of the last iteration
    snapshot = load_module(out / "checkpoint", "snapshot")
    for name, weight in learner.state_dict().items():
        assert torch.equal(weight, snapshot.state_dict()[name]), name

    # the ONNX graph is the module, mask included, and plays a game through the project's agent
    agent = OnnxAgent(out / "policy.onnx")
    env = FcmMultiAgentEnv(config.env_config())
    view = next(iter(env.reset(seed=7)[0].values()))
    _, onnx_logits = agent.session.run(None, {"observation": view["observation"][None].astype(np.float32),
                                              "action_mask": view["action_mask"][None].astype(np.float32)})
    with torch.no_grad():
        torch_logits = learner.forward_inference(
            {Columns.OBS: {k: torch.as_tensor(v)[None] for k, v in view.items()}})[Columns.ACTION_DIST_INPUTS]
    assert np.allclose(onnx_logits, torch_logits.numpy(), atol=1e-4)
    result = play_game([agent, HeuristicAgent(seed=1)], seed=3, max_rounds=3)
    assert result.decisions > 0 and result.rounds >= 1


def test_ray_tournament_equals_process_pool(ray_cluster):
    config = TournamentConfig(lineup=("policy", "heuristic", "random"), games=20, seed=40, max_rounds=4, workers=2)
    by_pool = run_games(config)
    by_ray = run_games(config, runner=run_games_ray)
    assert [r.to_json() for r in by_ray] == [r.to_json() for r in by_pool]
    assert [r.record.actions for r in by_ray] == [r.record.actions for r in by_pool]
    assert [s.to_json() for s in summarise(by_ray)] == [s.to_json() for s in summarise(by_pool)]
    assert [r.seed for r in by_ray] == list(range(40, 60))


def test_fcm_evaluate_backend_ray_writes_the_same_summary(ray_cluster, tmp_path, capsys):
    common = ["evaluate", "--lineup", "heuristic,random", "--games", "6", "--max-rounds", "3", "--seed", "9",
              "--no-progress", "--no-records"]
    assert fcm_main([*common, "--out", str(tmp_path / "pool")]) == 0
    assert fcm_main([*common, "--backend", "ray", "--workers", "2", "--out", str(tmp_path / "ray")]) == 0
    pool = json.loads((tmp_path / "pool" / "summary.json").read_text())
    by_ray = json.loads((tmp_path / "ray" / "summary.json").read_text())
    assert by_ray["agents"] == pool["agents"] and by_ray["games"] == pool["games"]
    assert "6 games" in capsys.readouterr().out


def test_fcm_train_picks_ray_from_the_config_and_names_bad_settings(capsys):
    assert fcm_main(["train", "ray_tiny", "--set", "minibatch_size=100000"]) == 2
    assert capsys.readouterr().err.strip() == ("fcm train: error: config: minibatch_size 100000 exceeds "
                                               "train_batch_size 150")
    assert fcm_main(["train", "ray_tiny", "--backend", "ray", "--resume"]) == 2
    assert "--resume is not supported" in capsys.readouterr().err


def test_the_leaderboard_on_ray_gives_the_process_table(tmp_path):
    args = ["leaderboard", "--agents", "random,heuristic,strategist", "--players", "2,3", "--games", "2",
            "--max-rounds", "3", "--no-progress"]
    assert fcm_main([*args, "--out", str(tmp_path / "p"), "--markdown", str(tmp_path / "p.md")]) == 0
    assert fcm_main([*args, "--out", str(tmp_path / "r"), "--markdown", str(tmp_path / "r.md"), "--backend", "ray",
                     "--workers", "2"]) == 0
    process = json.loads((tmp_path / "p.json").read_text())
    on_ray = json.loads((tmp_path / "r.json").read_text())
    assert on_ray["standings"] == process["standings"] and on_ray["tables"] == process["tables"]


def test_search_positions_as_ray_tasks_are_the_files_of_the_process_pool(ray_cluster, tmp_path):
    from fcm_training.distill.positions import generate, load

    # rules-independent plumbing: 3 chunks of search-labelled games, written by the driver as tasks end
    kw = {"opponents": {"heuristic": 1.0, "self": 1.0}, "chunk": 1, "max_rounds": 1}
    nodes = Counter()
    assert generate(40, 3, tmp_path / "pool", "search:iterations=2", workers=2, **kw) == generate(
        40, 3, tmp_path / "ray", "search:iterations=2", workers=2, backend="ray", nodes=nodes, **kw)
    assert sum(nodes.values()) == 3 and set(nodes) == {ray.get_runtime_context().get_node_id()}  # one node here
    assert sorted(p.name for p in (tmp_path / "ray").iterdir()) == ["seeds-40.npz", "seeds-41.npz", "seeds-42.npz"]
    pool, on_ray = load([tmp_path / "pool"]), load([tmp_path / "ray"])
    assert pool.keys() == on_ray.keys()
    for key in pool:
        np.testing.assert_array_equal(pool[key], on_ray[key], err_msg=key)
    with pytest.raises(ValueError, match="backend is one of processes, ray"):
        generate(40, 1, tmp_path / "x", "search:iterations=2", backend="dask", **kw)


def test_a_league_loop_round_on_ray_is_the_round_of_the_process_pool(ray_cluster, tmp_path):
    from fcm_training.distill.loop import LoopConfig, run_loop

    # one tiny round of the search-driven loop with the league's names; its positions as Ray tasks
    settings = {"rounds": 1, "games": 3, "seed": 97_000_000, "search": "search:iterations=2,prior=policy",
                "opponents": {"past": 1.0, "family": 1.0, "self": 1.0}, "chunk": 1, "max_rounds": 4,
                "eval_games": 2, "epochs": 1, "batch": 8, "workers": 2}
    pool = run_loop(LoopConfig(out=tmp_path / "pool", **settings), log=lambda _: None)
    on_ray = run_loop(LoopConfig(out=tmp_path / "ray", **settings), log=lambda _: None, backend="ray")
    for kept in (pool, on_ray):
        assert len(kept) == 1 and kept[0]["eval_games"] == 2
    for key in ("held_out_agreement", "held_out_accuracy", "eval_wins"):
        assert pool[0][key] == on_ray[0][key], key
    assert (tmp_path / "ray" / "round-0" / "pv.onnx").is_file()
