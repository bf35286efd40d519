"""Shared helpers for the encoding tests: seeded random play and hand-built positions."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator

from fcm_env.data import EmployeeType
from fcm_env.engine.actions import ActionKind
from fcm_env.engine.game import Game
from fcm_env.engine.phases import restructuring as structure

#: FCM_ENCODING_GAMES=N plays N seeded games per player count (default: 2, each of at most DEFAULT_ROUNDS)
GAMES = int(os.environ.get("FCM_ENCODING_GAMES", "2"))
DEFAULT_ROUNDS = int(os.environ.get("FCM_ENCODING_ROUNDS", "12"))
MAX_STEPS = 3000


def random_decisions(num_players: int, seed: int, variant: str = "standard",
                     max_rounds: int = DEFAULT_ROUNDS) -> Iterator[tuple[Game, random.Random]]:
    """Yield the game at every decision of a seeded random game (the caller must not apply).

    After each yield the generator applies a random legal action itself.
    """
    rng = random.Random(10_000 * num_players + seed)
    game = Game.new(num_players, seed=seed, variant=variant, max_rounds=max_rounds)
    for _ in range(MAX_STEPS):
        if game.pending is None:
            return
        yield game, rng
        game.apply(rng.choice(game.legal_actions()))


def play_setup(game: Game) -> None:
    """Finish setup with the first legal placement / reserve card for everyone (deterministic)."""
    while game.phase.name.startswith("SETUP"):
        actions = game.legal_actions()
        placements = [a for a in actions if a.kind == ActionKind.PLACE_RESTAURANT]
        game.apply(placements[0] if placements else actions[0])


def take_from_supply(game: Game, player: int, pool: str, cards: dict[EmployeeType, int]) -> None:
    """Move cards from the supply into one of ``player``'s pools (``hand``, ``work``, ``beach``, ``busy``)."""
    state = game.state
    vec = getattr(state.players[player], pool)
    for etype, count in cards.items():
        state.supply[etype] -= count
        vec[etype] += count
    game._legal_cache = None


def restructuring_position(num_players: int = 2, seed: int = 0,
                           hands: dict[int, dict[EmployeeType, int]] | None = None) -> Game:
    """Round 2, phase 1 (hidden): each seat ``i`` holds ``hands[i]`` (by turn-order seat) in hand."""
    game = Game.new(num_players, seed=seed)
    play_setup(game)
    state = game.state
    for seat, cards in (hands or {}).items():
        take_from_supply(game, state.turn_order[seat], "hand", cards)
    state.round = 2
    structure.start_restructuring(state)
    game._legal_cache = None
    return game


def working_position(num_players: int = 3, seed: int = 0, work: dict[EmployeeType, int] | None = None) -> Game:
    """Round 2, phase 3: the first seat has ``work`` at work (plus the CEO) and is asked first."""
    from fcm_env.engine.phases import working

    game = Game.new(num_players, seed=seed)
    play_setup(game)
    state = game.state
    take_from_supply(game, state.turn_order[0], "work", work or {})
    state.round = 2
    working.start(state)
    game._legal_cache = None
    return game
