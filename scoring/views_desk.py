"""Organiser and desk pages for score entry: the day grid, the paper card, review, corrections,
history, closing a day, table links, printouts and the workbook. Views only parse and hand over:
forms read what was typed, scoring.submit and scoring.review write and say what happened,
scoring.presenters words it, scoring.selectors reads.
"""

import segno
from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from core.errors import ServiceError
from core.reports import PDF, XLSX, Report, report_response
from core.venue import link_address
from scoring import review, services, submit, unplayed
from scoring.devices import device_mark
from scoring.forms import (
    CardForm,
    CheckCardForm,
    NotPlayedForm,
    ReviewForm,
    UndoNotPlayedForm,
    WorkbookUploadForm,
)
from scoring.models import SheetState, Source
from scoring.presenters import (
    card_saved_message,
    check_rows,
    current_sheet,
    differs_boxes,
    grid_cells,
    history_rows,
    is_provisional,
    review_scores,
)
from scoring.schedule import day_games
from scoring.score_sheets_pdf import score_sheets_pdf, table_link
from scoring.second_eyes import confirmed_by_whoever_entered
from scoring.selectors import (
    current_day,
    day_for,
    day_grid,
    day_tables_with_seats,
    games_waiting,
    local_time,
    next_table_to_key,
    next_table_waiting,
    not_seated,
    read_scores,
    table_for,
    table_history,
    table_roster_changes,
    table_seats,
    table_sheets,
)
from scoring.views_entry import submit_game_form
from scoring.workbook_export import export_day
from scoring.workbook_import import WorkbookRefused, WorkbookToCheck, import_workbook
from tournaments.access import desk_view, organiser_view
from tournaments.presenters import can_manage
from tournaments.selectors import tournament_days
from tournaments.services.seating import SHEETS, record_printed


def _day(tournament, number):
    day = day_for(tournament, number)
    if day is None:
        raise Http404("No such day.")
    return day


def _table(tournament, day_number, table_number):
    table = table_for(tournament, day_number, table_number)
    if table is None:
        raise Http404("No such table.")
    return table


def _game(sheets, number):
    game = sheets.game(number)
    if game is None:
        raise Http404("No such game.")
    return game


def _base_url(request) -> str:
    return link_address(request).base_url


@desk_view
def scores_home(request, tournament):
    day = current_day(tournament)
    if day is None:
        return render(request, "scoring/no_days.html", {"tournament": tournament})
    return redirect("organiser:scores_day", slug=tournament.slug, day=day.number)


def _day_links(viewname, tournament, day, *holes):
    """A function giving viewname's URL for a table (and game) of this day, reversing once.

    The grid links every table and every waiting game, and a reverse() per link adds up.
    """
    numbers = {hole: str(900_000_001 + i) for i, hole in enumerate(holes)}
    url = reverse(viewname, args=[tournament.slug, day.number, *numbers.values()])
    for hole, number in numbers.items():
        head, _, tail = url.rpartition(f"/{number}/")  # from the right: past the slug
        url = f"{head}/{{{hole}}}/{tail}"
    return url.format


@desk_view
def scores_day(request, tournament, day):
    day = _day(tournament, day)
    grid = day_grid(day, day_games(day))
    card = _day_links("organiser:score_card", tournament, day, "table")
    check = _day_links("organiser:check_card", tournament, day, "table")
    history = _day_links("organiser:table_history", tournament, day, "table")
    review = _day_links("organiser:review_game", tournament, day, "table", "game")
    for row in grid["rows"]:
        number = row["table"].number
        row["card_url"], row["history_url"] = card(table=number), history(table=number)
        row["check_url"] = check(table=number) if row["waiting"] else ""
        row["cells"], row["cells_html"] = grid_cells(
            row["cells"], number, lambda game, n=number: review(table=n, game=game)
        )
    return render(
        request,
        "scoring/day_grid.html",
        {
            "tournament": tournament,
            "day": day,
            "grid": grid,
            "days": tournament_days(tournament),
            "can_manage": can_manage(request),
            "address": link_address(request),
            "self_confirmed": [
                (one, review(table=one.table, game=one.game))
                for one in (confirmed_by_whoever_entered(day) if can_manage(request) else [])
            ],
        },
    )


