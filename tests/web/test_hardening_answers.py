"""No answer lost, ever (issue 11, point 4).

Answers arriving at once for one learner are all stored and all counted,
and every skill's review count and fsrs schedule takes every one of them,
on SQLite and on PostgreSQL; a question answered twice at once counts
once; an assignment's answer and the student's own progress row are kept
in one transaction; ids are never reused, and no cache hands out a card
under an id or a name that now belongs to another card.
"""

from __future__ import annotations

import json
import shutil
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask_login import login_user
from fsrs import Card as FsrsCard
from sqlalchemy import inspect
from sqlalchemy.engine import make_url
from sqlmodel import Session, SQLModel, func, select

from coach.notation.card import house_card
from coach.store.db import FILE_NAME, alembic_config, make_engine, migrate
from coach.store.models import (
    Assignment,
    AssignmentAnswer,
    AssignmentWork,
    Attempt,
    Learner,
    SkillState,
    TeacherCard,
)
from coach.store.progress import SCHEDULER, drill_skill, rating, record_answer
from coach.store.teaching import classrooms, drill_sets, homework, roles, teachers_cards
from coach.web import create_app
from coach.web.shared import learners
from coach.web.shared.cards import teachers as teacher_cards
from drills import name_the_tile, nearest_hand
from drills.sets import parse_set
from tests.support.accounts import sign_in
from tests.support.app import TEST_SECRET
from tests.support.classes import choices, give, guest_joins, make_class, make_teacher, open_question, send
from tests.support.postgres import postgres_server

THREADS = 8
NOON = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
EIGHT_TILES = """\
set: "Eight tiles at once"
seeds: fixed
seed: 777
drills:
  - drill: name-the-tile
    level: 1
    questions: 8
"""
CARD_A = """\
name: "Spring class card"
sections:
  - name: "Old"
    hands:
      - id: "OLD-1"
        pattern: "222a 444a 666b 888b DDa"
        value: 25
      - id: "OLD-2"
        pattern: "FFFF 1111a 2222b 33c"
        value: 30
"""
CARD_B = """\
name: "Spring class card"
sections:
  - name: "New"
    hands:
      - id: "NEW-1"
        pattern: "NNN EEE WWW SSS DDa"
        value: 25
      - id: "NEW-2"
        pattern: "11a 22a 333a 444a 5555a"
        value: 30
"""


# -- a store on either database ---------------------------------------------------------


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


def fresh_postgres(server_url: str, name: str) -> str:
    """A new empty database on the test server, so every test starts clean."""
    url = make_url(server_url)
    with psycopg.connect(host=url.host, port=url.port, user=url.username, dbname="postgres", autocommit=True) as c:
        c.execute(f'CREATE DATABASE "{name}"')
    return url.set(database=name).render_as_string(hide_password=False)


def database_url(request, tmp_path, kind: str) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / FILE_NAME}"
    name = "t_" + "".join(c if c.isalnum() else "_" for c in request.node.name.lower())[-50:]
    return fresh_postgres(request.getfixturevalue("postgres_url"), name)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.server)])
def engine(request, tmp_path):
    engine = make_engine(database_url(request, tmp_path, request.param))
    migrate(engine)
    yield engine
    engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.server)])
def any_app(request, tmp_path, monkeypatch, migrated_database):
    """The app on a SQLite file (a copy of the migrated one) or on a fresh PostgreSQL database."""
    instance = tmp_path / "instance"
    instance.mkdir()
    monkeypatch.setenv("COACH_DATA_DIR", str(instance))
    monkeypatch.delenv("COACH_SECRET_KEY", raising=False)
    monkeypatch.delenv("COACH_CARD", raising=False)
    if request.param == "sqlite":
        shutil.copyfile(migrated_database, instance / FILE_NAME)
        monkeypatch.delenv("COACH_DATABASE_URL", raising=False)
    else:
        monkeypatch.setenv("COACH_DATABASE_URL", database_url(request, tmp_path, request.param))
    app = create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET})
    yield app
    app.extensions["store"].dispose()


