"""Export the learner of an RLlib checkpoint to the project's ONNX policy format.

The graph is the one ``fcm_training.common.export`` writes for SB3 policies (inputs ``observation``,
``action_mask``; outputs ``action``, ``masked_logits``), so ``fcm_agents.OnnxAgent`` and
``fcm evaluate --lineup onnx:PATH,...`` play it without Ray or torch.

    python -m fcm_training.rllib.export runs/ray_4p/checkpoint runs/ray_4p/policy.onnx
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..common.export import export_onnx

MODULE_PATH = ("learner_group", "learner", "rl_module")


def load_module(checkpoint: str | Path, module_id: str = "learner"):
    """The RLModule ``module_id`` of an Algorithm checkpoint directory (no Ray cluster needed)."""
    from ray.rllib.core.rl_module.rl_module import RLModule

    path = Path(checkpoint).joinpath(*MODULE_PATH, module_id)
    if not path.is_dir():
        raise FileNotFoundError(f"no RLlib module {module_id!r} in {checkpoint} (looked for {path})")
    return RLModule.from_checkpoint(str(path.resolve()))


def export_checkpoint(checkpoint: str | Path, out_path: str | Path, module_id: str = "learner") -> Path:
    """Write the ONNX graph of the checkpoint's ``module_id`` to ``out_path``."""
    return export_onnx(load_module(checkpoint, module_id), out_path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fcm_training.rllib.export", description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint", help="RLlib Algorithm checkpoint directory (run_dir/checkpoint)")
    parser.add_argument("out", help="where to write the .onnx file")
    parser.add_argument("--module", default="learner", help="module id to export (default: learner)")
    args = parser.parse_args(argv)
    print(export_checkpoint(args.checkpoint, args.out, args.module))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
