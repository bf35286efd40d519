"""How often a checkpoint picks the heuristic's own answer, decision kind by decision kind.

    python benchmarks/imitation_by_decision.py runs/beat_heuristic_2p/bc_model.zip --games 10

Plays pure heuristic 2-player games on the evaluation seeds (from 10,000,000) and, at every
decision, compares the checkpoint's most likely legal action with the heuristic's. A clone can
agree on 98% of all decisions and still lose: this shows which decisions it gets wrong.
"""

from __future__ import annotations

import argparse
import collections
import sys

import numpy as np


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=10_000_000)
    args = parser.parse_args(argv)
    import torch
    from sb3_contrib import MaskablePPO

    from fcm_agents import HeuristicAgent
    from fcm_env.encoding import CODEC, Observer, legal_action_mask
    from fcm_env.engine.game import Game

    torch.set_num_threads(1)
    policy = MaskablePPO.load(args.checkpoint, device="cpu").policy
    observer = Observer()
    total, wrong, legal = collections.Counter(), collections.Counter(), collections.defaultdict(list)
    for seed in range(args.first_seed, args.first_seed + args.games):
        game, teacher = Game.new(2, seed, "standard", 20), HeuristicAgent()
        while not game.is_over:
            player = game.current_player
            mask = legal_action_mask(game, player)
            action = teacher.act_on_game(game, player)
            chosen, _ = policy.predict(observer.observe_flat(game, player)[None], deterministic=True,
                                       action_masks=mask[None].astype(bool))
            kind = game.pending.decision.name
            total[kind] += 1
            legal[kind].append(int(mask.sum()))
            wrong[kind] += int(int(chosen[0]) != CODEC.encode(action))
            game.apply(action)
    print(f"{'decision':<22}{'count':>7}{'agree':>8}{'mean legal':>12}")
    for kind in sorted(total, key=lambda k: (wrong[k] / total[k], -total[k]), reverse=True):
        print(f"{kind:<22}{total[kind]:>7}{1 - wrong[kind] / total[kind]:>8.1%}{np.mean(legal[kind]):>12.0f}")
    print(f"{'all':<22}{sum(total.values()):>7}{1 - sum(wrong.values()) / sum(total.values()):>8.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
