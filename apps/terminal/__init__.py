"""``fcm play``: one human seat against bots in the terminal, telling the story between decisions.

Why a package of its own: the terminal game is a small front end (like ``fcm_apps.server``), not
part of the command-line parser. Its modules, each with one job (tests call the pieces on seeded games):

* ``context``: the pending decision's context and a company in words (``context_text``,
  ``company_text``); names and moves in words are ``fcm_env.text.words``;
* ``story``: ``Narrator`` (the events as lines per phase, secret choices as one line; the sentences
  and running cash are ``fcm_env.text.sentences``, shared with ``fcm replay --events`` and the web
  log) and ``end_lines`` (how the game ended, final cash, the winner);
* ``board``: ``board_text`` / ``preview_text``, the text map (``fcm_env.text.map``) at three
  characters per square and the footprint of a placement before it is confirmed;
* ``prompt``: the human's decision: ``parse_coordinate`` (``9 8 r2`` / ``9 8 sw`` as a placement),
  commands (``card NAME`` and ``info``: the cards of ``fcm_env.text.cards``), the choice list (a hire,
  training or put-to-work choice with what its card does), confirmation;
* ``game``: ``TerminalGame`` and ``play``: the loop, the record saved on any exit (Ctrl-C too) and
  ``--resume``.

docs/terminal.md describes the commands.
"""

from fcm_apps.terminal.game import PlayOptions, TerminalGame, default_record_path, play

__all__ = ["PlayOptions", "TerminalGame", "default_record_path", "play"]
