"""Teach: one student's answers, due dates that move, and printable worksheets.

    GET  /teach/classes/<id>/students/<learner>      every answer and verdict of one student in the class
    GET  /teach/sets/<id>/worksheet                  a drill set on paper, the answer key on its own page
    GET  /teach/assignments/<id>/worksheet           the same for what a class was given

The class's weakest rules and drills are on the dashboard, and due dates
move on the assignment's page (both in classes.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import render_template, url_for
from sqlmodel import Session

from coach.notation import tiles
from coach.notation.card import Card
from coach.rules import catalog as rulebook
from coach.store.models import Assignment, TeacherCard
from coach.store.teaching import drill_sets, homework, roles, teachers_cards
from coach.store.teaching import reports as class_report
from coach.web.infra import database
from coach.web.shared.cards import teachers as teacher_cards
from coach.web.teach.base import bp, card_named, drilling, found, show_date, teacher_id, teacher_row
from drills.sets import DrillSet


def card_name_of(session: Session) -> Any:
    """How an assignment's questions name their card (as stored attempts spell it)."""

    def name(assignment: Assignment) -> str:
        if assignment.card_id is None:
            return drilling().card.name
        row = session.get(TeacherCard, assignment.card_id)
        return teachers_cards.card_key(row) if row is not None else ""

    return name


def rule_title(rule_id: str) -> str:
    try:
        return rulebook.rule(rule_id).title
    except KeyError:
        return rule_id


@bp.get("/classes/<int:class_id>/students/<int:learner_id>")
def student_page(class_id: int, learner_id: int):
    """Everything one student answered in this class, with the coach's verdict."""
    with database.reading() as session:
        report = found(class_report.student_report(session, teacher_id(), class_id, learner_id))
        teacher = teacher_row(session)
        due = {a.assignment.id: show_date(a.assignment.due_at, teacher) for a in report.assignments}
        return render_template(
            "teach/student.html", report=report, room=report.classroom, name=roles.display_name(report.learner), due=due
        )


# -- worksheets ----------------------------------------------------------------------


@dataclass(frozen=True)
class SheetQuestion:
    number: int
    drill: str
    prompt: str
    facts: tuple[str, ...]
    rack: tuple[str, ...]
    exposed: tuple[tuple[str, ...], ...]
    tile: str | None
    choices: tuple[tuple[str, str | None], ...]  # (words, tile code or None)
    answer: str
    why: tuple[str, ...]


def _choice(text: str) -> tuple[str, str | None]:
    return (tiles.name(text), text) if text in tiles.INDEX else (text, None)


def sheet(drill_set: DrillSet, card: Card | None) -> list[SheetQuestion]:
    """Each question of the set as the class would see it (the set's own
    seeds), with the coach's answer and its first reason for the key."""
    out = []
    for slot in drill_set.slots():
        asked = drilling().ask(slot.drill, seed=slot.seed, level=slot.level, card=card)
        question = asked.question
        verdict = asked.module.grade(question, None)
        out.append(
            SheetQuestion(
                number=slot.index + 1,
                drill=slot.drill,
                prompt=question.prompt,
                facts=question.facts,
                rack=question.rack,
                exposed=question.exposed,
                tile=question.tile,
                choices=tuple(_choice(c) for c in question.choices),
                answer=homework.describe_answer(verdict.best),
                why=tuple(verdict.explanation[:1]),
            )
        )
    return out


def _worksheet(title: str, drill_set: DrillSet, card: Card | None, back: str):
    return render_template(
        "teach/worksheet.html", title=title, drill_set=drill_set, questions=sheet(drill_set, card), back=back,
        card_title=teacher_cards.title(card.name) if card is not None else drilling().card.name,
    )


@bp.get("/sets/<int:set_id>/worksheet")
def set_worksheet(set_id: int):
    with database.reading() as session:
        row = found(drill_sets.set_of(session, teacher_id(), set_id))
        drill_set = drill_sets.drill_set_of(row)
        card = card_named(session, teacher_id(), drill_set.card)
        return _worksheet(row.title, drill_set, card, url_for("teach.edit_set", set_id=set_id))


@bp.get("/assignments/<int:assignment_id>/worksheet")
def assignment_worksheet(assignment_id: int):
    with database.reading() as session:
        given, _room = found(homework.assignment_taught(session, teacher_id(), assignment_id))
        card = None
        if given.card_id is not None:
            card = teacher_cards.card_of(found(teachers_cards.card_of(session, teacher_id(), given.card_id)))
        back = url_for("teach.assignment_page", assignment_id=assignment_id)
        return _worksheet(given.title, drill_sets.drill_set_of(given), card, back)
