"""A library prints nothing unless asked: every public estimator, fit and predict, at defaults.

Each estimator runs in a fresh interpreter, so output that a library emits once per process
(HiGHS prints its banner at the first ``Highs()`` of a process) is seen, and both streams are
captured at the file-descriptor level, where C and C++ solvers write.
"""

import os
import subprocess
import sys
import textwrap

import pytest

# name -> (import line, task); tasks: data built in the child from svmcore's generators.
ESTIMATORS = {
    "AESVC": ("from aesvm import AESVC as Est", "classification"),
    "AIDSVC": ("from aid_models import AIDSVC as Est", "classification"),
    "AIDLADRegressor": ("from aid_models import AIDLADRegressor as Est", "regression"),
    "AIDS3VMClassifier": ("from aid_models import AIDS3VMClassifier as Est", "semi"),
    "MFNClassifier": ("from l2svm_mfn import MFNClassifier as Est", "classification"),
    "TSVMClassifier": ("from l2svm_mfn import TSVMClassifier as Est", "semi"),
    "MFAClassifier": ("from l2svm_mfn import MFAClassifier as Est", "semi"),
    "LPSVR": ("from lpsvr import LPSVR as Est", "regression"),
    "LPSVC": ("from lpsvr import LPSVC as Est", "classification"),
}

CHILD = """
{import_line}
from svmcore.datasets import make_blob_mixture, make_g241c, make_noisy_sinc

task = {task!r}
if task == "classification":
    X, y = make_blob_mixture(300, 3, random_state=0)
elif task == "semi":
    X, y = make_g241c(200, 10, random_state=0)
    y = (y > 0).astype(int) + 1  # classes 1/2: -1 marks the unlabeled rows unambiguously
    y[20:] = -1
else:
    X, y = make_noisy_sinc(300, random_state=0)
est = Est().fit(X, y)
est.predict(X)
"""


@pytest.mark.parametrize("name", ESTIMATORS)
def test_fit_and_predict_print_nothing_at_default_verbosity(name):
    import_line, task = ESTIMATORS[name]
    code = textwrap.dedent(CHILD.format(import_line=import_line, task=task))
    # Warnings at their default filters: a stray warning on good data is output too.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert done.stderr == ""
