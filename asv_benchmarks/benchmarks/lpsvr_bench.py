"""LPSVR (Rivas-Perea & Cota-Ruiz 2013) on the noisy sinc: fit time, scores, objective gap.

The objective gap compares the decomposition's LP optimum with the single HiGHS LP
(``decomposition="none"``) on the same data; the test score is R^2 on the clean sinc.
Sizes stay small: the paper's working set must hold every sample outside the tube.
"row_column" (not in the paper) always uses the warm simplex method; its "ipm" entry
repeats the "simplex" one.
"""

from lpsvr import LPSVR
from svmcore.datasets import make_noisy_sinc

from .common import Benchmark, Estimator, ObjectiveGap, Predictor, reference_gap

C, EPSILON, GAMMA = 1.0, 0.1, 0.5


class LPSVRBenchmark(Predictor, ObjectiveGap, Estimator, Benchmark):
    """``LPSVR(decomposition, method)`` against the full LP."""

    param_names = ["decomposition", "method"]
    params = (["variables", "full", "row_column"], ["simplex", "ipm"])

    def make_data(self, params):
        n = self.sized(500, 1000, 2000)
        X, y = make_noisy_sinc(n, noise=0.1, random_state=0)
        X_val, y_val = make_noisy_sinc(1000, noise=0.0, random_state=1)
        return X, X_val, y, y_val

    def make_estimator(self, params):
        decomposition, method = params
        return LPSVR(
            C=C,
            epsilon=EPSILON,
            gamma=GAMMA,
            decomposition=decomposition,
            method=method,
            random_state=0,
        )

    def objective_gap(self, estimator, params):
        reference = LPSVR(
            C=C, epsilon=EPSILON, gamma=GAMMA, decomposition="none", method="simplex"
        ).fit(self.X, self.y)
        return reference_gap(estimator.objective_, reference.objective_)
