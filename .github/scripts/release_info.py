"""Resolve a release tag ``<dist>-v<version>`` to the package folder to build.

The tag's version must equal the package's single-sourced ``__version__`` (the file
named by ``[tool.hatch.version] path``), so that a tag can never publish a wheel whose
metadata says something else. Usage in CI::

    python .github/scripts/release_info.py "$GITHUB_REF_NAME" --github-output

prints the folder and appends ``dist=``, ``version=`` and ``folder=`` to ``$GITHUB_OUTPUT``.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from changed_packages import canonical_name, discover_packages  # noqa: E402

_TAG = re.compile(r"^(?P<dist>[A-Za-z0-9][A-Za-z0-9._-]*?)-v(?P<version>\d[^\s/]*)$")
_VERSION = re.compile(r'^__version__ = "([^"]+)"$', flags=re.MULTILINE)


def parse_tag(tag: str) -> tuple[str, str]:
    """Split ``aid-core-v0.1.0`` into ``("aid-core", "0.1.0")``."""
    match = _TAG.match(tag.removeprefix("refs/tags/"))
    if match is None:
        raise ValueError(f"tag {tag!r} is not of the form <dist>-v<version>")
    return match.group("dist"), match.group("version")


def release_target(tag: str, root: Path | str) -> tuple[str, str, str]:
    """``(dist, version, folder)`` for a tag, after checking it against ``__version__``."""
    dist, version = parse_tag(tag)
    packages = {canonical_name(name): p for name, p in discover_packages(root).items()}
    package = packages.get(canonical_name(dist))
    if package is None:
        raise ValueError(f"tag {tag!r} names no package; known: {sorted(packages)}")
    text = (Path(root) / package.folder / package.version_file).read_text(encoding="utf-8")
    match = _VERSION.search(text)
    if match is None:
        raise ValueError(f"{package.folder}/{package.version_file} defines no __version__")
    if match.group(1) != version:
        raise ValueError(
            f"tag {tag!r} says version {version} but {package.name}.__version__ is {match.group(1)}"
        )
    return package.name, version, package.folder


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tag")
    parser.add_argument("--root", default=Path(__file__).resolve().parents[2], type=Path)
    parser.add_argument("--github-output", action="store_true")
    args = parser.parse_args(argv)
    try:
        dist, version, folder = release_target(args.tag, args.root)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(folder)
    if args.github_output:
        with open(os.environ["GITHUB_OUTPUT"], "a", encoding="utf-8") as out:
            out.write(f"dist={dist}\nversion={version}\nfolder={folder}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
