"""``python -m aesvm train|predict ...``: the ``aesvm-train``/``aesvm-predict`` pair."""

import sys

from ._cli import main

if __name__ == "__main__":
    sys.exit(main())
