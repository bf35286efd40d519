"""Export a trained MaskablePPO policy to ONNX, with the legal-action mask applied in the graph.

Graph inputs: ``observation`` float32 [batch, FLAT_SIZE], ``action_mask`` float32
[batch, NUM_ACTIONS] (1 = legal). Outputs: ``action`` int64 [batch] (argmax of the
masked logits: the policy's deterministic choice) and ``masked_logits`` (illegal
actions at -1e9). ``agents.OnnxAgent`` runs it with onnxruntime, no torch needed.

    python -m fcm_training.common.export runs/quick/best_model.zip runs/quick/policy.onnx
"""

from __future__ import annotations

import argparse
import io
import sys
import warnings
from pathlib import Path

import torch
from torch import nn

from fcm_env.encoding import FLAT_SIZE, NUM_ACTIONS

MASKED = -1e9


class MaskedPolicy(nn.Module):
    """The actor half of a MaskablePPO policy, mask included, as a plain torch module."""

    def __init__(self, policy: nn.Module):
        super().__init__()
        self.policy = policy

    def forward(self, observation: torch.Tensor, action_mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        if hasattr(self.policy, "action_logits"):  # fcm_training.sb3.legal_policy policies, RLlib's MaskedPPOModule
            logits = self.policy.action_logits(observation)
        else:
            features = self.policy.extract_features(observation)
            if not self.policy.share_features_extractor:
                features = features[0]
            logits = self.policy.action_net(self.policy.mlp_extractor.forward_actor(features))
        masked = torch.where(action_mask > 0.5, logits, torch.full_like(logits, MASKED))
        return masked.argmax(dim=1), masked


def _export(policy: nn.Module, target, opset: int) -> None:
    was_training = policy.training
    module = MaskedPolicy(policy).eval()
    device = next(policy.parameters()).device  # a cuda policy exports with cuda inputs
    obs = torch.zeros(1, FLAT_SIZE, dtype=torch.float32, device=device)
    mask = torch.ones(1, NUM_ACTIONS, dtype=torch.float32, device=device)
    try:
        with warnings.catch_warnings():
            # The TorchScript exporter is deprecated in favour of torch.export, which needs the extra
            # onnxscript package; for this small static graph the TorchScript path is exact (tested).
            warnings.simplefilter("ignore", DeprecationWarning)
            torch.onnx.export(
                module, (obs, mask), target,
                input_names=["observation", "action_mask"], output_names=["action", "masked_logits"],
                dynamic_axes={"observation": {0: "batch"}, "action_mask": {0: "batch"}, "action": {0: "batch"},
                              "masked_logits": {0: "batch"}},
                opset_version=opset, dynamo=False,
            )
    finally:
        policy.train(was_training)


def onnx_bytes(policy: nn.Module, opset: int = 17) -> bytes:
    """The ONNX graph of a live MaskablePPO policy, in memory (snapshot opponents, evaluation workers)."""
    buffer = io.BytesIO()
    _export(policy, buffer, opset)
    return buffer.getvalue()


def export_onnx(model_or_path, out_path: str | Path, opset: int = 17) -> Path:
    """Write the policy of ``model_or_path`` (a MaskablePPO model or checkpoint path) as ONNX."""
    if isinstance(model_or_path, (str, Path)):
        from sb3_contrib import MaskablePPO

        model = MaskablePPO.load(str(model_or_path), device="cpu")
    else:
        model = model_or_path
    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    _export(getattr(model, "policy", model), str(out_path), opset)
    name_format(out_path, "policy/1")
    return out_path


def name_format(path: Path, fmt: str) -> None:
    """Write the graph's format into the ONNX file's metadata, so the file says what it is
    (``fcm_agents.models.graph_format`` reads it; a card beside the file can be checked against it)."""
    import onnx

    from fcm_agents.models import FORMAT_KEY

    model = onnx.load(str(path))
    onnx.helper.set_model_props(model, {FORMAT_KEY: fmt})
    onnx.save(model, str(path))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fcm_training.common.export", description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint", help="MaskablePPO checkpoint (.zip)")
    parser.add_argument("out", help="where to write the .onnx file")
    args = parser.parse_args(argv)
    print(export_onnx(args.checkpoint, args.out))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
