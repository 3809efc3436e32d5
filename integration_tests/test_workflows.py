"""The GitHub workflows stay consistent with the noxfile and the CI scripts."""

import re

import pytest
from _repo import ROOT

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
