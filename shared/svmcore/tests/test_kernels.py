"""svmcore.kernels against scikit-learn's pairwise kernels and naive loops."""

import math

import numpy as np
import pytest
import scipy.sparse as sp
from _naive import naive_distances, naive_gram
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel

from svmcore.kernels import (
    KernelSpec,
    gram,
    kernel_diag,
    kernel_distances,
    kernel_matvec,
    kernel_rows,
    resolve_gamma,
)
from svmcore.kernels._api import _DIRECT_MAX_FEATURES, _PARALLEL_MIN_ENTRIES

PARAMS = {
    "linear": {"kernel": "linear"},
    "rbf": {"kernel": "rbf", "gamma": 0.3},
    "poly": {"kernel": "poly", "gamma": 0.2, "degree": 3, "coef0": 1.5},
}
DTYPES = [np.float32, np.float64]
# Both code paths: direct differences (few features) and BLAS expansion (many).
N_FEATURES = [3, _DIRECT_MAX_FEATURES + 12]


def sklearn_kernel(X, Y, kernel, gamma=None, degree=3, coef0=1.0):
    X = np.asarray(X, dtype=np.float64)
    Y = X if Y is None else np.asarray(Y, dtype=np.float64)
    if kernel == "linear":
        return linear_kernel(X, Y)
    if kernel == "rbf":
        return rbf_kernel(X, Y, gamma=gamma)
    return polynomial_kernel(X, Y, degree=degree, gamma=gamma, coef0=coef0)


def assert_close(actual, expected, dtype):
    """Tolerances scaled to the magnitude of the reference and to the dtype's precision."""
    scale = max(1.0, float(np.abs(expected).max(initial=0.0)))
    rtol, atol = (2e-5, 2e-5 * scale) if dtype == np.float32 else (1e-11, 1e-11 * scale)
    assert actual.dtype == dtype
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol)


def make_data(n_x, n_y, n_features, dtype, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n_x, n_features)).astype(dtype)
    Y = rng.standard_normal((n_y, n_features)).astype(dtype)
    return X, Y


@pytest.mark.parametrize("name", list(PARAMS))
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n_features", N_FEATURES)
def test_gram_matches_sklearn(name, dtype, n_features):
    params = PARAMS[name]
    X, Y = make_data(40, 23, n_features, dtype)
    assert_close(gram(X, Y, **params), sklearn_kernel(X, Y, **params), dtype)
    assert_close(gram(X, **params), sklearn_kernel(X, None, **params), dtype)


@pytest.mark.parametrize("name", list(PARAMS))
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n_features", N_FEATURES)
def test_gram_subsets_match_naive(name, dtype, n_features):
    params = PARAMS[name]
    X, Y = make_data(17, 11, n_features, dtype, seed=1)
    rows = np.array([16, 0, 3, 3, 9])
    cols = [10, 2, 2, 0]
    expected = naive_gram(X, Y, rows=rows, cols=cols, **params)
    assert_close(gram(X, Y, rows=rows, cols=cols, **params), expected, dtype)
    assert_close(gram(X, Y, rows=rows, **params), naive_gram(X, Y, rows=rows, **params), dtype)
    assert_close(kernel_rows(X, rows, **params), naive_gram(X, rows=rows, **params), dtype)


@pytest.mark.parametrize("name", list(PARAMS))
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n_features", N_FEATURES)
def test_distances_match_naive(name, dtype, n_features):
    params = PARAMS[name]
    X, Y = make_data(13, 9, n_features, dtype, seed=2)
    assert_close(kernel_distances(X, Y, **params), naive_distances(X, Y, **params), dtype)
    D = kernel_distances(X, **params)
    assert_close(D, naive_distances(X, **params), dtype)
    assert (D >= 0).all()
    sub = kernel_distances(X, Y, rows=[4, 1], cols=[8, 0, 5], **params)
    assert_close(sub, naive_distances(X[[4, 1]], Y[[8, 0, 5]], **params), dtype)


