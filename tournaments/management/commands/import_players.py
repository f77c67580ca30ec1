from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from core.spreadsheet_files import UnreadableFile, refuse_if_too_big
from domain.people import SamePerson, read_answers
from tournaments.access import COMMAND_LINE
from tournaments.management.lookup import find_day
from tournaments.presenters import same_person_questions
from tournaments.services.importing import ImportNeedsAnswers, ImportRefused, import_players

ANSWER_HELP = (
    "Answer with --same-person=all (every such row is the person on file), --same-person=none "
    '(every such row is someone new), or --same-person=FILE (a line a row: "12,yes" or "12,no").'
)


class Command(BaseCommand):
    help = (
        "Enter players from the club's spreadsheet (.xlsx or .csv; columns Name or First name and "
        "Last name, Club, Member number, Phone, Email, Keep apart, Table). If any row has a "
        "problem nothing is imported and every problem is listed. A row that could be someone "
        "already on file but differs (same name, other club; same member number, other name) "
        "needs --same-person; without it nothing is imported and the questions are listed."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The tournament's slug.")
        parser.add_argument("file", help="Path to the .xlsx or .csv file.")
        parser.add_argument(
            "--same-person",
            metavar="all|none|FILE",
            help='The answer to every "same person?" question, or a file of answers by row.',
        )

    def handle(self, slug, file, same_person=None, **options):
        tournament, _ = find_day(slug, None)
        answers = _answers(same_person)
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"There is no file at {file}.")
        # Same cap as an upload, checked before reading: the command reads the whole file into
        # memory too.
        try:
            refuse_if_too_big(path.stat().st_size, settings.UPLOAD_MAX_BYTES)
        except UnreadableFile as error:
            raise CommandError(str(error)) from error
        try:
            outcome = import_players(
                tournament, path.read_bytes(), path.name, user=COMMAND_LINE, answers=answers
            )
        except ImportNeedsAnswers as error:
            lines = [str(error), ANSWER_HELP]
            for question in same_person_questions(error.questions):
                seen = f", {question.last_seen}" if question.last_seen else ""
                lines.append(
                    f"Row {question.row} ({question.why}): {question.listed}\n"
                    f"    on file: {question.on_file}{seen}"
                )
            raise CommandError("\n".join(lines)) from error
        except ImportRefused as error:
            lines = [str(error)] + [str(problem) for problem in error.problems]
            raise CommandError("\n".join(lines)) from error
        except ServiceError as error:
            raise CommandError(str(error)) from error
        count = len(outcome.entries)
        pairs = outcome.keep_apart_pairs
        self.stdout.write(
            f"Imported {count} player{'s' if count != 1 else ''} into {tournament.slug} "
            f"({outcome.from_directory} already in the club directory, "
            f"{pairs} keep-apart pair{'s' if pairs != 1 else ''})."
        )
        for entry in outcome.entries:
            pin = f"  pinned to table {entry.pinned_table}" if entry.pinned_table else ""
            self.stdout.write(f"#{entry.number} {entry.player.name}{pin}")


def _answers(same_person: str | None) -> SamePerson | None:
    if same_person is None:
        return None
    if same_person in ("all", "none"):
        return SamePerson(everyone=same_person == "all")
    path = Path(same_person)
    if not path.is_file():
        raise CommandError(
            f"--same-person takes all, none or a file of answers; there is no file at "
            f"{same_person}."
        )
    try:
        refuse_if_too_big(path.stat().st_size, settings.UPLOAD_MAX_BYTES)
        text = path.read_bytes().decode("utf-8-sig")
    except (UnreadableFile, UnicodeDecodeError) as error:
        raise CommandError(f"The answers file {same_person} cannot be read: {error}") from error
    rows, problems = read_answers(text)
    if problems:
        lines = [f"Nothing was imported: the answers file {same_person} has problems."]
        lines += [f"Line {line}: {message}" for line, message in problems]
        raise CommandError("\n".join(lines))
    return SamePerson(rows=rows)
