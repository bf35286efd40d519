"""Information-set Monte Carlo tree search (single observer, with the others' hidden moves merged).

Each iteration (Cowling, Powley and Whitehouse's IS-MCTS, 2012):

1. **determinize**: a world drawn from what the searcher knows (``Game.determinize``: the
   others' hidden reserve cards, face-down structures and firing marks redrawn by ``model``);
2. **select** down the tree in that world: at a choice of the searcher or a public choice of
   another player, PUCT over the actions legal *in this world*, widened progressively (a node
   with n visits considers its first ``1 + widen * sqrt(n)`` actions in the order of its prior:
   the policy's or the heuristic's for the searcher, the player's model's for the others); the player to move maximises its own entry of the value vector (max^n); an
   action's exploration term counts the iterations it was available, not the parent's visits;
   another player's face-down choice, which the searcher cannot see, is one merged child
   (``Game.observed_action``) and is played in the world by that player's model;
3. **expand** the first choice that leads to a new node;
4. **evaluate** by a rollout (the searcher's seat by ``rollout``, each other seat by its model:
   ``others``, by default whichever of the heuristic and the policy predicted its moves better,
   ``opponents.OpponentTypes``) to the end of the round ``horizon`` rounds on, scored by
   ``value.score`` (the cash lead), or ``learned_horizon`` rounds on, scored by a value network
   (``learned_value``: ``value=auto`` against a player modelled as the policy, ``value=learned``);
5. **back up** the value vector along the path.

The searcher plays the root action with the most visits. It reads the real game only for its
own legal actions: every iteration starts from a determinized world, so it cannot peek
(tests/agents/test_search.py plays it from games that differ only in hidden facts).
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

from fcm_env.engine.actions import Action, Decision
from fcm_env.engine.events import HIDDEN_DECISIONS
from fcm_env.engine.game import Game
from fcm_env.engine.hidden.determinize import UniformModel

from ..heuristic import HeuristicAgent, HeuristicHiddenModel
from ..random_agent import RandomAgent
from .config import STRATEGISTS, SearchConfig
from .frame import EngineSearch
from .learned_value import LearnedValue, learned_or_cash
from .opponents import OpponentTypes
from .policy_model import PolicyModel, default_policy_path, resolve_prior
from .tree import Edge, Node
from .value import ValueFn, scorer

#: the value an action not yet tried counts with (first-play urgency: an even chance)
UNTRIED = 0.5


class SearchAgent(EngineSearch):
    """Plays by information-set MCTS (module docstring); ``config`` sets the budget and the parts."""

    def __init__(self, config: SearchConfig | None = None, seed: int | None = None, name: str = "search",
                 value: ValueFn | None = None):
        super().__init__(seed, name)
        self.config = config or SearchConfig()
        self._fixed_value = value  # a value function given by the caller wins over ``config.value``
        self._value: ValueFn = value or scorer(self.config.scale)  # the one in use (set per decision)
        self._horizon = self.config.horizon  # rounds a rollout plays: learned_horizon with a learned value
        self._model = HeuristicHiddenModel() if self.config.model == "heuristic" else UniformModel()
        self._prior_agent = HeuristicAgent(seed=0)
        self._prior = "heuristic"  # the prior of the seat's own moves at this table (``resolve_prior``)
        self._seat_priors: list[str] = []  # the prior of each seat's moves in the tree (the others': their model)
        self.opponents: OpponentTypes | None = None  # others=infer: what each other player plays like
        self._strategists: dict[str, Any] = {}  # the strategist models of other players, by name
        self._policy: PolicyModel | None = None  # loaded on first use (rollout=policy or prior=policy)
        self._own_policy: PolicyModel | None = None  # ``policy_model``'s network (else the shipped policy)
        self._own_seats: set[int] = set()  # seats played by the searcher's own parts in the tree
        #: the root of the last search (its edges: visits and backed-up values per observed action)
        self.last_root: Node | None = None

    def reset(self) -> None:
        super().reset()
        self.opponents = None

    # ------------------------------------------------------------------ one decision

    def _search(self, game: Game, player: int, legal: list[Action], start: float) -> Action:
        config = self.config
        scale = config.opening if game.pending.decision == Decision.INITIAL_RESTAURANT else 1.0
        deadline = start + config.seconds * scale if config.seconds else math.inf
        budget = round(config.iterations * scale)
        num_players = game.state.num_players
        others = self._others_models(game, player)
        self._prior = resolve_prior(config.prior, num_players, others, own_policy=bool(config.policy_model))
        own = self._rollout_agent(num_players)
        rollout_agents = [own if p == player or others[p] == "same" else self._model_agent(others[p], num_players)
                          for p in range(num_players)]
        self._own_seats = {p for p in range(num_players) if p == player or others[p] == "same"}
        self._seat_priors = [self._prior if p in self._own_seats else others[p] for p in range(num_players)]
        self._value = self._value_for(num_players, others)
        self._horizon = config.learned_horizon if isinstance(self._value, LearnedValue) else config.horizon
        root = Node()
        done = 0
        while (not budget or done < budget) and (done == 0 or time.perf_counter() < deadline):
            self._iterate(game, player, root, rollout_agents)
            done += 1
        self.last_root = root
        self.stats.iterations += done
        return self._best(root, legal, game, player)

    def _value_for(self, num_players: int, others: list[str]) -> ValueFn:
        """The value of a stopped rollout at this table, with the others modelled as ``others``
        (``value``, ``value_model``; ``learned_or_cash``)."""
        if self._fixed_value is not None:
            return self._fixed_value
        return learned_or_cash(self.config, num_players, others)

    def _policy_model(self, num_players: int) -> PolicyModel:
        """The shipped policy: the model of another player who plays like it."""
        if self._policy is None:
            self._policy = PolicyModel(default_policy_path(num_players))
        return self._policy

    def _own_policy_model(self, num_players: int) -> PolicyModel:
        """The network of the searcher's own policy parts: ``policy_model``, else the shipped policy."""
        if not self.config.policy_model:
            return self._policy_model(num_players)
        if self._own_policy is None:
            if not Path(self.config.policy_model).is_file():
                raise ValueError(f"search: policy_model={self.config.policy_model}: no such file")
            self._own_policy = PolicyModel(self.config.policy_model)
        return self._own_policy

    def _rollout_agent(self, num_players: int):
        """Who plays the searcher's own seat in rollouts (``rollout``)."""
        if self.config.rollout == "random":
            return RandomAgent(seed=int(self._rng.integers(2**31)))
        if self.config.rollout == "policy":
            return self._own_policy_model(num_players)
        return self._prior_agent

    def _model_agent(self, name: str, num_players: int):
        """The heuristic, the policy or a strategist as a player of any seat (each is deterministic: one
        serves all)."""
        if name == "policy":
            return self._policy_model(num_players)
        if name.startswith("strategist"):
            return self._strategist_model(name)
        return self._prior_agent

    def _strategist_model(self, name: str):
        """A strategist (``strategist`` or ``strategist:ARCHETYPE``) without seeded variation: a model that
        answers the same in every world (kept per name)."""
        model = self._strategists.get(name)
        if model is None:
            from ..strategist import StrategistAgent

            _, _, archetype = name.partition(":")
            model = self._strategists[name] = StrategistAgent(archetype or None, seed=0, variation=0.0)
        return model

    def _others_models(self, game: Game, me: int) -> list[str]:
        """Per seat, the model of that player (``others``): ``same`` (as the searcher's own parts),
        ``heuristic``, ``policy``, or with ``infer`` the likelier of the two from its moves so far."""
        num_players = game.state.num_players
        if self.config.others != "infer":
            return [self.config.others] * num_players
        types = self.opponents
        if types is None or types.me != me or len(types.loglik) != num_players - 1:
            choosers = {"heuristic": self._prior_agent.act_on_game, "policy": self._policy_model(num_players).act_on_game}
            if self.config.infer_from == "family":
                choosers.update({name: self._strategist_model(name).act_on_game for name in STRATEGISTS})
            types = self.opponents = OpponentTypes(me, num_players, choosers)
        types.update(game, self._rng)
        return ["same" if p == me else types.model_of(p) for p in range(num_players)]

    def root_visits(self, game: Game, player: int, legal: list[Action]) -> list[int]:
        """How often the last search chose each of ``legal`` at its root (0 for one it never tried):
        the search's policy at that decision, the target a network learns from (``fcm_training.distill``).
        ``game``, ``player`` and ``legal`` are those of the decision just searched."""
        if self.last_root is None:
            raise RuntimeError("root_visits: no decision has been searched yet")
        edges = self.last_root.edges
        visits = []
        for action in legal:
            edge = edges.get(game.observed_action(action, player))
            visits.append(edge.visits if edge else 0)
        return visits

    def _best(self, root: Node, legal: list[Action], game: Game, player: int) -> Action:
        """The legal action whose child was visited most (ties: the higher prior, then the legal order)."""
        best, best_key = legal[0], (-1, -1.0)
        for action in legal:
            edge = root.edges.get(game.observed_action(action, player))
            key = (edge.visits, edge.prior) if edge else (-1, -1.0)
            if key > best_key:
                best, best_key = action, key
        return best

    # ------------------------------------------------------------------ one iteration

    def _iterate(self, game: Game, me: int, root: Node, rollout_agents: list) -> None:
        config = self.config
        world = game.determinize(me, self._rng, self._model)
        end_round = world.state.round + self._horizon
        policy_end = world.state.round + config.policy_rounds  # then the heuristic plays the policy's seats
        node, path = root, []
        while not world.is_over:
            pending = world.pending
            mover = pending.player
            legal = world.legal_actions()
            if len(legal) == 1 or (mover != me and pending.decision in HIDDEN_DECISIONS):
                # no choice to search: a forced move, or a face-down move the searcher cannot see
                action = legal[0] if len(legal) == 1 else rollout_agents[mover].act_on_game(world, mover)
                edge = node.edge(world.observed_action(action, me), 1.0)
                edge.available += 1
            else:
                action, edge = self._select(world, me, mover, node, legal)
            path.append((node, edge))
            world.apply(action)
            if edge.child is None:
                edge.child = Node()
                if len(legal) > 1:
                    break  # expanded: evaluate from here
            node = edge.child
        while not world.is_over and world.state.round < end_round:
            mover = world.current_player
            agent = rollout_agents[mover]
            if (agent is self._policy or agent is self._own_policy) and world.state.round >= policy_end:
                agent = self._prior_agent
            world.apply(agent.act_on_game(world, mover))
            self.stats.rollout_moves += 1
        values = self._value(world)
        root.visits += 1
        for parent, edge in path:
            edge.visits += 1
            if edge.value is None:
                edge.value = list(values)
            else:
                for i, v in enumerate(values):
                    edge.value[i] += v
            if edge.child is not None:
                edge.child.visits += 1

    def _select(self, world: Game, me: int, mover: int, node: Node, legal: list[Action]) -> tuple[Action, Edge]:
        """PUCT over the first ``1 + widen * sqrt(visits)`` candidates, the prior's favourite first."""
        config = self.config
        n = len(legal)
        prior = self._seat_priors[mover]
        if prior == "heuristic" or prior.startswith("strategist"):
            favourite = self._favourite(world, mover, legal) if prior == "heuristic" else \
                self._strategist_model(prior).act_on_game(world, mover)
            order = [favourite] + [a for a in legal if a != favourite]
            rest = (1.0 - config.prior_weight) / n  # every action's share; the favourite gets prior_weight more
            priors = [rest + config.prior_weight] + [rest] * (n - 1)
        elif prior == "policy":
            order, priors = self._policy_priors(world, me, mover, node, legal)
        else:
            order, priors = legal, [1.0 / n] * n
        width = min(n, 1 + int(config.widen * math.sqrt(node.visits)))
        best, best_score = None, -math.inf
        for action, prior in zip(order[:width], priors, strict=False):
            edge = node.edge(world.observed_action(action, me), prior)
            edge.available += 1
            q = edge.mean(mover) if edge.visits else UNTRIED
            u = config.c_puct * edge.prior * math.sqrt(edge.available) / (1 + edge.visits)
            if q + u > best_score:
                best, best_score = (action, edge), q + u
        return best

    def _policy_priors(self, world: Game, me: int, mover: int, node: Node,
                       legal: list[Action]) -> tuple[list[Action], list[float]]:
        """The policy's priors, mixed with a uniform share (``1 - prior_weight``), most likely first.

        The graph is asked once per node (and again only for an action no earlier world offered):
        the priors are kept on the node by observed action."""
        keys = [world.observed_action(action, me) for action in legal]
        known = node.priors
        if known is None or any(key not in known for key in keys):
            n = world.state.num_players
            model = self._own_policy_model(n) if mover in self._own_seats else self._policy_model(n)
            fresh = model.priors(world, mover, legal)
            known = node.priors = {**(known or {}), **dict(zip(keys, fresh, strict=True))}
        w, n = self.config.prior_weight, len(legal)
        ranked = sorted(range(n), key=lambda i: -known[keys[i]])  # stable: ties keep the legal order
        return [legal[i] for i in ranked], [(1.0 - w) / n + w * known[keys[i]] for i in ranked]

    def _favourite(self, world: Game, mover: int, legal: list[Action]) -> Action:
        """The heuristic's choice for ``mover`` in this world (the prior's favourite)."""
        return self._prior_agent.act_on_game(world, mover)
