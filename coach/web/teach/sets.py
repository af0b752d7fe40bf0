"""Teach: drill sets, built in a form or shared as YAML.

    GET      /teach/sets                   the teacher's sets, the samples, import
    GET/POST /teach/sets/new               the builder (a new set)
    GET/POST /teach/sets/<id>              the builder (an existing set)
    GET      /teach/sets/levels            one row's level choices (htmx, when its drill changes)
    GET/POST /teach/sets/<id>/delete       confirm, then delete
    GET      /teach/sets/<id>.yaml         download the set
    POST     /teach/sets/import            a YAML file or pasted text becomes a set
    GET      /teach/samples/<n>.yaml       download sample n (1-based)
    POST     /teach/samples/<n>/copy       sample n becomes one of the teacher's sets

The builder needs no JavaScript: "Add a drill" and each row's "Remove"
are submit buttons that bring the form back with one row more or less,
and only "Save" validates. Checks are drills.sets's own (from_fields
for the form, parse_set for a file), so the form and the file agree; a set
on a teacher's card is also asked one question per drill, because a
small card may not serve every drill.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from types import ModuleType

from flask import flash, redirect, render_template, request, url_for
from sqlmodel import Session

import drills
from coach.store.models import DrillSetRow
from coach.store.teaching import drill_sets, teachers_cards
from coach.store.teaching.errors import TeachingError
from coach.web.infra import database
from coach.web.infra.downloads import download
from coach.web.infra.forms import echo, field, uploaded_text
from coach.web.teach.base import bp, card_problems, found, not_found, sample, slug, teacher_id
from drills.sets import (
    DEFAULT_QUESTIONS,
    HOUSE,
    MAX_BYTES,
    MAX_ITEMS,
    MAX_QUESTIONS,
    SAMPLE_FILES,
    SAMPLES,
    DrillSet,
    SetError,
    from_fields,
    parse_set,
    sample_sets,
)

YAML_TYPE = "text/yaml"
ROW_PLACE = re.compile(r"^row (\d+), (drill|level|questions): ")
TOP_FIELDS = {"title": "title", "description": "description", "card": "card", "seeds": "seeds-fixed", "seed": "seed"}


@dataclass(frozen=True)
class Row:
    """One drill of the builder, as typed (text: the form may hold anything)."""

    drill: str = ""
    level: str = "1"
    questions: str = str(DEFAULT_QUESTIONS)

    @property
    def module(self) -> ModuleType | None:
        return drills.DRILLS.get(self.drill)


@dataclass(frozen=True)
class SetForm:
    """The builder's fields, as typed."""

    title: str = ""
    description: str = ""
    card: str = HOUSE
    seeds: str = "fixed"
    seed: str = ""
    rows: tuple[Row, ...] = (Row(),)

    @classmethod
    def of(cls, drill_set: DrillSet) -> SetForm:
        rows = tuple(Row(i.drill, str(i.level), str(i.questions)) for i in drill_set.items)
        return cls(drill_set.title, drill_set.description, drill_set.card, drill_set.seeds, str(drill_set.seed), rows)

    @classmethod
    def posted(cls) -> SetForm:
        form = request.form
        rows = tuple(
            Row(d, lv, q) for d, lv, q in zip(form.getlist("drill"), form.getlist("level"), form.getlist("questions"))
        )[:MAX_ITEMS]
        return cls(field("title"), field("description"), field("card") or HOUSE, field("seeds"), field("seed"), rows or (Row(),))

    def items(self) -> list[tuple[str, str, str]]:
        return [(row.drill, row.level, row.questions) for row in self.rows]


@dataclass
class Problems:
    """Validation messages, each with the id of the field it is about."""

    listed: list[tuple[str, str]]  # (field id, message) for the summary at the top

    def of(self, target: str) -> list[str]:
        return [message for where, message in self.listed if where == target]

    def inline(self, target: str) -> list[str]:
        """The messages for one field as shown beside it: a row's field
        needs no "row 2, " there ("Level: must be ...")."""
        out = []
        for message in self.of(target):
            short = message.split(", ", 1)[1] if ROW_PLACE.match(message) else message
            out.append(short[:1].upper() + short[1:])
        return out


