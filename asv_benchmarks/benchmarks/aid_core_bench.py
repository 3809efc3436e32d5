"""The generic AID loop (``aid_core.run_aid``) on a cheap model, over each kind of data source.

The model is LAD with only an intercept, ``min_beta sum_i |y_i - beta|``: its aggregated
problem (a weighted LAD of cluster means) is solved exactly by a weighted median in
O(K log K), so the timings are the loop's own cost (aggregation, evaluation and
declustering passes over the data) and not a solver's. Its optimum is the median of
``y``, which ``track_objective_gap`` checks against.

Sources: ``array`` (:class:`aid_core.ArraySource`, the whole array as one block, the
in-memory fast path), ``blocks`` (the same array in blocks of 8192 rows, as for a memory
map) and ``chunks`` (:class:`aid_core.ChunkSource` over a chunk iterator, as for a file
read piece by piece; the chunks are views of the in-memory arrays, so this measures the
streaming protocol and not I/O).
"""

import numpy as np

from aid_core import (
    AggregatedSolution,
    AIDProblem,
    ArraySource,
    ChunkSource,
    Evaluation,
    cluster_sums,
    run_aid,
)
from svmcore.clustering import Clusters

from .common import Benchmark, reference_gap

BLOCK_ROWS = 8192
N_FEATURES = 10


class InterceptLAD(AIDProblem):
    """``min_beta sum_i s_i |y_i - beta|`` with ``n_init`` random initial clusters."""

    def __init__(self, n_init=8):
        self.n_init = n_init

    def initial_clusters(self, data, random_state):
        rng = np.random.default_rng(random_state)
        return Clusters(rng.integers(0, self.n_init, data.n_samples))

    def aggregate(self, data, clusters):
        _, y_sum, w_sum = cluster_sums(data, clusters.labels, clusters.n_clusters)
        return y_sum / w_sum, w_sum

    def solve(self, aggregated, context=None, *, attempt=0, previous=None):
        # ``context``: aid-core's SolveContext; the keywords keep older commits benchmarkable
        means, weights = aggregated
        order = np.argsort(means, kind="stable")
        cumulative = np.cumsum(weights[order])
        beta = means[order][np.searchsorted(cumulative, 0.5 * cumulative[-1])]
        return AggregatedSolution(beta, float(weights @ np.abs(means - beta)))

    def evaluate(self, data, clusters, solution):
        residual = data.map_rows(lambda block: block.y - solution.params)
        return Evaluation(float(np.abs(residual).sum()), (residual > 0).astype(np.int8))


def _source(kind, X, y):
    if kind == "array":
        return ArraySource(X, y)
    if kind == "blocks":
        return ArraySource(X, y, block_size=BLOCK_ROWS)

    def chunks():
        for start in range(0, len(y), BLOCK_ROWS):
            yield X[start : start + BLOCK_ROWS], y[start : start + BLOCK_ROWS]

    return ChunkSource(chunks, n_samples=len(y), n_features=X.shape[1])


class AIDLoopSuite(Benchmark):
    """``run_aid(InterceptLAD(), source)`` to the optimum (``gap_tol=0``)."""

    param_names = ["source"]
    params = (["array", "blocks", "chunks"],)

    def setup(self, kind):
        n = self.sized(200_000, 1_000_000, 5_000_000)
        rng = np.random.default_rng(0)
        self.X = rng.standard_normal((n, N_FEATURES))
        self.y = 3.0 + rng.laplace(size=n)
        self.source = _source(kind, self.X, self.y)
        self.labels = rng.integers(0, 1000, n)
        # No Numba code in this path; one small run still loads everything it imports.
        run_aid(InterceptLAD(), _source(kind, self.X[:5000], self.y[:5000]), random_state=0)

    def _run(self):
        return run_aid(InterceptLAD(), self.source, gap_tol=0.0, random_state=0)

    def time_run_aid(self, kind):
        self._run()

    def peakmem_run_aid(self, kind):
        self._run()

    def time_data_passes(self, kind):
        """One iteration's passes over the data: cluster sums and the residual map."""
        cluster_sums(self.source, self.labels, 1000)
        self.source.map_rows(lambda block: block.y - 3.0)

    def track_objective_gap(self, kind):
        result = self._run()
        reference = np.abs(self.y - np.median(self.y)).sum()
        return reference_gap(result.evaluation.objective, reference)

    track_objective_gap.unit = "relative gap"

    def track_n_iter(self, kind):
        return self._run().n_iter

    track_n_iter.unit = "iterations"
