"""fcm-magnate's front ends: the ``fcm`` command line, terminal play, the web table, the JSON-lines server.

The top of the house: it may import everything below it (``fcm_env``, ``fcm_agents``, ``fcm_training``)
and nothing imports it (``tests/test_layers.py``). Installed as ``fcm_apps`` from the repository's
``apps/`` folder.

* ``fcm_apps.cli``: the ``fcm`` command and its subcommands (``python -m fcm_apps`` runs it too);
* ``fcm_apps.terminal``: ``fcm play``, a human seat in the terminal;
* ``fcm_apps.web``: ``fcm web``, the browser table and replay (the ``web`` extra);
* ``fcm_apps.server`` and ``fcm_apps.server_requests``: ``fcm serve``, the JSON-lines protocol server
  over the views and actions of ``fcm_env.view``;
* ``fcm_apps.bench``: ``fcm bench``, the engine's and encoder's speed figures.
"""
