"""Tests of svmcore.validation: argument checks, sample weights and the y == -1 convention."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from svmcore.validation import (
    check_float_array,
    check_indices,
    check_positive_int,
    check_real,
    check_sample_weight,
    split_semi_supervised,
)


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6))
@settings(max_examples=50, deadline=None)
def test_check_real_interval(value):
    if value > 0:
        assert check_real(value, "C", low=0, low_closed=False) == value
    else:
        with pytest.raises(ValueError, match="C must be > 0"):
            check_real(value, "C", low=0, low_closed=False)


@pytest.mark.parametrize("bad", ["1", None, True, [1.0]])
def test_check_real_type(bad):
    with pytest.raises(TypeError, match="gamma must be a real number"):
        check_real(bad, "gamma")


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_check_real_finite(bad):
    with pytest.raises(ValueError, match="tol must be finite"):
        check_real(bad, "tol")


def test_check_real_upper_bound():
    assert check_real(1.0, "r0", low=0, high=1, low_closed=False) == 1.0
    with pytest.raises(ValueError, match="r0 must be < 1"):
        check_real(1.0, "r0", high=1, high_closed=False)


def test_check_positive_int():
    assert check_positive_int(np.int64(3), "k") == 3
    with pytest.raises(ValueError, match="k must be >= 2"):
        check_positive_int(1, "k", minimum=2)
    with pytest.raises(TypeError, match="k must be an int"):
        check_positive_int(2.0, "k")
    with pytest.raises(TypeError, match="k must be an int"):
        check_positive_int(True, "k")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_check_float_array_keeps_float_dtypes(dtype):
    X = np.arange(6, dtype=dtype).reshape(3, 2)
    out = check_float_array(X, "X")
    assert out.dtype == dtype
    assert out.flags.c_contiguous


def test_check_float_array_converts_ints_and_fortran():
    X = np.asfortranarray(np.arange(6).reshape(3, 2))
    out = check_float_array(X, "X")
    assert out.dtype == np.float64 and out.flags.c_contiguous
    np.testing.assert_array_equal(out, X)


def test_check_float_array_errors():
    with pytest.raises(ValueError, match="X contains NaN"):
        check_float_array(np.array([[1.0, np.nan]]), "X")
    with pytest.raises(ValueError, match="X must be 2-dimensional"):
        check_float_array(np.ones(3), "X")
    with pytest.raises(ValueError, match="X is empty"):
        check_float_array(np.ones((0, 3)), "X")
    with pytest.raises(TypeError, match="X must hold real numbers"):
        check_float_array(np.array([["a", "b"]]), "X")
    with pytest.raises(TypeError, match="X must be a dense array"):
        check_float_array(sp.eye(3, format="csr"), "X")


def test_check_float_array_sparse():
    X = sp.random(5, 4, density=0.5, format="coo", random_state=0, dtype=np.float32)
    out = check_float_array(X, "X", accept_sparse=True)
    assert sp.issparse(out) and out.format == "csr" and out.dtype == np.float32
    X = X.tocsr()
    X.data[0] = np.inf
    with pytest.raises(ValueError, match="X contains NaN or infinity"):
        check_float_array(X, "X", accept_sparse=True)


def test_check_indices():
    np.testing.assert_array_equal(check_indices([0, 2], "rows", 3), [0, 2])
    with pytest.raises(ValueError, match=r"rows holds indices outside \[0, 3\)"):
        check_indices([0, 3], "rows", 3)
    with pytest.raises(ValueError, match=r"rows holds indices outside"):
        check_indices([-1], "rows", 3)
    with pytest.raises(TypeError, match="rows must hold integers"):
        check_indices([0.5], "rows", 3)
    with pytest.raises(ValueError, match="rows must be a 1-d index array"):
        check_indices([[0]], "rows", 3)


def test_check_sample_weight():
    X = np.ones((3, 2), dtype=np.float32)
    sw = check_sample_weight(None, X)
    assert sw.dtype == np.float32
    np.testing.assert_array_equal(sw, 1.0)
    with pytest.raises(ValueError, match="[Nn]egative"):
        check_sample_weight([1.0, -1.0, 1.0], X)
    with pytest.raises(ValueError, match="non-zero"):
        check_sample_weight([0.0, 0.0, 0.0], X)
    np.testing.assert_array_equal(check_sample_weight([0.0, 1.0, 2.0], X), [0, 1, 2])
    with pytest.raises(ValueError, match="strictly positive"):
        check_sample_weight([0.0, 1.0, 2.0], X, allow_zero=False)


@given(
    st.lists(st.sampled_from([-1, 3, 7]), min_size=1, max_size=30),
)
@settings(max_examples=60, deadline=None)
def test_split_semi_supervised_property(labels):
    y = np.array(labels)
    has_both = {3, 7} <= set(labels)
    has_unlabeled = -1 in labels
    if not has_both:
        with pytest.raises(ValueError, match="exactly two classes"):
            split_semi_supervised(y)
        return
    if not has_unlabeled:
        with pytest.raises(ValueError, match="no unlabeled sample"):
            split_semi_supervised(y)
        classes, ys, unl = split_semi_supervised(y, require_unlabeled=False)
        assert not unl.any()
        return
    classes, ys, unl = split_semi_supervised(y)
    assert classes.tolist() == [3, 7]
    np.testing.assert_array_equal(unl, y == -1)
    np.testing.assert_array_equal(ys, np.where(y == 3, -1, np.where(y == 7, 1, 0)))


def test_split_semi_supervised_shape():
    with pytest.raises(ValueError, match="y must be 1-dimensional"):
        split_semi_supervised(np.zeros((2, 2)))


# ------------------------------------------------------------------ random_state


def test_check_seed_accepts_what_scikit_learn_accepts():
    from svmcore.validation import check_seed

    assert check_seed(None) is None
    assert check_seed(7) == 7 and check_seed(np.int64(7)) == 7
    # one draw per call, reproducible from the instance's state
    assert check_seed(np.random.RandomState(0)) == check_seed(np.random.RandomState(0))
    assert check_seed(np.random.default_rng(1)) == check_seed(np.random.default_rng(1))
    seeds = {check_seed(np.random.RandomState(s)) for s in range(20)}
    assert len(seeds) == 20 and all(0 <= s < 2**31 - 1 for s in seeds)
    for bad in (True, 1.5, "0", [0]):
        with pytest.raises(TypeError, match="random_state"):
            check_seed(bad)


def test_check_generator_returns_a_seeded_generator():
    from svmcore.validation import check_generator

    rng = np.random.default_rng(3)
    assert check_generator(rng) is rng
    a, b = check_generator(5), check_generator(5)
    assert a.integers(10**9) == b.integers(10**9)
    assert isinstance(check_generator(None), np.random.Generator)
    with pytest.raises(TypeError, match="random_state"):
        check_generator(object())


# ------------------------------------------------------------------ atomic fit


def test_fit_context_restores_the_estimator_when_fit_does_not_complete():
    from sklearn.base import BaseEstimator

    from svmcore.validation import fit_context

    class Toy(BaseEstimator):
        _parameter_constraints: dict = {"fail_at": [None, int]}

        def __init__(self, fail_at=None):
            self.fail_at = fail_at

        @fit_context(prefer_skip_nested_validation=True)
        def fit(self, X):
            self.first_ = np.asarray(X).sum()
            if self.fail_at == 1:
                raise KeyboardInterrupt
            self.second_ = self.first_ * 2
            if self.fail_at == 2:
                raise ValueError("solver failed")
            return self

    est = Toy().fit([1.0, 2.0])
    state = dict(vars(est))
    for fail_at, exc in [(1, KeyboardInterrupt), (2, ValueError)]:
        est.set_params(fail_at=fail_at)
        with pytest.raises(exc):
            est.fit([10.0])
        assert est.first_ == 3.0 and est.second_ == 6.0
        assert set(vars(est)) == set(state) | {"fail_at"}
    fresh = Toy(fail_at=2)
    with pytest.raises(ValueError):
        fresh.fit([1.0])
    assert not hasattr(fresh, "first_")  # an unfitted estimator stays unfitted
    with pytest.raises(ValueError, match="fail_at"):  # scikit-learn's validation still runs
        Toy(fail_at="x").fit([1.0])


def test_cached_param_names_match_scikit_learn_per_class(monkeypatch):
    from sklearn.base import BaseEstimator, clone

    from svmcore.validation import CachedParamNames

    class Plain(BaseEstimator):
        def __init__(self, *, b=1, a=2.0):
            self.b, self.a = b, a

    class Cached(CachedParamNames, Plain):
        pass

    class Wider(Cached):  # a subclass with another signature gets its own names
        def __init__(self, *, b=1, a=2.0, c="x"):
            super().__init__(b=b, a=a)
            self.c = c

    for _ in range(2):  # the first call fills the cache, the second reads it
        assert Cached._get_param_names() == Plain._get_param_names() == ["a", "b"]
        assert Wider._get_param_names() == ["a", "b", "c"]
    names = Cached._get_param_names()
    names.append("z")  # a caller's list is its own: the cache is unchanged
    assert Cached._get_param_names() == ["a", "b"]
    est = Cached(b=5)
    assert est.get_params() == Plain(b=5).get_params() == {"a": 2.0, "b": 5}
    assert clone(Wider(c="y")).get_params() == {"a": 2.0, "b": 1, "c": "y"}
    assert est.set_params(a=0.5).a == 0.5
    with pytest.raises(ValueError, match="Invalid parameter"):
        est.set_params(c=1)

    # scikit-learn's own reader is called once per class, whatever it does inside
    reads = []
    own = BaseEstimator._get_param_names.__func__

    def counted(cls):
        reads.append(cls)
        return own(cls)

    monkeypatch.setattr(BaseEstimator, "_get_param_names", classmethod(counted))

    class Fresh(CachedParamNames, Plain):
        pass

    for _ in range(3):
        assert Fresh(a=1.0).get_params() == {"a": 1.0, "b": 1}
    assert reads == [Fresh]
    Plain().get_params()
    Plain().get_params()
    assert reads == [Fresh, Plain, Plain]  # (uncached: read at every call)


def test_feature_scale_guard_warns_at_fit_only():
    # issue 19: columns 1e-150 and 1e150 apart: a regularized model cannot use the small
    # one (MFN, TSVM and MFA fitted below the majority class, silently)
    import warnings

    from sklearn.base import BaseEstimator

    from svmcore.validation import FeatureScaleWarning, validate_data

    X = np.c_[np.ones(5), np.arange(5.0) * 1e-150]
    est = BaseEstimator()
    with pytest.warns(FeatureScaleWarning, match="StandardScaler"):
        validate_data(est, X)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        validate_data(est, X, reset=False)  # predict: no warning
        validate_data(BaseEstimator(), X, check_scales=False)  # unregularized models
        validate_data(BaseEstimator(), np.c_[np.ones(5), np.full(5, 1e-11)])  # within 1e12
        validate_data(BaseEstimator(), np.c_[np.ones(5), np.zeros(5)])  # zero columns skip
    Xs = sp.csr_matrix(X)
    with pytest.warns(FeatureScaleWarning):
        validate_data(BaseEstimator(), Xs, np.arange(5), accept_sparse="csr")


def test_check_magnitude_low_and_float32_limits():
    from svmcore.validation import check_magnitude

    with pytest.raises(ValueError, match="below the .* Rescale X"):
        check_magnitude(np.full((3, 2), 1e-20), "X", "Est", low=1e-10)
    check_magnitude(np.zeros((3, 2)), "X", "Est", low=1e-10)  # all zero: nothing to rescale
    # float32: a row's squared norm must stay finite in float32 (about 1.3e19 for 2 columns)
    with pytest.raises(ValueError, match="magnitude"):
        check_magnitude(np.full((3, 2), 1e37, dtype=np.float32), "X", "Est")
    check_magnitude(np.full((3, 2), 1e37), "X", "Est", limit=1e300)


def test_hard_margin_scale_dense_csr_centre_and_weights():
    from svmcore.validation import hard_margin_scale

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 5)) * 1e6
    X[rng.random(X.shape) < 0.5] = 0.0
    s = rng.uniform(0.5, 3.0, size=40)
    centre = (s @ X) / s.sum()
    expected = 7.0 * np.max(s * ((X - centre) ** 2).sum(axis=1))
    for data in (X, sp.csr_matrix(X)):
        got = hard_margin_scale(data, s, C=7.0, center=centre)
        assert got == pytest.approx(expected, rel=1e-12)
        assert hard_margin_scale(data) == pytest.approx(np.max((X**2).sum(axis=1)), rel=1e-12)
    assert hard_margin_scale(np.empty((0, 5))) == 0.0
