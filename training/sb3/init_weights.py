"""Start a run's policy from a trained one (``init_from``), and let its fresh critic learn first.

Why: the observation layout is the same at every table size, so the 2-player policy already plays a
3-, 4- or 5-player table (docs/models.md); fine-tuning it there costs a fraction of training from
scratch. An exported policy holds only the actor (trunk, policy layers, action layer), so the critic
starts fresh; ``critic_warmup_steps`` then trains the critic alone for a while (the actor's parameters
are frozen), so the first policy updates do not follow the advantages of a critic that knows nothing.

Sources: an ONNX policy exported by ``fcm_training.common.export`` (its initializers are named
``policy.<state-dict key>``), a MaskablePPO checkpoint (``.zip``: every weight, the critic's too), or
``shipped`` (the shipped 2-player policy's ONNX file).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

#: the actor's parameters in a MaskablePPO policy's state dict (the shared trunk counts as the actor's)
ACTOR_PREFIXES = ("features_extractor.", "pi_features_extractor.", "mlp_extractor.policy_net.", "action_net.")


def resolve_source(source: str) -> Path:
    """The file ``init_from`` names (``shipped``: the shipped 2-player policy); a missing one is named."""
    if source == "shipped":
        from fcm_agents.models import shipped_model_path

        return Path(shipped_model_path(2))
    path = Path(source)
    if not path.is_file():
        raise ValueError(f"init_from: no such file {source} (an exported .onnx policy, a .zip checkpoint, or shipped)")
    if path.suffix not in (".onnx", ".zip"):
        raise ValueError(f"init_from: {source} is neither an .onnx policy nor a .zip checkpoint")
    return path


def _onnx_weights(path: Path) -> dict[str, torch.Tensor]:
    import onnx
    from onnx import numpy_helper

    weights = {}
    initializers = onnx.load(str(path)).graph.initializer
    if any(init.name == "action_out.weight" for init in initializers):  # a distilled policy-value network
        for init in initializers:
            module, dot, leaf = init.name.rpartition(".")  # "conv1.weight"; a bare parameter: "mix"
            name = _DISTILLED.get(module) if dot else _DISTILLED.get(leaf)
            if name is not None:
                weights[name + dot + leaf if dot else name] = torch.from_numpy(np.array(numpy_helper.to_array(init)))
        return weights
    for init in initializers:
        if init.name.startswith("policy."):
            weights[init.name.removeprefix("policy.")] = torch.from_numpy(np.array(numpy_helper.to_array(init)))
    return weights


#: the actor's weights in a distilled policy-value network (``fcm_training.distill.network``, which names
#: them by its own modules) -> the compact MaskablePPO policy's names (its value head has no counterpart
#: in the actor and is not copied)
_DISTILLED = {
    "mix": "features_extractor.mix", "mix_bias": "features_extractor.mix_bias",
    "conv1": "features_extractor.cnn.0", "conv2": "features_extractor.cnn.2",
    "board_head": "features_extractor.board_head.0", "vector_head": "features_extractor.vector_head.0",
    "policy_hidden": "mlp_extractor.policy_net.0", "action_out": "action_net",
}


def load_weights(policy: torch.nn.Module, source: str) -> list[str]:
    """Copy ``source``'s weights into ``policy`` (every actor weight must be there, shapes equal); the
    state-dict keys copied. A checkpoint gives the critic too; an ONNX policy leaves it as it is."""
    path = resolve_source(source)
    if path.suffix == ".zip":
        from sb3_contrib import MaskablePPO

        weights = MaskablePPO.load(str(path), device="cpu").policy.state_dict()
    else:
        weights = _onnx_weights(path)
    state = policy.state_dict()
    copied = []
    with torch.no_grad():
        for key, param in state.items():
            found = weights.get(key)
            if found is None and key.startswith("pi_features_extractor."):  # a shared trunk is exported once
                found = weights.get(key.replace("pi_features_extractor.", "features_extractor.", 1))
            if found is None:
                if key.startswith(ACTOR_PREFIXES) and not key.startswith("vf_"):
                    raise ValueError(f"init_from: {path} has no weight {key}: it is not a policy of this "
                                     "network (extractor, net_arch and their sizes must be the run's)")
                continue
            if tuple(found.shape) != tuple(param.shape):
                raise ValueError(f"init_from: {path}: {key} is {tuple(found.shape)}, the run's network has "
                                 f"{tuple(param.shape)} (set the extractor and layer sizes of the model you start from)")
            param.copy_(found.to(param.device, param.dtype))
            copied.append(key)
    return copied


def actor_parameters(policy: torch.nn.Module) -> list[torch.nn.Parameter]:
    """The parameters the critic warm-up freezes: the trunk, the policy layers and the action layer."""
    return [p for name, p in policy.named_parameters() if name.startswith(ACTOR_PREFIXES)]


def freeze_actor(policy: torch.nn.Module, frozen: bool) -> None:
    """Frozen: only the critic's own layers learn (Adam skips parameters without a gradient)."""
    for param in actor_parameters(policy):
        param.requires_grad_(not frozen)


def critic_warmup_callback(steps: int):
    """An SB3 callback: the PPO updates made while the run has at most ``steps`` learner steps train the
    critic alone; later ones train everything. Decided per update from the step count, so a run resumed
    in the middle of its warm-up goes on with it."""
    from stable_baselines3.common.callbacks import BaseCallback

    class CriticWarmup(BaseCallback):
        def _on_rollout_end(self) -> None:
            freeze_actor(self.model.policy, self.model.num_timesteps <= steps)

        def _on_step(self) -> bool:
            return True

        def _on_training_end(self) -> None:
            freeze_actor(self.model.policy, False)  # the saved model is whole and trainable

    return CriticWarmup()
