"""Peak memory of every public estimator's fit at n = 1,000,000 (issue 19).

Each estimator runs in a fresh interpreter: the data are generated, one small fit warms
the Numba cache, then ``fit`` runs on the full data. The report gives the size of X, the
process's resident memory before the fit (interpreter, libraries, data) and the growth of
its peak during the fit (Linux: the heap's free pages are returned with ``malloc_trim``
and the peak is reset through ``/proc/self/clear_refs`` just before ``fit``, then read as
``VmHWM`` after it; without the trim a fit could grow into pages the data's generation
had freed and show no growth: CSR text at n = 100,000, 0 MB).

    python tools/memory.py [--n 1000000] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

#: name -> (data expression, estimator expression); the data code defines X and y
CASES = {
    "AIDLADRegressor": (
        "from svmcore.datasets import make_lad_set_a; X, y = make_lad_set_a(N, 10, random_state=0)",
        "AIDLADRegressor(random_state=0)",
    ),
    "AIDLADRegressor CSR": ("X, y = _text_regression(N)", "AIDLADRegressor(random_state=0)"),
    "AIDSVC": ("X, y = _blobs(N)", "AIDSVC(random_state=0)"),
    "AIDSVC CSR": ("X, y = _text(N)", "AIDSVC(random_state=0)"),
    "AESVC": ("X, y = _moons(N)", "AESVC()"),
    # DeriveRS does not reduce this text (every row is kept: fallback), so the fit is
    # SVC's on all rows (hours at 1e6); libsvm is capped at 2,000 iterations (the fit
    # warns), which leaves its memory (its copy of X and the kernel cache) measured.
    "AESVC CSR": ("X, y = _text(N)", "AESVC(max_iter=2000)"),
    "MFNClassifier": ("X, y = _blobs(N)", "MFNClassifier()"),
    "MFNClassifier CSR": ("X, y = _text(N)", "MFNClassifier()"),
    "TSVMClassifier": ("X, y = _semi(N)", "TSVMClassifier()"),
    "MFAClassifier": ("X, y = _semi(N)", "MFAClassifier(max_outer=3)"),
    "TSVMClassifier CSR": ("X, y = _semi(N, _text)", "TSVMClassifier()"),
    "MFAClassifier CSR": ("X, y = _semi(N, _text)", "MFAClassifier(max_outer=3)"),
    "LPSVR": (
        "from svmcore.datasets import make_noisy_sinc; X, y = make_noisy_sinc(N, random_state=0)",
        "LPSVR(random_state=0)",
    ),
    "LPSVC": ("X, y = _blobs(N)", "LPSVC(random_state=0)"),
    # Two well-separated 10-d Gaussian blobs: few support vectors, unlike _blobs, on
    # which LPSVC's interior start holds a dense |P| x |R| block growing about as N^1.6.
    "LPSVC separable": ("X, y = _separable(N)", "LPSVC(random_state=0)"),
    # The default r^0 = 0.01 gives ceil(0.01 n) binaries: the MIQP is not solved to
    # optimality at n >= 100,000, so the run is bounded by time_limit (the fit warns and
    # returns its best solution). The paper's rate for n > 10,000 is 1e-4.
    "AIDS3VMClassifier": (
        "X, y = _semi(N)",
        "AIDS3VMClassifier(random_state=0, time_limit=300)",
    ),
    "AIDS3VMClassifier r0=1e-4": (
        "X, y = _semi(N)",
        "AIDS3VMClassifier(random_state=0, initial_aggregation_rate=1e-4, time_limit=300)",
    ),
}

PRELUDE = """
import json, sys, time
import numpy as np
import scipy.sparse as sp
from aesvm import AESVC
from aid_models import AIDLADRegressor, AIDS3VMClassifier, AIDSVC
from l2svm_mfn import MFAClassifier, MFNClassifier, TSVMClassifier
from lpsvr import LPSVC, LPSVR
N = {n}

def _blobs(n):
    from svmcore.datasets import make_blob_mixture
    X, y = make_blob_mixture(n, 10, random_state=0)
    return X, (y > 0).astype(int)

def _separable(n):
    from sklearn.datasets import make_blobs
    return make_blobs(n, 10, centers=2, cluster_std=1.0, random_state=0)

def _moons(n):
    from sklearn.datasets import make_moons
    return make_moons(n, noise=0.3, random_state=0)

def _text(n):
    from svmcore.datasets import make_sparse_text
    X, y = make_sparse_text(n, 20000, nnz_per_row=30, random_state=0)
    return X, (y > 0).astype(int)

def _text_regression(n):
    # 1,000 words: LAD's LP has a column per feature
    from svmcore.datasets import make_sparse_text
    X, _ = make_sparse_text(n, 1000, nnz_per_row=30, random_state=0)
    rng = np.random.default_rng(0)
    return X, X @ rng.normal(size=X.shape[1]) + rng.laplace(size=n)

def _semi(n, data=_blobs):
    X, y = data(n)
    y = y + 1  # classes 1/2: -1 marks the unlabeled rows unambiguously
    y[100:] = -1
    return X, y

def _nbytes(X):
    return X.data.nbytes + X.indices.nbytes + X.indptr.nbytes if sp.issparse(X) else X.nbytes

{data}
est = {est}
# warm-up on the first rows (Numba compilation), then the measured fit
head = slice(0, 20000)
type(est)(**est.get_params()).fit(X[head], y[head])
def _status(key):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024  # kB -> MB

import ctypes, gc
gc.collect()
# return the heap pages freed by the data's generation and the warm-up to the system,
# so that the fit's growth is not hidden in them (CSR text at n = 100,000: 0 MB without)
ctypes.CDLL("libc.so.6").malloc_trim(0)
with open("/proc/self/clear_refs", "w") as fh:
    fh.write("5")  # reset the peak (VmHWM) to the current resident size
before = _status("VmRSS")
t = time.perf_counter()
est.fit(X, y)
seconds = time.perf_counter() - t
peak = _status("VmHWM")
print(json.dumps({{"X_mb": _nbytes(X) / 2**20, "before_mb": before,
                   "growth_mb": peak - before, "seconds": seconds,
                   "stop": str(getattr(est, "stop_reason_", ""))}}))
"""


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--only", action="append", default=[])
    parser.add_argument("--timeout", type=float, default=900.0)
    args = parser.parse_args(argv)
    names = args.only or list(CASES)
    print(f"n = {args.n}")
    print(f"{'estimator':26s} {'X MB':>8s} {'before MB':>10s} {'fit growth MB':>14s} {'fit s':>8s}")
    for name in names:
        data, est = CASES[name]
        code = PRELUDE.format(n=args.n, data=data, est=est)
        try:
            out = subprocess.run(
                [sys.executable, "-c", code],
                capture_output=True,
                text=True,
                timeout=args.timeout,
                check=True,
            ).stdout
        except subprocess.TimeoutExpired:
            print(f"{name:26s} timed out after {args.timeout:.0f} s", flush=True)
            continue
        except subprocess.CalledProcessError as exc:
            print(f"{name:26s} failed: {exc.stderr.strip().splitlines()[-1]}", flush=True)
            continue
        r = json.loads(out.strip().splitlines()[-1])
        print(
            f"{name:26s} {r['X_mb']:8.1f} {r['before_mb']:10.0f} {r['growth_mb']:14.0f} "
            f"{r['seconds']:8.1f} {r['stop']}",
            flush=True,
        )


if __name__ == "__main__":
    main()
