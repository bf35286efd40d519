"""The state-document fuzzer: hostile edits of real documents, each in a forked child, on both engines.

    python tools/fuzz_documents.py [--cases 10000] [--seed 0] [--moves 30]

Real documents (2-5 players, both variants, the setup, Working 9-5, Payday and later rounds) are edited at
one path each: the key deleted, a wrong type, None, huge and negative integers, NaN and infinities, unicode,
a long list, deep nesting. Each case runs in a forked child, so that a crash of the interpreter (a signal)
is counted rather than ending the run. A case is *clean* when both loaders refuse the document with a
``StateFormatError`` (a ``ValueError``), or accept it; an accepted document is then played on for
``--moves`` random legal moves on both engines in lockstep, and must keep loading, saving and agreeing.

Outcomes: ``refused`` and ``accepted`` are clean; ``crash`` (the child died of a signal), ``unclear`` (a
loader raised something else than ``StateFormatError``), ``unnamed`` (refused only by the native core's last net, without naming the field), ``split`` (the engines
disagree on an accepted document or later), ``broke`` (an accepted document fails a later move, save or load) are findings; the
exit code is 1 if there is any. ``tests/test_fuzz_documents.py`` runs a small sample in CI.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from fcm_env.engine.persistence.dataclass_json import StateFormatError
from fcm_env.engines import load_game, native_available, new_game

FINDINGS = ("crash", "unclear", "unnamed", "split", "broke")
#: the replacement values of one edit, by name
EDITS: dict[str, Any] = {
    "none": None, "string": "x", "unicode": "\u00e9\u6f22\U0001f354", "bool": True, "float": 1.5, "nan": float("nan"),
    "inf": float("inf"), "-inf": float("-inf"), "zero": 0, "-1": -1, "2**15": 2**15, "2**31-1": 2**31 - 1,
    "2**31": 2**31, "2**63-1": 2**63 - 1, "2**64": 2**64, "-2**63": -(2**63), "2**200": 2**200,
    "empty list": [], "empty object": {}, "long list": [0] * 100_000, "deep": None,  # "deep" is built per case
}


def documents(seed: int) -> list[dict[str, Any]]:
    """Real documents: 2-5 players, both variants, at several points of random games."""
    rng = random.Random(seed)
    docs = []
    for players in (2, 3, 4, 5):
        for variant in ("standard", "introductory"):
            game = new_game("python", players, rng.randrange(2**31), variant, 12)
            for stop in (0, 6, 40, 120, 400):
                while not game.is_over and stop > 0:
                    ids = game.legal_ids()
                    game.apply_id(int(ids[rng.randrange(len(ids))]))
                    stop -= 1
                docs.append(json.loads(json.dumps(game.to_dict())))
    return docs


def paths(value: Any, prefix: tuple = ()) -> Iterator[tuple]:
    """Every path into a document (a few indices of a long list)."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        picks = range(len(value)) if len(value) <= 6 else sorted({0, 1, len(value) // 2, len(value) - 1})
        for i in picks:
            yield from paths(value[i], (*prefix, i))


def edited(document: dict[str, Any], path: tuple, edit: str) -> dict[str, Any] | None:
    """``document`` with ``edit`` at ``path`` (None when the edit cannot apply there)."""
    if not path:
        return None
    doc = copy.deepcopy(document)
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if edit == "delete":
        del parent[last]  # a key, or a list item
        return doc
    value: Any = EDITS[edit]
    if edit == "deep":
        value = 0
        for _ in range(5000):
            value = [value]
    parent[last] = value
    return doc


def cases(seed: int, count: int) -> tuple[list[tuple[int, tuple, str]], list[dict[str, Any]]]:
    """``count`` (document index, path, edit) cases drawn with ``seed`` from every document's paths, and the
    documents."""
    rng = random.Random(seed)
    docs = documents(seed)
    every = [(d, p) for d, doc in enumerate(docs) for p in paths(doc) if p]
    kinds = ["delete", *EDITS]
    return [(*rng.choice(every), rng.choice(kinds)) for _ in range(count)], docs


