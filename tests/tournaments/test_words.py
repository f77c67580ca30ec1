"""The words volunteers read (issue 23): no "game 0", one meaning for each word, plain words
for the seating's numbers, names sorted by surname."""

from __future__ import annotations

import pytest
from django.urls import reverse
from scoring_factories import client_for, play, seated_day, snapshot, staff, text_of

from core.errors import ServiceError
from tournaments.access import COMMAND_LINE
from tournaments.models import Entry, Seat, StaffRole
from tournaments.services.late import seat_substitute
from tournaments.services.registration import register_player, withdraw_entry

pytestmark = pytest.mark.django_db


def _boss(w):
    return client_for(staff(w.tournament, "boss", StaffRole.ORGANISER))


def test_a_table_that_entered_nothing_is_never_up_to_game_0():
    w = seated_day(preset="club-session")
    play(w, w.tables[1], [1])  # play has started, at the other table
    bob = w.entries["Bob Roe"]
    page = text_of(
        _boss(w).get(reverse("organiser:player_withdraw", args=[w.tournament.slug, bob.number]))
    )
    assert "table 1 has entered no game yet" in page
    assert "game 0" not in page


def test_a_player_who_left_before_playing_never_left_after_game_0():
    w = seated_day(preset="club-session")
    play(w, w.tables[1], [1])
    bob = w.entries["Bob Roe"]
    withdraw_entry(bob, after_game=0)
    sam = register_player(w.tournament, name="Sam Sub")
    boss = _boss(w)
    page = text_of(boss.get(reverse("organiser:seating", args=[w.tournament.slug, 1])))
    assert "Bob Roe, table 1, left before game 1" in page
    edit = reverse("organiser:player_edit", args=[w.tournament.slug, bob.number])
    assert "left before game 1" in text_of(boss.get(edit))
    before = snapshot(Entry, Seat)
    with pytest.raises(ServiceError) as refusal:
        seat_substitute(w.day, bob, sam, from_game=13, by=COMMAND_LINE)
    assert "has entered no game yet and Bob Roe left before game 1" in str(refusal.value)
    assert "game 0" not in str(refusal.value)
    assert snapshot(Entry, Seat) == before


def test_check_in_and_find_your_table_go_by_surname():
    import io

    from pypdf import PdfReader

    from tournaments import selectors
    from tournaments.printouts import find_table_pdf

    w = seated_day(tables=(("Ann Lee", "Bob Roe", "Cy Doe"), ("Hal Adams", "Zoe Brown")))
    by_surname = ["Hal Adams", "Zoe Brown", "Cy Doe", "Ann Lee", "Bob Roe"]
    listed = [e.player.name for e in selectors.check_in_list(w.tournament)["entries"]]
    assert listed == by_surname
    rows = selectors.find_table_rows(w.day)
    assert [name for name, _n, _t in rows] == by_surname
    found = selectors.find_your_table(w.tournament, "oe")["results"]
    assert [r["entry"].player.name for r in found] == ["Zoe Brown", "Cy Doe", "Bob Roe"]
    pdf = find_table_pdf(title="Cup", day_number=1, rows=rows)
    text = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert [text.index(name) for name in by_surname] == sorted(
        text.index(name) for name in by_surname
    )
    page = text_of(_boss(w).get(reverse("organiser:check_in", args=[w.tournament.slug])))
    assert [page.index(name) for name in by_surname] == sorted(
        page.index(name) for name in by_surname
    )
