"""The per-iteration tables of MFN, TSVM and MFA (``verbose`` and ``history_.to_table()``).

The layout only; formatting and printing are :mod:`svmcore.reporting`'s.
"""

from svmcore.reporting import Column, Table

__all__ = ["MFA_TABLE", "MFN_TABLE", "TSVM_TABLE"]

_TIME = Column("time", "time_s", "{:.3f}", 8)

#: One row per Newton iteration of L2-SVM-MFN (``class``: the one-vs-rest problem).
MFN_TABLE = Table(
    [
        Column("class", "class", "{}", 6),
        Column("iter", "iter", "{:d}", 4),
        Column("cg_iter", "cg_iter", "{:d}", 7),
        Column("cg_converged", "cg_conv", "{}", 7),
        Column("n_active", "n_active", "{:d}", 8),
        Column("delta", "delta", "{:.4g}", 10),
        Column("objective", "objective", "{:.10g}", 16),
        _TIME,
    ]
)

#: One row per L2-SVM-MFN retraining of TSVM (Table 4's loops).
TSVM_TABLE = Table(
    [
        Column("lam_u", "lambda_u", "{:.4g}", 10),
        Column("switched", "switched", "{:d}", 8),
        Column("objective_before", "before", "{:.10g}", 16),
        Column("objective_switched", "switched_obj", "{:.10g}", 16),
        Column("objective", "objective", "{:.10g}", 16),
        Column("mfn_iter", "mfn_iter", "{:d}", 8),
        Column("converged", "converged", "{}", 9),
        _TIME,
    ]
)

#: One row per inner iteration of mean field annealing (Table 5).
MFA_TABLE = Table(
    [
        Column("T", "T", "{:.4g}", 10),
        Column("outer", "outer", "{:d}", 5),
        Column("inner", "inner", "{:d}", 5),
        Column("kl", "kl", "{:.3e}", 10),
        Column("objective", "objective", "{:.10g}", 16),
        Column("mfn_iter", "mfn_iter", "{:d}", 8),
        Column("p_newton", "p_newton", "{:d}", 8),
        Column("p_bisect", "p_bisect", "{:d}", 8),
        Column("p_residual", "p_residual", "{:.1e}", 10),
        _TIME,
    ]
)
