"""Search distillation (Expert Iteration): the search labels positions, a policy-value network learns them.

``python -m fcm_training.distill positions`` plays games with the search in a seat and keeps, for
every decision it searched, the seat's observation, the search's visits of each legal action and the
game's result (``positions``); ``... fit`` trains the policy-value network (``network``: the shipped
policy's layers and a value head) on them and exports it as ONNX with the policy's interface and a
``value_logit`` output, which the search reads as prior and value (``search:policy_model=FILE``).
"""
