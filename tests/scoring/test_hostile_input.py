"""Hostile input on every way data comes in: the phone page, the desk card, the score workbook
upload and the player list upload.

Hypothesis builds a valid submission and then spoils it in one way it picks (a huge, negative,
decimal, blank or wordy number, markup, a second player out, a duplicate row, a missing or extra
column, a sheet in the wrong place, a table number with thousands of digits...). Whatever it
picks, the page must answer 200 with a plain message saying what is wrong -- never a 500 --
and the database must hold exactly the rows it held before. Whole-file attacks (random bytes,
truncated or corrupted workbooks, an encrypted workbook's OLE header, zip bombs, a 50 MB upload)
get the same checks.
"""

from __future__ import annotations

import html
import io
import re
import string
import zipfile
from functools import cache
from types import SimpleNamespace

import pytest
from django.conf import settings as django_settings
from django.core.files.uploadedfile import SimpleUploadedFile, TemporaryUploadedFile
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings, strategies as st
from openpyxl import Workbook, load_workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.worksheet._read_only import ReadOnlyWorksheet
from scoring_factories import ROSTER_MODELS, SCORE_MODELS, csv_bytes, snapshot, xlsx_bytes

from core.spreadsheet_files import LOCKED_OR_OLD_EXCEL, MAX_SHEET_ROWS
from scoring import workbook_export, workbook_import as score_workbook
from tournaments import player_import
from tournaments.models import Entry, Seat
from tournaments.player_import import NAME_MAX, NOT_A_SPREADSHEET
from tournaments.services.registration import register_player

pytestmark = pytest.mark.django_db

# Each kind of spoiling is a pytest parameter, so every kind runs every time; Hypothesis varies
# the values within it (and shrinks a failure to the smallest one).
FUZZ = settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
FILES = settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# What must never reach a page: signs that an exception's text leaked instead of a message.
TECHNICAL = (
    "Traceback",
    "Exception",
    "Error:",
    "ValueError",
    "IntegrityError",
    "KeyError",
    "NoneType",
    "object at 0x",
    "sqlite3",
    "psycopg",
    "openpyxl",
    "zipfile",
)
OLE_HEADER = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # what Excel writes for an encrypted workbook
EMPTY_UPLOAD = "The submitted file is empty."  # Django's own words for a 0-byte upload


# ---------------------------------------------------------------------------
# Checks shared by every test
# ---------------------------------------------------------------------------


# Every table a submission could touch: the roster and the score records.
TOUCHABLE = (*ROSTER_MODELS, *SCORE_MODELS)


def text_of(response) -> str:
    page = response.content.decode()
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def assert_refused(response, before: dict, *expected: str, banner: str | tuple) -> None:
    """200 with the refusal (``banner``, or any one of several) and each expected message in
    plain words; nothing stored."""
    assert response.status_code == 200, response.status_code
    text = text_of(response)
    banners = (banner,) if isinstance(banner, str) else banner
    assert any(b in text for b in banners), text[:3000]
    for message in expected:
        assert " ".join(message.split()) in text, (message, text[:3000])
    for word in TECHNICAL:
        assert word not in text, (word, text[:3000])
    # Our own scripts load from /static/; any other script or image tag came from what was typed.
    page = re.sub(r'<script src="/static/[^"]+" defer></script>', "", response.content.decode())
    page = page.lower()
    assert "<script" not in page and "<img" not in page  # typed markup stays text
    assert snapshot(*TOUCHABLE) == before


def assert_plain_sentence(line: str) -> None:
    """A message a person can act on: a sentence in words, not an exception's text or a repr."""
    assert line.strip()[:1].isupper() and re.search(r"[a-z]{3,} [a-z]{2,}", line), repr(line)
    for word in TECHNICAL:
        assert word not in line, (word, line)


# ---------------------------------------------------------------------------
# Hostile values for one number typed into a field, each with the message it must get
# ---------------------------------------------------------------------------

WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)
INTEGER_FIELD = re.compile(r"[+-]?[0-9]+(\.0*)?", re.ASCII)
# Digits with a letter that looks like one ("1O", "l2") are asked about ("Did you mean 10?"), a
# refusal of its own with its own words, so they are not among the "words" a score refuses.
LOOKALIKE_TYPO = re.compile(r"[0-9OolI]{1,9}", re.ASCII)
# The most one hand can hold on any game of the day: the double-12 set with the double blank at
# 50 (1,142 pips) less the smallest engine, double 7.
CEILING = 1142 - 14


def _words(min_size=1, max_size=40):
    # Anything a person or a script might type that is not a plain whole number (no NUL: that
    # has its own case below, and openpyxl cannot store control characters).
    return (
        st.text(min_size=min_size, max_size=max_size)
        .map(lambda s: ILLEGAL_CHARACTERS_RE.sub("", s))
        .filter(
            lambda s: s.strip() and not WHOLE.fullmatch(s.strip()) and not s.strip().startswith("=")
        )
    )


SCORE_KINDS = ["huge", "negative", "decimal", "words", "blank", "markup", "overlong", "nul"]
CELL_SCORE_KINDS = ["huge", "negative", "decimal", "words", "markup"]  # what a cell can hold


