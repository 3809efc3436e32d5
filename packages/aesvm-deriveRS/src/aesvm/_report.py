"""AESVC's table of phases (``verbose`` and ``history_.to_table()``).

The layout only; formatting and printing are :mod:`svmcore.reporting`'s.
"""

from svmcore.reporting import Column, Table

__all__ = ["AESVC_TABLE"]

#: One row for DeriveRS, then one per pairwise SVM.
AESVC_TABLE = Table(
    [
        Column("phase", "phase", "{}", 6),
        Column("pair", "pair", "{0[0]}|{0[1]}", 9),
        Column("n_samples", "n_samples", "{:d}", 9),
        Column("n_groups", "groups", "{:d}", 6),
        Column("n_representatives", "reps", "{:d}", 8),
        Column("fallback", "fallback", "{}", 8),
        Column("reused", "reused", "{}", 6),
        Column("n_iter", "svm_iter", "{:d}", 8),
        Column("n_support", "n_SV", "{:d}", 6),
        Column("objective", "objective", "{:.10g}", 16),
        Column("time", "time_s", "{:.3f}", 8),
    ]
)
