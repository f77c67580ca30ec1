"""The season standings read: sessions from each event's own counting, a fixed number of
queries, the rankings by best N and by average, the downloads and the command."""

import io
from fractions import Fraction

import openpyxl
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from pypdf import PdfReader
from season_factories import club_session, people, season_of

from standings.seasons.read import player_season, season_standings
from standings.seasons.report import season_report
from tournaments.models import Entry, Season, SeasonEvent

pytestmark = pytest.mark.django_db

FOUR = ("Ann Lee", "Bob Roe", "Cy Doe", "Di Fox")


def three_week_season(best_of=None):
    """Three weekly sessions. Ann plays all three, Bob two, Cy and Di one each."""
    who = people(*FOUR, club="Elks")
    week1 = club_session(
        "week-1",
        [["Ann Lee", "Bob Roe", "Cy Doe"]],
        who,
        scores=[[{"Ann Lee": 10, "Bob Roe": 20, "Cy Doe": 5}, {"Ann Lee": 4, "Bob Roe": 0}]],
    )
    week2 = club_session(
        "week-2",
        [["Ann Lee", "Bob Roe", "Di Fox"]],
        who,
        scores=[[{"Ann Lee": 30, "Bob Roe": 2, "Di Fox": 1}]],
    )
    week3 = club_session(
        "week-3", [["Ann Lee", "Di Fox"]], who, scores=[[{"Ann Lee": 6, "Di Fox": 60}]]
    )
    return season_of("spring", week1, week2, week3, best_of=best_of), (week1, week2, week3), who


def by_name(result):
    return {row.player.name: row for row in result.rows}


def test_sessions_follow_the_player_across_events_and_rank_by_average():
    season, _, _ = three_week_season()
    result = season_standings(season)
    assert [s.label for s in result.sessions] == ["Week 1", "Week 2", "Week 3"]
    rows = by_name(result)
    # Ann: 14 in 2 games, 30 in 1, 6 in 1 -> 50 in 4 games.
    ann = rows["Ann Lee"]
    assert (ann.attended, ann.games, ann.total, ann.average) == (3, 4, 50, Fraction(25, 2))
    assert ann.attendance == "3 of 3"
    assert (rows["Bob Roe"].total, rows["Bob Roe"].games) == (22, 3)
    assert rows["Di Fox"].attendance == "2 of 3"
    # Averages: Cy 5, Bob 22/3, Ann 12.5, Di 61/2.
    assert [r.player.name for r in result.rows] == ["Cy Doe", "Bob Roe", "Ann Lee", "Di Fox"]
    assert [r.rank for r in result.rows] == [1, 2, 3, 4]
    assert result.rule == "Ranked by average per game"


def test_best_of_ranks_only_players_with_enough_sessions():
    season, _, _ = three_week_season(best_of=2)
    result = season_standings(season)
    rows = by_name(result)
    # Ann's best two: 6 (week 3) and 14 (week 1).
    assert rows["Ann Lee"].best_total == 20 and rows["Ann Lee"].best_sessions == (0, 2)
    assert rows["Bob Roe"].best_total == 22
    assert rows["Di Fox"].best_total == 61
    assert [(r.player.name, r.rank) for r in result.rows] == [
        ("Ann Lee", 1),
        ("Bob Roe", 2),
        ("Di Fox", 3),
        ("Cy Doe", None),
    ]
    assert result.rule == "Ranked by the best 2 of 3 sessions"


def test_a_game_not_confirmed_does_not_count_and_a_withdrawal_drops_that_event():
    season, (_week1, week2, _), _ = three_week_season()
    Entry.objects.filter(pk=week2.entries["Bob Roe"].pk).update(status=Entry.WITHDRAWN)
    rows = by_name(season_standings(season))
    assert (rows["Bob Roe"].attended, rows["Bob Roe"].total) == (1, 20)


