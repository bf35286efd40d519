"""Positions labelled by the search: what it chose among the legal moves (its root visits) and who won.

A game seats the search (``search``, a ``search:...`` spec with a budget in iterations, so the
labels do not depend on the machine) in one seat, or in every seat (``self``), the others played
by an opponent drawn per game from ``opponents`` (heuristic, the shipped policy, or the search
itself). Every decision the search *searched* (a forced move has nothing to learn) is kept:

* the seat's flat observation, stored sparse (about 800 of 24,880 entries are non-zero):
  ``idx``/``val`` (float16) with row offsets ``off``;
* its legal action ids and the search's visits of each (``legal``/``visits``, offsets ``legal_off``):
  the network learns the visit shares, the search's improved policy (Expert Iteration);
* ``label`` 1.0 where that seat is the rules' winner, and ``meta`` per row: seed, seat, round,
  the seat's final cash lead, the game's last round, the number of players.

``generate`` writes one ``.npz`` file per chunk of games into a folder as each chunk ends: a run
stopped by Ctrl-C keeps its finished chunks, and the same command plays only the missing ones.
Chunks run in worker processes or as Ray tasks (``backend="ray"``), the files written by the driver.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np

from fcm_agents.base import agent_move
from fcm_agents.registry import make_agent
from fcm_agents.search import SearchAgent
from fcm_env.encoding import CODEC, FLAT_SIZE
from fcm_env.engines import new_game, resolve_engine

from ..common.interrupts import deferred_signals, stop_on_signals
from ..common.process_pool import map_in_processes

#: an opponent name that seats the search in every seat (every seat's searched decisions are kept)
SELF = "self"
KEYS = ("idx", "val", "off", "legal", "visits", "legal_off", "label", "meta")


def play_positions(seed: int, search: str, opponents: dict[str, float], num_players: int = 2,
                   max_rounds: int = 30, engine: str = "auto") -> dict[str, list]:
    """One game on ``seed``: the search's searched decisions with their visits, and the result. The game runs
    on ``engine`` (``auto``: the native core where it is built); the positions are the same on either, bit for
    bit (the engines play the same game, the observations are the same bytes, and the native search builds
    the Python search's tree)."""
    rng = np.random.default_rng(seed)
    names = list(opponents)
    opponent = names[int(rng.choice(len(names), p=np.array([opponents[n] for n in names]) / sum(opponents.values())))]
    seat = int(rng.integers(num_players))
    searchers = set(range(num_players)) if opponent == SELF else {seat}
    agents = [make_agent(search if p in searchers else opponent, seed=seed * 10 + p) for p in range(num_players)]
    buffer = np.zeros(FLAT_SIZE, dtype=np.float32)
    game = new_game(engine, num_players, seed, "standard", max_rounds)  # as fcm_agents.match.play_game
    rows: list[tuple] = []
    while not game.is_over:
        mover = game.current_player
        agent = agents[mover]
        if mover not in searchers:
            game.apply(agent_move(agent, game, mover, buffer))
            continue
        searched = agent.stats.searched
        legal = game.legal_actions()
        action = agent.act_on_game(game, mover)
        if agent.stats.searched > searched:
            game.observe_flat(mover, buffer)
            nonzero = np.flatnonzero(buffer)
            rows.append((mover, int(game.state.round), nonzero.astype(np.int32), buffer[nonzero].astype(np.float16),
                         np.asarray(CODEC.encode_many(legal), dtype=np.int32),
                         np.asarray(agent.root_visits(game, mover, legal), dtype=np.float32)))
        game.apply(action)
    winners = set(game.winners)
    cash = [int(p.cash) for p in game.state.players]
    out: dict[str, list] = {"idx": [], "val": [], "legal": [], "visits": [], "label": [], "meta": []}
    for p, rnd, idx, val, legal_ids, visits in rows:
        out["idx"].append(idx)
        out["val"].append(val)
        out["legal"].append(legal_ids)
        out["visits"].append(visits)
        out["label"].append(1.0 if p in winners else 0.0)
        lead = cash[p] - max(c for q, c in enumerate(cash) if q != p)
        out["meta"].append((seed, p, rnd, lead, game.state.round, num_players))
    return out


def _offsets(rows: list[np.ndarray]) -> np.ndarray:
    offsets = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum([len(r) for r in rows], out=offsets[1:])
    return offsets


def play_chunk(job: tuple) -> tuple[Path, dict[str, np.ndarray]]:
    """Play one chunk of games; its file's path and arrays (``KEYS``). No file is touched here: on a Ray
    cluster the chunk may be played on another machine, and the driver writes every file."""
    path, seeds, search, opponents, num_players, max_rounds, engine = job
    merged: dict[str, list] = {"idx": [], "val": [], "legal": [], "visits": [], "label": [], "meta": []}
    for seed in seeds:
        for key, rows in play_positions(seed, search, opponents, num_players, max_rounds, engine).items():
            merged[key].extend(rows)
    if not merged["idx"]:
        arrays = {"idx": np.zeros(0, np.int32), "val": np.zeros(0, np.float16), "legal": np.zeros(0, np.int32),
                  "visits": np.zeros(0, np.float32)}
    else:
        arrays = {key: np.concatenate(merged[key]) for key in ("idx", "val", "legal", "visits")}
    arrays.update(off=_offsets(merged["idx"]), legal_off=_offsets(merged["legal"]),
                  label=np.array(merged["label"], dtype=np.float32),
                  meta=np.array(merged["meta"], dtype=np.int64).reshape(-1, 6))
    return Path(path), arrays


def write_chunk(path: Path, arrays: dict[str, np.ndarray]) -> int:
    """Write one chunk's file, whole or not at all; the number of positions in it."""
    partial = path.with_suffix(".part.npz")
    with deferred_signals():  # a stop lands before or after a file is written, never inside
        np.savez_compressed(partial, **arrays)
        partial.replace(path)  # a chunk file is whole or absent
    return int(arrays["label"].size)


def _play_and_write(job: tuple) -> int:
    """A pool worker's job. Its arrays stay in the worker: a stop kills the workers at once, and one killed
    in the middle of sending megabytes of results would leave the pool's result reader stuck."""
    return write_chunk(*play_chunk(job))


def chunk_path(out: Path, first_seed: int) -> Path:
    return out / f"seeds-{first_seed}.npz"


BACKENDS = ("processes", "ray")


def generate(seed: int, games: int, out: Path, search: str, opponents: dict[str, float], num_players: int = 2,
             workers: int = 1, chunk: int = 4, max_rounds: int = 30, backend: str = "processes",
             address: str | None = None, nodes: Counter | None = None, engine: str = "auto") -> tuple[int, int]:
    """Play games ``seed .. seed + games - 1`` in chunks of ``chunk``, one file per chunk in the folder
    ``out``; chunks whose file exists are skipped. The chunks run in ``workers`` processes, or as Ray
    tasks (``backend="ray"``: a local cluster of ``workers`` CPUs, or the one at ``address``); a chunk's
    games are the same either way; on Ray, ``nodes`` (when given) counts the chunks each node played.
    The games run on ``engine`` (the same positions on either). Returns (chunks played, positions written by
    them)."""
    resolve_engine(engine)  # a bad engine is named before any game is played
    if backend not in BACKENDS:
        raise ValueError(f"distill: backend is one of {', '.join(BACKENDS)}, got {backend!r}")
    if not opponents or any(w < 0 for w in opponents.values()) or sum(opponents.values()) <= 0:
        raise ValueError(f"distill: opponents need positive weights, got {opponents}")
    searcher = make_agent(search)  # a bad spec is named before any game is played
    if not isinstance(searcher, SearchAgent):
        raise ValueError(  # noqa: TRY004 - a wrong spec string, reported as the other bad settings are
            f"distill: {search!r} is not a search agent spec (search:...): only a search has visits")
    for name in opponents:
        if name != SELF:
            make_agent(name)
    out.mkdir(parents=True, exist_ok=True)
    jobs = [(chunk_path(out, s), list(range(s, min(s + chunk, seed + games))), search, opponents, num_players,
             max_rounds, engine) for s in range(seed, seed + games, chunk)]
    jobs = [job for job in jobs if not job[0].exists()]
    positions = 0
    with stop_on_signals():  # Ctrl-C / SIGTERM: the workers stop at once and ``Interrupted`` is raised
        if backend == "ray":
            from ..common.ray_tasks import ray_map_unordered

            for _job, (path, arrays) in ray_map_unordered(play_chunk, jobs, address, workers, nodes):
                positions += write_chunk(path, arrays)
        elif workers > 1 and len(jobs) > 1:
            # a worker writes its own file: only a count crosses the pipe
            positions += sum(map_in_processes(_play_and_write, jobs, workers, name="fcm-chunk"))
        else:
            for job in jobs:
                positions += write_chunk(*play_chunk(job))
    return len(jobs), positions


def load(paths: list[Path]) -> dict[str, np.ndarray]:
    """The chunk files (or folders of them) as one set of arrays (``KEYS``), offsets rebased."""
    files: list[Path] = []
    for path in paths:
        if not path.exists():
            raise ValueError(f"{path}: no such positions file or folder")
        if path.is_dir():  # the chunk files in seed order; a chunk cut short by a stop (.part.npz) is not one
            found = [f for f in path.glob("seeds-*.npz") if not f.name.endswith(".part.npz")]
            files += sorted(found, key=lambda f: int(f.stem.split("-")[1]))
        else:
            files.append(path)
    if not files:
        raise ValueError(f"no positions files in {', '.join(map(str, paths))}")
    parts = []
    for f in files:
        with np.load(f) as data:
            missing = [k for k in KEYS if k not in data]
            if missing:
                raise ValueError(f"{f}: not a distill positions file (missing {', '.join(missing)})")
            parts.append({k: data[k] for k in KEYS})
    merged = {k: np.concatenate([p[k] for p in parts]) for k in ("idx", "val", "legal", "visits", "label", "meta")}
    for key, base in (("off", "idx"), ("legal_off", "legal")):
        pieces, shift = [np.zeros(1, dtype=np.int64)], 0
        for p in parts:
            pieces.append(p[key][1:] + shift)
            shift += len(p[base])
        merged[key] = np.concatenate(pieces)
    return merged
