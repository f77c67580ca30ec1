"""Matching a club list's rows to the people on file, pure: member number first, then phone or
email with the same name, then the name; asked, never guessed, where something differs."""

import pytest
from hypothesis import given, strategies as st

from core.search import search_key
from domain.people import (
    KnownPerson,
    ListedPerson,
    RowMatch,
    SamePerson,
    Why,
    answers_for_no_question,
    contact_keys,
    decide,
    match_people,
    member_key,
    questions,
    read_answers,
    unanswered,
)


def match(rows, people):
    return match_people(rows, people, search_key)


def only(rows, people):
    (found,) = match(rows, people)
    return (found.person.id if found.person else None, found.why, found.asks)


ANA = KnownPerson(1, "Ana Núñez", "Sun Lakes", "GS 100", frozenset({"5550102", "ana@example.org"}))


def test_contact_keys_read_phones_and_emails_as_people_type_them():
    assert contact_keys("(555) 010-2233, Ann@Example.ORG") == {"5550102233", "ann@example.org"}
    assert contact_keys("+1 555 010 2233") == {"5550102233"}  # the last ten digits
    assert contact_keys("table 12, room 4") == frozenset()  # too short to be a phone
    assert contact_keys("") == frozenset()


def test_member_numbers_compare_without_case_or_spaces():
    assert member_key(" gs 100 ") == member_key("GS100") == "gs100"


def test_the_same_name_written_another_way_and_the_same_club_is_the_person():
    row = ListedPerson(2, "  ana NUNEZ ", "sun lakes")
    assert only([row], [ANA]) == (1, Why.NAME_AND_CLUB, False)


def test_a_blank_club_on_either_side_is_no_difference():
    assert only([ListedPerson(2, "Ana Nunez")], [ANA])[1] == Why.NAME_AND_CLUB
    no_club = KnownPerson(1, "Ana Nunez")
    assert only([ListedPerson(2, "Ana Nunez", "Good Sams")], [no_club])[1] == Why.NAME_AND_CLUB


def test_the_same_name_in_another_club_is_asked():
    assert only([ListedPerson(2, "Ana Nunez", "Good Sams")], [ANA]) == (
        1,
        Why.NAME_OTHER_CLUB,
        True,
    )


def test_bob_is_not_guessed_to_be_robert():
    robert = KnownPerson(1, "Robert Lee", "Sun Lakes")
    assert only([ListedPerson(2, "Bob Lee", "Sun Lakes")], [robert]) == (None, None, False)


def test_the_member_number_comes_first_and_another_name_with_it_is_asked():
    assert only([ListedPerson(2, "Ana Nunez", "Good Sams", "gs100")], [ANA]) == (
        1,
        Why.MEMBER_NUMBER,
        False,
    )
    assert only([ListedPerson(2, "Ana Smith", "Sun Lakes", "GS 100")], [ANA]) == (
        1,
        Why.NUMBER_OTHER_NAME,
        True,
    )


def test_two_members_with_different_numbers_are_two_people_whatever_their_names():
    assert only([ListedPerson(2, "Ana Núñez", "Sun Lakes", "GS 999")], [ANA]) == (None, None, False)


def test_a_phone_or_email_with_the_same_name_settles_another_club():
    row = ListedPerson(2, "Ana Nunez", "Good Sams", contact="ANA@example.org")
    assert only([row], [ANA]) == (1, Why.CONTACT, False)


def test_a_shared_phone_with_another_name_is_someone_else_of_the_household():
    row = ListedPerson(2, "Luis Núñez", "Sun Lakes", contact="555-0102")
    assert only([row], [ANA]) == (None, None, False)


def test_a_person_is_matched_by_one_row_only():
    twin = KnownPerson(2, "Ana Nunez", "Sun Lakes")
    rows = [ListedPerson(2, "Ana Smith", "", "GS100"), ListedPerson(3, "Ana Nunez", "Sun Lakes")]
    found = match(rows, [ANA, twin])
    assert [(m.row, m.person.id) for m in found] == [(2, 1), (3, 2)]
    found = match(rows, [ANA])
    assert [(m.row, m.person and m.person.id) for m in found] == [(2, 1), (3, None)]


