"""One call that makes a package's ``<name>-train``/``<name>-predict`` entry points."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from ._tools import dispatch, predict_tool, train_tool

__all__ = ["ToolPair", "tool_pair"]


class Main(Protocol):
    """An entry point: ``main(argv=None) -> int``, the exit status."""

    def __call__(self, argv: Sequence[str] | None = None) -> int: ...


_DOC = """Run ``{usage}``.

    Parameters
    ----------
    argv : list of str, default=None
        Arguments without the program name (None: ``sys.argv[1:]``).

    Returns
    -------
    status : int
        The exit status (0 success, 2 bad input, 1 failure).
    """


class ToolPair(NamedTuple):
    """The entry points made by :func:`tool_pair`.

    Parameters
    ----------
    train_main : callable
        ``train_main(argv=None) -> int``, the ``<name>-train`` console script.
    predict_main : callable
        ``predict_main(argv=None) -> int``, the ``<name>-predict`` console script.
    main : callable
        ``main(argv=None) -> int``, ``python -m <module> train|predict ...``.
    """

    train_main: Main
    predict_main: Main
    main: Main


def _entry(function: Callable[..., int], name: str, usage: str, module: str) -> Main:
    def entry(argv: Sequence[str] | None = None) -> int:
        return function(argv)

    entry.__name__ = entry.__qualname__ = name
    entry.__module__ = module
    entry.__doc__ = _DOC.format(usage=usage)
    return entry


def tool_pair(
    name: str,
    *,
    module: str,
    train_description: str,
    predict_description: str,
    add_options: Callable[[argparse.ArgumentParser], object],
    build: Callable[[argparse.Namespace], Any],
    attributes: Mapping[Any, Sequence[str] | Callable[[Any], Sequence[str]]],
    summary: Callable[[Any], str] | None = None,
    aliases: Mapping[str, str] | None = None,
) -> ToolPair:
    """Make a package's LIBSVM-style ``<name>-train``/``<name>-predict`` entry points.

    Parameters
    ----------
    name : str
        Tool prefix: the commands are ``<name>-train`` and ``<name>-predict``.
    module : str
        The package's ``_cli`` module (``__module__`` of the functions), whose package
        runs ``python -m <package> train|predict``.
    train_description, predict_description : str
        Plain-text ``--help`` descriptions.
    add_options : callable
        ``add_options(parser)`` adds the training options (see :func:`train_tool`).
    build : callable
        ``build(args) -> estimator``.
    attributes : dict
        Estimator class -> fitted attributes to save (see :func:`save_model`); its
        keys are also the classes ``<name>-predict`` accepts.
    summary : callable, default=None
        ``summary(estimator) -> str``, printed after training.
    aliases : dict, default=None
        More command names for ``python -m``: alias -> ``"train"`` or ``"predict"``.

    Returns
    -------
    tools : ToolPair
        ``(train_main, predict_main, main)``; point the console scripts at the first
        two.

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from svmcore.cli import tool_pair
    >>> tools = tool_pair(
    ...     "lr",
    ...     module="mypackage._cli",
    ...     train_description="Train a logistic regression.",
    ...     predict_description="Predict with it.",
    ...     add_options=lambda parser: None,
    ...     build=lambda args: LogisticRegression(),
    ...     attributes={LogisticRegression: ["classes_", "coef_", "intercept_"]},
    ... )
    >>> tools.train_main.__name__, tools.main([])  # stderr: "a command is required ..."
    ('train_main', 2)
    """
    estimators = list(attributes)
    train_prog, predict_prog = f"{name}-train", f"{name}-predict"

    def train(argv: Sequence[str] | None) -> int:
        return train_tool(
            argv,
            prog=train_prog,
            description=train_description,
            add_options=add_options,
            build=build,
            attributes=attributes,
            summary=summary,
        )

    def predict(argv: Sequence[str] | None) -> int:
        return predict_tool(
            argv, prog=predict_prog, description=predict_description, estimators=estimators
        )

    commands: dict[str, Callable[[Sequence[str] | None], int]] = {
        "train": train,
        "predict": predict,
    }
    for alias, target in (aliases or {}).items():
        commands[alias] = commands[target]
    package = module.rsplit(".", 1)[0]

    def main(argv: Sequence[str] | None) -> int:
        return dispatch(argv, prog=f"python -m {package}", commands=commands)

    usage = {
        "train": f"{train_prog} [options] training_set_file [model_file]",
        "predict": f"{predict_prog} [options] test_file model_file output_file",
        "main": f"python -m {package} {'|'.join(commands)} ...",
    }
    return ToolPair(
        _entry(train, "train_main", usage["train"], module),
        _entry(predict, "predict_main", usage["predict"], module),
        _entry(main, "main", usage["main"], module),
    )
