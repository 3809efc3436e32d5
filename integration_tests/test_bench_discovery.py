"""The bench runners' case discovery (``tools/_benchkit.discover``)."""

import importlib
import sys

import pytest
from _repo import ROOT


@pytest.fixture
def benchkit(tmp_path, monkeypatch):
    """``_benchkit`` and a case package ``toy_cases`` in ``tmp_path`` to fill."""
    monkeypatch.syspath_prepend(str(ROOT / "tools"))
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "toy_cases").mkdir()
    (tmp_path / "toy_cases" / "__init__.py").write_text("")
    yield importlib.import_module("_benchkit"), tmp_path / "toy_cases"
    for name in [m for m in sys.modules if m.startswith("toy_cases")]:
        del sys.modules[name]


def test_missing_optional_package_is_skipped_with_a_note(benchkit):
    kit, folder = benchkit
    (folder / "fine.py").write_text("import numpy\n")
    (folder / "optional.py").write_text("import a_package_nobody_installed\n")
    loaded, notes = kit.discover("toy_cases")
    assert loaded == ["fine"]
    assert len(notes) == 1 and notes[0].startswith("optional: skipped")


@pytest.mark.parametrize(
    "source",
    ["from svmcore.kernels import a_renamed_function\n", "import aesvm._a_removed_module\n"],
)
def test_import_error_from_our_packages_is_raised(benchkit, source):
    kit, folder = benchkit
    (folder / "broken.py").write_text(source)
    with pytest.raises(ImportError):
        kit.discover("toy_cases")
