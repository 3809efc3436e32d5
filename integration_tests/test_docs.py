"""The documentation runs and is finished: every Python block executes, nothing is a stub.

Every ``python`` code block of the READMEs and of docs/ (see ``_docblocks``) is one test,
run in order with the blocks before it in its file, in one namespace per file, as a
reader would paste them into one session; a block that needs names from an earlier one
gets them only if that one ran. Blocks run in a scratch directory, so files an example
writes never land in the checkout. Shell commands and program output must be fenced as
``bash``/``console``/``text`` (a block without a language fails), and no page may hold
placeholder text.
"""

import re
import tomllib

import pytest
from _docblocks import PYTHON, SHOWN, Block, blocks, doc_files, new_namespace, run
from _repo import ROOT

DOCS = doc_files(ROOT)
PYTHON_BLOCKS = [block for path in DOCS for block in blocks(path) if block.runs]
PACKAGE_READMES = sorted([ROOT / "shared/svmcore/README.md", *ROOT.glob("packages/*/README.md")])

#: Text that marks a page or a section as unwritten.
PLACEHOLDER = re.compile(
    r"\b(TODO|TBD|FIXME)\b|placeholder|filled by later issues|later issues fill"
    r"|coming soon|lorem ipsum",
    flags=re.IGNORECASE,
)
#: TODO, TBD and FIXME only count in capitals ("todo" in prose is not a marker).
_CAPITALS_ONLY = {"todo", "tbd", "fixme"}


def _id(block: Block) -> str:
    return f"{block.path.relative_to(ROOT)}:{block.line}"


class _FileRun:
    """The shared namespace of one document and which of its blocks ran."""

    def __init__(self, path, workdir):
        self.namespace = new_namespace(path)
        self.workdir = workdir
        self.done = set()
        self.failed = None


_RUNS: dict = {}


@pytest.mark.parametrize("block", PYTHON_BLOCKS, ids=_id)
def test_python_block_runs(block, tmp_path_factory, monkeypatch):
    state = _RUNS.get(block.path)
    if state is None:
        workdir = tmp_path_factory.mktemp(block.path.stem)
        state = _RUNS[block.path] = _FileRun(block.path, workdir)
    monkeypatch.chdir(state.workdir)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    # run the file's earlier blocks first if they were deselected (-k, a single id)
    for earlier in blocks(block.path):
        if earlier.line >= block.line:
            break
        if earlier.runs and earlier.line not in state.done and state.failed is None:
            _run_recorded(earlier, state)
    if state.failed is not None:
        pytest.fail(f"an earlier block of this file failed ({_id(state.failed)})")
    _run_recorded(block, state)


def _run_recorded(block, state):
    try:
        run(block, state.namespace)
    except BaseException:
        state.failed = block
        raise
    state.done.add(block.line)


def test_the_collector_finds_the_documents():
    names = {str(p.relative_to(ROOT)) for p in DOCS}
    assert {"README.md", "shared/svmcore/README.md", "docs/install.rst"} <= names
    assert "docs/user_guide/aid.rst" in names
    assert not any("_build" in n or "/generated/" in n for n in names)


def test_the_collector_skips_the_rendered_gallery(tmp_path):
    """sphinx-gallery writes docs/auto_examples/ and docs/sg_execution_times.rst into the
    source tree while the docs build: build output, whose blocks are the examples' code."""
    for name in ("index.rst", "auto_examples/index.rst", "auto_examples/plot_x.rst"):
        (tmp_path / "docs" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "docs" / name).write_text("Title\n=====\n", encoding="utf-8")
    (tmp_path / "docs" / "sg_execution_times.rst").write_text("", encoding="utf-8")
    assert doc_files(tmp_path) == [tmp_path / "docs" / "index.rst"]


@pytest.mark.parametrize("readme", PACKAGE_READMES, ids=lambda p: p.parent.name)
def test_every_package_readme_has_an_example_without_extras(readme):
    """The wheel check of ``nox -s tests`` runs these in a venv holding only the wheel."""
    plain = [b for b in blocks(readme) if b.runs and not b.requires]
    assert plain, f"{readme.relative_to(ROOT)} has no Python example that needs no extra"


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_block_names_its_language(path):
    unnamed = [b for b in blocks(path) if b.lang not in PYTHON | SHOWN]
    assert not unnamed, (
        "code blocks must say what they are: ```python (run by the tests), or ```bash, "
        "```console, ```text (shown only); in reStructuredText `.. code-block:: <lang>` "
        "instead of a literal `::` block: "
        + ", ".join(f"{_id(b)} ({b.lang or 'no language'!r})" for b in unnamed)
    )


