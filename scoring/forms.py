"""Forms for score entry. They only read what was typed, against who sits at the table
(selectors.TableSeats): they take no lock, read no sheet and write nothing. The rules live in
domain.sheet_checks and the writes in scoring.submit; a refusal it returns is put back next to
its field, and a page drawn from a form reads the table's sheets (selectors.TableSheets).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, cast

from django import forms

from core.cells import is_blank
from core.forms import CappedUploadForm
from domain.sheet_checks import TypedSheet, infer_outcome
from scoring.models import Game, Score, SheetState
from scoring.selectors import TableSeats, TableSheets
from scoring.submit import GameInput, Refusal

# The card's "who went out" choice for a game nobody went out of.
BLOCKED = "blocked"
BLOCKED_LABEL = "Blocked: nobody went out"

OUT_OF_DATE = "This page is out of date: reload it and try again."
VERSION_ERRORS = {"invalid": OUT_OF_DATE, "required": OUT_OF_DATE, "min_value": OUT_OF_DATE}


# Input caps. Tiles are stored, so the column decides; an engine or a reason longer than these
# is a slip of the hand, not something to check.
TILES_MAX = Score._meta.get_field("tiles").max_length
ENGINE_MAX = 10
REASON_MAX = 500

# Score inputs bring up the number pad on a phone.
SCORE_INPUT = {"inputmode": "numeric", "autocomplete": "off", "class": "score"}


def _score_field(label: str, name: str) -> forms.CharField:
    # Long input goes on to the checks ("more than any hand can hold"); only absurd input stops
    # here.
    return forms.CharField(
        label=label,
        required=False,
        max_length=100,
        error_messages={"max_length": f"{name}'s score must be a whole number, like 0 or 23."},
        widget=forms.TextInput(attrs=SCORE_INPUT),
    )


# The button that confirms the "please check" notes: its value is the form's check_code().
RECHECKED = "rechecked"
# The button that keeps the desk's card where it differs from the table's entry: its value is
# the games it keeps.
CARD_RIGHT = "card_right"


class _ProblemsForm(forms.Form):
    """A form that puts service refusals next to their fields; anything else goes at the top.

    "Please check" notes (submit.Saved.warnings) go next to their fields too, in ``warnings``
    (field name -> notes, "" for the form); they are not errors. The person confirms them with
    the RECHECKED button, whose value fingerprints what was typed (check_code), so a score
    changed after the question is asked about again.
    """

    warnings: dict[str, list[str]]

    def field_for(self, problem_field: str) -> str | None:
        return problem_field if problem_field in self.fields else None

    def add_refusals(self, refusals: list[Refusal]) -> None:
        for refusal in refusals:
            self.add_problem(refusal.game, refusal.field, refusal.message)

    def add_problem(self, game_number, field, message) -> None:
        self.add_error(self.field_for(field), message)

    def warning_field(self, game_number, field) -> str:
        return self.field_for(field) or ""

    def add_warnings(self, warnings: list[Refusal]) -> None:
        for warning in warnings:
            name = self.warning_field(warning.game, warning.field)
            self.warnings.setdefault(name, []).append(warning.message)

    def checked_fields(self) -> list[str]:
        raise NotImplementedError

    def check_code(self) -> str:
        """A fingerprint of what was typed in the fields the notes are about."""
        typed = "\x1f".join(f"{name}={self.data.get(name, '')}" for name in self.checked_fields())
        return hashlib.sha256(typed.encode()).hexdigest()[:16]

    @property
    def rechecked(self) -> bool:
        """The person pressed "Yes, it is right" for exactly what is typed now."""
        return self.is_bound and self.data.get(RECHECKED) == self.check_code()

    def all_warnings(self) -> list[str]:
        return [note for notes in self.warnings.values() for note in notes]

    def first_warned_field_id(self) -> str:
        """The id of the first field a "please check" note is about: where "fix it" goes."""
        for name in self.warnings:
            if name in self.fields:
                return self[name].auto_id
        return ""


def _inferred_data(
    data,
    rules,
    seated: dict[int, str],
    typed: TypedSheet,
    out_field,
    score_field,
    lone_zero_went_out: bool = False,
):
    """``data`` with what infer_outcome makes certain filled in, and its question (or None).

    ``out_field(entry id)`` and ``score_field(entry id)`` give the inputs to fill."""
    inferred = infer_outcome(rules, seated, typed, lone_zero_went_out=lone_zero_went_out)
    if inferred.went_out is None and inferred.zero_for is None:
        return data, inferred.question
    data = data.copy()
    if inferred.went_out is not None:
        name, value = out_field(inferred.went_out)
        data[name] = value
    if inferred.zero_for is not None:
        data[score_field(inferred.zero_for)] = "0"
    return data, None


class GameForm(_ProblemsForm):
    """One game at one table: the scorekeeper's phone page, and the organiser's correction.

    Fields: engine, score-<entry id> and tiles-<entry id> per player playing this game,
    out-<entry id> ("<name> went out") per player, blocked, base_version; reason when asked.
    """

    base_version = forms.IntegerField(
        min_value=0, widget=forms.HiddenInput, error_messages=VERSION_ERRORS
    )
    engine = forms.CharField(label="Engine used", required=False, max_length=ENGINE_MAX)
    blocked = forms.BooleanField(label=BLOCKED_LABEL, required=False)

    def __init__(
        self,
        data=None,
        *,
        sheets: TableSeats,
        game: Game,
        with_tiles: bool = True,
        with_reason: bool = False,
        wrong: dict | None = None,
        **kwargs,
    ):
        self.sheets = sheets
        self.game = game
        self.warnings: dict[str, list[str]] = {}
        self.players = sheets.playing(game.number)
        # A page is drawn from the table's sheets; a post is read against who sits there alone.
        drawn = sheets if isinstance(sheets, TableSheets) else None
        self.live = drawn.live.get(game.number) if drawn is not None else None
        self.engine_options = drawn.engine_options(game.number) if drawn is not None else []
        self.expected_engine = drawn.expected_engine(game) if drawn is not None else None
        self.question = None
        if data is not None:
            data, self.question = self._infer(data, self.players)
        # A game the desk marked wrong starts from what the table had entered (selectors'
        # wrong_notes), so the scorekeeper changes the numbers in question and keeps the rest.
        self.wrong = wrong if self.live is None else None
        kwargs.setdefault("initial", self._initial())
        super().__init__(data, **kwargs)
        for seat in self.players:
            name = seat.entry.player.name
            self.fields[f"score-{seat.entry_id}"] = _score_field(name, name)
            if with_tiles:
                self.fields[f"tiles-{seat.entry_id}"] = forms.CharField(
                    label=f"{name}: tiles left (optional)", required=False, max_length=TILES_MAX
                )
            self.fields[f"out-{seat.entry_id}"] = forms.BooleanField(
                label=f"{name} went out", required=False
            )
        if with_reason:
            self.fields["reason"] = forms.CharField(
                label="Reason for the change", max_length=REASON_MAX, required=False
            )

    def _initial(self) -> dict:
        """What an unbound form shows: the live sheet, or what the desk marked wrong."""
        live = self.live
        initial: dict[str, object] = {
            "base_version": live.version if live else 0,
            "engine": self.expected_engine,
        }
        if self.wrong:
            if self.wrong["engine"] in self.engine_options:
                initial["engine"] = self.wrong["engine"]
            initial["blocked"] = self.wrong["blocked"]
            for entry_id, points in self.wrong["scores"].items():
                initial[f"score-{entry_id}"] = points
                initial[f"out-{entry_id}"] = entry_id == self.wrong["went_out"]
        if live is not None:
            initial["blocked"] = live.blocked
            for score in live.score_rows():
                initial[f"score-{score.entry_id}"] = score.points
                initial[f"tiles-{score.entry_id}"] = score.tiles
                initial[f"out-{score.entry_id}"] = score.entry_id == live.went_out_id
        return initial

    def _infer(self, data, players):
        """Fill in what the typed sheet makes certain (validation.infer_outcome), before the
        fields read it, so a page drawn again shows it too."""
        typed = TypedSheet(
            game_number=self.game.number,
            engine=data.get("engine"),
            scores={s.entry_id: data.get(f"score-{s.entry_id}") for s in players},
            tiles={s.entry_id: data.get(f"tiles-{s.entry_id}") for s in players},
            went_out=[s.entry_id for s in players if data.get(f"out-{s.entry_id}")],
            blocked=bool(data.get("blocked")),
        )
        seated = {s.entry_id: s.entry.player.name for s in players}
        return _inferred_data(
            data,
            self.sheets.sheet_rules,
            seated,
            typed,
            lambda pk: (f"out-{pk}", "on"),
            lambda pk: f"score-{pk}",
        )

    def clean(self):
        cleaned = super().clean()
        if self.question is not None:
            self.add_error("blocked", self.question.message)
        return cleaned

    @property
    def double_blank_value(self) -> int:
        """What the double blank counts: above 0, only going out gives a score of 0."""
        return self.sheets.sheet_rules.double_blank_value

    def checked_fields(self) -> list[str]:
        return ["engine", "blocked"] + [
            f"{kind}-{seat.entry_id}" for seat in self.players for kind in ("score", "tiles", "out")
        ]

    def shown(self, name: str) -> dict:
        """A field's value as the page shows it, and its errors.

        The entry pages write their inputs out plainly instead of rendering widgets: the phone
        page is drawn after every save, and ~25 widget templates were most of its time.
        """
        field = self.fields[name]
        value = self[name].value()
        return {
            "value": "" if value is None else str(value),
            "checked": value is True,
            "label": field.label,
            "max_length": getattr(field, "max_length", None),
            "errors": self.errors.get(name, []) if self.is_bound else [],
            "warnings": self.warnings.get(name, []),
        }

    def player_rows(self) -> list[dict]:
        rows = []
        disputed = set(self.wrong["disputed"]) if self.wrong else set()
        for seat in self.players:
            pk = seat.entry_id
            tiles = f"tiles-{pk}"
            rows.append(
                {
                    "pk": pk,
                    "disputed": str(pk) in disputed,
                    "name": seat.entry.player.name,
                    "score": self.shown(f"score-{pk}"),
                    "out": self.shown(f"out-{pk}"),
                    "tiles": self.shown(tiles) if tiles in self.fields else None,
                }
            )
        return rows

    def engine_choices(self) -> list[dict]:
        chosen = self.shown("engine")["value"]
        return [
            {
                "value": engine,
                "selected": str(engine) == chosen,
                "expected": engine == self.expected_engine,
            }
            for engine in self.engine_options
        ]

    def fields_shown(self) -> dict:
        """The form-wide fields as the page shows them (see shown())."""
        return {
            name: self.shown(name)
            for name in ("engine", "blocked", "reason", "base_version")
            if name in self.fields
        }

    def field_for(self, problem_field):
        if problem_field == "outcome":
            return "blocked"
        return super().field_for(problem_field)

    def left_the_table(self) -> list[tuple[str, int, str]]:
        """(name, last game played, what was typed) for each player who withdrew while the
        table was typing this game and whose score was typed all the same: the save keeps the
        rest, and the page must say this one was not stored."""
        left = []
        for seat in self.sheets.seats:
            if seat.left_after_game is None or seat.plays_game(self.game.number):
                continue
            typed = str(self.data.get(f"score-{seat.entry_id}", "")).strip()
            if typed:
                left.append((seat.entry.player.name, seat.left_after_game, typed))
        return left

    def typed(self) -> TypedSheet:
        data = self.cleaned_data
        return TypedSheet(
            game_number=self.game.number,
            engine=data.get("engine"),
            scores={s.entry_id: data.get(f"score-{s.entry_id}") for s in self.players},
            tiles={s.entry_id: data.get(f"tiles-{s.entry_id}") or "" for s in self.players},
            went_out=[s.entry_id for s in self.players if data.get(f"out-{s.entry_id}")],
            blocked=bool(data.get("blocked")),
        )


SUBMISSION_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


def submission_id(data) -> str:
    """The id a table page's script gives a save (see static/js/game-entry.js); "" when the
    page sent none (no JavaScript) or something that is not one, which is then saved as usual."""
    value = data.get("submission_id", "")
    return value if SUBMISSION_ID.fullmatch(value) else ""


def _entry_id(value: str) -> int | str:
    """The card's "who went out" choice as an entry id (anything else goes on to the checks)."""
    try:
        return int(value)
    except ValueError:
        return value


