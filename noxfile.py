"""Sessions of the SVM-family monorepo.

``nox -s tests`` runs every package's tests, each in an isolated venv holding only that
package, its declared dependencies and test extra, and the editable local siblings it
depends on; then the cross-package integration tests. One package alone:
``nox -s "tests(package='svmcore')"``.
"""

from __future__ import annotations

import os
import pathlib
import shutil

import nox

ROOT = pathlib.Path(__file__).parent.resolve()

nox.options.default_venv_backend = "uv|virtualenv"
nox.options.error_on_missing_interpreters = True
nox.options.sessions = ["tests"]

PYTHON = "3.11"

#: dist name -> (folder, import name, local dists it depends on); svmcore first.
PACKAGES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "svmcore": ("shared/svmcore", "svmcore", ()),
    "aid-core": ("packages/aid-core", "aid_core", ("svmcore",)),
    "aid-lad-svm-s3vm": ("packages/aid-lad-svm-s3vm", "aid_models", ("svmcore", "aid-core")),
    "aesvm-deriveRS": ("packages/aesvm-deriveRS", "aesvm", ("svmcore",)),
    "l2svm-mfn-tsvm-mfa": ("packages/l2svm-mfn-tsvm-mfa", "l2svm_mfn", ("svmcore",)),
    "lpsvr-decomp": ("packages/lpsvr-decomp", "lpsvr", ("svmcore",)),
}

#: Extra tools the integration, bench, demo and docs sessions use on top of all packages.
REFERENCE_TOOLS = ["statsmodels>=0.14", "matplotlib>=3.8", "tqdm>=4.60", "packaging>=23"]
DOCS_TOOLS = ["sphinx>=7", "numpydoc>=1.7", "pydata-sphinx-theme>=0.15"]


def _install_local(session: nox.Session, names, extra: str | None = "test") -> None:
    """Install local packages editable in one resolver call, so no PyPI copy sneaks in."""
    args = []
    for name in names:
        folder = PACKAGES[name][0]
        spec = f"{folder}[{extra}]" if extra else folder
        args += ["-e", spec]
    session.install(*args)


def _guard_local(session: nox.Session, names) -> None:
    """Fail if an installed package does not come from this checkout (Dagster-style guard)."""
    checks = "; ".join(
        f"import {PACKAGES[n][1]} as m; p = pathlib.Path(m.__file__).resolve(); "
        f"assert p.is_relative_to(root), f'{PACKAGES[n][1]} imported from {{p}}, not {{root}}'"
        for n in names
    )
    session.run("python", "-c", f"import pathlib; root = pathlib.Path({str(ROOT)!r}); {checks}")


def _run_pytest(session: nox.Session, *paths: str) -> None:
    session.run(
        "pytest",
        "-c",
        str(ROOT / "pyproject.toml"),
        "--rootdir",
        str(ROOT),
        *paths,
        *session.posargs,
        env={"NUMBA_CACHE_DIR": str(ROOT / ".nox" / ".numba_cache" / session.name)},
    )


def _package_tests(session: nox.Session, package: str) -> None:
    folder, import_name, local_deps = PACKAGES[package]
    names = (*local_deps, package)
    # Local siblings without their test extras: only the tested package's extra is wanted.
    if local_deps:
        _install_local(session, local_deps, extra=None)
    _install_local(session, [package])
    _guard_local(session, names)
    _run_pytest(session, f"{folder}/tests", "--doctest-modules", f"{folder}/src/{import_name}")


def _integration(session: nox.Session) -> None:
    _install_local(session, PACKAGES)
    session.install(*REFERENCE_TOOLS)
    _guard_local(session, PACKAGES)
    _run_pytest(session, "integration_tests")


@nox.session(python=PYTHON)
@nox.parametrize("package", [*PACKAGES, "integration"])
def tests(session: nox.Session, package: str) -> None:
    """Each package's tests in its own venv, then the integration tests."""
    if package == "integration":
        _integration(session)
    else:
        _package_tests(session, package)


@nox.session(python=PYTHON)
def integration(session: nox.Session) -> None:
    """All packages installed together plus the cross-package tests."""
    _integration(session)


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """ruff check and format check over the whole tree."""
    session.install("ruff>=0.5")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session(python=PYTHON)
def docs(session: nox.Session) -> None:
    """Build the Sphinx documentation with warnings as errors."""
    _install_local(session, PACKAGES, extra=None)
    session.install(*DOCS_TOOLS, *REFERENCE_TOOLS)
    # -E: a fresh environment every time, so warnings of unchanged pages are not hidden
    session.run(
        "sphinx-build", "-E", "-W", "--keep-going", "-b", "html", "docs", "docs/_build/html"
    )


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Quick side-by-side benchmarks against the baseline solvers; prints ratio tables."""
    _install_local(session, PACKAGES, extra=None)
    # pyscipopt: the S3VM case's MIQP solver (aid-lad-svm-s3vm[s3vm]).
    session.install(*REFERENCE_TOOLS, "highspy>=1.7", "pyscipopt>=5.0")
    session.run("python", "tools/bench.py", *session.posargs)


@nox.session(python=PYTHON)
def asv(session: nox.Session) -> None:
    """``asv run --quick`` on the current commit (benchmarks in asv_benchmarks/)."""
    session.install("asv>=0.6", "virtualenv")
    session.chdir("asv_benchmarks")
    session.run("asv", "machine", "--yes")
    session.run(
        "asv",
        "run",
        "--quick",
        "--show-stderr",
        "--set-commit-hash",
        _head_commit(session),
        *session.posargs,
        env={"SVMBENCH_PROFILE": os.environ.get("SVMBENCH_PROFILE", "fast")},
    )


def _head_commit(session: nox.Session) -> str:
    return session.run("git", "rev-parse", "HEAD", external=True, silent=True).strip()


@nox.session(python=PYTHON)
def build(session: nox.Session) -> None:
    """Build an sdist and a wheel of every package and run ``twine check`` on them."""
    session.install("build[uv]>=1.2", "twine>=5")
    dist = ROOT / "dist"
    # Start empty: a stale artifact (older version, renamed package) must not be checked.
    shutil.rmtree(dist, ignore_errors=True)
    for folder, _, _ in PACKAGES.values():
        # uv builds the isolated build environments (pip took over a minute per package).
        session.run("python", "-m", "build", "--installer", "uv", "--outdir", str(dist), folder)
    session.run("twine", "check", "--strict", *map(str, dist.glob("*")))


@nox.session(python=PYTHON)
def demo(session: nox.Session) -> None:
    """The main job: every method against its baseline on embedded data; table and report."""
    _install_local(session, PACKAGES, extra=None)
    # pyscipopt: the AIDS3VM row's MIQP solver (aid-lad-svm-s3vm[s3vm]).
    session.install(*REFERENCE_TOOLS, "highspy>=1.7", "pyscipopt>=5.0")
    session.run("python", "tools/demo.py", *session.posargs)
