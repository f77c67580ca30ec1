from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from scoring.management.commands.load_demo import DEMO_PASSWORD, DEMO_USERNAME


class Command(BaseCommand):
    help = (
        "Exit 1 if this database holds the demo login with its published password (make venue "
        "runs it first, so the demo's open door never reaches the venue's Wi-Fi)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--allow-demo",
            action="store_true",
            help="Serve it anyway (make venue ALLOW_DEMO=1): a practice evening with the demo.",
        )

    def handle(self, **options):
        user = get_user_model().objects.filter(username=DEMO_USERNAME).first()
        if user is None or not user.check_password(DEMO_PASSWORD):
            return
        if options["allow_demo"]:
            self.stdout.write(
                f"Serving a database with the demo login ({DEMO_USERNAME} / {DEMO_PASSWORD}): "
                "anyone on this Wi-Fi who has read the README can log in with it."
            )
            return
        raise CommandError(
            f"This database holds the demo login {DEMO_USERNAME} / {DEMO_PASSWORD}, whose "
            "password is published in the README: anyone on the venue's Wi-Fi could log in "
            "with it. The server was not started. Change its password (python manage.py "
            f"changepassword {DEMO_USERNAME}) or delete it, or start with make venue "
            "ALLOW_DEMO=1 to serve it anyway. (make run keeps the demo in demo.sqlite3.)"
        )
