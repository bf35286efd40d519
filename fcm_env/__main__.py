"""``python -m fcm_env`` was the ``fcm`` command; the command line now lives above the environment, in
``fcm_apps`` (the environment imports no front end). Run ``fcm ...`` or ``python -m fcm_apps ...``."""

import sys

print("the fcm command line moved out of fcm_env: run `fcm ...` or `python -m fcm_apps ...` "
      "(the same commands and options)", file=sys.stderr)
sys.exit(2)
