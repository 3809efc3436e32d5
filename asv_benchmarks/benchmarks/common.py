"""Benchmark mixins in the style of scikit-learn's ``asv_benchmarks/benchmarks/common.py``.

A benchmark class combines :class:`Benchmark` (timer, repeats and data size from the
profile) with :class:`Estimator` (``time_fit``, ``peakmem_fit``, train/test scores), and
optionally :class:`Predictor` (``time_predict``, ``peakmem_predict``) and
:class:`ObjectiveGap` (``track_objective_gap`` against a reference solver), e.g.::

    class AIDSVCBenchmark(Predictor, ObjectiveGap, Estimator, Benchmark):
        param_names = ["kernel"]
        params = (["linear", "rbf"],)

        def make_data(self, params): ...
        def make_estimator(self, params): ...
        def objective_gap(self, estimator, params): ...

The profile comes from ``config.json``; the environment variable ``SVMBENCH_PROFILE``
(``fast`` | ``regular`` | ``large_scale``) overrides it, ``SVMBENCH_N_JOBS`` (a JSON
list) overrides ``n_jobs_vals``. Numba compiles on the first call, and the ``fast``
profile has no warm-up run, so every benchmark compiles in ``setup`` with a tiny call
(:meth:`Estimator.warm_up`), otherwise its first timing would include compilation.
"""

import json
import os
import pickle
import timeit
from abc import ABC, abstractmethod
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent

#: Per-profile asv timing settings and the data size the benchmarks choose from.
PROFILES = {
    "fast": {"warmup_time": 0, "repeat": 1, "number": 1, "min_run_count": 1, "size": "small"},
    "regular": {"warmup_time": 1, "repeat": (3, 20, 10), "size": "medium"},
    "large_scale": {"warmup_time": 1, "repeat": 3, "number": 1, "size": "large"},
}


def _strip_comments(text):
    return "\n".join(line for line in text.splitlines() if not line.strip().startswith("//"))


def get_from_config():
    """``(profile, n_jobs_vals)`` from ``config.json``, overridden by the environment."""
    config = json.loads(_strip_comments((HERE / "config.json").read_text(encoding="utf-8")))
    profile = os.getenv("SVMBENCH_PROFILE", config["profile"])
    if profile not in PROFILES:
        raise ValueError(f"SVMBENCH_PROFILE must be one of {sorted(PROFILES)}, got {profile!r}")
    n_jobs_vals = config["n_jobs_vals"]
    if os.getenv("SVMBENCH_N_JOBS"):
        n_jobs_vals = json.loads(os.environ["SVMBENCH_N_JOBS"])
    return profile, n_jobs_vals


def _estimator_path(benchmark, params):
    name = "_".join([type(benchmark).__name__, *map(str, params)])
    return Path.cwd() / f"{name}.pkl"


class Benchmark(ABC):
    """asv settings shared by every benchmark; ``size`` picks the data size."""

    timer = timeit.default_timer  # wall time: Numba and BLAS run on several threads
    processes = 1
    timeout = 500

    profile, n_jobs_vals = get_from_config()
    size = PROFILES[profile]["size"]
    warmup_time = PROFILES[profile]["warmup_time"]
    repeat = PROFILES[profile]["repeat"]
    number = PROFILES[profile].get("number", 0)  # 0: asv picks it from the timings
    min_run_count = PROFILES[profile].get("min_run_count", 2)

    @property
    @abstractmethod
    def params(self):
        """asv parameter values (a tuple of lists, one per name in ``param_names``)."""

    @classmethod
    def sized(cls, small, medium, large):
        """The value for the current profile's data size."""
        return {"small": small, "medium": medium, "large": large}[cls.size]


class Estimator(ABC):
    """Fit benchmarks of an estimator on the data of one parameter combination."""

    @abstractmethod
    def make_data(self, params):
        """Return ``(X, X_val, y, y_val)``."""

    @abstractmethod
    def make_estimator(self, params):
        """Return an unfitted estimator."""

    def skip(self, params):
        """True for parameter combinations not to run."""
        return False

    def warm_up(self, params):
        """Compile Numba code outside the timings: fit on the first few rows."""
        X, _, y, _ = self.make_data(params)
        n = min(len(y), 50)
        self.make_estimator(params).fit(X[:n], y[:n])

    def setup_cache(self):
        """Give every Estimator benchmark one shared directory for fitted estimators.

        asv keys ``setup_cache`` by its source line, so all subclasses share this one
        call and run their benchmarks in its working directory; ``setup`` fits each
        (class, parameters) estimator there on first use and later benchmarks load it.
        """
        return None  # asv passes no cache argument on None; the directory is what we share

    def setup(self, *params):
        if self.skip(params):
            raise NotImplementedError("skipped parameter combination")
        self.X, self.X_val, self.y, self.y_val = self.make_data(params)
        self.warm_up(params)
        path = _estimator_path(self, params)
        if path.exists():
            with open(path, "rb") as f:
                self.estimator = pickle.load(f)
        else:
            self.estimator = self.make_estimator(params).fit(self.X, self.y)
            with open(path, "wb") as f:
                pickle.dump(self.estimator, f)

    def time_fit(self, *args):
        self.make_estimator(args).fit(self.X, self.y)

    def peakmem_fit(self, *args):
        self.make_estimator(args).fit(self.X, self.y)

    def track_train_score(self, *args):
        return float(self.estimator.score(self.X, self.y))

    def track_test_score(self, *args):
        return float(self.estimator.score(self.X_val, self.y_val))


class Predictor(ABC):
    """Prediction benchmarks; ``setup`` must provide ``self.estimator`` and ``self.X``.

    Combined with :class:`Estimator`, whose ``setup`` loads the fitted estimator. The
    abstract method keeps asv from collecting this mixin as a benchmark of its own.
    """

    @abstractmethod
    def make_estimator(self, params):
        """Return an unfitted estimator."""

    def time_predict(self, *args):
        self.estimator.predict(self.X)

    def peakmem_predict(self, *args):
        self.estimator.predict(self.X)


class ObjectiveGap(ABC):
    """Relative objective gap of the fitted estimator against an independent solver."""

    @abstractmethod
    def objective_gap(self, estimator, params):
        """``(ours - reference) / max(1, |reference|)`` on the training data."""

    def track_objective_gap(self, *args):
        return float(self.objective_gap(self.estimator, args))


def reference_gap(ours, reference):
    """``(ours - reference) / max(1, |reference|)``: the gap the ``track_`` functions report.

    Not :func:`aid_core.relative_gap`, the certified gap ``(upper - lower) / upper`` of a run.
    """
    return (float(ours) - float(reference)) / max(1.0, abs(float(reference)))


def max_abs_diff(a, b):
    """Largest absolute element-wise difference (as a float for ``track_`` functions)."""
    return float(np.max(np.abs(np.asarray(a, dtype=np.float64) - np.asarray(b, np.float64))))
