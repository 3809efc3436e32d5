"""``python -m lpsvr train|predict ...``: the ``lpsvr-train``/``lpsvr-predict`` pair."""

import sys

from ._cli import main

if __name__ == "__main__":
    sys.exit(main())
