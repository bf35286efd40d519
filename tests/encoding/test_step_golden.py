"""Golden step hashes: the engine and the encoders give the same bytes as when the file was written.

The speed work on the engine and the encoders (caches, vectorised sums) must not
change a single result. For a few short seeded games this test hashes, at every
decision, the state document, the sorted legal actions, every player's flat
observation and every player's legal-action mask, and compares the per-game
digests with ``step_golden.json``.

The file is regenerated only on purpose, when the rules, the state format or the
observation layout change deliberately (never to make a speed change pass):

    python tests/encoding/test_step_golden.py --write
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from fcm_env.encoding import CODEC, Observer, legal_action_mask
from fcm_env.engine.game import Game
from fcm_env.engine.invariants.random_sim import pick
from fcm_env.engine.persistence.serialize import state_to_dict

GOLDEN = Path(__file__).with_name("step_golden.json")
#: (players, variant, seed, max_rounds, act_bias): random play that acts rather than passes; the
#: 3-player game places campaigns, a house and demand, the standard ones hire and fire (hidden choices)
GAMES = (
    (2, "standard", 3, 6, 0.95),
    (3, "introductory", 1, 8, 0.95),
    (4, "standard", 2, 5, 0.85),
    (5, "introductory", 0, 4, 0.95),
)


def game_digests(num_players: int, variant: str, seed: int, max_rounds: int, act_bias: float,
                 engine: str = "python") -> dict[str, str]:
    """One sha256 per stream (state, legal, observations, masks) over every decision of the game."""
    if engine == "native":
        return native_game_digests(num_players, variant, seed, max_rounds, act_bias)
    rng = random.Random(f"golden/{num_players}/{variant}/{seed}")
    game = Game.new(num_players, seed=seed, variant=variant, max_rounds=max_rounds)
    observer = Observer()  # one observer for the whole game: its caches are what is under test
    flat = np.zeros(observer.flat_size, dtype=np.float32)
    mask = np.zeros(CODEC.n, dtype=np.int8)
    streams = {name: hashlib.sha256() for name in ("state", "legal", "observations", "masks")}
    steps = 0
    while True:
        streams["state"].update(json.dumps(state_to_dict(game.state), sort_keys=True).encode())
        legal = game.legal_actions()
        streams["legal"].update(repr(legal).encode())
        for player in range(num_players):
            streams["observations"].update(observer.observe_flat(game, player, out=flat).tobytes())
            streams["masks"].update(legal_action_mask(game, player, out=mask).tobytes())
        if game.pending is None:
            break
        game.apply(pick(rng, legal, act_bias))
        steps += 1
    return {"steps": str(steps)} | {name: h.hexdigest() for name, h in streams.items()}


def native_game_digests(num_players: int, variant: str, seed: int, max_rounds: int,
                        act_bias: float) -> dict[str, str]:
    """``game_digests`` of the same game played on the native core: the same streams must come out."""
    from fcm_env.engines import new_game

    rng = random.Random(f"golden/{num_players}/{variant}/{seed}")
    game = new_game("native", num_players, seed, variant, max_rounds)
    flat = np.zeros(Observer().flat_size, dtype=np.float32)
    mask = np.zeros(CODEC.n, dtype=np.int8)
    streams = {name: hashlib.sha256() for name in ("state", "legal", "observations", "masks")}
    steps = 0
    while True:
        streams["state"].update(json.dumps(game.to_dict(), sort_keys=True).encode())
        legal = game.legal_actions()
        streams["legal"].update(repr(legal).encode())
        for player in range(num_players):
            streams["observations"].update(game.observe_flat(player, flat).tobytes())
            mask[:] = 0
            if game.current_player == player:
                mask[game.legal_ids()] = 1
            streams["masks"].update(mask.tobytes())
        if game.pending is None:
            break
        game.apply(pick(rng, legal, act_bias))
        steps += 1
    return {"steps": str(steps)} | {name: h.hexdigest() for name, h in streams.items()}


def _name(spec: tuple) -> str:
    return "{}p-{}-seed{}-rounds{}-bias{}".format(*spec)


@pytest.mark.parametrize("engine", ["python", "native"])
@pytest.mark.parametrize("spec", GAMES, ids=_name)
def test_every_step_hashes_as_recorded(spec, engine):
    recorded = json.loads(GOLDEN.read_text())[_name(spec)]
    assert game_digests(*spec, engine=engine) == recorded


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(__doc__)
    GOLDEN.write_text(json.dumps({_name(spec): game_digests(*spec) for spec in GAMES}, indent=1) + "\n")
    print(f"wrote {GOLDEN}")
