"""Algorithm 1 of Park & Klabjan: Aggregate and Iterative Disaggregate, written once."""

from __future__ import annotations

import dataclasses
import inspect
import math
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from numbers import Integral

import numpy as np

from svmcore.reporting import TablePrinter
from svmcore.typing import RandomStateLike
from svmcore.validation import check_positive_int, check_real

from ._data import DataSource
from ._history import TABLE, AIDHistory
from ._protocol import AggregatedSolution, AIDProblem, Evaluation, SolveContext

__all__ = ["STOP_REASONS", "AIDResult", "CertificateWarning", "relative_gap", "run_aid"]

#: Why a run stopped: the optimality condition held (``optimal``, Props 1/3), the
#: relative gap reached ``gap_tol`` (``gap``), a budget ran out / the callback asked, the
#: condition held for an aggregated solution that failed its certificate or was not
#: solved to optimality, or whose gap stayed above ``gap_tol`` when the partition was
#: solved again (``stalled``), or the aggregated solves failed on ``max_unsolved``
#: consecutive iterations (``unsolved``). Not ``optimal`` or ``gap``: the solution with
#: E_best is returned; see ``optimal_solve_gap`` and ``max_unsolved`` in :func:`run_aid`.
STOP_REASONS = ("optimal", "gap", "max_iter", "time_limit", "callback", "stalled", "unsolved")


class CertificateWarning(RuntimeWarning):
    """The aggregated solver's bound contradicts AID's theory after every allowed retry.

    Props 2/4 say F^t <= E^* <= E^t and F^t is non-decreasing; a violation beyond
    round-off means the aggregated problem was not solved to optimality.
    """


@dataclass
class AIDResult:
    """Outcome of :func:`run_aid`.

    Parameters
    ----------
    solution : AggregatedSolution
        At ``stop_reason == "optimal"`` the final, provably optimal solution; otherwise
        the solution with the smallest E^t seen (E_best).
    evaluation : Evaluation
        ``solution`` evaluated on the original data: E^t, score and extras; its per-row
        ``key`` and ``free`` are None (they served that iteration's split, and the run
        lets go of them once it is done: see :func:`run_aid`).
    clusters : object
        The clusters ``solution`` was computed on.
    history : AIDHistory
        One record per iteration.
    stop_reason : str
        One of :data:`STOP_REASONS`.
    n_iter : int
        Number of aggregated problems solved.
    lower_bound : float
        The largest certified lower bound on E^* seen.
    gap : float
        Final relative gap (E_best - lower_bound) / E_best.
    init_time : float
        Seconds spent on the initial clustering.
    """

    solution: AggregatedSolution
    evaluation: Evaluation
    clusters: object
    history: AIDHistory
    stop_reason: str
    n_iter: int
    lower_bound: float
    gap: float
    init_time: float


def relative_gap(upper: float, lower: float) -> float:
    """Return ``(upper - lower) / upper``, with 0/0 read as 0 (an exact fit) and clipped at 0.

    Parameters
    ----------
    upper : float
        An upper bound on the optimum (E_best).
    lower : float
        A lower bound on the optimum.

    Returns
    -------
    gap : float
        The relative gap, >= 0; inf when ``upper <= 0`` and ``lower < upper``.
    """
    if upper <= 0.0:
        return 0.0 if upper - lower <= 0.0 else math.inf
    return max(upper - lower, 0.0) / upper