@st.composite
def bad_score(draw, kind):
    """(value as typed, message templates with {name}) for one player's score."""
    if kind == "huge":
        value = draw(st.integers(CEILING + 1, 10**90))
        padded = draw(st.sampled_from(["{}", " {} ", "+{}", "000{}"])).format(value)
        return padded, "{name}'s score of", "is more than one hand can hold at a table of"
    if kind == "negative":
        return str(draw(st.integers(-(10**90), -1))), "{name}'s score cannot be negative."
    if kind == "decimal":
        value = draw(
            st.decimals(
                min_value=-1000,
                max_value=1000,
                places=draw(st.integers(1, 4)),
                allow_nan=False,
                allow_infinity=False,
            ).filter(lambda d: d != d.to_integral_value())
        )
        text = draw(st.sampled_from([str, lambda d: f"{d}e0", lambda d: str(d).replace(".", ",")]))(
            value
        )
        return text, "{name}'s score must be a whole number, like 0 or 23."
    if kind == "words":
        return (
            draw(_words().filter(lambda s: not LOOKALIKE_TYPO.fullmatch(s.strip()))),
            "{name}'s score must be a whole number, like 0 or 23.",
        )
    if kind == "blank":
        return draw(st.sampled_from(["", " ", "\t", "   "])), "Enter a score for {name}."
    if kind == "markup":
        return (
            draw(
                st.sampled_from(
                    [
                        '<script>alert("x")</script>',
                        "<b>12</b>",
                        "12<img src=x onerror=alert(1)>",
                        "&lt;12&gt;",
                    ]
                )
            ),
            "{name}'s score must be a whole number, like 0 or 23.",
        )
    if kind == "overlong":  # past the field's length: refused before any parsing
        return draw(
            st.text("0123456789", min_size=101, max_size=400)
        ), "{name}'s score must be a whole number, like 0 or 23."
    return "1" + "\x00" + draw(
        st.text("0123456789", max_size=3)
    ), "Null characters are not allowed."


# ---------------------------------------------------------------------------
# The phone page
# ---------------------------------------------------------------------------


def table_seats(w, table_index):
    """Entry ids of a table's players in seat order, and their names by id."""
    seats = list(
        Seat.objects.filter(table=w.tables[table_index])
        .order_by("position")
        .select_related("entry__player")
    )
    return [s.entry_id for s in seats], {s.entry_id: s.entry.player.name for s in seats}


def valid_game(w, table_index, rng_scores):
    """Seated entry ids of a table and a valid result: the first player out, others 1..60."""
    ids, names = table_seats(w, table_index)
    scores = {pk: (0 if i == 0 else rng_scores[i - 1]) for i, pk in enumerate(ids)}
    return ids, names, scores


def spoil_score(data, spoil, post, field, name):
    """Type a hostile score of the kind ``spoil`` names ("score huge") into ``post[field]``:
    the messages it must get, naming ``name``."""
    value, *messages = data.draw(bad_score(spoil.split()[1]))
    post[field] = value
    return tuple(m.format(name=name) for m in messages)


PHONE_SPOILS = [f"score {kind}" for kind in SCORE_KINDS] + [
    "engine",
    "outcome",
    "tiles",
    "version",
    "extra fields",
]


@pytest.mark.parametrize("spoil", PHONE_SPOILS)
@FUZZ
@given(rng_scores=st.lists(st.integers(1, 60), min_size=6, max_size=6), data=st.data())
def test_the_phone_page_refuses_hostile_scores_plainly_and_stores_nothing(
    world, spoil, rng_scores, data
):
    """A POST for table 1, game 1, valid but for one spoiled field."""
    ids, names, scores = valid_game(world, 0, rng_scores)
    out = ids[0]
    post = {
        "game": "1",
        "base_version": "0",
        "engine": "12",
        f"out-{out}": "on",
        **{f"score-{pk}": str(v) for pk, v in scores.items()},
    }
    victim = data.draw(st.sampled_from(ids[1:]))  # not the player out: their 0 is a rule of its own
    expected: tuple[str, ...]
    if spoil.startswith("score "):
        expected = spoil_score(data, spoil, post, f"score-{victim}", names[victim])
    elif spoil == "engine":
        value, message = data.draw(
            st.one_of(
                st.integers(-(10**8), 10**9 - 1)
                .filter(lambda n: not 7 <= n <= 12)
                .map(lambda n: (str(n), "The engine must be a double from 12 down to 7.")),
                st.sampled_from(["13-13", "6/6", "0-0"]).map(
                    lambda v: (v, "The engine must be a double from 12 down to 7.")
                ),
                st.text(string.ascii_letters + "!?#", min_size=1, max_size=10).map(
                    lambda v: (v, "The engine must be a whole number, like 12 for double 12")
                ),
                st.just(("", "Enter the engine: the double that started this game, like 12.")),
                st.text("0123456789x", min_size=11, max_size=60).map(
                    lambda v: (v, "Ensure this value has at most 10 characters")
                ),
            )
        )
        post["engine"] = value
        expected = (message,)
    elif spoil == "outcome":
        how = data.draw(st.sampled_from(["two out", "nobody", "out and blocked"]))
        if how == "two out":
            post[f"out-{victim}"] = "on"
            post[f"score-{victim}"] = "0"
            expected = ("Two players went out in game 1: only one can.",)
        elif how == "nobody":
            del post[f"out-{out}"]
            post[f"score-{out}"] = "3"
            expected = ("Nobody went out in game 1: tap 'Blocked' if the boneyard ran out",)
        else:
            post["blocked"] = "on"
            expected = ("Game 1 cannot be both blocked and have a player go out",)
    elif spoil == "tiles":
        tiles, message = data.draw(
            st.sampled_from(
                [
                    ("13-13", "In {name}'s tiles: 13-13 is not a tile in a double-12 set."),
                    ("6-6 6-6", "6-6 is listed more than once in {name}'s tiles"),
                    (
                        "12-12",
                        "{name}'s tiles include 12-12, but double 12 was the engine in game 1",
                    ),
                    ("twelve", 'In {name}\'s tiles: "twelve" is not a tile.'),
                    ("9999-1", "In {name}'s tiles: 9999-1 is not a tile in a double-12 set."),
                ]
            )
        )
        post[f"score-{victim}"] = ""
        post[f"tiles-{victim}"] = tiles
        expected = (message.format(name=names[victim]),)
    elif spoil == "version":
        post["base_version"] = data.draw(
            st.one_of(
                st.integers(max_value=-1).map(str),
                # Django's whole-number field reads "+0.0" as 0, the page's own version.
                _words(max_size=20).filter(lambda s: not INTEGER_FIELD.fullmatch(s.strip())),
                st.just("1.5"),
                st.just(""),
            )
        )
        expected = ("This page is out of date: reload it and try again.",)
    else:  # fields the form does not have, aimed at another table, plus one bad score
        other = Entry.objects.get(player__name="Ed Poe").pk
        post[f"score-{other}"] = "5"
        post[f"out-{other}"] = "on"
        post[
            data.draw(
                st.text(string.ascii_lowercase + "-_", min_size=1, max_size=20).filter(
                    lambda k: (
                        k not in post
                        and k not in ("game", "engine", "blocked", "base_version")
                        and not k.startswith(("score-", "out-", "tiles-"))
                    )
                )
            )
        ] = "x"
        post[f"score-{victim}"] = "-1"
        expected = (f"{names[victim]}'s score cannot be negative.",)
    before = snapshot(*TOUCHABLE)
    url = reverse("scorekeeper:table", args=[world.tables[0].link_token])
    # A refused save redirects to its game's page (POST, redirect, GET), which shows it.
    response = Client().post(url, post, follow=True)
    assert response.redirect_chain == [(f"{url}?game=1", 302)]
    assert_refused(response, before, *expected, banner="Nothing was saved.")


