"""svmcore.chunked.released_row_blocks: block reads of memory-mapped chunks."""

import sys

import numpy as np
import pytest

from svmcore.chunked import released_row_blocks
from svmcore.chunked._pages import RELEASE_BLOCK_ROWS
from svmcore.clustering import group_sums, group_totals

N_ROWS = 6 * RELEASE_BLOCK_ROWS + 1234  # seven blocks, the last one short (32 MB)


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A float64 chunk on disk, as ``dask.array.to_npy_stack`` writes one."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(N_ROWS, 10))
    path = tmp_path_factory.mktemp("chunk") / "0.npy"
    np.save(path, X)
    return path, X


def _bounds(X, **kwargs):
    return [(s.start, s.stop) for s in released_row_blocks(X, **kwargs)]


def test_read_only_map_comes_in_blocks_covering_the_rows_in_order(stored):
    path, _ = stored
    X = np.load(path, mmap_mode="r")
    bounds = _bounds(X)
    assert bounds[0][0] == 0 and bounds[-1][1] == N_ROWS
    assert all(a[1] == b[0] for a, b in zip(bounds, bounds[1:], strict=False))
    assert [hi - lo for lo, hi in bounds] == [RELEASE_BLOCK_ROWS] * 6 + [1234]
    # A plain view of the map (np.asarray drops the memmap class) is still found.
    assert len(_bounds(np.asarray(X))) == 7


@pytest.mark.parametrize("mode", ["c", "r+"])
def test_writable_maps_and_plain_arrays_come_whole(stored, mode):
    path, X_mem = stored
    # "c" maps hold private writes that MADV_DONTNEED would discard; "r+" are the caller's.
    X = np.load(path, mmap_mode=mode)
    assert _bounds(X) == [(0, N_ROWS)]
    assert _bounds(X_mem) == [(0, N_ROWS)]
    assert _bounds(np.load(path, mmap_mode="r")[:, ::2]) == [(0, N_ROWS)]  # not contiguous


def test_blocks_give_the_same_sums_to_the_bit(stored):
    path, X_mem = stored
    rng = np.random.default_rng(1)
    labels = rng.integers(0, 300, N_ROWS)
    w, y = rng.uniform(0.5, 2.0, N_ROWS), rng.normal(size=N_ROWS)
    X_map = np.load(path, mmap_mode="r")
    assert len(_bounds(X_map)) == 7
    np.testing.assert_array_equal(
        group_totals(X_map, labels, 300, w, y), group_totals(X_mem, labels, 300, w, y)
    )
    np.testing.assert_array_equal(
        group_sums(X_map, labels, 300, w), group_sums(X_mem, labels, 300, w)
    )


def _mapped_kb(path):
    """Resident kB of this process's mappings of ``path`` (/proc/self/smaps)."""
    total, inside = 0, False
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            head = line.split()
            if "-" in head[0] and len(head) >= 5:  # a mapping's header line
                inside = line.rstrip().endswith(str(path))
            elif inside and head[0] == "Rss:":
                total += int(head[1])
    return total


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc/self/smaps (Linux)")
def test_read_blocks_leave_the_process(stored):
    path, _ = stored
    X = np.load(path, mmap_mode="r")
    size_kb = X.nbytes // 1024
    peak = 0
    for rows in released_row_blocks(X):
        float(X[rows].sum())  # touches every page of the block
        peak = max(peak, _mapped_kb(path))
    block_kb = RELEASE_BLOCK_ROWS * X.strides[0] // 1024
    # About one block at a time: the kernel maps page-cache pages around each fault
    # (fault-around, large folios), 1.5 MB beyond the block here; at most that at the end.
    assert peak <= block_kb + 4096 < size_kb / 3
    assert _mapped_kb(path) <= 4096
    whole = np.load(path, mmap_mode="r")
    float(whole.sum())
    assert _mapped_kb(path) >= size_kb  # without the blocks: the whole chunk stays
