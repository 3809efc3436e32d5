"""The generic Aggregate and Iterative Disaggregate (AID) loop of Park & Klabjan."""

__version__ = "0.1.0.dev0"

__all__ = ["__version__"]
