"""Every standings output read back as a person reads it: the organiser's page, the public page,
the projector, the PDF, the workbook (Standings and Scores sheets), the command line, and the
day board's tiles. Each says its heading ("Standings after game 5 of day 1"), its status line
and each player's total and games as printed, so a test compares them with one another and
with what it expects."""

from __future__ import annotations

import html
import io
import re
from dataclasses import dataclass, field

from django.core.management import call_command
from django.test import Client
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.day_board import day_board
from tournaments.models import Entry, Tournament


@dataclass
class Shown:
    heading: str  # "Standings" or "Standings after game 5 of day 1"
    status: str  # "Final", "Complete after day 1, game 5", "Provisional: ..."
    totals: dict[str, str]  # player name -> total as printed (with any mark)
    games: dict[str, str] = field(default_factory=dict)  # player name -> games counted
    text: str = ""  # everything the output says, in one line of words
    ranks: dict[str, str] = field(default_factory=dict)  # player name -> rank as printed


def _words(markup: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def _html_rows(page: str, table_id: str) -> list[list[str]]:
    table = re.search(rf'<table[^>]*id="{table_id}".*?</table>', page, re.S)
    if table is None:
        return []
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(0), re.S):
        rows.append([_words(c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)])
    return rows


def _body(rows: list[list]) -> tuple[list, list[list]]:
    """The header and the players' rows; the table's one-cell "nobody" line is no player."""
    if not rows:
        return [], []
    return rows[0], [r for r in rows[1:] if len(r) == len(rows[0])]


def _by_heading(rows: list[list[str]]) -> tuple[dict[str, str], dict[str, str]]:
    header, body = _body(rows)
    if not header:
        return {}, {}
    name, total = header.index("Player"), header.index("Total")
    games = header.index("Games") if "Games" in header else None
    return (
        {r[name]: r[total] for r in body},
        {r[name]: r[games] for r in body} if games is not None else {},
    )


def _ranks(rows: list[list]) -> dict[str, str]:
    header, body = _body(rows)
    if not header:
        return {}
    name, rank = header.index("Player"), header.index("Rank")
    return {r[name]: "" if r[rank] is None else str(r[rank]) for r in body}


def _page(client: Client, url: str, params=None) -> Shown:
    page = client.get(url, params or {}).content.decode()
    heading = re.search(r'<h2 id="standings-title">(.*?)</h2>', page, re.S)
    status = re.search(r'id="standings-status"\s+role="status">(.*?)</p>', page, re.S)
    rows = _html_rows(page, "standings")
    totals, games = _by_heading(rows)
    return Shown(
        _words(heading.group(1)), _words(status.group(1)), totals, games, _words(page), _ranks(rows)
    )


def _projector(client: Client, slug: str, params=None) -> Shown:
    page = client.get(f"/t/{slug}/projector/", {"rows": 40, **(params or {})}).content.decode()
    heading = re.search(r'<p class="board-title">(.*?)</p>', page, re.S)
    status = re.search(r'<p class="board-\w+" role="status">(.*?)</p>', page, re.S)
    rows = _html_rows(page, "board-players")
    totals, games = _by_heading(rows)
    return Shown(
        _words(heading.group(1)), _words(status.group(1)), totals, games, _words(page), _ranks(rows)
    )


def _pdf(client: Client, slug: str, params=None) -> Shown:
    data = client.get(f"/t/{slug}/standings.pdf", params or {}).content
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    lines = text.splitlines()
    # Every player's standings come first; each flight's section after them ranks again.
    sections = [
        i for i, line in enumerate(lines) if re.fullmatch(r"Flight .+ standings", line.strip())
    ]
    ranked = lines[: sections[0]] if sections else lines
    # The heading says the state first ("Final standings", "Complete standings after ...").
    heading = next(
        line for line in lines if re.match(r"(Final|Complete|Provisional) standings", line)
    )
    status = (
        "Final"
        if heading.startswith("Final")
        else next(line for line in lines if line.startswith(("Complete ", "Provisional:")))
    )
    cut = heading.split(" standings", 1)[1]
    # Each cell is a line of its own (an empty club is none): a rank, the Player ID, the name.
    names = set(Entry.objects.filter(tournament__slug=slug).values_list("player__name", flat=True))
    ranks = {line: ranked[i - 2] for i, line in enumerate(ranked) if line in names and i >= 2}
    return Shown(f"Standings{cut}", status, {}, {}, " ".join(text.split()), ranks)