def test_the_read_is_a_fixed_number_of_queries_whatever_the_events():
    season, _, who = three_week_season()
    season = Season.objects.get(pk=season.pk)
    with CaptureQueriesContext(connection) as three:
        season_standings(season)
    from tournaments.services.seasons import add_events

    more = [
        club_session(f"week-{n}", [["Ann Lee", "Bob Roe"]], who, scores=[[{"Ann Lee": n}]])
        for n in range(4, 9)
    ]
    add_events(season, [m.event.slug for m in more])
    with CaptureQueriesContext(connection) as eight:
        result = season_standings(season)
    assert len(result.sessions) == 8
    # Events, sessions, scores, entries, substitutes (the club session allows them).
    assert len(eight) == len(three) == 5


def test_unplayed_games_count_as_the_event_says():
    from scoring.models import UnplayedGame

    who = people("Ann Lee", "Bob Roe")
    week = club_session(
        "avg-week",
        [["Ann Lee", "Bob Roe"]],
        who,
        scores=[[{"Ann Lee": 10, "Bob Roe": 3}, {"Ann Lee": 20, "Bob Roe": 5}]],
    )
    rules = week.event.rules
    rules.unplayed_counts = "average"
    rules.save()
    UnplayedGame.objects.create(
        table=week.tables[0], game=week.games[3], reason="time", marked_at=timezone.now()
    )
    season = season_of("avg", week)
    from standings.read import standings

    event_rows = {r.record.name: r.total for r in standings(week.event).rows}
    rows = by_name(season_standings(season))
    # The season's session total is the event's own day total (15 of credit for Ann).
    assert rows["Ann Lee"].total == event_rows["Ann Lee"] == 45
    assert rows["Bob Roe"].total == event_rows["Bob Roe"]


def test_player_season_lists_every_session_with_table():
    season, _, who = three_week_season(best_of=2)
    result = season_standings(season)
    lines = player_season(result, who["Bob Roe"].pk)
    assert [(p.table, p.total, p.games, p.counted_in_best) for p in lines] == [
        (1, 20, 2, True),
        (1, 2, 1, True),
        (None, None, 0, False),
    ]
    assert player_season(result, 10**9) is None


def test_pdf_and_workbook_headings_and_a_row():
    season, _, _ = three_week_season(best_of=2)
    report = season_report(season_standings(season))
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(report.as_pdf())).pages)
    assert "Season standings" in text
    assert "Ranked by the best 2 of 3 sessions" in text
    assert "Best 2" in text and "Ann Lee" in text
    book = openpyxl.load_workbook(io.BytesIO(report.as_xlsx()))
    assert book.sheetnames == ["Season", "Sessions", "Events"]
    sheet = book["Season"]
    header = [c.value for c in sheet[1]]
    assert header[:5] == ["Rank", "Player ID (all events)", "Player", "Club", "Sessions (of 3)"]
    assert header[5:8] == ["Week 1", "Week 2", "Week 3"]
    first = dict(zip(header, [c.value for c in sheet[2]], strict=True))
    assert first["Player"] == "Ann Lee" and first["Rank"] == 1 and first["Best 2"] == 20
    assert first["Week 2"] == 30 and first["Average per game"] == 12.5
    cy = next(row for row in sheet.iter_rows(values_only=True) if row[2] == "Cy Doe")
    assert cy[0] is None  # fewer sessions than best-of: no rank


