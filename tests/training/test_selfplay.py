"""Self-play training runs end to end from a config, resumes, and exports a policy that ONNX runs
exactly like torch (tiny step counts: this checks the pipeline, not the learning)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import yaml

from fcm_agents.onnx_agent import OnnxAgent
from fcm_agents.policy import PolicyAgent
from fcm_env.encoding import Observer, legal_action_mask
from fcm_env.engine.game import Game
from fcm_env.engine.invariants.random_sim import pick
from fcm_training.common.export import export_onnx
from fcm_training.sb3.selfplay import Config, load_config, main, native_league

TINY = {
    "name": "tiny", "num_players": 2, "max_rounds": 4, "n_envs": 2, "total_timesteps": 256, "n_steps": 64,
    "batch_size": 64, "n_epochs": 1, "snapshot_every": 64, "eval_every": 128, "eval_games": 2,
    "eval_opponents": ["random"], "checkpoint_every": 128, "progress_bar": False,
    "board_channels": 4, "board_features": 16, "vector_hidden": 16, "net_arch": [16],
    "shaping": "cash_lead", "bc_rounds": 2, "bc_games": 2, "bc_holdout_games": 2, "bc_epochs": 1,
}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("run")
    config = out / "tiny.yaml"
    config.write_text(yaml.safe_dump({**TINY, "out_dir": str(out / "run")}))
    main(config)
    return out


def test_a_run_writes_checkpoints_evaluations_and_the_best_model(run_dir):
    run = run_dir / "run"
    assert (run / "final_model.zip").exists() and (run / "best_model.zip").exists()
    assert (run / "bc_model.zip").exists()  # the behaviour-cloning warm start
    bc_rows = (run / "bc.csv").read_text().splitlines()
    assert bc_rows[0].startswith("round,beta,decisions") and len(bc_rows) == 3
    timing = json.loads((run / "timing.json").read_text())
    assert timing["learner_steps"] == 256
    split = timing["split"]
    for stage in ("env", "forward", "update", "behaviour_cloning", "other"):
        assert split[stage]["seconds"] > 0, stage
    if native_league(Config(**TINY)):  # the opponents play inside the native batch: part of the env stage
        assert not [name for name in split if name.startswith("opponent/")]
    else:
        assert split["opponent/random"]["seconds"] > 0
    parts = sum(row["seconds"] for name, row in split.items() if name != "wall")
    assert parts == pytest.approx(split["wall"]["seconds"], rel=1e-6)
    # at 128 (checkpoint_every) and at the end; the pool's snapshots once each, beside them
    assert sorted(p.name for p in (run / "checkpoints").glob("*.zip")) == ["step_128.zip", "step_256.zip"]
    assert sorted(p.name for p in (run / "checkpoints" / "pool").iterdir()) == ["step_128.onnx"]
    assert not (run / "evals").exists()  # every evaluation is in eval.csv
    rows = (run / "eval.csv").read_text().splitlines()
    header = rows[0].split(",")
    assert header[:4] == ["steps", "opponent", "games", "wins"] and "win_rate" in header
    assert [r.split(",")[0] for r in rows[1:]] == ["128", "256"]
    assert any((run / "tb").rglob("events.out.tfevents.*"))


def test_a_checkpoint_holds_the_optimizer_the_pool_and_the_random_states(run_dir):
    import zipfile

    with zipfile.ZipFile(run_dir / "run" / "checkpoints" / "step_256.zip") as archive:
        assert {"data", "policy.pth", "policy.optimizer.pth"} <= set(archive.namelist())
        state = json.loads(archive.read("fcm/state.json"))
    assert state["steps"] == 256 and state["pool"] == [128]  # the snapshot taken at 128
    assert set(state["rng"]) == {"torch", "numpy", "python"}


def test_resume_continues_from_the_latest_checkpoint_up_to_the_total(run_dir):
    from sb3_contrib import MaskablePPO

    # total_timesteps is the run's total: 128 more steps; the resumed part steps its games on the Python engine
    # in two processes (the native league is the first run's), and the saved pool reaches the worker too
    main(run_dir / "tiny.yaml", resume=True, total_timesteps=384, env_workers=2, engine="python")
    model = MaskablePPO.load(str(run_dir / "run" / "final_model.zip"))
    assert model.num_timesteps == 384
    timing = json.loads((run_dir / "run" / "timing.json").read_text())
    (worker,) = timing["env_workers"]
    assert worker.get("opponent/snapshot", 0) + worker.get("opponent/random", 0) > 0


def test_onnx_export_picks_the_same_actions_as_torch(run_dir, tmp_path):
    path = export_onnx(run_dir / "run" / "best_model.zip", tmp_path / "policy.onnx")
    torch_agent, onnx_agent = PolicyAgent(run_dir / "run" / "best_model.zip"), OnnxAgent(path)
    from fcm_agents.models import FORMAT_KEY

    assert onnx_agent.session.get_modelmeta().custom_metadata_map == {FORMAT_KEY: "policy/1"}  # the file names it
    observer = Observer()
    import random

    rng = random.Random(0)
    game = Game.new(2, seed=3, max_rounds=4)
    checked = 0
    while not game.is_over and checked < 40:
        player = game.current_player
        obs, mask = observer.observe_flat(game, player), legal_action_mask(game, player)
        assert torch_agent.act(obs, mask) == onnx_agent.act(obs, mask)
        assert mask[onnx_agent.act(obs, mask)] == 1
        game.apply(pick(rng, game.legal_actions()))
        checked += 1
    assert checked >= 20


def test_config_errors_name_the_setting(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("num_player: 2\n")
    with pytest.raises(ValueError, match="unknown setting 'num_player' \\(did you mean 'num_players'\\?\\)"):
        load_config(bad)
    with pytest.raises(ValueError, match="overlap"):
        Config(train_seeds=[0, 100], eval_seeds=[50, 150], eval_games=10)
    with pytest.raises(ValueError, match="opponents.grandmaster"):
        Config(opponents={"grandmaster": 1.0})
    with pytest.raises(ValueError, match="extractor"):
        Config(extractor="transformer")
    with pytest.raises(ValueError, match="env_workers must be 1..n_envs=4, got 5"):
        Config(n_envs=4, env_workers=5)


def test_policy_agent_only_picks_legal_actions(run_dir):
    agent = PolicyAgent(run_dir / "run" / "final_model.zip", deterministic=False)
    game = Game.new(2, seed=1)
    obs = Observer().observe_flat(game, game.current_player)
    mask = legal_action_mask(game, game.current_player)
    picks = {agent.act(obs, mask) for _ in range(20)}
    assert all(mask[i] == 1 for i in picks) and np.count_nonzero(mask) >= 1


def test_a_strategist_opponent_is_one_of_the_family_fresh_each_episode_and_plays_legally():
    from fcm_agents.base import agent_move
    from fcm_agents.strategist import ARCHETYPES
    from fcm_training.sb3.opponents import OpponentPool

    pool = OpponentPool({"strategist": 1.0}, pool_size=2, seed=3)
    drawn = pool.sample(np.random.default_rng(0), 40)
    names = {agent.name for agent in drawn}
    # the default and the six archetypes, each a fresh agent (a strategist keeps its game's plan)
    assert names <= {"strategist:auto", *(f"strategist:{a}" for a in ARCHETYPES)} and len(names) >= 5
    assert len({id(agent.agent) for agent in drawn}) == 40
    assert Config(opponents={"strategist": 0.5, "heuristic": 0.5}).opponents == {"strategist": 0.5, "heuristic": 0.5}
    game = Game.new(2, seed=5, max_rounds=3)
    seats = pool.sample(np.random.default_rng(1), 2)
    while not game.is_over:
        player = game.current_player
        action = agent_move(seats[player], game, player)
        assert action in game.legal_actions()
        game.apply(action)
    assert pool.timer.calls["opponent/strategist"] > 0
