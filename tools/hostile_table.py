"""The hostile-data table of issue 19, regenerated in one run (the longer local profile).

Runs every package's hostile-data suite (``packages/*/tests/test_hostile_*.py``) in the
current environment with more draws per case than CI
(``SVMCORE_HOSTILE_EXAMPLES``), collects the outcome of every fit that
:func:`svmcore.testing.hostile.check_hostile_fit` saw (``SVMCORE_HOSTILE_REPORT``) and
prints the table of cases x estimators: ``E`` a clear error, ``W`` a warning naming the
cause, ``ok`` at least as good as the trivial model, ``V`` no better than trivial but a
certified optimum, ``f`` a finite model where the class-balance constraint decides,
``FAIL`` a fit that broke the property (pytest's output says which). ``-``: not drawn.

    python tools/hostile_table.py [--examples 4] [-- extra pytest arguments]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from svmcore.testing.hostile import CASES, EXAMPLES_ENV, REPORT_ENV

ROOT = Path(__file__).resolve().parent.parent
#: table letters, in the order a cell lists them
LETTERS = {"error": "E", "warning": "W", "ok": "ok", "verified": "V", "fit": "f", "failed": "FAIL"}


def run_suites(examples: int, report: Path, extra: list[str]) -> int:
    """Run every package's hostile suite with ``examples`` draws per case; pytest's code."""
    suites = sorted(str(p) for p in ROOT.glob("packages/*/tests/test_hostile_*.py"))
    env = {**os.environ, EXAMPLES_ENV: str(examples), REPORT_ENV: str(report)}
    command = [sys.executable, "-m", "pytest", "-q", "-c", str(ROOT / "pyproject.toml")]
    command += ["--rootdir", str(ROOT), "-p", "no:cacheprovider", *suites, *extra]
    return subprocess.run(command, env=env, cwd=ROOT, check=False).returncode


def table(records: list[dict]) -> str:
    """The cases x estimators table of the outcomes in ``records``."""
    cells: dict[tuple[str, str], set[str]] = defaultdict(set)
    columns: list[str] = []
    for rec in records:
        cells[rec["case"], rec["estimator"]].add(rec["outcome"])
        if rec["estimator"] not in columns:
            columns.append(rec["estimator"])
    order = list(LETTERS)
    rows = [["case", *columns]]
    for case in CASES:
        row = [case]
        for col in columns:
            seen = sorted(cells.get((case, col), ()), key=order.index)
            row.append("/".join(LETTERS[o] for o in seen) or "-")
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=4, help="draws per case (CI: 2)")
    parser.add_argument("pytest_args", nargs="*", help="passed to pytest (after --)")
    args = parser.parse_args(argv)
    if args.examples < 1:
        parser.error(f"--examples must be a positive integer; got {args.examples}")
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "hostile.jsonl"
        start = time.perf_counter()
        code = run_suites(args.examples, report, args.pytest_args)
        elapsed = time.perf_counter() - start
        text = report.read_text(encoding="utf-8") if report.exists() else ""
    records = [json.loads(line) for line in text.splitlines()]
    print(f"\n{len(records)} fits, {args.examples} draws per case, {elapsed:.0f} s\n")
    print(table(records))
    return code


if __name__ == "__main__":
    sys.exit(main())
