"""SVMlin estimators at their defaults against SVMlin v1.0 and scikit-learn.

``MFNClassifier()`` (lambda = 1, SVMlin's ``-W 1``) on every classification set of the
suite against ``LinearSVC()`` (liblinear, squared hinge, C = 1: what a user would pick;
a different C, so only test accuracy is compared) and SVMlin v1.0 ``-A 1`` (same
problem; value: relative objective gap, ours minus SVMlin's, both evaluated by our
objective).

``TSVMClassifier()`` and ``MFAClassifier()`` (lambda = 1e-3, lambda' = 1, r = the labeled
class ratio) on the semi-supervised suite against SVMlin v1.0 ``-A 2`` / ``-A 3`` with
the same ``-W 0.001 -U 1 -R r`` (value: relative gap of the transductive objective,
ours minus SVMlin's: (7) with the best balanced labels for each weight vector for TSVM,
(18) for MFA), and against ``SVC()`` and ``LinearSVC()`` trained on the labeled samples
only. The accuracy column is the transductive error (sign of the output on the
unlabeled training rows) ours / baseline.

SVMlin is run only when the environment variable ``SVMLIN_BIN`` names its binary (SVMlin
v1.0 is GPL C++ and not part of the project; build it with ``g++ -O3``); otherwise those
rows are left out. Its time is the training time it prints itself (``clock()``, CPU
seconds, file reading excluded); ``value`` also gives the subprocess's wall clock
(reading included). Ours is the wall clock of ``fit`` after an untimed warm-up fit.
Fits under ``_timing.SHORT_FIT`` seconds (every MFN fit) are repeated on every side (ours,
LinearSVC, SVMlin) and the best is kept (``_timing.best_of``).

Run: ``SVMLIN_BIN=/path/to/svmlin python tools/bench.py --defaults --only l2svm_mfn``
(``l2svm_mfn_tsvm``, ``l2svm_mfn_mfa``). The two Gaussians set (20k x 200, 20 labels)
alone takes minutes per method on each side.
"""

import os
import re
import subprocess
import tempfile
import time
from functools import partial
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from _benchkit import Row
from sklearn.svm import SVC, LinearSVC

from l2svm_mfn import (
    MFAClassifier,
    MFNClassifier,
    TSVMClassifier,
    assign_by_ratio,
    squared_hinge_objective,
    tsvm_objective,
)

from . import REGISTRY
from ._suite import classification_suite, semi_supervised_suite
from ._timing import best_of, label, timed_fit

#: the lines where SVMlin v1.0 prints its training time, per algorithm
_TOOK = {
    1: r"L2_SVM_MFN converged .* and ([0-9.eE+-]+) seconds",
    2: r"Transductive L2_SVM_MFN took ([0-9.eE+-]+) seconds",
    3: r"DA-SVM took ([0-9.eE+-]+) seconds",
}


def _write_examples(path, X):
    """SVMlin's example file: ``idx:val`` pairs, 1-based, no label column."""
    X = sp.csr_matrix(X, dtype=np.float64)
    X.sort_indices()
    with open(path, "w", encoding="ascii") as fh:
        for i in range(X.shape[0]):
            a, b = X.indptr[i], X.indptr[i + 1]
            pairs = zip(X.indices[a:b] + 1, X.data[a:b], strict=True)
            fh.write(" ".join(f"{j}:{v:.17g}" for j, v in pairs) + "\n")


