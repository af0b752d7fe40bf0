"""The student's side of classes: join with a code, leave, and work
through assignments on the drills' own pages.

    GET  /classes                            my assignments, my classes, join by code
    GET  /join/<code>                        the class behind a code and one Join button
    POST /join                               join (form: code, and a name when none is known)
    POST /classes/<class_id>/leave           leave a class (the answers are kept)
    GET  /assignments/<id>                   each question and how it went; the score at the end
    GET  /assignments/<id>/q/<n>             question n (from 1) on the drill's own stage
    POST /assignments/<id>/next              on to the next unanswered question (form: after)

Only a student in the class sees its assignments. Anyone else, the
class's own teacher included, gets the same 404 as for an assignment
that does not exist, so a stranger cannot even learn that it does.

Answers come in through the drills' own answer route (pages.answer) with
`session=assignment`, which hands them to `answer` here (drill_sessions): the question
graded must be exactly the one this student was given for that slot,
and only the first answer to a slot counts (a second one is graded and
shown, and says that it does not count).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from sqlmodel import Session
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

import drills
from coach.common import clock
from coach.notation.card import Card
from coach.store import class_tables
from coach.store.models import Assignment, AssignmentAnswer, AssignmentWork, Classroom, Learner, TeacherCard
from coach.store.teaching import classrooms, drill_sets, homework, work_states
from coach.store.teaching import hands as class_hands
from coach.store.teaching.errors import TeachingError
from coach.web.infra import database, limits
from coach.web.infra.htmx import is_htmx
from coach.web.shared import learners
from coach.web.shared.cards import teachers as teacher_cards
from coach.web.shared.dates import due_label
from coach.web.shared.drilling import Asked, DrillError, Drilling
from coach.web.shared.drilling.sessions import assignment_context, install_assignment_answers
from coach.web.shared.drilling.views import NO_ANSWER, drill_context, no_answer
from coach.web.shared.learners import MAX_NAME, name_problem
from drills.kit.base import AnswerError, Verdict
from drills.sets import Slot

bp = Blueprint("classes", __name__)

NOT_COUNTED = (
    "You had answered this question already, so this answer is graded but not counted: "
    "your first answer is the one your teacher sees."
)
REVIEW = "You have answered this question. This is how your first answer was graded, and that is the one that counts."
NEED_NAME = "Type your name, so your teacher knows who you are."
OWN_CLASS = "You teach this class, so you cannot join it as a student."
NEED_CODE = f"Type the code your teacher gave you: {classrooms.CODE_LENGTH} letters and digits."


def _drilling() -> Drilling:
    return current_app.extensions["coach"]


def _field(name: str) -> str:
    value = request.form.get(name, "")
    return value if isinstance(value, str) else ""


def _int(raw: Any) -> int | None:
    try:
        return int(raw)
    except (TypeError, ValueError):
        return None


@bp.after_request
def _private(response: Response) -> Response:
    # A student's classes and answers are theirs: no shared cache keeps them.
    response.headers["Cache-Control"] = "no-store"
    return response


# -- a student's assignment ---------------------------------------------------------


@dataclass(frozen=True)
class Work:
    """One student's assignment as the pages show it: the questions they
    were given (their own seeds with a fresh-seed set) and their answers."""

    learner: Learner
    assignment: Assignment
    room: Classroom
    slots: tuple[Slot, ...]
    answers: dict[int, AssignmentAnswer]
    standing: work_states.Standing

    @property
    def id(self) -> int:
        assert self.assignment.id is not None
        return self.assignment.id

    @property
    def learner_id(self) -> int:
        assert self.learner.id is not None
        return self.learner.id

    @property
    def total(self) -> int:
        return len(self.slots)

    @property
    def answered(self) -> int:
        return len(self.answers)

    @property
    def first_open(self) -> int | None:
        """The first question without an answer: where Start and Continue go."""
        return next((s.index for s in self.slots if s.index not in self.answers), None)

    def next_after(self, after: int) -> int | None:
        """The next question without an answer after `after`, going round to
        the skipped ones before it; None when every question has one."""
        unanswered = [s.index for s in self.slots if s.index not in self.answers]
        return next((i for i in unanswered if i > after), unanswered[0] if unanswered else None)


def _started(session: Session, assignment: Assignment, learner_id: int) -> AssignmentWork | None:
    """The student's copy of the assignment, made (with its seed) on first sight."""
    work = homework.work_of(session, assignment, learner_id)
    if work is not None:
        return work
    with database.write_lock():
        return homework.work_of(session, assignment, learner_id, create=True)


