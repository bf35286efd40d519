"""End-of-game rewards and the final standing, shared by the AEC, single-agent and vector envs.

Rewards are paid once, when the game ends (by the rules or by ``max_rounds``), from
the final standing. Three schemes, each zero-sum over the players:

* ``"win"``: the winner (``Game.winners``: C23, D45) gets +1, every other player
  ``-1 / (n - 1)``.
* ``"rank"``: linear in the final rank, ``+1`` for the first and ``-1`` for the last
  (``1 - 2 k / (n - 1)`` for rank ``k = 0..n-1``).
* ``"cash_share"``: ``cash_i / total - 1 / n``; 0 for everyone when nobody has any cash.

Optional shaping pays, after every env step, the change of a per-player *potential* / 100:

* ``"cash"``: the player's cash. *Not* zero-sum (the bank pays sales and takes salaries).
* ``"cash_lead"``: the player's cash minus the mean cash of the other players. Zero-sum, and
  aligned with winning (most cash wins: C23): a sale pays its seller and costs each rival its
  share, a salary costs its payer. Over a whole game it adds up to the final lead / 100.
"""

from __future__ import annotations

import numpy as np

from fcm_env.engine.phases.flow import winners
from fcm_env.engine.state import GameState

REWARD_SCHEMES = ("win", "rank", "cash_share")
SHAPINGS = (None, "cash", "cash_lead")
#: dollars per unit of shaping reward
CASH_SHAPING_SCALE = 100.0


def check_reward_args(reward: str, shaping: str | None) -> None:
    """A clear ValueError for an unknown reward scheme or shaping."""
    if reward not in REWARD_SCHEMES:
        raise ValueError(f"reward must be one of {REWARD_SCHEMES}, got {reward!r}")
    if shaping not in SHAPINGS:
        raise ValueError(f"shaping must be one of {SHAPINGS}, got {shaping!r}")


def standings(state: GameState) -> list[int]:
    """Player ids from first to last.

    Consistent with the winner rule (C23, D45): once the game is over,
    ``standings(state)[0]`` is ``Game.winners[0]``. Chains still in the final turn
    order and not bankrupt come first, then bankrupt chains still in it (every chain
    went bankrupt in the same turn), then chains that left the turn order earlier.
    Inside each group: more cash first, a tie to the earlier seat in the final turn
    order, then to the lower player id.
    """
    seat = {p: s for s, p in enumerate(state.turn_order)}
    last_seat = len(state.turn_order)

    def key(p: int) -> tuple[int, int, int, int]:
        player = state.players[p]
        group = (1 if player.bankrupt else 0) if p in seat else 2
        return group, -int(player.cash), seat.get(p, last_seat), p

    order = sorted(range(state.num_players), key=key)
    champion = winners(state)  # the engine's winner rule has the last word on first place
    if champion and order[0] != champion[0]:
        order.remove(champion[0])
        order.insert(0, champion[0])
    return order


def final_rewards(state: GameState, scheme: str) -> np.ndarray:
    """``float64[n]``: the end-of-game reward of every player id under ``scheme``."""
    n = state.num_players
    out = np.zeros(n, dtype=np.float64)
    if scheme == "win":
        out[:] = -1.0 / (n - 1)
        out[standings(state)[0]] = 1.0
    elif scheme == "rank":
        for k, p in enumerate(standings(state)):
            out[p] = 1.0 - 2.0 * k / (n - 1)
    elif scheme == "cash_share":
        cash = np.array([p.cash for p in state.players], dtype=np.float64)
        total = cash.sum()
        if total > 0:
            out[:] = cash / total - 1.0 / n
    else:
        raise ValueError(f"reward must be one of {REWARD_SCHEMES}, got {scheme!r}")
    return out


def cash_vector(state: GameState, out: np.ndarray | None = None) -> np.ndarray:
    """``float64[n]``: every player's cash (for the ``"cash"`` shaping)."""
    if out is None:
        out = np.zeros(state.num_players, dtype=np.float64)
    for p, player in enumerate(state.players):
        out[p] = player.cash
    return out


def shaping_potential(state: GameState, shaping: str, out: np.ndarray | None = None) -> np.ndarray:
    """``float64[n]``: each player's shaping potential in dollars (its change / 100 is the shaping reward)."""
    out = cash_vector(state, out)
    if shaping == "cash_lead":
        n = state.num_players
        out[:] = out - (out.sum() - out) / (n - 1)
    elif shaping != "cash":
        raise ValueError(f"shaping must be one of {SHAPINGS[1:]}, got {shaping!r}")
    return out
