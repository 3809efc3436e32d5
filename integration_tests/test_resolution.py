"""One environment satisfies every package's declared requirements at once (no conflicts)."""

import importlib.metadata as md

import pytest
from _repo import ROOT, load_script
from packaging.requirements import Requirement

PACKAGES = load_script().discover_packages(ROOT)


def _unsatisfied(requirements, extra=""):
    problems = []
    for requirement in map(Requirement, requirements):
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": extra}):
            continue
        try:
            installed = md.version(requirement.name)
        except md.PackageNotFoundError:
            problems.append(f"{requirement}: not installed")
            continue
        if not requirement.specifier.contains(installed, prereleases=True):
            problems.append(f"{requirement}: installed {installed}")
    return problems


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_installed_versions_satisfy_every_runtime_requirement(name):
    assert not _unsatisfied(PACKAGES[name].dependencies), name


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_installed_versions_satisfy_every_test_requirement(name):
    # The integration environment installs every package with its test extra in one
    # resolver call; all of them hold together.
    assert not _unsatisfied(PACKAGES[name].optional_dependencies.get("test", [])), name
