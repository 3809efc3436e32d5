"""The AID problem of the semi-supervised SVM (Park & Klabjan 2016, sec. 3.3 and 4.3).

Initial clusters, aggregation, the aggregated MIQP (``_s3vm_miqp.py``), the objective on
the full data and Prop 5's declustering (``_s3vm_split.py``). The estimator is
:class:`aid_models.AIDS3VMClassifier` (``_s3vm.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from aid_core import AggregatedSolution, AIDProblem, ClusterSums, Evaluation
from svmcore.clustering import Clusters, kmeans_one_iteration

from ._s3vm_miqp import solve_aggregated_miqp
from ._s3vm_qp import solve_weighted_svm
from ._s3vm_split import optimality_key, prop5_violated, s3vm_decluster_key

__all__ = ["class_costs", "s3vm_objective"]


def class_costs(y_signed, M_l, balance):
    """Per-class labeled penalties ``(cost of -1, cost of +1)``; sec. 4.3's balance cost.

    With ``balance="cost"`` the minority class's ``M_l`` is multiplied by the class-size
    ratio (the majority keeps ``M_l``), as the paper's stated intent says.
    """
    n_neg = int(np.count_nonzero(y_signed < 0))
    n_pos = int(np.count_nonzero(y_signed > 0))
    if balance != "cost":
        return M_l, M_l
    return M_l * max(1.0, n_pos / n_neg), M_l * max(1.0, n_neg / n_pos)


def s3vm_objective(scores, w, y_signed, M_l, M_u, costs=None):
    """Objective (12)/(16) at ``(w, b)`` with Lemma 1 labels: the E^t of AID.

    Parameters
    ----------
    scores : ndarray of shape (n,)
        ``w x_i + b``.
    w : ndarray of shape (m,)
    y_signed : ndarray of shape (n,) in {-1, 0, +1}
        0 marks an unlabeled sample.
    M_l, M_u : float
    costs : tuple (cost of -1, cost of +1) or None
        Labeled penalties per class (balance cost); ``(M_l, M_l)`` when None.
    """
    c_neg, c_pos = (M_l, M_l) if costs is None else costs
    unl = y_signed == 0
    margin = np.where(unl, np.abs(scores), y_signed * scores)
    loss = np.maximum(0.0, 1.0 - margin)
    weight = np.where(unl, M_u, np.where(y_signed > 0, c_pos, c_neg))
    return float(0.5 * w @ w + weight @ loss)


@dataclass
class _S3VMEvaluation(Evaluation):
    """E^t plus the clusters violating Prop 5 and the Step 2/3 key that splits them."""

    violated: np.ndarray | None = None
    split_key: np.ndarray | None = None


class _S3VMProblem(AIDProblem):
    """S3VM (13) as an :class:`aid_core.AIDProblem`: three cluster groups, MIQP (15)."""

    def __init__(self, est, y_signed, deadline, clock):
        self.est = est
        self.y_signed = y_signed
        self.deadline = deadline
        self.clock = clock
        self.costs = class_costs(y_signed, est.M_l, est.balance)
        self.balance = None
        self.incumbent = None
        self.labeled_bound = None
        self.sums = ClusterSums()  # the contract's one cache: the last partition's sums

    def initial_clusters(self, data, random_state):
        rng = np.random.default_rng(random_state)
        y = self.y_signed
        labels = np.empty(data.n_samples, dtype=np.int64)
        offset = 0
        x_bar = None
        # Sec. 3.3: labeled positive, labeled negative and unlabeled are clustered apart,
        # each by one k-means iteration on the original rows (sec. 4).
        for labeled, mask in ((True, y > 0), (True, y < 0), (False, y == 0)):
            group = np.flatnonzero(mask)
            if group.size == 0:
                continue
            if labeled and not self.est.aggregate_labeled:
                labels[group] = offset + np.arange(group.size)
                offset += group.size
                continue
            k = int(
                min(
                    group.size,
                    max(
                        self.est.min_initial_clusters,
                        math.ceil(self.est.initial_aggregation_rate * group.size),
                    ),
                )
            )
            X_group = data.take(group).X
            labels[group] = offset + kmeans_one_iteration(X_group, k, random_state=rng)
            offset = labels[group].max() + 1
            if not labeled:
                # The balance row's mean of the unlabeled rows, from the copy at hand: a
                # second take() of (nearly) every row held two more copies of X at the
                # peak (3.8x the size of X in all, issue 19).
                x_bar = np.asarray(X_group, dtype=np.float64).mean(axis=0)
            del X_group
        if self.est.balance == "constraint" and x_bar is not None:
            self.balance = (x_bar, float(y[y != 0].mean()))
        # A certified lower bound on E^*: the unlabeled terms are >= 0, so the labeled-only
        # SVM (with the same balance constraint) is a relaxation of (12), and the dual
        # objective of its solve bounds that relaxation's optimum from below.
        lab = np.flatnonzero(y != 0)
        block = data.take(lab)
        cost = np.where(y[lab] > 0, self.costs[1], self.costs[0])
        sol = solve_weighted_svm(
            np.asarray(block.X, dtype=np.float64), y[lab], cost, balance=self.balance
        )
        self.labeled_bound = sol.dual_bound
        self.incumbent = (sol.w, sol.b)  # the contract's pilot solution: read-only after this
        return Clusters(labels)

    def aggregate(self, data, clusters):
        X_sum, y_sum, size = self.sums(data, clusters)
        X_mean = np.asarray(X_sum, dtype=np.float64) / size[:, None]
        # Clusters never mix groups, so the mean label is exactly -1, 0 (unlabeled) or +1.
        sign = np.rint(y_sum / size).astype(np.int8)
        return X_mean, sign, size

    def solve(self, aggregated, context):
        X, sign, size = aggregated
        est, previous = self.est, context.previous
        lab, unl = sign != 0, sign == 0
        cost_l = np.where(sign[lab] > 0, self.costs[1], self.costs[0]) * size[lab]
        cost_u = est.M_u * size[unl]
        incumbents = [self.incumbent, (np.zeros(X.shape[1]), self._zero_bias())]
        if previous is not None:
            incumbents.append((previous.params["w"], previous.params["b"]))
        limit = est.time_limit_per_solve
        if self.deadline is not None:
            remaining = self.deadline - self.clock()
            limit = remaining if limit is None else min(limit, remaining)
        res = solve_aggregated_miqp(
            X[lab],
            sign[lab],
            cost_l,
            X[unl],
            cost_u,
            balance=self.balance,
            incumbents=incumbents,
            time_limit=limit,
            mip_gap=est.mip_gap,
        )
        # Step 3 uses each unlabeled cluster's aggregated label d_k (Lemma 1 on the
        # aggregated entry; SCIP's own d_k at any optimum of (15) except at ties s_k = 0).
        d = np.zeros(sign.size, dtype=np.int8)
        d[unl] = res.d
        note = (
            f"SCIP {res.status}, mip gap {res.mip_gap:.1e}, {res.n_nodes} nodes, "
            f"{int(unl.sum())} binaries, M {res.big_M:.3g}"
            + ("" if res.polished else ", SCIP point kept (polishing QP failed)")
        )
        return AggregatedSolution(
            {"w": res.w, "b": res.b, "d": d, "miqp": res},
            res.objective,
            lower_bound=self.labeled_bound,
            note=note,
            backend="scip",
            converged=res.proven_optimal,
        )

    def _zero_bias(self):
        # w = 0 satisfies the balance constraint only with b equal to its right-hand side.
        return 0.0 if self.balance is None else self.balance[1]

    def evaluate(self, data, clusters, solution):
        w, b = solution.params["w"], solution.params["b"]
        scores = data.map_rows(lambda block: np.asarray(block.X @ w, dtype=np.float64) + b)
        y = self.y_signed
        objective = s3vm_objective(scores, w, y, self.est.M_l, self.est.M_u, self.costs)
        lab = y != 0
        res = solution.params["miqp"]
        return _S3VMEvaluation(
            objective=objective,
            key=optimality_key(scores, y),
            score=float(np.mean(np.where(scores[lab] > 0, 1, -1) == y[lab])),
            extra={
                "mip_gap": res.mip_gap,
                "mip_status": res.status,
                "mip_proven": res.proven_optimal,
                "mip_nodes": res.n_nodes,
                "mip_time": res.solve_time,
                "big_M": float(res.big_M),
            },
            violated=prop5_violated(scores, y, clusters.labels, clusters.n_clusters),
            split_key=s3vm_decluster_key(scores, y, clusters.labels, solution.params["d"]),
        )

    def decluster(self, clusters, evaluation):
        # Prop 5 decides which clusters violate the condition (Lemma 1 labels); Steps 2(b)
        # and 3(a) split them (cluster labels d_k). With d_k from Lemma 1 on the aggregated
        # entry, every violating cluster has two members with different Step 3 keys.
        bad = evaluation.violated
        if bad.size == 0:
            return clusters, 0
        new, _ = clusters.split(evaluation.split_key, clusters=bad)
        return new, int(bad.size)
