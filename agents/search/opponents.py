"""Which model plays like each other player: the heuristic, the policy or a strategist, told from their moves.

The search plays out the others' futures with a model of them (their rollout moves, the
favourite among their tree moves, their face-down choices). Against the heuristic the heuristic
is an exact model; against the shipped policy it is a poor one (the policy builds a large company
slowly and the heuristic does not), and the other way round. ``OpponentTypes`` keeps, for every
other seat, the log-likelihood of its public moves under each model and names the likelier one.

It learns from ``game.history`` (recorded games keep it: every tournament, ``fcm play``, the web
table): the moves since the searcher's last decision are replayed on its copy of the game from
then, and at each public choice of another seat with more than one legal action both models are
asked what they would have done, in a world ``Game.determinize`` draws for the searcher's seat
(so the models see only what the searcher may know, and the inference cannot peek). A move a
model would have made counts ``log(1 - EPSILON)``, any other ``log(EPSILON / (n - 1))`` among n
legal actions. A game without history keeps the default model (the heuristic).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from fcm_env.engine.events import HIDDEN_DECISIONS
from fcm_env.engine.game import Game

from .config import STRATEGISTS

#: the chance that a model's player would have played another move than the model's own
EPSILON = 0.1
#: the models, in the order that wins a tie (the first is the default): the heuristic, the policy, and the
#: strategist family (the default and each archetype, ``fcm_agents.strategist``)
MODELS = ("heuristic", "policy", *STRATEGISTS)


class OpponentTypes:
    """Log-likelihoods of each other seat's public moves under each model, updated from the history."""

    def __init__(self, me: int, num_players: int, choosers: dict[str, Callable[[Game, int], object]]):
        self.me = me
        self.choosers = choosers  # model name -> (world, seat) -> that model's action
        self.loglik = {seat: dict.fromkeys(choosers, 0.0) for seat in range(num_players) if seat != me}
        self.compared = {seat: 0 for seat in self.loglik}
        self._shadow: Game | None = None
        self._seen = 0

    def model_of(self, seat: int) -> str:
        """The likelier model of ``seat`` (ties: the earlier of ``MODELS``)."""
        scores = self.loglik[seat]
        return max(scores, key=lambda name: (scores[name], -MODELS.index(name)))

    def update(self, game: Game, rng: np.random.Generator) -> None:
        """Learn from the moves of ``game.history`` since the last call (nothing without a history)."""
        history = game.history
        if history is None:
            return
        shadow = self._shadow
        if shadow is not None and len(history) >= self._seen:
            for action in history[self._seen:]:
                self._learn(shadow, action, rng)
                shadow.apply(action)
        self._shadow = game.clone()  # in step with the real game from here (on the game's own engine)
        self._shadow.history = None
        self._seen = len(history)

    def _learn(self, before: Game, action, rng: np.random.Generator) -> None:
        pending = before.pending
        mover = pending.player
        if mover == self.me or pending.decision in HIDDEN_DECISIONS:
            return
        legal = before.legal_actions()
        if len(legal) < 2:
            return
        world = before.determinize(self.me, rng)
        seen = before.observed_action(action, self.me)
        for name, choose in self.choosers.items():
            predicted = world.observed_action(choose(world, mover), self.me)
            hit = predicted == seen
            self.loglik[mover][name] += math.log(1 - EPSILON) if hit else math.log(EPSILON / (len(legal) - 1))
        self.compared[mover] += 1
