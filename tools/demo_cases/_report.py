"""Plot helpers for the cases' optional ``figures(data, size, report_dir)`` functions.

A demo case module may define ``figures(data, size, report_dir)``: it writes PNG files
into ``report_dir`` and returns ``(title, filename)`` pairs, which ``tools/demo.py``
lists in the report's ``README.md``. matplotlib is imported here only, so the table
alone never needs it.
"""

import matplotlib

matplotlib.use("Agg")  # files only, no display (CI, nox)

import matplotlib.pyplot as plt  # noqa: E402


def new_figure(ncols=1):
    """``(figure, axes)`` of one row of ``ncols`` panels at report size."""
    fig, axes = plt.subplots(1, ncols, figsize=(5.0 * ncols, 3.6), squeeze=False)
    return fig, list(axes[0])


def save(fig, report_dir, filename):
    """Write ``fig`` to ``report_dir / filename``, close it and return ``filename``."""
    fig.tight_layout()
    fig.savefig(report_dir / filename, dpi=110)
    plt.close(fig)
    return filename