def _play_on(document: dict[str, Any], moves: int, seed: int) -> str:
    """Load on both engines, then play on in lockstep; the outcome."""
    games = {}
    for engine in ("python", "native"):
        try:
            games[engine] = load_game(engine, document)
        except StateFormatError as exc:
            if "native core cannot hold" in str(exc):  # the core's net caught what the checks let through
                return f"unnamed: {str(exc)[:160]}"
            games[engine] = None
        except Exception as exc:  # noqa: BLE001 - what the fuzzer looks for
            return f"unclear: the {engine} loader raised {type(exc).__name__}: {str(exc)[:120]}"
    if games["python"] is None and games["native"] is None:
        return "refused"
    if games["python"] is None or games["native"] is None:
        return "split: one loader accepted, the other refused"
    python, native = games["python"], games["native"]
    rng = random.Random(seed)
    try:
        for move in range(moves + 1):
            doc = python.to_dict()
            if native.to_dict() != doc:
                return f"split: the engines' documents differ after {move} moves"
            for engine in ("python", "native"):
                if load_game(engine, json.loads(json.dumps(doc))).to_dict() != doc:
                    return f"broke: the {engine} loader changed the position after {move} moves"
            if python.is_over or move == moves:
                break
            if python.pending is None:  # a loaded position moves only when told (docs/engine-api.md)
                python.advance()
                native.advance()
                continue
            ids = python.legal_ids()
            if list(ids) != list(native.legal_ids()):
                return f"split: the legal ids differ after {move} moves"
            choice = int(ids[rng.randrange(len(ids))])
            python.apply_id(choice)
            native.apply_id(choice)
    except Exception as exc:  # noqa: BLE001
        return f"broke: {type(exc).__name__}: {str(exc)[:160]}"
    return "accepted"


def run_case(document: dict[str, Any], moves: int, seed: int) -> str:
    """One case in a forked child: its outcome line, or ``crash`` if the child died of a signal."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read)
        try:
            outcome = _play_on(document, moves, seed)
        except BaseException as exc:  # noqa: BLE001 - the parent reports it
            outcome = f"unclear: {type(exc).__name__}: {str(exc)[:120]}"
        os.write(write, outcome.encode("utf-8", "replace")[:4000])
        os._exit(0)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 4096):
        chunks.append(chunk)
    os.close(read)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return f"crash: signal {os.WTERMSIG(status)}"
    return b"".join(chunks).decode("utf-8", "replace") or f"crash: exit {os.WEXITSTATUS(status)} without a word"


def fuzz(count: int, seed: int, moves: int, show: int = 20, outcomes: Counter | None = None) -> Counter:
    """Run ``count`` cases; prints the findings; returns the outcome counts (``outcomes``, filled as the cases
    finish, so that a stop keeps what was counted)."""
    if not native_available():
        raise SystemExit("the fuzzer compares both engines: build the native core first")
    chosen, docs = cases(seed, count)
    outcomes = Counter() if outcomes is None else outcomes
    shown = 0
    for i, (d, path, edit) in enumerate(chosen):
        doc = edited(docs[d], path, edit)
        if doc is None:
            continue
        outcome = run_case(doc, moves, seed + i)
        kind = outcome.split(":")[0]
        outcomes[kind] += 1
        if kind in FINDINGS and shown < show:
            shown += 1
            print(f"  {kind}: document {d}, {'.'.join(map(str, path))} <- {edit}: {outcome}", flush=True)
    return outcomes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--moves", type=int, default=30, help="moves played on after an accepted document")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    outcomes: Counter = Counter()
    stopped = False
    try:
        fuzz(args.cases, args.seed, args.moves, outcomes=outcomes)
    except KeyboardInterrupt:  # Ctrl-C: the cases counted so far are printed (a child dies with the group)
        stopped = True
    found = sum(outcomes[k] for k in FINDINGS)
    print(("stopped: " if stopped else "") + f"{sum(outcomes.values())} cases in {time.perf_counter() - start:.0f} s: "
          + ", ".join(f"{k} {outcomes[k]}" for k in ("refused", "accepted", *FINDINGS)))
    return 130 if stopped else 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
