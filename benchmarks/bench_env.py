"""Env throughput with random legal actions, and fcm against chess and connect four in the same run.

    python benchmarks/bench_env.py [--players 2,4] [--seconds 3] [--rounds 3] [--num-envs 16] [--max-rounds 30]
    python benchmarks/bench_env.py --compare-only                  # just the interleaved comparison

**Comparison** (first): every round measures, one after the other, fcm's PettingZoo env for each
player count, PettingZoo chess (``classic/chess-v6``), PettingZoo connect four and OpenSpiel chess,
each for ``--seconds``; the same loop for all PettingZoo envs: ``env.last()`` (observation and
mask of the agent to move) then ``env.step(env.action_space(agent).sample(mask))``, every step
counted. OpenSpiel chess pays the same: ``observation_tensor`` and ``legal_actions_mask`` of the
player to move, then a random legal action. Interleaving puts every env under the same machine
load; the ratios printed are the medians over the rounds. Chess needs ``pip install chess
pygame``, OpenSpiel ``pip install open_spiel`` (the ``bench`` extra); missing ones are skipped.

Every figure is env steps per second of wall time (``time.perf_counter``), whole games
played back to back until the time budget is spent (the game in progress is finished):

* ``aec``: one ``step`` per decision of any player, with ``last()`` (observation + mask of the
  agent to move: what a PettingZoo loop pays) before each step;
* ``single``: ``FcmSingleAgentEnv.step`` per learner decision (random-agent opponents play
  the other seats inside the step), with ``action_masks()`` before each step;
* ``vector``: ``FcmVectorEnv.step`` over ``--num-envs`` games, counted as sub-env steps
  (``num_envs`` per call), with ``action_masks()`` before each call.

Also printed: decisions per second of the AEC loop without observing (``last(observe=False)``,
masks from the engine's legal ids), the engine plus bookkeeping alone.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from fcm_env.encoding import legal_action_ids
from fcm_env.env.aec import raw_env
from fcm_env.env.single_agent import FcmSingleAgentEnv
from fcm_env.env.vector import FcmVectorEnv


def pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    ids = np.flatnonzero(mask)
    return int(ids[rng.integers(ids.size)])


def bench_aec(players: int, seconds: float, max_rounds: int, observe: bool) -> tuple[float, int]:
    env = raw_env(num_players=players, max_rounds=max_rounds)
    rng = np.random.default_rng(0)
    steps, games, seed = 0, 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last(observe=observe)
            if term or trunc:
                env.step(None)
                continue
            if observe:
                action = pick(obs["action_mask"], rng)
            else:
                ids = legal_action_ids(env.game)
                action = int(ids[rng.integers(ids.size)])
            env.step(action)
            steps += 1
        games += 1
    return steps / (time.perf_counter() - start), games


def bench_single(players: int, seconds: float, max_rounds: int) -> tuple[float, int]:
    env = FcmSingleAgentEnv(num_players=players, max_rounds=max_rounds, learner_seat="random")
    rng = np.random.default_rng(0)
    steps, games = 0, 0
    env.reset(seed=0)
    start = time.perf_counter()
    while True:
        _, _, terminated, truncated, _ = env.step(pick(env.action_masks(), rng))
        steps += 1
        if terminated or truncated:
            games += 1
            if time.perf_counter() - start >= seconds:
                break
            env.reset()
    return steps / (time.perf_counter() - start), games


def bench_vector(players: int, seconds: float, max_rounds: int, num_envs: int) -> tuple[float, int]:
    venv = FcmVectorEnv(num_envs, num_players=players, max_rounds=max_rounds, learner_seat="random",
                        copy=False)
    rng = np.random.default_rng(0)
    venv.reset(seed=0)
    calls, games = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        masks = venv.action_masks()
        actions = np.array([pick(m, rng) for m in masks])
        _, _, terminations, truncations, _ = venv.step(actions)
        games += int(terminations.sum() + truncations.sum())
        calls += 1
    return calls * num_envs / (time.perf_counter() - start), games


def bench_engine(players: int, seconds: float, max_rounds: int) -> tuple[float, float, float, float]:
    """Raw engine decisions/s (no encoding), mean decisions per game, and the encode cost per
    decision: ``observe_flat`` and ``legal_action_mask`` of the player to move, in microseconds."""
    from fcm_env.encoding import Observer, legal_action_mask
    from fcm_env.engine.game import Game

    rng = np.random.default_rng(0)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game.new(players, seed=games, max_rounds=max_rounds)
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[int(rng.integers(len(legal)))])
            steps += 1
        games += 1
    engine_rate = steps / (time.perf_counter() - start)
    observer, out = Observer(), np.zeros(Observer().flat_size, dtype=np.float32)
    game = Game.new(players, seed=10_000, max_rounds=max_rounds)
    obs_t = mask_t = 0.0
    count = 0
    while not game.is_over and count < 2000:
        player = game.current_player
        t0 = time.perf_counter()
        observer.observe_flat(game, player, out=out)
        t1 = time.perf_counter()
        legal_action_mask(game, player)
        t2 = time.perf_counter()
        obs_t, mask_t, count = obs_t + t1 - t0, mask_t + t2 - t1, count + 1
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
    return engine_rate, steps / max(games, 1), 1e6 * obs_t / count, 1e6 * mask_t / count


def bench_chess(seconds: float) -> float | None:
    """PettingZoo's chess env with random legal moves (the reference the targets are given against)."""
    try:
        import pettingzoo

        env = pettingzoo.make("aec", "classic/chess-v6")
    except Exception:  # chess needs the python-chess and pygame packages  # noqa: BLE001
        return None
    rng = np.random.default_rng(0)
    steps, seed = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else pick(obs["action_mask"], rng))
            steps += 1
    return steps / (time.perf_counter() - start)