@desk_view
def score_card(request, tournament, day, table):
    table = _table(tournament, day, table)
    games = day_games(table.day)
    if request.method == "POST":
        return _save_card(request, tournament, table, games)
    sheets = table_sheets(table, games)
    return _card_page(request, tournament, table, sheets, CardForm(sheets=sheets))


def _save_card(request, tournament, table, games):
    """A posted card is read against who sits at the table; the save locks the table and reads
    its sheets once, and a refused card is drawn again from that read. The games that differ
    from what the table entered are drawn again beside it, as the desk typed them, while the
    rest are stored."""
    seated = table_seats(table, games)
    form = CardForm(request.POST, sheets=seated)
    if not form.is_valid():
        return _card_page(request, tournament, table, table_sheets(table, games), form)
    if form.left_blank():
        messages.warning(request, "The card was empty: nothing was saved.")
        return _after_card(request, tournament, table, games, form)
    saved = review.save_card(
        table,
        form.inputs(),
        form.written_totals(),
        request.user,
        device=device_mark(request),
        rechecked=form.rechecked,
        seated=seated,
        card_right=form.card_right(),
    )
    if saved.saved:
        if saved.outcomes or not saved.differs:
            messages.success(request, card_saved_message(table.number, saved.outcomes))
        if not saved.differs:
            return _after_card(request, tournament, table, games, form)
        sheets = table_sheets(table, games)  # drawn after the write: what is confirmed now
        read_scores(sheets)
        return _card_page(request, tournament, table, sheets, form, differs=saved.differs)
    if saved.denied:
        form.add_error(None, saved.denied)
    form.add_refusals(saved.refusals)
    form.add_warnings(saved.warnings)
    sheets = saved.sheets or table_sheets(table, games)
    read_scores(sheets)  # the save read only the scores it compared; the card shows them all
    conflicts = [current_sheet(now) for now in saved.conflicts]
    return _card_page(request, tournament, table, sheets, form, conflicts)


def _after_card(request, tournament, table, games, form):
    """Where a saved card goes: with "Save and next table", the next table not finished yet
    (whether or not its phone entered anything: a venue without Wi-Fi has only paper); else,
    or when every other table is finished, the same card again, saying why."""
    if form.then_next():
        day = table.day
        following = next_table_to_key(day, table.number, games)
        if following is not None:
            return redirect(
                "organiser:score_card", slug=tournament.slug, day=day.number, table=following
            )
        messages.info(
            request,
            f"Every other table of day {day.number} is finished: each game is confirmed or "
            "marked not played.",
        )
    return redirect(request.path)


def _closed_notice(day) -> str:
    """Said at the top of a closed day's card pages, in the words the save refuses with."""
    return submit.closed_day_refusal(day.number) if day.is_closed else ""


def _card_page(request, tournament, table, sheets, form, conflicts=(), differs=()):
    form.draw_from(sheets)
    return render(
        request,
        "scoring/card.html",
        {
            "tournament": tournament,
            "day": sheets.day,
            "table": table,
            "sheets": sheets,
            "form": form,
            "conflicts": list(conflicts),
            "differs": differs_boxes(differs, sheets.names),
            "then_next": bool(differs) and form.then_next(),
            "can_manage": can_manage(request),
            "not_played_form": NotPlayedForm(sheets=sheets),
            "unplayed": sorted(sheets.unplayed.items()),
            "closed_notice": _closed_notice(sheets.day),
        },
    )


