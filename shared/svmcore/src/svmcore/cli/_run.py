"""Running a command-line entry point: one-line errors, exit statuses, a closed stdout."""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable, Sequence

__all__ = ["EXIT_BAD_INPUT", "EXIT_FAILURE", "EXIT_INTERRUPTED", "CLIError", "run"]

#: Exit status of bad input: a missing or malformed file, a bad option value.
EXIT_BAD_INPUT = 2
#: Exit status of a failure that is not the input's fault (a solver error, a bug) and of
#: a closed stdout (Python's own status on EPIPE).
EXIT_FAILURE = 1
#: Exit status after Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130

#: Environment variable that makes :func:`run` print the traceback of an unexpected error.
TRACEBACK_ENV = "SVMCORE_CLI_TRACEBACK"


class CLIError(ValueError):
    """Bad input to a command-line tool; its message is the one line the user sees.

    Subclasses ``ValueError`` so that code shared with the Python API may raise it
    where a ``ValueError`` is expected.
    """


def _one_line(exc):
    """The exception's message on one line (whitespace runs collapsed)."""
    text = " ".join(str(exc).split())
    if isinstance(exc, (FileNotFoundError, PermissionError, IsADirectoryError)):
        if exc.filename is not None and exc.strerror:
            text = f"{exc.filename}: {exc.strerror}"
    return text or type(exc).__name__


def _say(prog, text):
    """Print ``prog: text`` to stderr, ignoring a closed stderr."""
    try:
        print(f"{prog}: {text}", file=sys.stderr)
        sys.stderr.flush()
    except (OSError, ValueError):  # stderr closed too: nothing left to tell
        pass


def _silence_stdout():
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no file descriptor (captured stdout)
        pass


def run(
    command: Callable[[Sequence[str] | None], int | None],
    argv: Sequence[str] | None = None,
    *,
    prog: str,
) -> int:
    """Run ``command(argv)`` as a command-line tool and return its exit status.

    The one place where the tools of every package turn exceptions into messages:

    - bad input (:class:`CLIError`, ``ValueError``, ``FileNotFoundError`` and other
      ``OSError``) prints ``prog: error: <one line>`` on stderr and returns 2;
    - a reader that went away (``BrokenPipeError`` on stdout, as with ``| head``)
      returns 1 silently, the way the Python documentation recommends (stdout is
      redirected to ``os.devnull`` so the interpreter's final flush stays quiet);
    - ``SystemExit`` (argparse's, after ``--help`` or an option error) returns its
      status instead of ending the interpreter, so ``main(argv)`` can be called;
    - Ctrl-C prints ``prog: interrupted`` and returns 130;
    - any other exception prints ``prog: internal error: <type>: <one line>`` and
      returns 1; the traceback follows when the environment variable
      ``SVMCORE_CLI_TRACEBACK`` is set to a non-empty value.

    Parameters
    ----------
    command : callable
        ``command(argv) -> int or None``, the tool itself (None means 0). It parses
        ``argv`` (None: ``sys.argv[1:]``) with :class:`svmcore.cli.ArgumentParser`,
        whose option errors are one line and exit with status 2 themselves.
    argv : list of str, default=None
        Arguments without the program name.
    prog : str
        Program name shown in messages.

    Returns
    -------
    status : int
        0 on success, 1 on failure, 2 on bad input, 130 after Ctrl-C.

    Examples
    --------
    >>> from svmcore.cli import CLIError, run
    >>> def tool(argv):
    ...     raise CLIError("data.svm: no such file")
    >>> run(tool, [], prog="tool")  # stderr: "tool: error: data.svm: no such file"
    2
    """
    try:
        status = command(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_FAILURE
    except SystemExit as exc:  # argparse after --help (0) or an option error (2)
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        _say(prog, f"error: {exc.code}")
        return EXIT_FAILURE
    except KeyboardInterrupt:
        _say(prog, "interrupted")
        return EXIT_INTERRUPTED
    except (ValueError, OSError) as exc:  # CLIError is a ValueError
        _say(prog, f"error: {_one_line(exc)}")
        return EXIT_BAD_INPUT
    except Exception as exc:  # the one place that reports everything else
        _say(prog, f"internal error: {type(exc).__name__}: {_one_line(exc)}")
        if os.environ.get(TRACEBACK_ENV):
            traceback.print_exc()
        return EXIT_FAILURE
    return 0 if status is None else int(status)