def run_aid(
    problem: AIDProblem,
    data: DataSource,
    *,
    gap_tol: float = 1e-3,
    max_iter: int = 100,
    time_limit: float | None = None,
    certificate_rtol: float = 1e-7,
    max_unsolved: int = 3,
    verbose: int = 0,
    progress: bool = False,
    callback: Callable[[dict], bool | None] | None = None,
    random_state: RandomStateLike = None,
    clock: Callable[[], float] = time.perf_counter,
) -> AIDResult:
    """Run AID (Algorithm 1) on ``problem`` over ``data``.

    Parameters
    ----------
    problem : AIDProblem
        The model: initial clusters, aggregation, aggregated solver, evaluation,
        declustering.
    data : DataSource
        The original data (see :func:`aid_core.as_data_source`).
    gap_tol : float, default=1e-3
        Stop when (E_best - F^t) / E_best <= gap_tol (0 disables this rule, leaving the
        optimality condition). F^t is replaced by the solver's certified lower bound
        when it reports one.
    max_iter : int, default=100
        Maximum number of aggregated problems solved.
    time_limit : float or None, default=None
        Wall-clock budget in seconds for the run, the initial clustering included,
        checked after each iteration (an aggregated solve in progress is not
        interrupted).
    certificate_rtol : float, default=1e-7
        Relative round-off allowed when checking F^t <= E^t and F^t >= F^{t-1}; a larger
        violation triggers a re-solve (``problem.max_attempts``) and then a
        :class:`CertificateWarning`. A problem may also set ``optimal_solve_gap``: the
        largest relative gap of an aggregated solve (at least ``gap_tol``) at which the
        optimality condition is taken to hold; a run whose clusters no longer split but
        whose last solve was less accurate stops as ``"stalled"``, not ``"optimal"``.
        For such a problem (inexact aggregated solves) ``"optimal"`` also needs the
        run's gap within ``gap_tol`` (when ``gap_tol > 0``): if the optimality condition
        holds at a larger gap, the same partition is solved again from ``attempt=1``
        (the problem tightens its solve), and if the gap is still above ``gap_tol`` the
        run stops as ``"stalled"``.
    max_unsolved : int, default=3
        Stop (``"unsolved"``) after this many consecutive iterations whose aggregated
        solve failed: its certificate was violated after every attempt, or its solver
        gave up (``AggregatedSolution.converged`` False) above the gap the problem
        trusts (``optimal_solve_gap``; without one, only certificate failures count).
        Such solves prove nothing, and on badly scaled data each can cost minutes
        (AIDSVC on features of 1e10: 25 iterations of failed solves, 650 s at 2,000 rows).
    verbose : int, default=0
        > 0 prints the table header and one line per iteration as it ends (the
        layout of :meth:`AIDHistory.to_table`), then a ``#`` remark with the stop reason.
    progress : bool, default=False
        Show a tqdm progress bar (needs ``tqdm``; without it a warning is issued).
    callback : callable or None, default=None
        Called after every iteration with the history record (plus ``"solution"``,
        ``"evaluation"`` and ``"clusters"``, the partition that was aggregated); returning
        ``True`` stops the run (``stop_reason="callback"``).
    random_state : int, RandomState instance or None
        Passed to ``problem.initial_clusters``.
    clock : callable, default=time.perf_counter
        Seconds as a float, read for ``time_limit``, ``init_time`` and the history's
        times; tests pass a deterministic clock.

    Returns
    -------
    AIDResult
        The returned solution, its evaluation, the history and why the loop stopped.
    """
    if not isinstance(problem, AIDProblem):
        raise TypeError(f"problem must implement aid_core.AIDProblem; got {type(problem)!r}.")
    if not isinstance(data, DataSource):
        raise TypeError(f"data must be an aid_core.DataSource; got {type(data).__name__}.")
    check_real(gap_tol, "gap_tol", low=0.0)
    check_real(certificate_rtol, "certificate_rtol", low=0.0)
    check_positive_int(max_iter, "max_iter")
    check_positive_int(max_unsolved, "max_unsolved")
    if time_limit is not None:
        check_real(time_limit, "time_limit", low=0.0, low_closed=False)
    if not isinstance(verbose, Integral | bool) or verbose < 0:
        raise ValueError(f"verbose must be a non-negative integer; got {verbose!r}.")
    if callback is not None and not callable(callback):
        raise TypeError(f"callback must be callable or None; got {type(callback).__name__}.")

    solve = _solver_of(problem)
    solved = _optimality_test(problem, gap_tol)
    # Inexact aggregated solves: "optimal" needs the run's gap within gap_tol too.
    strict = getattr(problem, "optimal_solve_gap", None) is not None and gap_tol > 0
    bar = _progress_bar(max_iter) if progress else None
    n = data.n_samples
    start = clock()
    clusters = problem.initial_clusters(data, random_state)
    init_time = clock() - start
    loop_start = clock()

    history = AIDHistory()
    lower = -math.inf
    e_best = gap = math.inf
    best = None
    previous = None
    stop_reason = None
    unsolved = 0  # consecutive iterations whose aggregated solve failed
    resolve = False  # solve the unchanged partition again, tighter (from attempt 1)
    show = TablePrinter(TABLE, enabled=bool(verbose))
    try:
        for t in range(max_iter):
            t0 = clock()
            aggregated = problem.aggregate(data, clusters)
            context = SolveContext(
                iteration=t,
                attempt=int(resolve),
                previous=previous,
                e_best=e_best,
                lower_bound=lower,
                gap_tol=gap_tol,
            )
            solution, evaluation, note, certified = _solve_certified(
                problem, solve, data, clusters, aggregated, context, certificate_rtol
            )
            if resolve:
                note = f"re-solved (optimality condition at gap {gap:.1e} > gap_tol); {note}"
            trusted = certified and solved(solution)
            # Failed: a bound that contradicts the theory, or a solver that gave up
            # (converged=False) short of the gap the problem trusts. A rough solve that
            # met its own rule (dual CD's early epoch cap) is no failure.
            failed = not certified or not (solution.converged or trusted)
            unsolved = unsolved + 1 if failed else 0
            if best is None or evaluation.objective < e_best:
                e_best = evaluation.objective
                best = (solution, evaluation, clusters)
            if certified:  # a bound that contradicts the theory certifies nothing
                lower = max(lower, solution.bound)
            gap = relative_gap(e_best, lower)
            n_before = clusters.n_clusters
            new_clusters, n_split = problem.decluster(clusters, evaluation)
            now = clock()
            record = {
                "t": t,
                "n_clusters": int(n_before),
                "r": n_before / n,
                "F": float(solution.objective),
                "lower_bound": float(lower),
                "E": float(evaluation.objective),
                "E_best": float(e_best),
                "gap": float(gap),
                "n_split": int(n_split),
                "iter_time": now - t0,
                "cum_time": now - loop_start,
                "train_rate": evaluation.score,
                "backend": solution.backend,
                "solver_gap": float(solution.gap),
                "note": note,
                **evaluation.extra,
            }
            history.append(record)
            show(record)
            if bar is not None:
                bar.update(1)
                bar.set_postfix(gap=f"{gap:.1e}", r=f"{n_before / n:.2%}")
            previous = solution
            if n_split == 0 and trusted and (not strict or gap <= gap_tol):
                stop_reason = "optimal"
                best = (solution, evaluation, clusters)
            elif gap <= gap_tol:
                stop_reason = "gap"
            elif n_split == 0 and (resolve or not trusted):
                # Nothing left to split, but Props 1/3 need an optimal aggregated
                # solution and this one failed its certificate, its solver stopped
                # short of optimality, or a tighter re-solve left the gap above
                # gap_tol: keep the best one.
                stop_reason = "stalled"
            elif unsolved >= max_unsolved:
                stop_reason = "unsolved"
            elif callback is not None and callback(
                {**record, "solution": solution, "evaluation": evaluation, "clusters": clusters}
            ):
                stop_reason = "callback"
            elif t + 1 >= max_iter:
                stop_reason = "max_iter"
            elif time_limit is not None and now - start >= time_limit:
                stop_reason = "time_limit"
            if stop_reason is not None:
                break
            # An evaluation's per-row key and free serve its own split only. On Dask they
            # are codes persisted on the workers (a byte a row: 32 MB per worker of two at
            # 64M rows) that the best iterate and this loop would otherwise hold through
            # the next aggregation, the pass with the largest tables.
            best = (best[0], _without_rows(best[1]), best[2])
            # Nor is the aggregated problem needed past its solve: held through the next
            # aggregation, it would sit beside the new one at that pass's peak (on sparse
            # data 0.7x the size of X late in a fit).
            del evaluation, aggregated
            # The optimality condition held on a solve looser than gap_tol (the
            # partition is unchanged): solve it again, tighter, before claiming it.
            resolve = n_split == 0
            clusters = new_clusters
    finally:
        if bar is not None:
            bar.close()

    # max_iter >= 1: the loop ran, kept a best solution and set a stop reason
    assert best is not None and stop_reason is not None
    solution, evaluation, final_clusters = best
    evaluation = _without_rows(evaluation)
    show.remark(f"AID stopped: {stop_reason} after {len(history)} iterations, gap {gap:.3e}.")
    return AIDResult(
        solution=solution,
        evaluation=evaluation,
        clusters=final_clusters,
        history=history,
        stop_reason=stop_reason,
        n_iter=len(history),
        lower_bound=float(lower),
        gap=float(gap),
        init_time=init_time,
    )


