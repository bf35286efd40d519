"""Saving and loading: states as JSON (``serialize``, typed through ``dataclass_json``) and game records
(``records``: seed, players, variant and actions, replayed exactly).

``serialize`` sits below ``fcm_env.engine.game`` (``Game.to_dict`` uses it); ``records`` sits above it
(a record replays into a ``Game``). This file imports neither, so both directions stay free of circles.
"""
