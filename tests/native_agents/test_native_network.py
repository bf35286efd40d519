"""The native forward pass (``fcm_agents.native.network``) answers what onnxruntime answers on every shipped
model file: on 10,000 positions of played games at 2 to 5 players (2,500 a table size, each table's own
policy file, and the 2-player value network), the masked logits and the value logits within 1e-4 (relative,
``|a - b| <= 1e-4 * max(1, |b|)``) and the same greedy action (the first index on ties, as ONNX's ArgMax).
The ONNX reader gives the ``onnx`` package's weights, and a file of another design is refused by name."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("fcm_agents.native")

from fcm_agents.models import shipped_model_path, shipped_value_path
from fcm_agents.native.network import TOLERANCE, NativeSession, UnknownNetwork, recognise
from fcm_agents.native.onnx_reader import read_graph
from fcm_agents.onnx_agent import _reference_session

POSITIONS = 2_500  # a table size: 10,000 in all

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from bench_network import positions


def _close(ours: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    return np.abs(ours - theirs) <= TOLERANCE * np.maximum(1.0, np.abs(theirs))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_native_pass_answers_as_onnxruntime_on_played_positions(players):
    path = shipped_model_path(players)
    reference = _reference_session(str(path))
    native = NativeSession(str(path), reference)
    observations, masks = positions(players, POSITIONS, seed=1000 * players)
    names = ["action", "masked_logits", "value_logit"]
    for start in range(0, POSITIONS, 500):
        feeds = {"observation": observations[start:start + 500], "action_mask": masks[start:start + 500]}
        (a, logits, value), (ra, rlogits, rvalue) = native.run(names, feeds), reference.run(names, feeds)
        assert np.array_equal(a, ra)
        assert _close(logits, rlogits).all()
        assert _close(value, rvalue).all()
        assert (logits[feeds["action_mask"] <= 0.5] == -1e9).all()
    if players == 2:
        value_path = shipped_value_path(2)
        value_reference = _reference_session(str(value_path))
        value_native = NativeSession(str(value_path), value_reference)
        ours = value_native.run(["value_logit"], {"observation": observations})[0]
        theirs = value_reference.run(["value_logit"], {"observation": observations})[0]
        assert _close(ours, theirs).all()
        assert np.std(theirs) > 0.05  # positions that tell the values apart, not one constant


def test_ties_go_to_the_first_legal_index_as_onnx_argmax_does():
    path = shipped_model_path(2)
    reference = _reference_session(str(path))
    native = NativeSession(str(path), reference)
    observation = np.zeros((1, reference.get_inputs()[0].shape[-1]), np.float32)
    mask = np.zeros((1, 2757), np.float32)  # no legal id: every logit is -1e9, the first index wins
    feeds = {"observation": observation, "action_mask": mask}
    assert native.run(["action"], feeds)[0][0] == reference.run(["action"], feeds)[0][0] == 0


def test_the_reader_gives_the_onnx_packages_weights_and_nodes():
    onnx = pytest.importorskip("onnx")
    from onnx import numpy_helper

    for path in [shipped_model_path(n) for n in (2, 3)] + [shipped_value_path(2)]:
        graph, model = read_graph(path), onnx.load(str(path))
        reference = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
        assert graph.initializers.keys() == reference.keys()
        for name, array in reference.items():
            assert graph.initializers[name].dtype == array.dtype and np.array_equal(graph.initializers[name], array)
        assert [n.op_type for n in graph.nodes] == [n.op_type for n in model.graph.node]
        assert graph.outputs == [o.name for o in model.graph.output]


def test_a_file_of_another_design_is_refused_by_name():
    onnx = pytest.importorskip("onnx")

    model = onnx.load(str(shipped_model_path(2)))
    tanh = next(n for n in model.graph.node if n.op_type == "Tanh")
    tanh.op_type = "Sigmoid"  # the policy's hidden activation, changed
    with pytest.raises(UnknownNetwork, match="dense layer"):
        recognise(read_graph(model.SerializeToString()))
    model = onnx.load(str(shipped_model_path(2)))
    conv = next(n for n in model.graph.node if n.op_type == "Conv")
    next(a for a in conv.attribute if a.name == "strides").ints[:] = [1, 1]
    with pytest.raises(UnknownNetwork, match="stride 2"):
        recognise(read_graph(model.SerializeToString()))
    with pytest.raises(ValueError, match="not an ONNX model"):
        read_graph(b"\x08\x01")


def test_the_native_search_asks_its_networks_in_the_core_and_onnxruntime_ones_through_python(monkeypatch):
    """With the policy's prior and value on the native pass the search hands the core its networks (no Python
    call per node or leaf); with sessions on onnxruntime it hands Python callbacks, as before."""
    from fcm_agents.native import _agents
    from fcm_agents.search import learned_value, parse_params, policy_model, search_agent
    from fcm_env.engines import new_game

    def forget() -> None:  # the sessions and values one process shares
        policy_model._session.cache_clear()
        learned_value._load.cache_clear()

    def handed(backend: str) -> tuple[object, object]:
        forget()
        monkeypatch.setattr(policy_model, "SEARCH_BACKEND", backend)
        agent = search_agent(parse_params("iterations=8,engine=native,prior=policy"), seed=1)
        seen = {}
        run = agent._native.run

        class Spy:  # the pybind11 object's run, watched
            def __getattr__(self, name):
                return getattr(agent_native, name)

            def run(self, *args):
                seen["policy"], seen["value"] = args[6], args[7]
                return run(*args)

        agent_native = agent._native
        agent._native = Spy()
        game = new_game("native", 2, 3, "standard", 6)
        while len(game.legal_ids()) < 2:
            game.apply_id(int(game.legal_ids()[0]))
        agent.act_on_game(game, game.current_player)
        monkeypatch.undo()
        forget()
        return seen["policy"], seen["value"]

    policy, value = handed("auto")
    assert isinstance(policy, list) and all(isinstance(n, _agents.Network) for n in policy)
    assert isinstance(value, _agents.Network)
    policy, value = handed("onnxruntime")
    assert callable(policy) and callable(value) and not isinstance(value, _agents.Network)


@pytest.mark.parametrize("players", [2, 4])
def test_a_policy_agent_on_a_native_game_answers_in_the_core_as_it_does_from_its_observation(players):
    """``policy`` on a native game plays through ``_agents.PolicyPlayer`` (one core call a decision): at every
    decision of a game against heuristics, the very move it picks from the seat's observation and mask."""
    from fcm_agents import make_agent
    from fcm_agents.base import agent_move
    from fcm_env.encoding import CODEC, FLAT_SIZE
    from fcm_env.engines import new_game

    policy = make_agent("policy")
    others = [make_agent("heuristic", seed=p) for p in range(1, players)]
    game = new_game("native", players, 41 + players, "standard", 6)
    decisions = 0
    while not game.is_over:
        mover = game.current_player
        if mover == 0:
            move = agent_move(policy, game, 0)
            observation = game.observe_flat(0, np.zeros(FLAT_SIZE, np.float32))
            mask = np.zeros(CODEC.n, np.int8)
            mask[game.legal_ids()] = 1
            assert move == CODEC.decode(int(policy.act(observation, mask)), game.pending)
            decisions += 1
        else:
            move = agent_move(others[mover - 1], game, mover)
        game.apply(move)
    assert decisions > 20 and policy._native_players  # the core's player answered


def test_a_file_the_native_pass_does_not_know_runs_on_onnxruntime_or_is_refused_when_native_is_asked():
    onnx = pytest.importorskip("onnx")
    from fcm_agents.onnx_agent import OnnxAgent

    model = onnx.load(str(shipped_model_path(2)))
    next(n for n in model.graph.node if n.op_type == "Tanh").op_type = "Sigmoid"  # another design
    data = model.SerializeToString()
    agent = OnnxAgent(data)  # backend="auto": onnxruntime plays it
    assert not isinstance(agent.session, NativeSession)
    assert isinstance(OnnxAgent(str(shipped_model_path(2))).session, NativeSession)
    with pytest.raises(UnknownNetwork, match="backend='native'.*backend='onnxruntime' runs this file"):
        OnnxAgent(data, backend="native")
    with pytest.raises(ValueError, match="backend must be one of"):
        OnnxAgent(data, backend="gpu")
