"""Teach: the home page, classes, assignments and the class dashboard.

    GET      /teach                                   home (or how to start teaching)
    POST     /teach/start                             the account becomes a teacher's
    POST     /teach/classes                           a new class
    GET      /teach/classes/<id>                      the class: code, link, students, assignments
    POST     /teach/classes/<id>/rename | /code | /assign
    POST     /teach/classes/<id>/hands                give the class a hand (title, computer players, card, deal number, due date)
    POST     /teach/classes/<id>/rules                the class's table rules (one field per switch, or "league")
    GET/POST /teach/classes/<id>/students/<learner>/remove   confirm, then take the student out
    GET/POST /teach/classes/<id>/delete               confirm, then delete
    GET      /teach/classes/<id>/dashboard(.csv)      who did what, as a page or a spreadsheet
    (class tables, seated and watched: coach/web/teach/tables.py)
    GET      /teach/assignments/<id>                  per question: right, wrong, why
    POST     /teach/assignments/<id>/due              move or clear the due date
    GET/POST /teach/assignments/<id>/delete           confirm, then delete

Changes answer with a flash and a 303 to a page (Post/Redirect/Get); a
form with a problem comes back with the message and a 422.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_user
from sqlmodel import Session

from coach.rules.table_rules import TableRules, TableRulesError, names
from coach.store.models import Assignment, Classroom, Learner
from coach.store.teaching import classrooms, dashboards, drill_sets, homework, roles, teachers_cards, work_states
from coach.store.teaching import hands as class_hands
from coach.store.teaching import reports as class_report
from coach.store.teaching.errors import TeachingError
from coach.web.infra import database
from coach.web.infra.downloads import download
from coach.web.infra.errors import page_error
from coach.web.infra.forms import field
from coach.web.infra.htmx import is_htmx
from coach.web.shared.cards import teachers as teacher_cards
from coach.web.shared.drilling.views import drill_context
from coach.web.shared.learners import SignedIn, is_account
from coach.web.shared.table_rules import form_context, from_form
from coach.web.teach import hands as teach_hands
from coach.web.teach import reports as teach_reports
from coach.web.teach import tables as teach_tables
from coach.web.teach.base import (
    bp,
    drilling,
    due_from_form,
    found,
    not_found,
    sets_for_assigning,
    show_date,
    slug,
    teacher_id,
    teacher_row,
    zone_of,
)
from drills.sets import HOUSE, DrillSet, sample_sets


@dataclass(frozen=True)
class ClassSummary:
    """A class as the home page lists it."""

    room: Classroom
    students: int
    assignments: int


@dataclass(frozen=True)
class GivenSummary:
    """An assignment as the class page lists it: "2 of 3 turned in"."""

    assignment: Assignment
    due: str
    questions: int
    turned_in: int
    started: int
    late: int
    students: int

    @property
    def summary(self) -> str:
        if not self.students:
            return "No students yet"
        parts = [f"{self.turned_in} of {self.students} turned in"]
        working = self.started - self.turned_in
        if working:
            parts.append(f"{working} started")
        if self.late:
            parts.append(f"{self.late} late")
        return " · ".join(parts)


# -- home and starting to teach -------------------------------------------------------


@bp.get("")
def home():
    """The teacher's classes; an account that does not teach yet is shown
    what teaching is, and a visitor or guest is sent to make an account."""
    if not is_account():
        return redirect(url_for("accounts.signup") + "?next=" + url_for("teach.home"))
    if not current_user.teacher:
        return render_template("teach/start.html")
    with database.reading() as session:
        return _home_page(session, {}, {})


def _home_page(session: Session, values: dict[str, str], errors: dict[str, str], status: int = 200):
    owner = teacher_id()
    rooms = [
        ClassSummary(room, len(classrooms.students(session, room.id or 0)), len(homework.assignments_of_class(session, room.id or 0)))
        for room in classrooms.classes_taught(session, owner)
    ]
    return render_template(
        "teach/home.html",
        classes=rooms,
        set_count=len(drill_sets.sets_of(session, owner)),
        card_count=len(teachers_cards.cards_of(session, owner)),
        values=values,
        errors=errors,
    ), status


@bp.post("/start")
def start():
    """Turn teaching on for a signed-up account (a guest has no account to keep classes in)."""
    if not is_account():
        abort(403, description="Create an account first: classes belong to an account, not to one browser.")
    with database.reading() as session:
        learner = found(session.get(Learner, int(current_user.id)))
        learner.role = roles.TEACHER
        session.add(learner)
        session.commit()
        session.refresh(learner)
        login_user(SignedIn.of(learner), remember=True)
    flash("Teaching is on. Make your first class below.", "success")
    return redirect(url_for("teach.home"), 303)


# -- classes ----------------------------------------------------------------------------


@bp.post("/classes")
def create_class():
    """A new class, straight to its page: the code is what the teacher needs next."""
    owner = teacher_id()
    name = field("name")
    with database.reading() as session:
        try:
            room = classrooms.create_class(session, owner, name)
        except TeachingError as error:
            return _home_page(session, {"name": name}, {"name": str(error)}, 422)
    flash(f"\u201c{room.name}\u201d is ready. Give your students the code {room.join_code} to join.", "success")
    return redirect(url_for("teach.class_page", class_id=room.id), 303)


def _given(session: Session, room: Classroom, teacher: Learner) -> list[GivenSummary]:
    board = dashboards.dashboard(session, room)
    out = []
    for a in board.assignments:
        assert a.id is not None
        standings = [row.standings[a.id] for row in board.rows]
        out.append(
            GivenSummary(
                assignment=a,
                due=show_date(a.due_at, teacher),
                questions=drill_sets.drill_set_of(a).total,
                turned_in=sum(1 for s in standings if s.state == work_states.TURNED_IN),
                started=sum(1 for s in standings if s.answered),
                late=sum(1 for s in standings if s.state == work_states.LATE or s.turned_in_late),
                students=len(standings),
            )
        )
    return out


def _class_page(
    session: Session, room: Classroom, values: dict[str, str] | None = None, errors: dict[str, str] | None = None, status: int = 200
):
    teacher = teacher_row(session)
    people = [(person, roles.display_name(person)) for person in classrooms.students(session, room.id or 0)]
    return render_template(
        "teach/class.html",
        **rules_context(room, classrooms.class_rules(session, room.id or 0)),
        room=room,
        join_url=url_for("classes.join_page", code=room.join_code, _external=True),
        people=people,
        given=_given(session, room, teacher),
        choices=sets_for_assigning(session, teacher.id or 0),
        values=values or {},
        errors=errors or {},
        **(hands_context := teach_hands.class_page_context(session, room)),
        **teach_tables.class_page_context(session, room, hands_context["hand_cards"]),
    ), status


@bp.post("/classes/<int:class_id>/hands")
def assign_hand(class_id: int):
    """Give the class a hand: every student plays the same deal; a problem comes back on the class page (422)."""
    values = {key: field(key) for key in ("hand_title", "hand_bots", "hand_card", "hand_seed", "hand_due")}
    with database.reading() as session:
        room = found(classrooms.class_taught(session, teacher_id(), class_id))
        teacher = teacher_row(session)
        errors: dict[str, str] = {}
        due_at, due_problem = due_from_form(values["hand_due"], teacher)
        if due_problem:
            errors["hand_due"] = due_problem
        raw_seed = values["hand_seed"].strip()
        seed = int(raw_seed) if raw_seed.isdigit() and len(raw_seed) < 11 else None
        if raw_seed and seed is None:
            errors["hand_seed"] = "A deal number is a whole number, such as 4242; leave it empty for a new deal."
        card = values["hand_card"] or HOUSE
        card_id = None if card == HOUSE else int(card) if card.isdigit() and len(card) < 12 else -1
        if not errors:
            try:
                given = class_hands.assign_hand(
                    session, teacher.id or 0, class_id, values["hand_title"], values["hand_bots"] or "club", seed, card_id, due_at
                )
            except TeachingError as error:
                message = str(error)
                key = "hand_seed" if "deal number" in message else "hand_card" if "card" in message else "hand_title"
                errors[key] = message
        if errors:
            return _class_page(session, room, values, errors, 422)
        flash(f"Gave {room.name} the hand \u201c{given.title}\u201d: deal {given.seed}, {given.bots} players.", "success")
    return redirect(url_for("teach.class_page", class_id=class_id) + "#class-hands", 303)


CLASS_RULES_INTRO = (
    "This class's assignments, and the class hands you give from now on, follow these rules"
    " (a class hand keeps the rules it was given with)."
)


def rules_context(room: Classroom, rules: TableRules, saved: bool = False, problem: str = "") -> dict[str, Any]:
    """What partials/table_rules_form.html needs on the class page."""
    action = url_for("teach.class_rules", class_id=room.id)
    return {**form_context(rules, action, "the class's", saved, problem), "rules_intro": CLASS_RULES_INTRO, "rules_wide": True}


@bp.post("/classes/<int:class_id>/rules")
def class_rules(class_id: int):
    """Set the class's table rules: htmx gets the form's section back, a plain post the
    class page (303). A value the form does not offer (a forged post) is a 400."""
    with database.reading() as session:
        room = _room(session, class_id)
        name = room.name
        try:
            rules = from_form(request.form)
        except TableRulesError as error:
            if is_htmx():
                kept = classrooms.class_rules(session, class_id)
                return render_template("partials/table_rules_form.html", **rules_context(room, kept, problem=str(error))), 400
            return page_error(400, "Table rules not saved", str(error))
        with database.write_lock():
            found(classrooms.set_table_rules(session, teacher_id(), class_id, rules))
        if is_htmx():
            return render_template("partials/table_rules_form.html", **rules_context(room, rules, saved=True))
    shown = names(rules)
    flash(
        f"{name} plays by these table rules now: {'; '.join(shown)}." if shown else f"{name} plays by the League rules now.",
        "success",
    )
    return redirect(url_for("teach.class_page", class_id=class_id) + "#table-rules", 303)


def _room(session: Session, class_id: int) -> Classroom:
    return found(classrooms.class_taught(session, teacher_id(), class_id))


@bp.get("/classes/<int:class_id>")
def class_page(class_id: int):
    with database.reading() as session:
        return _class_page(session, _room(session, class_id))


@bp.post("/classes/<int:class_id>/rename")
def rename_class(class_id: int):
    """Rename; the code and the students stay."""
    name = field("name")
    with database.reading() as session:
        room = _room(session, class_id)
        try:
            classrooms.rename_class(session, teacher_id(), class_id, name)
        except TeachingError as error:
            session.refresh(room)
            return _class_page(session, room, {"name": name}, {"name": str(error)}, 422)
        flash(f"The class is now called \u201c{room.name}\u201d.", "success")
    return redirect(url_for("teach.class_page", class_id=class_id), 303)


@bp.post("/classes/<int:class_id>/code")
def new_code(class_id: int):
    """A fresh code for a leaked or shared-too-widely one; students stay in."""
    with database.reading() as session:
        _room(session, class_id)
        room = found(classrooms.new_join_code(session, teacher_id(), class_id))
        flash(f"The new code is {room.join_code}. The old code and link no longer work; students already in the class stay in.", "success")
    return redirect(url_for("teach.class_page", class_id=class_id), 303)


@bp.route("/classes/<int:class_id>/delete", methods=["GET", "POST"])
def delete_class(class_id: int):
    """GET: what would go, and a red button; POST: delete (the confirm step
    is a page, not a script, so it works everywhere)."""
    with database.reading() as session:
        room = _room(session, class_id)
        if request.method == "GET":
            students = len(classrooms.students(session, class_id))
            given = len(homework.assignments_of_class(session, class_id))
            return render_template("teach/delete_class.html", room=room, students=students, given=given)
        name = room.name
        classrooms.delete_class(session, teacher_id(), class_id)
    flash(f"Deleted the class \u201c{name}\u201d.", "success")
    return redirect(url_for("teach.home"), 303)


@bp.route("/classes/<int:class_id>/students/<int:learner_id>/remove", methods=["GET", "POST"])
def remove_student(class_id: int, learner_id: int):
    """GET: a confirm page; POST: take the student out. Someone not in this
    class is a 404, like a stranger's class."""
    with database.reading() as session:
        room = _room(session, class_id)
        if classrooms.membership(session, learner_id, class_id) is None:
            not_found()
        person = found(session.get(Learner, learner_id))
        name = roles.display_name(person)
        if request.method == "GET":
            return render_template("teach/remove_student.html", room=room, person=person, name=name)
        classrooms.remove_student(session, teacher_id(), class_id, learner_id)
        flash(f"Removed {name} from \u201c{room.name}\u201d. Their answers are kept if they join again.", "success")
    return redirect(url_for("teach.class_page", class_id=class_id), 303)


