"""The per-iteration tables of LPSVR and LPSVC (``verbose`` and ``history_.to_table()``).

The layout only; formatting and printing are :mod:`svmcore.reporting`'s.
"""

from svmcore.reporting import Column, Table

__all__ = ["history_table"]

_CLASS = Column("class", "class", "{}", 6)
_ITER = Column("iteration", "iter", "{:d}", 4)
_OBJECTIVES = [
    Column("sub_objective", "sub_LP", "{:.10g}", 16),
    Column("objective", "objective", "{:.10g}", 16),
]
_TIME = Column("time", "time_s", "{:.3f}", 8)

#: Algorithm 2 ("variables", "full"; "none" has one record): one row per outer iteration.
_WORKING_SET = [
    _ITER,
    Column("working_set_size", "|B|", "{:d}", 6),
    *_OBJECTIVES,
    Column("n_violators", "violators", "{:d}", 9),
    Column("max_violation", "max_viol", "{:.2e}", 9),
    Column("n_permanent", "permanent", "{:d}", 9),
    _TIME,
]

#: Row and column generation: one row per round of every subsample level.
_ROW_COLUMN = [
    Column("n_samples", "N", "{:d}", 7),
    _ITER,
    Column("working_set_size", "|P|", "{:d}", 6),
    Column("n_rows", "|R|", "{:d}", 6),
    *_OBJECTIVES,
    Column("step", "step", "{}", 15),
    Column("n_added", "added", "{:d}", 5),
    _TIME,
]


def history_table(decomposition, *, per_class=False):
    """The table of ``decomposition``'s records; ``per_class``: LPSVC's, with ``class``."""
    columns = _ROW_COLUMN if decomposition == "row_column" else _WORKING_SET
    return Table([_CLASS, *columns] if per_class else columns)
