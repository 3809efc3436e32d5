"""The affected-only CI selection (``.github/scripts/changed_packages.py``)."""

import json
import subprocess
import textwrap

import pytest
from _repo import ROOT, load_script

cp = load_script()

ALL = [
    "svmcore",
    "aesvm-deriveRS",
    "aid-core",
    "aid-lad-svm-s3vm",
    "l2svm-mfn-tsvm-mfa",
    "lpsvr-decomp",
]


def _write_package(root, folder, name, deps, extras=None):
    extras = extras or {}
    import_name = name.replace("-", "_").lower()
    body = f"""
        [project]
        name = "{name}"
        dependencies = {json.dumps(deps)}

        [project.optional-dependencies]
        {chr(10).join(f"{k} = {json.dumps(v)}" for k, v in extras.items())}

        [tool.hatch.version]
        path = "src/{import_name}/__init__.py"

        [tool.hatch.build.targets.wheel]
        packages = ["src/{import_name}"]
    """
    (root / folder).mkdir(parents=True)
    (root / folder / "pyproject.toml").write_text(textwrap.dedent(body))


@pytest.fixture
def toy_repo(tmp_path):
    """core <- a <- b (b through an extra), core <- c; d depends on nothing local."""
    _write_package(tmp_path, "shared/svmcore", "svmcore", ["numpy>=1.26"], {"lp": ["highspy"]})
    _write_package(tmp_path, "packages/a", "pkg-A", ["svmcore>=0.1,<0.2"])
    _write_package(tmp_path, "packages/b", "pkg_b", ["numpy"], {"full": ["PKG.a[x]>=0.1"]})
    _write_package(tmp_path, "packages/c", "pkg-c", ["svmcore[lp]>=0.1 ; python_version>'3'"])
    _write_package(tmp_path, "packages/d", "pkg-d", [])
    return tmp_path


def test_discovery_reads_names_folders_and_import_names(toy_repo):
    packages = cp.discover_packages(toy_repo)
    assert list(packages) == ["svmcore", "pkg-A", "pkg_b", "pkg-c", "pkg-d"]
    assert packages["pkg-A"].folder == "packages/a"
    assert packages["pkg-A"].import_name == "pkg_a"
    assert cp.local_dependencies(packages) == {
        "svmcore": set(),
        "pkg-A": {"svmcore"},
        "pkg_b": {"pkg-A"},
        "pkg-c": {"svmcore"},
        "pkg-d": set(),
    }


@pytest.mark.parametrize(
    ("changed", "expected"),
    [
        (["packages/a/src/pkg_a/_x.py"], ["pkg-A", "pkg_b"]),
        (["packages/b/README.md"], ["pkg_b"]),
        (["packages/c/tests/test_c.py", "packages/d/pyproject.toml"], ["pkg-c", "pkg-d"]),
        (["README.md", "docs/index.rst", "integration_tests/test_x.py"], []),
        ([], []),
        # a folder whose name merely starts like a package folder is not that package
        (["packages/ab/x.py"], []),
    ],
)
def test_changed_package_and_reverse_dependents(toy_repo, changed, expected):
    assert cp.affected_packages(changed, toy_repo) == expected


@pytest.mark.parametrize(
    "changed",
    [
        ["shared/svmcore/src/svmcore/kernels/_gram.py"],
        ["noxfile.py"],
        ["pyproject.toml"],
        [".github/workflows/tests.yml"],
        [".ci/run"],
        ["locks/py3.11.txt"],
        ["packages/d/x.py", "noxfile.py"],
    ],
)
def test_core_and_tooling_changes_select_everything(toy_repo, changed):
    assert cp.affected_packages(changed, toy_repo) == [
        "svmcore",
        "pkg-A",
        "pkg_b",
        "pkg-c",
        "pkg-d",
    ]


def test_nested_pyproject_is_not_the_root_one(toy_repo):
    assert cp.affected_packages(["packages/d/pyproject.toml"], toy_repo) == ["pkg-d"]


def test_requirement_names_are_canonical():
    assert cp.requirement_name("svmcore[lp]>=0.1.0.dev0,<0.2") == "svmcore"
    assert cp.requirement_name("aesvm-deriveRS ; extra == 'x'") == "aesvm-derivers"
    assert cp.requirement_name("Foo_Bar.baz==1") == "foo-bar-baz"
    with pytest.raises(ValueError, match="requirement"):
        cp.requirement_name(";")


def test_real_repository_graph():
    packages = cp.discover_packages(ROOT)
    assert sorted(packages) == sorted(ALL)
    assert cp.affected_packages(["packages/aid-core/src/aid_core/__init__.py"], ROOT) == [
        "aid-core",
        "aid-lad-svm-s3vm",
    ]
    assert cp.affected_packages(["shared/svmcore/README.md"], ROOT) == list(packages)
    assert cp.affected_packages(["packages/lpsvr-decomp/README.md"], ROOT) == ["lpsvr-decomp"]


def _git(cwd, *args):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def test_main_diffs_against_the_merge_base(toy_repo, capsys, monkeypatch):
    out = toy_repo / "github_output"
    monkeypatch.setenv("GITHUB_OUTPUT", str(out))
    _git(toy_repo, "init", "-q", "-b", "main")
    _git(toy_repo, "-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
    _git(toy_repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base")
    _git(toy_repo, "checkout", "-qb", "feature")
    (toy_repo / "packages/a/new.py").write_text("x = 1\n")
    _git(toy_repo, "add", ".")
    _git(toy_repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "change a")

    assert cp.main(["--base", "main", "--root", str(toy_repo), "--github-output"]) == 0
    assert json.loads(capsys.readouterr().out) == {"package": ["pkg-A", "pkg_b"]}
    assert out.read_text() == 'packages=["pkg-A", "pkg_b"]\n'


@pytest.mark.parametrize("base", ["", cp.NULL_REVISION, "no-such-revision"])
def test_unknown_base_selects_everything(toy_repo, capsys, base):
    _git(toy_repo, "init", "-q", "-b", "main")
    cp.main(["--base", base, "--root", str(toy_repo)])
    captured = capsys.readouterr()
    assert json.loads(captured.out)["package"] == ["svmcore", "pkg-A", "pkg_b", "pkg-c", "pkg-d"]
