"""What the day commands (export_scores, print_sheets, table_links, close_day, import_scores)
share: the --base-url option, a seated day, and writing the output file.
Every refusal is a CommandError, so the command prints it and exits 1."""

import sys
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.core.management.base import CommandError

from core.venue import is_loopback_host
from scoring.score_sheets_pdf import DEFAULT_BASE_URL
from scoring.selectors import not_seated


def require_tables(day, doing: str = "") -> None:
    problem = not_seated(day, doing)
    if problem:
        raise CommandError(problem)


def add_base_url_argument(parser) -> None:
    parser.add_argument(
        "--base-url",
        default=None,
        help="Address phones use to reach this laptop (default DJANGO_BASE_URL, which venue "
        f"mode sets to the laptop's network address, else {DEFAULT_BASE_URL}).",
    )


def check_base_url(base_url: str | None) -> str:
    base_url = base_url or getattr(settings, "BASE_URL", "") or DEFAULT_BASE_URL
    if not base_url.startswith(("http://", "https://")):
        raise CommandError(f'The base URL must start with http:// or https:// (got "{base_url}").')
    if is_loopback_host(urlsplit(base_url).hostname or ""):
        print(
            f"Warning: the links point to {base_url}, which only this laptop can open; phones "
            "cannot. Pass --base-url with the address `make venue` prints.",
            file=sys.stderr,
        )
    return base_url


def write_output(file: str, data: bytes) -> Path:
    path = Path(file)
    try:
        path.write_bytes(data)
    except OSError as error:
        raise CommandError(f"Could not write {path}: {error.strerror}.") from error
    return path
