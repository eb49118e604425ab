"""``python -m bot.sandbox``: same as ``truco sandbox``."""

import sys

from bot.sandbox.runner import main

sys.exit(main())