@FUZZ
@given(
    game=st.one_of(
        st.integers(max_value=0), st.integers(min_value=7), _words(max_size=20), st.just("")
    ).map(str)
)
def test_a_tampered_game_number_on_the_phone_page_saves_nothing(world, game):
    """The hidden game field names no game of the day: the page starts again, storing nothing."""
    ids, _, scores = valid_game(world, 0, [5, 6, 7, 8, 9, 10])
    post = {
        "game": game,
        "base_version": "0",
        "engine": "12",
        f"out-{ids[0]}": "on",
        **{f"score-{pk}": str(v) for pk, v in scores.items()},
    }
    before = snapshot(*TOUCHABLE)
    url = reverse("scorekeeper:table", args=[world.tables[0].link_token])
    response = Client().post(url, post)
    assert response.status_code == 302 and response["Location"] == url
    assert snapshot(*TOUCHABLE) == before


# ---------------------------------------------------------------------------
# The desk card
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("spoil", [f"score {kind}" for kind in SCORE_KINDS] + ["out", "total"])
@FUZZ
@given(
    rng_scores=st.lists(
        st.lists(st.integers(1, 60), min_size=3, max_size=3), min_size=3, max_size=3
    ),
    played=st.integers(1, 3),
    data=st.data(),
)
def test_the_desk_card_refuses_hostile_values_and_saves_no_game_of_it(
    world, spoil, rng_scores, played, data
):
    """A card with several good games and one spoiled value: not even the good games are saved."""
    ids, names = table_seats(world, 0)
    post = {f"g{n}-base": "0" for n in range(1, 7)}  # the card posts every open game's version
    for n in range(1, played + 1):
        post.update(
            {f"g{n}-engine": str(13 - n), f"g{n}-out": str(ids[0]), f"g{n}-score-{ids[0]}": "0"}
        )
        for pk, value in zip(ids[1:], rng_scores[n - 1], strict=True):
            post[f"g{n}-score-{pk}"] = str(value)
    game = data.draw(st.integers(1, played))
    victim = data.draw(st.sampled_from(ids[1:]))
    if spoil.startswith("score "):
        expected = spoil_score(data, spoil, post, f"g{game}-score-{victim}", names[victim])
    elif spoil == "out":
        value, message = data.draw(
            st.one_of(
                _words(max_size=20)
                .filter(lambda v: v.strip().lower() != "blocked")
                .map(
                    lambda v: (
                        v,
                        "The player marked as going out in game {n} is not seated at this table.",
                    )
                ),
                st.just(
                    (
                        str(Entry.objects.get(player__name="Ed Poe").pk),
                        "The player marked as going out in game {n} is not seated at this table.",
                    )
                ),
                st.just(("", "Nobody went out in game {n}")),
                st.just(("blocked", "only the player who went out can score 0")),
            )
        )
        post[f"g{game}-out"] = value
        if value == "":
            # With nobody chosen, a lone 0 would say who went out (the card infers it).
            post[f"g{game}-score-{ids[0]}"] = "3"
        expected = (message.format(n=game),)
    else:
        right = sum(rng_scores[n - 1][ids[1:].index(victim)] for n in range(1, played + 1))
        value, message = data.draw(
            st.one_of(
                st.integers(0, 10**6)
                .filter(lambda v: v != right)
                .map(
                    lambda v: (
                        str(v),
                        f"{names[victim]}'s total says {v:,}, but {names[victim]}'s "
                        f"games add up to {right:,}.",
                    )
                ),
                st.integers(-(10**6), -1).map(
                    lambda v: (str(v), f"{names[victim]}'s total cannot be negative.")
                ),
                _words(max_size=20).map(
                    lambda v: (v, f"{names[victim]}'s total must be a whole number, like 0 or 123.")
                ),
            )
        )
        post[f"total-{victim}"] = value
        expected = (message,)
    client = Client()
    client.force_login(world.desk)
    before = snapshot(*TOUCHABLE)
    response = client.post(
        reverse("organiser:score_card", args=[world.tournament.slug, 1, 1]), post
    )
    assert_refused(response, before, *expected, banner="Nothing was saved.")


# ---------------------------------------------------------------------------
# The score workbook upload
# ---------------------------------------------------------------------------


def filled_day_workbook(world, games: int, rng_scores: list[int]) -> Workbook:
    """The day's exported workbook with ``games`` games filled in at both tables."""
    wb = load_workbook(io.BytesIO(workbook_export.export_day(world.day)))
    ws = wb.active
    first_row = {}
    position = 0
    for row in ws.iter_rows(min_row=2):
        table, game = row[1].value, row[2].value
        if game > games:
            continue
        is_first = (table, game) not in first_row
        first_row.setdefault((table, game), row[0].row)
        row[6].value = 0 if is_first else rng_scores[position % len(rng_scores)]
        row[7].value = "yes" if is_first else None
        position += 1
    return wb


