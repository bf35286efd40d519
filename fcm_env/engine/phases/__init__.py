"""The phases of a round, one module each, in rulebook order.

    setup            setting up: first restaurants, reserve cards (``setup``)
    phase 1, 2       Restructuring, Order of Business (``restructuring``)
    phase 3          Working 9-5 (``working``: the turn, and one module per sub-step)
    phase 4          Dinnertime (``dinnertime``)
    phase 5          Payday (``payday``)
    phase 6          Marketing campaigns (``marketing``)
    phase 7          Clean-up (``cleanup``)

``flow`` runs the engine's own steps between decisions (which phase follows which);
``api`` states the ``ROUTES`` table every phase module with decisions publishes.
"""