def find_work(session: Session, assignment_id: int, start: bool = False) -> Work | None:
    """This request's student's assignment; None when there is no student,
    no such assignment, or they are not in its class (all alike to them)."""
    learner = learners.current_learner(session)
    if learner is None or learner.id is None:
        return None
    found = homework.assignment_given(session, learner.id, assignment_id)
    if found is None:
        return None
    assignment, room = found
    work = _started(session, assignment, learner.id) if start else homework.work_of(session, assignment, learner.id)
    slots = homework.slots_of(assignment, work)
    answers = homework.answers_of(session, assignment_id, learner.id)
    correct = sum(1 for a in answers.values() if a.correct)
    state = work_states.standing(
        assignment, len(slots), len(answers), correct, work.finished_at if work else None, clock.now()
    )
    return Work(learner, assignment, room, slots, answers, state)


def _work_or_404(session: Session, assignment_id: int, start: bool = False) -> Work:
    work = find_work(session, assignment_id, start)
    if work is None:
        abort(404)
    return work


def assignment_card(session: Session, assignment: Assignment) -> Card | None:
    """The teacher's card an assignment is on; None for the app's own card."""
    if assignment.card_id is None:
        return None
    row = session.get(TeacherCard, assignment.card_id)
    if row is None:  # a card in use cannot be deleted; this is a broken row
        raise DrillError("the card of this assignment is missing: ask your teacher", 404)
    return teacher_cards.card_of(row)


def ask_slot(session: Session, work: Work, index: int) -> Asked:
    """The question of one slot, on the assignment's card, under the class's table rules."""
    slot = work.slots[index]
    card = assignment_card(session, work.assignment)
    return _drilling().ask(slot.drill, seed=slot.seed, level=slot.level, card=card, rules=classrooms.class_rules(session, work.room.id or 0))


def check_slot(session: Session, work: Work, index: int, asked: Asked) -> Slot:
    """The slot an answer is for, when its question is exactly that slot's
    (drill, level, seed and card, under the class's table rules); a DrillError
    for any other question, so a token from another slot, assignment or drill,
    or one asked under other rules, never counts here."""
    slot = work.slots[index] if 0 <= index < work.total else None
    card = assignment_card(session, work.assignment) or _drilling().card
    q = asked.question
    if slot is None or (q.drill, q.level, q.seed, q.card) != (slot.drill, slot.level, slot.seed, card.name):
        raise DrillError(f"this answer is for a question that is not question {index + 1} of this assignment")
    if q.rules != classrooms.class_rules(session, work.room.id or 0):
        raise DrillError(
            f"question {index + 1} was shown under other table rules than the class's now (your teacher may have"
            " changed them): open it again to answer it"
        )
    return slot


def review(asked: Asked, stored: AssignmentAnswer) -> tuple[Verdict | None, Any]:
    """The first answer graded again, so that the student can look back at it."""
    given = json.loads(stored.answer)
    try:
        return asked.module.grade(asked.question, given), given
    except AnswerError:  # an answer this drill no longer takes: show the question alone
        return None, None


def question_context(
    session: Session,
    work: Work,
    index: int,
    asked: Asked,
    verdict: Verdict | None = None,
    answer: Any = None,
    note: str = "",
    problem: str | None = None,
) -> dict[str, Any]:
    """The question page's context: the drill's own, and the assignment bar's."""
    return drill_context(
        asked,
        verdict,
        answer,
        work=work,
        number=index + 1,
        note=note,
        problem=problem,
        zone=work.learner.time_zone,
        **assignment_context(work.id, index),
    )


def _question_url(work: Work, index: int) -> str:
    return url_for("classes.question", assignment_id=work.id, number=index + 1)


# -- the pages -----------------------------------------------------------------------


