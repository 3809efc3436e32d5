"""Docstring fragments: one text for a paragraph that several estimators share.

A docstring names a fragment on a line of its own, ``%(name)s``; :func:`fill_doc` puts
the fragment there, each of its lines indented like the placeholder, so the rendered
docstring reads exactly as if written out (numpydoc, ``help`` and doctests see the
result). Only whole-line placeholders are replaced: a ``%`` or a brace anywhere else
in the docstring stays as written. The same habit as MNE's ``fill_doc``.

``SEMI_SUPERVISED`` holds the fragments of the semi-supervised estimators of several
packages (the label convention of :mod:`svmcore.validation`).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Mapping
from typing import TypeVar

__all__ = ["SEMI_SUPERVISED", "fill_doc"]

T = TypeVar("T")

_PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)%\((?P<name>\w+)\)s[ \t]*$", re.MULTILINE)


def _indented(fragment: str, indent: str) -> str:
    lines = textwrap.dedent(fragment).strip("\n").splitlines()
    return "\n".join(indent + line if line.strip() else "" for line in lines)


def fill_doc(*fragments: Mapping[str, str]) -> Callable[[T], T]:
    """Decorator putting the named fragments into a class's or function's docstring.

    Parameters
    ----------
    *fragments : mapping of str to str
        Fragments by name (later mappings win); each is dedented and indented like its
        placeholder line ``%(name)s``.

    Returns
    -------
    decorator : callable
        Takes the class or function, sets its ``__doc__`` and returns it. A placeholder
        without a fragment raises ``KeyError``; an object without a docstring (as under
        ``python -OO``) is returned unchanged.

    Examples
    --------
    >>> from svmcore.docstrings import fill_doc
    >>> @fill_doc({"tol": "tol : float, default=1e-6\\n    Tolerance."})
    ... def f(tol=1e-6):
    ...     '''Solve.
    ...
    ...     Parameters
    ...     ----------
    ...     %(tol)s
    ...     '''
    >>> print(f.__doc__.splitlines()[4:6])
    ['    tol : float, default=1e-6', '        Tolerance.']
    """
    table: dict[str, str] = {}
    for mapping in fragments:
        table.update(mapping)

    def decorate(obj: T) -> T:
        doc = obj.__doc__
        if doc:
            obj.__doc__ = _PLACEHOLDER.sub(lambda m: _indented(table[m["name"]], m["indent"]), doc)
        return obj

    return decorate


#: Fragments of the semi-supervised estimators (``y == unlabeled_value`` unlabeled).
SEMI_SUPERVISED: dict[str, str] = {
    "labels_convention": """\
        Labels follow scikit-learn (``sklearn.semi_supervised``): ``-1`` marks an unlabeled
        sample. A ``y`` of exactly {-1, 0, 1} raises unless ``unlabeled_value`` states the
        convention (0: SVMlin's, classes -1/+1). ``score`` counts labeled rows only, unlike
        ``ClassifierMixin.score``; cross-validate with
        :class:`svmcore.model_selection.SemiSupervisedKFold`.""",
    "unlabeled_value": """\
        unlabeled_value : int or None, default=None
            The value of ``y`` that marks an unlabeled sample. None is scikit-learn's -1
            but refuses a ``y`` of exactly {-1, 0, 1}, which SVMlin's convention reads as
            classes -1 and +1 with 0 unlabeled: pass -1 to state scikit-learn's reading, 0
            for SVMlin's (``classes_`` is then ``[-1, 1]``).""",
}
