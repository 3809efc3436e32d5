"""Sphinx configuration of the SVM-family monorepo documentation.

The API pages are generated at build time from each package's ``__all__`` (see
:func:`_write_api_pages`), so the reference documents exactly what the packages export
today and follows additions without editing reStructuredText. Warnings are errors
(``nox -s docs`` runs ``sphinx-build -W``).
"""

import importlib
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent

project = "SVM-family monorepo"
author = "SVM-family monorepo developers"
copyright = "2026, SVM-family monorepo developers"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": True, "inherited-members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = True

html_theme = "pydata_sphinx_theme"
html_title = project
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2}
html_static_path = []
templates_path = ["_templates"]
exclude_patterns = ["_build"]

#: The gallery (scikit-learn's way): every ``examples/plot_*.py`` at the repository root
#: is run at build time and rendered into ``auto_examples/`` (build output, not
#: committed). ``abort_on_example_error`` makes a failing example fail the build;
#: ``sg_execution_times.rst`` lists each example's run time.
sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "within_subsection_order": "sphinx_gallery.sorting.FileNameSortKey",
    "abort_on_example_error": True,
}

#: Documented packages: (import name, distribution name, subpackages with their own ``__all__``).
API_PACKAGES = [
    (
        "svmcore",
        "svmcore",
        [
            "kernels",
            "linalg",
            "solvers",
            "clustering",
            "datasets",
            "validation",
            "model_selection",
            "chunked",
            "reporting",
            "cli",
            "docstrings",
            "lazy",
        ],
    ),
    ("aid_core", "aid-core", []),
    ("aid_models", "aid-lad-svm-s3vm", []),
    ("aesvm", "aesvm-deriveRS", []),
    ("l2svm_mfn", "l2svm-mfn-tsvm-mfa", []),
    ("lpsvr", "lpsvr-decomp", []),
]


OUR_PACKAGES = tuple(import_name for import_name, _, _ in API_PACKAGES)


def _ours(obj):
    """True for objects defined in this monorepo (not re-exported from scikit-learn)."""
    module = getattr(obj, "__module__", None) or ""
    return module.split(".")[0] in OUR_PACKAGES


def _public_names(module):
    """``(documented, re-exported)``: our ``__all__`` names, and third-party re-exports."""
    names = sorted(n for n in getattr(module, "__all__", ()) if not n.startswith("_"))
    documented, reexported = [], []
    for name in names:
        obj = getattr(module, name)
        third_party = callable(obj) and not _ours(obj)
        (reexported if third_party else documented).append(name)
    return documented, reexported


def _section(title, module_name, names):
    documented, reexported = names
    lines = [title, "-" * len(title), "", f".. currentmodule:: {module_name}", ""]
    if not documented and not reexported:
        return [*lines, "This module exports no names yet.", ""]
    if documented:
        lines += [".. autosummary::", "   :toctree: .", ""]
        lines += [f"   {name}" for name in documented] + [""]
    if reexported:
        listed = ", ".join(f"``{name}``" for name in reexported)
        lines += [f"Re-exported unchanged from scikit-learn (see its documentation): {listed}.", ""]
    return lines


def _write_api_pages():
    """One page per package listing its ``__all__`` (and its subpackages' ``__all__``).

    Files are rewritten only when their content changes and stale pages (of names no
    longer exported) are removed one by one, so concurrent builds of the same checkout
    do not pull files from under each other.
    """
    out = HERE / "api" / "generated"
    out.mkdir(parents=True, exist_ok=True)
    expected = set()
    for import_name, dist, subpackages in API_PACKAGES:
        module = importlib.import_module(import_name)
        title = f"{dist} (``{import_name}``)"
        lines = [title, "=" * len(title), "", f".. automodule:: {import_name}"]
        lines += ["   :no-members:", ""]
        lines += [f"Version {module.__version__}.", ""]
        sections = [(import_name, _public_names(module))]
        sections += [
            (f"{import_name}.{sub}", _public_names(importlib.import_module(f"{import_name}.{sub}")))
            for sub in subpackages
        ]
        for name, names in sections:
            if name == import_name and subpackages and not (names[0] or names[1]):
                continue
            lines += _section(name, name, names)
            expected.update(f"{name}.{member}.rst" for member in names[0])
        page = out / f"{import_name}.rst"
        expected.add(page.name)
        text = "\n".join(lines)
        if not page.exists() or page.read_text(encoding="utf-8") != text:
            page.write_text(text, encoding="utf-8")
    for stale in out.glob("*.rst"):
        if stale.name not in expected:
            stale.unlink(missing_ok=True)


_write_api_pages()


def _skip_foreign_members(app, what, name, obj, skip, options):
    """Document only members defined here, not those inherited from scikit-learn's mixins
    (``score``, ``set_fit_request``, ...) whose docstrings point into sklearn's own docs."""
    if what == "class" and callable(obj) and not _ours(obj):
        return True
    return skip


#: Spans left alone: inline literals, roles (``:math:`...```) and interpreted text.
_PROTECTED = re.compile(r"(``.+?``|:[\w:+-]+:`[^`]*`|`[^`]*`_{0,2})")
#: ``|K^t|`` (a cardinality, not a substitution) and ``coef_`` (an attribute, not a link).
_CARDINALITY = re.compile(r"(?<![\\|])\|([^|\s](?:[^|]*[^|\s])?)\|")
_TRAILING_UNDERSCORE = re.compile(r"(?<![\\\w])([A-Za-z]\w*?)_(?=$|[\s,.;:)\]])")


def _escape_plain_text(text):
    parts = _PROTECTED.split(text)
    for i in range(0, len(parts), 2):  # even indices are outside protected spans
        part = _CARDINALITY.sub(r"\\|\1\\|", parts[i])
        parts[i] = _TRAILING_UNDERSCORE.sub(r"\1\\_", part)
    return "".join(parts)


def _plain_notation(app, what, name, obj, options, lines):
    """Render the docstrings' plain-text notation literally, as ``help()`` shows it.

    The packages' docstrings write cardinalities as ``|K^t|`` and fitted attributes as
    ``coef_``; reStructuredText would read them as a substitution and a hyperlink
    reference, neither of which the docstrings ever mean (they define no substitutions
    or link targets). Math blocks, inline literals and roles are left untouched. Runs
    after numpydoc has turned the sections into reStructuredText.
    """
    in_math, math_indent = False, 0
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if in_math and stripped and indent <= math_indent:
            in_math = False
        if stripped.startswith(".. math::"):
            in_math, math_indent = True, indent
            continue
        if not in_math:
            lines[i] = _escape_plain_text(line)


def setup(app):
    app.connect("autodoc-skip-member", _skip_foreign_members)
    app.connect("autodoc-process-docstring", _plain_notation, priority=900)