def test_command_creates_adds_and_prints(tmp_path):
    who = people("Ann Lee", "Bob Roe")
    club_session("w1", [["Ann Lee", "Bob Roe"]], who, scores=[[{"Ann Lee": 3, "Bob Roe": 9}]])
    club_session("w2", [["Ann Lee", "Bob Roe"]], who, scores=[[{"Ann Lee": 8, "Bob Roe": 1}]])
    out = io.StringIO()
    call_command("season", "create", "fall", "--name", "Fall season", "--best-of", "1", stdout=out)
    call_command("season", "add", "fall", "w2", stdout=out)
    call_command("season", "add", "fall", "w1", "--position", "1", stdout=out)
    assert list(
        SeasonEvent.objects.order_by("position").values_list("tournament__slug", flat=True)
    ) == ["w1", "w2"]
    pdf, xlsx = tmp_path / "s.pdf", tmp_path / "s.xlsx"
    out = io.StringIO()
    call_command("season", "standings", "fall", "--pdf", str(pdf), "--xlsx", str(xlsx), stdout=out)
    printed = out.getvalue()
    assert "Ranked by the best 1 of 2 sessions" in printed
    lines = printed.splitlines()
    header = next(line for line in lines if line.startswith("Rank "))
    assert header.split()[:4] == ["Rank", "Player", "Club", "Sessions"]
    # Bob's best single session is 1, Ann's 3.
    body = lines[lines.index(header) + 1 : lines.index(header) + 3]
    assert body[0].split()[:3] == ["1", "Bob", "Roe"] and body[1].split()[:3] == ["2", "Ann", "Lee"]
    assert pdf.read_bytes().startswith(b"%PDF") and xlsx.stat().st_size > 0
    call_command("season", "remove", "fall", "w1", stdout=out)
    assert list(SeasonEvent.objects.values_list("tournament__slug", "position")) == [("w2", 1)]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["standings", "nope"], 'There is no season with the slug "nope".'),
        (["add", "nope", "w1"], 'There is no season with the slug "nope".'),
        (["add", "fall", "nope"], 'There is no tournament with the slug "nope".'),
        (["add", "fall", "w1", "w1"], "one is named twice"),
        (["add", "fall", "w1"], "already in Fall (event 2)"),
        (["add", "other", "w1"], "already in the season Fall"),
        (["add", "fall", "w2", "--position", "5"], "the position must be 1 to 3"),
        (["remove", "fall", "w2"], 'Fall has no event with the slug "w2"'),
        (["create", "fall", "--name", "Again"], "cannot be used for a new season"),
        (["create", "bad slug", "--name", "X"], "cannot be part of a web address"),
        (["create", "new", "--name", "  "], "Give the season a name"),
        (["create", "new", "--name", "X", "--best-of", "0"], "Best of 0 sessions"),
        (
            ["create", "new", "--name", "X", "--best-of", "40000"],
            "Best of 40000 sessions is more than a season holds",
        ),
    ],
)
def test_command_refusals_change_nothing(args, message):
    who = people("Ann Lee", "Bob Roe")
    club_session("w1", [["Ann Lee", "Bob Roe"]], who)
    club_session("w2", [["Ann Lee", "Bob Roe"]], who)
    season_of("fall", club_session("w0", [["Ann Lee", "Bob Roe"]], who))
    call_command("season", "add", "fall", "w1", stdout=io.StringIO())
    season_of("other")
    before = (
        list(Season.objects.order_by("pk").values()),
        list(SeasonEvent.objects.order_by("pk").values()),
    )
    with pytest.raises(CommandError) as error:
        call_command("season", *args, stdout=io.StringIO())
    assert message in str(error.value)
    after = (
        list(Season.objects.order_by("pk").values()),
        list(SeasonEvent.objects.order_by("pk").values()),
    )
    assert after == before


@pytest.mark.parametrize("rule", ["not_ranked", "own", "shared"])
def test_a_session_counts_what_the_events_standings_count(rule):
    """Late player, withdrawal and substitute: each player the event ranks has the event's own
    total and games as a session; the unranked (withdrawn, unranked substitute) have none, and
    neither has the late player whose table has not played a game since he came."""
    from scoring_factories import club_session_with_a_late_player_and_a_substitute

    from standings.read import standings

    w, *_ = club_session_with_a_late_player_and_a_substitute()
    rules = w.tournament.rules
    rules.substitute_ranking = rule
    rules.save()
    season = season_of("with-subs")
    from tournaments.services.seasons import add_events

    add_events(season, [w.tournament.slug])
    event = {
        r.record.name: (r.total, r.record.games_played)
        for r in standings(w.tournament).rows
        if r.rank is not None and r.record.games_played  # no game yet: no session
    }
    season_rows = {r.player.name: (r.total, r.games) for r in season_standings(season).rows}
    assert season_rows == event
    assert ("Bob Roe" in season_rows) == (rule == "shared")
    assert ("Sam Sub" in season_rows) == (rule == "own")


