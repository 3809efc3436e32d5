"""The installed distribution and the import package agree (version, public names)."""

import importlib.metadata
import importlib.resources

import lpsvr


def test_version_is_single_sourced():
    assert importlib.metadata.version("lpsvr-decomp") == lpsvr.__version__


def test_public_names_resolve():
    assert "__version__" in lpsvr.__all__
    missing = [name for name in lpsvr.__all__ if not hasattr(lpsvr, name)]
    assert not missing, f"__all__ names missing from lpsvr: {missing}"


def test_ships_the_py_typed_marker():
    # PEP 561: type checkers read the package's annotations only when this file ships
    # (hatch puts every file of the package folder into the wheel).
    assert importlib.resources.files("lpsvr").joinpath("py.typed").is_file()
