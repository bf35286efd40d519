"""``OnnxAgent``: a policy exported by ``training/common/export.py``, run with onnxruntime (no torch).

The policy runs on the native forward pass where the native players are built and the file is of the
family it knows (``backend="auto"``; ``fcm_agents.native.network``: the same actions and logits as
onnxruntime, without a session run per call), else on onnxruntime (``backend="onnxruntime"``, the reference).

The exported graph takes ``observation`` (float32 [batch, FLAT_SIZE]) and
``action_mask`` (float32 [batch, NUM_ACTIONS], 1 = legal) and returns ``action``
(int64 [batch], the best legal action) and ``masked_logits`` (illegal ids at
-1e9). The mask is applied inside the graph, so any program that can run ONNX
can play the policy. ``act`` also takes the two-part ``Observation`` (board planes
and vector) that ``Observer.observe`` makes, and flattens it like ``observe_flat``.

By default the agent plays the graph's ``action`` (the policy's most likely legal
action). With ``deterministic=False`` it samples from softmax(masked_logits) over
the legal ids only, with its own generator: ``seed`` makes it reproducible and
``reset()`` rewinds it. ``act_batch`` decides many positions in one call.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from .base import check_mask

INPUTS = ("observation", "action_mask")
OUTPUTS = ("action", "masked_logits")


def flat_observation(observation: Any) -> np.ndarray:
    """The flat float32 observation the graph reads: a flat vector as is, or an ``Observation``
    (``board``, ``vector``; what ``Observer.observe`` and ``fcm serve`` bots get) flattened like
    ``Observer.observe_flat`` (the board planes in C order, then the vector)."""
    board = getattr(observation, "board", None)
    if board is None and isinstance(observation, Mapping) and "board" in observation:
        board = observation["board"]
    if board is None:
        return np.asarray(observation, dtype=np.float32)
    vector = observation["vector"] if isinstance(observation, Mapping) else observation.vector
    return np.concatenate([np.asarray(board, dtype=np.float32).ravel(), np.asarray(vector, dtype=np.float32)])


#: where a model runs: the native forward pass when the file is of the family it knows (``auto``, the default),
#: always (``native``: an error for another design), or onnxruntime (the reference)
BACKENDS = ("auto", "native", "onnxruntime")


def _reference_session(model: str | bytes):
    """The onnxruntime session of a model (one thread: one position at a time, and tournaments fork)."""
    try:
        import onnxruntime
    except ImportError as error:  # pragma: no cover - depends on the install
        raise ImportError("OnnxAgent needs onnxruntime: pip install onnxruntime") from error
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    return onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])


def _session(model: str | bytes, backend: str = "auto"):
    """A session for ``model`` on ``backend`` (``BACKENDS``): ``fcm_agents.native.network.NativeSession`` (the
    C++ forward pass, checked against onnxruntime on probe positions first) or onnxruntime's own. With
    ``auto`` a file the native pass does not know, or an install without the native players, runs on
    onnxruntime; with ``native`` either is an error saying why."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    reference = _reference_session(model)
    if backend == "onnxruntime":
        return reference
    try:
        from .native.network import NativeSession, UnknownNetwork
    except ImportError as error:
        if backend == "native":
            raise ImportError(f"backend='native': the native players are not built in this install ({error})") from None
        return reference
    try:
        session = NativeSession(model, reference)
        session.verify()
    except UnknownNetwork as error:
        if backend == "native":
            raise UnknownNetwork(f"backend='native': {error}; backend='onnxruntime' runs this file") from None
        return reference
    return session


