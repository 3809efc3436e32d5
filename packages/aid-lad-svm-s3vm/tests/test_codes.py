"""The Numba evaluation codes equal the numpy formulas they replaced, bit for bit."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from aid_models._codes import ZERO_RTOL, margin_codes, residual_codes


def _numpy_margin(scores, y, s):
    margin = 1.0 - y * scores
    free = np.abs(margin) <= ZERO_RTOL * (1.0 + np.abs(scores))
    code = (margin > 0).astype(np.int8) + 2 * free.astype(np.int8)
    correct = int(np.count_nonzero(np.where(scores > 0, 1.0, -1.0) == y))
    return code, float(s @ np.maximum(margin, 0.0)), correct


def _numpy_residual(y, pred, s):
    r = y - pred
    free = np.abs(r) <= ZERO_RTOL * (np.abs(y) + np.abs(pred))
    code = (r > 0).astype(np.int8) + 2 * free.astype(np.int8)
    return code, float(s @ np.abs(r))


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 300), seed=st.integers(0, 2**16), scale=st.sampled_from([1e-3, 1.0, 1e6]))
def test_codes_equal_the_numpy_formulas(n, seed, scale):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    scores = scale * rng.normal(size=n)
    on_margin = rng.random(n) < 0.3  # exactly on, or within round-off of, the margin
    scores[on_margin] = y[on_margin] * (1.0 + 1e-12 * rng.normal(size=on_margin.sum()))
    scores[rng.random(n) < 0.05] = 0.0
    s = rng.random(n)
    got, want = margin_codes(scores, y, s), _numpy_margin(scores, y, s)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1:] == want[1:]
    target = scores + scale * rng.laplace(size=n)
    target[on_margin] = scores[on_margin] * (1.0 + 1e-12)
    got, want = residual_codes(target, scores, s), _numpy_residual(target, scores, s)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1] == want[1]
    assert set(np.unique(got[0])) <= {0, 1, 2, 3}