def _without_rows(evaluation):
    """``evaluation`` without its per-row ``key`` and ``free`` (None): E^t and the rest."""
    return dataclasses.replace(evaluation, key=None, free=None)


def _optimality_test(problem, gap_tol):
    """Whether an aggregated solution counts as optimal for Props 1/3.

    A problem whose aggregated solves are iterative and may stop short sets
    ``optimal_solve_gap``: its solution then counts as optimal only when its own relative
    gap (``AggregatedSolution.gap``) is at most ``max(gap_tol, optimal_solve_gap)``, else
    a run with nothing left to split is ``"stalled"``, not ``"optimal"``. (AIDSVC at C =
    1e8 on separable data: libsvm and HiGHS stopped at aggregated gaps near 1, no cluster
    violated, and the run reported "optimal" at 3000 times the optimum; issue 19.)
    Such a solution is trusted for the condition, not for the answer: :func:`run_aid`
    stops ``"optimal"`` only once the run's certified gap is within ``gap_tol`` too.
    """
    limit = getattr(problem, "optimal_solve_gap", None)
    if limit is None:
        return lambda solution: True
    limit = max(float(gap_tol), float(limit))
    return lambda solution: solution.gap <= limit


def _solver_of(problem):
    """``problem.solve`` as ``f(aggregated, context)``.

    A problem written for aid-core <= 0.1.0.dev0's ``solve(aggregated, *, attempt,
    previous)`` still runs, with a FutureWarning: the keyword form goes in a later release.
    """
    parameters = inspect.signature(problem.solve).parameters
    if "context" in parameters or not {"attempt", "previous"} & set(parameters):
        return problem.solve
    warnings.warn(
        f"{type(problem).__name__}.solve(aggregated, *, attempt, previous) is deprecated: "
        "accept solve(aggregated, context) with an aid_core.SolveContext, which carries "
        "the attempt, the previous solution and the state of the run.",
        FutureWarning,
        stacklevel=3,
    )

    def legacy(aggregated, context):
        return problem.solve(aggregated, attempt=context.attempt, previous=context.previous)

    return legacy


