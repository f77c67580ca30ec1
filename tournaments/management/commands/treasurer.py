"""python manage.py treasurer SLUG [--pdf FILE] [--xlsx FILE]: the fees taken by method, who
owes, and the prize pot by place, as the treasurer's page shows them."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from core.formats import money
from core.reports import PDF, XLSX
from tournaments.management.lookup import find_day
from tournaments.selectors.fees import fee_report
from tournaments.treasurer import treasurer_report


class Command(BaseCommand):
    help = "Print an event's fees, who owes and the prize pot; optionally write the workbook."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--pdf", type=Path, metavar="FILE", help="Write the PDF here.")
        parser.add_argument("--xlsx", type=Path, metavar="FILE", help="Write the workbook here.")

    def handle(self, *args, slug, pdf, xlsx, **options):
        tournament, _ = find_day(slug, None)
        report = fee_report(tournament)
        write = self.stdout.write
        write(f"{tournament.name}: each player's fee {money(report.due_each)}")
        for label, count, amount in report.method_rows:
            write(
                f"  {label:<8} {count:>4} payment{'s' if count != 1 else ' '} {money(amount):>12}"
            )
        write(f"  Collected (not counting waived) {money(report.collected)}")
        write(f"Still to pay: {len(report.owing)} ({money(report.owed)})")
        for row in report.owing:
            write(f"  #{row.number} {row.name}: {money(row.owed)}")
        write(f"Prize pot: {tournament.pot_percent}% of the fees collected, {money(report.pot)}")
        for place, percent, part in report.places:
            write(f"  Place {place}: {percent}% {money(part)}")
        try:
            for path in treasurer_report(report).save({PDF: pdf, XLSX: xlsx}):
                write(f"Wrote {path}")
        except OSError as error:
            raise CommandError(f"Could not write {error.filename}: {error.strerror}.") from None
