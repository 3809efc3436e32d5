"""Side-by-side benchmarks: our components against the baseline solvers, one table.

Every case registered in ``tools/bench_cases/<package>.py`` runs in this one process;
each timing is the best of a few runs after an untimed warm-up call (Numba compiles on
the first call). ``ratio`` is ours / baseline: below 1 means ours is faster. The check
column says how far our answer is from the baseline's (max abs/rel difference or the
relative objective gap), so a fast but wrong component is visible.

Usage: ``python tools/bench.py [--only NAME ...] [--size quick|full]`` (``nox -s bench``);
``--defaults`` runs the defaults suite instead (``tools/defaults_cases/``: every public
estimator with no options against the baseline its users would pick, on public data the
defaults were and were not chosen on); ``--cold`` prints what every public estimator's
first fit costs in a new environment (``tools/coldstart.py``).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _benchkit import SIZES, format_table, seconds  # noqa: E402


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if "--cold" in argv:
        import coldstart

        return coldstart.main([a for a in argv if a != "--cold"])
    from _benchkit import discover

    suite = "defaults_cases" if "--defaults" in argv else "bench_cases"
    argv = [a for a in argv if a != "--defaults"]
    REGISTRY = importlib.import_module(suite).REGISTRY
    modules, notes = discover(suite)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--only", action="append", choices=sorted(REGISTRY.cases), help="run only this case"
    )
    parser.add_argument("--size", choices=SIZES, default="quick")
    args = parser.parse_args(argv)

    selected = args.only or list(REGISTRY.cases)
    table = []
    start = time.perf_counter()
    for name in selected:
        for row in REGISTRY.cases[name](args.size):
            print(
                f"[{name}] {row.component}: {row.ours_time:.2f} s vs {row.baseline} "
                f"{row.baseline_time:.2f} s, ratio {row.ratio:.2f}, {row.value} {row.accuracy}",
                file=sys.stderr,
                flush=True,
            )
            table.append(
                [
                    name,
                    row.component,
                    seconds(row.ours_time),
                    row.baseline,
                    seconds(row.baseline_time),
                    f"{row.ratio:.2f}",
                    row.check,
                    row.value,
                    row.accuracy,
                ]
            )
    headers = [
        "case",
        "component",
        "ours s",
        "baseline",
        "base s",
        "ratio",
        "check",
        "value",
        "accuracy (ours / base)",
    ]
    print(f"{suite}, size={args.size}, modules: {', '.join(modules)}")
    print(format_table(headers, table))
    for note in notes:
        print(f"note: {note}")
    print(f"total {time.perf_counter() - start:.1f} s; ratio = ours / baseline (< 1: faster)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
