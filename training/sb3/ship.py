"""Write the shipped policy from a MaskablePPO checkpoint: the ONNX file, its torch reference, its metadata.

    python -m fcm_training.sb3.ship runs/<run>/best_model.zip            # 2-player model
    python -m fcm_training.sb3.ship CHECKPOINT --players 2 --games 3 --seed 0

writes ``agents/models/policy_2p.onnx`` (``fcm_training.common.export.export_onnx``),
``policy_2p_reference.npz`` (``write_reference``: positions from seeded random
games and the actions the torch policy chose on them) and ``policy_2p.json``
(where the file came from), then checks that the ONNX file chooses the torch
actions. Needs torch and sb3-contrib (the ``train`` extra); they are imported
inside the functions, so importing this module costs nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from fcm_agents.models import MODEL_FILES, graph_format, metadata_path, reference_path
from fcm_agents.models.interface import interface

MODELS_DIR = Path(__file__).resolve().parent


def _load(model: Any):
    """A MaskablePPO model (or policy) as given, or loaded on the CPU from a checkpoint path."""
    if isinstance(model, (str, Path)):
        from sb3_contrib import MaskablePPO

        return MaskablePPO.load(str(model), device="cpu")
    return model


def write_reference(model: Any, path: str | Path, games: int = 3, seed: int = 0, *, num_players: int = 2,
                    max_rounds: int = 20, positions_per_game: int = 12, stride: int = 4,
                    min_gap: float = 1e-5) -> Path:
    """Positions and the torch policy's deterministic actions on them, as a compressed npz at ``path``.

    ``model`` is a MaskablePPO model, its policy, or a checkpoint path. Game ``g`` is
    played by ``RandomAgent`` seats from seed ``seed + g``; every ``stride``-th
    decision with at least two legal actions is kept (up to ``positions_per_game``),
    unless the policy's two best legal logits are closer than ``min_gap`` (a near
    tie could fall either way in another runtime). Arrays: ``observations`` float32
    [K, FLAT_SIZE], ``masks`` int8 [K, NUM_ACTIONS], ``actions`` int64 [K], ``seeds``
    and ``decisions`` int64 [K] (where each position comes from).
    """
    import torch

    from fcm_agents.random_agent import RandomAgent
    from fcm_env.encoding import Observer, legal_action_mask
    from fcm_env.engine.game import Game

    model = _load(model)
    policy = getattr(model, "policy", model)
    was_training = policy.training
    policy.set_training_mode(False)
    observer = Observer()
    rows: dict[str, list] = {"observations": [], "masks": [], "actions": [], "seeds": [], "decisions": []}
    try:
        for g in range(games):
            game_seed = seed + g
            game = Game.new(num_players, seed=game_seed, max_rounds=max_rounds)
            players = [RandomAgent(seed=game_seed * 10 + p) for p in range(num_players)]
            decision, kept = 0, 0
            while not game.is_over and kept < positions_per_game:
                player = game.current_player
                if decision % stride == 0:
                    mask = legal_action_mask(game, player)
                    if int(mask.sum()) >= 2:
                        obs = observer.observe_flat(game, player)
                        action, _ = policy.predict(obs[None], deterministic=True, action_masks=mask[None].astype(bool))
                        with torch.no_grad():
                            obs_tensor, _ = policy.obs_to_tensor(obs[None])
                            dist = policy.get_distribution(obs_tensor, action_masks=mask[None].astype(bool))
                            logits = dist.distribution.logits[0].cpu().numpy()
                        best = np.sort(logits[mask.astype(bool)])[-2:]
                        if best[1] - best[0] >= min_gap:
                            rows["observations"].append(obs.copy())
                            rows["masks"].append(mask.astype(np.int8))
                            rows["actions"].append(int(np.asarray(action).reshape(-1)[0]))
                            rows["seeds"].append(game_seed)
                            rows["decisions"].append(decision)
                            kept += 1
                game.apply(players[player].act_on_game(game, player))
                decision += 1
    finally:
        policy.train(was_training)
    if not rows["actions"]:
        raise RuntimeError("no positions kept: play more games or lower min_gap")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        path,
        observations=np.stack(rows["observations"]).astype(np.float32),
        masks=np.stack(rows["masks"]).astype(np.int8),
        actions=np.array(rows["actions"], dtype=np.int64),
        seeds=np.array(rows["seeds"], dtype=np.int64),
        decisions=np.array(rows["decisions"], dtype=np.int64),
    )
    return path


def check_reference(onnx_path: str | Path, reference: str | Path) -> int:
    """How many reference positions the ONNX model decides like torch; raises if any differs."""
    from fcm_agents.onnx_agent import OnnxAgent

    data = np.load(reference)
    chosen = OnnxAgent(onnx_path).act_batch(data["observations"], data["masks"])
    differ = np.flatnonzero(chosen != data["actions"])
    if differ.size:
        raise AssertionError(f"{onnx_path}: {differ.size} of {len(chosen)} reference positions differ from torch "
                             f"(first at index {int(differ[0])}: onnx {int(chosen[differ[0]])}, "
                             f"torch {int(data['actions'][differ[0]])})")
    return len(chosen)


def ship(model: Any, num_players: int = 2, *, out_dir: str | Path | None = None, games: int = 3, seed: int = 0,
         placeholder: bool | None = None, source: str | None = None) -> dict[str, Path]:
    """Export ``model`` (MaskablePPO model or checkpoint path) as the shipped policy for ``num_players``.

    Writes ``policy_<n>p.onnx``, ``policy_<n>p_reference.npz`` and ``policy_<n>p.json`` into
    ``out_dir`` (default: this package folder) and checks ONNX against torch on the reference.
    ``placeholder`` defaults to "the model never trained" (``num_timesteps == 0``).
    """
    from fcm_training.common.export import export_onnx

    if num_players not in MODEL_FILES:
        raise ValueError(f"no shipped file name for {num_players} players; add it to fcm_agents.models.MODEL_FILES")
    if source is None:
        source = str(model) if isinstance(model, (str, Path)) else type(model).__name__
    model = _load(model)
    out = Path(out_dir) if out_dir is not None else MODELS_DIR
    onnx_path = export_onnx(model, out / MODEL_FILES[num_players])
    ref_path = write_reference(model, out / reference_path(num_players).name, games=games, seed=seed,
                               num_players=num_players)
    positions = check_reference(onnx_path, ref_path)
    steps = int(getattr(model, "num_timesteps", 0) or 0)
    import onnxruntime

    from fcm_env.encoding import FLAT_SIZE, NUM_ACTIONS

    fmt = graph_format(onnxruntime.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"]))
    meta = {
        "file": onnx_path.name,
        "format": fmt,
        "interface": interface(fmt),
        "num_players": num_players,
        "placeholder": steps == 0 if placeholder is None else bool(placeholder),
        "source": source,
        "num_timesteps": steps,
        "sha256": hashlib.sha256(onnx_path.read_bytes()).hexdigest(),
        "flat_size": FLAT_SIZE,
        "num_actions": NUM_ACTIONS,
        "reference": {"file": ref_path.name, "games": games, "seed": seed, "positions": positions},
        "created": time.strftime("%Y-%m-%d"),
    }
    meta_path = out / metadata_path(num_players).name
    meta_path.write_text(json.dumps(meta, indent=2) + "\n")
    return {"onnx": onnx_path, "reference": ref_path, "metadata": meta_path}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fcm_training.sb3.ship", description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint", help="MaskablePPO checkpoint (.zip)")
    parser.add_argument("--players", type=int, default=2, help="player count the model is shipped for")
    parser.add_argument("--games", type=int, default=3, help="seeded random games the reference positions come from")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first reference game")
    parser.add_argument("--out-dir", type=Path, default=None, help="write here instead of agents/models/")
    args = parser.parse_args(argv)
    written = ship(args.checkpoint, args.players, out_dir=args.out_dir, games=args.games, seed=args.seed)
    for kind, path in written.items():
        print(f"{kind}: {path} ({path.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
