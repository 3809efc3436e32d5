"""Model selection for semi-supervised estimators: a cross-validation splitter that keeps
every unlabeled sample in training, and a ``score`` on the labeled samples only."""

from ._score import SemiSupervisedScoreMixin
from ._split import SemiSupervisedKFold

__all__ = ["SemiSupervisedKFold", "SemiSupervisedScoreMixin"]
