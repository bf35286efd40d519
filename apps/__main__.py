"""``python -m fcm_apps ...`` is the ``fcm`` command (see ``fcm_apps.cli``)."""

import sys

from fcm_apps.launch import main  # tiny: the Ctrl-C handler goes in before the command's imports

sys.exit(main())
