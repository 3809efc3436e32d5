"""``aid-train`` and ``aid-predict`` (also ``python -m aid_models train|predict``): AID-LAD
and AID-SVM as a LIBSVM-style command pair."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from svmcore.cli import (
    add_kernel_options,
    fraction,
    kernel_params,
    nonnegative_float,
    positive_float,
    positive_int,
    tool_pair,
)

from ._lad import AIDLADRegressor
from ._svc import AIDSVC

__all__ = ["main", "predict_main", "train_main"]

TRAIN_DESCRIPTION = """\
Train a model by AID, the aggregate and iterative disaggregate algorithm (Park and
Klabjan): -s lad, least absolute deviation regression (AIDLADRegressor), or -s svc, a
binary soft-margin SVM (AIDSVC, linear or kernel). AID solves small problems on cluster
representatives, splits the clusters that violate the optimality conditions, and stops
with a certificate: the objective, a lower bound and their relative gap.

The options follow LIBSVM's svm-train where they mean the same thing (-c, -t, -d, -g, -r,
-e, -q); AID's own parameters are the long options. The model is a portable .npz file
(arrays and a JSON header, no pickle) read by aid-predict."""

PREDICT_DESCRIPTION = """\
Predict with an AID model written by aid-train: one value per line in output_file, and
LIBSVM's mean squared error (LAD) or accuracy (SVC) when the test file has targets."""


def _model_type(text: str) -> str:
    if text not in ("svc", "lad"):
        raise argparse.ArgumentTypeError(f"must be svc or lad, got {text!r}")
    return text


def _rate(text: str) -> str | float:
    return "auto" if text == "auto" else fraction(text)


def _add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-s",
        dest="model",
        type=_model_type,
        default="svc",
        help="svc: binary SVM, AIDSVC (default); lad: LAD regression, AIDLADRegressor",
    )
    parser.add_argument(
        "-c", dest="C", type=positive_float, default=1.0, help="SVM cost C (svc; 1)"
    )
    add_kernel_options(parser, kernel="linear")
    parser.add_argument(
        "-e",
        dest="tol",
        type=positive_float,
        default=1e-3,
        help="tolerance of the aggregated SVM solver (svc; 0.001)",
    )
    group = parser.add_argument_group("AID")
    group.add_argument(
        "--gap-tol",
        type=nonnegative_float,
        default=None,
        help="stop when the relative optimality gap is at most this (default: the "
        "estimator's, 1e-3 for lad and 1e-4 for svc; 0: until proven optimal)",
    )
    group.add_argument("--max-iter", type=positive_int, default=100, help="AID iterations (100)")
    group.add_argument(
        "--time-limit", type=positive_float, default=None, help="seconds for the whole fit"
    )
    group.add_argument(
        "--initial-aggregation-rate",
        type=_rate,
        default="auto",
        metavar="R",
        help="clusters / samples at the start, in (0, 1), or auto (default)",
    )
    group.add_argument(
        "--solver",
        choices=("auto", "libsvm", "liblinear", "highs", "dcd", "newton", "dcd-full"),
        default="auto",
        help="solver of the aggregated SVM problems (svc; auto)",
    )
    group.add_argument("--no-intercept", action="store_true", help="LAD without an intercept (lad)")
    group.add_argument(
        "--random-state", type=int, default=0, help="seed of the initial clustering (0)"
    )
    group.add_argument("--verbose", action="store_true", help="print the iteration table")


def _build(args: argparse.Namespace) -> AIDLADRegressor | AIDSVC:
    common: dict[str, Any] = {
        "max_iter": args.max_iter,
        "time_limit": args.time_limit,
        "initial_aggregation_rate": args.initial_aggregation_rate,
        "random_state": args.random_state,
        "verbose": int(args.verbose),
    }
    if args.gap_tol is not None:
        common["gap_tol"] = args.gap_tol
    if args.model == "lad":
        return AIDLADRegressor(fit_intercept=not args.no_intercept, **common)
    return AIDSVC(C=args.C, **kernel_params(args), solver=args.solver, tol=args.tol, **common)


_CERTIFICATE = ["objective_", "lower_bound_", "optimality_gap_", "stop_reason_", "n_iter_"]


def _svc_attributes(est: AIDSVC) -> list[str]:
    """AIDSVC's predict reads ``coef_`` (linear) or the support vectors and ``gamma_``."""
    model = ["coef_"] if est.kernel == "linear" else ["support_vectors_", "gamma_"]
    base = ["classes_", "n_features_in_", "intercept_", "dual_coef_", "support_"]
    return base + model + _CERTIFICATE


ATTRIBUTES: dict[type, list[str] | Callable[[Any], list[str]]] = {
    AIDLADRegressor: ["n_features_in_", "coef_", "intercept_", *_CERTIFICATE],
    AIDSVC: _svc_attributes,
}


def _summary(est: AIDLADRegressor | AIDSVC) -> str:
    return (
        f"AID stopped: {est.stop_reason_} after {est.n_iter_} iterations, objective "
        f"{est.objective_:.10g}, lower bound {est.lower_bound_:.10g}, "
        f"gap {est.optimality_gap_:.3e}"
    )


train_main, predict_main, main = tool_pair(
    "aid",
    module=__name__,
    train_description=TRAIN_DESCRIPTION,
    predict_description=PREDICT_DESCRIPTION,
    add_options=_add_options,
    build=_build,
    attributes=ATTRIBUTES,
    summary=_summary,
    aliases={"fit": "train"},
)
