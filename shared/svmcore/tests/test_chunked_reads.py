"""svmcore.chunked: chunk reads run inside the tasks that use them; folded reductions."""

import time

import dask
import dask.array as da
import distributed
import numpy as np
import pytest

from svmcore.chunked import InlineRead, RowBlocks, chunk_parts, kept_rows, map_chunks


@pytest.fixture
def stack(tmp_path):
    """A 12 x 3 array stored as four ``.npy`` chunks, read as memory maps."""
    X = np.arange(36.0).reshape(12, 3)
    da.to_npy_stack(tmp_path / "X", da.from_array(X, chunks=(3, 3)))
    return X, da.from_npy_stack(tmp_path / "X")


def _sum_rows(start, X, y, w):
    return np.asarray(X).sum(axis=0)


def test_dependency_free_reads_are_inlined_others_are_not(stack):
    X, dX = stack
    assert all(isinstance(p, InlineRead) for p in chunk_parts(dX, (3, 3, 3, 3)))
    assert isinstance(chunk_parts(dX, (3, 3, 3, 3))[1](), np.memmap)
    # Derived chunks (they depend on the reads), persisted chunks and chunks whose task
    # embeds a large array stay keys of their own.
    assert not any(isinstance(p, InlineRead) for p in chunk_parts(2 * dX, (3, 3, 3, 3)))
    kept = kept_rows(
        map_chunks(lambda x: np.asarray(x)[:, 0], dX, row_chunks=(3,) * 4), (3,) * 4, float
    )
    assert not any(isinstance(p, InlineRead) for p in chunk_parts(kept, (3, 3, 3, 3)))
    big = da.from_array(np.zeros((40_000, 3)), chunks=(10_000, 3), inline_array=True)
    assert not any(isinstance(p, InlineRead) for p in chunk_parts(big, (10_000,) * 4))
    np.testing.assert_array_equal(kept.compute(), X[:, 0])


def test_reads_run_inside_the_map_tasks_on_a_cluster(stack):
    # A memory-mapped read kept as a key of its own counts at its full size in the
    # worker's memory and was spilled to disk (a copy) under memory pressure; inside
    # the task that uses it, it is never a key.
    X, dX = stack
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
        distributed.get_task_stream(client) as stream,
    ):
        rows = RowBlocks(dX)
        np.testing.assert_array_equal(rows.reduce(_sum_rows), X.sum(axis=0))
        assert [p.tolist() for p in rows.map(_sum_rows)] == [
            X[i : i + 3].sum(axis=0).tolist() for i in range(0, 12, 3)
        ]
    names = {str(t["key"][0] if isinstance(t["key"], tuple) else t["key"]) for t in stream.data}
    assert names and not any(n.startswith(dX.name) for n in names)


def test_folded_reduction_adds_the_same_chunks(tmp_path, monkeypatch):
    import svmcore.chunked._blocks as blocks

    X = np.arange(72.0).reshape(24, 3)
    da.to_npy_stack(tmp_path / "X", da.from_array(X, chunks=(2, 3)))  # 12 chunks, 48 B
    rows = RowBlocks(da.from_npy_stack(tmp_path / "X"))
    monkeypatch.setattr(blocks, "_cluster_threads", lambda: 1)
    # FOLD_RATIO 2: results of 48 B fold 2 chunks, of 120 B 4 (powers of two), at most
    # 12 // 2 per task.
    assert [rows.fold_size(b) for b in (None, 0, 1.0, 48.0, 120.0, 1e9)] == [1, 1, 1, 2, 4, 4]
    monkeypatch.setattr(blocks, "_cluster_threads", lambda: 0.5)
    assert rows.fold_size(1e9) == 8  # groups of 8 and 4

    def sums(start, X, y, w):
        return np.asarray(X).sum(axis=0), None, start

    # Sums that round differently in another order (8 chunks added one after the other
    # differ in the last bit): the folded tasks must add the chunks in
    # tree_sum's pairs, so the totals are the unfolded tree's to the bit.
    rng = np.random.default_rng(0)
    Xr = rng.normal(size=(24, 3)) * 10.0 ** rng.integers(-3, 4, size=(24, 3))
    da.to_npy_stack(tmp_path / "Xr", da.from_array(Xr, chunks=(2, 3)))
    rough = RowBlocks(da.from_npy_stack(tmp_path / "Xr"))
    with dask.config.set(scheduler="sync"):
        tree = rough.reduce(sums)[0]
        for threads, part_bytes in ((1, 48.0), (1, 120.0), (0.5, 1e9)):  # 2, 4, 8 + 4
            monkeypatch.setattr(blocks, "_cluster_threads", lambda t=threads: t)
            total, none, starts = rows.reduce(sums, part_bytes=part_bytes)
            np.testing.assert_array_equal(total, X.sum(axis=0))
            assert none is None and starts == sum(range(0, 24, 2))
            assert rough.reduce(sums, part_bytes=part_bytes)[0].tobytes() == tree.tobytes()


def test_compute_each_returns_results_in_order_and_leaves_nothing_on_the_workers(stack):
    from svmcore.chunked import compute_each

    X, dX = stack
    tasks = map_chunks(lambda x: np.asarray(x).sum(axis=0), dX, row_chunks=(3,) * 4)
    expected = [X[i : i + 3].sum(axis=0).tolist() for i in range(0, 12, 3)]
    with dask.config.set(scheduler="sync"):
        assert [p.tolist() for p in compute_each(tasks)] == expected
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        assert [p.tolist() for p in compute_each(tasks)] == expected
        # Each result was released once gathered (the release reaches the workers
        # asynchronously): nothing is left in their memory.
        for _ in range(100):
            held = sum(len(w.data) for w in cluster.workers.values())
            if not held:
                break
            time.sleep(0.05)
        assert held == 0


class _Result(list):
    """A task result that the workers' memory can be searched for."""


def _held_results():
    return sum(isinstance(v, _Result) for v in distributed.get_worker().data.values())


def _after_earlier_results_left(x):
    # One worker, one thread: the tasks run one after the other. Each waits (up to 2 s)
    # for the earlier results to leave the worker, which happens only if the caller
    # gathers and releases each as it ends; then notes what it saw.
    for _ in range(40):
        held = _held_results()
        if not held:
            break
        time.sleep(0.05)
    return _Result([float(np.asarray(x).sum()), held])


def test_compute_each_streams_each_result_out_before_the_next_task_ends(stack):
    from svmcore.chunked import compute_each

    X, dX = stack
    tasks = map_chunks(_after_earlier_results_left, dX, row_chunks=(3,) * 4)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        results = compute_each(tasks)
        assert [r[0] for r in results] == [X[i : i + 3].sum() for i in range(0, 12, 3)]
        # No task saw an earlier result still on the worker. dask.compute (what
        # compute_each replaced) holds them all to the end: its tasks see them.
        assert [r[1] for r in results] == [0, 0, 0, 0]
        held = sorted(r[1] for r in client.compute(tasks, sync=True))
        assert held == [0, 1, 2, 3]
