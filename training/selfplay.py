"""``python -m fcm_training.selfplay CONFIG``: the SB3 trainer under the public name it has always had.

``fcm train`` loads this module for the SB3 backend (and reports ``fcm_training.selfplay is not
available`` when it cannot), and docs/training.md runs it with ``python -m``; the trainer itself is
``fcm_training.sb3.selfplay``. Nothing else lives here.
"""

from __future__ import annotations

import sys

from .sb3.selfplay import cli, main

__all__ = ["cli", "main"]

if __name__ == "__main__":  # pragma: no cover
    sys.exit(cli())
