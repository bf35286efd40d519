"""Text for people: the text map (``map``, one or three characters per square), a whole game state as
text (``state``), the names of cards, goods, milestones, phases and moves (``words``), what each
employee card does (``cards``) and the engine's events in sentences (``sentences``).

Above the engine, below the env and the front ends (terminal, web, CLI), which all print
through here, so one game fact is written one way everywhere.
"""
