"""The cause AIDSVC names when its aggregated solves fail: the data's scale.

``X t`` at ``C`` is the SVM on ``X`` at ``C t^2``: features of 1e10 at ``C = 1`` make a
nearly hard-margin problem whose aggregated solves float64 cannot certify (Newton's
bound is lost to cancellation, libsvm runs into its iteration cap). The remedy is the
user's, so the warning names the scale and the remedy (issue 19).
"""

from __future__ import annotations

import functools

import numpy as np

from svmcore.validation import HARD_MARGIN_SCALE, hard_margin_scale

__all__: list[str] = []


def _weighted_sums(block):
    return np.asarray(block.X.T @ block.weights).ravel(), float(block.weights.sum())


def _block_scale(block, C, center):
    return hard_margin_scale(block.X, block.weights, C=C, center=center)


def scale_sentence(data, C):
    """A sentence naming ``max C s_i ||x_i - mean||^2`` and the remedy when it is beyond
    ``HARD_MARGIN_SCALE``, else "" (two passes over ``data``, a DataSource)."""
    x_sum, w_sum = data.reduce_blocks(_weighted_sums)
    center = x_sum / w_sum  # the weighted mean: a free bias absorbs the shift
    kappa = max(data.map_blocks(functools.partial(_block_scale, C=C, center=center)))
    if not kappa >= HARD_MARGIN_SCALE:
        return ""
    return (
        f" max C s_i ||x_i - mean||^2 is {kappa:.3g} on this data: beyond about "
        f"{HARD_MARGIN_SCALE:.0e} the SVM is nearly a hard-margin problem, which float64 "
        "solvers cannot certify. Standardize X (e.g. sklearn.preprocessing.StandardScaler) "
        "or lower C."
    )


def scale_cause(data, C, linear):
    """``store_run``'s ``cause`` for AIDSVC: the scale sentence (linear kernel), else None."""
    return functools.partial(scale_sentence, data, C) if linear else None
