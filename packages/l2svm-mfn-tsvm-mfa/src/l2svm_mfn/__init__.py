"""L2-SVM-MFN, transductive SVM with multiple switching and mean field annealing (Sindhwani & Keerthi 2006)."""

__version__ = "0.1.0.dev0"

__all__ = ["__version__"]
