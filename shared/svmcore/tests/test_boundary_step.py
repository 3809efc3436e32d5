"""svmcore.linalg.boundary_step: the interior-point ratio test."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from svmcore.linalg import boundary_step

finite = st.floats(-1e6, 1e6, allow_nan=False)


def _numpy_step(v, dv):
    """The masked NumPy form the interior points used before (the reference)."""
    neg = dv < 0
    return 1.0 if not neg.any() else min(1.0, float(np.min(-v[neg] / dv[neg])))


@settings(max_examples=200, deadline=None)
@given(
    data=st.integers(0, 60).flatmap(
        lambda n: st.tuples(
            arrays(np.float64, n, elements=st.floats(0.0, 1e6)),
            arrays(np.float64, n, elements=finite),
        )
    )
)
def test_same_step_as_the_masked_numpy_form(data):
    v, dv = data
    step = boundary_step(v, dv)
    assert step == _numpy_step(v, dv)  # the same quotients: equal to the bit
    assert 0.0 <= step <= 1.0
    assert np.all(v + step * dv >= -1e-9 * (1.0 + np.abs(v)))


def test_no_decreasing_entry_gives_a_full_step_and_nan_quotients_pass():
    assert boundary_step(np.ones(3), np.array([0.0, 1.0, 2.0])) == 1.0
    assert boundary_step(np.zeros(0), np.zeros(0)) == 1.0
    v, dv = np.array([np.nan, 1.0]), np.array([-1.0, -4.0])
    assert boundary_step(v, dv) == 0.25
