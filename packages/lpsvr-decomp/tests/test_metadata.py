"""The installed distribution and the import package agree (version, public names)."""

import importlib.metadata

import lpsvr


def test_version_is_single_sourced():
    assert importlib.metadata.version("lpsvr-decomp") == lpsvr.__version__


def test_public_names_resolve():
    assert "__version__" in lpsvr.__all__
    missing = [name for name in lpsvr.__all__ if not hasattr(lpsvr, name)]
    assert not missing, f"__all__ names missing from lpsvr: {missing}"
