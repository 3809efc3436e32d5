"""Docstring fragments the three classifiers share (see :func:`svmcore.docstrings.fill_doc`)."""

from __future__ import annotations

from svmcore.docstrings import SEMI_SUPERVISED

__all__: list[str] = []

#: Fragments of MFNClassifier, TSVMClassifier and MFAClassifier, with svmcore's
#: semi-supervised ones, and of the solvers' results and objectives.
DOCS: dict[str, str] = {
    **SEMI_SUPERVISED,
    "intercept": """\
        fit_intercept, regularize_intercept : bool, default=True
            Bias as a constant feature, regularized like SVMlin unless disabled.""",
    "cg_preconditioner": """\
        cg_max_iter : int, default=10000
            CGLS iterations per Newton step.
        preconditioner : {None, "jacobi"}, default=None
            Jacobi-preconditioned CGLS (beyond the paper).""",
    "n_jobs": """\
        n_jobs : int, default=None
            Numba threads.""",
    "converged_": """\
        converged_ : bool
            False when ``time_limit`` stopped the fit or an iteration cap ended it
            before its stopping conditions (``max_iter`` Newton iterations of an
            L2-SVM-MFN or OPTIMIZE-W solve), each with a ``ConvergenceWarning``
            naming the budget.""",
    "binary_classes_": """\
        classes_ : ndarray of shape (2,)
            The two class labels.""",
    "positive_fraction_": """\
        positive_fraction_ : float
            The :math:`r` used.""",
    "n_features_in_": """\
        n_features_in_ : int
            Number of features seen during fit.
        feature_names_in_ : ndarray of shape (n_features_in_,)
            Names of features seen during fit, when X has string column names.""",
    "semi_beyond_paper": """\
        Beyond the paper: ``preconditioner="jacobi"``, ``regularize_intercept=False`` and
        sample weights (:math:`l` and :math:`u` become total weights).""",
    "result_w_outputs": """\
        w : ndarray of shape (dim,)
            Weights; the last entry is the bias when ``intercept=True``.
        outputs : ndarray of shape (n_samples,)
            ``X w`` (bias included) on every row.""",
    "objective_w_outputs": """\
        w : ndarray of shape (dim,)
            Weights (the bias last when the data carry the constant feature).
        outputs : ndarray of shape (n_samples,)
            :math:`o = Xw`.""",
    "objective_cost_lam": """\
        cost : ndarray of shape (n_samples,)
            Non-negative costs :math:`c_i`.
        lam : float or ndarray of shape (dim,)
            Regularization :math:`\\Lambda` (a scalar or its diagonal).

        Returns
        -------
        value : float
            The objective at ``w``.""",
    "semi_example_data": """\
        >>> rng = np.random.default_rng(0)
        >>> X = np.r_[rng.normal(-2, 1, (50, 2)), rng.normal(2, 1, (50, 2))]
        >>> y = np.full(100, -1)  # -1: unlabeled
        >>> y[:3], y[50:53] = 0, 1  # y is {-1, 0, 1}: state the convention""",
    "semi_example_check": """\
        >>> float((clf.transduction_ == np.repeat([0, 1], 50)).mean()) > 0.9
        True
        >>> clf.score(X, y)  # the six labeled rows only
        1.0""",
}