@desk_view
def check_card(request, tournament, day, table):
    """The desk holds the paper card beside what the table entered and confirms the games that
    match in one go; "Confirm and next table" then opens the next table waiting."""
    table = _table(tournament, day, table)
    sheets = table_sheets(table, day_games(table.day))
    form = CheckCardForm(request.POST or None, sheets=sheets)
    conflicts = []
    if request.method == "POST" and form.is_valid():
        decided = review.confirm_card(table, form.shown(), request.user, device_mark(request))
        if decided.saved:
            games = ", ".join(str(outcome.game) for outcome in decided.outcomes)
            plural = "s" if len(decided.outcomes) > 1 else ""
            messages.success(request, f"Table {table.number}: game{plural} {games} confirmed.")
            return _after_check(request, tournament, table)
        if decided.conflicts:
            conflicts = [current_sheet(now) for now in decided.conflicts]
            sheets = table_sheets(table, day_games(table.day))
            form = CheckCardForm(sheets=sheets)
        else:
            form.add_error(None, _refusal_text(decided))
    return render(
        request,
        "scoring/check_card.html",
        {
            "tournament": tournament,
            "day": sheets.day,
            "table": table,
            "sheets": sheets,
            "form": form,
            "rows": check_rows(sheets, form, request.user, device_mark(request)),
            "conflicts": conflicts,
            "closed_notice": _closed_notice(sheets.day),
            "can_manage": can_manage(request),
        },
    )


def _refusal_text(decided) -> str:
    """A refused desk decision in one line, as the page says it above the form."""
    return decided.denied or " ".join(refusal.message for refusal in decided.refusals)


def _after_check(request, tournament, table):
    day = table.day
    if "next" in request.POST:
        following = next_table_waiting(day, table.number)
        if following is not None:
            return redirect(
                "organiser:check_card", slug=tournament.slug, day=day.number, table=following
            )
        messages.info(request, "No other table has games to confirm.")
    return redirect("organiser:scores_day", slug=tournament.slug, day=day.number)


@desk_view
@require_POST
def mark_not_played(request, tournament, day, table):
    """The organiser or the desk marks one of the table's games not played, with why."""
    table = _table(tournament, day, table)
    sheets = table_sheets(table, day_games(table.day))
    form = NotPlayedForm(request.POST, sheets=sheets)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, f"Not marked: {error}")
    else:
        number = form.cleaned_data["game"]
        try:
            unplayed.mark_not_played(
                table, _game(sheets, number), reason=form.cleaned_data["reason"], user=request.user
            )
        except ServiceError as error:
            messages.error(request, f"Not marked: {error}")
        else:
            messages.success(
                request, f"Game {number} at table {table.number} is marked not played."
            )
    return redirect("organiser:score_card", tournament.slug, day, table.number)


@desk_view
@require_POST
def undo_not_played(request, tournament, day, table, game):
    table = _table(tournament, day, table)
    sheets = table_sheets(table, day_games(table.day))
    form = UndoNotPlayedForm(request.POST)
    try:
        if not form.is_valid():
            raise ServiceError(" ".join(str(e) for errors in form.errors.values() for e in errors))
        unplayed.undo_not_played(
            table, _game(sheets, game), reason=form.cleaned_data["reason"], user=request.user
        )
    except ServiceError as error:
        messages.error(request, f"Not taken back: {error}")
    else:
        messages.success(request, f"Game {game} at table {table.number} can be entered again.")
    return redirect("organiser:score_card", tournament.slug, day, table.number)


def _review_form(sheets, game, data=None) -> ReviewForm:
    live = sheets.live.get(game.number)
    return ReviewForm(
        data,
        initial={"base_version": live.version if live else 0},
        players=sheets.playing(game.number),
    )