def test_a_two_day_event_is_two_sessions():
    who = people(*FOUR)
    cup = club_session(
        "cup", [list(FOUR)], who, preset="tournament", scores=[[{"Ann Lee": 9, "Bob Roe": 2}]]
    )
    day2 = cup.event.days.get(number=2)
    from scoring_factories import seat_tables, stored_sheet

    games, tables = seat_tables(day2, [[cup.entries[n] for n in FOUR]])
    stored_sheet(tables[0], games[1], {cup.entries["Ann Lee"]: 4})
    week = club_session(
        "week", [["Ann Lee", "Bob Roe"]], who, scores=[[{"Ann Lee": 1, "Bob Roe": 4}]]
    )
    result = season_standings(season_of("mixed", cup, week, best_of=2))
    assert [s.label for s in result.sessions] == ["Cup, day 1", "Cup, day 2", "Week"]
    ann = by_name(result)["Ann Lee"]
    assert (ann.attendance, ann.best_total, ann.best_sessions) == ("3 of 3", 5, (1, 2))


def test_status_says_how_many_games_are_still_waiting_and_where():
    season, (week1, week2, week3), _ = three_week_season()
    # A club session plays 12 games at each table: 2, 1 and 1 of them are confirmed.
    result = season_standings(season)
    assert [s.waiting for s in result.sessions] == [10, 11, 11]
    assert (
        result.status_line
        == "Provisional: 32 games still to play or confirm (Week 1, Week 2, Week 3)"
    )
    for week in (week1, week2, week3):
        rules = week.event.rules
        rules.games_per_day = 2 if week is week1 else 1
        rules.engine_order = []
        rules.save()
    assert season_standings(season).status_line == "Every game so far is confirmed"


def test_season_pdf_embeds_its_fonts_and_names_title_author_and_language():
    from readback import font_embedding

    season, _, _ = three_week_season(best_of=2)
    Season.objects.filter(pk=season.pk).update(name="Spring Élan")
    reader = PdfReader(io.BytesIO(season_report(season_standings(Season.objects.get())).as_pdf()))
    fonts = font_embedding(reader)
    assert fonts and all(fonts.values()) and not any("Helvetica" in f for f in fonts)
    assert reader.metadata.title == "Spring Élan: Season standings"
    assert reader.metadata.author == "Spring Élan"
    assert reader.trailer["/Root"]["/Lang"] == "en"
    assert "Spring Élan" in reader.pages[0].extract_text()


def test_sessions_are_in_date_order_whatever_order_the_events_were_added():
    """April's session added before March's: the season reads March first (an event with no
    date after the dated ones), and a player's club is the one of their latest session, not of
    whichever event was added last."""
    who = people("Ann Lee", "Bob Roe", club="Elks")
    april = club_session(
        "april", [["Ann Lee", "Bob Roe"]], who, scores=[[{"Ann Lee": 5, "Bob Roe": 3}]]
    )
    march = club_session(
        "march", [["Ann Lee", "Bob Roe"]], who, scores=[[{"Ann Lee": 9, "Bob Roe": 2}]]
    )
    undated = club_session(
        "undated", [["Ann Lee", "Bob Roe"]], who, scores=[[{"Ann Lee": 1, "Bob Roe": 4}]]
    )
    for session, day in ((april, "2026-04-07"), (march, "2026-03-03")):
        session.day.date = day
        session.day.save(update_fields=["date"])
    for session in (april, undated):
        session.entries["Ann Lee"].club = "Moose Lodge"
        session.entries["Ann Lee"].save(update_fields=["club"])
    season = season_of("spring", undated, april, march)

    result = season_standings(season)
    assert [s.label for s in result.sessions] == ["March", "April", "Undated"]
    assert by_name(result)["Ann Lee"].player.club == "Moose Lodge"
    assert by_name(result)["Bob Roe"].player.club == "Elks"
