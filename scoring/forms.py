"""Forms for score entry. They only read what was typed; the rules live in domain.sheet_checks
and the writes in scoring.services. A refusal from the service is put back next to its field.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

from django import forms

from core.cells import is_blank
from core.errors import ServiceError
from core.forms import CappedUploadForm
from domain.sheet_checks import TypedSheet, infer_outcome
from scoring import services
from scoring.devices import device_mark
from scoring.models import Score, SheetState, Source
from scoring.selectors import TableSheets
from scoring.services import CurrentSheet, GameInput
from tournaments.models import (
    TABLE_CODE_ALPHABET,
    TABLE_CODE_LENGTH,
    normalise_table_code,
)

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


class _ProblemsForm(forms.Form):
    """A form that puts service refusals next to their fields; anything else goes at the top.

    "Please check" notes (services.ScoresToCheck) go next to their fields too, in ``warnings``
    (field name -> notes, "" for the form); they are not errors. The person confirms them with
    the RECHECKED button, whose value fingerprints what was typed (check_code), so a score
    changed after the question is asked about again.
    """

    warnings: dict[str, list[str]]

    def field_for(self, problem_field: str) -> str | None:
        return problem_field if problem_field in self.fields else None

    def add_refusals(self, refusals) -> None:
        for refusal in refusals:
            self.add_problem(refusal.game, refusal.field, refusal.message)

    def add_problem(self, game_number, field, message) -> None:
        self.add_error(self.field_for(field), message)

    def warning_field(self, game_number, field) -> str:
        return self.field_for(field) or ""

    def add_warnings(self, warnings) -> None:
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


def _inferred_data(data, rules, seated: dict[int, str], typed: TypedSheet, out_field, score_field):
    """``data`` with what infer_outcome makes certain filled in, and its question (or None).

    ``out_field(entry id)`` and ``score_field(entry id)`` give the inputs to fill."""
    inferred = infer_outcome(rules, seated, typed)
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
        self, data=None, *, sheets, game, with_tiles=True, with_reason=False, wrong=None, **kwargs
    ):
        self.sheets = sheets
        self.game = game
        self.warnings: dict[str, list[str]] = {}
        live = sheets.live.get(game.number)
        self.live = live
        self.question = None
        if data is not None:
            data, self.question = self._infer(data, sheets.playing(game.number))
        # A game the desk marked wrong starts from what the table had entered (selectors'
        # wrong_notes), so the scorekeeper changes the numbers in question and keeps the rest.
        self.wrong = wrong if live is None else None
        initial = {
            "base_version": live.version if live else 0,
            "engine": sheets.expected_engine(game),
        }
        if self.wrong:
            if self.wrong["engine"] in sheets.engine_options(game.number):
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
        kwargs.setdefault("initial", initial)
        super().__init__(data, **kwargs)
        self.players = sheets.playing(game.number)
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
        self.engine_options = sheets.engine_options(game.number)
        self.expected_engine = sheets.expected_engine(game)

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
        for seat in self.players:
            pk = seat.entry_id
            tiles = f"tiles-{pk}"
            rows.append(
                {
                    "pk": pk,
                    "disputed": bool(self.wrong) and str(pk) in self.wrong["disputed"],
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


@dataclass
class GameSubmission:
    form: GameForm
    sheets: TableSheets  # what the form was drawn from: draw the page from these too
    saved: bool = False
    conflict: CurrentSheet | None = None  # what the game says now, when the page was out of date
    refusal: str = ""  # a refusal that belongs to no field (the day closed, say)
    to_check: bool = False  # nothing saved: "please check" notes wait for a "Yes, it is right"
    version: int | None = None  # the version saved, when a save stored one


# What a refused save leaves for the page it redirects to (POST, redirect, GET: going back
# never asks to send the form again), keyed by the table's link in the session.
PENDING_KEY = "scoring.pending_entry"
_NOT_KEPT = {"csrfmiddlewaretoken", RECHECKED}


def keep_refused(session, token: str, submission: GameSubmission, conflict=None) -> None:
    """Keep a refused save's typed values, problems and notes (and ``conflict``, the box saying
    what the game says now) for the page drawn next."""
    form = submission.form
    session[PENDING_KEY] = {
        "token": token,
        "game": form.game.number,
        "data": {k: v for k, v in form.data.items() if k not in _NOT_KEPT},
        "errors": {name: list(errors) for name, errors in form.errors.items()},
        "warnings": form.warnings,
        "to_check": submission.to_check,
        "conflict": conflict,
    }


def drop_refused(session) -> None:
    session.pop(PENDING_KEY, None)


def refused_form(session, token: str, sheets, game) -> tuple[GameForm | None, dict]:
    """The form of the last refused save of ``game`` at this table, as it was typed, with its
    problems and notes; None when there is none, or the game changed since (its version moved
    on). With it, the rest of what was kept ("to_check", "conflict")."""
    pending = session.get(PENDING_KEY)
    if not pending or pending.get("token") != token or pending.get("game") != game.number:
        return None, {}
    live = sheets.live.get(game.number)
    base = str(pending["data"].get("base_version", "")).strip()
    if base.isdigit() and int(base) != (live.version if live else 0):
        drop_refused(session)  # the game changed since: draw it as it is now
        return None, {}
    form = GameForm(pending["data"], sheets=sheets, game=game)
    form.is_valid()
    for name, errors in pending["errors"].items():
        field = name if name in form.fields else None
        for error in errors:
            if error not in form.errors.get(name, []):
                form.add_error(field, error)
    form.warnings = pending["warnings"]
    return form, pending


def submit_game_form(
    request, table, game, *, games, source: str, sheets=None, **form_options
) -> GameSubmission:
    """Bind a game form to the request and save it through the service.

    A GET draws the form from ``sheets``, what the page has read. A POST locks the table and
    reads it once (services.locked_table), so the form is checked against what the save
    replaces. A save based on an old version is never written: the form is bound again to the
    version stored now, so the page shows "here is what it says now" beside what was typed.
    """
    if request.method != "POST":
        return GameSubmission(GameForm(None, sheets=sheets, game=game, **form_options), sheets)
    return _submit_posted(request, table, game, games, source, form_options)


def _submit_posted(request, table, game, games, source, form_options) -> GameSubmission:
    data = request.POST
    user = request.user if request.user.is_authenticated else None
    # A table-link save marks the browser it came from; any other save is compared with it.
    device = device_mark(request, create=source == Source.TABLE_LINK)
    with services.locked_table(table, games) as current:
        result = GameSubmission(GameForm(data, sheets=current, game=game, **form_options), current)
        form = result.form
        if not form.is_valid():
            return result
        try:
            outcome = services.submit_game(
                table,
                game,
                form.typed(),
                form.cleaned_data["base_version"],
                source=source,
                user=user,
                reason=form.cleaned_data.get("reason", ""),
                current=current,
                device=device,
                submission_id=submission_id(data) if source == Source.TABLE_LINK else "",
                rechecked=form.rechecked,
            )
        except services.ScoresToCheck as asked:
            form.add_warnings(asked.warnings)
            result.to_check = True
        except services.SheetRefused as refused:
            form.add_refusals(refused.refusals)
            form.add_warnings(refused.warnings)
        except services.VersionConflict as clash:
            conflict = clash.current[0]
            result.conflict = conflict
            rebased = data.copy()
            rebased["base_version"] = str(conflict.version)
            result.form = GameForm(rebased, sheets=current, game=game, **form_options)
            result.form.is_valid()
        except ServiceError as error:
            result.refusal = str(error)
            form.add_error(None, result.refusal)
        else:
            result.saved = True
            result.version = outcome.sheet.version if outcome is not None else None
    return result


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

    def __init__(self, data: Any = None, *, sheets: TableSheets, **kwargs: Any) -> None:
        self.sheets = sheets
        self.row_errors: dict[int, list[str]] = {}
        self.warnings: dict[str, list[str]] = {}
        self.lines: list[str] = []  # every service refusal once, in order (see add_problem)
        self.open_games = [
            g
            for g in sheets.games
            if g.number not in sheets.live or sheets.live[g.number].state != SheetState.CONFIRMED
        ]
        self.questions: dict[int, str] = {}
        if data is not None:
            for game in self.open_games:
                data = self._infer(data, game)
        super().__init__(data, **kwargs)
        names = sheets.names
        # Every open game starts at the double the rules expect, whether or not the table
        # entered it: the desk keys blind, so the table's own engine is not shown here.
        engines = sheets.planned_engines(blind=True)
        for game in self.open_games:
            n = game.number
            live = sheets.live.get(n)
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
        )
        if question is not None:
            self.questions[n] = question.message
        return data

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
        for row in self.sheets.rows():
            n = row["game"].number
            editable = f"g{n}-base" in self.fields
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
        self.fields["disputed"].choices = [
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


class TableCodeForm(forms.Form):
    """The code printed on a table's card, typed on the site's home page."""

    code = forms.CharField(
        label="Enter your table code",
        max_length=20,
        error_messages={"required": "Type the 6-letter code from your table's card."},
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "class": "table-code",
            }
        ),
        help_text="6 letters and numbers, printed on your table's score sheet and card.",
    )

    def clean_code(self) -> str:
        code = normalise_table_code(self.cleaned_data["code"])
        if len(code) != TABLE_CODE_LENGTH or any(ch not in TABLE_CODE_ALPHABET for ch in code):
            example = TABLE_CODE_ALPHABET[:3] + TABLE_CODE_ALPHABET[-3:]
            raise forms.ValidationError(
                f"A table code has {TABLE_CODE_LENGTH} letters and numbers, like {example}. "
                "Check the card on your table."
            )
        return code


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
        self.fields["game"].choices = [
            (g.number, f"Game {g.number} (double {g.scheduled_engine})")
            for g in sheets.games
            if g.number not in sheets.live and g.number not in sheets.unplayed
        ]
