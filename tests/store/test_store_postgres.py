"""The same store on PostgreSQL, as when COACH_DATABASE_URL names one."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlmodel import Session, SQLModel, select

from coach.notation.card import house_card
from coach.store.db import make_engine, migrate
from coach.store.models import Attempt, Learner
from coach.store.progress import record_answer, summary
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
