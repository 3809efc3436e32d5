"""numpydoc validation of aesvm's public API (scikit-learn's test_docstrings habit)."""

import pytest
from numpydoc.validate import validate

import aesvm

#: Sections not required of every object: extended summary, See Also, Examples (the
#: class and functions carry them; methods need not), and the first line of Returns
#: holding only a type (we write ``name : type`` as scikit-learn does). GL01: the summary
#: starts on the line of the opening quotes, scikit-learn's style, which numpydoc < 1.11
#: reports (1.11 accepts it), so the check would depend on the numpydoc release.
IGNORED = {"ES01", "SA01", "EX01", "RT02", "GL08", "GL01"}

PUBLIC = [f"aesvm.{name}" for name in aesvm.__all__ if name != "__version__"] + [
    f"aesvm.AESVC.{method}" for method in ("fit", "predict", "decision_function")
]


@pytest.mark.parametrize("name", PUBLIC)
def test_docstring(name):
    errors = [(code, msg) for code, msg in validate(name)["errors"] if code not in IGNORED]
    assert not errors, f"{name}: {errors}"
