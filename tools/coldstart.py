"""What a user pays once: every public estimator's first fit in a new environment.

For each public estimator, a fresh interpreter with an empty Numba cache directory imports
the package, fits the estimator at its defaults on small data (the first fit compiles
the Numba code it needs) and fits it again (warm); a second fresh interpreter on the
now-filled cache does the same (what every later process pays). Printed per estimator:
import time, first fit, warm fit, compile overhead (first - warm) and the first fit of a
process that finds the cache.

Usage: ``python tools/coldstart.py [--only NAME ...]`` (``nox -s bench -- --cold``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _benchkit import format_table  # noqa: E402

#: name -> (import line, constructor call, task)
ESTIMATORS = {
    # 12,000 rows: AESVC() trains on every sample below 10,000 (no DeriveRS to compile).
    "AESVC": ("from aesvm import AESVC", "AESVC()", "classification_reducible"),
    "AIDSVC": ("from aid_models import AIDSVC", "AIDSVC()", "classification"),
    "AIDSVC rbf": ("from aid_models import AIDSVC", "AIDSVC(kernel='rbf')", "classification"),
    "AIDLADRegressor": ("from aid_models import AIDLADRegressor", "AIDLADRegressor()", "lad"),
    "AIDS3VMClassifier": (
        "from aid_models import AIDS3VMClassifier",
        "AIDS3VMClassifier()",
        "semi",
    ),
    "MFNClassifier": ("from l2svm_mfn import MFNClassifier", "MFNClassifier()", "classification"),
    "MFNClassifier CSR": ("from l2svm_mfn import MFNClassifier", "MFNClassifier()", "text"),
    "TSVMClassifier": ("from l2svm_mfn import TSVMClassifier", "TSVMClassifier()", "semi"),
    "MFAClassifier": ("from l2svm_mfn import MFAClassifier", "MFAClassifier()", "semi"),
    "LPSVR": ("from lpsvr import LPSVR", "LPSVR()", "regression"),
    "LPSVC": ("from lpsvr import LPSVC", "LPSVC()", "classification_small"),
}

DATA = {
    "classification": "X, y = make_blob_mixture(2000, 10, random_state=0)",
    "classification_reducible": "X, y = make_blob_mixture(12000, 10, random_state=0)",
    "classification_small": "X, y = make_blob_mixture(300, 5, random_state=0)",
    "text": "X, y = make_sparse_text(2000, 1000, nnz_per_row=20, random_state=0)",
    "semi": (
        "X, y = make_g241c(1000, 20, random_state=0)\ny = (y > 0).astype(int) + 1\ny[40:] = -1"
    ),
    "regression": "X, y = make_noisy_sinc(300, random_state=0)",
    "lad": "X, y = make_lad_set_a(5000, 10, random_state=0)",
}

CHILD = """
import json, time
start = time.perf_counter()
{import_line}
import_s = time.perf_counter() - start
from svmcore.datasets import (
    make_blob_mixture, make_g241c, make_lad_set_a, make_noisy_sinc, make_sparse_text
)
{data}
fits = []
for _ in range(2):
    start = time.perf_counter()
    {constructor}.fit(X, y)
    fits.append(time.perf_counter() - start)
print(json.dumps({{"import": import_s, "first": fits[0], "warm": fits[1]}}))
"""


def _run(name, cache_dir):
    import_line, constructor, task = ESTIMATORS[name]
    code = CHILD.format(import_line=import_line, constructor=constructor, data=DATA[task])
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"{name}: {done.stderr.strip().splitlines()[-1]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", choices=sorted(ESTIMATORS))
    args = parser.parse_args(argv)
    rows = []
    for name in args.only or ESTIMATORS:
        with tempfile.TemporaryDirectory() as cache_dir:
            cold = _run(name, cache_dir)
            cached = _run(name, cache_dir)
        rows.append(
            [
                name,
                f"{cold['import']:.1f}",
                f"{cold['first']:.2f}",
                f"{cold['warm']:.3f}",
                f"{cold['first'] - cold['warm']:.1f}",
                f"{cached['first']:.2f}",
            ]
        )
    headers = [
        "estimator (defaults)",
        "import s",
        "first fit s",
        "warm fit s",
        "overhead s",
        "cached first fit s",
    ]
    print(f"cold start, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    print(format_table(headers, rows))
    print("overhead = first fit - warm fit in a new environment (Numba compilation);")
    print("cached = a later process, with the on-disk cache the first one wrote")
    return 0


if __name__ == "__main__":
    sys.exit(main())
