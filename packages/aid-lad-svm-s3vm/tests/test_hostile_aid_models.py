"""Valid but hostile data never give a silently wrong model (issue 19, part 1).

Each fit on data drawn by :func:`svmcore.testing.hostile.hostile_data` either raises a
clear error, warns naming the cause, or is at least as good as the trivial model
(:func:`svmcore.testing.hostile.check_hostile_fit`). Derandomized: the same draws in CI
and locally; ``C`` (``M_l``, ``M_u``) is multiplied by the draw's ``penalty_scale``. The
S3VM solves one MIQP per iteration: it gets smaller draws and not the 1001-row imbalance.
"""

import pytest
from hypothesis import given

from aid_models import AIDSVC, AIDLADRegressor, AIDS3VMClassifier
from svmcore.testing.hostile import CASES, check_hostile_fit, hostile_data, suite_settings

SETTINGS = suite_settings()


@pytest.mark.parametrize("kernel", ["linear", "rbf"])
@pytest.mark.parametrize("case", CASES)
def test_aidsvc_on_hostile_data(case, kernel):
    @SETTINGS
    @given(hostile_data(cases=[case]))
    def check(data):
        est = AIDSVC(C=data.penalty_scale, kernel=kernel, random_state=0)
        check_hostile_fit(est, data)

    check()


@pytest.mark.parametrize("case", CASES)
def test_lad_on_hostile_data(case):
    @SETTINGS
    @given(hostile_data(task="regression", cases=[case]))
    def check(data):
        check_hostile_fit(AIDLADRegressor(random_state=0), data, task="regression")

    check()


@pytest.mark.parametrize("case", [c for c in CASES if c != "imbalance 1:1000"])
def test_s3vm_on_hostile_data(case):
    @SETTINGS
    @given(hostile_data(cases=[case], n_samples=(30, 60), labeled_fraction=0.3))
    def check(data):
        scale = data.penalty_scale
        est = AIDS3VMClassifier(M_l=5.0 * scale, M_u=scale, unlabeled_value=-1, random_state=0)
        check_hostile_fit(est, data, balance_decides=case == "single positive")

    check()
