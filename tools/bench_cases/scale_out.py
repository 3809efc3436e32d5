"""Issue 18's scale-out bench: AID (LAD, linear SVM) and AESVC on a Dask LocalCluster.

A ``LocalCluster`` of 2 workers x 1 thread with a memory limit per worker fits data
stored on disk as ``.npy`` chunks (``dask.array.to_npy_stack``), up to a data set at
least 4x the sum of the workers' limits. Each row reports the Dask fit's time against
the physical floor: the number of passes over the chunks the fit made times the time of
one plain ``X.sum(axis=0).compute()`` pass over the same chunks, the median of three
(``ratio`` = fit time / (passes x plain pass); issue 18's target is <= 3). The value
column gives the passes (chunk reads / chunks, counted by the reader in every worker,
whichever task reads a chunk), seconds per plain pass, the peak RSS of each worker
during the fit (VmHWM, reset after an untimed warm-up fit), how many workers the nanny
restarted during the fit (a restarted worker's peak and reads start afresh), the
driver's RSS growth during the fit, and the in-memory fit's time where the data fit in
memory.

Sizes: quick (n = 1M and 4M, in memory too; a few minutes) and full (adds the
out-of-core set: 64M x 10 float64 rows, 5.6 GB on disk against 2 x 640 MiB of worker
memory; about half an hour). Data are written once to ``$SCALE_OUT_DIR`` (default
``/tmp/svm_scale_out``) and reused; remove it to regenerate. ``$SCALE_OUT_ONLY`` (e.g.
``AIDLADRegressor``; comma-separated) keeps the rows of the estimators it names.
"""

import os
import pickle
import threading
import time
from collections import Counter
from pathlib import Path

import numpy as np
from _benchkit import Row

from . import REGISTRY

try:
    import dask
    import dask.array as da
    import distributed
except ImportError as exc:  # the optional extra; bench.py skips this module with a note
    raise ImportError("scale_out needs the dask extra (dask[array], distributed)") from exc

WORKERS = 2
MEMORY_LIMIT = "640MiB"
MEMORY_LIMIT_BYTES = 640 * 2**20
CHUNK_ROWS = 500_000
N_FEATURES = 10
SIZES = {"quick": [1_000_000, 4_000_000], "full": [1_000_000, 4_000_000, 64_000_000]}
#: Largest n also fitted in memory (the driver holds X then).
IN_MEMORY_MAX_N = 4_000_000
ROOT = Path(os.environ.get("SCALE_OUT_DIR", "/tmp/svm_scale_out"))
#: Estimators to run (class names), all when empty.
ONLY = {name for name in os.environ.get("SCALE_OUT_ONLY", "").split(",") if name}


def _chunk(kind, i, rows, seed=0):
    """Rows of chunk ``i``: the same model for every chunk, fresh noise per chunk."""
    model = np.random.default_rng(seed)
    beta = model.normal(size=N_FEATURES)
    rng = np.random.default_rng([seed, i])
    if kind == "moons":
        from sklearn.datasets import make_moons

        # Two moons on a fixed random plane of R^10: data of intrinsic dimension 2 (what
        # AESVM is for) with the row width of the other sets.
        X, y = make_moons(rows, noise=0.2, random_state=int(rng.integers(2**31)))
        plane, _ = np.linalg.qr(model.normal(size=(N_FEATURES, 2)))
        return X @ plane.T, y.astype(np.float64)
    X = rng.normal(size=(rows, N_FEATURES))
    if kind == "lad":
        return X, X @ beta + 1.0 + rng.laplace(size=rows)
    margin = X @ beta + 0.5 * rng.normal(size=rows)
    y = np.where(margin > 0, 1.0, -1.0)
    flip = rng.random(rows) < 0.05
    y[flip] = -y[flip]
    return X, y


def _folder(kind, n):
    # "moons10": the 10-d two moons replaced a 2-d set of the same name.
    return ROOT / f"{kind}{N_FEATURES if kind == 'moons' else ''}-{n}"


def _stored(kind, n):
    """``(X, y)`` as Dask arrays read from ``.npy`` chunks on disk (written on first use)."""
    folder = _folder(kind, n)
    if not (folder / "done").exists():
        folder.mkdir(parents=True, exist_ok=True)
        sizes = [min(CHUNK_ROWS, n - lo) for lo in range(0, n, CHUNK_ROWS)]
        parts = [dask.delayed(_chunk, nout=2)(kind, i, r) for i, r in enumerate(sizes)]
        m = N_FEATURES
        X = da.concatenate(
            [da.from_delayed(p[0], (r, m), float) for p, r in zip(parts, sizes, strict=True)]
        )
        y = da.concatenate(
            [da.from_delayed(p[1], (r,), float) for p, r in zip(parts, sizes, strict=True)]
        )
        with dask.config.set(scheduler="threads"):
            da.to_npy_stack(folder / "X", X)
            da.to_npy_stack(folder / "y", y)
        (folder / "done").touch()
    return _npy_stack(folder / "X"), _npy_stack(folder / "y")


#: Chunk reads by this process, per ``.npy`` folder (the passes; read on the workers).
_READS: Counter = Counter()


def _load(path):
    """``np.load(path, mmap_mode="r")``, counted in ``_READS``."""
    _READS[os.path.dirname(path)] += 1
    return np.load(path, mmap_mode="r")


