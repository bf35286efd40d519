"""The Ray training path, ``fcm train CONFIG --backend ray`` and ``fcm evaluate --backend ray``:
RLlib PPO self-play over a multi-agent env (``config``, ``env``, ``module``, ``selfplay``), the
export of an RLlib checkpoint to the shared ONNX graph (``export``), and tournament games as Ray
tasks (``evaluate``). Named ``rllib``, not ``ray``, so it never reads as the Ray library itself;
the module files import Ray where they need it (``config`` checks a config without it). Needs the
``[distributed]`` extra."""
