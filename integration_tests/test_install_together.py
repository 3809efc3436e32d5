"""Every package installed together: imports, versions, sibling ranges, dependency graph."""

import importlib
import importlib.metadata as md
import re

import pytest
from _repo import ROOT, load_script
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

cp = load_script()
PACKAGES = cp.discover_packages(ROOT)

#: DESIGN.md's dependency graph: local siblings and highspy each package may need at run time.
RUNTIME_GRAPH = {
    "svmcore": set(),
    "aid-core": {"svmcore"},
    "aid-lad-svm-s3vm": {"aid-core", "svmcore", "highspy"},
    "aesvm-deriveRS": {"svmcore"},
    "l2svm-mfn-tsvm-mfa": {"svmcore"},
    "lpsvr-decomp": {"svmcore", "highspy"},
}
#: Scientific stack every package may use; anything else at run time is a graph violation.
STACK = {"numpy", "scipy", "numba", "scikit-learn"}
LOCAL = {canonicalize_name(n) for n in PACKAGES}


def _runtime_requirements(name):
    return [Requirement(r) for r in PACKAGES[name].dependencies]


def test_every_package_of_the_graph_exists():
    assert set(PACKAGES) == set(RUNTIME_GRAPH)


def test_all_packages_import_together():
    modules = {name: importlib.import_module(p.import_name) for name, p in PACKAGES.items()}
    for name, module in modules.items():
        version = module.__version__
        assert Version(version) == Version(md.version(name)), name
        assert sorted(module.__all__) == sorted(set(module.__all__)), f"{name}: duplicate __all__"
        missing = [attr for attr in module.__all__ if not hasattr(module, attr)]
        assert not missing, f"{name}.__all__ names missing attributes {missing}"


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_version_is_single_sourced(name):
    package = PACKAGES[name]
    text = (ROOT / package.folder / package.version_file).read_text(encoding="utf-8")
    match = re.search(r'^__version__ = "([^"]+)"$', text, flags=re.MULTILINE)
    assert match, f"{package.version_file} does not define __version__"
    assert match.group(1) == importlib.import_module(package.import_name).__version__


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_sibling_ranges_admit_the_sibling_versions(name):
    versions = {canonicalize_name(n): md.version(n) for n in PACKAGES}
    package = PACKAGES[name]
    requirements = list(package.dependencies)
    for group in package.optional_dependencies.values():
        requirements += group
    for requirement in map(Requirement, requirements):
        key = canonicalize_name(requirement.name)
        if key in LOCAL:
            assert requirement.specifier, f"{name}: {requirement} declares no version range"
            assert requirement.specifier.contains(versions[key], prereleases=True), (
                f"{name} requires {requirement} but the checkout has {versions[key]}"
            )


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_runtime_dependencies_follow_the_design_graph(name):
    declared = {canonicalize_name(r.name) for r in _runtime_requirements(name)}
    allowed = {canonicalize_name(n) for n in RUNTIME_GRAPH[name]}
    local_or_highspy = {d for d in declared if d in LOCAL or d == "highspy"}
    assert local_or_highspy == allowed
    assert declared - allowed <= STACK, f"{name} declares {declared - allowed - STACK}"


def _closure(dist, extras=frozenset(), seen=None):
    """Canonical names of everything installing ``dist[extras]`` pulls, from the metadata."""
    seen = set() if seen is None else seen
    key = (canonicalize_name(dist), frozenset(extras))
    if key in seen:
        return set()
    seen.add(key)
    names = {key[0]}
    try:
        requires = md.requires(dist) or []
    except md.PackageNotFoundError:
        return names
    for requirement in map(Requirement, requires):
        marker = requirement.marker
        if marker is not None:
            environments = [{"extra": e} for e in extras] or [{"extra": ""}]
            if not any(marker.evaluate(env) for env in environments):
                continue
        names |= _closure(requirement.name, requirement.extras, seen)
    return names


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_installed_closure_pulls_highspy_only_where_declared(name):
    pulled = _closure(name)
    assert ("highspy" in pulled) == ("highspy" in RUNTIME_GRAPH[name]), sorted(pulled)
    local = {canonicalize_name(n) for n in RUNTIME_GRAPH[name] if n != "highspy"}
    assert pulled & LOCAL == local | {canonicalize_name(name)}


def test_svmcore_highspy_only_in_extras():
    core = PACKAGES["svmcore"]
    assert "highspy" not in {canonicalize_name(r.name) for r in _runtime_requirements("svmcore")}
    lp = {canonicalize_name(Requirement(r).name) for r in core.optional_dependencies["lp"]}
    assert "highspy" in lp
    assert "highspy" in _closure("svmcore", {"lp"})
