"""Who is who: a club list's rows matched to the people already on file.

A member number is the club's own identity for a person, so it is trusted first; a phone number
or email address next, but only for the same name, since a couple often shares one; the name
last, compared by the search rule the caller passes in (accents, case and stray spaces never
matter; "Bob" is not guessed to be "Robert"). Where a row could be someone on file but differs
(same name, other club; same member number, other name) the organiser is asked, never guessed
for: the answer decides whether the row is that person or someone new.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum

# Fewer digits than this is a house number or a table, not a phone number.
_PHONE_DIGITS_MIN = 7
# Country codes and trunk prefixes vary ("+1 555", "0555"); the last ten digits are the number.
_PHONE_DIGITS_KEPT = 10
_EMAIL = re.compile(r"[^\s,;:<>()\"']+@[^\s,;:<>()\"']+\.[^\s,;:<>()\"']+")
_PHONE = re.compile(r"\+?\d[\d\s().\-/]{5,}\d")


def contact_keys(text: str) -> frozenset[str]:
    """The email addresses (case folded) and phone numbers (digits only, the last ten) found in
    a contact field, which people fill as they like: "555-0102, ann@example.org"."""
    text = text or ""
    keys = {match.casefold() for match in _EMAIL.findall(text)}
    without_emails = _EMAIL.sub(" ", text)
    for match in _PHONE.findall(without_emails):
        digits = re.sub(r"\D", "", match)
        if len(digits) >= _PHONE_DIGITS_MIN:
            keys.add(digits[-_PHONE_DIGITS_KEPT:])
    return frozenset(keys)


def member_key(member_number: str) -> str:
    """Member numbers compare without case or spaces: "GS 1234" is "gs1234"."""
    return "".join((member_number or "").split()).casefold()


@dataclass(frozen=True)
class KnownPerson:
    id: int
    name: str
    club: str = ""
    member_number: str = ""
    contacts: frozenset[str] = frozenset()


@dataclass(frozen=True)
class ListedPerson:
    row: int
    name: str
    club: str = ""
    member_number: str = ""
    contact: str = ""


class Why(Enum):
    MEMBER_NUMBER = "same member number"
    CONTACT = "same name and the same phone or email"
    NAME_AND_CLUB = "same name and club"
    NAME_OTHER_CLUB = "same name, other club"
    NUMBER_OTHER_NAME = "same member number, other name"


_ASKED = {Why.NAME_OTHER_CLUB, Why.NUMBER_OTHER_NAME}


@dataclass(frozen=True)
class RowMatch:
    """Row ``row`` is ``person`` (``why``); when ``asks``, only if the organiser says so."""

    row: int
    person: KnownPerson | None = None
    why: Why | None = None

    @property
    def asks(self) -> bool:
        return self.why in _ASKED

    @property
    def is_new(self) -> bool:
        return self.person is None


def match_people(
    rows: Iterable[ListedPerson],
    people: Iterable[KnownPerson],
    name_key: Callable[[str], str],
) -> list[RowMatch]:
    """Each row's match among ``people``, in row order. A person is matched by one row at most:
    a later row that would find someone an earlier row took looks further, or is someone new."""
    people = list(people)
    by_member: dict[str, list[KnownPerson]] = {}
    by_contact: dict[str, list[KnownPerson]] = {}
    by_name: dict[str, list[KnownPerson]] = {}
    for person in people:
        if member_key(person.member_number):
            by_member.setdefault(member_key(person.member_number), []).append(person)
        for key in person.contacts:
            by_contact.setdefault(key, []).append(person)
        by_name.setdefault(name_key(person.name), []).append(person)
    taken: set[int] = set()
    found = []
    for row in rows:
        match = _match(row, by_member, by_contact, by_name, name_key, taken)
        if match.person is not None:
            taken.add(match.person.id)
        found.append(match)
    return found


def _by_member_number(
    member: str,
    name: str,
    by_member: dict[str, list[KnownPerson]],
    name_key: Callable[[str], str],
    taken: set[int],
) -> tuple[KnownPerson, Why] | None:
    for person in by_member.get(member, []) if member else []:
        if person.id not in taken:
            same_name = name_key(person.name) == name
            return person, Why.MEMBER_NUMBER if same_name else Why.NUMBER_OTHER_NAME
    return None


def _match(
    row: ListedPerson,
    by_member: dict[str, list[KnownPerson]],
    by_contact: dict[str, list[KnownPerson]],
    by_name: dict[str, list[KnownPerson]],
    name_key: Callable[[str], str],
    taken: set[int],
) -> RowMatch:
    name = name_key(row.name)
    member = member_key(row.member_number)
    by_number = _by_member_number(member, name, by_member, name_key, taken)
    if by_number is not None:
        return RowMatch(row.row, *by_number)

    def could_be(person: KnownPerson) -> bool:
        # Two members with different numbers are two people, however alike their names.
        other_number = member and member_key(person.member_number) not in ("", member)
        return person.id not in taken and not other_number and name_key(person.name) == name

    for key in sorted(contact_keys(row.contact)):
        for person in by_contact.get(key, []):
            if could_be(person):
                return RowMatch(row.row, person, Why.CONTACT)
    namesakes = [person for person in by_name.get(name, []) if could_be(person)]
    club = row.club.casefold()
    for person in namesakes:
        if not club or not person.club or person.club.casefold() == club:
            return RowMatch(row.row, person, Why.NAME_AND_CLUB)
    if namesakes:
        return RowMatch(row.row, namesakes[0], Why.NAME_OTHER_CLUB)
    return RowMatch(row.row)


@dataclass(frozen=True)
class SamePerson:
    """The organiser's answers to "same person?": one for every question (``everyone``), or
    row by row (``rows``: row number -> True for the same person)."""

    everyone: bool | None = None
    rows: dict[int, bool] = field(default_factory=dict)

    def answer(self, row: int) -> bool | None:
        if self.everyone is not None:
            return self.everyone
        return self.rows.get(row)


def questions(matches: Iterable[RowMatch]) -> list[RowMatch]:
    return [match for match in matches if match.asks]


def unanswered(matches: Iterable[RowMatch], answers: SamePerson | None) -> list[RowMatch]:
    """The questions still waiting for an answer (all of them when there are no answers)."""
    return [
        match
        for match in questions(matches)
        if answers is None or answers.answer(match.row) is None
    ]


def answers_for_no_question(matches: Iterable[RowMatch], answers: SamePerson) -> list[int]:
    """Rows answered that asked nothing: a file of answers for another list, or a typo."""
    asked = {match.row for match in questions(matches)}
    return sorted(row for row in answers.rows if row not in asked)


def decide(matches: Iterable[RowMatch], answers: SamePerson | None) -> list[RowMatch]:
    """The matches with every question answered: "no" makes the row someone new. Every
    question must have its answer (:func:`unanswered` is empty)."""
    decided = []
    for match in matches:
        if match.asks:
            answer = answers.answer(match.row) if answers is not None else None
            if answer is None:
                raise ValueError(f"row {match.row} has no answer")
            decided.append(match if answer else RowMatch(match.row))
        else:
            decided.append(match)
    return decided


_YES = {"yes", "y", "same", "same person", "true", "1"}
_NO = {"no", "n", "different", "different people", "new", "false", "0"}


def read_answers(text: str) -> tuple[dict[int, bool], list[tuple[int, str]]]:
    """A file of answers, a line each: a row number and yes or no ("12, yes", "13 no").
    Blank lines, lines starting with # and a header line are skipped. Returns the answers and
    the problems found, each with its line number."""
    answers: dict[int, bool] = {}
    problems: list[tuple[int, str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        parts = [part for part in re.split(r"[\s,;:\t]+", line.strip()) if part]
        if not parts or parts[0].startswith("#"):
            continue
        if number == 1 and not parts[0].isdigit():
            continue
        word = " ".join(parts[1:]).casefold()
        if len(parts) < 2 or not parts[0].isdigit() or word not in _YES | _NO:
            problems.append((number, f'"{line.strip()}" is not a row number and yes or no.'))
            continue
        row = int(parts[0])
        if row in answers:
            problems.append((number, f"row {row} is answered twice."))
            continue
        answers[row] = word in _YES
    return answers, problems
