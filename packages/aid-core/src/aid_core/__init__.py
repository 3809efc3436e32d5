"""The generic Aggregate and Iterative Disaggregate (AID) loop of Park & Klabjan.

A model implements :class:`AIDProblem` (initial clusters, aggregation, aggregated solver,
evaluation on the original data, declustering) and :func:`run_aid` runs Algorithm 1 on it
over a :class:`DataSource` (in-memory array, memory map, chunk iterator, or Dask arrays
on a cluster: :class:`DaskSource`).
"""

from ._dask_source import DaskSource
from ._data import ArraySource, Block, ChunkSource, DataSource, as_data_source, split_codes
from ._history import COLUMNS, AIDHistory
from ._loop import STOP_REASONS, AIDResult, CertificateWarning, relative_gap, run_aid
from ._protocol import (
    AggregatedSolution,
    AIDProblem,
    Evaluation,
    SolveContext,
    violated_clusters,
)
from ._sums import ClusterSums, cluster_sums

__version__ = "0.1.0.dev0"

__all__ = [
    "COLUMNS",
    "STOP_REASONS",
    "AIDHistory",
    "AIDProblem",
    "AIDResult",
    "AggregatedSolution",
    "ArraySource",
    "Block",
    "CertificateWarning",
    "ChunkSource",
    "DaskSource",
    "DataSource",
    "Evaluation",
    "SolveContext",
    "__version__",
    "as_data_source",
    "ClusterSums",
    "cluster_sums",
    "relative_gap",
    "run_aid",
    "split_codes",
    "violated_clusters",
]
