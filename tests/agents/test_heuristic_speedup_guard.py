"""The heuristic's speed-ups change no choice: seeded all-heuristic games replay move for move.

``heuristic_games.json`` holds every action of several seeded all-heuristic games (2 to 5 players,
both variants, 12 rounds), recorded before the heuristic and the engine's read-only helpers were
made faster (benchmarks/bench_rollout.py). Replaying them with the current code must ask the same
decisions and get the same answers, so any cache that goes stale or any shortcut that breaks a tie
differently shows up here as the first move that differs.

All-heuristic play never reaches some of the heuristic's rules (new houses and gardens, drive-ins,
moving restaurants, firing), so the file also holds *mixed* games: one agent shared by every seat
is asked at every decision and its answer recorded, but a seeded coin plays a random move instead
about half the time, and every player is handed a new business developer, a local and a regional
manager at the start of round 2 (a position edited by hand, then ``Game.advance()``). These also
check that nothing the agent remembers between decisions survives a move it did not choose.

A change of the *rules* (not of the heuristic) also changes these games; after such a change,
and only then, record them again: ``python tests/agents/test_heuristic_speedup_guard.py --write``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from fcm_agents.heuristic import HeuristicAgent
from fcm_env.data import EmployeeType as E
from fcm_env.engine.actions import Action
from fcm_env.engine.game import Game
from fcm_env.engine.invariants.random_sim import pick
from fcm_env.engine.state import Phase

GOLDEN = Path(__file__).with_name("heuristic_games.json")

#: (players, seed, variant): every player count, both variants, a few 4-player maps (the search's case)
GAMES = (
    [(n, 100 + n, "standard") for n in (2, 3, 4, 5)]
    + [(n, 200 + n, "introductory") for n in (2, 3, 4, 5)]
    + [(4, seed, "standard") for seed in (7, 8)]
)
MAX_ROUNDS = 12

#: (players, seed, variant) of the mixed games, and their round cap
MIXED = [(n, 300 + n, "standard") for n in (2, 3, 4, 5)] + [(n, 400 + n, "introductory") for n in (3, 4)]
MIXED_ROUNDS = 10
GIFTS = (E.NEW_BUSINESS_DEVELOPER, E.LOCAL_MANAGER, E.REGIONAL_MANAGER, E.ERRAND_BOY)


def _key(players: int, seed: int, variant: str) -> str:
    return f"{players}p-seed{seed}-{variant}"


def _text(action: Action) -> str:
    """A compact, codec-independent spelling: kind number and arguments, dot-separated."""
    return ".".join(str(int(x)) for x in (action.kind, *action.args))


def play(players: int, seed: int, variant: str) -> list[str]:
    """Every action of one seeded all-heuristic game (one agent per seat), spelled by ``_text``."""
    game = Game.new(players, seed=seed, variant=variant, max_rounds=MAX_ROUNDS)
    agents = [HeuristicAgent(seed=seed * 10 + p) for p in range(players)]
    moves = []
    while not game.is_over:
        player = game.current_player
        action = agents[player].act_on_game(game, player)
        moves.append(_text(action))
        game.apply(action)
    return moves


def mixed(players: int, seed: int, variant: str, expected: list[str] | None = None) -> list[str]:
    """The heuristic's answer at every decision of one mixed game (module docstring), spelled by ``_text``.

    With ``expected``, each answer is checked against the record as it comes (the random moves
    depend on the answers, so a difference is reported where it first happens).
    """
    game = Game.new(players, seed=seed, variant=variant, max_rounds=MIXED_ROUNDS)
    rng = random.Random(seed)
    agent = HeuristicAgent(seed=seed)
    answers: list[str] = []
    gifted = False
    while not game.is_over:
        state = game.state
        if not gifted and state.round == 2 and state.phase == Phase.RESTRUCTURING:
            gifted = True
            for p in state.players:
                for t in GIFTS:
                    if state.supply[t] > 0:
                        state.supply[t] -= 1
                        p.hand[t] += 1
            game.advance()  # a position edited by hand: the engine's caches and stamps start again
        player = game.current_player
        answer = agent.act_on_game(game, player)
        if expected is not None:
            index = len(answers)
            assert index < len(expected), f"more decisions than the {len(expected)} recorded"
            assert _text(answer) == expected[index], (
                f"decision {index} (round {game.state.round}, {game.pending.decision.name}, "
                f"player {player}): "
                f"got {answer} ({_text(answer)}), recorded {expected[index]}"
            )
        answers.append(_text(answer))
        game.apply(answer if rng.random() < 0.5 else pick(rng, game.legal_actions()))
    return answers


@pytest.fixture(scope="module")
def record() -> dict:
    return json.loads(GOLDEN.read_text())


@pytest.fixture(scope="module")
def golden(record) -> dict[str, list[str]]:
    return record["games"]


@pytest.mark.parametrize(("players", "seed", "variant"), GAMES, ids=[_key(*g) for g in GAMES])
def test_all_heuristic_games_replay_move_for_move(golden, players, seed, variant):
    expected = golden[_key(players, seed, variant)]
    game = Game.new(players, seed=seed, variant=variant, max_rounds=MAX_ROUNDS)
    agents = [HeuristicAgent(seed=seed * 10 + p) for p in range(players)]
    for index, want in enumerate(expected):
        assert not game.is_over, f"the game ended after {index} of {len(expected)} moves"
        player = game.current_player
        action = agents[player].act_on_game(game, player)
        got = _text(action)
        assert got == want, (
            f"move {index} (round {game.state.round}, {game.pending.decision.name}, player {player}): "
            f"got {action} ({got}), recorded {want}"
        )
        game.apply(action)
    assert game.is_over, f"the game goes on after the {len(expected)} recorded moves"


@pytest.mark.parametrize(("players", "seed", "variant"), MIXED, ids=[_key(*g) for g in MIXED])
def test_mixed_games_get_the_same_answers(record, players, seed, variant):
    expected = record["mixed"][_key(players, seed, variant)]
    assert len(mixed(players, seed, variant, expected)) == len(expected)


def test_the_record_covers_every_kind_of_answer(record):
    """Long games, and between them every kind of action the heuristic ever answers with."""
    assert set(record["games"]) == {_key(*g) for g in GAMES}
    assert set(record["mixed"]) == {_key(*g) for g in MIXED}
    assert all(len(moves) > 100 for part in ("games", "mixed") for moves in record[part].values())
    kinds = {int(move.split(".")[0]) for part in ("games", "mixed") for moves in record[part].values()
             for move in moves}
    assert kinds == set(range(20)), sorted(kinds)


def write() -> None:
    games = {_key(*g): play(*g) for g in GAMES}
    mixed_games = {_key(*g): mixed(*g) for g in MIXED}
    doc = {"max_rounds": MAX_ROUNDS, "mixed_rounds": MIXED_ROUNDS,
           "format": "kind.args (ActionKind number, then the action's args)",
           "games": games, "mixed": mixed_games}
    GOLDEN.write_text(json.dumps(doc, separators=(",", ":")) + "\n")
    moves = sum(len(m) for part in (games, mixed_games) for m in part.values())
    print(f"wrote {GOLDEN}: {moves} answers in {len(games) + len(mixed_games)} games")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/agents/test_heuristic_speedup_guard.py --write")
    write()
