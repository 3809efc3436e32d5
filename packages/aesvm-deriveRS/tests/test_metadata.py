"""The installed distribution and the import package agree (version, public names)."""

import importlib.metadata
import importlib.resources

import aesvm


def test_version_is_single_sourced():
    assert importlib.metadata.version("aesvm-deriveRS") == aesvm.__version__


def test_public_names_resolve():
    assert "__version__" in aesvm.__all__
    missing = [name for name in aesvm.__all__ if not hasattr(aesvm, name)]
    assert not missing, f"__all__ names missing from aesvm: {missing}"


def test_ships_the_py_typed_marker():
    # PEP 561: type checkers read the package's annotations only when this file ships
    # (hatch puts every file of the package folder into the wheel).
    assert importlib.resources.files("aesvm").joinpath("py.typed").is_file()
