"""Input validation: the scikit-learn boundary, argument checks, ``random_state`` handling,
semi-supervised labels."""

from typing import TYPE_CHECKING

from ..lazy import lazy_exports
from ._checks import check_float_array, check_indices, check_positive_int, check_real
from ._magnitude import (
    HARD_MARGIN_SCALE,
    FeatureScaleWarning,
    check_magnitude,
    hard_margin_scale,
    warn_feature_scales,
)
from ._random import check_generator, check_seed
from ._semi import UNLABELED, from_svmlin_labels, split_semi_supervised, unlabeled_mask

if TYPE_CHECKING:
    from ._sklearn import (
        CachedParamNames,
        Hidden,
        Interval,
        Options,
        StrOptions,
        check_classification_targets,
        check_is_fitted,
        check_sample_weight,
        class_labels,
        fit_context,
        validate_data,
    )

# The scikit-learn boundary is imported on first use: the argument checks above are what
# the per-chunk tasks on Dask workers need, and importing scikit-learn there would add
# it and pandas (about 68 MB) to every worker (svmcore.lazy).
__getattr__, __dir__ = lazy_exports(
    __name__,
    dict.fromkeys(
        [
            "CachedParamNames",
            "Hidden",
            "Interval",
            "Options",
            "StrOptions",
            "check_classification_targets",
            "check_is_fitted",
            "check_sample_weight",
            "class_labels",
            "fit_context",
            "validate_data",
        ],
        "._sklearn",
    ),
)

__all__ = [
    "HARD_MARGIN_SCALE",
    "CachedParamNames",
    "FeatureScaleWarning",
    "Hidden",
    "Interval",
    "Options",
    "StrOptions",
    "UNLABELED",
    "check_classification_targets",
    "class_labels",
    "check_float_array",
    "check_generator",
    "check_indices",
    "check_is_fitted",
    "check_magnitude",
    "check_positive_int",
    "check_real",
    "check_sample_weight",
    "check_seed",
    "fit_context",
    "from_svmlin_labels",
    "hard_margin_scale",
    "split_semi_supervised",
    "unlabeled_mask",
    "validate_data",
    "warn_feature_scales",
]