def field_of(message: str) -> str:
    """The form field a from_fields message names ("row 2, level: ..." -> "level-1")."""
    match = ROW_PLACE.match(message)
    if match:
        return f"{match.group(2)}-{int(match.group(1)) - 1}"
    key = message.split(":", 1)[0]
    return TOP_FIELDS.get(key, "drill-0")


def problems_of(messages: list[str]) -> Problems:
    return Problems([(field_of(message), message) for message in messages])


# -- the builder --------------------------------------------------------------------


def _builder(session: Session, form: SetForm, row_id: int | None, problems: list[str] | None = None, focus: int | None = None, status: int = 200):
    owner = teacher_id()
    return render_template(
        "teach/set_form.html",
        form=form,
        set_id=row_id,
        cards=teachers_cards.cards_of(session, owner),
        all_drills=list(drills.DRILLS.values()),
        problems=problems_of(problems or []),
        focus=focus,
        max_items=MAX_ITEMS,
        max_questions=MAX_QUESTIONS,
        max_levels=max(len(m.LEVELS) for m in drills.DRILLS.values()),
    ), status


def _edit_rows(session: Session, form: SetForm, row_id: int | None):
    """ "Add a drill" and "Remove": the form again, one row more or less, not saved."""
    if "add" in request.form:
        if len(form.rows) >= MAX_ITEMS:
            return _builder(session, form, row_id, [f"drills: at most {MAX_ITEMS} drills, not {MAX_ITEMS + 1}"], status=422)
        form = replace(form, rows=form.rows + (Row(),))
        return _builder(session, form, row_id, focus=len(form.rows) - 1)
    raw = request.form.get("remove", "")
    index = int(raw) if raw.isdigit() and len(raw) < 4 else -1
    if 0 <= index < len(form.rows):
        rows = form.rows[:index] + form.rows[index + 1 :]
        form = replace(form, rows=rows or (Row(),))
    return _builder(session, form, row_id, focus=min(max(index, 0), len(form.rows) - 1))


def _save(session: Session, form: SetForm, row_id: int | None):
    owner = teacher_id()
    try:
        drill_set = from_fields(
            form.title, form.description, form.card, form.seeds, form.seed, form.items(), cards=teachers_cards.card_names(session, owner)
        )
    except SetError as error:
        return _builder(session, form, row_id, error.problems, status=422)
    problems = card_problems(session, owner, drill_set, "row")
    if problems:
        return _builder(session, form, row_id, problems, status=422)
    try:
        row = drill_sets.save_set(session, owner, drill_set, row_id)
    except TeachingError as error:
        return _builder(session, form, row_id, [f"card: {error}"], status=422)
    flash(f"Saved \u201c{row.title}\u201d. Assign it to a class from the class's page.", "success")
    return redirect(url_for("teach.sets"), 303)


def _post_builder(session: Session, row_id: int | None):
    form = SetForm.posted()
    if "add" in request.form or "remove" in request.form:
        return _edit_rows(session, form, row_id)
    return _save(session, form, row_id)


@bp.route("/sets/new", methods=["GET", "POST"])
def new_set():
    """The builder, empty; POST adds or removes a row, or saves."""
    teacher_id()
    with database.reading() as session:
        if request.method == "GET":
            return _builder(session, SetForm(), None)
        return _post_builder(session, None)


def _own_set(session: Session, set_id: int) -> DrillSetRow:
    return found(drill_sets.set_of(session, teacher_id(), set_id))


@bp.route("/sets/<int:set_id>", methods=["GET", "POST"])
def edit_set(set_id: int):
    """The builder, filled from the stored set; saving replaces it (classes keep their copies)."""
    with database.reading() as session:
        row = _own_set(session, set_id)
        if request.method == "GET":
            return _builder(session, SetForm.of(drill_sets.drill_set_of(row)), row.id)
        return _post_builder(session, row.id)


