"""Management commands run as ``manage.py`` runs them, in the test's own process."""

from django.core.management import get_commands, load_command_class


def run_from_the_shell(*argv: str) -> None:
    """``manage.py *argv`` without a new process: the arguments parsed from the command line and
    a refusal turned into ``SystemExit`` with the exit status, its message on stderr; on the
    test database. The command line closes the database connections when it is done, so a test
    calling this needs ``django_db(transaction=True)``."""
    load_command_class(get_commands()[argv[0]], argv[0]).run_from_argv(["manage.py", *argv])