@bp.get("/classes")
def my_classes():
    with database.reading() as session:
        learner = learners.current_learner(session)
        mine = work_states.my_assignments(session, learner.id) if learner and learner.id else []
        joined = classrooms.classes_joined(session, learner.id) if learner and learner.id else []
        hands = class_hands.hands_given(session, learner.id) if learner and learner.id else []
        seated = [
            (room, found) for room, _ in joined
            if learner and learner.id and (found := class_tables.seat_in_latest_round(session, room.id or 0, learner.id))
        ]
        return render_template(
            "classes/home.html",
            class_tables=[(room, table.code, seat.seat) for room, (table, seat) in seated],
            learner=learner,
            mine=mine,
            class_hands=hands,
            joined=[(room, teacher_label(teacher)) for room, teacher in joined],
            zone=learner.time_zone if learner else "UTC",
            need_name=learner is None or not learner.name.strip(),
            values={},
            errors={},
        )


def _no_such_code(code: str, status: int) -> ResponseReturnValue:
    """A code that opens no class: said plainly, with the code as read, and a
    form to type it again."""
    if code:
        message = (
            f"No class has the code \u201c{code[:16]}\u201d. Check it with your teacher: "
            f"codes are {classrooms.CODE_LENGTH} letters and digits."
        )
    else:
        message = NEED_CODE
    return render_template(
        "classes/join.html", room=None, values={"code": code[:16]}, errors={"code": message}
    ), status


def _join_page(session: Session, room: Classroom, errors: dict[str, str], values: dict[str, str], status: int = 200):
    """The class behind a code: its name, its teacher, and what this person can do."""
    learner = learners.current_learner(session)
    teacher = session.get(Learner, room.teacher_id)
    assert room.id is not None
    member = learner is not None and learner.id is not None and classrooms.membership(session, learner.id, room.id)
    return render_template(
        "classes/join.html",
        room=room,
        teacher_name=teacher_label(teacher),
        learner=learner,
        member=bool(member),
        own=learner is not None and learner.id == room.teacher_id,
        need_name=learner is None or not learner.name.strip(),
        values={"code": room.join_code, **values},
        errors=errors,
    ), status


def teacher_label(teacher: Learner | None) -> str:
    """A teacher as their students see them: their name, never their email
    (empty when they gave none, and the pages then say nothing)."""
    return teacher.name.strip() if teacher is not None else ""


@bp.get("/join/<code>")
@limits.join
def join_page(code: str):
    code = classrooms.normal_code(code)
    with database.reading() as session:
        room = classrooms.class_by_code(session, code)
        if room is None:
            return _no_such_code(code, 404)
        return _join_page(session, room, {}, {})


@bp.post("/join")
@limits.join
def join():
    code = classrooms.normal_code(_field("code"))
    name = " ".join(_field("name").split())
    with database.reading() as session:
        room = classrooms.class_by_code(session, code) if code else None
        if room is None:
            return _no_such_code(code, 422)
        learner = learners.current_learner(session)
        if learner is not None and learner.id == room.teacher_id:
            return _join_page(session, room, {"form": OWN_CLASS}, {}, 422)
        if learner is None or not learner.name.strip():
            problem = NEED_NAME if not name else name_problem(name)
            if problem:
                return _join_page(session, room, {"name": problem}, {"name": name[:MAX_NAME]}, 422)
        with database.write_lock():
            learner = learner or learners.current_learner(session, create=True)
            assert learner is not None and learner.id is not None and room.id is not None
            already = classrooms.membership(session, learner.id, room.id) is not None
            try:
                classrooms.join_class(session, learner, room.join_code)
            except TeachingError as error:
                return _join_page(session, room, {"form": str(error)}, {}, 422)
            if not learner.name.strip():
                learner.name = name
                session.add(learner)
                session.commit()
        if already:
            flash(f"You are already in {room.name}.", "success")
        else:
            flash(f"You joined {room.name}. Its assignments show up here.", "success")
    return redirect(url_for("classes.my_classes"), 303)


@bp.post("/classes/<int:class_id>/leave")
def leave(class_id: int):
    with database.reading() as session:
        learner = learners.current_learner(session)
        room = session.get(Classroom, class_id)
        if learner is None or learner.id is None or room is None:
            abort(404)
        with database.write_lock():
            left = classrooms.leave_class(session, learner.id, class_id)
        if not left:
            abort(404)
        flash(f"You left {room.name}. Your answers are kept: join again with the code and they come back.", "success")
    return redirect(url_for("classes.my_classes"), 303)


