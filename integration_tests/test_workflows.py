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
