"""numpydoc validation of lpsvr's public API (scikit-learn's test_docstrings habit)."""

import inspect

import pytest
from numpydoc.validate import validate

import lpsvr

#: Sections not required of every object: extended summary, See Also, Examples (the
#: class and functions carry them; methods need not), and the first line of Returns
#: holding only a type (we write ``name : type`` as scikit-learn does). GL01: the summary
#: starts on the line of the opening quotes, scikit-learn's style, which numpydoc < 1.11
#: reports (1.11 accepts it), so the check would depend on the numpydoc release.
IGNORED = {"ES01", "SA01", "EX01", "RT02", "GL08", "GL01"}

#: Estimator-style methods, validated where a public class defines them itself.
METHODS = ("fit", "predict", "decision_function", "score", "predict_proba", "transform")

PUBLIC = [f"lpsvr.{name}" for name in lpsvr.__all__ if name != "__version__"] + [
    f"lpsvr.{name}.{method}"
    for name in lpsvr.__all__
    if inspect.isclass(getattr(lpsvr, name))
    for method in METHODS
    if method in vars(getattr(lpsvr, name))
]


@pytest.mark.parametrize("name", PUBLIC)
def test_docstring(name):
    errors = [(code, msg) for code, msg in validate(name)["errors"] if code not in IGNORED]
    assert not errors, f"{name}: {errors}"
