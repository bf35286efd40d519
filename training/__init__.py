"""Training and evaluation of agents, in three subpackages by backend.

``fcm_training.common`` holds what every backend uses (run configs, tournaments, the ONNX
export); ``fcm_training.sb3`` is the Stable-Baselines3 MaskablePPO path (``fcm train CONFIG``);
``fcm_training.rllib`` is the Ray RLlib path (``fcm train CONFIG --backend ray``, Ray
tournaments). ``common`` imports neither of the others, and neither of them imports the other.
"""
