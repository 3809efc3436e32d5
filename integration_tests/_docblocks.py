"""The code blocks of the READMEs and docs/, found and run the way a reader would run them.

Markdown: fenced blocks (```` ```lang ````). reStructuredText: ``.. code-block:: lang``
(also ``.. code::`` and ``.. sourcecode::``), doctest paragraphs (``>>>``) and literal
blocks (``::``). Every block must name its language: ``python`` blocks (``py``,
``pycon``) run, and the rest (``bash``, ``console``, ``text``, ...) are shown only.

A file's Python blocks run in order in one namespace, as a reader pastes them into one
session; a block made of ``>>>`` prompts runs as a doctest (its printed output is
compared). A Markdown block that needs a package's optional extra says so on the line
above its fence, invisibly on GitHub and PyPI::

    <!-- requires: dask -->

The wheel check of ``nox -s tests`` first runs a README's blocks without such a line in a
venv holding only the wheel and its declared dependencies, then installs the named extras
and runs the whole file.

This module uses the standard library only: the wheel check runs it as a script,
``python _docblocks.py README.md [--no-extras]``, inside venvs that hold no test tools.
"""

from __future__ import annotations

import argparse
import dataclasses
import doctest
import pathlib
import re
import sys
import time
import traceback

#: Languages whose blocks are executed.
PYTHON = frozenset({"python", "py", "python3", "pycon"})
#: Languages shown but never executed (shell sessions, program output, file formats).
SHOWN = frozenset(
    {"bash", "console", "shell", "sh", "text", "toml", "ini", "yaml", "json", "rst", "none"}
)

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_REQUIRES = re.compile(r"^\s*<!--\s*requires:\s*(?P<extras>[\w\s,-]+?)\s*-->\s*$")
_DIRECTIVE = re.compile(r"^(?P<indent>\s*)\.\. (?:code-block|code|sourcecode)::\s*(?P<lang>\S*)")
_OTHER_DIRECTIVE = re.compile(r"^\s*\.\. [\w:-]+::")


@dataclasses.dataclass(frozen=True)
class Block:
    """One code block: where it starts (1-based line of its first code line) and its text."""

    path: pathlib.Path
    line: int
    lang: str
    code: str
    requires: tuple[str, ...] = ()

    @property
    def runs(self) -> bool:
        return self.lang in PYTHON

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


def doc_files(root) -> list[pathlib.Path]:
    """The documents whose code blocks run: every README and the Sphinx sources of docs/.

    The root README, each package's README (``shared/*/`` and ``packages/*/``) and the
    ``.rst``/``.md`` files under ``docs/``, except the build output and what
    ``docs/conf.py`` generates at build time: the API pages, and the gallery that
    sphinx-gallery renders from ``examples/`` (``auto_examples/`` and its run-time table
    ``sg_execution_times.rst``; the examples themselves run when the docs build).
    """
    root = pathlib.Path(root)
    readmes = [root / "README.md", *sorted(root.glob("shared/*/README.md"))]
    readmes += sorted(root.glob("packages/*/README.md"))
    skip = {"_build", "generated", "auto_examples", "sg_execution_times.rst"}
    docs = sorted(
        p
        for p in (root / "docs").rglob("*")
        if p.suffix in {".rst", ".md"} and not skip & set(p.relative_to(root / "docs").parts)
    )
    return [p for p in readmes if p.is_file()] + docs


def blocks(path) -> list[Block]:
    """Every code block of a Markdown or reStructuredText file, in order."""
    path = pathlib.Path(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    if path.suffix == ".md":
        return _markdown_blocks(path, lines)
    return _rst_blocks(path, lines)


def _markdown_blocks(path, lines):
    found, i = [], 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        fence, indent = match["fence"], len(match["indent"])
        lang = match["info"].strip().split(" ")[0].lower() if match["info"].strip() else ""
        requires = ()
        if i > 0 and (req := _REQUIRES.match(lines[i - 1])):
            requires = tuple(sorted(e.strip() for e in req["extras"].split(",") if e.strip()))
        end = i + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        body = [line[indent:] if line[:indent].isspace() else line for line in lines[i + 1 : end]]
        found.append(Block(path, i + 2, lang, "\n".join(body) + "\n", requires))
        i = end + 1
    return found


def _indent(line):
    return len(line) - len(line.lstrip())


def _indented_body(lines, start, parent_indent):
    """The lines after ``start`` indented deeper than ``parent_indent`` (blank lines kept)."""
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > parent_indent):
        end += 1
    body = lines[start + 1 : end]
    # directive options (":linenos:") come first, before a blank line
    while body and body[0].strip().startswith(":"):
        body = body[1:]
        start += 1
    while body and not body[0].strip():
        body = body[1:]
        start += 1
    while body and not body[-1].strip():
        body = body[:-1]
    depth = min((_indent(line) for line in body if line.strip()), default=0)
    return start + 2, "\n".join(line[depth:] for line in body) + "\n", end


def _rst_blocks(path, lines):
    found, i = [], 0
    while i < len(lines):
        line = lines[i]
        if match := _DIRECTIVE.match(line):
            first, code, end = _indented_body(lines, i, len(match["indent"]))
            found.append(Block(path, first, match["lang"].lower(), code))
            i = end
        elif line.lstrip().startswith(">>>") and (i == 0 or not lines[i - 1].strip()):
            end = i
            while end < len(lines) and lines[end].strip():
                end += 1
            depth = _indent(line)
            code = "\n".join(text[depth:] for text in lines[i:end]) + "\n"
            found.append(Block(path, i + 1, "pycon", code))
            i = end
        elif (
            line.rstrip().endswith("::")
            and set(line.strip()) != {":"}  # a section adornment, not a literal block
            and not _OTHER_DIRECTIVE.match(line)
        ):
            # a literal block: Sphinx would highlight it as Python although nothing runs it
            first, code, end = _indented_body(lines, i, _indent(line))
            if code.strip():
                found.append(Block(path, first, "", code))
            i = max(end, i + 1)
        else:
            i += 1
    return found


def run(block: Block, namespace: dict) -> None:
    """Execute one Python block in ``namespace``; tracebacks name the file and its line."""
    if ">>>" in block.code:
        parser = doctest.DocTestParser()
        test = parser.get_doctest(block.code, namespace, str(block), str(block.path), block.line)
        flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
        runner = doctest.DocTestRunner(optionflags=flags)
        runner.run(test, clear_globs=False)
        if runner.failures:
            raise AssertionError(f"{runner.failures} doctest example(s) of {block} failed")
        return
    # leading newlines put the code on its own lines of the file in tracebacks
    source = "\n" * (block.line - 1) + block.code
    exec(compile(source, str(block.path), "exec"), namespace)  # noqa: S102 - the docs' code


def new_namespace(path) -> dict:
    """A fresh ``__main__``-like namespace for the blocks of one file."""
    return {"__name__": "__main__", "__file__": str(path)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=pathlib.Path)
    parser.add_argument(
        "--no-extras",
        action="store_true",
        help="skip Markdown blocks marked '<!-- requires: EXTRA -->' (wheel without extras)",
    )
    args = parser.parse_args(argv)
    failed = 0
    for path in args.files:
        namespace = new_namespace(path)
        for block in blocks(path):
            if not block.runs or (args.no_extras and block.requires):
                continue
            start = time.perf_counter()
            try:
                run(block, namespace)
            except Exception:
                traceback.print_exc()
                print(f"FAILED {block}", flush=True)
                failed += 1
                break  # later blocks of the file build on this one
            print(f"ran {block} in {time.perf_counter() - start:.2f} s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
