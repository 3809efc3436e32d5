import gc
import math
import sys
import weakref

import numpy as np
import pytest
from _aid_toy import MedianProblem, weighted_median

from aid_core import (
    COLUMNS,
    AggregatedSolution,
    AIDHistory,
    ArraySource,
    CertificateWarning,
    ChunkSource,
    Evaluation,
    as_data_source,
    relative_gap,
    run_aid,
    violated_clusters,
)
from svmcore.clustering import Clusters
from svmcore.reporting import History, parse_table


def _data(n=301, seed=0, weights=False):
    rng = np.random.default_rng(seed)
    y = rng.standard_t(3, size=n)
    X = np.ones((n, 1))
    w = rng.integers(1, 4, size=n).astype(float) if weights else None
    return X, y, w


def _lad_objective(y, beta, w=None):
    w = np.ones_like(y) if w is None else w
    return float(w @ np.abs(y - beta))


@pytest.mark.parametrize("weights", [False, True])
def test_optimal_stop_proves_the_median(weights):
    X, y, w = _data(weights=weights)
    res = run_aid(MedianProblem(), as_data_source(X, y, w), gap_tol=0.0, random_state=0)
    assert res.stop_reason == "optimal"
    h = res.history
    # Prop 1: at termination E^T = F^T, and it is the global optimum of the original problem.
    assert h[-1]["E"] == pytest.approx(h[-1]["F"], rel=1e-12)
    ww = np.ones_like(y) if w is None else w
    grid = np.sort(y)
    best = min(_lad_objective(y, b, ww) for b in grid)
    assert res.evaluation.objective == pytest.approx(best, rel=1e-12)
    assert res.gap <= 1e-12
    # Prop 2: F^t non-decreasing, F^t <= E^* <= E_best <= E^t at every t.
    F = h.column("F")
    assert np.all(np.diff(F) >= -1e-9 * abs(F[-1]))
    assert np.all(F <= best * (1 + 1e-12))
    assert np.all(h.column("E_best") >= best * (1 - 1e-12))
    assert np.all(h.column("E") >= h.column("E_best"))
    assert np.all(np.diff(h.column("gap")) <= 1e-12)
    assert res.n_iter == len(h) and h[-1]["n_split"] == 0


def test_history_has_table_10_columns():
    X, y, _ = _data()
    res = run_aid(MedianProblem(), as_data_source(X, y), gap_tol=0.0, random_state=1)
    for rec in res.history:
        assert set(COLUMNS) <= set(rec)
    h = res.history
    assert isinstance(h, AIDHistory) and isinstance(h, History)
    assert list(h.column("t")) == list(range(len(h)))
    np.testing.assert_allclose(h.column("r"), h.column("n_clusters") / len(y))
    assert np.all(np.diff(h.column("cum_time")) >= 0)
    assert np.all(h.column("iter_time") >= 0)
    assert np.isnan(h.column("train_rate")).all()  # the toy has no accuracy
    assert "beta" in h[0]  # model extras are kept
    # Each iteration splits exactly the violating clusters: K^{t+1} = K^t + n_split (2-way).
    K = h.column("n_clusters")
    np.testing.assert_array_equal(K[1:], K[:-1] + h.column("n_split")[:-1])
    assert len(h.to_table().splitlines()) == len(h) + 1
    with pytest.raises(KeyError, match="Unknown column"):
        h.column("nope")
    # the solver's fields are structured columns, not text to parse
    assert list(h.column("backend")) == ["median"] * len(h)
    np.testing.assert_array_equal(h.column("solver_gap"), 0.0)


def test_solve_context_carries_the_state_of_the_run():
    X, y, _ = _data(seed=4)
    prob = MedianProblem()
    res = run_aid(prob, as_data_source(X, y), gap_tol=1e-12, random_state=3)
    h = res.history
    assert len(prob.contexts) == len(h) >= 3
    first = prob.contexts[0]
    assert first.iteration == 0 and first.attempt == 0 and first.previous is None
    assert first.e_best == math.inf and first.lower_bound == -math.inf
    assert first.outer_gap == math.inf and first.gap_tol == 1e-12
    for t, ctx in enumerate(prob.contexts[1:], start=1):
        assert ctx.iteration == t
        assert ctx.e_best == h[t - 1]["E_best"]  # the run's E_best before this solve
        assert ctx.lower_bound == h[t - 1]["lower_bound"]
        assert ctx.previous.objective == h[t - 1]["F"]
        assert ctx.outer_gap == pytest.approx((ctx.e_best - ctx.previous.bound) / abs(ctx.e_best))


