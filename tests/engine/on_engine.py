"""Scenario helpers that run a hand-built position on either engine (the ``engine`` fixture of
tests/conftest.py): the position is a Python ``GameState`` built with ``builders`` / ``late_builders``, loaded
on the engine under test through its state document, played through the face (``fcm_env.engines.GameLike``:
``advance``, ``apply``, ``legal_actions``) and read back with ``snapshot()``, the full position."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from fcm_env.data import EmployeeType
from fcm_env.engine.actions import Action, Decision
from fcm_env.engine.game import Game
from fcm_env.engine.state import GameState, Phase
from fcm_env.engines import GameLike, load_game


def document(state: GameState) -> dict[str, Any]:
    """The state document of a hand-built position, through JSON text (what a file would hold)."""
    return json.loads(json.dumps(Game(state).to_dict()))


def load(engine: str, state: GameState) -> GameLike:
    """The position on ``engine`` (the Python loader checks the document first on either)."""
    return load_game(engine, document(state))


def settle(engine: str, state: GameState) -> GameLike:
    """The position on ``engine`` after the engine's own steps up to the next decision (``advance``)."""
    return load(engine, state).advance()


def play(game: GameLike, actions: Iterable[Action]) -> GameLike:
    """``actions`` applied in order (each checked against the legal ones); returns ``game``."""
    for action in actions:
        assert action in game.legal_actions(), f"{action} not in {game.legal_actions()}"
        game.apply(action)
    return game


def full(game: GameLike) -> GameState:
    """The whole state of ``game`` at its position (``snapshot()``: the native game's is decoded)."""
    return game.snapshot().state


def award(state: GameState, player: int, milestone: Any, *, this_turn: bool = False) -> None:
    """``player`` holds ``milestone``, claimed in an earlier turn (gone for the others) or, with ``this_turn``,
    in this one (the loader wants every held milestone in ``milestones_gone`` or ``milestones_this_turn``)."""
    state.players[player].milestones.add(milestone)
    (state.milestones_this_turn if this_turn else state.milestones_gone).add(milestone)


def dined(engine: str, state: GameState) -> GameLike:
    """The game of ``dine`` (below), stopped at Payday's first FIRE decision (or over)."""
    state.phase = Phase.DINNERTIME
    state.pending = []
    trainee = int(EmployeeType.KITCHEN_TRAINEE)
    state.supply[trainee] -= 1
    state.players[state.turn_order[0]].beach[trainee] += 1
    return settle(engine, state)


def dine(engine: str, state: GameState) -> GameState:
    """The position after ``engine`` ran its Dinnertime (phase 4), read back whole while what Dinnertime left
    (stock, income, demand) is still there: the position is put in phase DINNERTIME with nothing pending (a
    phase still to run, D48), and the first seat gets a kitchen trainee on the beach (no salary, no part in
    Dinnertime: a card Payday must ask about), so the engine stops at Payday's first FIRE decision, before any
    card is fired or salary paid (the introductory game has no Payday: not for it). After the final bank break
    the game is over instead (C23, R38)."""
    game = dined(engine, state)
    after = full(game)
    if after.phase != Phase.GAME_OVER:
        assert after.phase == Phase.PAYDAY and not after.firing_revealed, (after.phase, game.pending)
        assert game.pending is not None and game.pending.decision == Decision.FIRE
    return after
