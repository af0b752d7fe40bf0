"""Teaching in the database: classes and join codes, cards, sets,
assignments counted once, states, the dashboard and its CSV, and what
happens to it all when accounts merge or are deleted."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func
from sqlmodel import Session, select

from coach.notation.card import CardError, house_card
from coach.store import accounts
from coach.store.db import make_engine, migrate
from coach.store.models import (
    Assignment,
    AssignmentAnswer,
    AssignmentWork,
    Classroom,
    DrillSetRow,
    Learner,
    Membership,
    TeacherCard,
)
from coach.store.teaching import classrooms, dashboards, drill_sets, homework, teachers_cards, work_states
from coach.store.teaching.errors import TeachingError
from drills import name_the_tile
from drills.sets import DrillSet, SetItem, sample_sets
from tests.support.people import person

NOON = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
SMALL_CARD = """\
name: "Spring class card"
year: 2026
sections:
  - name: "Practice"
    hands:
      - id: "P-1"
        pattern: "FFF 2222a 4444b 666c"
        value: 25
      - id: "P-2"
        pattern: "NNN EEE WWW SSS DDa"
        value: 30
        note: "Any dragon pair"
"""


def tiles_set(seeds: str = "fixed", questions: int = 3, card: str = "house") -> DrillSet:
    return DrillSet(
        title="Tiles",
        description="",
        card=card,
        seeds=seeds,
        seed=77,
        items=(SetItem("name-the-tile", 1, questions),),
    )


def answer_slot(engine, assignment_id: int, learner_id: int, index: int, right: bool, when=NOON) -> bool:
    """A student answers question `index` of an assignment, right or wrong."""
    with Session(engine) as session:
        assignment = session.get(Assignment, assignment_id)
        work = homework.work_of(session, assignment, learner_id, create=True)
        slot = homework.slots_of(assignment, work)[index]
        question = name_the_tile.generate(slot.seed, slot.level, house_card())
        reply = question.key["answer"] if right else _wrong(question)
        verdict = name_the_tile.grade(question, reply)
        assert verdict.correct is right
        return homework.record_assignment_answer(session, assignment, learner_id, slot, question, verdict, when)


def _wrong(question):
    for choice in question.choices or ("1D", "2D"):
        if choice != question.key["answer"]:
            return choice
    raise AssertionError("no wrong choice")


@pytest.fixture
def room(engine):
    """A teacher with a class, two students in it and a three-question assignment."""
    teacher = person(engine, "Ms Lee", teacher=True)
    ann, bob = person(engine, "Ann"), person(engine, "Bob")
    with Session(engine) as session:
        classroom = classrooms.create_class(session, teacher, "Tuesday beginners")
        for student in (ann, bob):
            classrooms.join_class(session, session.get(Learner, student), classroom.join_code)
        given = homework.assign(session, teacher, classroom.id, tiles_set(), NOON + timedelta(days=2))
        return {"teacher": teacher, "ann": ann, "bob": bob, "class": classroom.id, "assignment": given.id,
                "code": classroom.join_code}


# -- classes and join codes -----------------------------------------------------------


def test_a_class_gets_a_six_character_code_a_student_can_type(engine):
    teacher = person(engine, "T", teacher=True)
    with Session(engine) as session:
        codes = {classrooms.create_class(session, teacher, f"Class {i}").join_code for i in range(30)}
    assert len(codes) == 30
    assert all(len(c) == 6 and set(c) <= set(classrooms.CODE_ALPHABET) for c in codes)
    assert not any(ch in "".join(codes) for ch in "01OI")


def test_a_class_needs_a_name_of_sensible_length(engine):
    teacher = person(engine, "T", teacher=True)
    with Session(engine) as session:
        with pytest.raises(TeachingError, match="name"):
            classrooms.create_class(session, teacher, "   ")
        with pytest.raises(TeachingError, match="80"):
            classrooms.create_class(session, teacher, "x" * 81)
        assert classrooms.create_class(session, teacher, "  Tuesday   beginners ").name == "Tuesday beginners"


def test_joining_ignores_case_spaces_and_dashes_and_twice_is_once(engine, room):
    carl = person(engine, "Carl")
    code = room["code"]
    typed = f" {code[:3].lower()}-{code[3:].lower()} "
    with Session(engine) as session:
        learner = session.get(Learner, carl)
        assert classrooms.join_class(session, learner, typed).id == room["class"]
        classrooms.join_class(session, learner, code)
        count = session.exec(select(func.count()).select_from(Membership).where(Membership.learner_id == carl)).one()
    assert count == 1


def test_a_wrong_code_says_so_and_a_teacher_cannot_join_their_own_class(engine, room):
    with Session(engine) as session:
        with pytest.raises(TeachingError, match="No class has the code"):
            classrooms.join_class(session, session.get(Learner, room["ann"]), "ZZZZZZ")
        with pytest.raises(TeachingError, match="You teach this class"):
            classrooms.join_class(session, session.get(Learner, room["teacher"]), room["code"])


def test_a_new_code_stops_the_old_one(engine, room):
    with Session(engine) as session:
        fresh = classrooms.new_join_code(session, room["teacher"], room["class"])
        assert fresh.join_code != room["code"]
        assert classrooms.class_by_code(session, room["code"]) is None
        assert classrooms.class_by_code(session, fresh.join_code).id == room["class"]


def test_leaving_or_being_removed_keeps_the_answers(engine, room):
    answer_slot(engine, room["assignment"], room["ann"], 0, right=True)
    with Session(engine) as session:
        assert classrooms.leave_class(session, room["ann"], room["class"])
        assert homework.assignment_given(session, room["ann"], room["assignment"]) is None
        assert classrooms.remove_student(session, room["teacher"], room["class"], room["bob"])
        assert [s.id for s in classrooms.students(session, room["class"])] == []
        kept = session.exec(select(AssignmentAnswer).where(AssignmentAnswer.learner_id == room["ann"])).all()
        assert len(kept) == 1
        classrooms.join_class(session, session.get(Learner, room["ann"]), room["code"])
        mine = work_states.my_assignments(session, room["ann"], NOON)
        assert mine[0].standing.answered == 1


def test_only_the_teacher_of_a_class_may_remove_a_student(engine, room):
    other = person(engine, "Other", teacher=True)
    with Session(engine) as session:
        assert not classrooms.remove_student(session, other, room["class"], room["ann"])
        assert classrooms.membership(session, room["ann"], room["class"]) is not None
        assert classrooms.class_taught(session, other, room["class"]) is None
        assert homework.assignment_taught(session, other, room["assignment"]) is None
        assert not classrooms.delete_class(session, other, room["class"])
        assert session.get(Classroom, room["class"]) is not None


# -- cards -----------------------------------------------------------------------------


def test_a_teacher_card_is_stored_and_named_with_its_number(engine):
    teacher = person(engine, "T", teacher=True)
    with Session(engine) as session:
        row = teachers_cards.add_card(session, teacher, SMALL_CARD)
        card = teachers_cards.parsed_card(row)
    assert row.lines == 2 and row.name == "Spring class card"
    assert card.name == f"Spring class card #{row.id}"
    assert teachers_cards.card_id_in(card.name) == row.id
    assert teachers_cards.card_id_in("Mahjong Coach House Card 2026") is None
    assert [line.id for line in card.lines] == ["P-1", "P-2"]


def test_a_broken_card_is_refused_with_every_problem_and_nothing_stored(engine):
    teacher = person(engine, "T", teacher=True)
    broken = SMALL_CARD.replace('pattern: "FFF 2222a 4444b 666c"', 'pattern: "FFFF 2222a 4444b"').replace(
        "value: 30", "value: thirty"
    )
    with Session(engine) as session:
        with pytest.raises(CardError) as caught:
            teachers_cards.add_card(session, teacher, broken)
        assert session.exec(select(func.count()).select_from(TeacherCard)).one() == 0
    assert len(caught.value.problems) == 2
    assert all("line" in problem for problem in caught.value.problems)


def test_a_card_name_is_one_card_per_teacher(engine):
    teacher, other = person(engine, "T", teacher=True), person(engine, "U", teacher=True)
    with Session(engine) as session:
        teachers_cards.add_card(session, teacher, SMALL_CARD)
        with pytest.raises(TeachingError, match="already have a card"):
            teachers_cards.add_card(session, teacher, SMALL_CARD)
        teachers_cards.add_card(session, other, SMALL_CARD)  # another teacher's card may share the name


def test_a_card_in_use_cannot_be_deleted(engine, room):
    with Session(engine) as session:
        row = teachers_cards.add_card(session, room["teacher"], SMALL_CARD)
        homework.assign(session, room["teacher"], room["class"], tiles_set(card=row.name))
        with pytest.raises(TeachingError, match="still used"):
            teachers_cards.delete_card(session, room["teacher"], row.id)
        assert session.get(TeacherCard, row.id) is not None


def test_only_the_teacher_and_their_students_may_use_a_card(engine, room):
    outsider = person(engine, "Zed")
    with Session(engine) as session:
        row = teachers_cards.add_card(session, room["teacher"], SMALL_CARD)
        assert teachers_cards.may_use_card(session, room["teacher"], row.id) is not None
        assert teachers_cards.may_use_card(session, room["ann"], row.id) is None  # no assignment uses it yet
        homework.assign(session, room["teacher"], room["class"], tiles_set(card=row.name))
        assert teachers_cards.may_use_card(session, room["ann"], row.id) is not None
        assert teachers_cards.may_use_card(session, outsider, row.id) is None
        assert teachers_cards.may_use_card(session, None, row.id) is None


# -- sets and assignments -----------------------------------------------------------


def test_sets_belong_to_their_teacher(engine):
    teacher, other = person(engine, "T", teacher=True), person(engine, "U", teacher=True)
    with Session(engine) as session:
        row = drill_sets.save_set(session, teacher, tiles_set())
        assert drill_sets.set_of(session, other, row.id) is None
        with pytest.raises(TeachingError):
            drill_sets.save_set(session, other, tiles_set(questions=9), set_id=row.id)
        assert not drill_sets.delete_set(session, other, row.id)
        assert drill_sets.drill_set_of(session.get(DrillSetRow, row.id)) == tiles_set()


def test_a_set_may_name_only_the_teachers_own_card(engine):
    teacher, other = person(engine, "T", teacher=True), person(engine, "U", teacher=True)
    with Session(engine) as session:
        teachers_cards.add_card(session, other, SMALL_CARD)
        with pytest.raises(TeachingError, match="not one of your cards"):
            drill_sets.save_set(session, teacher, tiles_set(card="Spring class card"))
        assert teachers_cards.card_names(session, teacher) == ["house"]


def test_editing_a_set_never_changes_an_assignment_made_from_it(engine, room):
    with Session(engine) as session:
        row = drill_sets.save_set(session, room["teacher"], tiles_set(questions=2))
        given = homework.assign(session, room["teacher"], room["class"], drill_sets.drill_set_of(row))
        drill_sets.save_set(session, room["teacher"], tiles_set(questions=7), set_id=row.id)
        assert drill_sets.drill_set_of(session.get(Assignment, given.id)).total == 2


def test_fixed_seeds_give_the_whole_class_the_same_questions_fresh_seeds_their_own(engine, room):
    with Session(engine) as session:
        fresh = homework.assign(session, room["teacher"], room["class"], tiles_set(seeds="fresh", questions=5))
        fixed = session.get(Assignment, room["assignment"])
        ann = homework.slots_of(fixed, homework.work_of(session, fixed, room["ann"], create=True))
        bob = homework.slots_of(fixed, homework.work_of(session, fixed, room["bob"], create=True))
        assert ann == bob == tiles_set().slots()
        ann_fresh = homework.slots_of(fresh, homework.work_of(session, fresh, room["ann"], create=True))
        bob_fresh = homework.slots_of(fresh, homework.work_of(session, fresh, room["bob"], create=True))
        assert [s.seed for s in ann_fresh] != [s.seed for s in bob_fresh]
        again = homework.slots_of(fresh, homework.work_of(session, fresh, room["ann"], create=True))
        assert again == ann_fresh  # a student's own questions stay theirs
        assert all(0 <= s.seed < 2**31 for s in ann_fresh + bob_fresh)


def test_an_assignment_counts_the_first_answer_only(engine, room):
    assert answer_slot(engine, room["assignment"], room["ann"], 0, right=False)
    assert not answer_slot(engine, room["assignment"], room["ann"], 0, right=True)
    with Session(engine) as session:
        rows = session.exec(select(AssignmentAnswer).where(AssignmentAnswer.learner_id == room["ann"])).all()
    assert len(rows) == 1 and rows[0].correct is False


def standing_of(engine, room, who: str, now=NOON):
    with Session(engine) as session:
        return work_states.my_assignments(session, room[who], now)[0].standing


def test_states_go_assigned_in_progress_turned_in(engine, room):
    assert standing_of(engine, room, "ann").state == work_states.ASSIGNED
    answer_slot(engine, room["assignment"], room["ann"], 0, right=True)
    assert standing_of(engine, room, "ann").state == work_states.IN_PROGRESS
    answer_slot(engine, room["assignment"], room["ann"], 1, right=False)
    answer_slot(engine, room["assignment"], room["ann"], 2, right=True)
    done = standing_of(engine, room, "ann")
    assert (done.state, done.answered, done.correct, done.turned_in_late) == (work_states.TURNED_IN, 3, 2, False)
    assert done.completion == 1 and done.accuracy == pytest.approx(2 / 3)


def test_late_when_the_due_time_passes_unfinished_and_a_late_finish_says_so(engine, room):
    after_due = NOON + timedelta(days=3)
    answer_slot(engine, room["assignment"], room["bob"], 0, right=True)
    assert standing_of(engine, room, "ann", after_due).state == work_states.LATE
    assert standing_of(engine, room, "bob", after_due).state == work_states.LATE
    for index in (1, 2):
        answer_slot(engine, room["assignment"], room["bob"], index, right=True, when=after_due)
    finished = standing_of(engine, room, "bob", after_due + timedelta(hours=1))
    assert finished.state == work_states.TURNED_IN and finished.turned_in_late


def test_my_assignments_puts_late_work_first_and_turned_in_work_last(engine, room):
    with Session(engine) as session:
        overdue = homework.assign(session, room["teacher"], room["class"], tiles_set(questions=1), NOON - timedelta(days=1)).id
        done = homework.assign(session, room["teacher"], room["class"], tiles_set(questions=1)).id
    answer_slot(engine, done, room["ann"], 0, right=True)
    with Session(engine) as session:
        order = [m.assignment.id for m in work_states.my_assignments(session, room["ann"], NOON)]
    assert order == [overdue, room["assignment"], done]


# -- the dashboard -------------------------------------------------------------------


def test_the_dashboard_counts_completion_accuracy_and_who_has_not_started(engine, room):
    for index, right in ((0, True), (1, True), (2, True)):
        answer_slot(engine, room["assignment"], room["ann"], index, right)
    answer_slot(engine, room["assignment"], room["bob"], 0, right=False)
    carl = person(engine, "Carl")
    with Session(engine) as session:
        classrooms.join_class(session, session.get(Learner, carl), room["code"])
        board = dashboards.dashboard(session, session.get(Classroom, room["class"]), NOON)
    by_name = {row.name: row.standings[room["assignment"]] for row in board.rows}
    assert (by_name["Ann"].answered, by_name["Ann"].correct, by_name["Ann"].state) == (3, 3, "turned in")
    assert (by_name["Bob"].answered, by_name["Bob"].correct, by_name["Bob"].state) == (1, 0, "in progress")
    assert by_name["Bob"].accuracy == 0 and by_name["Carl"].accuracy is None
    assert board.not_started[room["assignment"]] == ["Carl"]


def test_question_stats_tally_right_answers_and_the_common_wrong_ones_with_the_explanation(engine, room):
    answer_slot(engine, room["assignment"], room["ann"], 0, right=True)
    answer_slot(engine, room["assignment"], room["bob"], 0, right=False)
    with Session(engine) as session:
        stats = dashboards.question_stats(session, session.get(Assignment, room["assignment"]))
        bob_answer = session.exec(select(AssignmentAnswer).where(AssignmentAnswer.learner_id == room["bob"])).one()
    first = stats[0]
    assert (first.answered, first.right, first.drill, first.same_for_all) == (2, 1, "name-the-tile", True)
    assert len(first.wrong) == 1 and first.wrong[0].count == 1
    assert first.wrong[0].text == bob_answer.answer_text
    assert first.wrong[0].explanation == tuple(json.loads(bob_answer.explanation)) and first.wrong[0].explanation
    assert stats[1].answered == 0 and stats[1].wrong == ()


def test_a_removed_students_answers_leave_the_question_stats(engine, room):
    answer_slot(engine, room["assignment"], room["bob"], 0, right=False)
    with Session(engine) as session:
        classrooms.remove_student(session, room["teacher"], room["class"], room["bob"])
        stats = dashboards.question_stats(session, session.get(Assignment, room["assignment"]))
    assert stats[0].answered == 0


def test_the_csv_holds_the_dashboards_numbers(engine, room):
    for index, right in ((0, True), (1, False)):
        answer_slot(engine, room["assignment"], room["ann"], index, right)
    with Session(engine) as session:
        board = dashboards.dashboard(session, session.get(Classroom, room["class"]), NOON)
    rows = list(csv.DictReader(io.StringIO(dashboards.dashboard_csv(board))))
    assert [r["student"] for r in rows] == ["Ann", "Bob"]
    ann = rows[0]
    assert (ann["answered"], ann["questions"], ann["correct"]) == ("2", "3", "1")
    assert (ann["completion_percent"], ann["accuracy_percent"], ann["state"]) == ("67", "50", "in progress")
    assert rows[1]["accuracy_percent"] == "" and rows[1]["state"] == "assigned"


def test_the_csv_never_hands_a_spreadsheet_a_formula(engine, room):
    with Session(engine) as session:
        ann = session.get(Learner, room["ann"])
        ann.name = "=HYPERLINK(\"x\")"
        session.add(ann)
        session.commit()
        board = dashboards.dashboard(session, session.get(Classroom, room["class"]), NOON)
    rows = list(csv.DictReader(io.StringIO(dashboards.dashboard_csv(board))))
    assert rows[0]["student"].startswith("'=")


def test_answers_read_with_tile_names():
    assert homework.describe_answer("5D") == "5 Dot"
    assert homework.describe_answer("WD") == "Soap"
    assert homework.describe_answer(["1B", "N"]) == "1 Bam, North"
    assert homework.describe_answer(None).startswith("No answer")
    assert homework.describe_answer("Yes, it is legal") == "Yes, it is legal"


# -- accounts ---------------------------------------------------------------------------


def test_a_guest_who_signs_in_brings_their_class_and_work(engine, room):
    guest = person(engine, "Gus", guest=True)
    with Session(engine) as session:
        classrooms.join_class(session, session.get(Learner, guest), room["code"])
    answer_slot(engine, room["assignment"], guest, 0, right=True)
    account = person(engine, "Gus account")
    with Session(engine) as session:
        accounts.merge_guest(session, guest, account)
        assert classrooms.membership(session, account, room["class"]) is not None
        mine = work_states.my_assignments(session, account, NOON)
    assert mine[0].standing.answered == 1


def test_merging_keeps_the_accounts_own_work_where_both_started(engine, room):
    guest = person(engine, "Gus", guest=True)
    with Session(engine) as session:
        classrooms.join_class(session, session.get(Learner, guest), room["code"])
    answer_slot(engine, room["assignment"], guest, 0, right=False)
    answer_slot(engine, room["assignment"], room["ann"], 0, right=True)
    with Session(engine) as session:
        accounts.merge_guest(session, guest, room["ann"])
        rows = session.exec(select(AssignmentAnswer).where(AssignmentAnswer.assignment_id == room["assignment"])).all()
    assert [(r.learner_id, r.correct) for r in rows] == [(room["ann"], True)]


def test_deleting_a_teacher_removes_their_classes_sets_cards_and_the_class_work(engine, room):
    answer_slot(engine, room["assignment"], room["ann"], 0, right=True)
    with Session(engine) as session:
        card = teachers_cards.add_card(session, room["teacher"], SMALL_CARD)
        drill_sets.save_set(session, room["teacher"], tiles_set(card=card.name))
        accounts.delete_learner(session, room["teacher"])
        for table in (Classroom, Membership, Assignment, AssignmentWork, AssignmentAnswer, DrillSetRow, TeacherCard):
            assert session.exec(select(func.count()).select_from(table)).one() == 0, table.__name__
        assert session.get(Learner, room["ann"]) is not None  # the students keep their accounts


def test_deleting_a_student_removes_their_work_only(engine, room):
    answer_slot(engine, room["assignment"], room["ann"], 0, right=True)
    answer_slot(engine, room["assignment"], room["bob"], 0, right=True)
    with Session(engine) as session:
        accounts.delete_learner(session, room["ann"])
        left = session.exec(select(AssignmentAnswer.learner_id)).all()
        assert left == [room["bob"]]
        assert [s.id for s in classrooms.students(session, room["class"])] == [room["bob"]]


def test_the_data_export_holds_the_teaching_rows(engine, room):
    answer_slot(engine, room["assignment"], room["ann"], 0, right=True)
    with Session(engine) as session:
        student = accounts.export_data(session, session.get(Learner, room["ann"]), NOON)["teaching"]
        teacher = accounts.export_data(session, session.get(Learner, room["teacher"]), NOON)["teaching"]
    assert student["classes_joined"] == [{"class": "Tuesday beginners", "teacher": "Ms Lee"}]
    assert [a["question"] for a in student["assignment_answers"]] == [1]
    assert teacher["classes_taught"][0]["students"] == 2


def test_every_sample_set_can_be_assigned_and_answered(engine, room):
    with Session(engine) as session:
        for sample in sample_sets():
            given = homework.assign(session, room["teacher"], room["class"], sample)
            assert drill_sets.drill_set_of(given) == sample


def test_an_upgrade_from_the_last_release_keeps_every_answer_and_adds_teaching(tmp_path):
    """A database made before teaching existed (revision 0002) upgrades in
    place: its learners and answers stay, and the teaching tables work."""
    from alembic import command

    from coach.store.db import alembic_config
    from coach.store.models import Attempt
    from coach.store.progress import record_answer

    engine = make_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    command.upgrade(alembic_config(engine), "0002")
    with engine.begin() as connection:
        assert "classroom" not in {row[0] for row in connection.exec_driver_sql("SELECT name FROM sqlite_master")}
    learner = person(engine, "Old timer")
    with Session(engine) as session:
        question = name_the_tile.generate(5, 1, house_card())
        record_answer(session, session.get(Learner, learner), question, name_the_tile.grade(question, None), None, NOON)
    migrate(engine)
    with Session(engine) as session:
        assert session.exec(select(func.count()).select_from(Attempt)).one() == 1
        teacher = person(engine, "New teacher", teacher=True)
        room = classrooms.create_class(session, teacher, "After the upgrade")
        classrooms.join_class(session, session.get(Learner, learner), room.join_code)
        assert [s.name for s in classrooms.students(session, room.id)] == ["Old timer"]