class _LegacyProblem(MedianProblem):
    """A problem written for the keyword signature of aid-core <= 0.1.0.dev0."""

    def solve(self, aggregated, *, attempt=0, previous=None):
        self.solve_calls.append((attempt, previous))
        means, weights = aggregated
        beta = weighted_median(means, weights)
        return AggregatedSolution(beta, float(weights @ np.abs(means - beta)))


def test_legacy_solve_signature_still_runs_with_a_future_warning():
    X, y, _ = _data(seed=5)
    new = run_aid(MedianProblem(), as_data_source(X, y), gap_tol=0.0, random_state=2)
    legacy = _LegacyProblem()
    with pytest.warns(FutureWarning, match="SolveContext"):
        old = run_aid(legacy, as_data_source(X, y), gap_tol=0.0, random_state=2)
    assert old.solution.params == new.solution.params
    assert legacy.solve_calls[0] == (0, None)
    assert legacy.solve_calls[1][1] is not None  # the previous solution is passed on


def test_gap_stop():
    X, y, _ = _data(n=2000, seed=3)
    res = run_aid(MedianProblem(n_init=2), as_data_source(X, y), gap_tol=0.5, random_state=0)
    full = run_aid(MedianProblem(n_init=2), as_data_source(X, y), gap_tol=0.0, random_state=0)
    assert full.n_iter > 1
    if res.stop_reason == "gap":
        assert res.gap <= 0.5 and res.history[-1]["n_split"] > 0
        assert res.n_iter < full.n_iter
    else:  # the first gap already below 0.5 would also be optimal
        assert res.stop_reason == "optimal"


def test_max_iter_stop_returns_best_so_far():
    X, y, _ = _data(n=1000, seed=4)
    res = run_aid(MedianProblem(), as_data_source(X, y), gap_tol=0.0, max_iter=1, random_state=0)
    assert res.stop_reason == "max_iter" and res.n_iter == 1
    assert res.evaluation.objective == res.history[0]["E_best"]
    assert res.history[0]["n_split"] > 0


def test_callback_can_stop_and_sees_the_record():
    X, y, _ = _data(n=1000, seed=5)
    seen = []

    def cb(info):
        seen.append(info)
        return info["t"] == 1

    res = run_aid(MedianProblem(), as_data_source(X, y), gap_tol=0.0, callback=cb, random_state=0)
    assert res.stop_reason == "callback" and res.n_iter == 2
    assert {"solution", "evaluation", "clusters", "E", "F", "gap"} <= set(seen[0])
    # the partition that was aggregated at t: its size is the record's n_clusters, and
    # the next one refines it (every cluster of t + 1 lies inside one cluster of t)
    first, second = seen[0]["clusters"], seen[1]["clusters"]
    assert first.n_clusters == seen[0]["n_clusters"] < second.n_clusters == seen[1]["n_clusters"]
    pairs = np.unique(np.column_stack([second.labels, first.labels]), axis=0)
    assert np.unique(pairs[:, 0]).size == pairs.shape[0]


def test_time_limit_stop():
    X, y, _ = _data(n=1000, seed=6)
    res = run_aid(
        MedianProblem(), as_data_source(X, y), gap_tol=0.0, time_limit=1e-12, random_state=0
    )
    assert res.stop_reason == "time_limit" and res.n_iter == 1


def test_time_limit_reads_the_given_clock():
    # One second per reading: 0 and 1 around the initial clustering, 2 the loop's start,
    # then two per iteration (its start and end), so iteration t ends 2(t + 2) s after the
    # run's start (the limit counts the initial clustering, issue 19) and the limit of
    # 5.5 s stops the run after the second one.
    ticks = iter(range(100))
    X, y, _ = _data(n=1000, seed=6)
    res = run_aid(
        MedianProblem(),
        as_data_source(X, y),
        gap_tol=0.0,
        time_limit=5.5,
        random_state=0,
        clock=lambda: float(next(ticks)),
    )
    assert res.stop_reason == "time_limit" and res.n_iter == 2
    assert res.init_time == 1.0
    assert [rec["iter_time"] for rec in res.history] == [1.0, 1.0]
    assert [rec["cum_time"] for rec in res.history] == [2.0, 4.0]


