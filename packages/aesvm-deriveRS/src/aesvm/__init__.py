"""AESVM: SVM training on approximate extreme points computed by DeriveRS (Nandan et al. 2014)."""

__version__ = "0.1.0.dev0"

__all__ = ["__version__"]
