"""Which packages a change affects: the CI test matrix of the monorepo.

The packages are discovered from ``shared/svmcore/pyproject.toml`` and every
``packages/*/pyproject.toml``. A package is affected when one of its files changed or
when it depends (directly or through siblings) on an affected package. Changes to
svmcore or to the shared tooling (``noxfile.py``, ``locks/``, ``.github/``, ``.ci/``, the root
``pyproject.toml``) affect every package.

The functions are pure (they take the changed paths and the repository root); only
:func:`main` runs ``git``. Usage in CI::

    python .github/scripts/changed_packages.py --base origin/main --github-output

prints ``{"package": [...]}`` (a JSON matrix) and, with ``--github-output``, appends
``packages=<json list>`` to ``$GITHUB_OUTPUT``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

#: The shared core: every package depends on it, so its changes affect everything.
CORE_FOLDER = "shared/svmcore"

#: Repository-wide files and folders whose change affects every package.
GLOBAL_PATHS = ("noxfile.py", "pyproject.toml", ".github/", ".ci/", "locks/", f"{CORE_FOLDER}/")

#: The zero revision GitHub reports as ``before`` for a newly pushed branch.
NULL_REVISION = "0" * 40

_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def canonical_name(name: str) -> str:
    """PEP 503 normalised distribution name (``aesvm-deriveRS`` -> ``aesvm-derivers``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    """Canonical distribution name of a PEP 508 requirement string."""
    match = _NAME.match(requirement)
    if match is None:
        raise ValueError(f"cannot parse the requirement {requirement!r}")
    return canonical_name(match.group(1))


@dataclass(frozen=True)
class Package:
    """One distribution of the monorepo as declared by its ``pyproject.toml``."""

    name: str
    folder: str
    import_name: str
    version_file: str
    dependencies: tuple[str, ...]
    optional_dependencies: dict[str, tuple[str, ...]]

    def requirement_names(self, *, extras: bool = True) -> set[str]:
        """Canonical names of everything it requires (runtime, plus every extra if asked)."""
        requirements = list(self.dependencies)
        if extras:
            for group in self.optional_dependencies.values():
                requirements.extend(group)
        return {requirement_name(r) for r in requirements}


def _read_package(root: Path, folder: str) -> Package:
    data = tomllib.loads((root / folder / "pyproject.toml").read_text(encoding="utf-8"))
    project = data["project"]
    tool = data.get("tool", {}).get("hatch", {})
    version_file = tool.get("version", {}).get("path", "")
    wheel_packages = tool.get("build", {}).get("targets", {}).get("wheel", {}).get("packages")
    if wheel_packages:
        import_name = PurePosixPath(wheel_packages[0]).name
    else:
        import_name = canonical_name(project["name"]).replace("-", "_")
    return Package(
        name=project["name"],
        folder=folder,
        import_name=import_name,
        version_file=version_file,
        dependencies=tuple(project.get("dependencies", ())),
        optional_dependencies={
            extra: tuple(reqs) for extra, reqs in project.get("optional-dependencies", {}).items()
        },
    )


def discover_packages(root: Path | str) -> dict[str, Package]:
    """Every package of the repository, svmcore first, keyed by distribution name."""
    root = Path(root)
    folders = [CORE_FOLDER]
    folders += sorted(
        p.parent.relative_to(root).as_posix() for p in (root / "packages").glob("*/pyproject.toml")
    )
    packages = [_read_package(root, folder) for folder in folders]
    return {p.name: p for p in packages}


def local_dependencies(packages: dict[str, Package]) -> dict[str, set[str]]:
    """Direct sibling dependencies of each package (dependency lists and extras alike)."""
    by_canonical = {canonical_name(name): name for name in packages}
    return {
        name: {by_canonical[r] for r in pkg.requirement_names() if r in by_canonical} - {name}
        for name, pkg in packages.items()
    }


def reverse_dependents(packages: dict[str, Package], names: set[str]) -> set[str]:
    """``names`` plus every package depending on one of them, transitively."""
    deps = local_dependencies(packages)
    affected = set(names)
    grew = True
    while grew:
        new = {name for name, d in deps.items() if d & affected} - affected
        affected |= new
        grew = bool(new)
    return affected


def _owner(path: str, packages: dict[str, Package]) -> str | None:
    for name, pkg in packages.items():
        if path.startswith(pkg.folder.rstrip("/") + "/"):
            return name
    return None


def affected_packages(changed_paths, root: Path | str) -> list[str]:
    """Packages to test for the given changed paths, in discovery order (svmcore first).

    Parameters
    ----------
    changed_paths : iterable of str
        Paths relative to the repository root, as ``git diff --name-only`` prints them.
    root : path-like
        The repository root holding the ``pyproject.toml`` files.

    Returns
    -------
    list of str
        Distribution names; every package when a global path changed, none when only
        files outside any package (documentation, integration tests) changed.
    """
    packages = discover_packages(root)
    paths = [PurePosixPath(p.strip()).as_posix() for p in changed_paths if p.strip()]
    if any(p == g or (g.endswith("/") and p.startswith(g)) for p in paths for g in GLOBAL_PATHS):
        return list(packages)
    touched = {owner for p in paths if (owner := _owner(p, packages)) is not None}
    affected = reverse_dependents(packages, touched)
    return [name for name in packages if name in affected]


def changed_files(base: str, root: Path | str) -> list[str] | None:
    """Paths changed between the merge base of ``base`` and ``HEAD``; None if unknown."""
    if not base or base == NULL_REVISION:
        return None
    result = subprocess.run(
        ["git", "diff", "--name-only", f"{base}...HEAD"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        print(f"git diff against {base!r} failed: {result.stderr.strip()}", file=sys.stderr)
        return None
    return result.stdout.splitlines()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--base",
        default=os.environ.get("GITHUB_BASE_REF") and f"origin/{os.environ['GITHUB_BASE_REF']}",
        help="revision to diff against (default: origin/$GITHUB_BASE_REF); "
        "when missing or unknown, every package is selected",
    )
    parser.add_argument("--root", default=Path(__file__).resolve().parents[2], type=Path)
    parser.add_argument(
        "--github-output", action="store_true", help="also append packages=... to $GITHUB_OUTPUT"
    )
    args = parser.parse_args(argv)
    changed = changed_files(args.base, args.root)
    if changed is None:
        selected = list(discover_packages(args.root))
    else:
        selected = affected_packages(changed, args.root)
    print(json.dumps({"package": selected}))
    if args.github_output:
        with open(os.environ["GITHUB_OUTPUT"], "a", encoding="utf-8") as out:
            out.write(f"packages={json.dumps(selected)}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