def test_streaming_sources_equal_in_memory(tmp_path):
    X, y, w = _data(n=503, seed=7, weights=True)
    ref = run_aid(MedianProblem(), as_data_source(X, y, w), gap_tol=0.0, random_state=2)

    path = tmp_path / "X.dat"
    mm = np.memmap(path, dtype=np.float64, mode="w+", shape=X.shape)
    mm[:] = X
    mm.flush()
    mm = np.memmap(path, dtype=np.float64, mode="r", shape=X.shape)

    def chunks():
        for s in range(0, len(y), 50):
            yield X[s : s + 50], y[s : s + 50], w[s : s + 50]

    sources = [
        ArraySource(X, y, w, block_size=17),
        as_data_source(mm, y, w),
        ChunkSource(chunks),
        ChunkSource(chunks, n_samples=len(y), n_features=1),
    ]
    for src in sources:
        res = run_aid(MedianProblem(), src, gap_tol=0.0, random_state=2)
        assert res.stop_reason == ref.stop_reason and res.n_iter == ref.n_iter
        np.testing.assert_allclose(res.history.column("F"), ref.history.column("F"), rtol=1e-12)
        np.testing.assert_allclose(res.history.column("E"), ref.history.column("E"), rtol=1e-12)
        np.testing.assert_array_equal(res.clusters.labels, ref.clusters.labels)
        np.testing.assert_array_equal(src.weights(), w)
    np.testing.assert_array_equal(ArraySource(X, y, block_size=10).weights(), np.ones(len(y)))


def test_certificate_violation_is_retried_then_warned():
    X, y, _ = _data(n=400, seed=8)
    prob = MedianProblem(corrupt_attempts=1, max_attempts=2)
    res = run_aid(prob, as_data_source(X, y), gap_tol=0.0, random_state=0)
    # A zero gap proves optimality too, even when some cluster still mixes signs.
    assert res.stop_reason in ("optimal", "gap") and res.gap <= 1e-12
    assert "certificate" in res.history[0]["note"] and 1 in prob.solve_calls
    assert res.history[-1]["lower_bound"] < 1e12

    with pytest.warns(CertificateWarning, match="certificate violated"):
        run_aid(
            MedianProblem(corrupt_attempts=1, max_attempts=1),
            as_data_source(X, y),
            gap_tol=0.0,
            max_iter=2,
            random_state=0,
        )


def test_verbose_prints_one_line_per_iteration(capsys):
    X, y, _ = _data(n=300, seed=9)
    res = run_aid(MedianProblem(), as_data_source(X, y), gap_tol=0.0, verbose=1, random_state=0)
    text = capsys.readouterr().out
    out = text.splitlines()
    assert len(out) == res.n_iter + 2  # header, one per iteration, final remark
    assert out[-1].startswith("# AID stopped: optimal")
    # the printed table is the history's, and reads back one row per iteration
    assert "\n".join(out[:-1]) == res.history.to_table()
    rows = parse_table(text)
    assert len(rows) == res.n_iter
    assert [int(row["t"]) for row in rows] == list(range(res.n_iter))
    assert [int(row["split"]) for row in rows] == list(res.history.column("n_split"))
    np.testing.assert_allclose(
        [float(row["E^t"]) for row in rows], res.history.column("E"), rtol=1e-7
    )