class CardForm(_ProblemsForm):
    """A whole paper card at the desk: players across, games down, totals at the bottom.

    Games already confirmed are shown, not editable. Games the table entered are blank here:
    the desk types them from the card and the two must match.
    """

    def __init__(self, data: Any = None, *, sheets: TableSeats, **kwargs: Any) -> None:
        self.sheets = sheets
        # What the page is drawn from: the table's sheets (a post is read against its seats).
        self.drawn = sheets if isinstance(sheets, TableSheets) else None
        self.row_errors: dict[int, list[str]] = {}
        self.warnings: dict[str, list[str]] = {}
        self.lines: list[str] = []  # every service refusal once, in order (see add_problem)
        self.open_games = self._open_games(data)
        self.questions: dict[int, str] = {}
        if data is not None:
            for game in self.open_games:
                data = self._infer(data, game)
        super().__init__(data, **kwargs)
        names = sheets.names
        # Every open game starts at the double the rules expect, whether or not the table
        # entered it: the desk keys blind, so the table's own engine is not shown here.
        engines = self.drawn.planned_engines(blind=True) if self.drawn is not None else {}
        for game in self.open_games:
            n = game.number
            live = self.drawn.live.get(n) if self.drawn is not None else None
            self.fields[f"g{n}-base"] = forms.IntegerField(
                min_value=0,
                widget=forms.HiddenInput,
                initial=live.version if live else 0,
                error_messages=VERSION_ERRORS,
            )
            self.fields[f"g{n}-engine"] = forms.CharField(
                label=f"Engine in game {n}",
                required=False,
                max_length=ENGINE_MAX,
                initial=engines.get(n),
            )
            self.fields[f"g{n}-out"] = forms.CharField(
                label=f"Who went out in game {n}", required=False, max_length=20
            )
            for seat in sheets.playing(n):
                self.fields[f"g{n}-score-{seat.entry_id}"] = _score_field(
                    f"{names[seat.entry_id]}, game {n}", names[seat.entry_id]
                )
        for entry_id, name in names.items():
            self.fields[f"total-{entry_id}"] = forms.CharField(
                label=f"{name}, total",
                required=False,
                max_length=20,
                widget=forms.TextInput(attrs=SCORE_INPUT),
            )

    def _open_games(self, data) -> list[Game]:
        """The games the desk may type: in a post, those the page offered (each posts the
        version it was drawn at); on a page drawn from the sheets, those not confirmed yet."""
        if data is not None:
            return [g for g in self.sheets.games if f"g{g.number}-base" in data]
        live = self.drawn.live if self.drawn is not None else {}
        return [
            g
            for g in self.sheets.games
            if g.number not in live or live[g.number].state != SheetState.CONFIRMED
        ]

    def draw_from(self, sheets: TableSheets) -> None:
        """Draw the card from ``sheets`` (after a post: the read its save made, or a new one).
        A game confirmed there is shown as confirmed, whatever the post offered."""
        self.drawn = sheets

    def _page(self) -> TableSheets:
        if self.drawn is None:
            raise TypeError("CardForm.draw_from(sheets) comes before drawing a posted card")
        return self.drawn

    def _infer(self, data, game):
        """One game row with what its typed values make certain filled in (see GameForm)."""
        n = game.number
        players = self.sheets.playing(n)
        scores = {s.entry_id: data.get(f"g{n}-score-{s.entry_id}") for s in players}
        if all(is_blank(v) for v in scores.values()):
            return data  # not played yet: nothing to infer
        out = data.get(f"g{n}-out") or ""
        typed = TypedSheet(
            game_number=n,
            engine=data.get(f"g{n}-engine"),
            scores=scores,
            went_out=None if out in ("", BLOCKED) else _entry_id(out),
            blocked=out == BLOCKED,
        )
        data, question = _inferred_data(
            data,
            self.sheets.sheet_rules,
            {s.entry_id: self.sheets.names[s.entry_id] for s in players},
            typed,
            lambda pk: (f"g{n}-out", str(pk)),
            lambda pk: f"g{n}-score-{pk}",
            lone_zero_went_out=True,  # "Blocked" is a choice beside each game
        )
        if question is not None:
            self.questions[n] = question.message
        return data

    def card_right(self) -> frozenset[int]:
        """The games whose paper card the desk said is right (the CARD_RIGHT button: game
        numbers, spaces between); anything but a game the card offers is ignored."""
        offered = {game.number for game in self.open_games}
        words = str(self.data.get(CARD_RIGHT, "")).split()
        return frozenset(int(w) for w in words if w.isdigit() and int(w) in offered)

    def then_next(self) -> bool:
        """The desk pressed "Save and next table" (now, or on the card it is finishing)."""
        return bool(self.data.get("next") or self.data.get("then_next"))

    def clean(self):
        cleaned = super().clean()
        for n, message in self.questions.items():
            self.add_error(f"g{n}-out", message)
        return cleaned

    def checked_fields(self) -> list[str]:
        return [name for name in self.fields if name.startswith("g") and "-base" not in name]

    def warning_field(self, game, field) -> str:
        name = f"g{game}-{field}" if game is not None else field
        return name if name in self.fields else ""

    def add_problem(self, game, field, message):
        if game is None:
            name = field if field in self.fields else None
            self.add_error(name, message)
            self.lines.append(message)
            return
        # The list at the top says each problem once, by game; the field shows it too.
        self.lines.append(
            message if message.startswith(f"Game {game} ") else f"Game {game}: {message}"
        )
        name = (
            "" if field in ("", "reason") else f"g{game}-{'out' if field == 'outcome' else field}"
        )
        if name and name in self.fields:
            self.add_error(name, message)
        else:
            self.row_errors.setdefault(game, []).append(message)

    def problem_lines(self) -> list[str]:
        """What the top of the card lists: each refusal once, by game, then any other error."""
        lines = list(dict.fromkeys(self.lines))
        for errors in self.errors.values():
            for error in map(str, errors):
                if not any(error in line for line in lines):
                    lines.append(error)
        return lines

    def _filled(self, n: int) -> bool:
        data = self.cleaned_data
        scores = [data.get(f"g{n}-score-{s.entry_id}") for s in self.sheets.playing(n)]
        return not all(is_blank(v) for v in scores) or bool(data.get(f"g{n}-out"))

    def inputs(self) -> list[GameInput]:
        data = self.cleaned_data
        result = []
        for game in self.open_games:
            n = game.number
            if not self._filled(n):
                continue
            out = data.get(f"g{n}-out") or ""
            result.append(
                GameInput(
                    game=game,
                    typed=TypedSheet(
                        game_number=n,
                        engine=data.get(f"g{n}-engine"),
                        scores={
                            s.entry_id: data.get(f"g{n}-score-{s.entry_id}")
                            for s in self.sheets.playing(n)
                        },
                        went_out=None if out in ("", BLOCKED) else out,
                        blocked=out == BLOCKED,
                    ),
                    base_version=data.get(f"g{n}-base"),
                )
            )
        return result

    def left_blank(self) -> bool:
        """Nothing typed anywhere on the card: no game and no written total."""
        return not any(self._filled(game.number) for game in self.open_games) and all(
            is_blank(v) for v in self.written_totals().values()
        )

    def written_totals(self) -> dict:
        return {pk: self.cleaned_data.get(f"total-{pk}") for pk in self.sheets.names}

    def rows(self):
        """The card as rows for the template: each game with its cells (fields or stored values)."""
        result = []
        for row in self._page().rows():
            n = row["game"].number
            sheet = row["sheet"]
            confirmed = sheet is not None and sheet.state == SheetState.CONFIRMED
            editable = f"g{n}-base" in self.fields and not confirmed
            cells = []
            for cell in row["cells"]:
                key = f"g{n}-score-{cell['seat'].entry_id}"
                cells.append(
                    {
                        **cell,
                        "field": self[key] if editable and key in self.fields else None,
                        "warnings": self.warnings.get(key, []),
                    }
                )
            out_field = self[f"g{n}-out"] if editable else None
            out_value = str(out_field.value() or "") if out_field else ""
            result.append(
                {
                    **row,
                    "editable": editable,
                    "cells": cells,
                    "engine": self[f"g{n}-engine"] if editable else None,
                    "out": out_field,
                    "out_value": out_value,
                    "out_options": self._out_options(n, out_value) if editable else [],
                    "base": self[f"g{n}-base"] if editable else None,
                    "errors": self.row_errors.get(n, []),
                    "players": self.sheets.playing(n),
                }
            )
        return result

    def _out_options(self, n: int, chosen: str) -> list[dict]:
        """The "who went out" choices of game ``n``: each player of the game, then blocked."""
        options = [
            {
                "value": seat.entry_id,
                "label": seat.entry.player.name,
                "selected": chosen == str(seat.entry_id),
            }
            for seat in self.sheets.playing(n)
        ]
        options.append({"value": BLOCKED, "label": BLOCKED_LABEL, "selected": chosen == BLOCKED})
        return options

    def total_fields(self):
        return [{"seat": s, "field": self[f"total-{s.entry_id}"]} for s in self.sheets.seats]


