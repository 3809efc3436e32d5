"""The SCIP model of the aggregated S3VM problem, configured around a native crash.

The pyscipopt wheels (SCIP 10 with Ipopt, MUMPS and METIS inside ``libscip``) abort the
whole process (``free(): invalid pointer``, ``malloc(): invalid size``, or a hang in
``malloc`` after the corruption) when Ipopt factors the NLP of SCIP's MPEC heuristic with
METIS's nested-dissection ordering (``METIS_NodeND`` from MUMPS's analysis) on an
aggregated problem (15) with about 770 or more unlabeled entries, i.e. from n of about
77,000 at the default r^0 = 0.01 (issue 19; the same METIS crash is reported as
scipopt/scip#211 and scipopt/PySCIPOpt#1234). The threshold follows the sizes, not the
data: 765 unlabeled entries solve and 770 crash on random data with 2 features and 2
labeled entries, 760 solve and 775 crash on the n = 100,000 benchmark's first problem
(10 features, 20 labeled entries).

Every model therefore points SCIP's Ipopt at an options file that selects MUMPS's AMD
ordering (``mumps_pivot_order 0``). The ordering only changes the fill-in of the sparse
factorization inside SCIP's NLP heuristics; the NLP heuristics still run, and SCIP's
bounds and proven optimum do not depend on them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["IPOPT_OPTIONS", "new_scip_model"]

#: Ipopt options file shipped with the package (SCIP needs a path on disk; a missing file
#: would be ignored silently by Ipopt, so :func:`new_scip_model` checks it).
IPOPT_OPTIONS = Path(__file__).resolve().with_name("_ipopt_amd.opt")


def new_scip_model(pyscipopt: Any, name: str) -> Any:
    """A quiet ``pyscipopt.Model`` whose NLP solves avoid METIS (see the module docstring).

    Parameters
    ----------
    pyscipopt : module
        The imported ``pyscipopt`` (imported by the caller, which owns the message for a
        missing optional dependency).
    name : str
        Name of the model.

    Returns
    -------
    pyscipopt.Model
    """
    if not IPOPT_OPTIONS.is_file():
        raise FileNotFoundError(
            f"aid_models ships the Ipopt options file {IPOPT_OPTIONS}, which is missing; "
            "without it SCIP can abort the process on large aggregated S3VM problems. "
            "Reinstall aid-lad-svm-s3vm."
        )
    model = pyscipopt.Model(name)
    model.hideOutput()
    model.setParam("nlpi/ipopt/optfile", str(IPOPT_OPTIONS))
    return model
