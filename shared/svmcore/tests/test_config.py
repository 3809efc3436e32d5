"""The Numba decorators keep working without a writable cache directory."""

import os
import subprocess
import sys
import textwrap

# Every cache locator fails as on a read-only site-packages with no writable home (the
# processes here run as whatever user CI uses, so permissions cannot be relied on).
CHILD = textwrap.dedent(
    """
    import os
    from numba.core import caching

    def unwritable(self):
        raise OSError(30, "Read-only file system", self.get_cache_path())

    caching._CacheLocator.ensure_cache_path = unwritable
    from svmcore.numba_config import jit, jit_parallel
    from svmcore.linalg import kth_smallest_inplace  # a package kernel, decorated at import
    import numpy as np

    @jit
    def twice(x):
        return 2.0 * x

    @jit(inline="always")
    def plus_one(x):
        return x + 1.0

    @jit_parallel
    def total(a):
        s = 0.0
        for i in range(a.shape[0]):
            s += a[i]
        return s

    assert twice(2.0) == 4.0 and plus_one(1.0) == 2.0 and total(np.ones(5)) == 5.0
    assert kth_smallest_inplace(np.array([3.0, 1.0, 2.0]), 0) == 1.0
    assert twice._cache.__class__.__name__ == "NullCache"  # compiled in memory
    print("ok")
    """
)


def test_kernels_compile_in_memory_when_no_cache_directory_is_writable(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, cwd=tmp_path, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_kernels_are_cached_on_disk_where_a_directory_is_writable(tmp_path):
    code = textwrap.dedent(
        """
        from svmcore.numba_config import jit

        @jit
        def twice(x):
            return 2.0 * x

        twice(1.0)
        print(twice._cache.__class__.__name__, twice.stats.cache_hits)
        """
    )
    script = tmp_path / "kern.py"
    script.write_text(code)
    env_runs = [
        subprocess.run(
            [sys.executable, str(script)],
            capture_output=True,
            text=True,
            env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")},
            timeout=300,
        )
        for _ in range(2)
    ]
    for done in env_runs:
        assert done.returncode == 0, done.stderr
    first, second = (done.stdout.split() for done in env_runs)
    assert first[0] == "FunctionCache"
    assert second[1] != "Counter()"  # the second process loaded the first one's code
    assert any((tmp_path / "cache").rglob("*.nbi"))


def test_threads_start_with_omp_waiting_passively_and_the_environment_is_restored(monkeypatch):
    from numba.np.ufunc import parallel

    from svmcore import numba_config

    seen = []
    monkeypatch.setattr(
        parallel, "_launch_threads", lambda: seen.append(os.environ.get("OMP_WAIT_POLICY"))
    )
    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    numba_config.launch_threads_waiting_passively()
    assert seen == ["PASSIVE"] and "OMP_WAIT_POLICY" not in os.environ
    # a user's own setting is never overridden (and Numba then starts as it would)
    monkeypatch.setenv("OMP_WAIT_POLICY", "ACTIVE")
    numba_config.launch_threads_waiting_passively()
    assert seen == ["PASSIVE"] and os.environ["OMP_WAIT_POLICY"] == "ACTIVE"


def test_threads_start_at_the_first_fit_not_at_import_and_leave_no_variable_behind():
    # A process that only imported svmcore forks safely: a child may use Numba's
    # parallel code (GNU OpenMP aborts a child whose parent started its pool).
    code = (
        "import os; os.environ.pop('OMP_WAIT_POLICY', None)\n"
        "import numpy as np, numba, svmcore\n"
        "from numba.np.ufunc import parallel\n"
        "started = parallel._is_initialized\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    with svmcore.numba_threads(2):\n"
        "        from svmcore.kernels import gram\n"
        "        gram(np.ones((300, 3)), kernel='rbf', gamma=1.0, n_jobs=2)\n"
        "    os._exit(0)\n"
        "status = os.waitpid(pid, 0)[1]\n"
        "with svmcore.numba_threads(2):\n"
        "    pass\n"
        "print(started, status, numba.threading_layer(), 'OMP_WAIT_POLICY' in os.environ)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    started, status, layer, leaked = out.stdout.split()
    assert started == "False" and status == "0", out.stderr
    assert layer in ("omp", "tbb", "workqueue") and leaked == "False"