@pytest.mark.parametrize("name", list(PARAMS))
@pytest.mark.parametrize("dtype", DTYPES)
def test_diag_matches_naive(name, dtype):
    params = PARAMS[name]
    X, _ = make_data(15, 1, 4, dtype, seed=3)
    expected = np.diag(naive_gram(X, **params))
    assert_close(kernel_diag(X, **params), expected, dtype)
    assert_close(kernel_diag(sp.csr_matrix(X), **params), expected, dtype)


@pytest.mark.parametrize("name", list(PARAMS))
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n_features", N_FEATURES)
@pytest.mark.parametrize("block_size", [1, 3, 7, 64, None])
def test_matvec_matches_dense_product(name, dtype, n_features, block_size):
    params = PARAMS[name]
    X, Y = make_data(29, 19, n_features, dtype, seed=4)
    K = sklearn_kernel(X, Y, **params)
    rng = np.random.default_rng(5)
    v = rng.standard_normal(19).astype(dtype)
    V = rng.standard_normal((19, 3)).astype(dtype)
    assert_close(kernel_matvec(X, Y, v, block_size=block_size, **params), K @ v, dtype)
    assert_close(kernel_matvec(X, Y, V, block_size=block_size, **params), K @ V, dtype)
    K_xx = sklearn_kernel(X, None, **params)
    w = rng.standard_normal(29).astype(dtype)
    assert_close(kernel_matvec(X, None, w, block_size=block_size, **params), K_xx @ w, dtype)


def test_matvec_promotes_like_numpy():
    X, Y = make_data(5, 4, 2, np.float32)
    out = kernel_matvec(X, Y, np.ones(4, dtype=np.float64), kernel="linear")
    assert out.dtype == np.float64
    out = kernel_matvec(X, Y, np.ones(4, dtype=np.int64), kernel="linear")
    assert out.dtype == np.float64
    np.testing.assert_allclose(out, linear_kernel(X, Y).sum(axis=1), rtol=1e-5)


@pytest.mark.parametrize("name", list(PARAMS))
@pytest.mark.parametrize("dtype", DTYPES)
def test_sparse_input_matches_dense(name, dtype):
    params = PARAMS[name]
    rng = np.random.default_rng(6)
    X = sp.random(20, 30, density=0.2, format="csr", random_state=rng, dtype=dtype)
    Y = sp.random(12, 30, density=0.2, format="csr", random_state=rng, dtype=dtype)
    Xd, Yd = X.toarray(), Y.toarray()
    assert_close(gram(X, Y, **params), sklearn_kernel(Xd, Yd, **params), dtype)
    assert_close(gram(X, Yd, rows=[3, 1], **params), gram(Xd, Yd, rows=[3, 1], **params), dtype)
    assert_close(kernel_rows(X, [0, 19], **params), kernel_rows(Xd, [0, 19], **params), dtype)
    assert_close(kernel_distances(X, Y, **params), naive_distances(Xd, Yd, **params), dtype)
    v = rng.standard_normal(12).astype(dtype)
    expected = sklearn_kernel(Xd, Yd, **params) @ v
    assert_close(kernel_matvec(X, Y, v, block_size=6, **params), expected, dtype)


def test_mixed_dtypes_promote_to_float64():
    X, _ = make_data(4, 1, 3, np.float32)
    Y = np.ones((2, 3))
    assert gram(X, Y).dtype == np.float64
    assert gram(X).dtype == np.float32
    assert gram(X.astype(np.int64), kernel="linear").dtype == np.float64


def test_n_jobs_gives_identical_results():
    X, Y = make_data(50, 40, 20, np.float64, seed=7)
    np.testing.assert_array_equal(gram(X, Y, n_jobs=1), gram(X, Y, n_jobs=-1))


