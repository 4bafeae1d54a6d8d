"""``python -m assistant`` runs the command line."""

import sys

from assistant.cli import main

sys.exit(main())
