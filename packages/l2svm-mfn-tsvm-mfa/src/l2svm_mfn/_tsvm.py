"""Transductive L2-SVM-MFN with multiple switching (Sindhwani & Keerthi 2006, Table 4)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from svmcore.linalg import select
from svmcore.reporting import Recorder
from svmcore.solvers import TimeBudget
from svmcore.typing import MatrixLike

from ._mfn import l2svm_mfn, squared_hinge_objective

__all__ = [
    "TSVMResult",
    "assign_by_ratio",
    "switch_labels",
    "transductive_mfn",
    "tsvm_objective",
]


class TSVMResult(NamedTuple):
    """Result of :func:`transductive_mfn`.

    Attributes
    ----------
    w : ndarray of shape (dim,)
        Weights (bias last when ``intercept=True``).
    outputs : ndarray of shape (n_samples,)
        ``X w`` on every row.
    labels : ndarray of shape (n_samples,)
        Final labels in {-1, +1}: the given ones and the switched temporary labels
        of the unlabeled rows.
    objective : float
        Objective (7) at the user's ``lam_u`` with ``labels``.
    n_mfn : int
        Number of L2-SVM-MFN calls.
    n_switched : int
        Total number of label pairs switched.
    history : list of dict
        One record per MFN retraining: ``lam_u`` (current :math:`\\hat\\lambda'`),
        ``switched`` (pairs switched before it; 0 for a Loop-1 retraining),
        ``objective_before`` (objective at the previous ``w`` with the labels before
        switching), ``objective_switched`` (same ``w``, switched labels),
        ``objective`` (after retraining), ``mfn_iter``, ``converged``, ``time``
        (seconds since the call started).
    """

    w: np.ndarray
    outputs: np.ndarray
    labels: np.ndarray
    objective: float
    n_mfn: int
    n_switched: int
    history: list


def tsvm_objective(
    w: np.ndarray,
    outputs: np.ndarray,
    y: np.ndarray,
    labeled: np.ndarray,
    lam: float | np.ndarray,
    lam_u: float,
    sample_weight: np.ndarray | None = None,
) -> float:
    r"""Objective (18): labeled squared hinge over :math:`l`, unlabeled :math:`\max(0, 1-|o|)^2`.

    Parameters
    ----------
    w : ndarray of shape (dim,)
        Weights (the bias last when the data carry the constant feature).
    outputs : ndarray of shape (n_samples,)
        :math:`o = Xw` on every row.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1} on labeled rows.
    labeled : ndarray of bool of shape (n_samples,)
        Which rows are labeled.
    lam : float or ndarray of shape (dim,)
        Regularization :math:`\lambda` (a vector gives one weight per entry of ``w``).
    lam_u : float
        Weight :math:`\lambda'` of the unlabeled loss.
    sample_weight : ndarray of shape (n_samples,), default=None
        Extra per-row cost factors; :math:`l` and :math:`u` are then the total
        labeled and unlabeled weights.

    Returns
    -------
    value : float
        The objective at ``w``.
    """
    weight = np.ones(y.shape[0]) if sample_weight is None else sample_weight
    n_l = weight[labeled].sum()
    n_u = weight[~labeled].sum()
    lab_loss = np.maximum(0.0, 1.0 - y[labeled] * outputs[labeled]) ** 2
    unl_loss = np.maximum(0.0, 1.0 - np.abs(outputs[~labeled])) ** 2
    value = 0.5 * float(np.sum(lam * w * w)) + 0.5 * float(np.sum(weight[labeled] * lab_loss)) / n_l
    if n_u > 0:
        value += 0.5 * lam_u * float(np.sum(weight[~labeled] * unl_loss)) / n_u
    return value


def assign_by_ratio(outputs: np.ndarray, n_positive: int) -> np.ndarray:
    """Label the ``n_positive`` largest outputs +1 and the rest -1 (Table 4's thresholding).

    For a fixed ``w`` these labels minimize the TSVM objective (7) over the unlabeled
    labels under the balance constraint (exactly ``n_positive`` positives).

    Parameters
    ----------
    outputs : ndarray of shape (u,)
        Outputs ``w . x`` of the unlabeled rows.
    n_positive : int
        Number of rows labeled +1.

    Returns
    -------
    labels : ndarray of shape (u,)
        +1 for the ``n_positive`` largest outputs, -1 elsewhere.
    """
    labels = -np.ones(outputs.shape[0])
    labels[select(outputs, n_positive, largest=True)] = 1.0
    return labels


def switch_labels(outputs, labels, max_switch):
    """Switch up to ``max_switch`` label pairs that decrease the objective (section 3.1.2).

    Candidates are unlabeled rows with an active loss (``labels * outputs < 1``):
    positives sorted by ascending output (:math:`L^+`) and negatives by descending
    output (:math:`L^-`); pairs are taken from the tops while the positive's output
    is below the negative's (the switching conditions of Table 4).

    Parameters
    ----------
    outputs : ndarray of shape (u,)
    labels : ndarray of shape (u,)
        Current temporary labels in {-1, +1}; switched in place.
    max_switch : int
        :math:`S`.

    Returns
    -------
    n_switched : int
    """
    active = labels * outputs < 1.0
    pos = np.flatnonzero(active & (labels > 0))
    neg = np.flatnonzero(active & (labels < 0))
    k = min(pos.size, neg.size, max_switch)
    if k == 0:
        return 0
    pos = pos[np.argsort(outputs[pos], kind="stable")][:k]
    neg = neg[np.argsort(-outputs[neg], kind="stable")][:k]
    ok = outputs[pos] < outputs[neg]
    # Outputs along L+ increase and along L- decrease: the valid pairs form a prefix.
    k = int(np.argmin(ok)) if not ok.all() else k
    labels[pos[:k]] = -1.0
    labels[neg[:k]] = 1.0
    return k


def transductive_mfn(
    X: MatrixLike,
    y: np.ndarray,
    labeled: np.ndarray,
    lam: float | np.ndarray,
    lam_u: float,
    *,
    positive_fraction: float,
    max_switch: int = 1,
    anneal_start: float = 1e-5,
    anneal_factor: float = 2.0,
    sample_weight: np.ndarray | None = None,
    intercept: bool = True,
    mfn_params: dict[str, Any] | None = None,
    budget: TimeBudget | None = None,
    report: Callable[[dict[str, Any]], object] | None = None,
) -> TSVMResult:
    r"""Transductive L2-SVM-MFN (Table 4) with multiple switching.

    Parameters
    ----------
    X : ndarray or csr_matrix of shape (n_samples, n_features)
        Validated data: labeled and unlabeled rows in any order.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1} on labeled rows (ignored elsewhere).
    labeled : ndarray of bool of shape (n_samples,)
        Mask of labeled rows (at least one labeled and one unlabeled row).
    lam : float or ndarray
        :math:`\lambda` (vector for an unregularized bias).
    lam_u : float
        :math:`\lambda'`, the final weight of the unlabeled loss.
    positive_fraction : float
        :math:`r`, in (0, 1).
    max_switch : int, default=1
        :math:`S`, pairs switched per pass at most (1 is Joachims' TSVM).
    anneal_start, anneal_factor : float
        First :math:`\hat\lambda'` and its growth factor :math:`R`.
    sample_weight : ndarray of shape (n_samples,), default=None
        Extra per-row cost factors (1 when None).
    intercept : bool, default=True
        Constant feature for the bias.
    mfn_params : dict, default=None
        Keyword arguments for :func:`l2svm_mfn` (``tol``, ``tau``, ``max_iter``, ...).
    budget : svmcore.solvers.TimeBudget, default=None
        The fit's time limit: no retraining or switching pass starts after its
        deadline; the current ``w`` and labels are returned.
    report : callable or None, default=None
        Called with each history record as its retraining ends (``verbose``).

    Returns
    -------
    result : TSVMResult
    """
    mfn_params = dict(mfn_params or {})
    mfn_params["budget"] = budget
    n = y.shape[0]
    lab = np.flatnonzero(labeled)
    unl = np.flatnonzero(~labeled)
    weight = np.ones(n) if sample_weight is None else sample_weight
    # l and u in the costs 1/l and lambda'/u are total weights (counts for unit weights),
    # so integer weights act like repeated samples in the objective.
    n_l, n_u = weight[lab].sum(), weight[unl].sum()

    # Initialization: L2-SVM-MFN on the labeled rows only (unlabeled cost 0).
    cost = np.zeros(n)
    cost[lab] = weight[lab] / n_l
    y_hat = np.where(labeled, y, 1.0)
    first = l2svm_mfn(X, y_hat, cost, lam, intercept=intercept, **mfn_params)
    w, o = first.w, first.outputs
    n_positive = int(round(positive_fraction * unl.size))
    y_hat[unl] = assign_by_ratio(o[unl], n_positive)

    def objective(w_, o_, labels_, lam_u_):
        c = cost.copy()
        c[unl] = weight[unl] * lam_u_ / n_u
        return squared_hinge_objective(w_, o_, labels_, c, lam)

    log = Recorder(report)
    n_mfn, n_switched = 1, 0
    lam_hat = min(anneal_start, lam_u)
    last_round = lam_hat >= lam_u
    seed = None  # Table 4 (and SVMlin) restart the first transductive fit from w = 0
    while not (budget is not None and budget.expired()):
        cost[unl] = weight[unl] * lam_hat / n_u
        res = l2svm_mfn(
            X,
            y_hat,
            cost,
            lam,
            intercept=intercept,
            w0=seed,
            outputs0=None if seed is None else o,
            **mfn_params,
        )
        seed = res.w
        n_mfn += 1
        log(
            {
                "lam_u": lam_hat,
                "switched": 0,
                "objective_before": objective(w, o, y_hat, lam_hat),
                "objective_switched": objective(w, o, y_hat, lam_hat),
                "objective": objective(res.w, res.outputs, y_hat, lam_hat),
                "mfn_iter": res.n_iter,
                "converged": res.converged,
            }
        )
        w, o = res.w, res.outputs
        while not (budget is not None and budget.expired()):  # Loop 2: switch, retrain
            before = objective(w, o, y_hat, lam_hat)
            labels_u = y_hat[unl]
            s = switch_labels(o[unl], labels_u, max_switch)
            if s == 0:
                break
            y_hat[unl] = labels_u
            n_switched += s
            switched = objective(w, o, y_hat, lam_hat)
            res = l2svm_mfn(
                X, y_hat, cost, lam, intercept=intercept, w0=w, outputs0=o, **mfn_params
            )
            n_mfn += 1
            w, o = res.w, res.outputs
            seed = w
            log(
                {
                    "lam_u": lam_hat,
                    "switched": s,
                    "objective_before": before,
                    "objective_switched": switched,
                    "objective": objective(w, o, y_hat, lam_hat),
                    "mfn_iter": res.n_iter,
                    "converged": res.converged,
                }
            )
        if last_round:
            break
        lam_hat = anneal_factor * lam_hat
        if lam_hat >= lam_u:
            lam_hat, last_round = lam_u, True
    final = objective(w, o, y_hat, lam_u)
    return TSVMResult(w, o, y_hat, final, n_mfn, n_switched, log.records)
