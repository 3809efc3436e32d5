"""AESVC at its defaults against ``SVC()`` at its defaults (RBF, C = 1, gamma = "scale").

Every dense classification set of the suite (features standardized on the training part).
Value: M/N (representatives over training rows; ``fallback`` when DeriveRS found the data
not reducible and the SVM was trained on every row), support vectors ours / SVC's.
Accuracy: test accuracy ours / SVC's. AESVC's time includes DeriveRS. Sparse text is left
out: the paper's method is for dense, low intrinsic dimension data, and on sparse text
every document is an extreme point (AESVC falls back to the full SVM there).
"""

from _benchkit import Row
from sklearn.svm import SVC

from aesvm import AESVC, clear_representative_cache

from . import REGISTRY
from ._suite import classification_suite
from ._timing import label, timed_fit

#: rows of the untimed warm-up fit: AESVC() trains on every sample below 10 000 rows
#: (its README, "Defaults"), so a smaller warm-up would leave DeriveRS's Numba code
#: uncompiled and the timed fit would pay for it
WARM_ROWS = 12_000


def _make_aesvc():
    # A fresh cache for every fit: a user's first fit derives the set (no reuse across
    # the warm-up fit and the timed one, which see different data anyway).
    clear_representative_cache()
    return AESVC()


@REGISTRY.register("aesvc")
def aesvc_vs_svc(size):
    rows = []
    for split in classification_suite(size):
        if split.kind == "sparse":
            continue
        ours_t, ours = timed_fit(_make_aesvc, split.X, split.y, warm_rows=WARM_ROWS)
        base_t, base = timed_fit(SVC, split.X, split.y, warm_rows=0)
        ratio = (
            "fallback" if ours.fallback_ else f"{ours.n_representatives_ / split.X.shape[0]:.3f}"
        )
        rows.append(
            Row(
                component=label("AESVC()", split),
                ours_time=ours_t,
                baseline="SVC()",
                baseline_time=base_t,
                check="M/N; nSV ours/SVC",
                value=f"{ratio}; {ours.support_.size}/{base.support_.size}",
                accuracy=(
                    f"{ours.score(split.X_test, split.y_test):.4f} / "
                    f"{base.score(split.X_test, split.y_test):.4f}"
                ),
            )
        )
    return rows
