"""The Stable-Baselines3 training path, ``fcm train CONFIG``: sb3-contrib MaskablePPO self-play in
one learner seat against an opponent pool (``selfplay``), with the project's SB3 pieces: the
VecEnvs over the batched and multi-process games (``vec_env``, ``parallel_vec_env``), the features
extractors and the legal-actions policy (``features``, ``legal_policy``), the in-place rollout
buffer (``rollout_buffer``), behaviour cloning of the heuristic (``imitation``), the opponent pool
(``opponents``), evaluations during training (``background_eval``), what happens between rollouts
(``callbacks``: snapshots, checkpoints, evaluations, the state an interrupt falls back to), checkpoints
and their rotation (``checkpoints``), the run-folder rules (``run_dir``), the progress bars
(``progress``) and the wall-time split (``timing``). Needs the ``[train]`` extra."""
