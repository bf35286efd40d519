"""``python -m fcm_apps ...`` is the ``fcm`` command (see ``fcm_apps.cli``)."""

import sys

from fcm_apps.cli import main

sys.exit(main())