def at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released together; their results in order (an error is re-raised)."""
    start = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            start.wait()
            results[i] = calls[i]()
        except BaseException as error:
            results[i] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    for r in results:
        if isinstance(r, BaseException):
            raise r
    return results


def a_learner(engine) -> int:
    with Session(engine) as session:
        row = Learner(guest=True)
        session.add(row)
        session.commit()
        assert row.id is not None
        return row.id


def check_schedules(engine, learner_id: int) -> None:
    """Every skill's review count is its stored answers, and its fsrs card is
    those answers replayed in the order they were written: none was lost."""
    with Session(engine) as session:
        attempts = session.exec(
            select(Attempt).where(Attempt.learner_id == learner_id).order_by(Attempt.answered_at, Attempt.id)
        ).all()
        states = {s.skill: s for s in session.exec(select(SkillState).where(SkillState.learner_id == learner_id))}
    replayed: dict[str, FsrsCard] = {}
    answers: Counter[str] = Counter()
    for a in attempts:
        skills = dict([(drill_skill(a.drill, a.level), a.correct)] + [(i, bool(ok)) for i, ok in json.loads(a.items)])
        for skill, ok in skills.items():
            when = a.answered_at
            card = replayed.get(skill) or FsrsCard(due=when)
            replayed[skill], _ = SCHEDULER.review_card(card, rating(ok), when)
            answers[skill] += 1
    assert set(states) == set(answers)
    for skill, state in states.items():
        assert state.reviews == answers[skill], skill
        stored, expected = json.loads(state.card), replayed[skill].to_dict()
        stored.pop("card_id"), expected.pop("card_id")  # fsrs numbers a card by the clock when it is made
        assert stored == expected, skill


def cookie_header(response) -> str:
    return "; ".join(v.split(";")[0] for v in response.headers.getlist("Set-Cookie"))


# -- answers at once, through the store ----------------------------------------------


def test_answers_to_different_questions_at_once_are_all_kept_and_scheduled(engine):
    """Eight answers for one learner at once, each in its own connection (no
    lock in Python helps here: as two servers on one database would)."""
    learner = a_learner(engine)
    card = house_card()
    questions = [name_the_tile.generate(seed, 2, card) for seed in range(100, 100 + THREADS)]
    verdicts = [name_the_tile.grade(q, q.key["answer"] if i % 2 else None) for i, q in enumerate(questions)]

    def answer(i: int) -> Callable[[], bool]:
        def call() -> bool:
            with Session(engine) as session:
                return record_answer(session, learner, questions[i], verdicts[i])

        return call

    assert at_once([answer(i) for i in range(THREADS)]) == [True] * THREADS
    with Session(engine) as session:
        assert session.exec(select(func.count()).select_from(Attempt).where(Attempt.learner_id == learner)).one() == THREADS
        state = session.exec(select(SkillState).where(SkillState.skill == "name-the-tile:2")).one()
        assert state.reviews == THREADS
    check_schedules(engine, learner)


def test_one_question_answered_twice_at_once_counts_once(engine):
    learner = a_learner(engine)
    question = name_the_tile.generate(5, 1, house_card())
    right, miss = name_the_tile.grade(question, question.key["answer"]), name_the_tile.grade(question, None)

    def answer(verdict) -> Callable[[], bool]:
        def call() -> bool:
            with Session(engine) as session:
                return record_answer(session, learner, question, verdict)

        return call

    assert sorted(at_once([answer(right), answer(miss), answer(right), answer(miss)])) == [False, False, False, True]
    with Session(engine) as session:
        assert session.exec(select(func.count()).select_from(Attempt)).one() == 1
        assert {s.reviews for s in session.exec(select(SkillState))} == {1}
    check_schedules(engine, learner)


def test_assignment_answers_at_once_are_all_kept_and_the_work_turned_in(engine):
    with Session(engine) as session:
        teacher = session.get(Learner, a_learner(engine))
        teacher.guest, teacher.role, teacher.email = False, roles.TEACHER, "t@example.org"
        session.add(teacher)
        session.commit()
        room = classrooms.create_class(session, teacher.id, "At once")
        student = a_learner(engine)
        classrooms.join_class(session, session.get(Learner, student), room.join_code)
        given = homework.assign(session, teacher.id, room.id, parse_set(EIGHT_TILES, cards=("house",)))
        slots = homework.slots_of(given, None)
    assert len(slots) == THREADS

    def answer(slot) -> Callable[[], bool]:
        def call() -> bool:
            question = name_the_tile.generate(slot.seed, slot.level, house_card())
            verdict = name_the_tile.grade(question, None)
            with Session(engine) as session:
                assignment = session.get(Assignment, given.id)
                return homework.record_assignment_answer(session, assignment, student, slot, question, verdict, NOON)

        return call

    # every slot once, and the first slot a second time: that one does not count
    counted = at_once([answer(slot) for slot in slots] + [answer(slots[0])])
    assert sorted(counted) == [False] + [True] * THREADS
    with Session(engine) as session:
        assert session.exec(select(func.count()).select_from(AssignmentAnswer)).one() == THREADS
        work = session.exec(select(AssignmentWork).where(AssignmentWork.learner_id == student)).one()
        assert work.finished_at is not None  # the last of them, whichever it was, turned the work in


# -- answers at once, through the app ------------------------------------------------


def test_a_learners_answers_sent_at_once_through_the_api_are_all_counted(any_app):
    app = any_app
    first = app.test_client()
    q = first.post("/api/drills/name-the-tile/questions", json={"seed": 1}).get_json()
    reply = first.post("/api/drills/name-the-tile/answers", json={"token": q["token"], "answer": q["tile"]})
    assert reply.get_json()["counted"] is True  # the guest is made, and signed in
    cookie = cookie_header(reply)
    tokens = []
    for seed in range(200, 200 + THREADS):
        asked = first.post("/api/drills/name-the-tile/questions", json={"seed": seed, "level": 2}).get_json()
        tokens.append((asked["token"], asked["tile"] if seed % 2 else None))

    def answer(token: str, given: str | None) -> Callable[[Any], Any]:
        def call() -> Any:
            client = app.test_client(use_cookies=False)
            body = {"token": token, "answer": given}
            return client.post("/api/drills/name-the-tile/answers", json=body, headers={"Cookie": cookie})

        return call

    replies = at_once([answer(t, g) for t, g in tokens] + [answer(*tokens[0])])  # the first one twice
    assert [r.status_code for r in replies] == [200] * (THREADS + 1)
    assert sorted(r.get_json()["counted"] for r in replies) == [False] + [True] * THREADS
    progress = first.get("/api/progress").get_json()
    assert progress["attempts"] == THREADS + 1
    with Session(app.extensions["store"]) as session:
        assert session.exec(select(func.count()).select_from(Learner)).one() == 1  # one guest, not one an answer
        learner = session.exec(select(Learner.id)).one()
        state = session.exec(select(SkillState).where(SkillState.skill == "name-the-tile:2")).one()
        assert state.reviews == THREADS
    check_schedules(app.extensions["store"], learner)


def test_a_students_assignment_answers_sent_at_once_are_all_kept_for_teacher_and_progress(any_app):
    app = any_app
    room = make_class(app, make_teacher(app))
    assignment = give(app, room, EIGHT_TILES)
    student = guest_joins(app, room)
    with student.session_transaction() as flask_session:
        student_id = int(flask_session["_user_id"].split(":")[0])
    opened = []
    for number in range(1, THREADS + 1):
        _, drill, token = open_question(student, assignment, number)
        opened.append((number, drill, token, choices(app, drill, token)[0]))
    session_cookie = student.get_cookie("session")
    remember = student.get_cookie("remember_token")

    def answer(number: int, drill: str, token: str, best: str) -> Callable[[], Any]:
        def call() -> Any:
            client = app.test_client()
            client.set_cookie("session", session_cookie.value)
            if remember is not None:
                client.set_cookie("remember_token", remember.value)
            return send(client, drill, token, assignment, number - 1, best, htmx=True)

        return call

    replies = at_once([answer(*o) for o in opened])
    assert [r.status_code for r in replies] == [200] * THREADS
    with Session(app.extensions["store"]) as session:
        kept = session.exec(select(AssignmentAnswer).where(AssignmentAnswer.learner_id == student_id)).all()
        assert sorted(a.slot for a in kept) == list(range(THREADS)) and all(a.correct for a in kept)
        own = session.exec(select(func.count()).select_from(Attempt).where(Attempt.learner_id == student_id)).one()
        assert own == THREADS
        work = session.exec(select(AssignmentWork).where(AssignmentWork.learner_id == student_id)).one()
        assert work.finished_at is not None
    check_schedules(app.extensions["store"], student_id)


def test_the_assignment_answer_and_the_progress_row_are_one_transaction(app):
    """Should anything fail after the student's own answer is written, the
    teacher's copy is not kept without it, nor it without the copy."""
    room = make_class(app, make_teacher(app))
    assignment_id = give(app, room, EIGHT_TILES)
    student = guest_joins(app, room)
    engine = app.extensions["store"]
    with student.session_transaction() as flask_session:
        student_id = int(flask_session["_user_id"].split(":")[0])
    with Session(engine) as session:
        assignment = session.get(Assignment, assignment_id)
        slot = homework.slots_of(assignment, None)[0]
        session.expunge(assignment)
    question = name_the_tile.generate(slot.seed, slot.level, house_card())
    verdict = name_the_tile.grade(question, None)

    def copy_then_fail(store: Session, learner_id: int) -> bool:
        assert homework.add_assignment_answer(store, assignment, learner_id, slot, question, verdict)
        raise RuntimeError("the server fails here")

    with app.test_request_context():
        with Session(engine) as session:
            login_user(learners.SignedIn.of(session.get(Learner, student_id)))
        with pytest.raises(RuntimeError):
            learners.record_with(question, verdict, also=copy_then_fail)
        with Session(engine) as session:
            assert session.exec(select(func.count()).select_from(Attempt)).one() == 0
            assert session.exec(select(func.count()).select_from(AssignmentAnswer)).one() == 0
        counted, copied = learners.record_with(
            question, verdict, also=lambda store, lid: homework.add_assignment_answer(store, assignment, lid, slot, question, verdict)
        )
        assert counted is True and copied is True
    with Session(engine) as session:
        assert session.exec(select(func.count()).select_from(Attempt)).one() == 1
        assert session.exec(select(func.count()).select_from(AssignmentAnswer)).one() == 1