def _workbook(client: Client, slug: str, params=None) -> tuple[Shown, list[tuple]]:
    data = client.get(f"/t/{slug}/standings.xlsx", params or {}).content
    book = load_workbook(io.BytesIO(data))
    rows = [list(r) for r in book["Standings"].iter_rows(values_only=True)]
    header, body = rows[0], rows[1:]
    name, total, games = (header.index(h) for h in ("Player", "Total", "Games"))
    # The workbook stores a shared rank as the number, with "tied" in its Status column.
    status_at, rank_at = header.index("Status"), header.index("Rank")
    ranks = {r[name]: ("=" if r[status_at] == "tied" else "") + str(r[rank_at] or "") for r in body}
    rules = dict(book["Rules"].iter_rows(min_row=2, values_only=True))
    heading, _, status = str(rules["Standings"]).partition(" (")
    shown = Shown(
        heading,
        status.removesuffix(")"),
        {r[name]: str(r[total]) for r in body},
        {r[name]: str(r[games]) for r in body},
        " ".join(" ".join(str(c) for c in row if c is not None) for row in rows),
        ranks,
    )
    return shown, list(book["Scores"].iter_rows(min_row=2, values_only=True))


def _command(tournament: Tournament, *args: str) -> Shown:
    out = io.StringIO()
    call_command("standings", tournament.slug, *args, stdout=out)
    lines = out.getvalue().splitlines()
    heading = lines[0].split(": ", 1)[1]
    names = dict(Entry.objects.filter(tournament=tournament).values_list("number", "player__name"))
    header_at = next(i for i, line in enumerate(lines) if line.split()[:1] == ["Rank"])
    totals, games, ranks = {}, {}, {}
    for line in lines[header_at + 1 :]:
        # Rank (a mark for the unranked), Player ID, ..., total, outs, games.
        tokens = line.split()
        if len(tokens) < 5 or not tokens[1].isdigit():
            break
        name = names[int(tokens[1])]
        totals[name], games[name], ranks[name] = tokens[-3], tokens[-1], tokens[0]
    return Shown(heading, lines[1], totals, games, " ".join(lines), ranks)


# What anyone without a staff login sees: never past a hidden finish.
PUBLIC_OUTPUTS = frozenset({"public page", "projector", "pdf", "workbook", "public command"})


def every_output(
    tournament: Tournament, organiser_client: Client, flight: str = ""
) -> dict[str, Shown]:
    """What each standings output shows now, by output name (those in PUBLIC_OUTPUTS as the
    public sees them), of one ``flight`` when one is given. The public pages must be on."""
    slug = tournament.slug
    public = Client()
    params = {"flight": flight} if flight else {}
    chosen = ("--flight", flight) if flight else ()
    workbook, _ = _workbook(public, slug, params)
    return {
        "page": _page(organiser_client, f"/organiser/t/{slug}/standings/", params),
        "public page": _page(public, f"/t/{slug}/standings/", params),
        "projector": _projector(public, slug, params),
        "pdf": _pdf(public, slug, params),
        "workbook": workbook,
        "command": _command(tournament, *chosen),
        "public command": _command(tournament, "--public", *chosen),
    }


def workbook_scores(tournament: Tournament) -> list[tuple]:
    """The public workbook's Scores sheet, row by row."""
    return _workbook(Client(), tournament.slug)[1]


def board_states(day) -> dict[int, str]:
    """Table number -> the day board's state for its tile ("done", "playing", ...)."""
    return {tile.number: tile.state for tile in day_board(day).tiles}
