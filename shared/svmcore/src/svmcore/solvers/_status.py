"""Solver statuses turned into exceptions and warnings, in one place.

Every non-optimal model status that HiGHS can report is decoded here, in the
manner of scikit-learn's ``QuantileRegressor`` (which decodes the status of
``scipy.optimize.linprog``): the exception or warning names the status, says
what it means and appends the solver's own message.
"""

from __future__ import annotations

import warnings

from sklearn.exceptions import ConvergenceWarning

from ._errors import InfeasibleError, SolverError, SolverLimitError, UnboundedError

__all__ = ["SolverLimitWarning", "raise_for_status"]


class SolverLimitWarning(ConvergenceWarning):
    """A limit stopped the solver; the returned point is the best one it had."""


# HiGHS model status name -> (kind, explanation). Names, not numeric codes, so the
# table survives renumbering between HiGHS releases.
_OK = "ok"
_LIMIT = "limit"
_INFEASIBLE = "infeasible"
_UNBOUNDED = "unbounded"
_AMBIGUOUS = "infeasible_or_unbounded"
_ERROR = "error"

_HIGHS_STATUS = {
    "kOptimal": (_OK, "Optimal solution found."),
    "kInfeasible": (_INFEASIBLE, "The problem is infeasible."),
    "kUnbounded": (_UNBOUNDED, "The problem is unbounded."),
    "kUnboundedOrInfeasible": (
        _AMBIGUOUS,
        "The problem is infeasible or unbounded (HiGHS could not tell which).",
    ),
    "kTimeLimit": (_LIMIT, "Time limit reached."),
    "kIterationLimit": (_LIMIT, "Iteration limit reached."),
    "kSolutionLimit": (_LIMIT, "Solution limit reached."),
    "kObjectiveBound": (_LIMIT, "Objective bound reached."),
    "kObjectiveTarget": (_LIMIT, "Objective target reached."),
    "kInterrupt": (_LIMIT, "The solve was interrupted."),
    "kHighsInterrupt": (_LIMIT, "The solve was interrupted."),
    "kMemoryLimit": (_ERROR, "Memory limit reached."),
    "kNotset": (_ERROR, "No status was set: the solver did not run."),
    "kLoadError": (_ERROR, "The model could not be loaded."),
    "kModelError": (_ERROR, "The model is invalid."),
    "kPresolveError": (_ERROR, "Presolve failed."),
    "kSolveError": (_ERROR, "The solver failed (numerical difficulties)."),
    "kPostsolveError": (_ERROR, "Postsolve failed."),
    "kModelEmpty": (_ERROR, "The model is empty."),
    "kUnknown": (_ERROR, "The solver stopped without proving optimality (unknown status)."),
}


def raise_for_status(
    status: str, solver_message: str = "", *, on_limit: str = "raise", what: str = "LP"
) -> bool:
    """Turn a solver status into an exception or a warning.

    Parameters
    ----------
    status : str or enum member
        The solver's status: a ``highspy.HighsModelStatus`` member or its name
        (``"kOptimal"``, ``"kInfeasible"``, ...).
    solver_message : str, default=""
        The solver's own text for the status, appended to the error message.
    on_limit : {"raise", "warn"}, default="raise"
        What to do when a limit (time, iterations, interrupt) stopped the solver:
        raise :class:`SolverLimitError`, or emit :class:`SolverLimitWarning`
        and return so the caller can use the best point found.
    what : str, default="LP"
        Name of the problem in the message (e.g. ``"QP"``, ``"LP-SVR sub-LP"``).

    Returns
    -------
    optimal : bool
        True when the status is optimal, False when a limit was reached and
        ``on_limit="warn"``.

    Raises
    ------
    InfeasibleError
        Infeasible problem.
    UnboundedError
        Unbounded problem.
    SolverLimitError
        A limit was reached and ``on_limit="raise"``.
    SolverError
        Any other failure, including "infeasible or unbounded" when the
        caller could not tell which (:func:`solve_lp` resolves that case
        itself before calling this function).
    ValueError
        If ``on_limit`` is not one of the accepted values.

    Examples
    --------
    >>> from svmcore.solvers import raise_for_status, InfeasibleError
    >>> raise_for_status("kOptimal")
    True
    >>> try:
    ...     raise_for_status("kInfeasible", "Infeasible")
    ... except InfeasibleError as exc:
    ...     print(exc)
    LP failed with status kInfeasible: The problem is infeasible. Solver message: Infeasible
    """
    if on_limit not in ("raise", "warn"):
        raise ValueError(f"on_limit must be 'raise' or 'warn', got {on_limit!r}.")
    name = getattr(status, "name", None) or str(status)
    kind, explanation = _HIGHS_STATUS.get(name, (_ERROR, "Unrecognized solver status."))
    if kind == _OK:
        return True
    text = f"{what} failed with status {name}: {explanation}"
    if solver_message:
        text += f" Solver message: {solver_message}"
    if kind == _LIMIT:
        if on_limit == "warn":
            warnings.warn(
                text.replace(" failed ", " stopped early ") + " Returning the best point found.",
                SolverLimitWarning,
                stacklevel=3,
            )
            return False
        raise SolverLimitError(text, status=name, solver_message=solver_message)
    error_class = {_INFEASIBLE: InfeasibleError, _UNBOUNDED: UnboundedError}.get(kind, SolverError)
    raise error_class(text, status=name, solver_message=solver_message)