def test_a_signed_in_learner_deleted_meanwhile_answers_as_a_new_guest(client, app):
    q = client.post("/api/drills/name-the-tile/questions", json={"seed": 3}).get_json()
    assert client.post("/api/drills/name-the-tile/answers", json={"token": q["token"], "answer": None}).get_json()["counted"]
    engine = app.extensions["store"]
    with Session(engine) as session:
        old = session.exec(select(Learner)).one()
        old_id = old.id
        session.delete(old)
        session.commit()
    q = client.post("/api/drills/name-the-tile/questions", json={"seed": 4}).get_json()
    reply = client.post("/api/drills/name-the-tile/answers", json={"token": q["token"], "answer": None})
    assert reply.status_code == 200 and reply.get_json()["counted"] is True
    with Session(engine) as session:
        (new,) = session.exec(select(Learner)).all()
        assert new.id != old_id and new.guest
        assert session.exec(select(Attempt.learner_id)).all() == [new.id]


# -- ids never reused ------------------------------------------------------------------


def autoincrement_tables(connection) -> dict[str, bool]:
    rows = connection.exec_driver_sql(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "AND name != 'alembic_version'"
    ).all()
    return {name: "AUTOINCREMENT" in sql.upper() for name, sql in rows}


def test_every_table_with_an_integer_id_never_reuses_one(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'new.sqlite3'}")
    migrate(engine)
    with engine.connect() as connection:
        assert autoincrement_tables(connection) == {t.name: True for t in SQLModel.metadata.sorted_tables}
    for table in SQLModel.metadata.sorted_tables:
        assert table.dialect_options["sqlite"]["autoincrement"] is True, table.name  # a fresh metadata says so too
    first, second = a_learner(engine), a_learner(engine)
    with Session(engine) as session:
        session.delete(session.get(Learner, second))
        session.commit()
    assert a_learner(engine) == second + 1 > first
    engine.dispose()


