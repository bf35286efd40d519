"""``observe``: the seat's observation and mask over JSON lines, the very inputs the envs and the shipped
models read, so that a front end in another language needs no encoder of its own (docs/protocol.md)."""

from __future__ import annotations

import json

import numpy as np
import onnxruntime as ort

from fcm_agents.models import shipped_model_path
from fcm_apps.server import Session
from fcm_env.encoding import FLAT_SIZE, NUM_ACTIONS, Observer, legal_action_mask


def test_observe_gives_the_envs_observation_and_mask_and_a_model_plays_from_them():
    session = Session()
    opened = session.handle({"cmd": "new", "num_players": 2, "seed": 3})
    game = session.games[opened["game"]].game
    player = game.current_player
    reply = json.loads(json.dumps(session.handle({"cmd": "observe", "player": player})))  # through JSON
    assert reply["ok"] and reply["player"] == player
    observation = np.asarray(reply["observation"], dtype=np.float32)
    mask = np.asarray(reply["action_mask"], dtype=np.float32)
    assert observation.shape == (FLAT_SIZE,) and mask.shape == (NUM_ACTIONS,)
    assert np.array_equal(observation, Observer().observe_flat(game, player))
    assert np.array_equal(mask, legal_action_mask(game, player))
    other = session.handle({"cmd": "observe", "player": 1 - player})
    assert other["ok"] and sum(other["action_mask"]) == 0  # not to move: nothing legal

    model = ort.InferenceSession(str(shipped_model_path(2)), providers=["CPUExecutionProvider"])
    (action, *_) = model.run(None, {"observation": observation[None], "action_mask": mask[None]})
    acted = session.handle({"cmd": "act", "player": player, "action": {"id": int(action[0])}})
    assert acted["ok"], acted
    assert acted["applied"]["id"] == int(action[0])


def test_observe_refuses_a_bad_player_by_name():
    session = Session()
    session.handle({"cmd": "new", "num_players": 2, "seed": 3})
    assert session.handle({"cmd": "observe", "player": 7}) == {"ok": False, "error": "player must be 0..1, got 7"}
    assert session.handle({"cmd": "observe"}) == {"ok": False, "error": "observe needs 'player' (a player id)"}
