"""Text for people: the text map (``map``), a whole game state as text (``state``).

Above the engine, below the env and the front ends (terminal, web, CLI), which all print
through here, so one game fact is written one way everywhere.
"""
