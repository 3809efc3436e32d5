"""Valid but hostile data never give a silently wrong model (issue 19, part 1).

Each fit on data drawn by :func:`svmcore.testing.hostile.hostile_data` either raises a
clear error, warns naming the cause, or is at least as good as the trivial model
(:func:`svmcore.testing.hostile.check_hostile_fit`). Derandomized: the same draws in CI
and locally; ``C`` is multiplied by the draw's ``penalty_scale`` (huge C). DeriveRS runs
on every draw (no fallback, groups of 30).
"""

import pytest
from hypothesis import given

from aesvm import AESVC
from svmcore.testing.hostile import CASES, check_hostile_fit, hostile_data, suite_settings

SETTINGS = suite_settings()


@pytest.mark.parametrize("kernel", ["rbf", "linear"])
@pytest.mark.parametrize("case", CASES)
def test_aesvc_on_hostile_data(case, kernel):
    @SETTINGS
    @given(hostile_data(cases=[case]))
    def check(data):
        est = AESVC(
            C=data.penalty_scale,
            kernel=kernel,
            fallback_fraction=None,
            group_size=30,
            reuse_representatives=False,
        )
        check_hostile_fit(est, data)

    check()
