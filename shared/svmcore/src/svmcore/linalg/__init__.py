"""Linear algebra for the SVMlin family: CGLS, exact line search, selection, row products.

- :func:`cgls`: weighted regularized least squares over active rows (SVMlin Table 2).
- :func:`line_search`: exact line search for the squared-hinge objective (Table 3).
- :func:`mfn_step`: one whole L2-SVM-MFN iteration (Table 1) in one Numba call, for
  problems whose products are serial (:func:`mfn_step_is_serial`);
  :func:`squared_hinge_value` its objective.
- :func:`kth_smallest`, :func:`select`: k-th element selection;
  :func:`kth_smallest_inplace` is the jitted one for Numba callers.
- :func:`matvec_rows`, :func:`rmatvec_rows`, :class:`RowProducts`: Numba products
  ``X_J v`` and ``X_J^T u`` for dense and CSR ``X`` without copying ``X_J``.
- :func:`weighted_gram`: ``X^T diag(w) X`` without a scaled copy of ``X``;
  :func:`scaled_rows` the copy ``diag(s) X`` (with an intercept column) in one array.
- :func:`boundary_step`: the ratio test of interior-point methods, in one pass.
- :func:`power_of_two_scaling`: exact rescaling of data whose scale would overflow;
  :func:`column_power_of_two_scaling` the same column by column (unregularized models).
"""

from ._boundary import boundary_step
from ._cgls import CGLSResult, cgls, jacobi_preconditioner
from ._gram import scaled_rows, weighted_gram
from ._line_search import line_search
from ._mfn_step import MFNStep, mfn_step, mfn_step_is_serial, squared_hinge_value
from ._products import RowProducts, matvec_rows, rmatvec_rows
from ._scaling import column_power_of_two_scaling, power_of_two_scaling
from ._select import kth_smallest, kth_smallest_inplace, select

__all__ = [
    "CGLSResult",
    "MFNStep",
    "RowProducts",
    "boundary_step",
    "cgls",
    "column_power_of_two_scaling",
    "jacobi_preconditioner",
    "kth_smallest",
    "kth_smallest_inplace",
    "line_search",
    "matvec_rows",
    "mfn_step",
    "mfn_step_is_serial",
    "power_of_two_scaling",
    "rmatvec_rows",
    "scaled_rows",
    "select",
    "squared_hinge_value",
    "weighted_gram",
]