class OnnxAgent:
    """Plays an exported policy: ``source`` is an ``.onnx`` path or the model's bytes."""

    def __init__(self, source: str | Path | bytes, name: str | None = None, *, deterministic: bool = True,
                 seed: int | None = None, backend: str = "auto"):
        self.backend = backend
        if isinstance(source, (bytes, bytearray, memoryview)):
            self.session = _session(bytes(source), backend)
            default_name = "onnx"
        elif isinstance(source, (str, Path)):
            path = Path(source)
            if not path.is_file():
                raise FileNotFoundError(f"no ONNX model at {path}")
            self.session = _session(str(path), backend)
            default_name = f"onnx:{path}"
        else:
            raise TypeError(f"OnnxAgent needs an .onnx path or the model bytes, got {type(source).__name__}")
        self._check_interface(default_name)
        self.name = name or default_name
        self.deterministic = deterministic
        self._seed = seed
        self._rng = np.random.default_rng(seed)

    def _check_interface(self, what: str) -> None:
        inputs = [i.name for i in self.session.get_inputs()]
        outputs = [o.name for o in self.session.get_outputs()]
        if sorted(inputs) != sorted(INPUTS) or not set(OUTPUTS) <= set(outputs):
            raise ValueError(f"{what}: not an exported fcm-magnate policy (inputs {inputs}, outputs {outputs}; "
                             f"expected inputs {list(INPUTS)} and outputs {list(OUTPUTS)})")
        from fcm_env.encoding import FLAT_SIZE, NUM_ACTIONS

        widths = {i.name: i.shape[-1] for i in self.session.get_inputs()}
        for input_name, size in (("observation", FLAT_SIZE), ("action_mask", NUM_ACTIONS)):
            if isinstance(widths[input_name], int) and widths[input_name] != size:
                raise ValueError(f"{what}: the model's {input_name} has width {widths[input_name]} but this "
                                 f"version of fcm-magnate uses {size}: the model was exported for another encoding")

    #: ``agent_move`` hands it the game as it is: on a native game, with a deterministic policy whose session is
    #: on the native pass, it answers in one core call (``_agents.PolicyPlayer``: the seat's observation, the
    #: forward pass and the greedy choice in C++, the same answer as ``act``); else from the seat's observation
    plays_native = True

    def _session_for(self, num_players: int):
        """The session that plays a table of ``num_players`` (one model here; ``ShippedPolicy``: one a size)."""
        return self.session

    def _native_player(self, game: Any) -> Any | None:
        if not self.deterministic or getattr(game, "native_core", None) is None:
            return None
        session = self._session_for(game.num_players)
        network = getattr(session, "network", None)
        if network is None:
            return None  # onnxruntime's session: the observation path
        players = self.__dict__.setdefault("_native_players", {})
        player = players.get(id(network))
        if player is None:
            from .native import _agents

            player = players[id(network)] = _agents.PolicyPlayer(network)
        return player

    def native_player(self, game: Any) -> Any | None:
        """The C++ player of this policy on a native game (``fcm_agents.match`` plays runs of its moves in the
        core): the greedy policy on the native pass; None when sampling or on onnxruntime."""
        return self._native_player(game)

    def act_on_game(self, game: Any, player: int):
        """``player``'s move in a game of either engine (the same move ``act`` chooses on its observation)."""
        from fcm_env.encoding import CODEC, FLAT_SIZE
        from fcm_env.engine.actions import Action, ActionKind

        native = self._native_player(game)
        if native is not None:
            kind, args = native.act(game.native_core, int(player))
            return Action(ActionKind(kind), tuple(args))
        observation = game.observe_flat(player, np.zeros(FLAT_SIZE, np.float32))
        mask = np.zeros(CODEC.n, dtype=np.int8)
        if game.current_player == player:
            mask[game.legal_ids()] = 1
        return CODEC.decode(int(self.act(observation, mask)), game.pending)

    def reset(self) -> None:
        """Rewind the sampling generator (the deterministic policy has no state)."""
        self._rng = np.random.default_rng(self._seed)

    def with_seed(self, seed: int | None, name: str | None = None) -> OnnxAgent:
        """The same policy (the same session, no new load) sampling from a generator of its own seeded with
        ``seed``: one seat of one game (the training pool's snapshot seats), whatever else plays this model."""
        twin = copy.copy(self)
        twin._seed = seed
        twin._rng = np.random.default_rng(seed)
        twin.name = name or self.name
        return twin

    def _run(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        actions, logits = self.session.run(list(OUTPUTS), {"observation": observations, "action_mask": masks})
        return actions, logits

    def _choose(self, action: int, logits: np.ndarray, legal: np.ndarray) -> int:
        """The agent's pick for one position: the graph's action, or a sample among ``legal``."""
        if self.deterministic:
            if action in legal:
                return action
            return int(legal[np.argmax(logits[legal])])  # never trust an illegal id (e.g. NaN logits)
        z = logits[legal].astype(np.float64)
        z -= z.max()
        p = np.exp(z)
        total = p.sum()
        if not np.isfinite(total) or total <= 0:
            return int(self._rng.choice(legal))
        return int(self._rng.choice(legal, p=p / total))

    def act(self, observation: np.ndarray | Any, action_mask: np.ndarray) -> int:
        """The action id for one position: ``observation`` flat (float32 [FLAT_SIZE]) or an ``Observation``."""
        legal = check_mask(action_mask)
        actions, logits = self._run(flat_observation(observation)[None],
                                    np.asarray(action_mask, dtype=np.float32)[None])
        return self._choose(int(actions[0]), logits[0], legal)

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One action per row: ``observations`` float32 [B, FLAT_SIZE], ``masks`` [B, NUM_ACTIONS] -> int64 [B]."""
        observations = np.asarray(observations, dtype=np.float32)
        masks = np.asarray(masks)
        if observations.ndim != 2 or masks.ndim != 2 or len(observations) != len(masks):
            raise ValueError(f"act_batch needs [B, F] observations and [B, N] masks, got shapes "
                             f"{observations.shape} and {masks.shape}")
        legal = [check_mask(row) for row in masks]
        if not legal:
            return np.zeros(0, dtype=np.int64)
        actions, logits = self._run(observations, masks.astype(np.float32, copy=False))
        return np.array([self._choose(int(a), lg, ids) for a, lg, ids in zip(actions, logits, legal, strict=True)],
                        dtype=np.int64)