# -- assigning ---------------------------------------------------------------------------


def chosen_set(session: Session, owner: int, choice: str) -> tuple[DrillSet | None, str | None]:
    """The set the assign form names ("set:<id>" or "sample:<n>"), or a message."""
    kind, _, number = choice.partition(":")
    if not choice:
        return None, "Choose a drill set to assign."
    if kind not in ("set", "sample") or not number.isdigit() or len(number) > 9:
        return None, "That is not one of your drill sets. Choose one from the list."
    if kind == "sample":
        samples = sample_sets()
        if not 1 <= int(number) <= len(samples):
            return None, "That is not one of the sample sets. Choose one from the list."
        return samples[int(number) - 1], None
    row = drill_sets.set_of(session, owner, int(number))
    if row is None:
        return None, "That is not one of your drill sets. Choose one from the list."
    return drill_sets.drill_set_of(row), None


@bp.post("/classes/<int:class_id>/assign")
def assign(class_id: int):
    """Give the class a copy of a set, with an optional due date in the
    teacher's own time zone; a problem comes back on the class page (422)."""
    values = {"set": field("set"), "due": field("due")}
    with database.reading() as session:
        room = _room(session, class_id)
        teacher = teacher_row(session)
        drill_set, set_problem = chosen_set(session, teacher.id or 0, values["set"])
        due_at, due_problem = due_from_form(values["due"], teacher)
        errors = {key: message for key, message in (("set", set_problem), ("due", due_problem)) if message}
        if not errors:
            assert drill_set is not None
            try:
                given = homework.assign(session, teacher.id or 0, class_id, drill_set, due_at)
            except TeachingError as error:
                errors["set"] = str(error)
        if errors:
            return _class_page(session, room, values, errors, 422)
        due = show_date(given.due_at, teacher)
        flash(f"Assigned \u201c{given.title}\u201d to {room.name}" + (f", due {due}." if due else ", with no due date."), "success")
    return redirect(url_for("teach.class_page", class_id=class_id) + "#assignments", 303)


