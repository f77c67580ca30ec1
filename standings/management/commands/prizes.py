"""python manage.py prizes SLUG [--pdf FILE] [--certificates FILE]: who wins what, in the order
the prizes are called; or, exit 1, what blocks it (games not confirmed, ties to decide)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from standings.prizes import prize_table
from standings.prizes_pdf import announcement_pdf, certificates_pdf
from tournaments.management.lookup import find_day
from tournaments.services.prizes import mark_printed


class Command(BaseCommand):
    help = "Print who wins each prize, or what keeps the prizes from being given."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--pdf", type=Path, metavar="FILE", help="Write the announcement.")
        parser.add_argument(
            "--certificates", type=Path, metavar="FILE", help="Write the certificates."
        )

    def handle(self, *args, slug, pdf, certificates, **options):
        tournament, _ = find_day(slug, None)
        table = prize_table(tournament)
        if not table.ready:
            raise CommandError("The prizes cannot be given yet:\n  " + "\n  ".join(table.problems))
        self.stdout.write(f"{tournament.name}: prizes in the order they are called")
        for award in table.called:
            if award.winner is None:
                self.stdout.write(f"  {award.prize.title}: nobody ({award.nobody})")
                continue
            decided = " (decided by the organiser)" if award.decided else ""
            self.stdout.write(
                f"  {award.prize.title}: {award.winner.name} (#{award.winner.number}), "
                f"{award.what}{decided}"
            )
        try:
            if pdf:
                pdf.write_bytes(announcement_pdf(table))
                mark_printed(tournament)
                self.stdout.write(f"Wrote {pdf}")
            if certificates:
                certificates.write_bytes(certificates_pdf(table))
                self.stdout.write(f"Wrote {certificates}")
        except OSError as error:
            raise CommandError(f"Could not write {error.filename}: {error.strerror}.") from None
