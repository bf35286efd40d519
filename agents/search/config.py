"""The search agent's parameters, and the ``search:key=value,...`` spec that sets them.

Every parameter has a default that plays at about 0.25 s a decision on one core; a spec names only
what it changes (``search:iterations=400``, ``search:seconds=0.5,horizon=2``). An unknown key or a
bad value raises ``ValueError`` naming the key, the value and what is allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

ROLLOUTS = ("heuristic", "random", "policy")
PRIORS = ("auto", "heuristic", "uniform", "policy")
MODELS = ("uniform", "heuristic")
#: the strategist models of another player: the default and each archetype (``fcm_agents.strategist``)
STRATEGISTS = ("strategist", "strategist:marketing", "strategist:drinks", "strategist:discount", "strategist:luxury",
               "strategist:expansion", "strategist:cfo")
OTHERS = ("infer", "heuristic", "policy", "same", *STRATEGISTS)
INFER_FROM = ("family", "classic")
VALUES = ("auto", "cash", "learned")
ENGINES = ("auto", "native", "python")


@dataclass(frozen=True)
class SearchConfig:
    """How the information-set MCTS searches (docs/search.md explains each)."""

    #: iterations per decision; with ``seconds`` too, whichever ends first (0: no iteration cap)
    iterations: int = 0
    #: thinking time per decision in seconds (0: no time cap; then ``iterations`` must be set)
    seconds: float = 0.2
    #: the seat's first restaurant (the setup's placement, which decides which houses it can ever
    #: reach) gets this many times the budget, in iterations and seconds alike
    opening: float = 1.0
    #: rollouts play this many rounds past the round of the decision, then the position is scored
    horizon: int = 6
    #: a seat the policy plays in rollouts is played by it for this many rounds (counted like
    #: ``horizon``), then by the heuristic: a policy move costs about eight heuristic ones
    policy_rounds: int = 1
    #: who plays the rollouts (and the hidden moves of the others in the tree)
    rollout: str = "heuristic"
    #: where the priors of the tree's actions come from (auto: the shipped policy for the table's size
    #: if there is one, else the heuristic)
    prior: str = "auto"
    #: the model of the other players (their tree favourites, rollout moves and face-down choices):
    #: ``infer`` (the model among ``infer_from`` that predicted their public moves so far best),
    #: ``heuristic``, ``policy``, ``strategist`` or ``strategist:ARCHETYPE``, or ``same`` (as the searcher's
    #: own ``prior`` and ``rollout``)
    others: str = "infer"
    #: the models ``others=infer`` chooses among: ``family`` (the heuristic, the policy, the default
    #: strategist and its six archetypes) or ``classic`` (the heuristic and the policy)
    infer_from: str = "family"
    #: how the hidden facts of the others are redrawn (``Game.determinize``'s model)
    model: str = "heuristic"
    #: PUCT exploration constant
    c_puct: float = 1.0
    #: share of the prior that follows its source (the heuristic's choice, or the policy's softmax); the
    #: rest is spread evenly over the legal actions
    prior_weight: float = 0.5
    #: progressive widening: a node with n visits considers 1 + widen * sqrt(n) of its actions
    widen: float = 1.0
    #: dollars of lead that score a position at 0.5 + 0.38 (``value.score``: tanh(lead / scale))
    scale: float = 60.0
    #: how a position where a rollout stopped is scored: ``cash`` (the lead, ``scale``), ``learned`` (a
    #: value network: ``value_model``, else the one shipped for the table's size), ``auto`` (learned where
    #: a network is shipped for the table's size and another player is modelled as the policy, else cash)
    value: str = "auto"
    #: with a learned value, rollouts stop this many rounds on (instead of ``horizon``): the network
    #: judges what lies further, and the iterations saved go to the tree
    learned_horizon: int = 2
    #: an exported value network (``.onnx``, ``value_logit = f(observation)``) for ``value=learned``;
    #: empty: the shipped one
    value_model: str = ""
    #: a network (``.onnx``) for the searcher's own policy parts (``prior=policy``, ``rollout=policy``)
    #: instead of the shipped policy; one with a ``value_logit`` output (a policy-value network,
    #: ``fcm_training.distill``) is also the learned value (``value=auto`` or ``learned``, unless
    #: ``value_model`` names another), and ``prior=auto`` takes its priors. The others' ``policy`` model
    #: stays the shipped policy. Empty: the shipped policy
    policy_model: str = ""
    #: where the search runs: ``native`` (the C++ core and native players: the same tree for the same seed
    #: and iterations, many more iterations a second), ``python``, or ``auto`` (native where it is built)
    engine: str = "auto"

    def __post_init__(self) -> None:
        checks = {
            "iterations": (self.iterations >= 0, "an integer >= 0"),
            "seconds": (self.seconds >= 0, "a number >= 0"),
            "opening": (self.opening >= 1, "a number >= 1 (times the budget)"),
            "horizon": (self.horizon >= 0, "an integer >= 0 (rounds)"),
            "policy_rounds": (self.policy_rounds >= 0, "an integer >= 0 (rounds)"),
            "learned_horizon": (self.learned_horizon >= 0, "an integer >= 0 (rounds)"),
            "rollout": (self.rollout in ROLLOUTS, f"one of {', '.join(ROLLOUTS)}"),
            "prior": (self.prior in PRIORS, f"one of {', '.join(PRIORS)}"),
            "others": (self.others in OTHERS, f"one of {', '.join(OTHERS)}"),
            "infer_from": (self.infer_from in INFER_FROM, f"one of {', '.join(INFER_FROM)}"),
            "model": (self.model in MODELS, f"one of {', '.join(MODELS)}"),
            "c_puct": (self.c_puct > 0, "a number > 0"),
            "prior_weight": (0 <= self.prior_weight <= 1, "a number from 0 to 1"),
            "widen": (self.widen > 0, "a number > 0"),
            "scale": (self.scale > 0, "a number > 0"),
            "value": (self.value in VALUES, f"one of {', '.join(VALUES)}"),
            "value_model": (not self.value_model or self.value_model.endswith(".onnx"), "a path to an .onnx file"),
            "policy_model": (not self.policy_model or self.policy_model.endswith(".onnx"), "a path to an .onnx file"),
            "engine": (self.engine in ENGINES, f"one of {', '.join(ENGINES)}"),
        }
        check_values("search", self, checks)
        if not self.iterations and not self.seconds:
            raise ValueError("search: set iterations or seconds (both are 0: the search would never stop)")


def check_values(what: str, config: Any, checks: dict[str, tuple[bool, str]]) -> None:
    """Raise ``ValueError`` for the first failed check: ``{key: (ok, what is allowed)}`` of ``config``'s
    fields, the message starting with ``what`` (the agent's kind)."""
    for key, (ok, allowed) in checks.items():
        if not ok:
            raise ValueError(f"{what}: {key}={getattr(config, key)!r} is not allowed: {key} is {allowed}")


def parse_key_values(text: str, cls: type, what: str) -> dict[str, Any]:
    """``"key=value,..."`` -> the typed values of dataclass ``cls``'s fields; ``ValueError`` naming a bad
    key or value (``what`` starts the message: the agent's kind)."""
    types = {f.name: f.type for f in fields(cls)}
    values: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, eq, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        if key not in types:
            raise ValueError(f"{what}: unknown parameter {key!r}; known: {', '.join(types)}")
        if not eq or not raw:
            raise ValueError(f"{what}: {key} needs a value ({key}=...)")
        kind = types[key]
        try:
            values[key] = int(raw) if kind == "int" else float(raw) if kind == "float" else raw
        except ValueError:
            raise ValueError(f"{what}: {key}={raw!r} is not {'an integer' if kind == 'int' else 'a number'}") from None
    return values


def parse_params(text: str) -> SearchConfig:
    """``"iterations=400,horizon=2"`` -> a ``SearchConfig``; ``ValueError`` naming a bad key or value."""
    values = parse_key_values(text, SearchConfig, "search")
    config = replace(SearchConfig(), **values)
    if "iterations" in values and "seconds" not in values:  # an iteration budget alone: deterministic play
        config = replace(config, seconds=0.0)
    return config
