"""The AID problem of the SVM (Park & Klabjan 2016, sec. 3.2 and Appendix B).

Initial clusters, aggregation (the weighted SVM (9) on centroids, linear or in kernel
space), the aggregated solves and their backends, the certified lower bound and the
optimality condition of Prop 3 on the full data. The estimator is
:class:`aid_models.AIDSVC` (``_svc.py``).
"""

from __future__ import annotations

import functools
import warnings
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from aid_core import (
    AggregatedSolution,
    AIDProblem,
    ClusterSums,
    DaskSource,
    Evaluation,
    split_codes,
)
from svmcore.clustering import Clusters, kmeans_one_iteration
from svmcore.kernels import kernel_matvec
from svmcore.solvers import (
    SolverError,
    dcd_weighted_svm,
    fit_weighted_svm,
    newton_weighted_svm,
    optimal_intercept,
    solve_qp,
)

from ._codes import margin_codes
from ._common import initial_cluster_count, sample_rows
from ._svc_bound import aggregated_dual_bound
from ._svc_chunked import (
    CLASSES,
    chunked_initial_clusters,
    class_cluster_count,
    hyperplane_scores,
    initial_centres,
    margin_block,
    score_sample_size,
)

__all__: list[str] = []

# The aggregated solver's tolerance is tightened (x 0.1) until its own duality gap is
# below the target (_inner_target), at least this fraction of gap_tol, and the tolerance
# never goes below _MIN_SOLVER_TOL.
_INNER_GAP_FRACTION = 0.1
_MIN_SOLVER_TOL = 1e-9
# Relative ridges tried in turn when HiGHS rejects a numerically PSD Gram matrix.
_QP_RIDGES = (1e-12, 1e-9, 1e-6)
# A HiGHS QP answer whose own primal-dual gap exceeds this is not trusted (linear: libsvm).
_QP_MAX_GAP = 1e-6
# liblinear answers whose aggregated gap exceeds max(target, gap_tol, this) are re-solved
# by libsvm.
_LIBLINEAR_MAX_GAP = 1e-6
# Every iterative backend is asked for an aggregated gap of max(0.1 gap_tol, min(these two
# limits)): far from the optimum a rough aggregated solution declusters as well.
_MAX_INNER_GAP = 1e-2
_OUTER_FRACTION = 1e-2
# Rough solves (asked gap >= _DCD_ROUGH_GAP) stop after this many epochs whatever their gap:
# dual CD crawls on the small, heavily weighted early aggregated problems.
_DCD_ROUGH_GAP = 1e-3
_DCD_ROUGH_EPOCHS = 10_000
# Newton warm starts begin at this multiple of the previous solve's last smoothing width.
_NEWTON_MU_RESTART = 10.0


class _Solved(NamedTuple):
    """One backend's answer to an aggregated problem (the fields code reads)."""

    params: dict
    F: float
    D: float  # certified lower bound on the aggregated optimum
    backend: str  # "dcd", "newton", "liblinear", "libsvm", "highs-qp", "libsvm-features"
    converged: bool = True  # False: the solver hit its iteration cap
    note: str = ""  # details for the history, never parsed


class _Fit:
    """The (coef, intercept) of a rough initial hyperplane."""

    def __init__(self, coef, intercept):
        self.coef = coef
        self.intercept = intercept


def _weighted_means(X_sum, W):
    inv = 1.0 / W
    return (sp.diags(inv) @ X_sum).tocsr() if sp.issparse(X_sum) else X_sum * inv[:, None]


