"""The app as it was at an earlier commit, measured beside today's in the same run.

git writes the commit's files into a throwaway folder (``git archive``: the repository is only
read). The bench's stopwatch app (bench/timed_wsgi.py) is copied in, so the old code's requests
are timed as today's are, and the old code's own bench/entry_load.py builds its event, so the
database is made by the code that serves it. :func:`paired_saves` then saves the same games on
both servers turn about, one request at a time.
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from bench.http_load import Browser, fill_next_game, refusal

ROOT = Path(__file__).resolve().parent.parent

# Run in the old folder: its bench/entry_load.py seeds the event (migrate, players, seating, the
# desks' logins) and what the clients need is printed as one JSON line.
_SEED = """
import json, sys
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/bench"]
import django
import entry_load
entry_load.PLAYERS = int(sys.argv[2])
django.setup()
event = entry_load._seed_event()
facts = {"slug": event.tournament.slug, "tables": event.tables, "games": event.games}
print("EVENT " + json.dumps({**facts, "desks": event.desks}))
"""


def checkout(ref: str, into: Path) -> Path | None:
    """The files of commit ``ref`` in ``into``; None (and why, printed) if git cannot give them."""
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", ref],
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", b"") or b""
        print(f"no baseline: git archive {ref} failed ({error}; {detail.decode().strip()})")
        return None
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    shutil.copy(ROOT / "bench" / "timed_wsgi.py", into / "bench" / "timed_wsgi.py")
    return into


def environment(tree: Path, env: dict, work: Path, database_url: str) -> dict:
    """``env`` with the old code in ``tree`` on its own database: Django's settings and the
    import path point at it, and its collected static files go to a folder of their own."""
    (work / "baseline_settings.py").write_text(
        "from config.settings import *  # noqa: F401,F403\n"
        f"STATIC_ROOT = {str(work / 'baseline-static')!r}\n",
        encoding="utf-8",
    )
    return {
        **env,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "baseline_settings",
        "PYTHONPATH": os.pathsep.join([str(work), str(tree)]),
    }


def seed(tree: Path, env: dict, players: int, label: str) -> dict:
    """The old code's event in the database ``env`` names: slug, tables (number -> link token),
    games a day and the desks' logins."""
    done = subprocess.run(
        [sys.executable, "-c", _SEED, str(tree), str(players)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"the baseline's seeding failed:\n{done.stderr[-3000:]}")
    facts = {}
    for line in done.stdout.splitlines():
        if line.startswith("EVENT "):
            facts = json.loads(line.removeprefix("EVENT "))
        else:
            print(f"{label}: {line}")  # its own "seeded in ..." line
    facts["tables"] = {int(number): token for number, token in facts["tables"].items()}
    facts["desks"] = [tuple(login) for login in facts["desks"]]
    return facts


def paired_saves(ports: dict[str, int], tokens: dict[str, dict[int, str]], games: int) -> list[str]:
    """Every game of every table saved once on each server (``ports`` and ``tokens`` by server
    name), one request at a time: the two saves of a pair follow each other, the order swapped
    from one pair to the next, so a busy moment on the machine weighs on both alike. Each save is
    followed by the redirect its page sends. Returns the errors."""
    names = list(ports)
    numbers = sorted(tokens[names[0]])
    browsers = {name: {n: Browser(ports[name]) for n in numbers} for name in names}
    pages = {
        name: {n: browsers[name][n].get(f"/table/{tokens[name][n]}/") for n in numbers}
        for name in names
    }
    errors = []
    for turn, (_, n) in enumerate((g, n) for g in range(games) for n in numbers):
        for name in names if turn % 2 == 0 else names[::-1]:
            path = f"/table/{tokens[name][n]}/"
            form = fill_next_game(pages[name][n].body, random.Random(turn))
            if form is None:
                errors.append(f"{name} table {n}: no game form")
                continue
            response = browsers[name][n].post(path, form.fields)
            if response.status != 302 or response.location != path:
                errors.append(f"{name} table {n}: POST {response.status} {refusal(response)}")
            pages[name][n] = browsers[name][n].get(path)
    return errors
