"""The ``fcm`` command line: look at maps, run bot games, play a seat, replay records, serve front ends.

Subcommands (each has ``--help``):

* ``map``       a random map (or a given layout) as text;
* ``simulate``  a batch of bot games with a progress bar and a results table;
* ``evaluate``  a rating tournament (the same runner, defaults aimed at ratings, results saved);
* ``leaderboard`` the project's table of agents at every table size (``fcm_training.common.leaderboard``);
* ``play``      a human seat in the terminal against bots;
* ``replay``    a game record at any step: text, PNG picture, action list;
* ``bench``     engine and encoding speed figures (``fcm_apps.bench``);
* ``serve``     the JSON-lines front-end server (``fcm_apps.server``);
* ``web``       the browser table: play against bots, replay records (``fcm_apps.web``);
* ``train``     self-play training from a config (``fcm_training.selfplay``).

``agents`` and ``training`` are imported inside the subcommands, so ``fcm map`` stays light.

Modules, one per command group: ``parser`` (the parser and ``main``), ``options`` (shared option types and
groups), ``batches`` (simulate, evaluate, leaderboard), ``play`` (play, serve, web), ``replay``,
``tools`` (map, bench), ``train``.
"""

from __future__ import annotations

from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Run one ``fcm`` command in this process (``fcm_apps.cli.parser.run``). The ``fcm`` console script and
    ``python -m fcm_apps`` start at ``fcm_apps.launch.main``, which sets the early Ctrl-C handler first."""
    from fcm_apps.cli.parser import run

    return run(argv)


def build_parser():
    from fcm_apps.cli.parser import build_parser as build

    return build()


__all__ = ["build_parser", "main"]