def test_progress_bar_with_and_without_tqdm(monkeypatch):
    pytest.importorskip("tqdm")
    X, y, _ = _data(n=300, seed=10)
    # seeded: an unseeded run may close its gap to exactly 0 one split before the
    # optimality condition holds, and then stops with "gap" (a valid stop at gap_tol=0)
    res = run_aid(MedianProblem(), as_data_source(X, y), gap_tol=0.0, progress=True, random_state=0)
    assert res.stop_reason == "optimal"
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    with pytest.warns(UserWarning, match="needs tqdm"):
        run_aid(MedianProblem(), as_data_source(X, y), gap_tol=0.0, progress=True)


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        ({"gap_tol": -1.0}, ValueError, "gap_tol"),
        ({"max_iter": 0}, ValueError, "max_iter"),
        ({"max_unsolved": 0}, ValueError, "max_unsolved"),
        ({"time_limit": 0.0}, ValueError, "time_limit"),
        ({"verbose": -1}, ValueError, "verbose"),
        ({"callback": 3}, TypeError, "callback"),
    ],
)
def test_bad_arguments(kwargs, exc, match):
    X, y, _ = _data(n=50)
    with pytest.raises(exc, match=match):
        run_aid(MedianProblem(), as_data_source(X, y), **kwargs)


def test_bad_problem_and_data():
    X, y, _ = _data(n=50)
    with pytest.raises(TypeError, match="AIDProblem"):
        run_aid(object(), as_data_source(X, y))
    with pytest.raises(TypeError, match="DataSource"):
        run_aid(MedianProblem(), X)


def test_relative_gap():
    assert relative_gap(10.0, 9.0) == pytest.approx(0.1)
    assert relative_gap(0.0, 0.0) == 0.0
    assert relative_gap(10.0, 11.0) == 0.0
    assert math.isinf(relative_gap(0.0, -1.0))


def test_violated_clusters_ignores_free_samples():
    labels = np.array([0, 0, 0, 1, 1, 2, 2])
    key = np.array([1, 1, 0, 0, 1, 0, 0])
    free = np.array([False, False, True, False, False, False, False])
    # Cluster 0 mixes keys only through a free sample; cluster 1 really mixes.
    ev = Evaluation(0.0, key, free=free)
    np.testing.assert_array_equal(violated_clusters(labels, 3, ev), [1])
    np.testing.assert_array_equal(violated_clusters(labels, 3, Evaluation(0.0, key)), [0, 1])
    new, n_split = MedianProblem().decluster(Clusters(labels), ev)
    assert n_split == 1 and new.n_clusters == 4
    assert new.labels[3] != new.labels[4] and new.labels[0] == new.labels[2]


def test_uncertified_optimality_condition_stalls_and_returns_the_best():
    X, y, _ = _data(n=300, seed=12)
    prob = MedianProblem(corrupt_attempts=10**6, max_attempts=1)  # every bound is bogus
    with pytest.warns(CertificateWarning):
        res = run_aid(prob, as_data_source(X, y), gap_tol=0.0, max_unsolved=100, random_state=0)
    assert res.stop_reason == "stalled"
    assert res.history[-1]["n_split"] == 0
    assert res.evaluation.objective == min(res.history.column("E"))


def _median_objective(y):
    return min(_lad_objective(y, b) for b in y)


def test_optimal_needs_the_gap_within_gap_tol_so_a_loose_solve_is_re_solved():
    # issue 19: the optimality condition held on an aggregated solve whose own gap (5e-3)
    # was within optimal_solve_gap (1e-2) but above gap_tol, and the run said "optimal"
    # (converged) at a certified gap of 5e-3. Now the partition is solved again from
    # attempt 1 (here exact), and the stop is "optimal" within gap_tol.
    X, y, _ = _data(n=300, seed=13)
    prob = MedianProblem(loose=5e-3, loose_attempts=1, max_attempts=2, optimal_solve_gap=1e-2)
    res = run_aid(prob, as_data_source(X, y), gap_tol=1e-3, random_state=0)
    assert res.stop_reason == "optimal" and res.gap <= 1e-3
    h = res.history
    assert h[-2]["n_split"] == 0 and h[-2]["solver_gap"] == pytest.approx(5e-3)
    assert h[-1]["n_split"] == 0 and "re-solved" in h[-1]["note"]
    assert h[-1]["n_clusters"] == h[-2]["n_clusters"]  # the same partition, once more
    assert [c.attempt for c in prob.contexts[-1:]] == [1]
    assert res.evaluation.objective == pytest.approx(_median_objective(y), rel=1e-12)