# -- the dashboard --------------------------------------------------------------------


@bp.get("/classes/<int:class_id>/dashboard")
def dashboard(class_id: int):
    """Students by assignments: state, answered, right."""
    with database.reading() as session:
        room = _room(session, class_id)
        teacher = teacher_row(session)
        board = dashboards.dashboard(session, room)
        due = {a.id: show_date(a.due_at, teacher) for a in board.assignments}
        weak = class_report.weak_spots(session, teacher_id(), class_id, teach_reports.card_name_of(session))
        return render_template(
            "teach/dashboard.html", room=room, board=board, due=due, weak=weak, rule_title=teach_reports.rule_title
        )


@bp.get("/classes/<int:class_id>/dashboard.csv")
def dashboard_csv(class_id: int):
    """The dashboard for a spreadsheet, named after the class."""
    with database.reading() as session:
        room = _room(session, class_id)
        body = dashboards.dashboard_csv(dashboards.dashboard(session, room))
        filename = f"{slug(room.name, 'class')}-results.csv"
    return download(body, "text/csv", filename)


# -- one assignment -------------------------------------------------------------------


def _assignment(session: Session, assignment_id: int) -> tuple[Assignment, Classroom]:
    return found(homework.assignment_taught(session, teacher_id(), assignment_id))


