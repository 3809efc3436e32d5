"""``AIDSVC(solver="dcd-full")``: no aggregation, the dual coordinate descent on every row;
and "newton-full", Newton's method on every row (``solver="auto"`` on small dense data).

Not in the paper (its SVM runs AID); the result is shaped as an AID run with one cluster
per sample, so the estimator's fitted attributes are the same for every solver.
"""

from __future__ import annotations

import time

import numpy as np
import scipy.sparse as sp

from aid_core import AggregatedSolution, AIDHistory, AIDResult, Evaluation, relative_gap
from svmcore import blas_threads
from svmcore.clustering import Clusters
from svmcore.solvers import dcd_weighted_svm, newton_weighted_svm

__all__: list[str] = []

#: "dcd-full" on CSR input: the first proximal round's projected-gradient tolerance
#: (dcd_weighted_svm's ``eps``, 0.1 by default, divided by 0.3 each round). On sparse text
#: a round at 0.1 ended far from the certified gap, and every round costs a certificate
#: and a full unshrunk pass: 3-4 rounds became 2 (issue 16; figures in the package
#: README). Dense data keep 0.1 (no clear gain measured there).
SPARSE_FIRST_EPS = 0.03


def _fit_full(X, y, sw, C, gap_tol, seed, solver="dcd-full"):
    """No aggregation: dual CD ("dcd-full") or Newton ("newton-full", dense X) on every
    row to the certified gap.

    The result has the shape of an AID run with one cluster per sample (one iteration,
    E = F, the bound the dual objective), so the estimator's attributes are the same.
    """
    start = time.perf_counter()
    with blas_threads(1):  # small BLAS calls only (see svmcore.blas_threads)
        if solver == "newton-full":
            # warn=False: an uncertified solve falls back to AID (AIDSVC.fit), which
            # warns itself if that fails too.
            res = newton_weighted_svm(X, y, sw, C=C, gap_tol=gap_tol, warn=False)
            note = f"newton-full steps={res.n_epochs} stages={res.n_rounds}"
        else:
            eps = SPARSE_FIRST_EPS if sp.issparse(X) else 0.1
            res = dcd_weighted_svm(X, y, sw, C=C, gap_tol=gap_tol, eps=eps, random_state=seed or 0)
            note = f"dcd-full epochs={res.n_epochs} rounds={res.n_rounds}"
    n = y.size
    params = {"w": res.coef, "b": res.intercept, "alpha": res.feasible_dual_coef}
    solution = AggregatedSolution(params, float(res.objective), res.dual_objective, note)
    scores = np.asarray(X @ res.coef).ravel() + res.intercept
    margin = 1.0 - y * scores
    evaluation = Evaluation(
        objective=float(res.objective),
        key=(margin > 0).astype(np.int8),
        score=float(np.mean(np.where(scores > 0, 1.0, -1.0) == y)),
    )
    lower = min(float(res.dual_objective), float(res.objective))
    gap = relative_gap(float(res.objective), lower)
    elapsed = time.perf_counter() - start
    history = AIDHistory()
    history.append(
        {
            "t": 0,
            "n_clusters": n,
            "r": 1.0,
            "F": float(res.objective),
            "lower_bound": lower,
            "E": float(res.objective),
            "E_best": float(res.objective),
            "gap": gap,
            "n_split": 0,
            "iter_time": elapsed,
            "cum_time": elapsed,
            "train_rate": evaluation.score,
            "note": note,
        }
    )
    return AIDResult(
        solution=solution,
        evaluation=evaluation,
        clusters=Clusters(np.arange(n)),
        history=history,
        stop_reason="gap" if res.converged else "max_iter",
        n_iter=1,
        lower_bound=lower,
        gap=gap,
        init_time=0.0,
    )
