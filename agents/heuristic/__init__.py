"""A rule-based player of a sensible economy, written from the rulebook's strategy advice.

The plan, in the rulebook's own terms: grow a structure that *produces* (kitchen
trainees, then cooks), *creates demand* for what it produces near its own
restaurants (billboards, then mailboxes), sells cheaply enough to win the houses
it reaches (pricing managers, waitresses), and hires and trains toward the
milestones it can take (First to train, First billboard, First burger marketed).
Salaries are only taken on when the cash can carry them; a player who cannot pay
fires its least useful salaried card first.

The agent reads the engine state (``act_on_game``) through its seat's view (``Game.seat_view``):
what another player keeps face down is erased there, so it plays the same whatever the hidden
facts are (tests/agents/test_heuristic_hidden.py). Every decision is answered
by scoring the legal actions with simple, explainable values; ties are broken by
the action order (stable), so play is deterministic for a given position.

Search agents play thousands of all-heuristic rollouts, so the answers are computed cheaply
without changing any of them (tests/agents/test_heuristic_speedup_guard.py replays recorded
games move for move): what depends only on the board and the houses' squares (road ranges,
a lone entrance's worth, the houses a campaign spot reaches) is remembered per house layout
(``layout._HouseLayout``), and answers that the legal actions alone decide (``from_legal.FROM_LEGAL``)
are given without building a seat view (benchmarks/bench_rollout.py).

The modules, one job each:

- ``agent``: ``HeuristicAgent``, the plans below put together, and the dispatch of a decision to its answer;
- ``plan``: the fixed tables (hiring plan, play priority, training goals, salaries);
- ``layout``: the map read per house layout (road ranges, entrance scores, the houses a campaign spot reaches);
- ``views``: what several plans read (ranges to the houses, a house's worth, the main food);
- ``placement``: restaurants, new houses and gardens; ``marketing``: the campaign chain;
- ``staffing``: the reserve card, Restructuring, turn order, recruiting, training, firing;
- ``production``: producing, hauling and the freezer;
- ``from_legal``: the answers that the legal actions alone decide;
- ``hidden``: ``HeuristicHiddenModel``, the heuristic as the model of others' hidden choices.
"""

from .agent import HeuristicAgent
from .hidden import HeuristicHiddenModel

__all__ = ["HeuristicAgent", "HeuristicHiddenModel"]