@bp.get("/assignments/<int:assignment_id>")
def assignment(assignment_id: int):
    with database.reading() as session:
        work = _work_or_404(session, assignment_id)
        items = [
            {
                "slot": slot,
                "drill": drills.DRILLS[slot.drill],
                "level": drills.DRILLS[slot.drill].LEVELS[slot.level - 1],
                "answer": work.answers.get(slot.index),
            }
            for slot in work.slots
        ]
        return render_template(
            "classes/assignment.html",
            work=work,
            items=items,
            correct=sum(1 for a in work.answers.values() if a.correct),
            description=drill_sets.drill_set_of(work.assignment).description,
            zone=work.learner.time_zone,
        )


@bp.get("/assignments/<int:assignment_id>/q/<int:number>")
@limits.drilling
def question(assignment_id: int, number: int):
    with database.reading() as session:
        work = _work_or_404(session, assignment_id, start=True)
        if not 1 <= number <= work.total:
            abort(404)
        index = number - 1
        asked = ask_slot(session, work, index)
        stored = work.answers.get(index)
        verdict, given = review(asked, stored) if stored is not None else (None, None)
        note = REVIEW if stored is not None else ""
        return render_template(
            "classes/question.html", **question_context(session, work, index, asked, verdict, given, note)
        )


@bp.post("/assignments/<int:assignment_id>/next")
@limits.drilling
def next_question(assignment_id: int):
    after = _int(request.form.get("after"))
    with database.reading() as session:
        work = _work_or_404(session, assignment_id, start=True)
        index = work.next_after(-1 if after is None else after)
        if index is None:  # all answered: the summary
            url = url_for("classes.assignment", assignment_id=assignment_id)
            return ("", 200, {"HX-Redirect": url}) if is_htmx() else redirect(url, 303)
        url = _question_url(work, index)
        if not is_htmx():
            return redirect(url, 303)
        context = question_context(session, work, index, ask_slot(session, work, index))
        return render_template("classes/partials/stage.html", **context), 200, {"HX-Push-Url": url}


# -- answering (from pages.answer) ---------------------------------------------------


def answer(name: str, form: MultiDict[str, str], given: Any) -> ResponseReturnValue:
    """Grade an answer to a question of an assignment and keep it: in the
    student's progress, like any answer, and for the teacher when it is the
    first answer to that question. Everything is checked before anything
    is stored: the student is in the class, and the question is theirs."""
    assignment_id, index = _int(form.get("assignment")), _int(form.get("slot"))
    if assignment_id is None or index is None:
        raise DrillError('an answer in an assignment needs "assignment" and "slot" as whole numbers')
    with database.reading() as session:
        work = find_work(session, assignment_id, start=True)
        if work is None:
            raise DrillError("no such assignment", 404)
        if no_answer(given):
            return _no_answer_yet(session, work, index, name, form)
        asked, verdict = _drilling().grade(name, form.get("token"), given)
        slot = check_slot(session, work, index, asked)
        assignment, student = work.assignment, work.learner_id

        def for_the_teacher(store: Session, learner_id: int) -> bool:
            # In the same transaction as the student's own progress row: both kept, or neither.
            same = learner_id == student
            return same and homework.add_assignment_answer(store, assignment, learner_id, slot, asked.question, verdict)

        _, counted = learners.record_with(
            asked.question, verdict, form.get("elapsed_ms"), form.get("tz"), also=for_the_teacher
        )
        work = _work_or_404(session, assignment_id)  # with this answer in
        note = "" if counted else NOT_COUNTED
        context = question_context(session, work, index, asked, verdict, given, note)
        if not is_htmx():
            return render_template("classes/question.html", **context)
        verdict_html = render_template(f"partials/{context['base']}_verdict.html", **context)
        extra = render_template("classes/partials/answered.html", **context)
        return verdict_html + extra


def _no_answer_yet(
    session: Session, work: Work, index: int, name: str, form: MultiDict[str, str]
) -> ResponseReturnValue:
    """Nothing picked: the same question again with a word on what to do."""
    asked = _drilling().from_token(name, form.get("token"))
    check_slot(session, work, index, asked)
    if is_htmx():
        return render_template("partials/problem.html", title="No answer yet", message=NO_ANSWER), 422
    context = question_context(session, work, index, asked, problem=NO_ANSWER)
    return render_template("classes/question.html", **context), 422


def install(app: Flask) -> None:
    app.register_blueprint(bp)
    install_assignment_answers(app, answer)
    app.jinja_env.globals.update(due_label=due_label)
