"""Every model card states what its file takes and gives (names, dtypes, shapes, what an action id is),
and the statement is true of the file: a front-end author needs nothing else (docs/models.md)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from fcm_agents.models import graph_format
from fcm_agents.models.interface import interface
from fcm_env.encoding import CODEC, Observer, legal_action_mask
from fcm_env.engine.game import Game

MODELS = Path(__file__).resolve().parents[2] / "agents" / "models"
CARDS = sorted(MODELS.glob("*.json"))
ONNX_TYPES = {"tensor(float)": "float32", "tensor(int64)": "int64"}


def test_every_shipped_file_has_a_card():
    assert sorted(c.stem for c in CARDS) == sorted(f.stem for f in MODELS.glob("*.onnx"))


@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.name)
def test_the_card_states_the_interface_of_its_file(card):
    data = json.loads(card.read_text())
    session = ort.InferenceSession(str(MODELS / data["file"]), providers=["CPUExecutionProvider"])
    assert data["format"] == graph_format(session)
    assert data["interface"] == interface(data["format"])
    for stated, real in ((data["interface"]["inputs"], session.get_inputs()),
                         (data["interface"]["outputs"], session.get_outputs())):
        assert [(s["name"], s["dtype"], s["shape"]) for s in stated] == [
            (r.name, ONNX_TYPES[r.type], list(r.shape)) for r in real]


def test_the_card_recipe_plays_a_legal_move():
    # what docs/models.md tells a front-end author, done literally: the env's int8 mask as float32, a batch of one
    data = json.loads((MODELS / "policy_2p.json").read_text())
    session = ort.InferenceSession(str(MODELS / data["file"]), providers=["CPUExecutionProvider"])
    game = Game.new(2, seed=3)
    player = game.current_player
    mask = legal_action_mask(game, player)
    assert mask.dtype == np.int8
    feeds = {"observation": Observer().observe_flat(game, player)[None],
             "action_mask": mask.astype(np.float32)[None]}
    action, logits, value = session.run(None, feeds)
    assert action.shape == (1,) and logits.shape == (1, mask.size) and value.shape == (1,)
    assert CODEC.decode(int(action[0]), game) in game.legal_actions()


def test_an_unknown_format_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown model format 'policy/9'"):
        interface("policy/9")
