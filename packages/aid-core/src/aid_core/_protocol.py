"""What a model supplies to the generic AID loop (the four components of the paper's sec. 2)."""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from svmcore.clustering import Clusters, mixed_groups
from svmcore.typing import RandomStateLike

from ._data import DataSource

__all__ = ["AIDProblem", "AggregatedSolution", "Evaluation", "SolveContext", "violated_clusters"]


@dataclass
class AggregatedSolution:
    """An optimal (or certified near-optimal) solution of the aggregated problem.

    Parameters
    ----------
    params : Any
        The model's parameters (e.g. ``beta`` for LAD, ``(w, b, alpha)`` for SVM).
    objective : float
        F^t, the aggregated objective at ``params``.
    lower_bound : float or None, default=None
        A certified lower bound on the aggregated optimum (e.g. a dual objective of an
        inexact solver); ``None`` means ``objective`` is exact. By Props 2/4 it is also a
        lower bound on the original optimum E^*, so the loop's gap uses it.
    note : str, default=""
        What the solver did (method, status, retries), for people: copied to
        ``history_``, never parsed by code (the fields below carry what code reads).
    backend : str, default=""
        The solver that produced ``params`` (e.g. ``"highs-lp"``, ``"libsvm"``,
        ``"dcd"``), copied to the history record's ``backend``.
    converged : bool, default=True
        Whether that solver met its own stopping rule (False: it hit an iteration or
        time limit, or could not reach its target; ``lower_bound`` still holds). The
        loop counts a solve that did not converge, and whose gap is above the problem's
        ``optimal_solve_gap``, as failed (see ``max_unsolved`` in
        :func:`aid_core.run_aid`).
    warm_start : Any, default=None
        What the next aggregated solve may start from (e.g. an optimal LP basis with the
        cluster labels it belongs to); the loop hands it back as
        ``SolveContext.previous.warm_start``, so no problem keeps it between steps.
    """

    params: Any
    objective: float
    lower_bound: float | None = None
    note: str = ""
    backend: str = ""
    converged: bool = True
    warm_start: Any = None

    @property
    def bound(self) -> float:
        """The value certified to be <= E^*: ``lower_bound`` if given, else ``objective``."""
        return self.objective if self.lower_bound is None else self.lower_bound

    @property
    def gap(self) -> float:
        """Relative gap of the aggregated solve, ``(objective - bound) / |objective|``."""
        return max(self.objective - self.bound, 0.0) / max(abs(self.objective), 1e-300)


@dataclass(frozen=True)
class SolveContext:
    """What the AID loop knows when it asks for an aggregated solve.

    The loop builds one per call of :meth:`AIDProblem.solve`, so a model reads the
    state of the run here instead of keeping it between steps.

    Parameters
    ----------
    iteration : int, default=0
        The index t of the aggregated problem (0 for the first).
    attempt : int, default=0
        0 for the first try of this aggregated problem; the loop calls again with
        ``attempt + 1`` when the certificate misbehaves (see ``AIDProblem.max_attempts``),
        and the model should then tighten its tolerance or switch solver. A partition
        whose optimality condition held on a solve looser than ``gap_tol`` is solved
        again from attempt 1 (problems with ``optimal_solve_gap``; see
        :func:`aid_core.run_aid`).
    previous : AggregatedSolution or None, default=None
        The previous iteration's solution, for warm starts (None at t = 0).
    e_best : float, default=inf
        E_best, the smallest original objective E^t seen so far (inf at t = 0).
    lower_bound : float, default=-inf
        The largest certified lower bound on E^* so far (-inf at t = 0).
    gap_tol : float, default=0.0
        The loop's target relative gap.
    """

    iteration: int = 0
    attempt: int = 0
    previous: AggregatedSolution | None = None
    e_best: float = math.inf
    lower_bound: float = -math.inf
    gap_tol: float = 0.0

    @property
    def outer_gap(self) -> float:
        """``(e_best - previous.bound) / |e_best|``: how far the run is from the optimum.

        inf while there is no finite E_best or no previous solution.
        """
        if self.previous is None or not math.isfinite(self.e_best):
            return math.inf
        return (self.e_best - self.previous.bound) / max(abs(self.e_best), 1e-300)


