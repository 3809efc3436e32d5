"""The shortcuts of svmcore.validation for plain NumPy input give what scikit-learn's own
routes give (same objects, same attributes, same errors and warnings)."""

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator
from sklearn.utils.multiclass import check_classification_targets as sk_targets
from sklearn.utils.validation import validate_data as sk_validate

from svmcore.validation import (
    check_classification_targets,
    class_labels,
    validate_data,
    warn_feature_scales,
)
from svmcore.validation._magnitude import _column_abs_max, _csr_column_abs_max
from svmcore.validation._sklearn import _plain_arrays

PARAMS = {"accept_sparse": "csr", "dtype": [np.float64, np.float32], "order": "C"}


class _Est(BaseEstimator):
    pass


def _both(X, y, reset=True, fitted_with=None, **params):
    """(svmcore's outcome, scikit-learn's outcome): results or exception types."""
    out = []
    for fn in (validate_data, sk_validate):
        est = _Est()
        if fitted_with is not None:
            est.n_features_in_ = fitted_with
        try:
            res = fn(est, X, y, reset=reset, **params)
            out.append((res, est.n_features_in_))
        except (ValueError, TypeError) as exc:
            out.append(type(exc))
    return out


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("ydtype", [np.int64, np.int8, np.float64, bool])
def test_plain_input_takes_the_shortcut_and_returns_what_scikit_learn_returns(dtype, ydtype):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 4)).astype(dtype)
    y = (rng.random(30) < 0.5).astype(ydtype)
    assert _plain_arrays(_Est(), X, y, True, PARAMS) is not None  # the shortcut applies
    (ours, n_ours), (theirs, n_theirs) = _both(X, y, **PARAMS)
    assert ours[0] is X and theirs[0] is X
    np.testing.assert_array_equal(ours[1], theirs[1])
    assert ours[1].dtype == theirs[1].dtype and n_ours == n_theirs == 4
    # predict-time (reset=False, no y)
    for fn in (validate_data, sk_validate):
        est = _Est()
        est.n_features_in_ = 4
        assert fn(est, X, reset=False, **PARAMS) is X


@pytest.mark.parametrize(
    "case",
    ["nan", "inf", "int_X", "fortran", "empty", "no_features", "y_2d", "y_short", "y_nan",
     "y_str", "list", "wrong_width", "huge"],
)  # fmt: skip
def test_other_input_goes_to_scikit_learn_with_the_same_outcome(case):
    rng = np.random.default_rng(1)
    X = rng.standard_normal((30, 4))
    y = (rng.random(30) < 0.5).astype(np.int64)
    fitted = None
    if case == "nan":
        X[3, 2] = np.nan
    elif case == "inf":
        X[0, 0] = np.inf
    elif case == "int_X":
        X = np.arange(120).reshape(30, 4)
    elif case == "fortran":
        X = np.asfortranarray(X)
    elif case == "empty":
        X, y = X[:0], y[:0]
    elif case == "no_features":
        X = X[:, :0].copy()
    elif case == "y_2d":
        y = y[:, None]
    elif case == "y_short":
        y = y[:-1]
    elif case == "y_nan":
        y = y.astype(float)
        y[4] = np.nan
    elif case == "y_str":
        y = np.where(y == 1, "a", "b")
    elif case == "list":
        X = X.tolist()
    elif case == "wrong_width":
        fitted = 5
    elif case == "huge":
        X[:, 0] = 1e308  # finite, but its sum overflows: scikit-learn's full check
    if not isinstance(X, list):
        est = _Est()
        if fitted is not None:
            est.n_features_in_ = fitted
        assert _plain_arrays(est, X, y, fitted is None, PARAMS) is None
    reset = fitted is None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = _both(X, y, reset=reset, fitted_with=fitted, **PARAMS)
    if isinstance(theirs, type):
        assert ours is theirs
    else:
        np.testing.assert_array_equal(ours[0][0], theirs[0][0])
        np.testing.assert_array_equal(ours[0][1], theirs[0][1])
        assert ours[1] == theirs[1]


def test_y_none_keeps_scikit_learn_s_check_that_y_is_required():
    from sklearn.base import ClassifierMixin

    class _Clf(ClassifierMixin, BaseEstimator):
        pass

    with pytest.raises(ValueError, match="requires y to be passed"):
        validate_data(_Clf(), np.ones((3, 2)), None)


def test_feature_names_keep_scikit_learn_s_route():
    est = _Est()
    est.feature_names_in_ = np.array(["a", "b"])
    X = np.ones((3, 2))
    assert _plain_arrays(est, X, None, False, PARAMS) is None


@pytest.mark.parametrize(
    "y",
    [
        np.array([0, 1, 1, 0]),
        np.array([3, -2, 7], dtype=np.int8),
        np.array([True, False]),
        np.arange(100),  # > 50 % distinct: scikit-learn's warning
        np.array([0.0, 1.0, 2.0]),
        np.array([0.5, 1.0]),  # continuous: error
        np.array([[0, 1], [1, 0]]),  # multilabel indicator: error
        np.array(["a", "b"]),
        np.array([], dtype=np.int64),
    ],
)
def test_check_classification_targets_same_errors_and_warnings(y):
    outcomes = []
    for fn in (check_classification_targets, sk_targets):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                fn(y)
                outcomes.append(("ok", [str(w.message) for w in caught]))
            except ValueError as exc:
                outcomes.append(("error", str(exc)))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize(
    "y",
    [
        np.array([5, 5, 2, 9, 2]),
        np.array([-3, 4], dtype=np.int16),
        np.array([0, 2**40, 7]),  # wide span: numpy's route
        np.array([2**63 - 1, 2**63 - 2]),
        np.array([3, 1], dtype=np.uint64),
        np.array([1.0, -1.0, 1.0]),
        np.array(["b", "a", "b"]),
        np.array([True, False, True]),
    ],
)
def test_class_labels_is_np_unique(y):
    got, ref = class_labels(y), np.unique(y)
    assert got.dtype == ref.dtype
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_column_abs_max_is_numpy_and_the_scale_warning_is_unchanged(dtype):
    rng = np.random.default_rng(2)
    X = (rng.standard_normal((500, 7)) * 10.0 ** rng.integers(-5, 5, 7)).astype(dtype)
    X[:, 3] = 0.0
    ref = np.max(np.abs(X.astype(np.float64)), axis=0)
    assert _column_abs_max(X).tobytes() == ref.tobytes()
    X[:, 1] *= 1e-13  # scales now differ by more than 1e12 (float64 only keeps them)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warn_feature_scales(X, "Est")
    expected = dtype == np.float64 or np.abs(X[:, 1]).max() > 0
    assert bool(caught) == bool(expected)


def test_csr_column_scales_equal_scipys_column_max():
    # warn_feature_scales reads CSR column scales from the stored values (issue 16): the
    # same maxima as abs(X).max(axis=0), including an all-zero column and negatives.
    import scipy.sparse as sp

    X = sp.random(200, 30, density=0.2, random_state=3, format="csr")
    X.data -= 0.6
    X = sp.csr_matrix(X[:, :29].toarray() * 10.0 ** np.arange(-14, 15))
    X = sp.hstack([X, sp.csr_matrix((200, 1))], format="csr")  # a column without entries
    ref = np.asarray(abs(X).max(axis=0).todense()).ravel()
    np.testing.assert_array_equal(_csr_column_abs_max(X.data, X.indices, X.shape[1]), ref)
