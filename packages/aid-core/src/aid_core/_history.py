"""Per-iteration records of an AID run: the columns of the paper's Table 10."""

from __future__ import annotations

from svmcore.reporting import Column, History, Table

__all__ = ["AIDHistory", "COLUMNS", "TABLE"]

#: Record keys, in table order, with a one-word header and a format for ``to_table``.
COLUMNS = {
    "t": ("t", "{:d}"),
    "n_clusters": ("|K^t|", "{:d}"),
    "r": ("r^t", "{:.3%}"),
    "F": ("F^t", "{:.8g}"),
    "lower_bound": ("bound", "{:.8g}"),
    "E": ("E^t", "{:.8g}"),
    "E_best": ("E_best", "{:.8g}"),
    "gap": ("gap", "{:.2e}"),
    "n_split": ("split", "{:d}"),
    "iter_time": ("iter_s", "{:.3f}"),
    "cum_time": ("cum_s", "{:.3f}"),
    "train_rate": ("train", "{:.2%}"),
    "backend": ("backend", "{}"),
    "solver_gap": ("solver_gap", "{:.1e}"),
    "note": ("note", "{}"),
}


_WIDTHS = {"t": 4, "n_clusters": 8, "n_split": 6, "note": 0}

#: The layout of the AID table (svmcore.reporting): :data:`COLUMNS` with their widths,
#: ``note`` the free-text last column.
TABLE = Table(
    [Column(key, head, fmt, _WIDTHS.get(key, 12)) for key, (head, fmt) in COLUMNS.items()]
)


class AIDHistory(History):
    """A list of per-iteration dicts with the keys of :data:`COLUMNS`.

    ``t`` iteration; ``n_clusters`` |K^t|; ``r`` aggregation rate |K^t|/n; ``F`` the
    aggregated objective F^t; ``lower_bound`` the certified lower bound on E^* used for
    the gap (the running maximum of F^t, or of the solver's dual bound when the solver is
    inexact); ``E`` the original objective E^t; ``E_best`` min over s <= t of E^s; ``gap``
    (E_best - lower_bound) / E_best; ``n_split`` clusters violating the optimality
    condition; ``iter_time``/``cum_time`` seconds (the initial clustering excluded, as in
    Table 10); ``train_rate`` training accuracy or ``None``; ``backend`` the solver of
    the aggregated problem and ``solver_gap`` its own relative gap (``AggregatedSolution``'s
    fields; for code); ``note`` solver remarks (for people, not parsed). Models may add
    keys of their own (kept in the records, not in the table).

    A :class:`svmcore.reporting.History` with the layout :data:`TABLE`: ``column(key)``
    gives one key as an array and ``to_table()`` the text that ``verbose`` prints.

    Parameters
    ----------
    records : iterable of dict, default=()
        Initial records, as for ``list``.
    table : svmcore.reporting.Table or None, default=None
        Another layout for ``to_table`` (None: :data:`TABLE`).
    """

    table = TABLE


def format_header() -> str:
    """Header line matching :func:`format_row`."""
    return TABLE.header()


def format_row(record: dict) -> str:
    """One fixed-width line for an iteration record."""
    return TABLE.row(record)
