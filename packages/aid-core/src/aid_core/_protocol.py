"""What a model supplies to the generic AID loop (the four components of the paper's sec. 2)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["AIDProblem", "AggregatedSolution", "Evaluation", "violated_clusters"]


@dataclass
class AggregatedSolution:
    """An optimal (or certified near-optimal) solution of the aggregated problem.

    Attributes
    ----------
    params : Any
        The model's parameters (e.g. ``beta`` for LAD, ``(w, b, alpha)`` for SVM).
    objective : float
        F^t, the aggregated objective at ``params``.
    lower_bound : float or None
        A certified lower bound on the aggregated optimum (e.g. a dual objective of an
        inexact solver); ``None`` means ``objective`` is exact. By Props 2/4 it is also a
        lower bound on the original optimum E^*, so the loop's gap uses it.
    note : str
        What the solver did (method, status, retries), copied to ``history_``.
    """

    params: Any
    objective: float
    lower_bound: float | None = None
    note: str = ""

    @property
    def bound(self) -> float:
        """The value certified to be <= E^*: ``lower_bound`` if given, else ``objective``."""
        return self.objective if self.lower_bound is None else self.lower_bound


@dataclass
class Evaluation:
    """The aggregated solution evaluated on the original data.

    Attributes
    ----------
    objective : float
        E^t, the original problem's objective at the solution mapped back to it.
    key : ndarray of shape (n_samples,) of int
        Per-sample side of the optimality condition (residual sign for LAD, margin side
        for SVM, the 4-way code for S3VM). A cluster satisfies the condition iff all its
        members share one key; the default declustering splits clusters by this key.
    free : ndarray of shape (n_samples,) of bool or None
        Samples compatible with every key (a zero LAD residual, an SVM sample exactly on
        the margin: the optimality proofs hold whichever side they are counted on). They
        never make a cluster violate the condition; if their cluster is split they go
        with their own ``key``. ``None`` means no such samples.
    score : float or None
        Training rate (accuracy) where it applies.
    extra : dict
        Further per-iteration figures the model wants in ``history_``.
    """

    objective: float
    key: np.ndarray
    free: np.ndarray | None = None
    score: float | None = None
    extra: dict = field(default_factory=dict)


class AIDProblem(ABC):
    """A model that AID can solve: implement these four steps (Algorithm 1).

    The loop (:func:`aid_core.run_aid`) calls ``initial_clusters`` once, then repeats
    ``aggregate`` -> ``solve`` -> ``evaluate`` -> ``decluster`` until the optimality
    condition holds or another stopping rule fires.
    """

    @abstractmethod
    def initial_clusters(self, data, random_state):
        """Return the initial clusters C^0 as a :class:`svmcore.clustering.Clusters`."""

    @abstractmethod
    def aggregate(self, data, clusters):
        """Return the aggregated data (any object ``solve`` accepts) for ``clusters``."""

    @abstractmethod
    def solve(self, aggregated, *, attempt: int = 0, previous=None) -> AggregatedSolution:
        """Solve the aggregated problem.

        Parameters
        ----------
        aggregated : object
            What ``aggregate`` returned.
        attempt : int, default=0
            0 for the first try; the loop calls again with ``attempt + 1`` when the
            certificate misbehaves (see ``max_attempts``), and the model should then
            tighten its tolerance or switch solver and say so in ``note``.
        previous : AggregatedSolution or None
            The previous iteration's solution, for warm starts.
        """

    @abstractmethod
    def evaluate(self, data, clusters, solution: AggregatedSolution) -> Evaluation:
        """Map ``solution`` to the original problem; return E^t and the per-sample key."""

    #: How many times ``solve`` may be called for one aggregated problem (1 = no retries).
    max_attempts: int = 1

    def decluster(self, clusters, evaluation: Evaluation):
        """Split the clusters violating the optimality condition.

        Returns ``(new_clusters, n_split)``; ``n_split == 0`` means the optimality
        condition holds. The default splits every cluster whose non-free members do not
        share one ``evaluation.key`` by that key (Steps 2(a)-(b) of the paper for LAD and
        SVM); see :func:`violated_clusters`.
        """
        violated = violated_clusters(clusters.labels, clusters.n_clusters, evaluation)
        if violated.size == 0:
            return clusters, 0
        new, _ = clusters.split(evaluation.key, clusters=violated)
        return new, int(violated.size)


def violated_clusters(labels, n_clusters, evaluation: Evaluation) -> np.ndarray:
    """Indices of the clusters whose non-free members carry more than one key, O(n)."""
    key = np.asarray(evaluation.key)
    if evaluation.free is not None:
        keep = ~np.asarray(evaluation.free, dtype=bool)
        labels, key = labels[keep], key[keep]
    # Any member's key as the cluster's reference (fancy assignment: one write wins),
    # then count members that differ from it.
    ref = np.zeros(n_clusters, dtype=key.dtype)
    ref[labels] = key
    differ = np.bincount(labels, weights=key != ref[labels], minlength=n_clusters)
    return np.flatnonzero(differ > 0)
