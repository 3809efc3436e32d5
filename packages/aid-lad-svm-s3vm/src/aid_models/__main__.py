"""``python -m aid_models train|predict ...``: the ``aid-train``/``aid-predict`` pair."""

import sys

from ._cli import main

if __name__ == "__main__":
    sys.exit(main())
