"""``python -m aid_models fit|predict`` (see :mod:`aid_models._cli`)."""

import sys

from ._cli import main

if __name__ == "__main__":
    sys.exit(main())
