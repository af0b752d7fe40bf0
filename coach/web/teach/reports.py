"""Teach: one student's answers, due dates that move, and printable worksheets.

    GET  /teach/classes/<id>/students/<learner>      every answer and verdict of one student in the class
    GET  /teach/sets/<id>/worksheet                  a drill set on paper, the answer key on its own page
    GET  /teach/assignments/<id>/worksheet           the same for what a class was given

The class's weakest rules and drills are on the dashboard, and due dates
move on the assignment's page (both in classes.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from flask import render_template, url_for
from sqlmodel import Session

from coach.notation import tiles
from coach.notation.card import Card, Section
from coach.rules import catalog as rulebook
from coach.rules.table_rules import LEAGUE, TableRules
from coach.store.models import Assignment, TeacherCard
from coach.store.teaching import classrooms, drill_sets, homework, roles, teachers_cards
from coach.store.teaching import reports as class_report
from coach.web.infra import database
from coach.web.shared.cards import teachers as teacher_cards
from coach.web.teach.base import bp, drilling, found, show_date, teacher_id, teacher_row
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
    lines: tuple[str, ...] = ()  # the card's lines the question names


# Drills whose question is the whole card ("which line is nearest?", "which three
# tiles to pass?"): their sheet needs every line, not only those the words name.
WHOLE_CARD = frozenset({"nearest-hand", "first-pass"})


def _choice(text: str) -> tuple[str, str | None]:
    return (tiles.name(text), text) if text in tiles.INDEX else (text, None)


def _named_lines(card: Card, texts: list[str]) -> tuple[str, ...]:
    """The ids of the card's lines that the texts name, in the card's order
    ("E-2" in "LIKE-2" is not a mention: an id stands between non-id characters)."""
    joined = "\n".join(texts)
    return tuple(
        line.id for line in card.lines if re.search(rf"(?<![\w-]){re.escape(line.id)}(?![\w-])", joined)
    )


def sheet_card(card: Card, questions: list[SheetQuestion]) -> tuple[Section, ...]:
    """What of the card the sheet prints, by section: the whole card when a
    question asks about all of it (WHOLE_CARD), else the lines the questions
    and their key name; nothing when no question reads the card."""
    if any(q.drill in WHOLE_CARD for q in questions):
        return card.sections
    named = {line_id for q in questions for line_id in q.lines}
    sections = (Section(s.name, tuple(line for line in s.lines if line.id in named)) for s in card.sections)
    return tuple(section for section in sections if section.lines)


def sheet(drill_set: DrillSet, card: Card | None, rules: TableRules = LEAGUE) -> list[SheetQuestion]:
    """Each question of the set as the class would see it (the set's own
    seeds, the class's table rules), with the coach's answer and its first reason for the key."""
    out = []
    for slot in drill_set.slots():
        asked = drilling().ask(slot.drill, seed=slot.seed, level=slot.level, card=card, rules=rules)
        question = asked.question
        verdict = asked.module.grade(question, None)
        answer = homework.describe_answer(verdict.best)
        why = tuple(verdict.explanation[:1])
        words = [question.prompt, *question.facts, *map(str, question.choices), answer, *why]
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
                answer=answer,
                why=why,
                lines=_named_lines(asked.card, words),
            )
        )
    return out


def _worksheet(title: str, drill_set: DrillSet, card: Card | None, back: str, rules: TableRules = LEAGUE):
    """The sheet of a set or an assignment on `card` (None: the house card), under a
    class's table rules (an assignment's): the questions, the card they read (its
    lines), then the answer key in that card's ids."""
    questions = sheet(drill_set, card, rules)
    return render_template(
        "teach/worksheet.html", title=title, drill_set=drill_set, questions=questions, back=back, table_rules=rules,
        card_title=teacher_cards.title(card.name) if card is not None else drilling().card.name,
        card_sections=sheet_card(card or drilling().card, questions),
        whole_card=any(q.drill in WHOLE_CARD for q in questions),
    )


@bp.get("/sets/<int:set_id>/worksheet")
def set_worksheet(set_id: int):
    with database.reading() as session:
        row = found(drill_sets.set_of(session, teacher_id(), set_id))
        return _worksheet(row.title, drill_sets.drill_set_of(row), _card_of(session, row.card_id), url_for("teach.edit_set", set_id=set_id))


@bp.get("/assignments/<int:assignment_id>/worksheet")
def assignment_worksheet(assignment_id: int):
    with database.reading() as session:
        given, room = found(homework.assignment_taught(session, teacher_id(), assignment_id))
        back = url_for("teach.assignment_page", assignment_id=assignment_id)
        return _worksheet(
            given.title, drill_sets.drill_set_of(given), _card_of(session, given.card_id), back, classrooms.class_rules(session, room.id or 0)
        )


def _card_of(session: Session, card_id: int | None) -> Card | None:
    """The card a set or an assignment keeps by number (None: the house card): its
    questions and key are on that card, whatever card the teacher drills on."""
    if card_id is None:
        return None
    return teacher_cards.card_of(found(teachers_cards.card_of(session, teacher_id(), card_id)))
