"""The repository layout as the CI script reads it, shared by the integration tests."""

import importlib.util
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def load_script(name="changed_packages"):
    """Import ``.github/scripts/<name>.py`` (a CI script, not an installed module)."""
    path = ROOT / ".github" / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    # dataclasses look the module up in sys.modules while the class is being built
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