@pytest.mark.parametrize("readme", PACKAGE_READMES, ids=lambda p: p.parent.name)
def test_required_extras_exist(readme):
    """``<!-- requires: X -->`` must name an extra of that package (the wheel check installs it)."""
    project = tomllib.loads((readme.parent / "pyproject.toml").read_text(encoding="utf-8"))
    extras = set(project["project"].get("optional-dependencies", {}))
    for block in blocks(readme):
        missing = set(block.requires) - extras
        assert not missing, f"{_id(block)} requires {missing}, not an extra of the package"


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_placeholder_text(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    hits = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for number, line in enumerate(lines, start=1)
        if _placeholders(line)
    ]
    assert not hits, "placeholder text in the documentation:\n" + "\n".join(hits)


def _placeholders(line):
    words = [m.group(0) for m in PLACEHOLDER.finditer(line)]
    return [w for w in words if w.isupper() or w.lower() not in _CAPITALS_ONLY]


@pytest.mark.parametrize(
    ("line", "flagged"),
    [
        ("Filled by later issues", True),
        ("TODO: the learning curves", True),
        ("Table 9 (TBD)", True),
        ("a placeholder section", True),
        ("FIXME", True),
        ("what is left to do", False),
        ("a todo list", False),
        ("the paper's Table 9", False),
    ],
)
def test_the_placeholder_check(line, flagged):
    assert bool(_placeholders(line)) is flagged


# The collector itself: what it must find in each construct of the two markups.

_MARKDOWN = """\
Text.

```python
a = 1
```

<!-- requires: dask, lp -->
```python
b = a + 1
```

- a list item with a nested fence:

    ```bash
    echo hi
    ```

```
no language
```
"""

_RST = """\
Title
=====

.. code-block:: python
   :caption: with an option

   x = 1

   y = x + 1

Paragraph::

   literal block

>>> print(2 + 2)
4

.. math::

   a::b

.. code-block:: text

   out
"""


def test_markdown_blocks(tmp_path):
    path = tmp_path / "README.md"
    path.write_text(_MARKDOWN, encoding="utf-8")
    found = blocks(path)
    assert [(b.lang, b.line, b.requires) for b in found] == [
        ("python", 4, ()),
        ("python", 9, ("dask", "lp")),
        ("bash", 15, ()),
        ("", 19, ()),
    ]
    assert found[2].code == "echo hi\n"
    namespace = new_namespace(path)
    for block in found[:2]:
        run(block, namespace)
    assert namespace["b"] == 2


def test_rst_blocks(tmp_path):
    path = tmp_path / "page.rst"
    path.write_text(_RST, encoding="utf-8")
    found = blocks(path)
    assert [(b.lang, b.line) for b in found] == [
        ("python", 7),
        ("", 13),
        ("pycon", 15),
        ("text", 24),
    ]
    assert found[0].code == "x = 1\n\ny = x + 1\n"
    namespace = new_namespace(path)
    run(found[0], namespace)
    run(found[2], namespace)  # a doctest: its output is compared
    assert namespace["y"] == 2


def test_a_failing_block_names_its_line(tmp_path):
    path = tmp_path / "README.md"
    path.write_text("```python\nx = 1\nundefined_name\n```\n", encoding="utf-8")
    (block,) = blocks(path)
    with pytest.raises(NameError) as info:
        run(block, new_namespace(path))
    frame = info.traceback[-1]
    assert (str(frame.path), frame.lineno + 1) == (str(path), 3)


def test_a_wrong_doctest_output_fails(tmp_path):
    path = tmp_path / "page.rst"
    path.write_text(">>> 1 + 1\n3\n", encoding="utf-8")
    (block,) = blocks(path)
    with pytest.raises(AssertionError, match="doctest"):
        run(block, new_namespace(path))
