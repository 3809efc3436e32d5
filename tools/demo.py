"""The main job: every method that exists against its baseline on embedded data, one table.

Runs every case registered in ``tools/demo_cases/<package>.py`` on the default data
(svmcore's seeded generators plus scikit-learn's bundled breast-cancer set; nothing is
downloaded) and prints one table: method [data set], baseline, times, ratio (ours /
baseline, below 1 is faster), a check of the answer (usually the relative objective gap
against the baseline's optimum) and test accuracy (ours / baseline). Method packages
without cases yet are listed as notes. A case that raises is reported and makes the
exit status non-zero.

It also writes a report folder (``reports/demo/`` unless ``--report-dir``; none with
``--no-report``): ``README.md`` with the table and the plots of every case module that
defines ``figures(data, size, report_dir)`` (returning ``(title, filename)`` pairs of the
PNGs it wrote), for the modules whose cases ran. The figures draw from the estimators
the cases fitted (``demo_cases._data.keep_fit``) rather than fitting them again.

Usage: ``python tools/demo.py [--quick | --full | --size quick|full] [--only NAME ...]
[--report-dir DIR | --no-report]`` (``nox -s demo``; ``nox -s demo -- --size full`` for
the full tables on 10x the data).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _benchkit import SIZES, discover, format_table, seconds  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LEGEND = (
    "ratio = ours / baseline (< 1: faster); "
    "objective gap = (ours - baseline) / max(1, |baseline|); test acc = ours / baseline"
)


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


def _markdown_table(headers, rows) -> str:
    def line(cells):
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    return "\n".join([line(headers), line(["---"] * len(headers)), *(line(r) for r in rows)])


def _write_report(report_dir, *, size, data, headers, table, notes, figures, failed, total):
    """``report_dir/README.md``: the table, notes, failures and the figures' images."""
    lines = [
        "# Main job report",
        "",
        f"`python tools/demo.py --{size}`; data: {', '.join(data)}; total {total:.1f} s.",
        "",
        _markdown_table(headers, table),
        "",
        LEGEND + ".",
        "",
    ]
    lines += [f"- note: {note}" for note in notes]
    lines += [f"- FAILED: {failure.splitlines()[0]}" for failure in failed]
    if figures:
        lines += ["", "## Figures", ""]
        for title, filename in figures:
            lines += [f"### {title}", "", f"![{title}]({filename})", ""]
    (report_dir / "README.md").write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")


def _figures(modules, ran, data, size, report_dir, failed):
    """``(title, filename)`` pairs from the ``figures`` of the modules whose cases ran."""
    from demo_cases import REGISTRY

    wanted = {REGISTRY.cases[name].__module__ for name in ran}
    pairs = []
    for name in modules:
        module = importlib.import_module(f"demo_cases.{name}")
        make = getattr(module, "figures", None)
        if make is None or module.__name__ not in wanted:
            continue
        try:
            pairs += make(data, size, report_dir)
        except Exception:  # a broken plot must not hide the others
            failed.append(f"{name} figures: FAILED\n{traceback.format_exc()}")
    return pairs


def main(argv=None) -> int:
    from demo_cases import REGISTRY
    from demo_cases._data import default_data

    modules, notes = discover("demo_cases")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", dest="size", action="store_const", const="quick")
    size.add_argument("--full", dest="size", action="store_const", const="full")
    size.add_argument("--size", choices=SIZES, help="quick (default, minutes) or full")
    parser.add_argument("--only", action="append", choices=sorted(REGISTRY.cases))
    report = parser.add_mutually_exclusive_group()
    report.add_argument(
        "--report-dir", type=Path, default=ROOT / "reports" / "demo", help="default reports/demo"
    )
    report.add_argument("--no-report", dest="report_dir", action="store_const", const=None)
    parser.set_defaults(size="quick")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    data = default_data(args.size)
    table, failed = [], []
    ran = args.only or list(REGISTRY.cases)
    for name in ran:
        case_start = time.perf_counter()
        try:
            rows = REGISTRY.cases[name](data, args.size)
        except Exception:  # a broken method must not hide the others' results
            failed.append(f"{name}: FAILED\n{traceback.format_exc()}")
            continue
        finally:  # progress on stderr: the table comes only at the end
            elapsed = time.perf_counter() - case_start
            print(f"[demo] {name}: {elapsed:.1f} s", file=sys.stderr, flush=True)
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
    notes = [*notes, *_package_notes(modules)]
    for note in notes:
        print(f"note: {note}")
    if args.report_dir is not None:
        args.report_dir.mkdir(parents=True, exist_ok=True)
        figures = _figures(modules, ran, data, args.size, args.report_dir, failed)
        total = time.perf_counter() - start
        _write_report(
            args.report_dir,
            size=args.size,
            data=data,
            headers=headers,
            table=table,
            notes=notes,
            figures=figures,
            failed=failed,
            total=total,
        )
        print(f"report: {args.report_dir / 'README.md'} ({len(figures)} figures)")
    for failure in failed:
        print(failure, file=sys.stderr)
    print(f"total {time.perf_counter() - start:.1f} s; {LEGEND}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