def table_rows(connection) -> dict[str, list[tuple]]:
    names = [n for n in inspect(connection).get_table_names() if n != "alembic_version"]
    return {n: connection.exec_driver_sql(f'SELECT * FROM "{n}" ORDER BY id').all() for n in names}


def test_the_upgrade_to_ids_never_reused_keeps_every_row_and_column(tmp_path):
    """A database at revision 0003, with answers, a class, a card, a set, an
    assignment and its answers (and a column another migration added),
    upgrades with every row as it was; deleting still cascades, and a
    deleted card's number, which its answers remember, is not given again."""
    engine = make_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    command.upgrade(alembic_config(engine), "0003")
    with engine.connect() as connection:
        assert not any(autoincrement_tables(connection).values())
    teacher, student, leaving = a_learner(engine), a_learner(engine), a_learner(engine)
    with Session(engine) as session:
        row = session.get(Learner, teacher)
        row.guest, row.role, row.email = False, roles.TEACHER, "t@example.org"
        session.add(row)
        session.commit()
        for seed in (1, 2, 3):
            q = name_the_tile.generate(seed, 1, house_card())
            record_answer(session, student, q, name_the_tile.grade(q, None), 1200, NOON)
        room = classrooms.create_class(session, teacher, "Before the upgrade")
        classrooms.join_class(session, session.get(Learner, student), room.join_code)
        classrooms.join_class(session, session.get(Learner, leaving), room.join_code)
        kept_card = teachers_cards.add_card(session, teacher, CARD_A)
        dropped_card = teachers_cards.add_card(session, teacher, CARD_B.replace("Spring class card", "Dropped"))
        given = homework.assign(session, teacher, room.id, parse_set(EIGHT_TILES, cards=("house",)))
        slot = homework.slots_of(given, None)[0]
        q = name_the_tile.generate(slot.seed, slot.level, house_card())
        assert homework.record_assignment_answer(session, given, student, slot, q, name_the_tile.grade(q, None), NOON)
        drill_sets.save_set(session, teacher, parse_set(EIGHT_TILES, cards=("house",)))
        dropped_id = dropped_card.id
        on_dropped = name_the_tile.generate(9, 1, teachers_cards.parsed_card(dropped_card))  # an answer remembers the card
        assert record_answer(session, teacher, on_dropped, name_the_tile.grade(on_dropped, None), None, NOON)
        assert teachers_cards.delete_card(session, teacher, dropped_id)
        assert kept_card.id < dropped_id
    with engine.begin() as connection:  # a column a migration of someone else's added
        connection.exec_driver_sql("ALTER TABLE learner ADD COLUMN nickname VARCHAR(20)")
        connection.exec_driver_sql("UPDATE learner SET nickname = 'Ace' WHERE id = ?", (student,))
    with engine.connect() as connection:
        before = table_rows(connection)
    assert [t for t, rows in before.items() if not rows] == ["dailysession"]  # every other table holds rows

    migrate(engine)
    with engine.connect() as connection:
        after = table_rows(connection)
        assert {table: after[table] for table in before} == before
        assert all(autoincrement_tables(connection).values())
        assert connection.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
        assert connection.exec_driver_sql("PRAGMA foreign_key_check").all() == []
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        head = ScriptDirectory.from_config(alembic_config(engine)).get_current_head()  # 0005 or a later one
        assert connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == head
        differences = compare_metadata(MigrationContext.configure(connection), SQLModel.metadata)
        assert [d[0] for d in differences] == ["remove_column"]  # only the nickname, which the models do not know
        indexes = {i["name"] for i in inspect(connection).get_indexes("attempt")}
        assert {"ix_attempt_learner_id", "ix_attempt_drill", "ix_attempt_answered_at"} <= indexes
    with Session(engine) as session:
        again = teachers_cards.add_card(session, teacher, CARD_B.replace("Spring class card", "Dropped"))
        assert again.id > dropped_id  # the deleted card's number stays retired
        session.delete(session.get(Learner, leaving))
        session.commit()
        assert session.exec(select(func.count()).select_from(Learner)).one() == 2
    with engine.connect() as connection:  # and deleting still cascades to what the learner had
        assert connection.exec_driver_sql("SELECT count(*) FROM membership WHERE learner_id = ?", (leaving,)).scalar() == 0
        assert connection.exec_driver_sql("SELECT count(*) FROM attempt").scalar() == 4
    engine.dispose()