def pettingzoo_rate(make, seconds: float, seed: int = 0) -> float:
    """Agent steps/s of a PettingZoo AEC env: ``last()`` then a masked ``action_space.sample``."""
    env = make()
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        env.action_space(env.possible_agents[0]).seed(seed)
        for agent in env.possible_agents:
            env.action_space(agent).seed(seed)
        seed += 1
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else env.action_space(agent).sample(obs["action_mask"]))
            steps += 1
    return steps / (time.perf_counter() - start)


def openspiel_chess_rate(seconds: float) -> float | None:
    """OpenSpiel chess: observation tensor + legal-action mask of the player to move, a random legal move."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("chess")
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            np.asarray(state.observation_tensor(player), dtype=np.float32)
            mask = np.asarray(state.legal_actions_mask(player), dtype=np.int8)
            state.apply_action(pick(mask, rng))
            steps += 1
    return steps / (time.perf_counter() - start)


def _maker(env_id: str, **kwargs):
    import pettingzoo

    try:
        pettingzoo.make("aec", env_id, **kwargs)
    except Exception:  # chess needs python-chess and pygame  # noqa: BLE001
        return None
    return lambda: pettingzoo.make("aec", env_id, **kwargs)


def compare(player_counts: list[int], seconds: float, rounds: int, max_rounds: int) -> None:
    """The interleaved comparison (see the module docstring): rates per round, then the median ratios."""
    import fcm_env
    from fcm_env.engines import resolve_engine

    contenders = {f"fcm {p}p": (lambda p=p: fcm_env.env(num_players=p, max_rounds=max_rounds))
                  for p in player_counts}
    references = {"PettingZoo chess": _maker("classic/chess-v6"),
                  "PettingZoo connect four": _maker("classic/connect_four-v3")}
    print(f"fcm engine: {resolve_engine('auto')}")
    for make in [*contenders.values(), *(m for m in references.values() if m)]:
        pettingzoo_rate(make, 0.3)  # warm-up: imports, first calls
    rates: dict[str, list[float]] = {}
    for r in range(rounds):
        row = {name: pettingzoo_rate(make, seconds) for name, make in contenders.items()}
        row.update({name: pettingzoo_rate(make, seconds) for name, make in references.items() if make})
        spiel = openspiel_chess_rate(seconds)
        if spiel is not None:
            row["OpenSpiel chess"] = spiel
        for name, rate in row.items():
            rates.setdefault(name, []).append(rate)
        print(f"round {r + 1}: " + ", ".join(f"{name} {rate:,.0f}" for name, rate in row.items()), flush=True)
    medians = {name: float(np.median(v)) for name, v in rates.items()}
    print(f"median agent steps/s over {rounds} interleaved rounds of {seconds:g} s each:")
    for name in contenders:
        ratios = "".join(
            f", {float(np.median(np.array(rates[name]) / np.array(rates[ref]))):.2f}x {ref}"
            for ref in ("PettingZoo chess", "PettingZoo connect four", "OpenSpiel chess") if ref in rates
        )
        print(f"  {name:<8} {medians[name]:9,.0f}{ratios}")
    for ref in ("PettingZoo chess", "PettingZoo connect four", "OpenSpiel chess"):
        if ref in medians:
            print(f"  {ref:<24} {medians[ref]:9,.0f}")
        else:
            print(f"  {ref}: skipped (not installed; pip install -e \".[bench]\")")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="2,4", help="comma-separated player counts")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3, help="interleaved comparison rounds")
    parser.add_argument("--compare-only", action="store_true", help="only the interleaved comparison")
    parser.add_argument("--num-envs", type=int, default=16)
    parser.add_argument("--max-rounds", type=int, default=30)
    args = parser.parse_args()
    s, r = args.seconds, args.max_rounds
    counts = [int(x) for x in args.players.split(",")]
    compare(counts, s, args.rounds, r)
    if args.compare_only:
        return
    chess = bench_chess(s)
    for p in counts:
        print(f"{p} players, max_rounds {r}, about {s:g} s per figure, random legal actions")
        rate, games = bench_aec(p, s, r, observe=True)
        ratio = f"   ({rate / chess:.1f}x PettingZoo chess)" if chess else ""
        print(f"  aec     (last() + step)           {rate:9.0f} steps/s   ({games} games){ratio}")
        rate, games = bench_aec(p, s, r, observe=False)
        print(f"  aec     (no observation)          {rate:9.0f} steps/s   ({games} games)")
        engine, per_game, obs_us, mask_us = bench_engine(p, s, r)
        print(f"  engine  (Game.apply only)         {engine:9.0f} steps/s   ({per_game:.0f} decisions per game)")
        print(f"  encode  per decision              observation {obs_us:6.1f} us, mask {mask_us:5.1f} us")
        rate, games = bench_single(p, s, r)
        print(f"  single  (learner steps)           {rate:9.0f} steps/s   ({games} games)")
        rate, games = bench_vector(p, s, r, args.num_envs)
        print(f"  vector  ({args.num_envs} envs, sub-env steps)  {rate:9.0f} steps/s   ({games} games ended)")
    if chess:
        print(f"PettingZoo chess (classic/chess-v6), random legal moves: {chess:.0f} steps/s")
    else:
        print("PettingZoo chess reference skipped: pip install chess pygame")


if __name__ == "__main__":
    main()
