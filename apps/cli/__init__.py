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

from fcm_apps.cli.parser import build_parser, main

__all__ = ["build_parser", "main"]
