"""A toy AID model: LAD with only an intercept, min_beta sum_i s_i |y_i - beta|.

Its aggregated problem (weighted LAD of cluster means) is solved exactly by a weighted
median, so every proposition of the paper's sec. 3.1 holds exactly and the optimum is a
(weighted) median of y, independently checkable.
"""

import numpy as np

from aid_core import AggregatedSolution, AIDProblem, Evaluation, cluster_sums
from svmcore.clustering import Clusters


def weighted_median(values, weights):
    """A minimizer of sum_k w_k |v_k - beta| (the lower weighted median)."""
    order = np.argsort(values, kind="stable")
    cum = np.cumsum(weights[order])
    return values[order][np.searchsorted(cum, 0.5 * cum[-1])]


class MedianProblem(AIDProblem):
    """The toy model; its "solver" can also misbehave on purpose.

    ``corrupt_attempts``: attempts below it claim a bound above anything feasible.
    ``loose`` / ``loose_attempts``: attempts below it report the exact optimum with a
    valid but loose bound, ``loose`` relative below it (an inexact solver's gap), and
    ``converged`` as that solver's own verdict. ``optimal_solve_gap`` is set as given.
    """

    def __init__(
        self,
        n_init=3,
        *,
        corrupt_attempts=0,
        max_attempts=1,
        loose=0.0,
        loose_attempts=0,
        converged=True,
        optimal_solve_gap=None,
    ):
        self.n_init = n_init
        self.corrupt_attempts = corrupt_attempts
        self.max_attempts = max_attempts
        self.loose = loose
        self.loose_attempts = loose_attempts
        self.converged = converged
        if optimal_solve_gap is not None:
            self.optimal_solve_gap = optimal_solve_gap
        self.solve_calls = []
        self.contexts = []

    def initial_clusters(self, data, random_state):
        rng = np.random.default_rng(random_state)
        return Clusters(rng.permutation(data.n_samples) % self.n_init)

    def aggregate(self, data, clusters):
        _, y_sum, w_sum = cluster_sums(data, clusters.labels, clusters.n_clusters)
        keep = w_sum > 0
        return y_sum[keep] / w_sum[keep], w_sum[keep]

    def solve(self, aggregated, context):
        attempt = context.attempt
        self.solve_calls.append(attempt)
        self.contexts.append(context)
        means, weights = aggregated
        beta = weighted_median(means, weights)
        objective = float(weights @ np.abs(means - beta))
        if attempt < self.corrupt_attempts:
            # An "inexact solver" whose claimed bound is far above anything feasible.
            return AggregatedSolution(beta, objective, lower_bound=1e12, note="bad")
        if attempt < self.loose_attempts:
            bound = objective - self.loose * abs(objective)
            return AggregatedSolution(
                beta, objective, lower_bound=bound, note="loose", converged=self.converged
            )
        return AggregatedSolution(beta, objective, note=f"attempt {attempt}", backend="median")

    def evaluate(self, data, clusters, solution):
        r = data.map_rows(lambda b: b.y - solution.params)
        w = data.weights()
        key = (r > 0).astype(np.int8)
        return Evaluation(float(w @ np.abs(r)), key, extra={"beta": solution.params})