def test_a_re_solve_that_stays_loose_stalls_instead_of_claiming_optimal():
    X, y, _ = _data(n=300, seed=13)
    src = as_data_source(X, y)
    loose = {"loose": 5e-3, "loose_attempts": 10**6, "optimal_solve_gap": 1e-2}
    res = run_aid(MedianProblem(max_attempts=2, **loose), src, gap_tol=1e-3, random_state=0)
    assert res.stop_reason == "stalled" and res.gap > 1e-3
    assert res.history[-1]["n_split"] == 0 and "re-solved" in res.history[-1]["note"]
    # gap_tol = 0 leaves the optimality condition alone (a solve within optimal_solve_gap)
    res = run_aid(MedianProblem(**loose), src, gap_tol=0.0, random_state=0)
    assert res.stop_reason == "optimal" and res.gap == pytest.approx(5e-3)


def test_consecutive_failed_solves_stop_the_run_as_unsolved():
    # issue 19: AIDSVC on features of 1e10 ran 25 iterations (650 s at 2,000 rows) whose
    # aggregated solves all failed. A solver that gives up (converged=False) above the
    # trusted gap, or a certificate violated after every attempt, is a failure; after
    # max_unsolved of them in a row the run stops with the best solution.
    X, y, _ = _data(n=2000, seed=14)
    src = as_data_source(X, y)
    rough = {"loose": 0.5, "loose_attempts": 10**6, "optimal_solve_gap": 1e-2}
    res = run_aid(MedianProblem(converged=False, **rough), src, gap_tol=1e-3, random_state=0)
    assert res.stop_reason == "unsolved" and res.n_iter == 3
    assert res.evaluation.objective == min(res.history.column("E"))
    # The same gaps from a solver that met its own (rough) rule are no failure.
    res = run_aid(MedianProblem(**rough), src, gap_tol=1e-3, random_state=0)
    assert res.stop_reason == "stalled" and res.n_iter > 3
    with pytest.warns(CertificateWarning):
        res = run_aid(
            MedianProblem(corrupt_attempts=10**6), src, gap_tol=0.0, max_unsolved=2, random_state=0
        )
    assert res.stop_reason == "unsolved" and res.n_iter == 2


def test_certificate_tolerance_is_scaled_by_the_objective():
    from aid_core._loop import _certificate_problem

    # Rounding-size decrease of the bound relative to E^t: not a violation.
    assert _certificate_problem(-1e-9, 100.0, 0.0, 1e-7) is None
    # A real decrease is flagged, and so is a bound above E^t.
    assert "decreased below" in _certificate_problem(-1.0, 100.0, 0.0, 1e-7)
    assert "exceeds E^t" in _certificate_problem(101.0, 100.0, 0.0, 1e-7)


class _KeyWatcher(MedianProblem):
    """The toy model, noting at each aggregation how many evaluations' keys and
    aggregated problems are alive."""

    def __init__(self):
        super().__init__()
        self.keys, self.alive = [], []
        self.problems, self.problems_alive = [], []

    def aggregate(self, data, clusters):
        gc.collect()
        self.alive.append(sum(ref() is not None for ref in self.keys))
        self.problems_alive.append(sum(ref() is not None for ref in self.problems))
        aggregated = super().aggregate(data, clusters)
        self.problems.extend(weakref.ref(part) for part in aggregated if part is not None)
        return aggregated

    def evaluate(self, data, clusters, solution):
        evaluation = super().evaluate(data, clusters, solution)
        self.keys.append(weakref.ref(evaluation.key))
        return evaluation


def test_the_loop_lets_go_of_each_evaluations_key_and_aggregated_problem_when_done():
    # On Dask the key and free are codes persisted on the workers: held through the next
    # aggregation (by the best iterate or the loop) they took a byte a row of its memory.
    X, y, _ = _data(n=2001)
    problem = _KeyWatcher()
    res = run_aid(problem, as_data_source(X, y), gap_tol=0.0, random_state=0)
    assert res.stop_reason == "optimal" and res.n_iter >= 3
    assert problem.alive == [0] * res.n_iter
    # Nor is the last aggregated problem held while the next one is made (on sparse
    # data it is the size of X late in a fit).
    assert problem.problems_alive == [0] * res.n_iter
    assert res.evaluation.key is None and res.evaluation.free is None
    assert res.evaluation.objective == min(res.history.column("E"))
