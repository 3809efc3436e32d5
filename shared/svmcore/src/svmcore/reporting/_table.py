"""Fixed-width text tables of per-iteration records: what ``verbose`` prints."""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

__all__ = ["Column", "Table", "TablePrinter", "parse_table"]

#: Shown for a missing value, None or NaN (and an empty text).
MISSING = "-"
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Column:
    """One column of a :class:`Table`: a record key, its header and how to show it.

    Parameters
    ----------
    key : str
        The record key (dict key) the column shows.
    header : str
        The header text; no whitespace, so every line splits into one field per column.
    fmt : str, default="{}"
        A :meth:`str.format` pattern for the value (``"{:.3e}"``, ``"{:d}"``); a value
        the pattern rejects is shown with ``str``.
    width : int, default=10
        Minimum width (right-aligned); the header's length if longer. 0 makes a free-text
        column: left-aligned, whitespace kept, allowed only last.

    Examples
    --------
    >>> from svmcore.reporting import Column
    >>> Column("objective", "objective", "{:.6g}", 12).cell(0.1234567)
    '0.123457'
    """

    key: str
    header: str
    fmt: str = "{}"
    width: int = 10

    def __post_init__(self) -> None:
        if not self.header or _SPACE.search(self.header):
            raise ValueError(f"A column header must be one word; got {self.header!r}.")
        if self.width < 0:
            raise ValueError(f"Column width must be >= 0; got {self.width}.")

    @property
    def free(self) -> bool:
        """Whether this is the free-text column (``width == 0``)."""
        return self.width == 0

    def cell(self, value: Any) -> str:
        """The text of ``value`` in this column (not padded).

        Parameters
        ----------
        value : object
            The record's value; None, NaN and empty text show as ``-``.

        Returns
        -------
        text : str
            The formatted value; whitespace becomes ``_`` except in the free column.
        """
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return MISSING
        try:
            text = self.fmt.format(value)
        except (TypeError, ValueError):
            text = str(value)
        if not self.free:
            text = _SPACE.sub("_", text.strip())
        return text or MISSING


class Table:
    """The layout of a per-iteration table: a header line and one line per record.

    Every line splits on whitespace into exactly one field per column (the free-text
    column, if any, is last and takes the rest of the line), so a table can be read
    back with :func:`parse_table`; a line starting with ``#`` is a remark, not a row.

    Parameters
    ----------
    columns : sequence of Column
        The columns in order; keys unique, a free-text column only last.

    See Also
    --------
    TablePrinter : Prints a table row by row, as ``verbose`` does.
    parse_table : Reads a printed table back.

    Examples
    --------
    >>> from svmcore.reporting import Column, Table
    >>> table = Table([Column("iter", "iter", "{:d}", 4), Column("objective", "objective")])
    >>> print(table.render([{"iter": 1, "objective": 2.5}, {"iter": 2, "objective": None}]))
    iter  objective
       1        2.5
       2          -
    """

    def __init__(self, columns: Sequence[Column]) -> None:
        columns = tuple(columns)
        if not columns:
            raise ValueError("A table needs at least one column.")
        keys = [c.key for c in columns]
        if len(set(keys)) != len(keys):
            raise ValueError(f"Column keys must be unique; got {keys}.")
        if any(c.free for c in columns[:-1]):
            raise ValueError("Only the last column may be free text (width 0).")
        self.columns = columns

    @property
    def keys(self) -> tuple[str, ...]:
        """The record keys, in column order."""
        return tuple(c.key for c in self.columns)

    def __repr__(self) -> str:
        return f"Table({[c.key for c in self.columns]})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Table) and self.columns == other.columns

    def __hash__(self) -> int:
        return hash(self.columns)

    def _line(self, texts: Iterable[str]) -> str:
        parts = [
            text if column.free else text.rjust(max(column.width, len(column.header)))
            for column, text in zip(self.columns, texts, strict=True)
        ]
        return " ".join(parts).rstrip()

    def header(self) -> str:
        """The header line.

        Returns
        -------
        line : str
            The column headers, aligned as the rows.
        """
        return self._line(c.header for c in self.columns)

    def row(self, record: Mapping[str, Any]) -> str:
        """One line for ``record`` (missing keys show as ``-``; other keys are ignored).

        Parameters
        ----------
        record : mapping
            One iteration's record.

        Returns
        -------
        line : str
            The formatted, aligned values.
        """
        return self._line(c.cell(record.get(c.key)) for c in self.columns)

    def render(self, records: Iterable[Mapping[str, Any]]) -> str:
        """The header and one line per record.

        Parameters
        ----------
        records : iterable of mapping
            The records, in order.

        Returns
        -------
        text : str
            The lines joined by newlines (no trailing newline).
        """
        return "\n".join([self.header(), *(self.row(r) for r in records)])


class TablePrinter:
    """Prints a :class:`Table` as the records arrive: the header before the first row.

    What every estimator's ``verbose`` uses; a disabled printer prints nothing, so
    fitting code calls it unconditionally.

    Parameters
    ----------
    table : Table
        The layout.
    enabled : bool, default=True
        Whether to print at all (an estimator passes ``bool(verbose)``).
    stream : file-like or None, default=None
        Where to write; None is ``sys.stdout`` at the time of each write.

    Examples
    --------
    >>> from svmcore.reporting import Column, Table, TablePrinter
    >>> show = TablePrinter(Table([Column("iter", "iter", "{:d}", 4)]))
    >>> show({"iter": 1}); show({"iter": 2}); show.remark("converged")
    iter
       1
       2
    # converged
    """

    def __init__(self, table: Table, *, enabled: bool = True, stream: TextIO | None = None) -> None:
        self.table = table
        self.enabled = bool(enabled)
        self.stream = stream
        self._started = False

    def _write(self, line: str) -> None:
        print(line, file=sys.stdout if self.stream is None else self.stream, flush=True)

    def __call__(self, record: Mapping[str, Any]) -> None:
        """Print ``record``'s row (after the header, the first time).

        Parameters
        ----------
        record : mapping
            One iteration's record.
        """
        if not self.enabled:
            return
        if not self._started:
            self._write(self.table.header())
            self._started = True
        self._write(self.table.row(record))

    def remark(self, message: str) -> None:
        """Print a ``# message`` line (a remark that :func:`parse_table` skips).

        Parameters
        ----------
        message : str
            One line of text.
        """
        if self.enabled:
            self._write(f"# {message}")


def parse_table(text: str) -> list[dict[str, str | None]]:
    """Read a table printed by :class:`Table` or :class:`TablePrinter` back.

    Parameters
    ----------
    text : str
        The header line, then one line per row; blank lines and ``#`` remarks are
        skipped.

    Returns
    -------
    rows : list of dict
        One dict per row, keyed by the headers, holding the cells' text (None for ``-``).

    Raises
    ------
    ValueError
        When a row does not have one field per column.

    Examples
    --------
    >>> from svmcore.reporting import parse_table
    >>> parse_table("iter objective\\n   1       2.5\\n   2         -")
    [{'iter': '1', 'objective': '2.5'}, {'iter': '2', 'objective': None}]
    """
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:
        return []
    headers = lines[0].split()
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split(maxsplit=len(headers) - 1)
        if len(fields) != len(headers):
            raise ValueError(
                f"Line {number} has {len(fields)} fields, the header {len(headers)}: {line!r}."
            )
        rows.append(
            {
                h: (None if f.strip() == MISSING else f.strip())
                for h, f in zip(headers, fields, strict=True)
            }
        )
    return rows
