"""Play one game between agents and summarise it: the unit every tournament is built of.

An agent that reads the engine (``act_on_game``) is asked directly; any other
agent gets the observation and the legal-action mask of its seat and answers
with a flat action id, which is decoded and applied. Either way the game's
actions are kept, so every game can be saved as a record and replayed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fcm_env.encoding import FLAT_SIZE
from fcm_env.engine.game import Game
from fcm_env.engine.persistence.records import GameRecord
from fcm_env.engines import new_game
from fcm_env.env.rewards import standings

from .base import agent_move


@dataclass
class MatchResult:
    """What a finished (or truncated) game came to, by player id, with its replayable record."""

    seed: int
    num_players: int
    variant: str
    agents: list[str]  # agent name per player id
    #: the rules' winner: one player, a cash tie goes to the earlier seat (C23); a tuple, the type of
    #: ``Game.winners``, so ``result.winners == game.winners`` (a list given, as from JSON, is converted)
    winners: tuple[int, ...]
    cash: list[int]
    ranks: list[int]  # 1 = best; by cash, ties to the earlier seat (C23)
    places: list[int]  # 1 = best; by cash, equal cash shares a place (no seat tie-break)
    rounds: int
    ended_by: str  # "bank" (the rules ended it) or "max_rounds"
    decisions: int
    record: GameRecord | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.winners = tuple(int(w) for w in self.winners)

    @property
    def top(self) -> list[int]:
        """Player ids sharing the best place: one id is a win, several a tie."""
        return [p for p, place in enumerate(self.places) if place == 1]

    def to_json(self) -> dict:
        """The JSON-shaped summary (``winners`` as a list, like every per-player field)."""
        out = {k: v for k, v in self.__dict__.items() if k != "record"}
        out["winners"] = list(self.winners)
        return out


def _contenders(game: Game) -> set[int]:
    """Players who can win (as the engine's winner rule, D45): in the turn order and not bankrupt,
    or the whole turn order when every one of them went bankrupt."""
    state = game.state
    alive = [p for p in state.turn_order if not state.players[p].bankrupt]
    return set(alive or state.turn_order)


def final_ranks(game: Game) -> list[int]:
    """Rank of each player id (1 = the winner): the envs' ``standings`` (fcm_env.env.rewards, the one home of the
    order: the winner rule C23/D45 first, then the chains still in the game by cash, the seat breaking ties)."""
    ranks = [0] * game.state.num_players
    for place, player in enumerate(standings(game.state)):
        ranks[player] = place + 1
    return ranks


def final_places(game: Game) -> list[int]:
    """Place of each player id with ties kept: 1 + the number of players strictly ahead.

    Ahead = a contender ahead of a non-contender, else more cash. Tournaments count
    results by place, so that equal cash (e.g. everyone at $0 in a truncated game)
    is a tie rather than a win for whichever seat the rules' tie-break favours.
    """
    state = game.state
    contenders = _contenders(game)
    keys = [(p not in contenders, -state.players[p].cash) for p in range(state.num_players)]
    return [1 + sum(other < key for other in keys) for key in keys]


def native_seats(agents: Sequence, game: Any) -> list[Any] | None:
    """Each seat's native player on a native game (``agent.native_player(game)``: the C++ twins of the heuristic
    and the strategists, a deterministic policy on the native pass), None for a seat without one; None when no
    seat has one or the game is not native. The match plays runs of these seats' moves in one core call."""
    if getattr(game, "native_core", None) is None:
        return None
    seats = []
    for agent in agents:
        hook = getattr(agent, "native_player", None)
        seats.append(hook(game) if callable(hook) else None)
    return seats if any(s is not None for s in seats) else None


def _play_native_run(game: Any, seats: list[Any], agents: Sequence, limit: int) -> int:
    """The native seats' moves until a Python seat is to move (or the end, or ``limit`` moves), logged in the
    game's history; an illegal answer is an error naming the agent (the moves before it stand)."""
    from .native import _agents

    error: list[str] = []

    def run(core: Any) -> list:
        moves, failed = _agents.play_seats(core, seats, limit)
        if failed is not None:
            error.append(failed)
        return moves

    played = game.play_in_core(run)
    if error:
        player = game.current_player
        who = getattr(agents[player], "name", type(agents[player]).__name__) if player is not None else "?"
        raise RuntimeError(f"agent {who!r} (player {player}): {error[0]}")
    return played


def play_game(
    agents: Sequence,
    *,
    seed: int,
    variant: str = "standard",
    max_rounds: int = 30,
    max_decisions: int = 200_000,
    engine: str = "python",
) -> MatchResult:
    """Play a whole game; ``agents[i]`` plays player id ``i``.

    ``engine`` (``"python"``, ``"native"``, ``"auto"``: native when built) plays the same game either way;
    the native core pays off for agents that read observations or only the legal actions (an agent that
    reads the engine's state is asked on a Python game at each of its decisions: ``agent_move``), and most for
    seats with a native player (``native_seats``: the heuristic's and strategists' twins, a deterministic policy
    on the native pass), whose runs of moves are played in the core with no Python call per decision."""
    num_players = len(agents)
    game = new_game(engine, num_players, seed, variant, max_rounds)
    game.history = []  # the record's actions
    for agent in agents:
        if hasattr(agent, "reset"):
            agent.reset()
    obs = np.zeros(FLAT_SIZE, dtype=np.float32)  # the observation-based agents' buffer, reused
    seats = native_seats(agents, game)
    decisions = 0
    while not game.is_over:
        player = game.current_player
        if player is None:
            raise RuntimeError(f"seed {seed}: the game stopped in {game.phase.name} with no decision pending")
        if seats is not None and seats[player] is not None:  # a run of native seats' moves in one core call
            decisions += _play_native_run(game, seats, agents, max_decisions + 1 - decisions)
        else:
            game.apply(agent_move(agents[player], game, player, obs))
            decisions += 1
        if decisions > max_decisions:
            raise RuntimeError(f"seed {seed}: no end after {max_decisions} decisions")
    state = game.state
    names = [getattr(a, "name", type(a).__name__) for a in agents]
    return MatchResult(
        seed=seed,
        num_players=num_players,
        variant=variant,
        agents=names,
        winners=game.winners,
        cash=[int(p.cash) for p in state.players],
        ranks=final_ranks(game),
        places=final_places(game),
        rounds=int(state.round),
        ended_by="max_rounds" if state.truncated else "bank",
        decisions=decisions,
        record=GameRecord.from_game(game, agents=names),
    )