@desk_view
def review_game(request, tournament, day, table, game):
    table = _table(tournament, day, table)
    sheets = table_sheets(table)
    game = _game(sheets, game)
    form = _review_form(sheets, game, request.POST or None)
    conflict = None
    if request.method == "POST" and form.is_valid():
        decided = _decide(request, table, game, form)
        if decided.saved and form.cleaned_data["decision"] == "wrong":
            # The desk was checking this table's card: it goes on with the table's other games.
            return redirect(
                "organiser:check_card",
                slug=tournament.slug,
                day=sheets.day.number,
                table=table.number,
            )
        if decided.saved:
            return redirect("organiser:scores_day", slug=tournament.slug, day=sheets.day.number)
        if decided.conflicts:
            conflict = decided.conflicts[0]
            sheets = table_sheets(table)
            form = _review_form(sheets, game)
        else:
            form.add_error(None, _refusal_text(decided))
    live = sheets.live.get(game.number)
    device = device_mark(request)
    return render(
        request,
        "scoring/review.html",
        {
            "tournament": tournament,
            "day": sheets.day,
            "table": table,
            "game": game,
            "live": live,
            "scores": review_scores(sheets.seats, live),
            "form": form,
            "conflict": current_sheet(conflict),
            "sheets": sheets,
            "provisional": is_provisional(live),
            "went_out_name": sheets.names.get(live.went_out_id or 0, "") if live else "",
            "entered_at": local_time(live.entered_at) if live else "",
            "own_entry": submit.own_entry_refusal(live, request.user, device),
        },
    )


def _decide(request, table, game, form):
    """Confirm the table's entry or mark it wrong, as the review form says; the success message
    is left for the page drawn next."""
    base = form.cleaned_data["base_version"]
    if form.cleaned_data["decision"] == "confirm":
        decided = review.confirm_game(table, game, base, request.user, device_mark(request))
        done = f"Table {table.number}, game {game.number} is confirmed."
    else:
        decided = review.reject_game(
            table,
            game,
            base,
            request.user,
            form.cleaned_data["reason"],
            disputed=form.disputed_items(),
        )
        done = (
            f"Table {table.number}, game {game.number} is marked wrong. The table can enter it "
            "again."
        )
    if decided.saved:
        messages.success(request, done)
    return decided


@organiser_view
def correct_game(request, tournament, day, table, game):
    table = _table(tournament, day, table)
    sheets = table_sheets(table)
    game = _game(sheets, game)
    live = sheets.live.get(game.number)
    if live is None or live.state != SheetState.CONFIRMED:
        messages.warning(
            request,
            f"Game {game.number} at table {table.number} is not confirmed: "
            "there is nothing to correct yet.",
        )
        return redirect("organiser:score_card", slug=tournament.slug, day=day, table=table.number)
    submission = submit_game_form(
        request,
        table,
        game,
        games=sheets.games,
        sheets=sheets,
        source=Source.CORRECTION,
        with_tiles=False,
        with_reason=True,
    )
    if submission.saved:
        messages.success(request, f"Game {game.number} at table {table.number} is corrected.")
        return redirect(
            "organiser:table_history", slug=tournament.slug, day=day, table=table.number
        )
    return render(
        request,
        "scoring/correct.html",
        {
            "tournament": tournament,
            "day": sheets.day,
            "table": table,
            "game": game,
            "form": submission.form,
            "conflict": current_sheet(submission.conflict),
        },
    )


@organiser_view
def history(request, tournament, day, table):
    table = _table(tournament, day, table)
    return render(
        request,
        "scoring/history.html",
        {
            "tournament": tournament,
            "day": table.day,
            "table": table,
            "events": history_rows(table_history(table)),
            "roster_changes": table_roster_changes(table),
        },
    )


# Closing a day and renewing a link cannot be taken back by the tables: both pages ask first,
# and a post that did not come from the question (no "sure") only shows the question again.
SURE = "sure"


