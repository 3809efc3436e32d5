"""The installed distribution and the import package agree (version, public names)."""

import importlib.metadata

import svmcore


def test_version_is_single_sourced():
    assert importlib.metadata.version("svmcore") == svmcore.__version__


def test_public_names_resolve():
    assert "__version__" in svmcore.__all__
    missing = [name for name in svmcore.__all__ if not hasattr(svmcore, name)]
    assert not missing, f"__all__ names missing from svmcore: {missing}"