@pytest.mark.parametrize("name", list(PARAMS))
@pytest.mark.parametrize("n_features", N_FEATURES)
def test_multithreaded_blocks_match_sklearn(name, n_features):
    # Large enough that every parallel pass runs on all threads (small calls use one).
    n = int(np.sqrt(_PARALLEL_MIN_ENTRIES)) + 8
    X, Y = make_data(n, n, n_features, np.float64, seed=3)
    assert_close(
        gram(X, Y, n_jobs=-1, **PARAMS[name]), sklearn_kernel(X, Y, **PARAMS[name]), np.float64
    )
    V = np.linspace(-1.0, 1.0, n)
    expected = sklearn_kernel(X, Y, **PARAMS[name]) @ V
    np.testing.assert_allclose(
        kernel_matvec(X, Y, V, n_jobs=-1, **PARAMS[name]), expected, rtol=1e-10, atol=1e-8 * n
    )


def test_empty_index_sets():
    X, _ = make_data(4, 1, 3, np.float64)
    assert gram(X, rows=np.array([], dtype=int)).shape == (0, 4)
    assert gram(X, cols=np.array([], dtype=int)).shape == (4, 0)


def test_kernel_spec_roundtrip():
    spec = KernelSpec("poly", gamma=0.5, degree=2, coef0=0.0)
    assert spec.validate() is spec
    X, _ = make_data(6, 1, 3, np.float64)
    np.testing.assert_allclose(
        gram(X, **spec.params()), polynomial_kernel(X, degree=2, gamma=0.5, coef0=0.0)
    )
    with pytest.raises(AttributeError):
        spec.gamma = 2.0
    with pytest.raises(ValueError, match="gamma"):
        KernelSpec("rbf", gamma=-1.0).validate()


def test_resolve_gamma_matches_sklearn_definitions():
    X, _ = make_data(30, 1, 5, np.float64, seed=8)
    X *= 3.0
    assert resolve_gamma("scale", X) == pytest.approx(1.0 / (5 * X.var()), rel=1e-12)
    assert resolve_gamma("scale", sp.csr_matrix(X)) == pytest.approx(1.0 / (5 * X.var()), rel=1e-9)
    assert resolve_gamma("auto", X) == 0.2
    assert resolve_gamma(0.7, X) == 0.7
    assert resolve_gamma("scale", np.ones((3, 2))) == 1.0
    with pytest.raises(ValueError, match="gamma"):
        resolve_gamma("median", X)
    with pytest.raises(ValueError, match="gamma"):
        resolve_gamma(0.0, X)
    with pytest.raises(TypeError, match="gamma"):
        resolve_gamma(None, X)


@pytest.mark.parametrize("scale", [1e-100, 1e-30, 1e30, 1e100])
def test_resolve_gamma_scale_survives_extreme_feature_scales(scale):
    # X.var() itself under- or overflows at these scales; gamma = 1/(d var) does not
    X, _ = make_data(30, 1, 5, np.float64, seed=8)
    expected = 1.0 / (5 * X.var()) / scale**2
    assert resolve_gamma("scale", X * scale) == pytest.approx(expected, rel=1e-12)
    assert resolve_gamma("scale", sp.csr_matrix(X * scale)) == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize(
    ("dtype", "scale"),
    [(np.float64, s) for s in (1e-90, 1e-3, 1.0, 1e40, 1e90)]
    + [(np.float32, s) for s in (1e-15, 1.0, 1e15)],
)
def test_resolve_gamma_plain_variance_equals_the_scaled_one(scale, dtype):
    # Dense data well inside float range take X.var() directly; scaling by a power of two
    # is exact, so the value must be the scaled path's to the last bit.
    X, _ = make_data(40, 1, 6, np.float64, seed=9)
    X = (X * scale).astype(dtype)
    k = math.frexp(float(np.abs(X).max()))[1]
    scaled = np.ldexp(1.0 / (6 * float((X * np.ldexp(1.0, -k)).var(dtype=np.float64))), -2 * k)
    assert resolve_gamma("scale", X) == scaled