@bp.get("/assignments/<int:assignment_id>")
def assignment_page(assignment_id: int):
    """Per question: how many got it right, and the common wrong answers
    with the coach's explanation, so the teacher knows what to go over."""
    with database.reading() as session:
        given, room = _assignment(session, assignment_id)
        return assignment_view(session, given, room)


def assignment_view(
    session: Session, given: Assignment, room: Classroom, values: dict[str, str] | None = None,
    errors: dict[str, str] | None = None, status: int = 200,
):
    teacher = teacher_row(session)
    drill_set = drill_sets.drill_set_of(given)
    stats = dashboards.question_stats(session, given)
    due_day = given.due_at.astimezone(zone_of(teacher)).date().isoformat() if given.due_at else ""
    context: dict[str, Any] = dict(
        given=given,
        room=room,
        drill_set=drill_set,
        stats=stats,
        slots={slot.index: slot for slot in drill_set.slots()},
        due=show_date(given.due_at, teacher),
        students=len(classrooms.students(session, room.id or 0)),
        values=values or {"due": due_day},
        errors=errors or {},
    )
    return render_template("teach/assignment.html", **context), status


@bp.post("/assignments/<int:assignment_id>/due")
def change_due(assignment_id: int):
    """Move or clear the due date. Work turned in stays turned in; whether it
    was late follows the new date, as the dashboard always works it out."""
    raw = field("due")
    with database.reading() as session:
        given, room = _assignment(session, assignment_id)
        due, problem = due_from_form(raw, teacher_row(session))
        if problem:
            return assignment_view(session, given, room, values={"due": raw[:20]}, errors={"due": problem}, status=422)
        class_report.set_due(session, teacher_id(), assignment_id, due)
        shown = show_date(due, teacher_row(session))
    flash(f"\u201c{given.title}\u201d is now due {shown}." if due else f"\u201c{given.title}\u201d has no due date now.", "success")
    return redirect(url_for("teach.assignment_page", assignment_id=assignment_id), 303)


