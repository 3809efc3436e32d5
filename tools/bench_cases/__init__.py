"""Side-by-side benchmark cases, one module per package (``<import name>.py``).

Each module registers cases with ``@REGISTRY.register("<name>")``; a case takes the size
(``"quick"`` or ``"full"``) and returns a list of :class:`_benchkit.Row`. A module
raises ``ImportError`` at import when its package (or the part it needs) is missing,
and ``tools/bench.py`` then skips it with a note.
"""

from _benchkit import Registry

REGISTRY = Registry()
