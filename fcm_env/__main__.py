import sys

from fcm_env.cli import main

sys.exit(main())