@bp.get("/sets/levels")
def set_levels():
    """One row's level select for its newly chosen drill (htmx swaps it in)."""
    teacher_id()
    index = request.args.get("row", "")
    if not index.isdigit() or int(index) >= MAX_ITEMS:
        not_found()
    row = Row(request.args.get("drill", ""), request.args.get("level", "1"))
    max_levels = max(len(m.LEVELS) for m in drills.DRILLS.values())
    return render_template("teach/partials/level_select.html", row=row, i=int(index), errors=[], max_levels=max_levels)


# -- the list, import and export -------------------------------------------------------


@dataclass(frozen=True)
class Listed:
    """A set as the list shows it."""

    row: DrillSetRow | None  # None for a sample
    number: int  # the sample's number (1-based), 0 for the teacher's own
    drill_set: DrillSet


def _sets_page(session: Session, problems: list[str] | None = None, pasted: str = "", status: int = 200, total: int = 0):
    owner = teacher_id()
    own = [Listed(row, 0, drill_sets.drill_set_of(row)) for row in drill_sets.sets_of(session, owner)]
    samples = [Listed(None, n, s) for n, s in enumerate(sample_sets(), start=1)]
    return render_template(
        "teach/sets.html", own=own, samples=samples, import_problems=problems or [], pasted=pasted, total=total
    ), status


@bp.get("/sets")
def sets():
    """The teacher's sets, the samples and the import form."""
    with database.reading() as session:
        return _sets_page(session)


@bp.post("/sets/import")
def import_set():
    """A YAML set, as a file or pasted: every problem listed, nothing saved
    until there are none; then to the builder to look it over."""
    owner = teacher_id()
    text, _name, problem = uploaded_text("set_file", "set_text")
    pasted = echo(field("set_text"), MAX_BYTES)
    with database.reading() as session:
        if problem:
            return _sets_page(session, [problem], pasted, 422)
        try:
            drill_set = parse_set(text, cards=teachers_cards.card_names(session, owner))
        except SetError as error:
            return _sets_page(session, error.problems, pasted, 422, error.total)
        problems = card_problems(session, owner, drill_set, "item")
        if problems:
            return _sets_page(session, problems, pasted, 422)
        try:
            row = drill_sets.save_set(session, owner, drill_set)
        except TeachingError as error:
            return _sets_page(session, [str(error)], pasted, 422)
        flash(f"Imported \u201c{row.title}\u201d. Check it below, then assign it from a class's page.", "success")
        return redirect(url_for("teach.edit_set", set_id=row.id), 303)


@bp.get("/sets/<int:set_id>.yaml")
def export_set(set_id: int):
    """The set as its canonical YAML file, to keep or to share."""
    with database.reading() as session:
        row = _own_set(session, set_id)
        return download(row.source, YAML_TYPE, f"{slug(row.title, 'drill-set')}.yaml")


@bp.route("/sets/<int:set_id>/delete", methods=["GET", "POST"])
def delete_set(set_id: int):
    """GET: a confirm page; POST: delete."""
    with database.reading() as session:
        row = _own_set(session, set_id)
        if request.method == "GET":
            return render_template("teach/delete_set.html", row=row)
        title = row.title
        drill_sets.delete_set(session, teacher_id(), set_id)
    flash(f"Deleted the set \u201c{title}\u201d. Classes it was assigned to keep their copy.", "success")
    return redirect(url_for("teach.sets"), 303)


@bp.get("/samples/<int:n>.yaml")
def export_sample(n: int):
    """A sample's own file, comments and all: a model for writing sets."""
    teacher_id()
    sample(n)
    name = SAMPLE_FILES[n - 1]
    return download((SAMPLES / name).read_text(encoding="utf-8"), YAML_TYPE, name)


@bp.post("/samples/<int:n>/copy")
def copy_sample(n: int):
    """A sample becomes the teacher's own set, to change."""
    owner = teacher_id()
    drill_set = sample(n)
    with database.reading() as session:
        row = drill_sets.save_set(session, owner, drill_set)
        flash(f"Copied \u201c{row.title}\u201d into your sets. Change it as you like.", "success")
        return redirect(url_for("teach.edit_set", set_id=row.id), 303)
