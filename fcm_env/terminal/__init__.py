"""``fcm play``: one human seat against bots in the terminal, telling the story between decisions.

Why a package of its own: the terminal game is a small front end (like ``fcm_env.server``), not
part of the command-line parser. Its modules, each with one job (tests call the pieces on seeded games):

* ``words``: names and action labels in words (``action_text``, ``context_text``, ``cards_text``,
  ``company_text``);
* ``story``: ``Narrator`` (the engine's events as lines per phase, secret choices as one line,
  running cash) and ``end_lines`` (how the game ended, final cash, the winner);
* ``board``: ``board_text`` / ``preview_text``, a three-characters-per-square map and the footprint
  of a placement before it is confirmed;
* ``prompt``: the human's decision: ``parse_coordinate`` (``9 8 r2`` / ``9 8 sw`` as a placement),
  commands, the choice list, confirmation;
* ``game``: ``TerminalGame`` and ``play``: the loop, the record saved on any exit (Ctrl-C too) and
  ``--resume``.

docs/terminal.md describes the commands.
"""

from fcm_env.terminal.game import PlayOptions, TerminalGame, default_record_path, play

__all__ = ["PlayOptions", "TerminalGame", "default_record_path", "play"]
