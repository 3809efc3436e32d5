"""``aesvm-train`` and ``aesvm-predict``: AESVM as a LIBSVM-style command pair."""

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

from ._classes import AESVC

__all__ = ["main", "predict_main", "train_main"]

TRAIN_DESCRIPTION = """\
Train an AESVM classifier (Nandan, Khargonekar and Talathi, JMLR 2014): DeriveRS
computes a representative set of approximate extreme points, then a kernel SVM is
trained on it (each representative weighted by the samples it stands for).

The options follow LIBSVM's svm-train where they mean the same thing (-c, -t, -d, -g, -r,
-e, -m, -q); DeriveRS's own parameters are the long options. The model is a portable
.npz file (arrays and a JSON header, no pickle) read by aesvm-predict."""

PREDICT_DESCRIPTION = """\
Predict with an AESVM model written by aesvm-train: one label per line in output_file,
and LIBSVM's accuracy line when the test file has labels."""


def _fallback(text):
    """``fallback_fraction``: ``none`` or a number in (0, 1]."""
    if text.lower() == "none":
        return None
    try:
        value = positive_float(text)
    except argparse.ArgumentTypeError:
        value = None
    if value is None or value > 1.0:
        raise argparse.ArgumentTypeError(f"must be 'none' or a number in (0, 1], got {text!r}")
    return value


def _epsilon(text):
    return "auto" if text == "auto" else nonnegative_float(text)


def _add_options(parser):
    parser.add_argument("-c", dest="C", type=positive_float, default=1.0, help="cost C (1)")
    add_kernel_options(parser)
    parser.add_argument(
        "-e", dest="tol", type=positive_float, default=1e-3, help="SVM tolerance (0.001)"
    )
    parser.add_argument(
        "-m", dest="cache_size", type=positive_float, default=200.0, help="cache in MB (200)"
    )
    group = parser.add_argument_group("DeriveRS (the paper's parameters)")
    group.add_argument(
        "--epsilon",
        type=_epsilon,
        default="auto",
        help="epsilon: squared kernel distance under which a sample is not a "
        "representative; auto is 0.001 times the mean k(x, x) (default auto)",
    )
    group.add_argument("-P", "--subset-size", type=positive_int, default=100_000, help="P (100000)")
    group.add_argument("-V", "--group-size", type=positive_int, default=1_000, help="V (1000)")
    group.add_argument(
        "--segregation", choices=("fls1", "fls2"), default="fls2", help="first level (fls2)"
    )
    group.add_argument(
        "--fallback-fraction",
        type=_fallback,
        default=0.6,
        metavar="F",
        help="train on all samples when DeriveRS keeps more than this fraction of a first "
        "batch, or when there are fewer than 10000 samples; none: always use the "
        "representative set, as the paper (default 0.6)",
    )
    group.add_argument(
        "--random-state", type=int, default=None, help="shuffle each class with this seed"
    )
    parser.add_argument("--n-jobs", type=int, default=None, help="Numba threads")


def _build(args):
    return AESVC(
        C=args.C,
        **kernel_params(args),
        tol=args.tol,
        cache_size=args.cache_size,
        epsilon=args.epsilon,
        subset_size=args.subset_size,
        group_size=args.group_size,
        segregation=args.segregation,
        fallback_fraction=args.fallback_fraction,
        random_state=args.random_state,
        n_jobs=args.n_jobs,
        reuse_representatives=False,
    )


#: What AESVC's predict reads, and the size of its reduction.
ATTRIBUTES = {
    AESVC: [
        "classes_",
        "n_features_in_",
        "support_",
        "support_vectors_",
        "dual_coef_",
        "intercept_",
        "_gamma",
        "epsilon_",
        "n_representatives_",
        "fallback_",
        "n_iter_",
    ]
}


def _summary(est):
    reduced = (
        "all samples (fallback)" if est.fallback_ else f"{est.n_representatives_} representatives"
    )
    return f"trained on {reduced}, {est.support_.size} support vectors"


train_main, predict_main, main = tool_pair(
    "aesvm",
    module=__name__,
    train_description=TRAIN_DESCRIPTION,
    predict_description=PREDICT_DESCRIPTION,
    add_options=_add_options,
    build=_build,
    attributes=ATTRIBUTES,
    summary=_summary,
)
