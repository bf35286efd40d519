"""A learned value for the search: positions from games, a value network, its ONNX export.

``positions`` plays games between the shipped policy and the heuristic (with a little random
play mixed in, so that the positions are not all on the two agents' own lines) and keeps every
seat's observation at the start of each round with whether that seat won; ``network`` is the
value network (the compact trunk of the policy, started from the shipped policy's weights, and a
small head); ``fit`` trains it and exports ``value_logit = f(observation)``, the graph the search's
``value=learned`` reads (``fcm_agents.search.learned_value``). Run as
``python -m fcm_training.value`` (docs/search.md, "Learned value").
"""