@dataclass
class Evaluation:
    """The aggregated solution evaluated on the original data.

    Parameters
    ----------
    objective : float
        E^t, the original problem's objective at the solution mapped back to it.
    key : ndarray of shape (n_samples,) of int
        Per-sample side of the optimality condition (residual sign for LAD, margin side
        for SVM, the 4-way code for S3VM). A cluster satisfies the condition iff all its
        members share one key; the default declustering splits clusters by this key.
        A Dask array kept on the workers when the clusters are
        :class:`svmcore.clustering.ChunkedClusters` (so is ``free``).
    free : ndarray of shape (n_samples,) of bool or None, default=None
        Samples compatible with every key (a zero LAD residual, an SVM sample exactly on
        the margin: the optimality proofs hold whichever side they are counted on). They
        never make a cluster violate the condition; if their cluster is split they go
        with their own ``key``. ``None`` means no such samples.
    score : float or None, default=None
        Training rate (accuracy) where it applies.
    extra : dict, optional
        Further per-iteration figures the model wants in ``history_`` (empty by default).
    """

    objective: float
    key: Any
    free: Any = None
    score: float | None = None
    extra: dict = field(default_factory=dict)


class AIDProblem(ABC):
    """A model that AID can solve: implement these four steps (Algorithm 1).

    The loop (:func:`aid_core.run_aid`) calls ``initial_clusters`` once, then repeats
    ``aggregate`` -> ``solve`` -> ``evaluate`` -> ``decluster`` until the optimality
    condition holds or another stopping rule fires. Everything a step needs from the run
    comes in through its arguments (``solve`` gets a :class:`SolveContext`); a problem
    keeps no state between steps except a cache it documents (e.g. kernel columns of
    clusters that were not split, or a :class:`aid_core.ClusterSums` holding the last
    partition's sums), which must not change any result, and what
    ``initial_clusters`` computes once for the solves (a pilot solution from the sample
    it clusters), read-only afterwards.
    """

    @abstractmethod
    def initial_clusters(self, data: DataSource, random_state: RandomStateLike) -> Clusters:
        """Return the initial clusters C^0 as a :class:`svmcore.clustering.Clusters`."""

    @abstractmethod
    def aggregate(self, data: DataSource, clusters: Clusters) -> Any:
        """Return the aggregated data (any object ``solve`` accepts) for ``clusters``."""

    @abstractmethod
    def solve(self, aggregated: Any, context: SolveContext) -> AggregatedSolution:
        """Solve the aggregated problem.

        Parameters
        ----------
        aggregated : object
            What ``aggregate`` returned.
        context : SolveContext
            The state of the run: iteration, attempt (a retry after a misbehaving
            certificate should tighten the tolerance or switch solver, and say so in
            ``note``), the previous solution for warm starts, E_best, the lower bound and
            the gap target.

        Returns
        -------
        AggregatedSolution
            F^t, its certified lower bound, and what the solver did.
        """

    @abstractmethod
    def evaluate(
        self, data: DataSource, clusters: Clusters, solution: AggregatedSolution
    ) -> Evaluation:
        """Map ``solution`` to the original problem; return E^t and the per-sample key."""

    #: How many times ``solve`` may be called for one aggregated problem (1 = no retries).
    max_attempts: int = 1

    def decluster(self, clusters: Clusters, evaluation: Evaluation) -> tuple[Clusters, int]:
        """Split the clusters violating the optimality condition.

        Returns ``(new_clusters, n_split)``; ``n_split == 0`` means the optimality
        condition holds. The default splits every cluster whose non-free members do not
        share one ``evaluation.key`` by that key (Steps 2(a)-(b) of the paper for LAD and
        SVM): :meth:`svmcore.clustering.Clusters.split_violated`, which a
        :class:`svmcore.clustering.ChunkedClusters` (labels kept on Dask workers) runs
        where its labels live, the key and ``free`` being Dask arrays chunked like them.
        """
        new, violated = clusters.split_violated(evaluation.key, evaluation.free)
        return new, int(violated.size)


def violated_clusters(labels: np.ndarray, n_clusters: int, evaluation: Evaluation) -> np.ndarray:
    """Find the clusters whose non-free members carry more than one key, in O(n).

    Parameters
    ----------
    labels : ndarray of shape (n_samples,) of int
        Cluster of each sample, in ``[0, n_clusters)``.
    n_clusters : int
        Number of clusters.
    evaluation : Evaluation
        Supplies the per-sample ``key`` and the ``free`` samples, which are ignored.

    Returns
    -------
    violated : ndarray of int
        Sorted indices of the clusters that violate the optimality condition.
    """
    free = None if evaluation.free is None else np.asarray(evaluation.free, dtype=bool)
    return mixed_groups(labels, np.asarray(evaluation.key), n_clusters, free)
