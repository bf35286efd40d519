"""The JSON-safe face of a game for front ends and prompts: one player's view and actions as JSON.

A layer above the encoding (it removes hidden information with ``fcm_env.encoding.visibility`` and
numbers actions with its codec), below the agents and the front ends that read it:

* ``fcm_env.view.player``: ``view``, ``map_view``, ``status`` and the decisions in words;
* ``fcm_env.view.actions``: ``legal_actions``, ``apply``, ``parse_action``, ``action_params``,
  ``describe_action``, ``check_player`` and ``ProtocolError``.

docs/protocol.md documents both; the JSON-lines server that carries them is ``fcm_apps.server``.
"""

from fcm_env.view.actions import (
    PARAMS,
    ProtocolError,
    action_params,
    apply,
    check_player,
    describe_action,
    legal_actions,
    parse_action,
)
from fcm_env.view.player import (
    CONTEXT_FIELDS,
    DECISION_TEXT,
    VIEW_FORMAT,
    VIEW_VERSION,
    map_view,
    status,
    view,
)

__all__ = [
    "CONTEXT_FIELDS",
    "DECISION_TEXT",
    "PARAMS",
    "VIEW_FORMAT",
    "VIEW_VERSION",
    "ProtocolError",
    "action_params",
    "apply",
    "check_player",
    "describe_action",
    "legal_actions",
    "map_view",
    "parse_action",
    "status",
    "view",
]