def test_answers_decide_the_questions_and_nothing_else():
    found = match(
        [
            ListedPerson(2, "Ana Nunez", "Good Sams"),  # asked
            ListedPerson(3, "Ana Smith", "", "GS100"),  # asked? no: ANA is taken by row 2
            ListedPerson(4, "New Person"),
        ],
        [ANA],
    )
    assert [m.row for m in questions(found)] == [2]
    assert unanswered(found, None) == questions(found)
    assert unanswered(found, SamePerson(rows={2: True})) == []
    assert [m.person for m in decide(found, SamePerson(rows={2: False}))] == [None, None, None]
    assert decide(found, SamePerson(everyone=True))[0].person == ANA
    assert answers_for_no_question(found, SamePerson(rows={2: True, 4: True, 40: False})) == [4, 40]
    with pytest.raises(ValueError):
        decide(found, SamePerson(rows={}))


def test_an_answers_file_reads_row_numbers_and_yes_or_no():
    text = "Row,Same person\n5, yes\n# a comment\n\n7 no\n9;Same\n11\tdifferent\n"
    assert read_answers(text) == ({5: True, 7: False, 9: True, 11: False}, [])
    rows, problems = read_answers("5,yes\n5,no\nsix,yes\n8,maybe\n9\n")
    assert rows == {5: True}
    assert problems == [
        (2, "row 5 is answered twice."),
        (3, '"six,yes" is not a row number and yes or no.'),
        (4, '"8,maybe" is not a row number and yes or no.'),
        (5, '"9" is not a row number and yes or no.'),
    ]


names = st.text(alphabet="abcÁéñ ", min_size=1, max_size=8).filter(lambda n: search_key(n))
clubs = st.sampled_from(["", "Sun Lakes", "Good Sams", "sun lakes"])
numbers = st.sampled_from(["", "GS1", "GS2", "gs 1"])


@st.composite
def lists_and_people(draw):
    people = [
        KnownPerson(i, draw(names), draw(clubs), draw(numbers))
        for i in range(draw(st.integers(0, 6)))
    ]
    rows = [
        ListedPerson(i + 2, draw(names), draw(clubs), draw(numbers))
        for i in range(draw(st.integers(0, 6)))
    ]
    return rows, people


@given(lists_and_people())
def test_every_match_is_explained_by_its_rule(case):
    rows, people = case
    found = match(rows, people)
    assert [m.row for m in found] == [r.row for r in rows]
    matched = [m.person.id for m in found if m.person is not None]
    assert len(matched) == len(set(matched))  # one row per person
    for row, m in zip(rows, found, strict=True):
        if m.person is None:
            assert m.why is None and not m.asks
            continue
        same_name = search_key(row.name) == search_key(m.person.name)
        same_number = member_key(row.member_number) and member_key(row.member_number) == member_key(
            m.person.member_number
        )
        if m.why in (Why.MEMBER_NUMBER, Why.NUMBER_OTHER_NAME):
            assert same_number and same_name == (m.why == Why.MEMBER_NUMBER)
        else:
            # Never a name match across two different member numbers.
            assert same_name
            assert not (
                member_key(row.member_number)
                and member_key(m.person.member_number)
                and not same_number
            )
        assert m.asks == (m.why in (Why.NAME_OTHER_CLUB, Why.NUMBER_OTHER_NAME))


@given(lists_and_people(), st.booleans())
def test_one_answer_for_all_leaves_nothing_asked_and_no_means_someone_new(case, same):
    rows, people = case
    found = match(rows, people)
    decided = decide(found, SamePerson(everyone=same))
    assert unanswered(found, SamePerson(everyone=same)) == []
    for before, after in zip(found, decided, strict=True):
        if before.asks:
            assert after == (before if same else RowMatch(before.row))
        else:
            assert after == before