def xlsx(wb: Workbook) -> bytes:
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def upload_scores(world, data: bytes, name="scores.xlsx"):
    client = Client()
    client.force_login(world.desk)
    upload = io.BytesIO(data)
    upload.name = name
    return client.post(
        reverse("organiser:upload_workbook", args=[world.tournament.slug]),
        {"file": upload, "reason": ""},
    )


def _data_rows(ws) -> list:
    return [row for row in ws.iter_rows(min_row=2) if row[6].value is not None]


def _row_name(row) -> str:
    return row[5].value


WORKBOOK_SPOILS = [f"score {kind}" for kind in CELL_SCORE_KINDS] + [
    "formula",
    "number",
    "out",
    "engine",
    "duplicate",
    "missing column",
    "extra column",
    "header",
    "wrong sheet",
]


@st.composite
def workbook_case(draw, world, spoil):
    games = draw(st.integers(1, 3))
    wb = filled_day_workbook(
        world, games, draw(st.lists(st.integers(1, 60), min_size=5, max_size=5))
    )
    ws = wb.active
    rows = _data_rows(ws)
    victims = [r for r in rows if r[7].value != "yes"]
    row = draw(st.sampled_from(victims))
    where = f"Row {row[0].row} (table {row[1].value}, game {row[2].value}): "
    if spoil.startswith("score "):
        value, *messages = draw(bad_score(spoil.split()[1]))
        cell_value = value
        if value.strip().lstrip("+-0").isdigit() and WHOLE.fullmatch(value.strip()):
            cell_value = int(value)  # a number cell, as a spreadsheet stores it
        elif draw(st.booleans()) and re.fullmatch(r"-?\d+\.\d+", value):
            cell_value = float(value)
        row[6].value = cell_value
        expected = (
            where + messages[0].format(name=_row_name(row)),
            *[m.format(name=_row_name(row)) for m in messages[1:]],
        )
    elif spoil == "formula":  # a formula cell has no value until a spreadsheet computes it
        row[6].value = draw(st.sampled_from(["=1+1", "=SUM(G2:G3)", '=HYPERLINK("http://x","y")']))
        expected = (where + f"Enter a score for {_row_name(row)}.",)
    elif spoil == "number":
        column, label = draw(
            st.sampled_from([(0, "Day"), (1, "Table"), (2, "Game"), (4, "Player ID")])
        )
        r = row[0].row
        value, message = draw(
            st.one_of(
                _words(max_size=20).map(
                    lambda v: (v, f'Row {r}: {label} must be a whole number (it says "{v}").')
                ),
                st.integers(-(10**6), 0).map(lambda v: (v, f"Row {r}: {label} must be 1 or more.")),
                # three decimals survive the trip through the file's text unchanged
                st.floats(0.01, 1000)
                .map(lambda v: round(v, 3))
                .filter(lambda v: not v.is_integer())
                .map(lambda v: (v, f'Row {r}: {label} must be a whole number (it says "{v}").')),
                st.integers(50, 10**6).map(
                    lambda v: (
                        v,
                        {
                            "Day": f"Row {r}: there is no day {v} in this tournament.",
                            "Table": f"Row {r}: there is no table {v} on day 1.",
                            "Game": f"Row {r}: there is no game {v} on day 1.",
                            "Player ID": f"Row {r}: there is no player with Player ID {v}.",
                        }[label],
                    )
                ),
            )
        )
        row[column].value = value
        expected = (message,)
    elif spoil == "out":
        value = draw(
            _words(max_size=20).filter(
                lambda v: " ".join(v.lower().split()) not in score_workbook.OUT_WORDS
            )
        )
        row[7].value = value
        expected = (
            f'Row {row[0].row}: Out must be "yes" for the player who went out, "blocked" for a '
            'game nobody went out of, "not played" for a game the table did not play, or left '
            f'blank (it says "{value}").',
        )
    elif spoil == "engine":
        row[3].value = draw(
            st.sampled_from([7, 8, 9, 10, 11, 12]).filter(lambda e: e != row[3].value)
        )
        expected = ("A game has one engine.",)
    elif spoil == "duplicate":
        ws.append([c.value for c in row])
        expected = (
            f"{_row_name(row)} is listed twice for table {row[1].value}, game "
            f"{row[2].value} (also row {row[0].row}).",
        )
    elif spoil in ("missing column", "extra column", "header"):
        # Without its last column (State) the file is one saved before State existed, and
        # reads: so a missing column is one of the others.
        last = len(score_workbook.HEADER) - (spoil == "missing column")
        column = draw(st.integers(1, last))
        if spoil == "missing column":
            ws.delete_cols(column)
        elif spoil == "extra column":
            ws.insert_cols(column)
            ws.cell(row=1, column=column).value = draw(
                _words(max_size=15).filter(lambda v: v.strip() != score_workbook.HEADER[column - 1])
            )
        else:
            ws.cell(row=1, column=column).value = draw(
                _words(max_size=15).filter(lambda v: v.strip() != score_workbook.HEADER[column - 1])
            )
        expected = (
            "Row 1: the columns must be Day, Table, Game, Engine, Player ID, Player, "
            "Score, Out, State (found",
        )
    else:  # the scores on a second sheet, a blank or a notes sheet first
        notes = wb.create_sheet(
            draw(_words(max_size=20).map(lambda v: re.sub(r"[\[\]:*?/\\]", "", v)[:31] or "Notes")),
            0,
        )
        if draw(st.booleans()):
            notes.append([draw(_words(max_size=30))])
            expected = ("Row 1: the columns must be Day, Table, Game",)
        else:
            expected = ("The sheet is empty: row 1 must hold the column names.",)
    return xlsx(wb), expected


