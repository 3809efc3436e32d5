"""AID1 for S3VM (``AIDS3VMClassifier``) on a small g241c-style split.

Tracks the unlabeled classification rate (transductive) and the certified gap, so a speedup
cannot silently change the answer; the side-by-side comparison with TSVM/MFA and the
labeled-only SVM is ``tools/bench_cases/aid_models_s3vm.py``.
"""

import warnings

import numpy as np

from aid_models import AIDS3VMClassifier
from svmcore.datasets import make_g241c

from .common import Benchmark, Estimator, Predictor


class AIDS3VMBenchmark(Predictor, Estimator, Benchmark):
    """Labeled rows first (10 per class), the rest unlabeled; y_val holds the true labels."""

    param_names = ["balance"]
    params = (["constraint", "cost"],)

    def make_data(self, params):
        n, m = self.sized((300, 20), (1500, 50), (1500, 241))
        X, y = make_g241c(n, m, random_state=0)
        y = (y > 0).astype(int)
        order = np.r_[np.flatnonzero(y == 0)[:10], np.flatnonzero(y == 1)[:10]]
        order = np.r_[order, np.setdiff1d(np.arange(n), order)]
        X, y = X[order], y[order]
        y_semi = np.full(n, -1)
        y_semi[:20] = y[:20]
        return X, X, y_semi, y

    def make_estimator(self, params):
        # AID1 only: AID5's later MIQPs have many more binaries and hit any sensible limit
        # (measured: 4 of 5 solves at 60 s each at n = 300, m = 20).
        (balance,) = params
        return AIDS3VMClassifier(
            unlabeled_value=-1, balance=balance, time_limit_per_solve=60, random_state=0
        )

    def warm_up(self, params):
        # No Numba code to compile; a warm-up fit would only double the setup time.
        return None

    def time_fit(self, *args):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a time-limited solve warns
            super().time_fit(*args)

    def track_train_score(self, *args):
        unlabeled = self.y == -1
        return float(np.mean(self.estimator.transduction_[unlabeled] == self.y_val[unlabeled]))

    def track_test_score(self, *args):
        return float(self.estimator.optimality_gap_)
