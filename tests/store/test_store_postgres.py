"""The same store on PostgreSQL, as when COACH_DATABASE_URL names one."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import Session, SQLModel, select

from coach.notation.card import house_card
from coach.store import hands, reviews
from coach.store.db import make_engine, migrate
from coach.store.models import Attempt, Learner
from coach.store.progress import record_answer, summary
from coach.store.transaction import write
from coach.web import create_app
from drills import name_the_tile
from tests.support.postgres import postgres_server

pytestmark = pytest.mark.server  # a PostgreSQL server of their own


@pytest.fixture(scope="module")
def postgres_url():
    with postgres_server() as url:
        yield url


def test_migrations_on_postgresql_build_the_models_schema(postgres_url):
    engine = make_engine(postgres_url)
    migrate(engine)
    migrate(engine)
    with engine.connect() as connection:
        assert connection.dialect.name == "postgresql"
        assert compare_metadata(MigrationContext.configure(connection), SQLModel.metadata) == []
    engine.dispose()


def test_answers_count_once_on_postgresql(postgres_url):
    engine = make_engine(postgres_url)
    migrate(engine)
    question = name_the_tile.generate(9, 1, house_card())
    verdict = name_the_tile.grade(question, None)
    with Session(engine) as session:
        learner = Learner()
        session.add(learner)
        session.commit()
        session.refresh(learner)
        assert record_answer(session, learner, question, verdict) is True
        assert record_answer(session, learner, question, verdict) is False
        assert len(session.exec(select(Attempt).where(Attempt.learner_id == learner.id)).all()) == 1
        assert summary(session, learner)["attempts"] == 1
        session.delete(learner)
        session.commit()
        assert session.exec(select(Attempt).where(Attempt.learner_id == learner.id)).all() == []
    engine.dispose()


def test_the_app_runs_on_postgresql(postgres_url, tmp_path, monkeypatch):
    monkeypatch.setenv("COACH_DATA_DIR", str(tmp_path / "instance"))
    monkeypatch.setenv("COACH_DATABASE_URL", postgres_url)
    app = create_app({"TESTING": True, "SECRET_KEY": "pg-test"})
    client = app.test_client()
    q = client.post("/api/drills/name-the-tile/questions", json={"seed": 4}).get_json()
    assert client.post("/api/drills/name-the-tile/answers", json={"token": q["token"], "answer": q["tile"]}).get_json()["counted"]
    assert client.get("/api/progress").get_json()["attempts"] == 1
    assert not (tmp_path / "instance" / "coach.sqlite3").exists()
    app.extensions["store"].dispose()



def test_servers_starting_together_migrate_once(postgres_url):
    """Several servers started at once on an empty database (separate
    processes, as in production): one migrates, the others wait on the
    migration lock and find the schema at head, with no error."""
    import subprocess
    import sys

    from sqlalchemy import text
    from sqlalchemy.engine import make_url

    admin = make_engine(postgres_url)
    with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(text("DROP DATABASE IF EXISTS starting_together"))
        connection.execute(text("CREATE DATABASE starting_together"))
    admin.dispose()
    url = make_url(postgres_url).set(database="starting_together").render_as_string(hide_password=False)
    script = "import sys; from coach.store.db import make_engine, migrate; migrate(make_engine(sys.argv[1]))"
    starts = [subprocess.Popen([sys.executable, "-c", script, url], stderr=subprocess.PIPE, text=True) for _ in range(4)]
    results = []
    for start in starts:
        _, err = start.communicate(timeout=120)
        results.append((start.returncode, err))
    assert [code for code, _ in results] == [0, 0, 0, 0], [err[-500:] for _, err in results]
    engine = make_engine(url)
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), SQLModel.metadata) == []
        assert len(connection.execute(text("SELECT version_num FROM alembic_version")).all()) == 1
    engine.dispose()


def test_times_on_postgresql_are_aware_utc_and_a_naive_one_is_refused(postgres_url):
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from sqlalchemy.exc import StatementError

    from coach.store.utc_datetime import NaiveDatetimeError

    engine = make_engine(postgres_url)
    migrate(engine)
    la = datetime(2026, 11, 29, 4, 0, 0, 123456, tzinfo=ZoneInfo("America/Los_Angeles"))
    with Session(engine) as session:
        session.add(Learner(created_at=datetime(2026, 11, 29, 12, 0)))
        with pytest.raises(StatementError) as refused:
            session.commit()
        assert isinstance(refused.value.orig, NaiveDatetimeError)
        session.rollback()
        person = Learner(created_at=la)
        session.add(person)
        session.commit()
        person_id = person.id
    with Session(engine) as session:
        # the server hands times back in the connection's zone: they still come back in UTC
        session.connection().exec_driver_sql("SET TIME ZONE 'Asia/Tokyo'")
        again = session.get(Learner, person_id)
        assert again is not None and again.created_at == la
        assert again.created_at.tzinfo is UTC and again.created_at.hour == 12
        stored = session.connection().exec_driver_sql(
            "SELECT created_at AT TIME ZONE 'UTC' FROM learner WHERE id = %(id)s", {"id": person_id}
        ).scalar()
        assert stored == datetime(2026, 11, 29, 12, 0, 0, 123456)
        session.delete(again)
        session.commit()
    engine.dispose()


def test_the_utc_migration_makes_naive_postgresql_columns_aware(postgres_url):
    """A database whose time columns are `timestamp without time zone` (as
    the models used to describe them), holding UTC times, at the revision
    before: after the upgrade the columns are `with time zone` and the same
    moments read back, aware, in UTC."""
    from datetime import datetime

    from alembic import command
    from sqlalchemy import inspect, text
    from sqlalchemy.engine import make_url

    from coach.store.db import alembic_config

    admin = make_engine(postgres_url)
    with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(text("DROP DATABASE IF EXISTS before_aware_times"))
        connection.execute(text("CREATE DATABASE before_aware_times"))
    admin.dispose()
    url = make_url(postgres_url).set(database="before_aware_times").render_as_string(hide_password=False)
    engine = make_engine(url)
    command.upgrade(alembic_config(engine), "0011_positions")
    with engine.begin() as connection:
        connection.exec_driver_sql("SET TIME ZONE 'America/New_York'")  # the conversion must not depend on it
        connection.exec_driver_sql("ALTER TABLE learner ALTER COLUMN created_at TYPE timestamp without time zone")
        connection.exec_driver_sql("ALTER TABLE assignment ALTER COLUMN due_at TYPE timestamp without time zone")
        connection.exec_driver_sql(
            "INSERT INTO learner (id, name, guest, role, time_zone, daily_goal, created_at) "
            "VALUES (1, '', true, 'teacher', 'UTC', 10, '2026-11-30 23:59:58.5')"
        )
        connection.exec_driver_sql(
            "INSERT INTO classroom (id, teacher_id, name, join_code, created_at) VALUES (1, 1, 'Tue', 'ABCDEF', now())"
        )
        connection.exec_driver_sql(
            "INSERT INTO assignment (id, classroom_id, title, source, due_at, created_at) "
            "VALUES (1, 1, 'Week 1', 'x', '2026-12-07 04:59:59', now())"
        )
    migrate(engine)
    with engine.connect() as connection:
        inspector = inspect(connection)
        for table in ("learner", "assignment", "attempt", "replay_position"):
            for column in inspector.get_columns(table):
                if column["name"].endswith(("_at", "due")):
                    assert column["type"].timezone, (table, column["name"])
        assert compare_metadata(MigrationContext.configure(connection), SQLModel.metadata) == []
    from coach.store.models import Assignment

    with Session(engine) as session:
        person = session.get(Learner, 1)
        assert person is not None and person.created_at == datetime(2026, 11, 30, 23, 59, 58, 500000, tzinfo=UTC)
        given = session.get(Assignment, 1)
        assert given is not None and given.due_at == datetime(2026, 12, 7, 4, 59, 59, tzinfo=UTC)
    engine.dispose()


def test_a_review_is_claimed_once_on_postgresql_when_servers_ask_at_once(postgres_url):
    """The claim's compare-and-set holds on PostgreSQL too: four sessions at
    once, one claim; a new REVIEW_VERSION is claimed again, once."""
    engine = make_engine(postgres_url)
    migrate(engine)
    with Session(engine) as session:
        learner = Learner()
        session.add(learner)
        session.commit()
        session.refresh(learner)
        assert learner.id is not None
        row = hands.new_hand(session, learner.id, "house", "club", seed=3)
        hand_id = row.id
        assert hand_id is not None

    def race(version: int) -> list[reviews.Claim | None]:
        won: list[reviews.Claim | None] = []
        start = threading.Barrier(4)

        def ask() -> None:
            with Session(engine) as mine:
                start.wait()
                won.append(write(mine, lambda: reviews.claim(mine, hand_id, "East", 0, version)))

        threads = [threading.Thread(target=ask) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return [claim for claim in won if claim is not None]

    first = race(1)
    assert len(first) == 1 and first[0].attempt == 1
    with Session(engine) as session:
        assert write(session, lambda: reviews.finish(session, first[0], {"decisions": []}))
    bumped = race(2)
    assert len(bumped) == 1 and bumped[0].attempt == 2
    engine.dispose()


def _fresh_database(postgres_url: str, name: str):
    """An empty database of its own on the test server, migrated: its ids start at 1."""
    from sqlalchemy import text
    from sqlalchemy.engine import make_url

    admin = make_engine(postgres_url)
    with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {name}"))
        connection.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    engine = make_engine(make_url(postgres_url).set(database=name).render_as_string(hide_password=False))
    migrate(engine)
    return engine


def test_answers_store_exactly_the_rows_of_a_plain_reference_on_postgresql(postgres_url):
    """The answer's prepared statements (coach/store/prepared.py) on psycopg:
    the rows of a plain ORM reference, value for value (tests/support/answers.py)."""
    from tests.support.answers import graded_answers, reference_answers, rows, store_answers

    stored, reference = _fresh_database(postgres_url, "answers_stored"), _fresh_database(postgres_url, "answers_reference")
    answers = graded_answers()
    counted = store_answers(stored, answers)
    assert counted == reference_answers(reference, answers)
    assert False in counted
    with stored.connect() as a, reference.connect() as b:
        assert rows(a) == rows(b)
        assert all(row[-1].tzinfo is not None for row in rows(a)["attempt"])  # timestamptz, as Core writes it
    stored.dispose()
    reference.dispose()


def test_a_prepared_statements_driver_error_is_sqlalchemys_on_postgresql(postgres_url):
    """`write` retries on the SQLSTATE of SQLAlchemy's error: a prepared
    statement raises the same error, with psycopg's inside."""
    from sqlalchemy import insert
    from sqlalchemy.exc import IntegrityError

    from coach.store.models import SkillState
    from coach.store.prepared import Prepared
    from coach.store.transaction import retryable

    engine = _fresh_database(postgres_url, "prepared_errors")
    with Session(engine) as session:
        learner = Learner()
        session.add(learner)
        session.commit()
        learner_id = learner.id
    when = datetime.now(UTC)
    add = Prepared(insert(SkillState.__table__), ("learner_id", "skill", "card", "due", "reviews", "updated_at"))  # type: ignore[attr-defined]
    values = {"learner_id": learner_id, "skill": "tile:5D", "card": "{}", "due": when, "reviews": 1, "updated_at": when}
    with engine.connect() as connection:
        add.many(connection, [values])
        connection.commit()
        with pytest.raises(IntegrityError) as taken:
            add.many(connection, [values])
        assert taken.value.orig.sqlstate == "23505" and retryable(taken.value)
        connection.rollback()
        add.many(connection, [{**values, "skill": "tile:6D"}])
        connection.commit()
    engine.dispose()
