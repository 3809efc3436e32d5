"""Ctrl-C during a refit leaves the previously fitted estimator as it was (issue 19).

Every public estimator is fitted on one data set, then refitted on another and stopped by
a ``KeyboardInterrupt`` raised at points spread over the refit: at the k-th call into our
packages' code (``sys.settrace``), for k at several fractions of an undisturbed refit's,
so the test does not depend on the machine's speed. Every fitted attribute must then still
be the first fit's, bit for bit (``svmcore.validation.fit_context`` restores them).
"""

import sys

import numpy as np
import pytest
from test_determinism import CASES, _assert_identical, _fitted

from aesvm import clear_representative_cache

#: where the interrupt lands, as fractions of the calls of an undisturbed refit
FRACTIONS = (0.02, 0.2, 0.5, 0.8, 0.99)


#: the project's packages: the interrupt lands in their code (a real Ctrl-C arriving
#: inside the standard library's lock handling, e.g. in concurrent.futures, can leave a
#: lock held, which no estimator can undo)
OURS = frozenset({"svmcore", "aid_core", "aid_models", "aesvm", "l2svm_mfn", "lpsvr"})


class _CallCounter:
    """A trace function counting calls into our packages; raises KeyboardInterrupt at ``stop``."""

    def __init__(self, stop=None):
        self.calls = 0
        self.stop = stop

    def __call__(self, frame, event, arg):
        if event == "call" and frame.f_globals.get("__name__", "").split(".")[0] in OURS:
            self.calls += 1
            if self.calls == self.stop:
                raise KeyboardInterrupt
        return None


def _traced(counter, fit):
    sys.settrace(counter)
    try:
        return fit()
    finally:
        sys.settrace(None)


def _second_data_set(data):
    X, y = data()
    order = np.random.default_rng(11).permutation(len(y))
    return X[order] * 1.5, y[order]


@pytest.mark.parametrize(("name", "make", "data"), CASES, ids=[c[0] for c in CASES])
def test_interrupted_refit_keeps_the_previous_model(name, make, data):
    params = make().get_params()
    kw = {"random_state": 0} if "random_state" in params else {}
    X, y = data()
    X2, y2 = _second_data_set(data)
    clear_representative_cache()
    est = make(**kw).fit(X, y)
    counter = _CallCounter()
    clear_representative_cache()
    _traced(counter, lambda: make(**kw).fit(X, y).fit(X2, y2))
    first = _CallCounter()
    clear_representative_cache()
    _traced(first, lambda: make(**kw).fit(X, y))
    refit_calls = counter.calls - first.calls
    assert refit_calls > 10, f"{name}: the refit makes only {refit_calls} calls into our code"
    for fraction in FRACTIONS:
        clear_representative_cache()
        est = make(**kw).fit(X, y)
        reference = _fitted(est)
        stop = max(1, int(fraction * refit_calls))
        with pytest.raises(KeyboardInterrupt):
            _traced(_CallCounter(stop), lambda est=est: est.fit(X2, y2))
        _assert_identical(_fitted(est), reference, f"{name} after Ctrl-C at call {stop}")
