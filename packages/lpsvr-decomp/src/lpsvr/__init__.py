"""Linear-programming support vector regression trained by variable and constraint decomposition (Rivas-Perea & Cota-Ruiz 2013)."""

__version__ = "0.1.0.dev0"

__all__ = ["__version__"]
