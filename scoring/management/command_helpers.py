"""What the day commands (export_scores, print_sheets, table_links, close_day, import_scores)
share: the --base-url option, a seated day, and writing the output file.
Every refusal is a CommandError, so the command prints it and exits 1."""

from pathlib import Path

from django.core.management.base import CommandError

from scoring.score_sheets_pdf import DEFAULT_BASE_URL
from scoring.selectors import not_seated


def require_tables(day, doing: str = "") -> None:
    problem = not_seated(day, doing)
    if problem:
        raise CommandError(problem)


def add_base_url_argument(parser) -> None:
    parser.add_argument(
        "--base-url",
        default=DEFAULT_BASE_URL,
        help=f"Address phones use to reach this laptop (default {DEFAULT_BASE_URL}).",
    )


def check_base_url(base_url: str) -> str:
    if not base_url.startswith(("http://", "https://")):
        raise CommandError(f'The base URL must start with http:// or https:// (got "{base_url}").')
    return base_url


def write_output(file: str, data: bytes) -> Path:
    path = Path(file)
    try:
        path.write_bytes(data)
    except OSError as error:
        raise CommandError(f"Could not write {path}: {error.strerror}.") from error
    return path
