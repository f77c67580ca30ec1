"""Downloads built one way: a report in one or more file formats, answered as an HTTP response.

A ``Report`` is a file name and one formatter per format; a formatter is any callable that
returns the file's bytes, so a report changes or gains a format by swapping or adding one, and
views, commands and tests ask for the bytes the same way. ``report_response`` is the one place
that sets a download's content type and ``Content-Disposition``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from django.http import HttpResponse


@dataclass(frozen=True)
class FileFormat:
    extension: str
    content_type: str
    # "inline" opens in the browser (a PDF to look at or print), "attachment" saves the file.
    disposition: str


PDF = FileFormat("pdf", "application/pdf", "inline")
XLSX = FileFormat(
    "xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "attachment"
)


@dataclass(frozen=True)
class Report:
    """A document under one file name (without extension), with a formatter per format."""

    name: str
    formatters: Mapping[FileFormat, Callable[[], bytes]]

    def render(self, file_format: FileFormat) -> bytes:
        formatter = self.formatters.get(file_format)
        if formatter is None:
            raise ValueError(f"{self.name} has no .{file_format.extension} form.")
        return formatter()

    def as_pdf(self) -> bytes:
        return self.render(PDF)

    def as_xlsx(self) -> bytes:
        return self.render(XLSX)

    def filename(self, file_format: FileFormat) -> str:
        return f"{self.name}.{file_format.extension}"

    def save(self, paths: Mapping[FileFormat, Path | None]) -> Iterator[Path]:
        """Write each format asked for (a path, not None) to its path, yielding each path once
        written. ``OSError`` when a file cannot be written, with the ones before it done."""
        for file_format, path in paths.items():
            if path is not None:
                path.write_bytes(self.render(file_format))
                yield path


def report_response(
    report: Report, file_format: FileFormat, *, disposition: str | None = None
) -> HttpResponse:
    """The report as a download; ``disposition`` overrides the format's usual one."""
    disposition = disposition or file_format.disposition
    return HttpResponse(
        report.render(file_format),
        content_type=file_format.content_type,
        headers={
            "Content-Disposition": f'{disposition}; filename="{report.filename(file_format)}"'
        },
    )
