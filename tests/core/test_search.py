"""Forgiving search: one rule (core.search) for check-in, find your table, the players list, the
club directory, standings and the duplicate-name check."""

import pytest
from hypothesis import given, strategies as st
from scoring_factories import organiser_url as url, register

from core.errors import ServiceError
from core.search import matches, search_key
from standings.tables import search_rows
from tournaments import selectors
from tournaments.presenters import entries_named
from tournaments.services.registration import register_player


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("jose", "José Díaz"),
        ("JOSÉ", "Jose Diaz"),
        ("oneil", "Pat O'Neil"),
        ("o’neil", "Pat O'Neil"),  # the curly apostrophe phones type
        ("O'Neil", "Pat O’Neil"),
        ("st john", "Al St. John"),
        ("mary ann", "Mary-Ann Fox"),
        ("  bob   ROE ", "Bob Roe"),
        ("zoë", "Zoe Smith"),
    ],
)
def test_case_accents_and_punctuation_never_matter(query, name):
    assert matches(query, name)


def test_a_different_name_is_not_found():
    assert not matches("jon", "José Díaz")
    assert not matches("neill", "Pat O'Neil")


@given(st.text(max_size=30))
def test_the_key_is_settled_after_one_pass(text):
    key = search_key(text)
    assert search_key(key) == key
    assert key == key.strip() and "  " not in key


@given(st.text(max_size=20), st.text(max_size=20))
def test_a_name_always_finds_itself_and_any_part_of_its_key(name, extra):
    assert matches(name, name + extra) or not search_key(name)


@pytest.mark.django_db
def test_every_search_uses_the_rule(tournament, organiser_client, organiser):
    register(tournament, "José Díaz", "Pat O'Neil", "Bob Roe")
    # Players list and check-in.
    page = organiser_client.get(url(tournament, "players/?q=jose")).content.decode()
    assert "José Díaz" in page and "Bob Roe" not in page
    page = organiser_client.get(url(tournament, "check-in/?q=o%E2%80%99neil")).content.decode()
    assert "Pat O&#x27;Neil" in page and "Bob Roe" not in page
    assert 'data-name="pat oneil"' in page
    # Find your table and the club directory.
    found = selectors.find_your_table(tournament, "oneil")["results"]
    assert [r["entry"].player.name for r in found] == ["Pat O'Neil"]
    assert [p.name for p in selectors.directory_matches(tournament, "DIAZ", organiser)] == [
        "José Díaz"
    ]
    assert [e.player.name for e in entries_named(selectors.entry_list(tournament), "jose")] == [
        "José Díaz"
    ]


@pytest.mark.django_db
def test_the_same_person_typed_without_accents_is_a_duplicate(tournament):
    register(tournament, "José Díaz")
    with pytest.raises(ServiceError, match="already entered as player #1"):
        register_player(tournament, name="jose diaz")


def test_standings_search_uses_the_rule():
    class Record:
        def __init__(self, name, club=""):
            self.name, self.club, self.player_number = name, club, 1

    class Row:
        def __init__(self, name, club=""):
            self.row = type("R", (), {"record": Record(name, club)})()

    rows = [Row("José Díaz", "Lakeside"), Row("Pat O'Neil", "Séville")]
    assert [r.row.record.name for r in search_rows(rows, "oneil")] == ["Pat O'Neil"]
    assert [r.row.record.name for r in search_rows(rows, "seville")] == ["Pat O'Neil"]
