"""Build agents from short specs: ``random``, ``heuristic``, ``policy``, ``policy:PATH``, ``onnx:PATH``, ``search``.

- ``random``, ``heuristic``: the baselines (a seed makes their choices reproducible). ``heuristic`` and
  ``strategist`` answer a native game with their C++ twins, a Python game with the reference classes
  (``fcm_agents.twins``): the same moves either way.
- ``policy``: the trained policy shipped with the package for the table it sits at
  (``ShippedPolicy``: the model shipped for that player count, else ``agents/models/policy_2p.onnx``),
  run with onnxruntime: no torch needed. Named ``policy``.
- ``policy:PATH``: a trained policy from a file: an exported ``.onnx`` file runs with
  onnxruntime (``OnnxAgent``), anything else is a MaskablePPO checkpoint (``PolicyAgent``,
  needs torch and sb3-contrib).
- ``onnx:PATH``: an exported ONNX policy (``OnnxAgent``), whatever the file is called.
- ``search``, ``search:KEY=VALUE,...``: the information-set MCTS (``fcm_agents.search``; keys
  ``iterations``, ``seconds``, ``horizon``, ``rollout``, ``prior``, ``model``, ... in docs/search.md),
  e.g. ``search:iterations=400`` (deterministic for a seed) or ``search:seconds=0.5,horizon=2``.
- ``flat``, ``flat:KEY=VALUE,...``: flat Monte Carlo over determinized worlds, the yardstick search
  (``fcm_agents.search.flat``; keys ``candidates``, ``rollouts``, ``horizon``, ``scale``).
- ``strategist``, ``strategist:archetype=NAME[,seed=S,variation=F]``: the strategist family
  (``fcm_agents.strategist``): one of the archetypes (marketing, drinks, discount, luxury, expansion, cfo), or
  with no archetype the one its map reading picks; ``seed`` (else the tournament's) draws among near-best
  placements, ``variation`` is how near (docs/strategist.md).
- ``llm:base_url=URL,model=NAME[,KEY=VALUE,...]``: a language model behind an OpenAI-compatible
  chat-completions endpoint (``fcm_agents.llm``, needs the ``llm`` extra; keys in docs/llm.md).

Policies play their most likely legal action. Specs are plain strings so that
tournaments can send them to worker processes and write them into results and
game records. ``load_agent`` is the short name of ``make_agent``.
"""

from __future__ import annotations

from pathlib import Path

from .heuristic import HeuristicAgent
from .random_agent import RandomAgent
from .twins import with_twin

KINDS = ("random", "heuristic", "strategist", "policy", "onnx", "search", "flat", "llm")
SPECS = ("random, heuristic, strategist, strategist:archetype=NAME,..., policy (the shipped model), policy:PATH (.onnx or checkpoint), onnx:PATH, "
         "search, search:KEY=VALUE,..., flat, flat:KEY=VALUE,..., llm:base_url=URL,model=NAME,...")


def make_agent(spec: str, seed: int | None = None):
    """An agent for ``spec`` (see the module docstring); a seed makes random choices reproducible."""
    kind, colon, arg = spec.partition(":")
    kind, arg = kind.strip().lower(), arg.strip()
    if kind == "random":
        return RandomAgent(seed=seed, name=spec)
    if kind == "heuristic":
        return with_twin(HeuristicAgent(seed=seed, name=spec))
    if kind == "strategist":
        from .strategist import StrategistAgent, parse_strategist_params

        params = parse_strategist_params(arg)
        return with_twin(StrategistAgent(params.get("archetype"), seed=params.get("seed", seed), name=spec,
                                         **({"variation": params["variation"]} if "variation" in params else {})))
    if kind == "policy":
        if not arg:
            if colon:
                raise ValueError(f"{spec!r}: policy:PATH needs a path (an .onnx file or a checkpoint path); "
                                 "plain 'policy' is the shipped model")
            from .shipped_policy import ShippedPolicy

            return ShippedPolicy(name=spec, seed=seed)
        if Path(arg).suffix.lower() == ".onnx":
            from .onnx_agent import OnnxAgent

            return OnnxAgent(arg, name=spec, seed=seed)
        from .policy import PolicyAgent

        return PolicyAgent(arg, name=spec)
    if kind == "search":
        from .search import parse_params, search_agent

        return search_agent(parse_params(arg), seed=seed, name=spec)
    if kind == "flat":
        from .search.flat import FlatSearchAgent, parse_flat_params

        return FlatSearchAgent(parse_flat_params(arg), seed=seed, name=spec)
    if kind == "llm":
        from .llm import LLMAgent, parse_llm_params

        return LLMAgent(parse_llm_params(arg), seed=seed, name=spec)
    if kind == "onnx":
        if not arg:
            raise ValueError("an ONNX agent needs a model path: onnx:PATH (or plain 'policy' for the shipped model)")
        from .onnx_agent import OnnxAgent

        return OnnxAgent(arg, name=spec, seed=seed)
    raise ValueError(f"unknown agent {spec!r}: use one of {SPECS}")


def split_specs(text: str) -> list[str]:
    """A comma-separated lineup -> its specs, keeping a spec's own ``key=value`` parameters together:
    ``"search:seconds=0.5,horizon=2,heuristic"`` -> ``["search:seconds=0.5,horizon=2", "heuristic"]``
    (a piece with ``=`` and no ``:`` before it continues the spec before it)."""
    specs: list[str] = []
    for piece in (part.strip() for part in text.split(",")):
        if not piece:
            continue
        key, eq, _ = piece.partition("=")
        if eq and ":" not in key and specs and ":" in specs[-1]:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def load_agent(spec: str = "policy", seed: int | None = None):
    """``make_agent`` under a short name; ``load_agent()`` is the shipped policy.

    >>> from fcm_agents import load_agent
    >>> agent = load_agent("policy")  # agent.act(observation, action_mask) -> action id
    """
    return make_agent(spec, seed=seed)