def svmlin(algo, X, labels, *options):
    """Train SVMlin v1.0 (``$SVMLIN_BIN``): ``(train s, wall s, weights incl. bias last)``.

    ``labels`` holds +1 / -1, and 0 for unlabeled rows.
    """
    binary = os.environ["SVMLIN_BIN"]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        _write_examples(tmp / "train", X)
        np.savetxt(tmp / "labels", labels, fmt="%d")
        start = time.perf_counter()
        out = subprocess.run(
            [binary, "-A", str(algo), *map(str, options), "train", "labels"],
            cwd=tmp,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        wall = time.perf_counter() - start
        weights = np.loadtxt(tmp / "train.weights")
    took = re.findall(_TOOK[algo], out)
    if not took:  # never pass the wall clock (file reading included) off as training time
        raise RuntimeError(f"SVMlin -A {algo} printed no training time:\n{out[-2000:]}")
    w = np.zeros(X.shape[1] + 1)
    w[: weights.size - 1] = weights[:-1]  # SVMlin sizes w by the largest index it read
    w[-1] = weights[-1]
    return float(took[-1]), wall, w


def _outputs(w, X):
    return np.asarray(X @ w[:-1]).ravel() + w[-1]


def _coef(est):
    return np.r_[est.coef_[0], est.intercept_[0]]


# ----------------------------------------------------------------------------- MFN


@REGISTRY.register("l2svm_mfn")
def mfn_defaults(size):
    rows = []
    for split in classification_suite(size):
        ours_t, ours = timed_fit(MFNClassifier, split.X, split.y)
        acc = ours.score(split.X_test, split.y_test)
        y_pm = np.where(split.y == ours.classes_[1], 1.0, -1.0)
        w = _coef(ours)

        def objective(w_, y_pm=y_pm, split=split, lam=ours.alpha):
            return squared_hinge_objective(w_, _outputs(w_, split.X), y_pm, np.ones(y_pm.size), lam)

        base_t, base = timed_fit(lambda: LinearSVC(random_state=0), split.X, split.y, warm_rows=0)
        rows.append(
            Row(
                component=label("MFNClassifier()", split),
                ours_time=ours_t,
                baseline="LinearSVC()",
                baseline_time=base_t,
                check="MFN Newton / CG iterations",
                value=f"{ours.n_iter_} / {ours.n_cg_iter_}",
                accuracy=f"{acc:.4f} / {base.score(split.X_test, split.y_test):.4f}",
            )
        )
        if "SVMLIN_BIN" in os.environ:
            svm_t, wall, w_svm = best_of(
                lambda y_pm=y_pm, ours=ours, split=split: svmlin(1, split.X, y_pm, "-W", ours.alpha)
            )
            pred = np.where(_outputs(w_svm, split.X_test) > 0, *ours.classes_[::-1])
            ref = objective(w_svm)
            gap = (objective(w) - ref) / abs(ref)
            rows.append(
                Row(
                    component=label("MFNClassifier()", split),
                    ours_time=ours_t,
                    baseline="SVMlin -A 1",
                    baseline_time=svm_t,
                    check="obj gap; SVMlin wall",
                    value=f"{gap:+.1e}; {wall:.2f} s",
                    accuracy=f"{acc:.4f} / {(pred == split.y_test).mean():.4f}",
                )
            )
    return rows


# ------------------------------------------------------------------------ TSVM, MFA


def _semi_objective(method, w, split, lam, lam_u, r):
    """TSVM: (7) with the best labels of ``w`` under the balance constraint; MFA: (18)."""
    o = _outputs(w, split.X)
    unl = split.y == -1
    y_pm = np.where(split.y == 1, 1.0, -1.0)
    if method == "mfa":
        return tsvm_objective(w, o, y_pm, ~unl, lam, lam_u)
    y_pm[unl] = assign_by_ratio(o[unl], int(round(r * unl.sum())))
    cost = np.where(unl, lam_u / unl.sum(), 1.0 / (~unl).sum())
    return squared_hinge_objective(w, o, y_pm, cost, lam)


def _transductive_error(outputs, split):
    unl = split.y == -1
    return float(((outputs[unl] > 0) != (split.y_true[unl] == 1)).mean())


def _semi_rows(method, size):
    cls = {"tsvm": TSVMClassifier, "mfa": MFAClassifier}[method]
    make = partial(cls, unlabeled_value=-1)  # the suite's classes are 0/1, -1 unlabeled
    algo = {"tsvm": 2, "mfa": 3}[method]
    rows = []
    for split in semi_supervised_suite(size):
        ours_t, ours = timed_fit(make, split.X, split.y)
        w = _coef(ours)
        err = _transductive_error(_outputs(w, split.X), split)
        name = f"{cls.__name__}()"
        lab = split.y != -1
        lam, lam_u, r = ours.alpha, ours.alpha_unlabeled, ours.positive_fraction_
        if "SVMLIN_BIN" in os.environ:
            labels = np.where(lab, np.where(split.y == 1, 1, -1), 0)
            options = ("-W", lam, "-U", lam_u, "-R", r)
            svm_t, wall, w_svm = best_of(
                lambda algo=algo, split=split, labels=labels, options=options: svmlin(
                    algo, split.X, labels, *options
                )
            )
            obj = [_semi_objective(method, v, split, lam, lam_u, r) for v in (w, w_svm)]
            base_err = _transductive_error(_outputs(w_svm, split.X), split)
            rows.append(
                Row(
                    component=label(name, split),
                    ours_time=ours_t,
                    baseline=f"SVMlin -A {algo}",
                    baseline_time=svm_t,
                    check="obj gap; SVMlin wall",
                    value=f"{(obj[0] - obj[1]) / abs(obj[1]):+.1e}; {wall:.2f} s",
                    accuracy=f"err {err:.4f} / {base_err:.4f}",
                )
            )
        for base_name, base_make in [
            ("SVC() labeled only", SVC),
            ("LinearSVC() labeled only", lambda: LinearSVC(random_state=0)),
        ]:
            base_t, base = timed_fit(base_make, split.X[lab], split.y[lab], warm_rows=0)
            base_err = _transductive_error(base.decision_function(split.X), split)
            rows.append(
                Row(
                    component=label(name, split),
                    ours_time=ours_t,
                    baseline=base_name,
                    baseline_time=base_t,
                    check="transductive error",
                    value=f"{err:.4f} / {base_err:.4f}",
                    accuracy=f"err {err:.4f} / {base_err:.4f}",
                )
            )
    return rows


@REGISTRY.register("l2svm_mfn_tsvm")
def tsvm_defaults(size):
    return _semi_rows("tsvm", size)


@REGISTRY.register("l2svm_mfn_mfa")
def mfa_defaults(size):
    return _semi_rows("mfa", size)