def _npy_stack(folder):
    """``dask.array.from_npy_stack(folder)`` (the same graph: one task per file, no
    dependencies, memory-mapped reads) with each read counted where it runs."""
    info = pickle.loads((folder / "info").read_bytes())
    chunks, name = info["chunks"], f"from-npy-stack-{folder}"
    keys = [(name, i) + (0,) * (len(chunks) - 1) for i in range(len(chunks[0]))]
    graph = {k: (_load, str(folder / f"{k[1]}.npy")) for k in keys}
    return da.Array(graph, name, chunks, info["dtype"])


def _read_counts():
    return dict(_READS)


def _reset_peak():
    """Reset this process's peak RSS (VmHWM; Linux >= 4.0), so the next read is the fit's."""
    Path("/proc/self/clear_refs").write_text("5")


def _worker_peak_mb():
    status = Path("/proc/self/status").read_text().split("\n")
    line = next(v for v in status if v.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


class _DriverPeak:
    """Peak growth of this process's RSS while the block runs (sampled every 50 ms)."""

    def __enter__(self):
        import psutil

        self.proc = psutil.Process()
        self.base = self.peak = self.proc.memory_info().rss
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()
        return self

    def _sample(self):
        while not self.stop.wait(0.05):
            self.peak = max(self.peak, self.proc.memory_info().rss)

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()
        self.growth_mb = (self.peak - self.base) / 2**20


def _reads(client, X):
    """Chunk reads of ``X`` so far, summed over the workers (the reader counts them)."""
    folder = X.name.removeprefix("from-npy-stack-")
    return sum(c.get(folder, 0) for c in client.run(_read_counts).values())


def _fit(client, make, X, y, warm):
    make().fit(*warm)  # imports and Numba's cache loads on the workers, untimed
    client.run(_reset_peak)
    pids = set(client.run(os.getpid).values())
    reads = _reads(client, X)
    with _DriverPeak() as driver:
        start = time.perf_counter()
        est = make().fit(X, y)
        elapsed = time.perf_counter() - start
    # A worker the nanny restarted (over 95 % of its limit) is a new process: its reads
    # and peak start afresh, so the row says how many there were.
    restarts = len(set(client.run(os.getpid).values()) - pids)
    passes = (_reads(client, X) - reads) / X.numblocks[0]
    peaks = client.run(_worker_peak_mb)
    return est, elapsed, passes, max(peaks.values()), driver.growth_mb, restarts


def _plain_pass(client, X, repeat=3):
    """Median time of ``repeat`` plain passes (one pass varied 1.3-3.7 s at 64M rows)."""
    X.sum(axis=0).compute()  # warm: the chunks' pages in the OS cache, as for the fits
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        X.sum(axis=0).compute()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def _index(path):
    return int(path.stem)


def _aid_result(est):
    """AID's answer in full: a change of the partition or of the summation shows here."""
    return f"K={est.n_clusters_:,}, {est.n_iter_} it, E={est.objective_!r}"


def _estimators():
    from aesvm import AESVC
    from aid_models import AIDSVC, AIDLADRegressor

    cases = [
        ("AIDLADRegressor()", "lad", AIDLADRegressor, _aid_result),
        ("AIDSVC()", "svc", AIDSVC, _aid_result),
        ("AESVC()", "moons", AESVC, lambda e: f"M={e.n_representatives_}"),
    ]
    return [case for case in cases if not ONLY or case[2].__name__ in ONLY]


def _in_memory(make, kind, n):
    folder = _folder(kind, n)
    Xn, yn = (
        np.concatenate([np.load(f) for f in sorted((folder / v).glob("*.npy"), key=_index)])
        for v in ("X", "y")
    )
    make().fit(Xn[:20000], yn[:20000])  # compile first, as the Dask workers are warm
    start = time.perf_counter()
    make().fit(Xn, yn)
    return time.perf_counter() - start


@REGISTRY.register("scale_out")
def scale_out(size):
    rows = []
    with (
        distributed.LocalCluster(
            n_workers=WORKERS,
            threads_per_worker=1,
            memory_limit=MEMORY_LIMIT,
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        for label, kind, make, describe in _estimators():
            warm_X, warm_y = _stored(kind, SIZES["quick"][0])
            warm = (warm_X[:20000].rechunk(10000), warm_y[:20000].rechunk(10000))
            for n in SIZES[size]:
                X, y = _stored(kind, n)
                floor = _plain_pass(client, X)
                est, t, passes, worker_mb, driver_mb, restarts = _fit(client, make, X, y, warm)
                gb = (X.nbytes + y.nbytes) / 1e9
                mem = "-"
                if n <= IN_MEMORY_MAX_N:
                    mem = f"in-memory {_in_memory(make, kind, n):.1f} s"
                ratio_to_limit = (X.nbytes + y.nbytes) / (WORKERS * MEMORY_LIMIT_BYTES)
                row = Row(
                    f"{label} n={n:,} ({gb:.2f} GB, {ratio_to_limit:.1f}x worker memory)",
                    t,
                    f"{passes:.1f} passes x plain pass",
                    passes * floor,
                    "passes, s/pass, peak MB",
                    (
                        f"{passes:.1f} passes, plain pass {floor:.2f} s, worker peak "
                        f"{worker_mb:.0f} MB (limit {MEMORY_LIMIT_BYTES / 2**20:.0f}), "
                        f"worker restarts {restarts}, "
                        f"driver +{driver_mb:.0f} MB, {describe(est)}, {mem}"
                    ),
                )
                rows.append(row)
                print(f"[scale_out] {row.component}: {t:.1f} s | {row.value}", flush=True)
    return rows
