"""Fail when a function or method, a whole module or a template's line is longer than its limit.

A newcomer reads a module and a function whole: past these sizes they stop fitting in one sitting.
A function's length runs from its `def` line to its last line; decorators are not counted, and a
nested function counts inside its parent as well as on its own. Tests, migrations and the virtual
environment are not checked. A module's length is its number of lines. Every `.html` under
templates/ has no line over 160 characters (the width djlint formats to, `max_line_length` in
pyproject.toml), so a template reads without scrolling sideways. Prints each offender as
`path:line name (N lines)`, `path (N lines)` or `path:line (N characters)` and exits 1 if there is
any.

Usage: python .ci/code_size.py [--max N] [--max-module M] [--max-template-line W] [PATH ...]
       (default: the whole project's Python and templates/, N = 60, M = 700, W = 160; a PATH
       that is an .html file, or a folder holding some, has its templates checked too)
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 60
MAX_MODULE_LINES = 700
MAX_TEMPLATE_LINE = 160
TEMPLATES = ROOT / "templates"
SKIPPED_DIRS = {"tests", "migrations", ".venv", "venv", "node_modules", "__pycache__", ".git"}


def project_files(paths: list[Path], suffix: str) -> Iterator[Path]:
    """The files ending in suffix among paths and under the folders among them."""
    for path in paths:
        if path.is_file():
            if path.suffix == suffix:
                yield path
            continue
        for found in sorted(path.rglob(f"*{suffix}")):
            parts = found.relative_to(path).parts[:-1]
            if not any(part in SKIPPED_DIRS or part.startswith(".") for part in parts):
                yield found


def wide_lines(source: str, max_chars: int) -> Iterator[tuple[int, int]]:
    """(line number, characters) for each line longer than max_chars."""
    for number, line in enumerate(source.splitlines(), start=1):
        if len(line) > max_chars:
            yield number, len(line)


def shown_path(path: Path) -> Path:
    resolved = path.resolve()
    return resolved.relative_to(ROOT) if resolved.is_relative_to(ROOT) else path


def long_functions(source: str, filename: str, max_lines: int) -> Iterator[tuple[int, str, int]]:
    """(line of the def, qualified name, length) for each function over max_lines."""
    tree = ast.parse(source, filename=filename)

    def visit(node: ast.AST, prefix: str) -> Iterator[tuple[int, str, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{child.name}"
                end = child.end_lineno or child.lineno
                length = end - child.lineno + 1
                if length > max_lines:
                    yield child.lineno, name, length
                yield from visit(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                yield from visit(child, f"{prefix}{child.name}.")
            else:
                yield from visit(child, prefix)

    yield from visit(tree, "")


def python_offenders(paths: list[Path], max_lines: int, max_module: int) -> Iterator[str]:
    for path in project_files(paths, ".py"):
        shown = shown_path(path)
        try:
            source = path.read_text(encoding="utf-8")
            found = list(long_functions(source, str(shown), max_lines))
        except SyntaxError as error:
            yield f"{shown}:{error.lineno}: cannot parse: {error.msg}"
            continue
        module_lines = source.count("\n") + (not source.endswith("\n") and bool(source))
        if module_lines > max_module:
            yield f"{shown} ({module_lines} lines; at most {max_module})"
        for line, name, length in found:
            yield f"{shown}:{line} {name} ({length} lines)"


def template_offenders(paths: list[Path], max_chars: int) -> Iterator[str]:
    for path in project_files(paths, ".html"):
        for line, chars in wide_lines(path.read_text(encoding="utf-8"), max_chars):
            yield f"{shown_path(path)}:{line} ({chars} characters)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=MAX_LINES, help="most lines allowed")
    parser.add_argument(
        "--max-module", type=int, default=MAX_MODULE_LINES, help="most lines in a module"
    )
    parser.add_argument(
        "--max-template-line",
        type=int,
        default=MAX_TEMPLATE_LINE,
        help="most characters in a template line",
    )
    parser.add_argument("paths", nargs="*", type=Path, help="files or folders (default: project)")
    args = parser.parse_args(argv)

    code = list(python_offenders(args.paths or [ROOT], args.max, args.max_module))
    wide = list(template_offenders(args.paths or [TEMPLATES], args.max_template_line))
    for offender in code + wide:
        print(offender)
    if code:
        print(
            f"{len(code)} function(s) over {args.max} lines or module(s) over {args.max_module}",
            file=sys.stderr,
        )
    if wide:
        print(
            f"{len(wide)} template line(s) over {args.max_template_line} characters",
            file=sys.stderr,
        )
    return 1 if code or wide else 0


if __name__ == "__main__":
    sys.exit(main())
