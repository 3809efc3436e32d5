"""``lpsvr-train`` and ``lpsvr-predict``: LP-SVR (and LP-SVC) as a LIBSVM-style pair."""

from __future__ import annotations

import argparse

from svmcore.cli import (
    add_kernel_options,
    kernel_params,
    nonnegative_float,
    positive_float,
    positive_int,
    tool_pair,
)

from ._lpsvc import LPSVC
from ._lpsvr import LPSVR

__all__ = ["main", "predict_main", "train_main"]

TRAIN_DESCRIPTION = """\
Train a linear-programming support vector regression, LP-SVR (Rivas-Perea and Cota-Ruiz,
2013, with the printed formulation's flaw repaired): an epsilon-insensitive kernel
regression whose coefficients minimize an L1 penalty, solved exactly by HiGHS through
row and column generation (default) or the paper's decompositions. -s 0 trains LP-SVC,
one LP-SVR per class on +1/-1 targets.

The options follow LIBSVM's svm-train where they mean the same thing (-s, -c, -p, -t, -d,
-g, -r, -e, -q); LP-SVR's own parameters are the long options. LP-SVR works on dense
data: a svmlight file is densified. The model is a portable .npz file (arrays and a JSON
header, no pickle) read by lpsvr-predict."""

PREDICT_DESCRIPTION = """\
Predict with an LP-SVR or LP-SVC model written by lpsvr-train: one value per line in
output_file, and LIBSVM's mean squared error (regression) or accuracy (classification)
when the test file has targets."""


def _svm_type(text: str) -> int:
    if text not in ("0", "3"):
        raise argparse.ArgumentTypeError(
            f"must be 3 (epsilon-SVR: LP-SVR) or 0 (C-SVC: LP-SVC), got {text!r}"
        )
    return int(text)


def _optional_int(text: str) -> int | None:
    return None if text.lower() == "none" else positive_int(text)


def _add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-s",
        dest="svm_type",
        type=_svm_type,
        default=3,
        help="3: epsilon-SVR, LP-SVR (default); 0: C-SVC, LP-SVC",
    )
    parser.add_argument("-c", dest="C", type=positive_float, default=1.0, help="cost C (1)")
    parser.add_argument(
        "-p",
        dest="epsilon",
        type=nonnegative_float,
        default=0.1,
        help="epsilon, half-width of the insensitive tube (0.1)",
    )
    add_kernel_options(parser)
    parser.add_argument(
        "-e", dest="tol", type=positive_float, default=1e-6, help="KKT tolerance (1e-6)"
    )
    group = parser.add_argument_group("LP-SVR")
    group.add_argument(
        "--sigma",
        type=positive_float,
        default=None,
        help="the paper's RBF width: gamma = 1 / (2 sigma^2), overrides -g",
    )
    group.add_argument(
        "--decomposition",
        choices=("row_column", "full", "variables", "none"),
        default="row_column",
        help="row_column (default, exact), full (the paper's Algorithm 1), variables "
        "(Algorithm 2), none (one LP, N x N kernel)",
    )
    group.add_argument(
        "--method",
        choices=("simplex", "ipm", "choose"),
        default="simplex",
        help="HiGHS method of full, variables and none (simplex)",
    )
    group.add_argument(
        "--B0", type=_optional_int, default=None, help="initial working-set size (auto)"
    )
    group.add_argument(
        "--max-iter", type=positive_int, default=1000, help="outer iterations (1000)"
    )
    group.add_argument(
        "--time-limit", type=positive_float, default=None, help="seconds for the whole fit"
    )
    group.add_argument(
        "--random-state", type=int, default=None, help="seed of the initial working set"
    )
    parser.add_argument("--n-jobs", type=int, default=None, help="Numba threads")


def _build(args: argparse.Namespace) -> LPSVR | LPSVC:
    cls = LPSVR if args.svm_type == 3 else LPSVC
    return cls(
        C=args.C,
        epsilon=args.epsilon,
        **kernel_params(args),
        sigma=args.sigma,
        decomposition=args.decomposition,
        method=args.method,
        B0=args.B0,
        max_iter=args.max_iter,
        tol=args.tol,
        time_limit=args.time_limit,
        random_state=args.random_state,
        n_jobs=args.n_jobs,
    )


_REGRESSOR = [
    "n_features_in_",
    "support_",
    "support_vectors_",
    "dual_coef_",
    "intercept_",
    "_kernel_params_",
    "objective_",
    "converged_",
    "n_iter_",
]
#: What predict reads (LPSVC holds one fitted LPSVR per class), plus the certificate.
ATTRIBUTES = {
    LPSVR: _REGRESSOR,
    LPSVC: ["classes_", "n_features_in_", "estimators_", "converged_", "n_iter_"],
}


def _summary(est: LPSVR | LPSVC) -> str:
    regs = est.estimators_ if isinstance(est, LPSVC) else [est]
    n_sv = sum(reg.support_.size for reg in regs)
    return f"{n_sv} support vectors, objective {sum(r.objective_ for r in regs):.10g}"


train_main, predict_main, main = tool_pair(
    "lpsvr",
    module=__name__,
    train_description=TRAIN_DESCRIPTION,
    predict_description=PREDICT_DESCRIPTION,
    add_options=_add_options,
    build=_build,
    attributes=ATTRIBUTES,
    summary=_summary,
)
