"""Shared core of the SVM-family monorepo.

Subpackages
-----------
kernels
    Linear, RBF and polynomial kernels: Gram blocks, rows, diagonals and
    kernel-space distances, Numba-parallel and blocked.
linalg
    CGLS for weighted regularized least squares, exact line search for
    piecewise-quadratic objectives, k-th element selection.
solvers
    Weighted SVM through libsvm/liblinear and LP/QP through HiGHS, with one place
    that turns solver failures into clear exceptions.
clustering
    The papers' cheap initial clusterings and cluster bookkeeping.
datasets
    The papers' synthetic generators and svmlight/libsvm file I/O.
validation
    The one boundary to scikit-learn's validation utilities, and the semi-supervised
    label conventions (scikit-learn's -1 and SVMlin's 0 for an unlabeled sample).
chunked
    Maps and reductions over the row chunks of Dask arrays, where the chunks live
    (the optional ``dask`` extra; nothing imports Dask until a Dask array is passed).
model_selection
    Cross-validation of semi-supervised estimators: labeled test folds, every unlabeled
    sample in training, and a ``score`` on the labeled samples only.
reporting
    Progress reporting of the iterative estimators: the per-iteration table that
    ``verbose`` prints and the ``history_`` list that reads back the same way.
cli
    Plumbing of the command-line tools (argument parsing, one-line errors and exit
    statuses, a closed pipe, svmlight/CSV files, portable ``.npz`` model files), and the
    LIBSVM-style train/predict pair the packages' console scripts are built from.
docstrings
    ``fill_doc``: one text for a docstring paragraph that several estimators share,
    put in where a line ``%(name)s`` names it.
lazy
    ``lazy_exports``: a package's public names imported from their modules on first
    use, so that Dask workers importing the package for a task import no scikit-learn.
numba_config
    The Numba decorators (``jit``, ``jit_parallel``, ``jit_scalar``) and fast-math flags
    every jitted kernel of the monorepo is compiled with.
"""

from ._threads import blas_threads, effective_n_threads, numba_threads, thread_map

__version__ = "0.1.0.dev0"

__all__ = ["__version__", "blas_threads", "effective_n_threads", "numba_threads", "thread_map"]
