"""Lazy, silent import of the HiGHS Python bindings: highspy is an optional dependency
(the ``lp`` extra of svmcore), so the LP/QP modules import it through ``_import_highspy``
inside the functions that need it, never at module import; the first import also builds
one throw-away ``Highs`` with C-level stdout sent to /dev/null, swallowing the banner HiGHS
prints for a process's first instance (a library prints nothing unless asked)."""

import ctypes
import functools
import os
import sys

__all__: list[str] = []


@functools.cache
def _import_highspy():
    try:
        import highspy
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise ImportError(
            "svmcore's LP/QP solvers need the HiGHS Python bindings (highspy); "
            "install them with `pip install svmcore[lp]` (or `pip install highspy`)."
        ) from exc
    _consume_banner(highspy)
    return highspy


def _consume_banner(highspy):
    """Create the process's first ``Highs`` with the C-level stdout sent to /dev/null.

    HiGHS (1.8 and later) prints its banner ("Running HiGHS ... Copyright ...") on stdout
    when the first instance of a process is constructed, before any option such as
    ``output_flag`` can be set; later instances are silent. A library prints nothing
    unless asked, so the banner is swallowed once here. The redirection lasts for one
    constructor call; where file descriptor 1 cannot be duplicated the banner is left be.
    """
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # pragma: no cover - no usable stdout descriptor
        highspy.Highs()
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            highspy.Highs()
            _flush_c_stdout()
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def _flush_c_stdout():
    """Flush C's stdout buffer, so a buffered banner reaches /dev/null, not the real fd."""
    try:
        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError):  # pragma: no cover - no C runtime to flush (Windows)
        pass
