"""AID for the semi-supervised SVM (Park & Klabjan 2016, sec. 3.3) against labeled-only SVC.

The same g241c-style split and 50 labels as the TSVM/MFA rows (``l2svm_mfn``). AID1 (one
aggregated MIQP, the paper's fixed setting) with at most 10 s per MIQP solve; the check
column gives AID's certified optimality gap of objective (12), which on this set is loose
(the aggregated MIQP's lower bound is weak), and the accuracy column the test accuracy.
Needs pyscipopt (``aid-lad-svm-s3vm[s3vm]``); without it this module is skipped with a note.
"""

import time
import warnings

import pyscipopt  # noqa: F401  (the MIQP solver)
from _benchkit import Row, measure
from sklearn.svm import SVC

from aid_models import AIDS3VMClassifier

from . import REGISTRY
from ._data import hide_labels


@REGISTRY.register("aid_s3vm")
def aid_s3vm(data, size):
    split = data["g241c"]
    X, y_semi = split.X_train, hide_labels(split.y_train, 50)
    labeled = y_semi != -1
    base_t, base = measure(
        lambda: SVC(kernel="linear", C=5.0).fit(X[labeled], y_semi[labeled]), repeat=1
    )

    def fit():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a time-limited MIQP solve warns; the gap shows it
            return AIDS3VMClassifier(
                unlabeled_value=-1, time_limit_per_solve=10, random_state=0
            ).fit(X, y_semi)

    # one timed fit (no warm-up call): no Numba code to compile, and a MIQP costs seconds
    start = time.perf_counter()
    ours = fit()
    ours_t = time.perf_counter() - start
    acc = f"{ours.score(split.X_test, split.y_test):.3f} / "
    acc += f"{base.score(split.X_test, split.y_test):.3f}"
    return [
        Row(
            "AIDS3VMClassifier AID1 [g241c, 50 labels]",
            ours_t,
            "SVC(linear) labeled only",
            base_t,
            "certified gap",
            f"{ours.optimality_gap_:.2f}",
            acc,
        )
    ]
