"""The rows an answer stores, and the prepared statements that store them (issue 26).

The answer's statements run on the driver's cursor (coach/store/prepared.py):
the rows they write must be those a plain ORM version of the same work
writes (tests/support/answers.py), value for value, and what Core gave its
callers (errors, refusals, transactions, types) must hold.
"""

from __future__ import annotations

import json
import shutil
from datetime import datetime

import pytest
from sqlalchemy import bindparam, insert, select
from sqlalchemy.exc import IntegrityError, StatementError
from sqlmodel import Session

from coach.store.db import FILE_NAME, make_engine
from coach.store.models import Learner, LoginSession, SkillState
from coach.store.prepared import Prepared
from coach.store.transaction import insert_once
from coach.store.utc_datetime import NaiveDatetimeError
from tests.support.answers import START, graded_answers, learners, reference_answers, rows, store_answers

SKILLS = SkillState.__table__  # type: ignore[attr-defined]


@pytest.fixture
def two_engines(tmp_path, migrated_database):
    engines = []
    for name in ("stored", "reference"):
        (tmp_path / name).mkdir()
        shutil.copyfile(migrated_database, tmp_path / name / FILE_NAME)
        engines.append(make_engine(f"sqlite:///{tmp_path / name / FILE_NAME}"))
    yield engines
    for engine in engines:
        engine.dispose()


def test_answers_store_exactly_the_rows_of_a_plain_reference(two_engines):
    stored, reference = two_engines
    answers = graded_answers()
    counted = store_answers(stored, answers)
    assert counted == reference_answers(reference, answers)
    assert False in counted and counted.count(True) > 40  # questions answered again were not counted
    with stored.connect() as a, reference.connect() as b:
        assert rows(a) == rows(b)
        states = rows(a)["skillstate"]
    # the answers exercised what they are meant to: skills reviewed again, across days, in each fsrs state
    assert max(state[5] for state in states) >= 4
    assert {json.loads(state[3])["state"] for state in states} >= {1, 2}


def test_a_driver_error_is_sqlalchemys_and_the_transaction_goes_on(engine):
    """`write` retries on SQLAlchemy's errors: a prepared statement raises the
    same ones, with the driver's error inside, and the connection rolls back."""
    (learner_id,) = learners(engine, 1)
    add = Prepared(insert(SKILLS), ("learner_id", "skill", "card", "due", "reviews", "updated_at"))
    values = {"learner_id": learner_id, "skill": "tile:5D", "card": "{}", "due": START, "reviews": 1, "updated_at": START}
    with engine.connect() as connection:
        add.many(connection, [values])
        with pytest.raises(IntegrityError) as taken:
            add.many(connection, [values])  # the unique (learner, skill) is taken
        assert type(taken.value.orig).__module__ == "sqlite3"
        connection.rollback()
        add.many(connection, [{**values, "skill": "tile:6D"}])
        connection.commit()
        assert [row.skill for row in connection.execute(select(SKILLS.c.skill))] == ["tile:6D"]


def test_a_naive_time_is_refused_as_core_refuses_it(engine):
    (learner_id,) = learners(engine, 1)
    add = Prepared(insert(SKILLS), ("learner_id", "skill", "card", "due", "reviews", "updated_at"))
    with engine.connect() as connection, pytest.raises(StatementError) as refused:
        add.many(connection, [{"learner_id": learner_id, "skill": "s", "card": "{}", "due": datetime(2026, 3, 1),
                               "reviews": 1, "updated_at": START}])  # fmt: skip
    assert isinstance(refused.value.orig, NaiveDatetimeError)


def test_values_read_back_as_core_reads_them(engine):
    """Aware UTC times and booleans, from a row Core wrote, equal Core's own reading."""
    (learner_id,) = learners(engine, 1)
    with Session(engine) as session:
        session.add(LoginSession(learner_id=learner_id, token_hash="ab" * 32, created_at=START, last_seen_at=START))
        session.commit()
    table = LoginSession.__table__  # type: ignore[attr-defined]
    learner = Learner.__table__  # type: ignore[attr-defined]
    statement = (
        select(learner.c.guest, learner.c.created_at.label("joined"), table.c.created_at, table.c.ended_at)
        .join_from(learner, table, table.c.learner_id == learner.c.id)
        .where(learner.c.id == bindparam("learner_id"))
    )
    with engine.connect() as connection:
        core = connection.execute(statement, {"learner_id": learner_id}).one()
        prepared = Prepared(statement).first(connection, {"learner_id": learner_id})
    assert tuple(prepared) == tuple(core) == (True, START, START, None)
    assert prepared.joined.tzinfo is core.joined.tzinfo and prepared._fields == tuple(core._fields)


def test_a_statement_core_would_fill_in_is_left_to_core(engine):
    """A column default the values leave out (here the learner's creation time)
    is Core's to fill in: such an insert is not prepared, and is still stored."""
    with Session(engine) as session:
        assert insert_once(session, Learner, {"email": "x@example.org", "guest": False}, ("email",)) is True
        assert insert_once(session, Learner, {"email": "x@example.org", "guest": False}, ("email",)) is False
        session.commit()
        made = session.exec(select(Learner.created_at).where(Learner.email == "x@example.org")).one()
    assert made is not None
    assert not Prepared(insert(Learner.__table__), ("email", "guest")).ready(engine.dialect)  # type: ignore[attr-defined]
