"""No hard-coded ``fastmath=`` anywhere but svmcore/numba_config.py (stumpy's check_fastmath)."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[3]
ALLOWED = ROOT / "shared" / "svmcore" / "src" / "svmcore" / "numba_config.py"
PATTERN = re.compile(r"fastmath\s*=")


def test_no_hard_coded_fastmath():
    files = [
        path
        for folder in (ROOT / "shared", ROOT / "packages")
        for path in folder.rglob("*.py")
        if ".nox" not in path.parts and path != ALLOWED and path != pathlib.Path(__file__)
    ]
    assert len(files) > 5  # the walk found the monorepo
    offenders = [
        f"{path.relative_to(ROOT)}:{lineno}"
        for path in files
        for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if PATTERN.search(line)
    ]
    assert not offenders, f"hard-coded fastmath= (use svmcore.numba_config.jit): {offenders}"
