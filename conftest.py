"""Repository-wide pytest settings shared by every package's isolated test session.

Under CI (the ``CI`` environment variable set), hypothesis runs derandomized: the same
examples on every run, so a green or red CI result is reproducible. Local runs keep
hypothesis's random exploration to keep finding new cases.
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
