"""Argument parsing for the command-line tools: plain-text help, one-line option errors,
checked number types and the LIBSVM kernel options."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from ._run import EXIT_BAD_INPUT

__all__ = [
    "KERNEL_CODES",
    "ArgumentParser",
    "add_kernel_options",
    "fraction",
    "gamma_value",
    "kernel_params",
    "kernel_value",
    "nonnegative_float",
    "positive_float",
    "positive_int",
]


class ArgumentParser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` with the conventions of the monorepo's tools.

    - ``--help`` is plain text laid out as written (descriptions and epilogs are
      not re-wrapped; write them without markup);
    - an option error is one line on stderr, ``prog: error: <message> (see prog
      --help)``, and exit status 2, instead of argparse's usage block;
    - options are never matched by prefix (``allow_abbrev=False``), so an
      abbreviation cannot silently pick another option.

    Parameters
    ----------
    *args, **kwargs
        As for ``argparse.ArgumentParser``; ``formatter_class`` defaults to
        ``argparse.RawDescriptionHelpFormatter`` and ``allow_abbrev`` to False.

    Examples
    --------
    >>> from svmcore.cli import ArgumentParser, positive_float
    >>> parser = ArgumentParser(prog="tool", description="Train a model.")
    >>> _ = parser.add_argument("-c", type=positive_float, default=1.0, help="cost")
    >>> parser.parse_args(["-c", "0.5"]).c
    0.5
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        """Print ``prog: error: message`` as one line on stderr and exit with status 2.

        Parameters
        ----------
        message : str
            What is wrong with the arguments.
        """
        text = " ".join(str(message).split())
        try:
            print(f"{self.prog}: error: {text} (see {self.prog} --help)", file=sys.stderr)
        except (OSError, ValueError):
            pass
        raise SystemExit(EXIT_BAD_INPUT)


def _number(text, kind, what):
    try:
        value = kind(text)
    except (TypeError, ValueError):
        value = None
    if value is None or (kind is float and value != value):  # not a number, or nan
        noun = "an integer" if kind is int else "a number"
        raise argparse.ArgumentTypeError(f"must be {noun} {what}, got {text!r}")
    return value


def _number_type(
    name: str, kind: type, what: str, accept: Callable[[Any], bool]
) -> Callable[[str], Any]:
    """An argparse ``type`` parsing a ``kind`` for which ``accept(value)`` holds."""
    noun = "an integer" if kind is int else "a number"

    def parse(text):
        value = _number(text, kind, what)
        if not accept(value):
            raise argparse.ArgumentTypeError(f"must be {noun} {what}, got {text!r}")
        return value

    parse.__name__ = parse.__qualname__ = name
    parse.__module__ = __name__
    parse.__doc__ = f"""Parse {noun} {what} (an argparse ``type``).

    Parameters
    ----------
    text : str
        The option's value.

    Returns
    -------
    value : {kind.__name__}
        The number.

    Raises
    ------
    argparse.ArgumentTypeError
        If ``text`` is not {noun} {what}.
    """
    return parse


_INF = float("inf")
positive_float = _number_type("positive_float", float, "> 0", lambda v: 0.0 < v < _INF)
nonnegative_float = _number_type("nonnegative_float", float, ">= 0", lambda v: 0.0 <= v < _INF)
positive_int = _number_type("positive_int", int, ">= 1", lambda v: v >= 1)
fraction = _number_type("fraction", float, "in (0, 1)", lambda v: 0.0 < v < 1.0)


def gamma_value(text: str) -> str | float:
    """Parse a kernel ``gamma``: ``scale``, ``auto`` or a number > 0 (an argparse ``type``).

    Parameters
    ----------
    text : str
        The option's value.

    Returns
    -------
    value : str or float
        ``"scale"``, ``"auto"`` or the number.

    Raises
    ------
    argparse.ArgumentTypeError
        If ``text`` is none of these.
    """
    if text in ("scale", "auto"):
        return text
    try:
        return positive_float(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"must be 'scale', 'auto' or a number > 0, got {text!r}"
        ) from None


#: LIBSVM's ``-t`` codes of the kernels the estimators support (3, sigmoid, and 4,
#: precomputed, are not supported).
KERNEL_CODES = {"0": "linear", "1": "poly", "2": "rbf"}


def kernel_value(text: str) -> str:
    """Parse a kernel: LIBSVM's code (0, 1, 2) or its name (an argparse ``type``).

    Parameters
    ----------
    text : str
        ``0``/``linear``, ``1``/``poly`` or ``2``/``rbf``.

    Returns
    -------
    kernel : str
        ``"linear"``, ``"poly"`` or ``"rbf"``.

    Raises
    ------
    argparse.ArgumentTypeError
        For any other value (LIBSVM's 3, sigmoid, and 4, precomputed, included).
    """
    if text in KERNEL_CODES:
        return KERNEL_CODES[text]
    if text in KERNEL_CODES.values():
        return text
    raise argparse.ArgumentTypeError(
        f"must be 0 (linear), 1 (poly) or 2 (rbf), got {text!r}; "
        "LIBSVM's 3 (sigmoid) and 4 (precomputed) are not supported"
    )


def add_kernel_options(
    parser: argparse.ArgumentParser, *, kernel: str = "rbf", gamma: str | float = "scale"
) -> argparse._ArgumentGroup:
    """Add LIBSVM's kernel options ``-t``, ``-d``, ``-g``, ``-r`` to ``parser``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The parser to extend (dests ``kernel``, ``degree``, ``gamma``, ``coef0``).
    kernel : {"rbf", "linear", "poly"}, default="rbf"
        Default kernel (LIBSVM's is rbf).
    gamma : {"scale", "auto"} or float, default="scale"
        Default gamma (the estimators'; LIBSVM's 1/num_features is ``auto``).

    Returns
    -------
    group : argparse._ArgumentGroup
        The group holding the options.
    """
    code = {name: c for c, name in KERNEL_CODES.items()}[kernel]
    group = parser.add_argument_group("kernel (LIBSVM's options)")
    group.add_argument(
        "-t",
        dest="kernel",
        type=kernel_value,
        default=kernel,
        metavar="KERNEL",
        help=f"0 or linear: u'v; 1 or poly: (gamma u'v + coef0)^degree; "
        f"2 or rbf: exp(-gamma |u-v|^2) (default {code}, {kernel})",
    )
    group.add_argument(
        "-d", dest="degree", type=positive_int, default=3, help="degree of poly (default 3)"
    )
    group.add_argument(
        "-g",
        dest="gamma",
        type=gamma_value,
        default=gamma,
        metavar="GAMMA",
        help=f"gamma of poly and rbf: a number, scale (1 / (num_features * X.var())) or "
        f"auto (1 / num_features, LIBSVM's default) (default {gamma})",
    )
    group.add_argument(
        "-r", dest="coef0", type=float, default=0.0, help="coef0 of poly (default 0)"
    )
    return group


def kernel_params(args: argparse.Namespace) -> dict[str, Any]:
    """The estimator keywords of the options added by :func:`add_kernel_options`.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    params : dict
        ``kernel``, ``gamma``, ``degree`` and ``coef0``.
    """
    return {"kernel": args.kernel, "gamma": args.gamma, "degree": args.degree, "coef0": args.coef0}
