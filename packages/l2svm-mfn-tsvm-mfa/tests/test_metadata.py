"""The installed distribution and the import package agree (version, public names)."""

import importlib.metadata
import importlib.resources

import l2svm_mfn


def test_version_is_single_sourced():
    assert importlib.metadata.version("l2svm-mfn-tsvm-mfa") == l2svm_mfn.__version__


def test_public_names_resolve():
    assert "__version__" in l2svm_mfn.__all__
    missing = [name for name in l2svm_mfn.__all__ if not hasattr(l2svm_mfn, name)]
    assert not missing, f"__all__ names missing from l2svm_mfn: {missing}"


def test_ships_the_py_typed_marker():
    # PEP 561: type checkers read the package's annotations only when this file ships
    # (hatch puts every file of the package folder into the wheel).
    assert importlib.resources.files("l2svm_mfn").joinpath("py.typed").is_file()