class ReviewForm(forms.Form):
    """Confirm a table's entry as it stands, or mark it wrong."""

    base_version = forms.IntegerField(
        min_value=1, widget=forms.HiddenInput, error_messages=VERSION_ERRORS
    )
    decision = forms.ChoiceField(choices=[("confirm", "Confirm"), ("wrong", "Wrong")])
    reason = forms.CharField(
        label="What is wrong (optional)", required=False, max_length=REASON_MAX
    )
    disputed = forms.MultipleChoiceField(
        label="Which numbers differ from the card",
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        # The table is shown these, so it fixes the numbers in question, not the whole game.
        disputed = cast(forms.MultipleChoiceField, self.fields["disputed"])
        disputed.choices = [
            ("engine", "Engine"),
            ("outcome", "Who went out"),
            *[(str(seat.entry_id), seat.entry.player.name) for seat in players],
        ]

    def disputed_items(self) -> list[str]:
        return list(self.cleaned_data.get("disputed") or [])


class CheckCardForm(forms.Form):
    """The desk compared a table's card with what the table entered: the ticked games, each with
    the version the page showed (``v<game>`` fields)."""

    def __init__(self, *args, sheets, **kwargs):
        super().__init__(*args, **kwargs)
        self.waiting = [
            n for n, sheet in sorted(sheets.live.items()) if sheet.state == SheetState.ENTERED
        ]
        for n in self.waiting:
            self.fields[f"confirm-{n}"] = forms.BooleanField(
                label=f"Game {n} matches the card", required=False, initial=True
            )
            self.fields[f"v{n}"] = forms.IntegerField(
                min_value=1,
                widget=forms.HiddenInput,
                initial=sheets.live[n].version,
                error_messages=VERSION_ERRORS,
            )

    def shown(self) -> dict[int, int]:
        """Game number -> version shown, for the ticked games."""
        data = self.cleaned_data
        return {n: data[f"v{n}"] for n in self.waiting if data.get(f"confirm-{n}")}


class WorkbookUploadForm(CappedUploadForm):
    file = forms.FileField(label="Score workbook (.xlsx)")
    # The code of the "please check" notes the person ticked as right (WorkbookToCheck.code).
    checked = forms.CharField(required=False, max_length=64)
    reason = forms.CharField(
        label="Reason, if this changes confirmed scores (organisers only)",
        required=False,
        max_length=REASON_MAX,
    )


class NotPlayedForm(forms.Form):
    """Mark one of a table's games "not played": the games it may be are those with no live
    sheet that are not marked already."""

    game = forms.TypedChoiceField(label="Game", coerce=int)
    reason = forms.CharField(
        label="Why it was not played",
        max_length=200,
        help_text="Like \u201ctime ran out\u201d. Shown on the table's page and in its history.",
    )

    def __init__(self, *args, sheets, **kwargs):
        super().__init__(*args, **kwargs)
        game = cast(forms.TypedChoiceField, self.fields["game"])
        game.choices = [
            (g.number, f"Game {g.number} (double {g.scheduled_engine})")
            for g in sheets.games
            if g.number not in sheets.live and g.number not in sheets.unplayed
        ]


class UndoNotPlayedForm(forms.Form):
    reason = forms.CharField(
        label="Why",
        max_length=200,
        help_text="Like \u201cthey played it after all\u201d. Kept in the table's history.",
    )
