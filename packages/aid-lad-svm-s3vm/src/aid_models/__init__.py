"""AID for least absolute deviation regression, SVM (linear and kernel) and semi-supervised SVM."""

__version__ = "0.1.0.dev0"

__all__ = ["__version__"]
