"""Engine speed on seeded random games: steps/s, decisions per game, legal actions, mask, observations.

    python benchmarks/bench_engine.py [--players 2,3,4,5] [--games 2] [--max-rounds 30] [--json]

The measuring code lives in ``fcm_apps.bench`` (``fcm bench`` runs the same); see its
docstring for what each figure means.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout without installing

from fcm_apps.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))