@organiser_view
def close_day(request, tournament, day):
    day = _day(tournament, day)
    if request.method != "POST" or request.POST.get(SURE) != "yes":
        counts = day_grid(day, day_games(day))["counts"]
        return render(
            request,
            "scoring/close_day.html",
            {
                "tournament": tournament,
                "day": day,
                "not_entered": counts["empty"],
                "not_confirmed": counts[SheetState.ENTERED],
            },
        )
    try:
        services.close_day(day, request.user)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        waiting = games_waiting(day)
        note = (
            f" {waiting} game{'s are' if waiting != 1 else ' is'} still for the desk to confirm."
            if waiting
            else ""
        )
        messages.success(request, f"Day {day.number} is closed: table links no longer work.{note}")
    return redirect("organiser:scores_day", slug=tournament.slug, day=day.number)


@organiser_view
@require_POST
def reopen_day(request, tournament, day):
    day = _day(tournament, day)
    if request.POST.get(SURE) != "yes":
        return render(request, "scoring/reopen_day.html", {"tournament": tournament, "day": day})
    try:
        services.reopen_day(day, request.user)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            f"Day {day.number} is open again. Every table has a new link and a new code (the "
            "old ones stay dead): if a table must enter scores, print its sheet again or show "
            "it the new code.",
        )
    return redirect("organiser:scores_day", slug=tournament.slug, day=day.number)


@organiser_view
def regenerate_link(request, tournament, day, table):
    table = _table(tournament, day, table)
    if request.method != "POST" or request.POST.get(SURE) != "yes":
        return render(
            request,
            "scoring/new_link.html",
            {"tournament": tournament, "day": table.day, "table": table},
        )
    services.regenerate_table_link(table, request.user)
    messages.success(
        request,
        f"Table {table.number} has a new link; the old one no longer works. "
        "Print its sheet again or show the new code to the scorekeeper.",
    )
    return redirect("organiser:table_links", slug=tournament.slug, day=day)


@organiser_view
def table_links(request, tournament, day):
    day = _day(tournament, day)
    address = link_address(request)
    base = address.base_url
    items = []
    for item in day_tables_with_seats(day):
        link = table_link(base, item["table"])
        items.append(
            {**item, "link": link, "qr": segno.make(link, error="m").svg_data_uri(scale=3)}
        )
    return render(
        request,
        "scoring/table_links.html",
        {
            "tournament": tournament,
            "day": day,
            "items": items,
            "address": address,
        },
    )


@desk_view
def score_sheets(request, tournament, day):
    day = _day(tournament, day)
    problem = not_seated(day, " to print")
    if problem:
        messages.error(request, problem)
        return redirect("organiser:scores_day", slug=tournament.slug, day=day.number)
    record_printed(day, SHEETS)
    report = Report(
        f"{tournament.slug}-day{day.number}-score-sheets",
        {PDF: lambda: score_sheets_pdf(day, _base_url(request))},
    )
    return report_response(report, PDF)


@desk_view
def export_workbook(request, tournament, day):
    day = _day(tournament, day)
    problem = not_seated(day)
    if problem:
        messages.error(request, problem)
        return redirect("organiser:scores_day", slug=tournament.slug, day=day.number)
    report = Report(f"{tournament.slug}-day{day.number}-scores", {XLSX: lambda: export_day(day)})
    return report_response(report, XLSX)


@desk_view
def upload_workbook(request, tournament):
    form = WorkbookUploadForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    to_check = None
    if request.method == "POST" and form.is_valid():
        try:
            report = import_workbook(
                tournament,
                form.cleaned_data["file"].read(),
                user=request.user,
                reason=form.cleaned_data["reason"],
                checked=form.cleaned_data["checked"],
            )
        except WorkbookToCheck as asked:
            to_check = {"lines": asked.lines, "code": asked.code}
        except WorkbookRefused as refused:
            problems = refused.lines
        except ServiceError as error:
            problems = [str(error)]
        else:
            messages.success(request, f"Workbook imported: {report.summary()}")
            return redirect(reverse("organiser:scores", args=[tournament.slug]))
    return render(
        request,
        "scoring/upload.html",
        {
            "tournament": tournament,
            "form": form,
            "problems": problems,
            "to_check": to_check,
            "days": tournament_days(tournament),
        },
    )