# -- caches keyed by content ------------------------------------------------------------


def test_a_card_deleted_and_another_stored_under_its_id_and_name_never_shows_the_old(app):
    """Ids are no longer reused, but a database restored from elsewhere may
    still hold such a pair: the caches key cards by their text."""
    teacher = make_teacher(app)
    client = app.test_client()
    assert sign_in(client, email="lee@example.org").status_code == 303
    engine = app.extensions["store"]
    with Session(engine) as session:
        old = teachers_cards.add_card(session, teacher, CARD_A)
        card_id = old.id
    page = client.get(f"/teach/cards/{card_id}").get_data(as_text=True)
    assert "OLD-1" in page and "NEW-1" not in page
    coach = app.extensions["coach"]
    with Session(engine) as session:
        old_card = teacher_cards.card_of(session.get(TeacherCard, card_id))
    old_question = coach.question(nearest_hand, 11, 1, old_card)
    assert {line.id for line in old_card.lines} == {"OLD-1", "OLD-2"}

    with Session(engine) as session:  # deleted, and a new card with its id and name
        assert teachers_cards.delete_card(session, teacher, card_id)
        session.add(TeacherCard(id=card_id, owner_id=teacher, name="Spring class card", source=CARD_B, lines=2))
        session.commit()
    page = client.get(f"/teach/cards/{card_id}").get_data(as_text=True)
    assert "NEW-1" in page and "OLD-1" not in page
    with Session(engine) as session:
        new_card = teacher_cards.card_of(session.get(TeacherCard, card_id))
    assert new_card.name == old_card.name  # same name, same number ...
    assert {line.id for line in new_card.lines} == {"NEW-1", "NEW-2"}  # ... and yet the new card
    new_question = coach.question(nearest_hand, 11, 1, new_card)
    assert new_question is not old_question
    assert new_question == nearest_hand.generate(11, 1, new_card)
    assert coach.question(nearest_hand, 11, 1, old_card) is old_question  # each card keeps its own

