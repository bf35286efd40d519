"""Flat Monte Carlo over determinized worlds: the weakest search worth the name, as a yardstick.

``flat`` in agent specs (``flat:candidates=6,rollouts=5,horizon=2``). For one decision:

1. **candidates**: the heuristic's choice and up to ``candidates - 1`` other legal actions drawn
   at random (the seat's generator);
2. **rollouts**: ``rollouts`` worlds drawn by ``Game.determinize`` (the heuristic's model of the
   others' hidden facts); in each world every candidate is played and the heuristic plays every
   seat to the end of the round ``horizon`` rounds on (the same worlds for every candidate:
   common random numbers, so the candidates differ by their own effect, not by their luck);
3. **choice**: the candidate with the best mean ``value.score`` for the seat (ties: the
   heuristic's choice, then the order drawn).

No tree, no priors beyond the heuristic's pick: it is the project's own model of the determinized
flat searches that bots of this game use (horizon-2 rollouts from a heuristic's candidates), kept
in the ladder so the tree search has a search to beat (docs/search.md). Deterministic for a seed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from fcm_env.engine.actions import Action
from fcm_env.engine.game import Game

from ..heuristic import HeuristicAgent, HeuristicHiddenModel
from .config import check_values, parse_key_values
from .frame import EngineSearch
from .value import score


@dataclass(frozen=True)
class FlatConfig:
    """The flat search's budget: ``candidates`` x ``rollouts`` rollouts of ``horizon`` rounds a decision."""

    candidates: int = 6
    rollouts: int = 5
    horizon: int = 2
    scale: float = 60.0

    def __post_init__(self) -> None:
        check_values("flat", self, {"candidates": (self.candidates >= 1, "an integer >= 1"),
                                    "rollouts": (self.rollouts >= 1, "an integer >= 1"),
                                    "horizon": (self.horizon >= 0, "an integer >= 0 (rounds)"),
                                    "scale": (self.scale > 0, "a number > 0")})


def parse_flat_params(text: str) -> FlatConfig:
    """``"rollouts=8,horizon=1"`` -> a ``FlatConfig``; ``ValueError`` naming a bad key or value."""
    return replace(FlatConfig(), **parse_key_values(text, FlatConfig, "flat"))


class FlatSearchAgent(EngineSearch):
    """Plays the candidate whose determinized heuristic rollouts score best (module docstring)."""

    def __init__(self, config: FlatConfig | None = None, seed: int | None = None, name: str = "flat"):
        super().__init__(seed, name)
        self.config = config or FlatConfig()
        self._heuristic = HeuristicAgent(seed=0)
        self._model = HeuristicHiddenModel()

    def _search(self, game: Game, player: int, legal: list[Action], start: float) -> Action:
        candidates = self._candidates(game, player, legal)
        totals = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        for _ in range(self.config.rollouts):
            world = game.determinize(player, self._rng, self._model)
            offered = set(world.legal_actions())
            for i, action in enumerate(candidates):
                if action in offered:  # the seat's own choices never depend on hidden facts; a guard all the same
                    totals[i] += self._rollout(world.clone(), action, player)
                    counts[i] += 1
        means = [t / c if c else -1.0 for t, c in zip(totals, counts, strict=True)]
        best = max(range(len(candidates)), key=lambda i: (means[i], -i))
        self.stats.iterations += sum(counts)
        return candidates[best]

    def _candidates(self, game: Game, player: int, legal: list[Action]) -> list[Action]:
        favourite = self._heuristic.act_on_game(game, player)
        others = [a for a in legal if a != favourite]
        take = min(len(others), self.config.candidates - 1)
        picked = self._rng.choice(len(others), size=take, replace=False) if take else []
        return [favourite] + [others[int(i)] for i in picked]

    def _rollout(self, world: Game, action: Action, player: int) -> float:
        end_round = world.state.round + self.config.horizon
        world.apply(action)
        heuristic = self._heuristic
        while not world.is_over and world.state.round < end_round:
            mover = world.current_player
            world.apply(heuristic.act_on_game(world, mover))
            self.stats.rollout_moves += 1
        return score(world, self.config.scale)[player]