@bp.get("/assignments/<int:assignment_id>/q/<int:number>")
def preview_question(assignment_id: int, number: int):
    """A question of an assignment as the class sees it, on the class's card,
    with the coach's answer and explanation shown: what to go over in class.
    With fresh seeds every student had their own; this is the set's own example."""
    with database.reading() as session:
        given, room = _assignment(session, assignment_id)
        drill_set = drill_sets.drill_set_of(given)
        slots = drill_set.slots()
        if not 1 <= number <= len(slots):
            not_found()
        slot = slots[number - 1]
        card = None
        if given.card_id is not None:
            card = teacher_cards.card_of(found(teachers_cards.card_of(session, teacher_id(), given.card_id)))
        asked = drilling().ask(slot.drill, seed=slot.seed, level=slot.level, card=card, rules=classrooms.class_rules(session, room.id or 0))
        verdict = asked.module.grade(asked.question, None)
        context = drill_context(
            asked,
            verdict,
            None,
            given=given,
            room=room,
            drill_set=drill_set,
            number=number,
            total=len(slots),
            preview=True,
            previous_url=url_for("teach.preview_question", assignment_id=assignment_id, number=number - 1) if number > 1 else None,
            next_url=url_for("teach.preview_question", assignment_id=assignment_id, number=number + 1) if number < len(slots) else None,
        )
        return render_template("teach/preview.html", **context)


@bp.route("/assignments/<int:assignment_id>/delete", methods=["GET", "POST"])
def delete_assignment(assignment_id: int):
    """GET: a confirm page saying whose answers go; POST: delete."""
    with database.reading() as session:
        given, room = _assignment(session, assignment_id)
        if request.method == "GET":
            board = dashboards.dashboard(session, room)
            started = sum(1 for row in board.rows if row.standings[given.id or 0].answered)
            return render_template("teach/delete_assignment.html", given=given, room=room, started=started)
        title, class_id = given.title, room.id
        homework.delete_assignment(session, teacher_id(), assignment_id)
    flash(f"Deleted the assignment \u201c{title}\u201d and its answers.", "success")
    return redirect(url_for("teach.class_page", class_id=class_id) + "#assignments", 303)
