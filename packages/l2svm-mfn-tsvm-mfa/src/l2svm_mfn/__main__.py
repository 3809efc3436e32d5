"""``python -m l2svm_mfn``: the SVMlin-compatible command line."""

import sys

from ._cli import main

sys.exit(main())
