"""Hidden information: what one player may not see of another, redrawing it, and telling moves apart.

* ``visibility``: the rules of what is face down, and to whom (the encoder's observations and
  the engine's redraws read the same functions);
* ``determinize``: a world the observer cannot tell from the real one, every hidden fact redrawn
  (``Game.determinize``), with the model interface the redraws ask;
* ``observed_action``: the key under which an observer sees a move (``Game.observed_action``).
"""
