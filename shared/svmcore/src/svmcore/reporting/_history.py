"""A fitted estimator's ``history_``: a list of per-iteration dicts that prints as a table."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from numbers import Number
from typing import Any

import numpy as np

from ._table import Column, Table

__all__ = ["History"]


class History(list[dict[str, Any]]):
    """Per-iteration records of a fit: a ``list`` of dicts with a table layout.

    Each record is a plain dict (one per iteration, or per phase); the list behaves as
    any list (indexing, ``len``, pickling, ``==``). :meth:`column` gives one key as an
    array and :meth:`to_table` the records as the text table that ``verbose`` prints.

    Parameters
    ----------
    records : iterable of mapping, default=()
        Initial records (copied into dicts).
    table : Table or None, default=None
        The layout of :meth:`to_table`; None: one column per key, in order of first
        appearance.

    See Also
    --------
    Table : The layout.

    Examples
    --------
    >>> from svmcore.reporting import History
    >>> h = History([{"iter": 1, "objective": 2.0}, {"iter": 2, "objective": 1.5}])
    >>> h.column("objective")
    array([2. , 1.5])
    >>> print(h.to_table())
          iter  objective
             1        2.0
             2        1.5
    """

    #: The layout used when none is given (subclasses set their own).
    table: Table | None = None

    def __init__(
        self, records: Iterable[Mapping[str, Any]] = (), *, table: Table | None = None
    ) -> None:
        super().__init__(dict(r) for r in records)
        if table is not None:
            self.table = table

    def layout(self) -> Table:
        """The table layout: the one given, else one column per key seen.

        Returns
        -------
        table : Table
            The layout of :meth:`to_table`.
        """
        if self.table is not None:
            return self.table
        keys = list(dict.fromkeys(k for record in self for k in record))
        return Table([Column(k, k) for k in keys] or [Column("record", "record")])

    def column(self, key: str) -> np.ndarray:
        """One key over all records, as an array.

        Parameters
        ----------
        key : str
            A key of the layout or of some record.

        Returns
        -------
        values : ndarray of shape (n_records,)
            Floats when every value is a number or None (None becomes NaN, booleans
            0/1), else objects (text, arrays).

        Raises
        ------
        KeyError
            When no record and no column has ``key``.
        """
        known = set(self.table.keys) if self.table is not None else set()
        if key not in known and not any(key in record for record in self):
            raise KeyError(f"Unknown column {key!r}; expected one of {sorted(self._keys())}.")
        values = [record.get(key) for record in self]
        if not all(v is None or isinstance(v, Number) for v in values):
            out = np.empty(len(values), dtype=object)
            out[:] = values
            return out
        return np.array([np.nan if v is None else v for v in values], dtype=float)

    def _keys(self) -> set[str]:
        keys = set(self.table.keys) if self.table is not None else set()
        return keys.union(*(record.keys() for record in self))

    def to_table(self) -> str:
        """The records as a fixed-width text table (what ``verbose`` prints row by row).

        Returns
        -------
        text : str
            A header line and one line per record (see :class:`Table`).
        """
        return self.layout().render(self)
