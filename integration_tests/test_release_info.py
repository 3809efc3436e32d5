"""Release tags ``<dist>-v<version>`` resolve to one package whose version matches."""

import importlib

import pytest
from _repo import ROOT, load_script

ri = load_script("release_info")
cp = load_script("changed_packages")


@pytest.mark.parametrize(
    ("tag", "dist", "version"),
    [
        ("aid-core-v0.1.0", "aid-core", "0.1.0"),
        ("refs/tags/l2svm-mfn-tsvm-mfa-v1.2.3rc1", "l2svm-mfn-tsvm-mfa", "1.2.3rc1"),
        ("aesvm-deriveRS-v0.1.0.dev0", "aesvm-deriveRS", "0.1.0.dev0"),
    ],
)
def test_parse_tag(tag, dist, version):
    assert ri.parse_tag(tag) == (dist, version)


@pytest.mark.parametrize("tag", ["aid-core", "v0.1.0", "aid-core-0.1.0", "aid-core-vx"])
def test_malformed_tags_are_rejected(tag):
    with pytest.raises(ValueError, match="<dist>-v<version>"):
        ri.parse_tag(tag)


@pytest.mark.parametrize("name", sorted(cp.discover_packages(ROOT)))
def test_current_versions_resolve_to_their_folder(name):
    package = cp.discover_packages(ROOT)[name]
    version = importlib.import_module(package.import_name).__version__
    assert ri.release_target(f"{name}-v{version}", ROOT) == (name, version, package.folder)
    # the tag's spelling of the name need not match its case
    assert ri.release_target(f"{name.lower()}-v{version}", ROOT)[2] == package.folder


def test_version_mismatch_and_unknown_package_fail(capsys):
    with pytest.raises(ValueError, match="__version__ is"):
        ri.release_target("svmcore-v99.0.0", ROOT)
    with pytest.raises(ValueError, match="names no package"):
        ri.release_target("not-a-package-v0.1.0", ROOT)
    assert ri.main(["svmcore-v99.0.0", "--root", str(ROOT)]) == 1
    assert "svmcore.__version__" in capsys.readouterr().err
