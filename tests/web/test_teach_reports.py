"""Teachers (issue 15, part 5): move a due date, one student's page, the
class's weakest rules and drills, a printable worksheet with its answer key
on a page of its own, a confirm before removing a student (in
test_web_teach.py), and guests in a class asked to make an account."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlmodel import select

from coach.store.models import Assignment, Membership
from coach.store.teaching import drill_sets, homework
from tests.support.paths import ROOT
from tests.support.teaching import (
    answer_slots,
    assign,
    code_of,
    count,
    db,
    guest,
    join,
    last_assignment,
    make_class,
    make_set,
    post,
    sign_up,
    text_of,
)


def answer(app, assignment_id: int, student: int, rights: list[bool]) -> list:
    """The student answers the first questions (name-the-tile) as the web
    does: the assignment's answer and the learner's attempt. Returns the verdicts."""
    return answer_slots(app, assignment_id, student, rights, attempts=True)


def classroom(app):
    tess = sign_up(app, "tess@example.org", name="Tess", time_zone="America/New_York")
    sign_up(app, "sam@example.org", teacher=False, name="Sam Lee")
    sign_up(app, "ana@example.org", teacher=False, name="Ana Ruiz")
    class_id = make_class(tess)
    sam, ana = join(app, "sam@example.org", class_id), join(app, "ana@example.org", class_id)
    set_id = make_set(tess, app, "Tiles week", [("name-the-tile", "1", "3")])
    assert assign(tess, class_id, f"set:{set_id}").status_code == 303
    return tess, class_id, set_id, last_assignment(app).id, sam, ana


# -- due dates ---------------------------------------------------------------------------

SOON = date.today() + timedelta(days=40)  # always ahead, never more than two years off
LATER = date.today() + timedelta(days=90)


def label(day: date) -> str:
    return f"{day:%a} {day.day} {day:%b}"


def test_a_teacher_moves_and_clears_a_due_date(app):
    tess, class_id, _set_id, assignment_id, _sam, _ana = classroom(app)
    response = post(tess, f"/teach/assignments/{assignment_id}/due", {"due": SOON.isoformat()})
    assert response.status_code == 303
    page = text_of(tess.get(f"/teach/assignments/{assignment_id}"))
    assert f"“Tiles week” is now due {label(SOON)}" in page
    assert f'value="{SOON.isoformat()}"' in page  # the form shows the date it holds, in the teacher's zone
    with db(app) as session:
        due = session.get(Assignment, assignment_id).due_at
    end_of_day = datetime.combine(SOON, time(23, 59, 59), tzinfo=ZoneInfo("America/New_York"))
    assert due is not None and due == end_of_day.astimezone(UTC).replace(microsecond=0)
    assert f"due {label(SOON)}" in text_of(tess.get(f"/teach/classes/{class_id}"))
    assert post(tess, f"/teach/assignments/{assignment_id}/due", {"due": ""}).status_code == 303
    assert "“Tiles week” has no due date now." in text_of(tess.get(f"/teach/assignments/{assignment_id}"))
    with db(app) as session:
        assert session.get(Assignment, assignment_id).due_at is None


def test_a_bad_due_date_comes_back_at_its_field_and_changes_nothing(app):
    tess, _class_id, _set_id, assignment_id, _sam, _ana = classroom(app)
    assert post(tess, f"/teach/assignments/{assignment_id}/due", {"due": LATER.isoformat()}).status_code == 303
    for raw, message in (("2001-01-01", "That day has passed."), ("next week", "is not a date")):
        response = post(tess, f"/teach/assignments/{assignment_id}/due", {"due": raw})
        assert response.status_code == 422
        page = text_of(response)
        assert message in page and 'id="due-error"' in page and 'aria-invalid="true"' in page
        with db(app) as session:
            assert session.get(Assignment, assignment_id).due_at.date() in (LATER, LATER + timedelta(days=1))


def test_a_student_sees_the_new_due_date(app):
    tess, _class_id, _set_id, assignment_id, _sam, _ana = classroom(app)
    sam = app.test_client()
    assert post(sam, "/signin", {"email": "sam@example.org", "password": "correct horse battery"}).status_code == 303
    assert post(tess, f"/teach/assignments/{assignment_id}/due", {"due": SOON.isoformat()}).status_code == 303
    page = text_of(sam.get("/classes"))
    # Sam keeps UTC: the end of that day in New York is early the next day for him.
    assert f"Due {label(SOON + timedelta(days=1))}" in page


# -- one student's page ------------------------------------------------------------------


def test_one_students_page_lists_every_answer_with_its_verdict(app):
    tess, class_id, _set_id, assignment_id, sam, ana = classroom(app)
    verdicts = answer(app, assignment_id, sam, [True, False])
    answer(app, assignment_id, ana, [False])
    page = text_of(tess.get(f"/teach/classes/{class_id}/students/{sam}"))
    assert "<h1>Sam Lee</h1>" in page and "1 of 2 answers right in this class" in page
    assert "Tiles week" in page and "2 of 3 answered" in page
    assert page.count('class="answer-row answer-row--right"') == 1 and page.count('class="answer-row answer-row--wrong"') == 1
    for verdict in verdicts:
        for line in verdict.explanation:
            assert line in page
    wrong = verdicts[1]
    assert f"Answered:</span> {homework.describe_answer(wrong.answer)}" in page
    assert "Ana Ruiz" not in page  # only this student's work
    # Linked from the class page and the dashboard.
    href = f'href="/teach/classes/{class_id}/students/{sam}"'
    assert href in text_of(tess.get(f"/teach/classes/{class_id}"))
    assert href in text_of(tess.get(f"/teach/classes/{class_id}/dashboard"))


def test_a_student_page_is_a_404_for_someone_not_in_the_class_or_another_teacher(app):
    tess, class_id, _set_id, _assignment_id, sam, _ana = classroom(app)
    other = sign_up(app, "olga@example.org", name="Olga")
    assert other.get(f"/teach/classes/{class_id}/students/{sam}").status_code == 404
    assert post(tess, f"/teach/classes/{class_id}/students/{sam}/remove").status_code == 303
    assert tess.get(f"/teach/classes/{class_id}/students/{sam}").status_code == 404
    assert tess.get(f"/teach/classes/{class_id}/students/999999").status_code == 404


# -- the class's weakest rules and drills ------------------------------------------------


def test_the_dashboard_names_the_rules_and_drills_the_class_gets_wrong(app):
    tess, class_id, _set_id, assignment_id, sam, ana = classroom(app)
    quiet = text_of(tess.get(f"/teach/classes/{class_id}/dashboard"))
    assert "What the class gets wrong" in quiet and "Nothing stands out yet" in quiet
    verdicts = answer(app, assignment_id, sam, [False, False, True]) + answer(app, assignment_id, ana, [False, True])
    page = text_of(tess.get(f"/teach/classes/{class_id}/dashboard"))
    assert "Weakest drills" in page
    weak = page[page.index("What the class gets wrong"):]
    assert re.search(r"Name the tile\s*<span class=\"weak-list__num\">2 of 5 right</span>", weak), weak[:1500]
    tally: dict[str, list[int]] = {}
    for verdict in verdicts:
        for rule in set(verdict.rules):
            tally.setdefault(rule, [0, 0])
            tally[rule][0] += 1
            tally[rule][1] += not verdict.correct
    shown = {rule for rule, (answered, wrong) in tally.items() if answered >= 2 and wrong}
    assert shown, "some rule is cited by two answers, one of them wrong"
    assert "Weakest rules" in weak
    for rule, (answered, wrong) in tally.items():
        chip = f'href="/rules#{rule}">{rule}</a>'
        if rule in shown and len(shown) <= 5:
            assert chip in weak and f"{answered - wrong} of {answered} right" in weak, rule
        elif rule not in shown:
            assert chip not in weak, rule  # one answer, or none wrong, says nothing


def test_weak_spots_count_only_students_still_in_the_class(app):
    tess, class_id, _set_id, assignment_id, sam, ana = classroom(app)
    answer(app, assignment_id, sam, [False, False])
    answer(app, assignment_id, ana, [True, True])
    assert "2 of 4 right" in text_of(tess.get(f"/teach/classes/{class_id}/dashboard"))
    assert post(tess, f"/teach/classes/{class_id}/students/{sam}/remove").status_code == 303
    page = text_of(tess.get(f"/teach/classes/{class_id}/dashboard"))
    assert "Nothing stands out yet" in page  # Ana got both right


# -- worksheets --------------------------------------------------------------------------


def test_a_worksheet_shows_each_question_and_the_key_on_its_own_page(app):
    tess, _class_id, set_id, assignment_id, _sam, _ana = classroom(app)
    coach = app.extensions["coach"]
    with db(app) as session:
        given = session.get(Assignment, assignment_id)
        slots = drill_sets.drill_set_of(given).slots()
    for url in (f"/teach/sets/{set_id}/worksheet", f"/teach/assignments/{assignment_id}/worksheet"):
        response = tess.get(url)
        assert response.status_code == 200, url
        page = text_of(response)
        assert "<h1>Tiles week</h1>" in page and "Answer key · Tiles week" in page
        questions, key = page.split('<section class="sheet-key"')
        assert questions.count('class="sheet__q"') == 3
        for slot in slots:
            asked = coach.ask(slot.drill, seed=slot.seed, level=slot.level)
            assert asked.question.prompt in questions
            best = homework.describe_answer(asked.module.grade(asked.question, None).best)
            assert f"<strong>{best}</strong>" in key
        assert "Answer key" not in questions  # the key is never among the questions
    css = (ROOT / "static" / "css" / "teach.css").read_text(encoding="utf-8")
    printing = css[css.index("@media print"):]
    assert ".sheet-key { break-before: page;" in printing and ".site-header" in printing
    assert 'href="/teach/sets/%d/worksheet"' % set_id in text_of(tess.get("/teach/sets"))
    assert f'href="/teach/assignments/{assignment_id}/worksheet"' in text_of(tess.get(f"/teach/assignments/{assignment_id}"))


# -- guests in a class -------------------------------------------------------------------


def test_a_guest_in_a_class_is_asked_to_make_an_account_with_the_reason(app):
    tess, class_id, _set_id, _assignment_id, _sam, _ana = classroom(app)
    visitor = guest(app)
    assert "Make an account to keep your class work" not in text_of(visitor.get("/classes"))  # in no class yet
    response = post(visitor, "/join", {"code": code_of(app, class_id), "name": "Gus"})
    assert response.status_code == 303
    page = text_of(visitor.get("/classes"))
    assert "Make an account to keep your class work" in page
    assert "On another phone or computer you would show up to your teacher as a new student" in page
    assert 'href="/signup?next=/classes"' in page
    sam = app.test_client()
    assert post(sam, "/signin", {"email": "sam@example.org", "password": "correct horse battery"}).status_code == 303
    assert "Make an account to keep your class work" not in text_of(sam.get("/classes"))
    with db(app) as session:
        assert len(session.exec(select(Membership).where(Membership.classroom_id == class_id)).all()) == 3
    assert count(app, Membership) == 3


def test_C4_the_weakest_rules_charge_C4_only_to_a_joker_passed(app):
    """Issue 25: a class whose first passes are worse but keep the joker is
    weak on C1, not on C4; passing the joker puts C4 on the list."""
    from coach.store import progress
    from tests.support.passes import every_pass

    tess, class_id, _set_id, _assignment_id, sam, ana = classroom(app)
    set_id = make_set(tess, app, "First passes", [("first-pass", "2", "8")])
    assert assign(tess, class_id, f"set:{set_id}").status_code == 303
    assignment_id = last_assignment(app).id
    coach = app.extensions["coach"]

    def answer_jokers(student: int, pass_the_joker: bool) -> int:
        answered = 0
        with db(app) as session:
            given = session.get(Assignment, assignment_id)
            work = homework.work_of(session, given, student, create=True)
            for slot in homework.slots_of(given, work):
                asked = coach.ask(slot.drill, seed=slot.seed, level=slot.level)
                q = asked.question
                if "J" not in q.rack:
                    continue
                if pass_the_joker:
                    reply = ["J", *[c for c in q.rack if c != "J"][:2]]
                else:
                    reply = every_pass(q.key["card"], q.key["rack"], q.seed).options[-1].codes
                    assert "J" not in reply
                verdict = asked.module.grade(q, reply)
                assert not verdict.correct
                assert homework.record_assignment_answer(session, given, student, slot, q, verdict)
                progress.record_answer(session, student, q, verdict)
                answered += 1
        return answered

    assert answer_jokers(sam, pass_the_joker=False) >= 2
    page = text_of(tess.get(f"/teach/classes/{class_id}/dashboard"))
    weak = page[page.index("What the class gets wrong"):]
    assert 'href="/rules#C1">C1</a>' in weak and 'href="/rules#C4">C4</a>' not in weak
    answer_jokers(ana, pass_the_joker=True)
    weak = text_of(tess.get(f"/teach/classes/{class_id}/dashboard"))
    assert 'href="/rules#C4">C4</a>' in weak[weak.index("What the class gets wrong"):]
