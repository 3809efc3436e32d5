"""svmcore.lazy and what it is for: modules that run as Dask tasks import no scikit-learn."""

import subprocess
import sys
import types

import pytest

import svmcore.validation
from svmcore.lazy import lazy_exports
from svmcore.testing import modules_imported_by


def test_task_side_modules_do_not_import_scikit_learn():
    """The modules whose functions run on Dask workers (maps and reductions over chunks,
    cluster labels, kernels, argument checks) import neither scikit-learn nor, with it,
    pandas: about 68 MB of every worker's memory (issue 18)."""
    code = (
        "import sys\n"
        "import svmcore.chunked, svmcore.clustering, svmcore.kernels, svmcore.validation\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sklearn', 'pandas')))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "[]"


def test_validation_keeps_its_scikit_learn_names():
    """The scikit-learn boundary is still reached through svmcore.validation."""
    from sklearn.utils._param_validation import Interval as SkInterval

    from svmcore.validation import Interval, validate_data

    assert Interval is SkInterval
    assert svmcore.validation.validate_data is validate_data
    assert {"Interval", "validate_data", "check_indices"} <= set(dir(svmcore.validation))
    for name in svmcore.validation.__all__:
        assert getattr(svmcore.validation, name) is not None


def test_lazy_exports_imports_on_first_use(monkeypatch):
    package = types.ModuleType("lazy_pkg")
    package.__path__ = []
    monkeypatch.setitem(sys.modules, "lazy_pkg", package)
    module = types.ModuleType("lazy_pkg.mod")
    module.Thing = object()
    monkeypatch.setitem(sys.modules, "lazy_pkg.mod", module)
    package.__getattr__, package.__dir__ = lazy_exports("lazy_pkg", {"Thing": ".mod"})
    assert "Thing" not in vars(package) and "Thing" in dir(package)
    assert package.Thing is module.Thing
    assert vars(package)["Thing"] is module.Thing  # stored: later look-ups are plain
    with pytest.raises(AttributeError, match="'lazy_pkg' has no attribute 'Other'"):
        package.Other  # noqa: B018


def test_lazy_exports_refuses_an_absolute_module():
    with pytest.raises(ValueError, match="relative to 'pkg'"):
        lazy_exports("pkg", {"Thing": "pkg.mod"})


def test_solver_budget_and_errors_do_not_import_scikit_learn():
    """TimeBudget and the solver exceptions, used in tasks on Dask workers (AESVC's
    DeriveRS per chunk), come without scikit-learn: only SolverLimitWarning, a
    scikit-learn ConvergenceWarning, and the solvers themselves import it (issue 18)."""
    from sklearn.exceptions import ConvergenceWarning

    from svmcore.solvers import SolverLimitWarning

    assert modules_imported_by(["svmcore.solvers._budget", "svmcore.solvers._errors"]) == []
    assert issubclass(SolverLimitWarning, ConvergenceWarning)
