"""Checks the packages' tests make of their command-line tools (standard library only)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence

__all__ = ["RST_MARKUP", "rst_markup_in", "run_with_closed_stdout"]

#: reStructuredText constructs that must not reach a terminal through ``--help``.
RST_MARKUP = ("``", ":func:", ":class:", ":meth:", ":mod:", ":math:", ":ref:", ".. ")


def rst_markup_in(text: str) -> list[str]:
    """The reStructuredText constructs of :data:`RST_MARKUP` found in ``text``.

    Parameters
    ----------
    text : str
        Text meant for a terminal, e.g. a tool's ``--help``.

    Returns
    -------
    found : list of str
        The constructs present (empty for plain text).

    Examples
    --------
    >>> from svmcore.cli.testing import rst_markup_in
    >>> rst_markup_in("usage: tool [-h]"), rst_markup_in("see :func:`fit`")
    ([], [':func:'])
    """
    return [markup for markup in RST_MARKUP if markup in text]


def run_with_closed_stdout(
    args: Sequence[str], *, cwd: str | os.PathLike[str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python args...`` with stdout a pipe whose reader is already gone.

    The read end is closed before the process starts, so its first write to stdout
    fails with ``EPIPE`` at once, deterministically (what ``| head`` does to a tool
    whose output outlasts the reader, without the race).

    Parameters
    ----------
    args : sequence of str
        Arguments of the Python interpreter, e.g. ``["-m", "aesvm", "predict", ...]``.
    cwd : str or path-like, default=None
        Working directory.

    Returns
    -------
    result : subprocess.CompletedProcess
        With ``returncode`` and ``stderr`` (text); a tool that handles the closed pipe
        exits with status 1 and an empty stderr.
    """
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [sys.executable, *args],
            cwd=cwd,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    finally:
        os.close(write_end)
