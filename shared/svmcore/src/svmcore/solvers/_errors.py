"""The exceptions of a solver failure.

Apart from :mod:`._status` (the warning, and the decoding of HiGHS's statuses), so that
modules which only raise them, such as :class:`~svmcore.solvers.TimeBudget` run in tasks
on Dask workers, do not import scikit-learn (and pandas with it) for
``ConvergenceWarning``.
"""

from __future__ import annotations

from ..docstrings import fill_doc

__all__ = [
    "InfeasibleError",
    "SolverError",
    "SolverLimitError",
    "UnboundedError",
]


class SolverError(RuntimeError):
    """An optimization solver failed to return an optimal solution.

    Parameters
    ----------
    message : str
        The error message.
    status : str or None, default=None
        The solver's status name.
    solver_message : str, default=""
        The solver's own description of the status.

    Attributes
    ----------
    status : str or None
        The solver's status name (for HiGHS the ``HighsModelStatus`` member
        name, e.g. ``"kInfeasible"``).
    solver_message : str
        The solver's own description of the status.
    """

    def __init__(
        self, message: str, *, status: str | None = None, solver_message: str = ""
    ) -> None:
        super().__init__(message)
        self.status = status
        self.solver_message = solver_message


#: The Parameters section every subclass of SolverError shares.
_SUBCLASS_DOCS = {
    "parameters": """\
        Parameters
        ----------
        message : str
            The error message.
        status : str or None, default=None
            The solver's status name (see :class:`SolverError`).
        solver_message : str, default=""
            The solver's own description of the status.""",
}


@fill_doc(_SUBCLASS_DOCS)
class InfeasibleError(SolverError):
    """The problem has no feasible point.

    %(parameters)s
    """


@fill_doc(_SUBCLASS_DOCS)
class UnboundedError(SolverError):
    """The problem is feasible but its objective is unbounded below.

    %(parameters)s
    """


@fill_doc(_SUBCLASS_DOCS)
class SolverLimitError(SolverError):
    """A time, iteration or other limit stopped the solver before optimality.

    %(parameters)s
    """
