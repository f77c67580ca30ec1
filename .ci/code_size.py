"""Fail when a function or method, or a whole module, is longer than its limit.

A newcomer reads a module and a function whole: past these sizes they stop fitting in one sitting.
A function's length runs from its `def` line to its last line; decorators are not counted, and a
nested function counts inside its parent as well as on its own. Tests, migrations and the virtual
environment are not checked. A module's length is its number of lines. Prints each offender as
`path:line name (N lines)` or `path (N lines)` and exits 1 if there is any.

Usage: python .ci/code_size.py [--max N] [--max-module M] [PATH ...]
       (default: the whole project, N = 60, M = 700)
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
SKIPPED_DIRS = {"tests", "migrations", ".venv", "venv", "node_modules", "__pycache__", ".git"}


def python_files(paths: list[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_file():
            if path.suffix == ".py":
                yield path
            continue
        for found in sorted(path.rglob("*.py")):
            parts = found.relative_to(path).parts[:-1]
            if not any(part in SKIPPED_DIRS or part.startswith(".") for part in parts):
                yield found


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=MAX_LINES, help="most lines allowed")
    parser.add_argument(
        "--max-module", type=int, default=MAX_MODULE_LINES, help="most lines in a module"
    )
    parser.add_argument("paths", nargs="*", type=Path, help="files or folders (default: project)")
    args = parser.parse_args(argv)

    offenders = 0
    for path in python_files(args.paths or [ROOT]):
        shown = path.resolve()
        shown = shown.relative_to(ROOT) if shown.is_relative_to(ROOT) else path
        try:
            source = path.read_text(encoding="utf-8")
            found = list(long_functions(source, str(shown), args.max))
        except SyntaxError as error:
            print(f"{shown}:{error.lineno}: cannot parse: {error.msg}")
            offenders += 1
            continue
        module_lines = source.count("\n") + (not source.endswith("\n") and bool(source))
        if module_lines > args.max_module:
            print(f"{shown} ({module_lines} lines; at most {args.max_module})")
            offenders += 1
        for line, name, length in found:
            print(f"{shown}:{line} {name} ({length} lines)")
            offenders += 1
    if offenders:
        print(
            f"{offenders} function(s) over {args.max} lines or module(s) over {args.max_module}",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
