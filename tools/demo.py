"""The main job: every method that exists against its baseline on embedded data, one table.

Runs every case registered in ``tools/demo_cases/<package>.py`` on the default data
(svmcore's seeded generators plus scikit-learn's bundled breast-cancer set; nothing is
downloaded) and prints one table: method [data set], baseline, times, ratio (ours /
baseline, below 1 is faster), a check of the answer (usually the relative objective gap
against the baseline's optimum) and test accuracy (ours / baseline). Method packages
without cases yet are listed as notes. A case that raises is reported and makes the
exit status non-zero.

Usage: ``python tools/demo.py [--quick | --full] [--only NAME ...]`` (``nox -s demo``).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _benchkit import discover, format_table, seconds  # noqa: E402


def _package_notes(loaded):
    from demo_cases import COVERED_BY, METHOD_PACKAGES

    notes = []
    for import_name, dist in METHOD_PACKAGES.items():
        if import_name in loaded:
            continue
        if import_name in COVERED_BY:
            notes.append(f"{dist}: {COVERED_BY[import_name]}")
            continue
        try:
            module = importlib.import_module(import_name)
        except ImportError:
            notes.append(f"{dist}: not installed")
            continue
        exported = [n for n in getattr(module, "__all__", ()) if n != "__version__"]
        shown = ", ".join(exported[:4]) + (", ..." if len(exported) > 4 else "")
        what = f"exports {shown}" if exported else "exports nothing yet"
        notes.append(f"{dist} {module.__version__}: no demo cases yet ({what})")
    return notes


def main(argv=None) -> int:
    from demo_cases import REGISTRY
    from demo_cases._data import default_data

    modules, notes = discover("demo_cases")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", dest="size", action="store_const", const="quick")
    size.add_argument("--full", dest="size", action="store_const", const="full")
    parser.add_argument("--only", action="append", choices=sorted(REGISTRY.cases))
    parser.set_defaults(size="quick")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    data = default_data(args.size)
    table, failed = [], []
    for name in args.only or list(REGISTRY.cases):
        try:
            rows = REGISTRY.cases[name](data, args.size)
        except Exception:  # a broken method must not hide the others' results
            failed.append(f"{name}: FAILED\n{traceback.format_exc()}")
            continue
        for row in rows:
            table.append(
                [
                    row.component,
                    row.baseline,
                    seconds(row.ours_time),
                    seconds(row.baseline_time),
                    f"{row.ratio:.2f}",
                    row.check,
                    row.value,
                    row.accuracy,
                ]
            )
    headers = ["method [data]", "baseline", "ours s", "base s", "ratio", "check", "value"]
    headers.append("test acc")
    print(f"main job, size={args.size}, data: {', '.join(data)}; cases from {', '.join(modules)}")
    print(format_table(headers, table))
    for note in [*notes, *_package_notes(modules)]:
        print(f"note: {note}")
    for failure in failed:
        print(failure, file=sys.stderr)
    print(
        f"total {time.perf_counter() - start:.1f} s; ratio = ours / baseline (< 1: faster); "
        "objective gap = (ours - baseline) / max(1, |baseline|); test acc = ours / baseline"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
