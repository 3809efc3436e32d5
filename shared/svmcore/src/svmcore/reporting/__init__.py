"""Progress reporting shared by every iterative estimator of the monorepo.

An estimator describes its per-iteration records once, as a :class:`Table` of
:class:`Column`\\ s; ``verbose`` prints them as they arrive through a
:class:`TablePrinter` (header first, then one aligned line per record), and the fitted
``history_`` is a :class:`History`, a list of the same dicts whose ``to_table()`` gives
the same text. Every line splits into one field per column, so :func:`parse_table`
reads a printed table back. A solver loop hands its records to a :class:`Recorder`,
which time-stamps and keeps them and passes each to the printer as it arrives.
"""

from ._history import History
from ._recorder import Recorder
from ._table import Column, Table, TablePrinter, parse_table

__all__ = ["Column", "History", "Recorder", "Table", "TablePrinter", "parse_table"]
