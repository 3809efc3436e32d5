"""No package (and no tool) reaches into another package's private modules (DESIGN.md)."""

import ast

import pytest
from _repo import ROOT

#: import name -> source folder of every package of the monorepo
SOURCES = {
    "svmcore": ROOT / "shared" / "svmcore" / "src" / "svmcore",
    "aid_core": ROOT / "packages" / "aid-core" / "src" / "aid_core",
    "aid_models": ROOT / "packages" / "aid-lad-svm-s3vm" / "src" / "aid_models",
    "aesvm": ROOT / "packages" / "aesvm-deriveRS" / "src" / "aesvm",
    "l2svm_mfn": ROOT / "packages" / "l2svm-mfn-tsvm-mfa" / "src" / "l2svm_mfn",
    "lpsvr": ROOT / "packages" / "lpsvr-decomp" / "src" / "lpsvr",
}
#: code outside every package that may only use the packages' public names
OUTSIDE = [ROOT / "tools", ROOT / "asv_benchmarks", ROOT / "integration_tests"]
#: the one exception, with its reason: the bench case caps a TSVM run (Table 4, S = 1)
#: by wall clock by wrapping the module's retraining; it goes once TSVMClassifier takes
#: a time budget of its own (issue 19)
ALLOWED = {"tools/bench_cases/l2svm_mfn.py": ["l2svm_mfn._tsvm"]}


def _imported_modules(path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def _private_uses(path, own):
    """Modules of other monorepo packages with a private part that ``path`` imports."""
    return [
        module
        for module in _imported_modules(path)
        if module.split(".")[0] in SOURCES
        and module.split(".")[0] != own
        and any(part.startswith("_") for part in module.split(".")[1:])
    ]


def _files():
    for own, folder in SOURCES.items():
        yield from ((path, own) for path in sorted(folder.rglob("*.py")))
    for folder in OUTSIDE:
        yield from ((path, None) for path in sorted(folder.rglob("*.py")))


def test_the_scan_sees_the_code():
    assert sum(1 for _ in _files()) > 100


@pytest.mark.parametrize("module", ["aesvm._derive", "svmcore.solvers._dcd"])
def test_a_private_import_is_found(tmp_path, module):
    path = tmp_path / "case.py"
    path.write_text(f"from {module} import x\nimport numpy._core\n")
    assert _private_uses(path, "aid_models") == [module]


def test_no_cross_package_private_imports():
    offenders = {
        str(path.relative_to(ROOT)): uses
        for path, own in _files()
        if (uses := _private_uses(path, own)) and uses != ALLOWED.get(str(path.relative_to(ROOT)))
    }
    assert not offenders, f"private imports across packages (export the name): {offenders}"