class _SVCProblem(AIDProblem):
    """The weighted hinge SVM as an :class:`aid_core.AIDProblem`."""

    max_attempts = 3
    # Prop 3 is taken to hold only for an aggregated solve within the coarsest gap this
    # problem asks its solvers for; beyond it (libsvm, HiGHS or Newton stopping short,
    # e.g. at a huge C) the run is "stalled", and "optimal" also needs the run's gap
    # within gap_tol (else aid_core re-solves the partition from attempt 1).
    optimal_solve_gap = _MAX_INNER_GAP

    def __init__(self, est, X, kernel_params, gamma, seed, solver):
        self.est = est
        self.solver = solver  # "auto" resolved (_svc_auto.auto_solver)
        self.X = X  # only the kernel path needs the rows themselves (Appendix B)
        self.kernel_params = kernel_params
        self.gamma = gamma
        self.seed = seed
        self.linear = kernel_params is None
        self.sums = ClusterSums()  # the contract's one cache: the last partition's sums

    # -- initial clusters (sec. 4): hyperplane from a sample, 1-D k-means per class ----
    def initial_clusters(self, data, random_state):
        est, n, m = self.est, data.n_samples, data.n_features
        rng = np.random.default_rng(random_state)
        size = max(20 * (m + 1), 1000) if est.init_sample_size == "auto" else est.init_sample_size
        idx = sample_rows(n, size, rng)
        sample = data.take(idx)
        sample_y = np.asarray(sample.y, dtype=np.float64)  # Dask: kept as one byte
        rate = est.initial_aggregation_rate
        if rate == "auto":
            rate = min(1.0, max(1.1 * m / n, 1e-4))
        k0 = initial_cluster_count(rate, n, 2)
        fit = None
        if np.unique(sample_y).size == 2:
            w0 = sample.weights
            # Weight n/s per sampled row so the sample's C matches the full problem's scale.
            fit = self._sample_fit(
                sample.X,
                sample_y,
                w0 * (n / len(idx)),
                C=est.C,
                solver="liblinear" if self.solver == "liblinear" else "libsvm",
                tol=est.tol,
                random_state=self.seed,
                **({} if self.linear else {**self.kernel_params, "gamma": self.gamma}),
            )
        # the initial centres: quantiles of the scores of a uniform sample of rows (all
        # rows up to 100,000; chunked_initial_clusters)
        score_rows = sample_rows(n, score_sample_size(n, k0), rng)
        if isinstance(data, DaskSource):  # linear: labels made and kept where the rows are
            plane = (None, None) if fit is None else (fit.coef, fit.intercept)
            return chunked_initial_clusters(data, *plane, k0, score_rows)
        if fit is None:
            d = np.zeros(n)
        elif self.linear:
            d = data.map_rows(lambda b: hyperplane_scores(b.X, fit.coef, fit.intercept))
        else:
            sv = fit.support
            coef = fit.dual_coef[sv] * sample_y[sv]
            d = self._kernel_scores(sample.X[sv], coef) + fit.intercept
        y = data.targets()
        # Clusters never mix labels (sec. 3.2): each class is clustered on its own.
        labels = np.empty(n, dtype=np.int64)
        offset = 0
        d_sample, y_sample = d[score_rows], y[score_rows]
        for cls in CLASSES:
            members = np.flatnonzero(y == cls)
            k_cls = class_cluster_count(k0, members.size, n)
            sampled = d_sample[y_sample == cls]
            init = initial_centres(sampled, lambda members=members: d[members], k_cls)
            lab = kmeans_one_iteration(d[members], k_cls, init=init)
            labels[members] = lab + offset
            offset += int(lab.max()) + 1
        return Clusters(labels)

    def _sample_fit(self, X, y, w, *, solver, **kw):
        # A rough hyperplane is all the initial clustering needs (sec. 5.2).
        if self.solver == "newton":
            X = X.toarray() if sp.issparse(X) else X
            res = newton_weighted_svm(X, y, w, C=kw["C"], gap_tol=1e-3, max_steps=100)
        elif self.solver == "dcd":
            res = dcd_weighted_svm(X, y, w, C=kw["C"], gap_tol=1e-3, max_epochs=1000)
        else:
            return fit_weighted_svm(X, y, w, solver=solver, **kw)
        return _Fit(res.coef, res.intercept)

    def _kernel_scores(self, rows, coef):
        return kernel_matvec(self.X, rows, coef, gamma=self.gamma, **self.kernel_params)

    def _backend(self, attempt):
        # The paper saw liblinear go wrong on huge cluster weights: the last retry uses libsvm.
        if self.solver in ("liblinear", "dcd", "newton") and attempt >= 2:
            return "libsvm"
        return self.solver

    # -- aggregation -------------------------------------------------------------------
    def aggregate(self, data, clusters):
        K = clusters.n_clusters
        X_sum, y_sum, W = self.sums(data, clusters)
        y_k = np.sign(y_sum)  # clusters are label-pure, so the sign is the label
        agg = {"y": y_k, "W": W}
        if self.solver == "dcd":
            # The partition's lineage, so that the next solve can map the previous
            # aggregated duals to the clusters they were split into (its warm start).
            agg["lineage"] = (clusters.token, clusters.parent_token, clusters.parent)
        if self.linear:
            agg["X"] = _weighted_means(X_sum, W)
            if self.solver == "highs":
                Xm = agg["X"]
                G = Xm @ Xm.T
                agg["Q"] = G.toarray() if sp.issparse(G) else G
        else:
            # Appendix B: K(x_k, x_q) = mean over the two clusters' pairs, through
            # KM = K(X, X) M in row blocks (M: n x K, s_i / W_k), never an n x n matrix.
            w = data.weights()
            n = clusters.n_samples
            M = sp.csr_matrix((w / W[clusters.labels], (np.arange(n), clusters.labels)), (n, K))
            KM = self._aggregated_kernel(clusters.labels, M)
            Q = np.asarray(M.T @ KM)
            agg["Q"] = 0.5 * (Q + Q.T)
            agg["KM"] = KM
        return agg

    #: The one state kept between steps, a cache that changes no result: K(X, X) M of the
    #: last aggregation with its labels, whose columns of clusters not split are reused.
    _km_cache = None

    def _aggregated_kernel(self, labels, M):
        """K(X, X) M, recomputing only the columns of clusters that were just split.

        A cluster that was not split has the same members and weights, hence the same
        column; late iterations split few clusters, so this costs O(n m |split rows|)
        instead of O(n^2 m).
        """
        n, K = M.shape
        if self._km_cache is None:
            KM = self._kernel_scores(self.X, M.toarray()).reshape(n, K)
        else:
            old_labels, old_KM = self._km_cache
            parent = np.empty(K, dtype=np.int64)
            parent[labels] = old_labels
            split = np.bincount(parent, minlength=old_KM.shape[1])[parent] > 1
            KM = np.empty((n, K))
            KM[:, ~split] = old_KM[:, parent[~split]]
            fresh = np.flatnonzero(split)
            if fresh.size:
                rows = np.flatnonzero(split[labels])
                V = M[rows][:, fresh].toarray()
                KM[:, fresh] = self._kernel_scores(self.X[rows], V).reshape(n, fresh.size)
        self._km_cache = (labels, KM)
        return KM

    # -- aggregated solve --------------------------------------------------------------
    def solve(self, agg, context):
        est, attempt = self.est, context.attempt
        tol0 = max(est.tol * 0.01**attempt, _MIN_SOLVER_TOL)
        if self._backend(attempt) in ("dcd", "newton"):
            solve = self._solve_dcd if self.solver == "dcd" else self._solve_newton
            res = solve(agg, context)
            return _solution(res, f"{res.note} gap={_gap(res):.1e}")
        notes = []
        target = self._inner_target(context)
        res = self._tightened(agg, tol0, attempt, None, target, notes)
        if res.backend == "liblinear" and _gap(res) > max(target, est.gap_tol, _LIBLINEAR_MAX_GAP):
            # liblinear's w solves the bias-regularized problem, so its gap can plateau
            # far above gap_tol (small or degenerate aggregated problems): switch solver.
            notes.append("liblinear gap too large, switching to libsvm")
            res = self._tightened(agg, tol0, attempt, "libsvm", target, notes)
        return _solution(res, "; ".join(notes))

    def _inner_target(self, context):
        """The aggregated duality gap to ask for (relative).

        ``0.1 * gap_tol`` near the optimum, ``min(1e-2, 0.01 * outer gap)`` while the AID
        gap is large (the first solve: 1e-2), and 100x smaller on each certificate retry.
        """
        target = _INNER_GAP_FRACTION * self.est.gap_tol
        if context.previous is None:
            target = max(target, _MAX_INNER_GAP)
        elif np.isfinite(context.outer_gap):
            target = max(target, min(_MAX_INNER_GAP, _OUTER_FRACTION * context.outer_gap))
        return max(target, _MIN_SOLVER_TOL) * 0.01**context.attempt

    def _tightened(self, agg, tol, attempt, backend, target, notes):
        """Solve, tightening the tolerance (x 0.1) until the aggregated gap <= target."""
        last_gap = np.inf
        while True:
            if backend is None:
                res = self._solve_once(agg, tol, attempt)
            else:
                res = self._solve_svm(agg, tol, backend)
            gap = _gap(res)
            told = "" if res.backend == "highs-qp" else f" tol={tol:.0e}"
            notes.append(f"{res.note}{told} gap={gap:.1e}")
            # Stop tightening when the bound is good enough, cannot tighten further, or
            # stagnates (liblinear's duals of its bias-regularized problem plateau); a
            # tighter tolerance cannot help a solver that ran out of iterations either.
            if gap <= target or tol <= _MIN_SOLVER_TOL or res.backend == "highs-qp":
                return res
            if not res.converged or gap > 0.5 * last_gap:
                return res
            last_gap = gap
            tol = max(tol * 0.1, _MIN_SOLVER_TOL)

    def _solve_once(self, agg, tol, attempt):
        if "Q" in agg:
            # HiGHS's active-set QP can call a rank-deficient Gram matrix non-convex, fail
            # numerically or stop short on it; libsvm then solves the same problem.
            if attempt > 0:
                reason = f"retry {attempt}"
            else:
                try:
                    res = self._solve_qp(agg, tol)
                except SolverError as exc:
                    reason = exc.status
                else:
                    if res.F - res.D <= _QP_MAX_GAP * abs(res.F):
                        return res
                    reason = f"gap {(res.F - res.D) / abs(res.F):.0e}"
            if self.linear:
                res = self._solve_svm(agg, tol, "libsvm")
            else:
                res = self._solve_kernel_features(agg, tol)
            return res._replace(note=f"{res.note} (highs-qp: {reason})")
        return self._solve_svm(agg, tol, self._backend(attempt))

    def _solve_dcd(self, agg, context):
        """Aggregated problem (9) by warm-started dual CD (svmcore.solvers._dcd).

        The previous aggregated duals are divided among each split cluster's children
        in proportion to their weights: feasible for the new box and the same ``w``.
        """
        est, y, W = self.est, agg["y"], agg["W"]
        alpha0, b0 = None, 0.0
        previous = context.previous
        token, parent_token, parent = agg["lineage"]
        if previous is not None and previous.params.get("token") == token:
            alpha0, b0 = previous.params["alpha"], float(previous.params["b"])  # a re-solve
        elif previous is not None and previous.params.get("token") == parent_token:
            # The previous partition's cluster of every cluster (declustering only
            # splits), from the split's K-sized lineage: no pass over the labels.
            old_alpha = previous.params["alpha"]
            old_W = np.bincount(parent, weights=W, minlength=old_alpha.size)
            alpha0 = old_alpha[parent] * W / old_W[parent]
            b0 = float(previous.params["b"])
        target = self._inner_target(context)
        rough = target >= _DCD_ROUGH_GAP
        res = dcd_weighted_svm(
            agg["X"],
            y,
            W,
            C=est.C,
            gap_tol=target,
            alpha0=alpha0,
            b0=b0,
            max_epochs=_DCD_ROUGH_EPOCHS if rough else 100_000,
            random_state=self.seed,
        )
        # The exactly feasible duals carry the certified bound into the next warm start.
        params = {"w": res.coef, "b": res.intercept, "alpha": res.feasible_dual_coef}
        params["token"] = token
        note = f"dcd target={target:.0e} epochs={res.n_epochs} rounds={res.n_rounds}"
        # A rough solve's epoch cap is its own rule; a fine solve that hits it gave up.
        F, D, done = float(res.objective), float(res.dual_objective), res.converged or rough
        return _Solved(params, F, D, "dcd", bool(done), note)

    def _solve_newton(self, agg, context):
        """Aggregated problem (9) in the primal by smoothed Newton (svmcore.solvers._newton).

        ``m + 1`` unknowns whatever |K^t|, and the weights' scale does not slow it down;
        warm-started from the previous aggregated ``(w, b)`` (the same hyperplane is a
        good point for the split clusters) at 10x its last smoothing width.
        """
        w0, b0, mu0 = None, 0.0, 2.0
        previous = context.previous
        if previous is not None and "mu" in previous.params:
            w0, b0 = previous.params["w"], float(previous.params["b"])
            mu0 = min(2.0, _NEWTON_MU_RESTART * previous.params["mu"])
        target = self._inner_target(context)
        Xm = agg["X"].toarray() if sp.issparse(agg["X"]) else agg["X"]  # |K^t| x m, m small
        res = newton_weighted_svm(  # warn=False: AID's loop handles an uncertified solve
            Xm, agg["y"], agg["W"], C=self.est.C, gap_tol=target, w0=w0, b0=b0, mu0=mu0,
            warn=False,
        )  # fmt: skip
        params = {"w": res.coef, "b": res.intercept, "alpha": res.feasible_dual_coef, "mu": res.mu}
        note = f"newton target={target:.0e} steps={res.n_epochs} stages={res.n_rounds}"
        F, D = float(res.objective), float(res.dual_objective)
        return _Solved(params, F, D, "newton", bool(res.converged), note)

    def _solve_svm(self, agg, tol, backend):
        est, y, W = self.est, agg["y"], agg["W"]
        # An iteration cap on the aggregated problem does not invalidate the certificate
        # (the dual bound below is valid for any feasible duals): record it in the note
        # instead of warning on every AID iteration.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            res = fit_weighted_svm(
                agg["X"], y, W, C=est.C, solver=backend, tol=tol, random_state=self.seed
            )
        Xm = agg["X"]

        def quad(v):
            u = Xm.T @ v
            return float(u @ u)

        D = aggregated_dual_bound(res.dual_coef, y, quad)
        params = {"w": res.coef, "b": res.intercept, "alpha": res.dual_coef}
        note = backend + ("" if res.converged else " (max_iter)")
        return _Solved(params, float(res.objective), D, backend, res.converged, note)

    def _solve_kernel_features(self, agg, tol):
        """Aggregated kernel problem (20) as a linear SVM on Gram-matrix features.

        With Q = V diag(lam) V^T, the rows of Phi = V sqrt(lam) reproduce the aggregated
        kernel (Phi Phi^T = Q up to dropped round-off eigenvalues), so libsvm on Phi with
        weights W solves (20); objective and bound are then evaluated with the exact Q.
        Costs O(K^3); used only when HiGHS's QP fails.
        """
        est, y, W, Q = self.est, agg["y"], agg["W"], agg["Q"]
        lam, V = np.linalg.eigh(Q)
        keep = lam > 1e-12 * max(float(lam.max()), 1e-300)
        Phi = V[:, keep] * np.sqrt(lam[keep])
        res = fit_weighted_svm(Phi, y, W, C=est.C, solver="libsvm", tol=tol)
        alpha = np.clip(res.dual_coef, 0.0, est.C * W)
        return _Solved(*self._qp_params(agg, alpha), "libsvm-features", note="libsvm-features")

    def _solve_qp(self, agg, tol):
        est, y, W, Q = self.est, agg["y"], agg["W"], agg["Q"]
        K = y.size
        H = Q * np.outer(y, y)
        scale = max(float(np.mean(np.diag(H))), 1.0)
        # Round-off can leave a PSD Gram matrix with eigenvalues like -1e-16, which HiGHS
        # rejects as nonconvex: a tiny ridge fixes it. The objective and the bound below
        # use the exact Q, so the certificate is unaffected; the ridge grows on failure.
        for ridge in _QP_RIDGES:
            try:
                res = solve_qp(
                    H + ridge * scale * np.eye(K),
                    -np.ones(K),
                    A_eq=y[None, :],
                    b_eq=[0.0],
                    bounds=np.column_stack([np.zeros(K), est.C * W]),
                )
                break
            except SolverError:
                if ridge == _QP_RIDGES[-1]:
                    raise
            except ValueError as exc:  # HiGHS rejected the data (entries of 1e21: X * 1e10)
                raise SolverError(str(exc), status="data rejected") from exc
        if not np.all(np.isfinite(res.x)):
            # Seen from HiGHS's QP solver on degenerate Gram matrices despite "optimal".
            raise SolverError("HiGHS QP returned a non-finite point", status="non-finite x")
        alpha = np.clip(res.x, 0.0, est.C * W)
        return _Solved(*self._qp_params(agg, alpha), "highs-qp", note=f"highs-qp {res.status}")

    def _qp_params(self, agg, alpha):
        """Solution, F and the dual bound of the aggregated dual point ``alpha`` (exact Q)."""
        est, y, W, Q = self.est, agg["y"], agg["W"], agg["Q"]
        v = alpha * y
        f = Q @ v
        b = float(optimal_intercept(f, y, W))
        norm2 = float(v @ f)
        F = 0.5 * norm2 + est.C * float(W @ np.maximum(0.0, 1.0 - y * (f + b)))
        D = aggregated_dual_bound(alpha, y, lambda u: float(u @ Q @ u))
        params = {"b": b, "alpha": alpha, "v": v, "norm2": norm2}
        if self.linear:
            params["w"] = np.asarray(agg["X"].T @ v).ravel()
        else:
            params["KM"] = agg["KM"]
        return params, F, D

    # -- evaluation on the original data ----------------------------------------------
    def evaluate(self, data, clusters, solution):
        p, C = solution.params, self.est.C
        if "KM" in p:
            scores = p["KM"] @ p["v"] + p["b"]
            code, hinge, correct = margin_codes(scores, data.targets(), data.weights())
            key, free = split_codes(code)
            parts = [(hinge, correct)]
            norm2 = p["norm2"]
        else:
            # Per block two partial sums travel back; the one-byte codes stay where they
            # are made (on a Dask worker, for the split that reads them there).
            key, free, parts = data.map_codes(
                functools.partial(margin_block, w=p["w"], b=p["b"]), clusters
            )
            norm2 = float(p["w"] @ p["w"])
        hinge = sum(h for h, _ in parts)
        correct = sum(k for _, k in parts)
        return Evaluation(
            objective=0.5 * norm2 + C * float(hinge),
            key=key,
            free=free,
            score=float(correct) / data.n_samples,
        )


def _gap(res):
    return (res.F - res.D) / max(abs(res.F), 1e-300)


def _solution(res, note):
    """The loop's AggregatedSolution of a backend's answer (bound never above F)."""
    return AggregatedSolution(
        res.params,
        res.F,
        lower_bound=min(res.D, res.F),
        note=note,
        backend=res.backend,
        converged=res.converged,
    )
