"""``python -m fcm_env ...`` is the ``fcm`` command (see ``fcm_env.cli``)."""

import sys

from fcm_env.cli import main

sys.exit(main())
