"""The GitHub workflows stay consistent with the noxfile and the CI scripts."""

import ast
import re

import pytest
from _repo import ROOT, load_script

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
NOXFILE = (ROOT / "noxfile.py").read_text(encoding="utf-8")


def test_there_are_workflows():
    assert {p.name for p in WORKFLOWS} >= {"tests.yml", "asv.yml", "release.yml"}


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_nox_sessions_and_scripts_exist(workflow):
    text = workflow.read_text(encoding="utf-8")
    for session in re.findall(r"nox -s \"?([a-z_]+)", text):
        assert re.search(rf"^def {session}\(session", NOXFILE, flags=re.MULTILINE), session
    for script in re.findall(r"(\.github/scripts/[\w.]+\.py)", text):
        assert (ROOT / script).is_file(), script
    assert "\t" not in text, "tabs are not valid YAML indentation"


def _nox_packages():
    """The noxfile's ``PACKAGES`` literal, read without importing nox."""
    for node in ast.parse(NOXFILE).body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "PACKAGES":
            return ast.literal_eval(node.value)
    raise AssertionError("noxfile.py defines no PACKAGES")


def test_noxfile_packages_match_the_pyprojects():
    """The CI matrix (from the pyprojects) names exactly the noxfile's sessions."""
    cp = load_script()
    discovered = cp.discover_packages(ROOT)
    nox_packages = _nox_packages()
    assert set(nox_packages) == set(discovered)
    local = cp.local_dependencies(discovered)
    for name, (folder, import_name, deps) in nox_packages.items():
        assert folder == discovered[name].folder
        assert import_name == discovered[name].import_name
        runtime = {cp.requirement_name(r) for r in discovered[name].dependencies}
        assert set(deps) == {d for d in local[name] if cp.canonical_name(d) in runtime}, name


def _nox_constant(name):
    for node in ast.parse(NOXFILE).body:
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            if any(getattr(t, "id", "") == name for t in targets):
                return ast.literal_eval(node.value)
    raise AssertionError(f"noxfile.py defines no {name}")


def _pins(lock):
    """``{canonical name: version}`` of a ``uv pip compile`` lock (markers ignored)."""
    cp = load_script()
    pins = {}
    for line in lock.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^([A-Za-z0-9_.\-]+)==([^\s;]+)", line)
        if match:
            pins.setdefault(cp.canonical_name(match[1]), match[2])
    return pins


def test_every_supported_python_has_a_lock():
    for version in _nox_constant("SUPPORTED_PYTHONS"):
        pins = _pins(ROOT / "locks" / f"py{version}.txt")
        assert {"numpy", "scipy", "numba", "scikit-learn", "highspy", "pytest"} <= set(pins)


def test_minimum_lock_pins_the_declared_lower_bounds():
    """``tests_minimum`` tests what the metadata promises: a bumped bound needs a new lock."""
    cp = load_script()
    pins = _pins(ROOT / "locks" / "minimum-py3.11.txt")
    packages = cp.discover_packages(ROOT)
    siblings = {cp.canonical_name(name) for name in packages}
    for package in packages.values():
        for requirement in package.dependencies:
            name = cp.requirement_name(requirement)
            lower = re.search(r">=\s*([0-9][0-9.]*)", requirement)
            if name in siblings or lower is None:
                continue  # siblings come from the checkout
            declared = lower[1].split(".")[:2]
            assert pins[name].split(".")[:2] == declared, (package.name, requirement, pins[name])