def _solve_certified(problem, solve, data, clusters, aggregated, context, rtol):
    """Solve, evaluate, and re-solve while the certificate contradicts the theory.

    The first attempt is ``context.attempt`` (1 for a tighter re-solve of a partition),
    kept below ``problem.max_attempts``.
    """
    notes = []
    lower = context.lower_bound
    attempts = max(int(problem.max_attempts), 1)
    first = min(context.attempt, attempts - 1)
    for attempt in range(first, attempts):
        solution = solve(aggregated, dataclasses.replace(context, attempt=attempt))
        if not isinstance(solution, AggregatedSolution):
            raise TypeError(
                f"{type(problem).__name__}.solve must return an AggregatedSolution; "
                f"got {type(solution).__name__}."
            )
        evaluation = problem.evaluate(data, clusters, solution)
        if solution.note:
            notes.append(solution.note)
        problem_text = _certificate_problem(solution.bound, evaluation.objective, lower, rtol)
        if problem_text is None:
            break
        notes.append(f"certificate: {problem_text}")
        if attempt + 1 == attempts:
            warnings.warn(
                f"AID certificate violated after {attempts - first} solve attempt(s): "
                f"{problem_text}. "
                "The reported gap may be optimistic.",
                CertificateWarning,
                stacklevel=3,
            )
    return solution, evaluation, "; ".join(notes), problem_text is None


def _certificate_problem(bound, e_t, lower, rtol):
    """Describe a violation of bound <= E^t or bound >= previous bound, else None."""
    # One scale for both tests: the objective's magnitude on this problem. Scaling the
    # monotonicity test by |previous bound| alone flagged rounding noise (F^t = -3.6e-15
    # after a bound of 0) as a violation.
    scale = max(abs(e_t), abs(bound), abs(lower) if np.isfinite(lower) else 0.0, 1e-300)
    if not np.isfinite(bound) or not np.isfinite(e_t):
        return f"non-finite objective (bound={bound}, E^t={e_t})"
    if bound > e_t + rtol * scale:
        return f"lower bound {bound:.10g} exceeds E^t {e_t:.10g}"
    if np.isfinite(lower) and bound < lower - rtol * scale:
        return f"F^t {bound:.10g} decreased below the previous bound {lower:.10g}"
    return None


def _progress_bar(total):
    try:
        from tqdm.auto import tqdm
    except ImportError:
        warnings.warn(
            "progress=True needs tqdm (pip install tqdm); running without a bar.", stacklevel=3
        )
        return None
    return tqdm(total=total, desc="AID", unit="it")
