"""Docstring fragments LPSVR and LPSVC share (see :func:`svmcore.docstrings.fill_doc`)."""

from __future__ import annotations

__all__: list[str] = []

#: Parameter and attribute docs of the two estimators (their parameters are one set).
DOCS: dict[str, str] = {
    "sigma_degree_coef0": """\
        sigma : float, default=None
            The paper's RBF width: when given, ``gamma = 1 / (2 sigma^2)`` overrides
            ``gamma``.
        degree : int, default=3
            Degree of "poly".
        coef0 : float, default=0.0
            Independent term of "poly".""",
    "n_jobs": """\
        n_jobs : int, default=None
            Numba threads for kernel evaluations: None keeps Numba's current count (all
            cores unless set otherwise), a positive int caps it, -1 all.""",
    "n_features_in_": """\
        n_features_in_ : int
            Number of features seen during fit.
        feature_names_in_ : ndarray of shape (n_features_in_,)
            Names of features seen during fit (string feature names only).""",
}
