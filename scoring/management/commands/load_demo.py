import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from scoring.demo import load_demo
from tournaments.models import Tournament

DEMO_USERNAME = "organiser"
# Only on a debug install (the venue laptop, development); without debug the password is random.
DEMO_PASSWORD = "mexican-train-demo"  # noqa: S105 (documented demo login, debug only)


class Command(BaseCommand):
    help = (
        "Load the demo tournament if the database has no tournament yet, with a demo login that "
        f"organises the demo event only ({DEMO_USERNAME} / {DEMO_PASSWORD} when DJANGO_DEBUG=1). "
        "Refused when DJANGO_DEBUG=0 unless --allow-without-debug is given; then the password is "
        "random and printed once."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--allow-without-debug",
            action="store_true",
            help="Load the demo on a production install (DJANGO_DEBUG=0), with a random password.",
        )

    def handle(self, **options):
        if not settings.DEBUG and not options["allow_without_debug"]:
            raise CommandError(
                "DJANGO_DEBUG is off, so this looks like a real install: the demo was not loaded. "
                "Add --allow-without-debug to load it anyway (the login gets a random password)."
            )
        if Tournament.objects.exists():
            self.stdout.write("The database already holds a tournament; the demo was not loaded.")
            return
        User = get_user_model()
        organiser = User.objects.filter(username=DEMO_USERNAME).first()
        if organiser is None:
            # A known password is only for a debug install; anywhere else it would be an open door.
            password = DEMO_PASSWORD if settings.DEBUG else secrets.token_urlsafe(12)
            # A plain user: the role comes from being the demo event's organiser, so the login
            # opens that event only (no admin site, no other event).
            organiser = User.objects.create_user(DEMO_USERNAME, "", password)
            self.stdout.write(f"Created the demo organiser login: {DEMO_USERNAME} / {password}")
        tournament = load_demo(organiser)
        self.stdout.write(f"Loaded the demo tournament: {tournament.slug}")
