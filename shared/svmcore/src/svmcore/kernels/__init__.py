"""Linear, RBF and polynomial kernels: Gram blocks, rows, diagonals, distances, products.

Definitions are scikit-learn's (``sklearn.metrics.pairwise``): ``linear`` is
:math:`\\langle a, b\\rangle`, ``rbf`` is :math:`\\exp(-\\gamma\\|a-b\\|^2)` and ``poly`` is
:math:`(\\gamma\\langle a, b\\rangle + c_0)^d`. Every routine keeps float32 input in
float32, works in row blocks (memory :math:`O(\\text{block} \\times n)`) and runs its
element-wise pass in parallel with Numba; :func:`working_dtype` says when float32 cannot
carry a kernel (extreme scales) and float64 must be used instead.
"""

from ._api import gram, kernel_diag, kernel_distances, kernel_matvec, kernel_rows
from ._precision import working_dtype
from ._spec import KERNELS, KernelSpec, check_kernel_params, resolve_gamma
from ._sums import KernelSum

__all__ = [
    "KERNELS",
    "KernelSpec",
    "KernelSum",
    "check_kernel_params",
    "gram",
    "kernel_diag",
    "kernel_distances",
    "kernel_matvec",
    "kernel_rows",
    "resolve_gamma",
    "working_dtype",
]