@pytest.mark.parametrize("scale", [1e-160, 1e160])
def test_resolve_gamma_scale_out_of_float_range_names_the_cause(scale):
    X, _ = make_data(30, 1, 5, np.float64, seed=8)
    with pytest.raises(ValueError, match="gamma='scale'.*Rescale X"):
        resolve_gamma("scale", X * scale)


# ----------------------------------------------------------------- input validation


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"kernel": "sigmoid"}, ValueError, "kernel"),
        ({"kernel": None}, ValueError, "kernel"),
        ({"kernel": "rbf", "gamma": 0.0}, ValueError, "gamma"),
        ({"kernel": "rbf", "gamma": -1.0}, ValueError, "gamma"),
        ({"kernel": "rbf", "gamma": np.nan}, ValueError, "gamma"),
        ({"kernel": "rbf", "gamma": "scale"}, TypeError, "gamma"),
        ({"kernel": "poly", "gamma": 1.0, "degree": 0}, ValueError, "degree"),
        ({"kernel": "poly", "gamma": 1.0, "degree": 2.5}, TypeError, "degree"),
        ({"kernel": "poly", "gamma": 1.0, "degree": True}, TypeError, "degree"),
        ({"kernel": "poly", "gamma": 1.0, "coef0": np.inf}, ValueError, "coef0"),
    ],
)
def test_bad_kernel_parameters(kwargs, error, match):
    X = np.ones((3, 2))
    for call in (
        lambda: gram(X, **kwargs),
        lambda: kernel_rows(X, [0], **kwargs),
        lambda: kernel_diag(X, **kwargs),
        lambda: kernel_distances(X, **kwargs),
        lambda: kernel_matvec(X, None, np.ones(3), **kwargs),
    ):
        with pytest.raises(error, match=match):
            call()


def test_bad_arrays():
    X = np.ones((3, 2))
    with pytest.raises(ValueError, match="X and Y"):
        gram(X, np.ones((3, 3)))
    with pytest.raises(ValueError, match="X and Y"):
        kernel_matvec(X, np.ones((3, 3)), np.ones(3))
    bad = X.copy()
    bad[1, 1] = np.nan
    with pytest.raises(ValueError, match="X contains NaN"):
        gram(bad)
    with pytest.raises(ValueError, match="Y contains NaN"):
        kernel_distances(X, bad)
    with pytest.raises(ValueError, match="X"):
        kernel_diag(np.ones(3))
    with pytest.raises(TypeError, match="X"):
        gram(np.array([["a", "b"]]))
    with pytest.raises(ValueError, match="rows"):
        gram(X, rows=[0, 3])
    with pytest.raises(ValueError, match="rows"):
        kernel_rows(X, [-1])
    with pytest.raises(TypeError, match="rows"):
        kernel_rows(X, None)
    with pytest.raises(TypeError, match="cols"):
        gram(X, cols=[0.5])
    with pytest.raises(ValueError, match="cols"):
        kernel_distances(X, np.ones((2, 2)), cols=[2])
    with pytest.raises(ValueError, match="V must have shape"):
        kernel_matvec(X, None, np.ones(4))
    with pytest.raises(ValueError, match="V contains NaN"):
        kernel_matvec(X, None, np.array([1.0, np.nan, 0.0]))
    with pytest.raises(TypeError, match="V"):
        kernel_matvec(X, None, np.array(["a", "b", "c"]))
    with pytest.raises(ValueError, match="block_size"):
        kernel_matvec(X, None, np.ones(3), block_size=0)
    with pytest.raises(ValueError, match="n_jobs"):
        gram(X, n_jobs=0)


# ----------------------------------------------------- hypothesis: degenerate data