@pytest.mark.parametrize("spoil", WORKBOOK_SPOILS)
@FUZZ
@given(data=st.data())
def test_the_workbook_upload_refuses_spoiled_workbooks_and_stores_nothing(world, spoil, data):
    content, expected = data.draw(workbook_case(world, spoil))
    before = snapshot(*TOUCHABLE)
    response = upload_scores(world, content)
    assert_refused(response, before, *expected, banner="Nothing was imported.")


def with_sheet_xml(good: bytes, change) -> bytes:
    """The same workbook, rezipped properly, with the first sheet's XML changed by ``change``."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(good)) as source, zipfile.ZipFile(out, "w") as target:
        for member in source.infolist():
            data = source.read(member.filename)
            if member.filename == "xl/worksheets/sheet1.xml":
                data = change(data)
            target.writestr(member, data)
    return out.getvalue()


@FILES
@given(
    cut=st.floats(0.0, 0.999),
    flips=st.lists(st.tuples(st.floats(0, 0.999), st.integers(1, 255)), max_size=5),
    how=st.sampled_from(["truncate", "flip", "sheet cut", "sheet text in a number"]),
    word=st.text(string.ascii_letters, min_size=1, max_size=8),
)
def test_a_damaged_workbook_is_refused_and_stores_nothing(world, cut, flips, how, word):
    """A good workbook cut short (a half-finished download), with bytes changed (a bad disk), or
    a sound zip around a damaged sheet (hand-edited XML: cut off, or text in a number cell)."""
    good = xlsx(filled_day_workbook(world, 2, [5, 6, 7, 8, 9]))
    if how == "truncate":
        bad = good[: int(len(good) * cut)]
    elif how == "flip":
        damaged = bytearray(good)
        for position, delta in flips or [(cut, 1)]:
            index = int(len(damaged) * position)
            damaged[index] = (damaged[index] + delta) % 256
        bad = bytes(damaged)
    elif how == "sheet cut":  # ends before the closing tag: never well-formed XML
        bad = with_sheet_xml(
            good, lambda xml: xml[: int(len(xml.rstrip()) * cut) if cut else len(xml) - 20]
        )
    else:  # the first score, a number cell, holding letters

        def letters_in_g2(xml):
            changed, count = re.subn(
                rb'(<c r="G2" t="n"[^>]*>)<v>[^<]*</v>',
                lambda m: m.group(1) + b"<v>" + word.encode() + b"</v>",
                xml,
            )
            assert count == 1, xml[:500]
            return changed

        bad = with_sheet_xml(good, letters_in_g2)
    before = snapshot(*TOUCHABLE)
    response = upload_scores(world, bad)
    if response.status_code == 302:
        # A changed byte that zip and XML both shrug off (a timestamp in a header, say) leaves
        # the same workbook, which may import as itself -- but only if it reads exactly as the
        # undamaged file does.
        assert score_workbook.read_rows(bad) == score_workbook.read_rows(good)
        return
    assert_refused(response, before, banner=("Nothing was imported.", EMPTY_UPLOAD))
    if not bad:  # an empty upload is the form's to refuse; the import never sees it
        assert EMPTY_UPLOAD in text_of(response)
        return
    # Which words a damaged file earns depends on where the damage fell, so the premise is not a
    # list of messages but the kind of answer: the import's own refusal, in plain sentences, each
    # one shown on the page, and still nothing stored.
    with pytest.raises(score_workbook.WorkbookRefused) as refused:
        score_workbook.import_workbook(world.tournament, bad, user=world.desk, reason="")
    assert refused.value.lines, "a refusal must say why"
    for line in refused.value.lines:
        assert_plain_sentence(line)
        assert " ".join(line.split()) in text_of(response), (line, text_of(response)[:3000])
    assert snapshot(*TOUCHABLE) == before


@FILES
@given(junk=st.binary(max_size=4096))
def test_random_bytes_and_encrypted_workbooks_are_refused(world, junk):
    before = snapshot(*TOUCHABLE)
    for content in (junk, OLE_HEADER + junk):
        message = (
            LOCKED_OR_OLD_EXCEL if content.startswith(OLE_HEADER) else score_workbook.NOT_A_WORKBOOK
        )
        response = upload_scores(world, content)
        if content:
            assert_refused(response, before, message, banner="Nothing was imported.")
        else:
            assert_refused(response, before, banner=EMPTY_UPLOAD)


@cache
def zip_bomb(size: int = 60 * 1024 * 1024) -> bytes:
    """A real zip whose sheet unpacks to ``size`` zero bytes (about 60 KB packed)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/workbook.xml", "<workbook/>")
        with archive.open("xl/worksheets/sheet1.xml", "w") as member:
            chunk = b"\0" * (1024 * 1024)
            for _ in range(size // len(chunk)):
                member.write(chunk)
    return out.getvalue()


def lying_zip_bomb() -> bytes:
    """The same bomb, but its headers claim the sheet is 1 KB: the size check alone passes it."""
    data = bytearray(zip_bomb())
    name = b"xl/worksheets/sheet1.xml"
    for signature, size_at in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        start = 0
        while (start := data.find(signature, start)) != -1:
            name_at = start + (30 if signature == b"PK\x03\x04" else 46)
            if data[name_at : name_at + len(name)] == name:
                data[start + size_at : start + size_at + 4] = (1024).to_bytes(4, "little")
            start += 4
    return bytes(data)


def test_zip_bombs_are_refused_without_unpacking(world):
    before = snapshot(*TOUCHABLE)
    response = upload_scores(world, zip_bomb())
    assert_refused(
        response,
        before,
        "This file would unpack to 60 MB, far more than a score "
        "workbook holds, so it was not opened.",
        banner="Nothing was imported.",
    )
    response = upload_scores(world, lying_zip_bomb())
    assert_refused(response, before, score_workbook.NOT_A_WORKBOOK, banner="Nothing was imported.")


def sparse_sheet(header, last_row: int) -> bytes:
    """A few kilobytes whose sheet reaches column XFD (16,384 columns) and row ``last_row``."""
    wb = Workbook()
    wb.active.append(header)
    for row in range(2, last_row + 1, max(1, last_row // 300)):
        wb.active.cell(row=row, column=16384).value = 1
    wb.active.cell(row=last_row, column=16384).value = 1
    return xlsx(wb)


@pytest.fixture
def sheet_reads(monkeypatch):
    """Counts the work an upload does on a read-only sheet: every row openpyxl hands back (the
    empty rows it fills in for a sparse sheet among them) and the widest of them. Counting, not
    timing: a busy machine cannot make it pass or fail."""
    reads = SimpleNamespace(rows=0, widest=0)
    iter_rows = ReadOnlyWorksheet.iter_rows

    def counted(self, *args, **kwargs):
        for row in iter_rows(self, *args, **kwargs):
            reads.rows += 1
            reads.widest = max(reads.widest, len(row))
            yield row

    monkeypatch.setattr(ReadOnlyWorksheet, "iter_rows", counted)
    return reads


# A reader stops on the first row past its cap: the header and one row more than the cap.
ROW_SLACK = 2


@pytest.mark.parametrize(
    "last_row, message",
    [
        (19_000, "The file has no players below the header row."),
        (30_000, "The sheet has more than 20,000 rows: is it the player list?"),
    ],
)
def test_a_tiny_player_file_claiming_a_huge_sheet_is_refused_quickly(
    event, sheet_reads, last_row, message
):
    """Reading every cell such a sheet claims took 20 s and gigabytes: only what a player list
    can use is read."""
    tournament, client = event
    content = sparse_sheet(["Name", "Club"], last_row)
    assert len(content) < 50_000
    before = snapshot(*TOUCHABLE)
    response = upload_players(client, tournament, content, "players.xlsx")
    assert_refused(response, before, message, banner="Nothing was imported")
    assert 0 < sheet_reads.rows <= min(last_row, MAX_SHEET_ROWS + ROW_SLACK), sheet_reads
    assert 0 < sheet_reads.widest <= player_import.MAX_COLUMNS, sheet_reads  # not 16,384


@pytest.mark.parametrize("rows", [20_001, 100_000])
def test_a_csv_player_file_over_the_row_cap_is_refused_before_the_write_lock(
    event, monkeypatch, rows
):
    """A CSV had no cap: 882k rows held the write lock for 14 s and ended in a 500. It has the
    workbook's cap now, and the file is read and checked before any transaction opens."""
    from tournaments.services import importing

    def no_lock(tournament):
        raise AssertionError("the import locked the event before the file was checked")

    monkeypatch.setattr(importing, "lock_tournament", no_lock)
    tournament, client = event
    content = csv_bytes([["Name", "Club"]] + [[f"Player {n}", "Club"] for n in range(rows)])
    before = snapshot(*TOUCHABLE)
    response = upload_players(client, tournament, content, "players.csv")
    assert_refused(
        response,
        before,
        "The sheet has more than 20,000 rows: is it the player list?",
        banner="Nothing was imported",
    )


def test_a_big_player_file_is_written_in_a_few_bulk_queries(event, django_assert_max_num_queries):
    from tournaments.access import COMMAND_LINE
    from tournaments.services.importing import import_players

    tournament, _ = event
    content = csv_bytes([["Name", "Club"]] + [[f"Player {n}", "Club"] for n in range(3_000)])
    # Bulk inserts in the database's batches: a few dozen queries, not two per player.
    with django_assert_max_num_queries(100):
        outcome = import_players(tournament, content, "players.csv", user=COMMAND_LINE)
    assert len(outcome.entries) == 3_000
    numbers = list(tournament.entries.order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, 3_002))


def test_a_tiny_workbook_claiming_a_huge_sheet_is_refused_quickly(world, sheet_reads):
    content = sparse_sheet(score_workbook.HEADER, 30_000)
    before = snapshot(*TOUCHABLE)
    response = upload_scores(world, content)
    assert_refused(
        response,
        before,
        "The sheet has more than 20,000 rows: is it the right file?",
        banner="Nothing was imported.",
    )
    assert 0 < sheet_reads.rows <= MAX_SHEET_ROWS + ROW_SLACK, sheet_reads
    assert 0 < sheet_reads.widest <= len(score_workbook.HEADER), sheet_reads  # not 16,384


def fifty_megabytes() -> io.BytesIO:
    upload = io.BytesIO(b"PK\x03\x04" + b"\0" * (50 * 1024 * 1024))
    upload.name = "huge.xlsx"
    return upload


@pytest.fixture
def never_read(monkeypatch):
    """An upload big enough to spill to a temporary file must be refused from its size alone."""

    def refuse(self):
        raise AssertionError("the view read a file it should have refused by its size")

    monkeypatch.setattr(TemporaryUploadedFile, "read", property(refuse), raising=False)


def test_a_file_a_little_too_big_is_refused_by_the_form_with_its_size(world):
    limit = django_settings.UPLOAD_MAX_BYTES / 1_048_576
    client = Client()
    client.force_login(world.boss)
    before = snapshot(*TOUCHABLE)
    for url, banner in (
        (
            reverse("organiser:upload_workbook", args=[world.tournament.slug]),
            "Upload a score workbook",
        ),
        (reverse("organiser:import_players", args=[world.tournament.slug]), "Import players"),
    ):
        seven = SimpleUploadedFile("big.xlsx", b"\0" * (7 * 1024 * 1024))
        response = client.post(url, {"file": seven, "reason": ""})
        assert_refused(
            response,
            before,
            f"The file is 7.0 MB; the largest file accepted is {limit:.1f} MB.",
            banner=banner,
        )


def test_a_50_mb_upload_is_refused_by_its_size_without_being_read(world, never_read):
    client = Client()
    client.force_login(world.boss)
    before = snapshot(*TOUCHABLE)
    for url in (
        reverse("organiser:upload_workbook", args=[world.tournament.slug]),
        reverse("organiser:import_players", args=[world.tournament.slug]),
    ):
        response = client.post(url, {"file": fifty_megabytes(), "reason": ""})
        assert response.status_code == 413
        assert "nothing was stored" in response.content.decode()
    # A 50 MB body that is not a file upload: refused from its length before any view runs.
    response = Client().post(
        reverse("scorekeeper:table", args=[world.tables[0].link_token]),
        {"score-1": "1" * (50 * 1024 * 1024)},
    )
    assert response.status_code == 413
    assert snapshot(*TOUCHABLE) == before


# ---------------------------------------------------------------------------
# The player list upload
# ---------------------------------------------------------------------------

NAME_CHARS = string.ascii_letters + "àéîõüßñçÅØ'- "


def _name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


@st.composite
def player_rows(draw):
    names = draw(
        st.lists(
            st.text(NAME_CHARS, min_size=1, max_size=30)
            .map(lambda s: " ".join(s.split()))
            .filter(lambda s: s and s[0] not in "'-"),
            min_size=2,
            max_size=15,
            unique_by=_name_key,
        ).filter(lambda ns: "existing one" not in {_name_key(n) for n in ns})
    )
    clubs = draw(
        st.lists(
            st.text(string.ascii_letters + " ", max_size=20),
            min_size=len(names),
            max_size=len(names),
        )
    )
    return [[name, " ".join(club.split()), "", ""] for name, club in zip(names, clubs, strict=True)]


def player_file(header, rows, fmt):
    if fmt == "csv":
        return csv_bytes([header, *rows]), "players.csv"
    return xlsx_bytes([header, *rows]), "players.xlsx"


def upload_players(client, tournament, content: bytes, name: str):
    upload = io.BytesIO(content)
    upload.name = name
    return client.post(
        reverse("organiser:import_players", args=[tournament.slug]), {"file": upload}
    )


@pytest.fixture
def event(make_tournament, organiser_client):
    tournament = make_tournament(slug="import-fuzz")
    register_player(tournament, name="Existing One")  # player #1: re-importing them is refused
    return tournament, organiser_client


PLAYER_SPOILS = [
    "blank name",
    "long name",
    "duplicate",
    "existing",
    "long club",
    "table words",
    "table negative",
    "table decimal",
    "table zero",
    "table too high",
    "table thousands of digits",
    "keep apart",
    "keep apart self",
    "no name column",
    "two name columns",
    "wrong sheet",
]


@pytest.mark.parametrize("spoil", PLAYER_SPOILS)
@FUZZ
@given(rows=player_rows(), fmt=st.sampled_from(["csv", "xlsx"]), data=st.data())
def test_the_player_upload_refuses_spoiled_lists_and_imports_nobody(event, spoil, rows, fmt, data):
    tournament, client = event
    header = ["Name", "Club", "Keep apart", "Table"]
    # Extra columns are ignored by design; they ride along with the real problem.
    extra = data.draw(
        st.lists(
            st.text(string.ascii_letters, min_size=1, max_size=10).filter(
                lambda v: (
                    v.strip().lower() not in {"name", "club", "keep apart", "keepapart", "table"}
                )
            ),
            max_size=2,
        )
    )
    header += extra
    rows = [
        row + [data.draw(st.text(string.ascii_letters + "0123456789 ", max_size=10)) for _ in extra]
        for row in rows
    ]
    index = data.draw(st.integers(0, len(rows) - 1))
    row_number = index + 2
    tables = -(-(len(rows) + 1) // 7)
    if spoil == "blank name":
        rows[index][0] = data.draw(st.sampled_from(["", " ", "   "]))
        rows[index][1] = rows[index][1] or "Some Club"  # the row is not empty, only the name
        expected = ("The name is missing.",)
    elif spoil == "long name":
        rows[index][0] = "N" + "a" * data.draw(st.integers(NAME_MAX, 5000))
        expected = (f"The name is longer than {NAME_MAX} letters.",)
    elif spoil == "duplicate":
        rows.append(list(rows[index]))
        rows[-1][0] = data.draw(st.sampled_from([str.upper, str.lower, lambda s: s + "  "]))(
            rows[index][0]
        )
        expected = (f"is also on row {row_number}.",)
    elif spoil == "existing":
        rows[index][0] = data.draw(
            st.sampled_from(["Existing One", "existing one", " EXISTING  ONE "])
        )
        expected = ("is already entered in this event as player #1.",)
    elif spoil == "long club":
        rows[index][1] = "C" + "x" * data.draw(st.integers(120, 3000))
        expected = ("The club is longer than 120 letters.",)
    elif spoil.startswith("table "):
        value, message = data.draw(
            {
                "table words": _words(max_size=20)
                .filter(  # "Table 3", "3.0", "٣" are tables
                    lambda v: (
                        not v.strip().lower().startswith("table")
                        and not re.fullmatch(r"\d+(\.0*)?", v.strip())
                    )
                )
                .map(lambda v: (v, f'Table "{" ".join(v.split())}" is not a table number.')),
                "table negative": st.integers(-(10**6), -1).map(
                    lambda v: (str(v), f'Table "{v}" is not a table number.')
                ),
                "table decimal": st.decimals(0, 50, places=2)
                .filter(lambda d: d != d.to_integral_value())
                .map(lambda v: (str(v), f'Table "{v}" is not a table number.')),
                "table zero": st.sampled_from(["0", "00", "0.0"]).map(
                    lambda v: (v, "Table numbers start at 1.")
                ),
                "table too high": st.integers(tables + 1, 10**9 - 1).map(
                    lambda v: (str(v), f"Table {v} does not exist")
                ),
                # int() refuses more than 4,300 digits: this used to be a server error
                "table thousands of digits": st.integers(10, 20000).map(
                    lambda n: ("9" * n, "is not a table number.")
                ),
            }[spoil]
        )
        rows[index][3] = value
        expected = (message,)
    elif spoil == "keep apart":
        rows[index][2] = data.draw(
            st.text(string.ascii_letters, min_size=1, max_size=20).filter(
                lambda v: _name_key(v) not in {_name_key(r[0]) for r in rows} | {"existing one"}
            )
        )
        expected = (
            f'Keep apart names "{rows[index][2]}", who is not in this file or in this event.',
        )
    elif spoil == "keep apart self":
        rows[index][2] = rows[index][0].upper()
        expected = (f"{rows[index][0]} cannot be kept apart from themself.",)
    elif spoil == "no name column":
        header[0] = data.draw(st.sampled_from(["Nom", "Player", "", "Names", "Nmae"]))
        expected = (
            "The first row must hold the column names, and one of them must be Name (or First "
            "name and Last name).",
            "The columns found are",
        )
    elif spoil == "two name columns":
        header.append(data.draw(st.sampled_from(["Name", "NAME", " name "])))
        rows = [[*row, "x"] for row in rows]
        expected = ("columns; keep only one.",)
    else:
        fmt = "xlsx"
        wb = Workbook()
        wb.active.title = "Notes"
        players = wb.create_sheet("Players")
        for row in [header, *rows]:
            players.append(row)
        content, name = xlsx(wb), "players.xlsx"
        expected = ("The file is empty.",)
    if spoil != "wrong sheet":
        content, name = player_file(header, rows, fmt)
    before = snapshot(*TOUCHABLE)
    response = upload_players(client, tournament, content, name)
    assert_refused(response, before, *expected, banner="Nothing was imported")


@FILES
@given(
    junk=st.binary(max_size=4096).filter(lambda b: b"name" not in b.lower()),
    name=st.sampled_from(["players.csv", "players.xlsx", "players.xls", "players.txt", "players"]),
)
def test_random_and_encrypted_player_files_are_refused(event, junk, name):
    tournament, client = event
    before = snapshot(*TOUCHABLE)
    encrypted = (
        "This is an old Excel file (.xls). Save it as .xlsx or .csv and try again."
        if name.endswith(".xls")
        else "This file is protected by a password, or is an old Excel file (.xls). Remove "
        "the password, save it as .xlsx or .csv and try again."
    )
    for content, message in (
        (junk, None),
        (OLE_HEADER + junk, encrypted),
        (b"PK\x03\x04" + junk, NOT_A_SPREADSHEET),
    ):
        response = upload_players(client, tournament, content, name)
        if not content:
            assert_refused(response, before, banner=EMPTY_UPLOAD)
            continue
        expected = (message,) if message else ()
        assert_refused(response, before, *expected, banner="Nothing was imported")
        if message is None:  # whatever the bytes, the page says what is wrong with the file
            assert any(
                m in text_of(response)
                for m in (
                    NOT_A_SPREADSHEET,
                    "The file is empty.",
                    "must be Name",
                    "The file has no players",
                    "is an old Excel file (.xls)",
                )
            )


@FILES
@given(cut=st.floats(0.0, 0.98))
def test_a_truncated_player_workbook_is_refused(event, cut):
    tournament, client = event
    good, _ = player_file(["Name", "Club"], [[f"Player {i}", "Club"] for i in range(30)], "xlsx")
    before = snapshot(*TOUCHABLE)
    response = upload_players(client, tournament, good[: int(len(good) * cut)], "players.xlsx")
    assert_refused(response, before, banner=("Nothing was imported", EMPTY_UPLOAD))
    assert any(m in text_of(response) for m in (NOT_A_SPREADSHEET, EMPTY_UPLOAD))


def test_a_player_zip_bomb_is_refused_without_unpacking(event):
    tournament, client = event
    before = snapshot(*TOUCHABLE)
    response = upload_players(client, tournament, zip_bomb(), "players.xlsx")
    assert_refused(
        response,
        before,
        "This file would unpack to 60 MB, far more than a player list holds, so it was not opened.",
        banner="Nothing was imported",
    )
    response = upload_players(client, tournament, lying_zip_bomb(), "players.xlsx")
    assert_refused(response, before, NOT_A_SPREADSHEET, banner="Nothing was imported")


def wide_first_row(cells: int = 5_000) -> bytes:
    """A small workbook whose first row holds ``cells`` cells (a 2.3 MB file held 2.3 million,
    all parsed before the header could be checked)."""
    import zipfile

    plain = io.BytesIO()
    Workbook().save(plain)
    row = "".join(f'<c r="A1" s="{n * 7919 % 100_003}"/>' for n in range(cells))
    sheet = (
        '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/'
        f'spreadsheetml/2006/main"><sheetData><row r="1">{row}</row></sheetData></worksheet>'
    ).encode()
    source = zipfile.ZipFile(io.BytesIO(plain.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for member in source.infolist():
            body = sheet if member.filename == "xl/worksheets/sheet1.xml" else source.read(member)
            target.writestr(member.filename, body)
    return out.getvalue()


def test_a_row_of_thousands_of_cells_is_refused_before_it_is_parsed(world, event, monkeypatch):
    import openpyxl

    monkeypatch.setattr(openpyxl, "load_workbook", lambda *a, **k: pytest.fail("parsed"))
    before = snapshot(*TOUCHABLE)
    response = upload_scores(world, wide_first_row())
    assert_refused(
        response,
        before,
        "A row of this file has more than 1,000 cells",
        banner="Nothing was imported.",
    )
    tournament, client = event
    response = upload_players(client, tournament, wide_first_row(), "players.xlsx")
    assert_refused(
        response,
        before,
        "far more than a player list holds, so it was not read.",
        banner="Nothing was imported",
    )
