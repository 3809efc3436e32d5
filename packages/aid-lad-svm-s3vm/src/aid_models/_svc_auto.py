"""What ``AIDSVC(solver="auto")`` runs: the choice of solver from the data and the options."""

from __future__ import annotations

from typing import Any

import scipy.sparse as sp

__all__ = ["DIRECT_MAX_SAMPLES", "NEWTON_MAX_FEATURES", "auto_solver"]

#: solver="auto" with the linear kernel: "newton" (the primal has m + 1 unknowns) on dense
#: data with at most this many features, "dcd-full" otherwise.
NEWTON_MAX_FEATURES = 64
#: solver="auto" with the linear kernel solves in-memory dense problems (at most
#: NEWTON_MAX_FEATURES features) directly, by Newton's method on every row ("newton-full",
#: no aggregation), up to this many rows: there AID's loop (7-11 aggregated solves and
#: passes over the data) cost more than the one certified solve. The crossover is in rows,
#: nearly whatever m: direct / AID 0.60-1.02 at 20,000 rows and 1.0-1.1 at 25,000 for m =
#: 2-10 on the tune blob mixtures, lower for m = 20-64 (figures in the package README).
DIRECT_MAX_SAMPLES = 20_000


#: The options only AID's loop has, at their defaults: any other value keeps the loop
#: (so that no option is silently ignored by the direct solve).
_LOOP_DEFAULTS = {
    "max_iter": 100,
    "time_limit": None,
    "callback": None,
    "verbose": 0,
    "progress": False,
    "block_size": None,
    "initial_aggregation_rate": "auto",
    "init_sample_size": "auto",
}


def _direct(est: Any, X: Any) -> bool:
    """Whether "auto" skips aggregation: small dense data, with every option of the loop
    at its default."""
    loop_options = any(
        getattr(est, name) is not default and getattr(est, name) != default
        for name, default in _LOOP_DEFAULTS.items()
    )
    return (
        not loop_options
        and not sp.issparse(X)
        and X.shape[1] <= NEWTON_MAX_FEATURES
        and X.shape[0] <= DIRECT_MAX_SAMPLES
    )


def auto_solver(est: Any, X: Any, in_memory: bool = True) -> str:
    """The solver of ``est`` (an AIDSVC): ``solver``, or what "auto" picks for ``X``.

    Dask data (``in_memory=False``) are always aggregated: every pass is a map over the
    chunks.
    """
    if est.solver != "auto":
        return est.solver
    if est.kernel != "linear":
        return "highs"
    if in_memory and _direct(est, X):
        return "newton-full"
    if X.shape[1] <= NEWTON_MAX_FEATURES:
        return "newton"
    return "dcd-full"