def small_matrices(dtype):
    """Few rows, with duplicates and zero vectors likely (small integer grid)."""
    elements = st.integers(-2, 2).map(float)
    return st.integers(1, 5).flatmap(
        lambda n_features: st.tuples(
            arrays(dtype, st.tuples(st.integers(1, 6), st.just(n_features)), elements=elements),
            arrays(dtype, st.tuples(st.integers(1, 4), st.just(n_features)), elements=elements),
        )
    )


@settings(max_examples=25, deadline=None)
@given(data=small_matrices(np.float64), name=st.sampled_from(list(PARAMS)))
def test_degenerate_data_float64(data, name):
    check_degenerate(*data, PARAMS[name], np.float64)


@settings(max_examples=15, deadline=None)
@given(data=small_matrices(np.float32), name=st.sampled_from(list(PARAMS)))
def test_degenerate_data_float32(data, name):
    check_degenerate(*data, PARAMS[name], np.float32)


def check_degenerate(X, Y, params, dtype):
    assert_close(gram(X, Y, **params), naive_gram(X, Y, **params), dtype)
    K = gram(X, **params)
    np.testing.assert_array_equal(K, K.T)
    D = kernel_distances(X, **params)
    assert_close(D, naive_distances(X, **params), dtype)
    assert (D >= 0).all()
    # A point is at distance zero from itself (up to rounding of k(a, a) computed twice).
    assert_close(np.diag(D), np.zeros(X.shape[0]), dtype)
    assert_close(kernel_diag(X, **params), np.diag(naive_gram(X, **params)), dtype)
    v = np.arange(Y.shape[0], dtype=dtype)
    assert_close(
        kernel_matvec(X, Y, v, block_size=2, **params), naive_gram(X, Y, **params) @ v, dtype
    )


@settings(max_examples=30, deadline=None)
@given(
    kernel=st.one_of(st.text(max_size=6), st.none(), st.integers()),
    gamma=st.one_of(st.floats(allow_nan=True), st.integers(-3, 3), st.text(max_size=3)),
    degree=st.one_of(st.integers(-2, 4), st.floats(-1, 4), st.booleans()),
)
def test_parameter_validation_is_total(kernel, gamma, degree):
    """Any parameter combination either works or raises ValueError/TypeError naming it."""
    X = np.ones((2, 2))
    try:
        K = gram(X, kernel=kernel, gamma=gamma, degree=degree)
    except (ValueError, TypeError) as exc:
        assert any(name in str(exc) for name in ("kernel", "gamma", "degree"))
    else:
        assert kernel in PARAMS
        assert np.isfinite(K).all()


def test_working_dtype_keeps_float32_only_where_it_carries_the_kernel():
    from svmcore.kernels import working_dtype

    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 4))
    assert working_dtype(X) == np.float64
    assert working_dtype(X.astype(np.float32), gamma=0.25) == np.float32
    assert working_dtype(sp.csr_matrix(X, dtype=np.float32)) == np.float32
    assert working_dtype(np.zeros((3, 2), dtype=np.float32)) == np.float32
    for scale in (1e19, 1e-16):  # squared norms overflow / squared distances underflow
        assert working_dtype((X * scale).astype(np.float32)) == np.float64
    assert working_dtype((X * 1e17).astype(np.float32)) == np.float32
    # a gamma or coef0 outside float32's normal range (zero or infinite there)
    f32 = X.astype(np.float32)
    assert working_dtype(f32, kernel="rbf", gamma=1e-73) == np.float64
    assert working_dtype(f32, kernel="poly", gamma=1e39) == np.float64
    assert working_dtype(f32, kernel="poly", coef0=1e-40) == np.float64
    # parameters a kernel does not use do not matter
    assert working_dtype(f32, kernel="linear", gamma=1e-73) == np.float32
    assert working_dtype(f32, kernel="rbf", gamma=0.5, coef0=1e-40) == np.float32
    # what float32 does to such a gamma: every RBF value 1, the reason for float64
    K = gram(f32, kernel="rbf", gamma=1e-73)
    assert np.all(K == 1.0)
