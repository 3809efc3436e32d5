"""Valid but hostile data never give a silently wrong model (issue 19, part 1).

Each fit on data drawn by :func:`svmcore.testing.hostile.hostile_data` either raises a
clear error, warns naming the cause, or is at least as good as the trivial model
(:func:`svmcore.testing.hostile.check_hostile_fit`). Derandomized: the same draws in CI
and locally; ``alpha`` is divided by the draw's ``penalty_scale`` (huge C).
"""

import pytest
from hypothesis import given

from l2svm_mfn import MFAClassifier, MFNClassifier, TSVMClassifier
from svmcore.testing.hostile import CASES, check_hostile_fit, hostile_data, suite_settings

SETTINGS = suite_settings(4)
#: The transduction is decided by the class-balance constraint (the labeled positive
#: fraction), not by the data, when the positives are 1 or 1 in 1000.
BALANCE_DECIDES = {"imbalance 1:1000", "single positive"}


@pytest.mark.parametrize("case", CASES)
def test_mfn_on_hostile_data(case):
    @SETTINGS
    @given(hostile_data(cases=[case]))
    def check(data):
        check_hostile_fit(MFNClassifier(alpha=1.0 / data.penalty_scale), data)

    check()


@pytest.mark.parametrize("make", [TSVMClassifier, MFAClassifier])
@pytest.mark.parametrize("case", CASES)
def test_semi_supervised_on_hostile_data(make, case):
    @SETTINGS
    @given(hostile_data(cases=[case], labeled_fraction=0.3))
    def check(data):
        est = make(alpha=1.0 / data.penalty_scale, unlabeled_value=-1)
        check_hostile_fit(est, data, balance_decides=case in BALANCE_DECIDES)

    check()
