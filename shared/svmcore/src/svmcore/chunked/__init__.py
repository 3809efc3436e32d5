"""Row-chunked data on Dask: the map/reduce plumbing the estimators share.

The large-data methods touch the full data only through maps over row blocks and
reductions of small per-block results; this subpackage runs those on Dask, so a fit can
use a ``distributed`` cluster and data larger than one machine's memory. Dask is an
optional extra (``pip install svmcore[dask]``): nothing here imports it until a Dask
collection is actually passed, and :func:`is_dask_collection` is False for every other
input without importing Dask.
"""

from ._blocks import (
    RowBlocks,
    add_parts,
    compute_each,
    distinct,
    fold_count,
    gather_vector,
    select_rows,
    tree_sum,
)
from ._detect import is_dask_collection, require_dask
from ._kept import InlineRead, chunk_parts, chunk_task, kept_rows, map_chunks, shared_values
from ._pages import released_row_blocks
from ._validate import check_dask_data, map_predict

__all__ = [
    "InlineRead",
    "RowBlocks",
    "add_parts",
    "check_dask_data",
    "chunk_parts",
    "chunk_task",
    "compute_each",
    "distinct",
    "fold_count",
    "gather_vector",
    "is_dask_collection",
    "kept_rows",
    "map_chunks",
    "map_predict",
    "released_row_blocks",
    "require_dask",
    "select_rows",
    "shared_values",
    "tree_sum",
]
