"""SVMlin's learning curves (Figs. 6-10) at this machine's scale: error rate vs number of labels.

The paper trains SVM (labeled data only), TSVM (multiple switching) and MFA on six text
sets (up to 804,414 documents) with a growing number of labels, averaging 10 random
splits, and reports the transductive error (on the unlabeled training documents) and the
test error. The text sets are not bundled; a seeded tf-idf-like set with a planted
hyperplane (:func:`svmcore.datasets.make_sparse_text`) stands in. lambda = 1e-3,
lambda' = 1 (the paper's defaults), r estimated from the labels (the paper uses the true
fraction); labels are drawn stratified, half per class. Each cell is the mean error over
the splits; the last columns give the mean fit times.

Usage: ``python tools/reproduce/svmlin_learning_curves.py [--size quick|full]``
(quick: 4,000 x 2,000, labels 10 ... 200, 2 splits; full: 20,000 x 5,000, labels
20 ... 1,000, 5 splits).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.model_selection import train_test_split

from l2svm_mfn import MFAClassifier, MFNClassifier, TSVMClassifier
from svmcore.datasets import make_sparse_text

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from _benchkit import format_table  # noqa: E402

LAMBDA = 1e-3
SIZES = {
    "quick": ((4000, 2000), (10, 20, 50, 100, 200), 2),
    "full": ((20000, 5000), (20, 50, 100, 200, 500, 1000), 5),
}
METHODS = {
    "SVM": lambda: MFNClassifier(alpha=LAMBDA),
    "TSVM": lambda: TSVMClassifier(alpha=LAMBDA, max_switch=10**9, unlabeled_value=-1),
    "MFA": lambda: MFAClassifier(alpha=LAMBDA, unlabeled_value=-1),
}


def _labels(y, n_labeled, seed):
    rng = np.random.default_rng(seed)
    keep = np.concatenate(
        [rng.choice(np.flatnonzero(y == c), n_labeled // 2, replace=False) for c in (0, 1)]
    )
    y_semi = np.full_like(y, -1)
    y_semi[keep] = y[keep]
    return y_semi


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", choices=sorted(SIZES), default="quick")
    args = parser.parse_args(argv)
    (n, d), label_counts, n_splits = SIZES[args.size]
    X, y = make_sparse_text(n, d, nnz_per_row=50, random_state=1)
    y = (y > 0).astype(int)  # classes 0/1: -1 marks unlabeled
    X, X_test, y, y_test = train_test_split(X, y, test_size=0.25, random_state=0)
    MFNClassifier(alpha=LAMBDA).fit(X[:200], y[:200])  # compile outside the timings
    rows = []
    for n_labeled in label_counts:
        errors = {name: ([], [], []) for name in METHODS}
        for seed in range(n_splits):
            y_semi = _labels(y, n_labeled, seed)
            lab = y_semi != -1
            for name, make in METHODS.items():
                start = time.perf_counter()
                if name == "SVM":
                    clf = make().fit(X[lab], y[lab])
                    transduction = clf.predict(X[~lab])
                else:
                    clf = make().fit(X, y_semi)
                    transduction = clf.transduction_[~lab]
                seconds = time.perf_counter() - start
                trans, test, times = errors[name]
                trans.append(np.mean(transduction != y[~lab]))
                test.append(np.mean(clf.predict(X_test) != y_test))
                times.append(seconds)
        row = [str(n_labeled)]
        row += [f"{np.mean(errors[name][0]):.4f}" for name in METHODS]
        row += [f"{np.mean(errors[name][1]):.4f}" for name in METHODS]
        row += [f"{np.mean(errors[name][2]):.3f}" for name in METHODS]
        rows.append(row)
        print(f"labels={n_labeled} done", file=sys.stderr)
    headers = ["labels"]
    headers += [f"{name} trans err" for name in METHODS]
    headers += [f"{name} test err" for name in METHODS]
    headers += [f"{name} s" for name in METHODS]
    print(
        f"SVMlin learning curves, sparse text {n}x{d} (train {len(y)}, test {len(y_test)}), "
        f"mean of {n_splits} splits"
    )
    print(format_table(headers, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
