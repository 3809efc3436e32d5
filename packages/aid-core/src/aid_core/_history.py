"""Per-iteration records of an AID run: the columns of the paper's Table 10."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["AIDHistory", "COLUMNS"]

#: Record keys, in table order, with a short header and a format for ``to_table``.
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
    "iter_time": ("iter s", "{:.3f}"),
    "cum_time": ("cum s", "{:.3f}"),
    "train_rate": ("train", "{:.2%}"),
    "backend": ("backend", "{}"),
    "solver_gap": ("solver gap", "{:.1e}"),
    "note": ("note", "{}"),
}


class AIDHistory(list):
    """A list of per-iteration dicts with the keys of :data:`COLUMNS`.

    ``t`` iteration; ``n_clusters`` |K^t|; ``r`` aggregation rate |K^t|/n; ``F`` the
    aggregated objective F^t; ``lower_bound`` the certified lower bound on E^* used for
    the gap (the running maximum of F^t, or of the solver's dual bound when the solver is
    inexact); ``E`` the original objective E^t; ``E_best`` min over s <= t of E^s; ``gap``
    (E_best - lower_bound) / E_best; ``n_split`` clusters violating the optimality
    condition; ``iter_time``/``cum_time`` seconds (the initial clustering excluded, as in
    Table 10); ``train_rate`` training accuracy or ``None``; ``backend`` the solver of
    the aggregated problem and ``solver_gap`` its own relative gap (``AggregatedSolution``'s
    fields; for code); ``note`` solver remarks (for people, not parsed).

    Parameters
    ----------
    iterable : iterable of dict, default=()
        Initial records, as for ``list``.
    """

    def column(self, key) -> np.ndarray:
        """One column as an array (``None`` becomes NaN for numeric columns)."""
        if key not in COLUMNS:
            raise KeyError(f"Unknown column {key!r}; expected one of {list(COLUMNS)}.")
        values = [rec.get(key) for rec in self]
        if key in _TEXT:
            return np.array(values, dtype=object)
        return np.array([np.nan if v is None else v for v in values], dtype=float)

    def to_table(self) -> str:
        """The history as a fixed-width text table (what ``verbose`` prints row by row)."""
        lines = [format_header()]
        lines += [format_row(rec) for rec in self]
        return "\n".join(lines)


def _cell(key, value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return COLUMNS[key][1].format(value)


_WIDTHS = {"note": 0, "t": 4, "n_clusters": 8, "n_split": 6}
_TEXT = ("backend", "note")


def format_header() -> str:
    """Header line matching :func:`format_row`."""
    return " ".join(
        head.rjust(_WIDTHS.get(key, 12)) if key != "note" else head
        for key, (head, _) in COLUMNS.items()
    )


def format_row(record: dict) -> str:
    """One fixed-width line for an iteration record."""
    return " ".join(
        _cell(key, record.get(key)).rjust(_WIDTHS.get(key, 12))
        if key != "note"
        else _cell(key, record.get(key))
        for key in COLUMNS
    )
