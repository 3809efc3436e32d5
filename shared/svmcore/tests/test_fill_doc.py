"""svmcore.docstrings.fill_doc: whole-line placeholders become indented fragments."""

import pytest

from svmcore.docstrings import SEMI_SUPERVISED, fill_doc

FRAGMENTS = {"tol": "tol : float, default=1e-6\n    Tolerance,\n\n    in 100 % of cases."}


def test_fragment_takes_the_indentation_of_its_placeholder():
    @fill_doc(FRAGMENTS)
    class A:
        """Summary with {braces} and 5 % kept.

        Parameters
        ----------
        %(tol)s
        """

    assert A.__doc__ == (
        "Summary with {braces} and 5 % kept.\n\n"
        "        Parameters\n        ----------\n"
        "        tol : float, default=1e-6\n            Tolerance,\n\n"
        "            in 100 % of cases.\n        "
    )


def test_only_whole_line_placeholders_are_replaced():
    @fill_doc(FRAGMENTS)
    def f():
        """See %(tol)s inline."""

    assert f.__doc__ == "See %(tol)s inline."


def test_later_mappings_win_and_unknown_names_raise():
    @fill_doc(FRAGMENTS, {"tol": "tol : float"})
    def f():
        """Summary.

        %(tol)s
        """

    assert "tol : float\n" in f.__doc__ and "Tolerance" not in f.__doc__
    with pytest.raises(KeyError, match="nothing"):

        @fill_doc(FRAGMENTS)
        def g():
            """Summary.

            %(nothing)s
            """


def test_an_object_without_docstring_is_returned_unchanged():
    def f():
        pass

    assert fill_doc(FRAGMENTS)(f) is f and f.__doc__ is None


def test_semi_supervised_fragments_name_the_convention():
    assert SEMI_SUPERVISED["unlabeled_value"].split()[:3] == ["unlabeled_value", ":", "int"]
    assert "SemiSupervisedKFold" in SEMI_SUPERVISED["labels_convention"]
