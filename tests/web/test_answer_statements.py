"""How many SQL statements a drill's question and answer cost (issue 13).

A count, not a time: a regression that loads the learner twice, looks for a
repeat before the unique constraint would, or writes each skill apart shows
here whatever the machine's load.
"""

from __future__ import annotations

import contextlib

import pytest
from sqlalchemy import event

from coach.store.progress import skills_of


@contextlib.contextmanager
def statements(app):
    """Each SQL statement the app's engine sends, as its first word and table-ish words."""
    sent: list[str] = []

    def count(conn, cursor, statement, parameters, context, executemany):
        sent.append(" ".join(statement.split()[:4]))

    engine = app.extensions["store"]
    event.listen(engine, "before_cursor_execute", count)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", count)


def ask(client, drill, seed):
    response = client.post(f"/api/drills/{drill}/questions", json={"seed": seed, "level": 1})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def answer(client, drill, token, value):
    response = client.post(f"/api/drills/{drill}/answers", json={"token": token, "answer": value})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def kinds(sent: list[str]) -> list[str]:
    return [s.split()[0] for s in sent]


@pytest.mark.parametrize("drill,value", [("name-the-tile", "5D"), ("nearest-hand", "2026-1")])
def test_a_question_and_an_answer_cost_a_fixed_few_statements(app, client, drill, value):
    first = ask(client, drill, 11)
    assert answer(client, drill, first["token"], value)["counted"] is True  # makes the guest and their skills

    with statements(app) as sent:
        question = ask(client, drill, 12)
    # Nothing: the per-learner limit keys on the signed session cookie, and a
    # question needs no learner loaded (coach.web.infra.limits._signed_session).
    assert kinds(sent) == [], sent

    with statements(app) as sent:
        verdict = answer(client, drill, question["token"], value)
    assert verdict["counted"] is True
    # The session once; the learner's row lock (a no-op write on SQLite); the
    # attempt, counted once by its unique key with no query looking first; the
    # skills' schedules read in one query and written in at most one UPDATE and
    # one INSERT, however many skills the answer exercised.
    assert kinds(sent)[:4] == ["SELECT", "UPDATE", "INSERT", "SELECT"], sent
    assert "learner" in sent[1] and "attempt" in sent[2] and "skillstate" in sent[3], sent
    writes = sent[4:]
    assert 1 <= len(writes) <= 2 and all("skillstate" in w for w in writes), sent
    assert sorted(kinds(writes)) == sorted(set(kinds(writes))), sent  # one of each kind at most


def test_skill_writes_are_one_statement_each_however_many_skills(app, client):
    """nearest-hand level 1 exercises its drill skill and rules; first answers
    insert them all in one statement, later ones update them all in one."""
    drill = "nearest-hand"
    with statements(app) as sent:
        first = ask(client, drill, 21)
        verdict = answer(client, drill, first["token"], "2026-1")
    assert verdict["counted"] is True
    skill_writes = [s for s in sent if s.startswith("INSERT INTO skillstate") or s.startswith("UPDATE skillstate")]
    assert kinds(skill_writes) == ["INSERT"], sent

    with statements(app) as sent:
        again = ask(client, drill, 21 + 1)
        answer(client, drill, again["token"], "2026-1")
    skill_writes = [s for s in sent if "skillstate" in s and not s.startswith("SELECT")]
    assert len(skill_writes) <= 2, sent


def test_an_answer_given_again_is_not_counted_and_costs_three_statements(app, client):
    question = ask(client, "name-the-tile", 31)
    assert answer(client, "name-the-tile", question["token"], "5D")["counted"] is True
    with statements(app) as sent:
        again = answer(client, "name-the-tile", question["token"], "5D")
    assert again["counted"] is False
    # Session, lock, and the insert the unique constraint turns away: no skill is read or written.
    assert kinds(sent) == ["SELECT", "UPDATE", "INSERT"], sent
    assert not any("skillstate" in s for s in sent), sent


def test_skills_of_an_answer_are_what_the_writes_cover(app, client):
    """The statement counts above hold for answers exercising several skills."""
    import drills

    module = drills.get("name-the-tile")
    question = module.generate(41, 1, app.extensions["coach"].card)
    verdict = module.grade(question, "5D")
    assert len(skills_of(question, verdict)) >= 2


@pytest.mark.server
def test_sqlite_writers_take_turns_on_a_file_lock_across_processes(app):
    """gunicorn's workers are processes: each answer's write holds a lock file
    beside the database, so a writer in another process waits on it (woken
    at once) instead of sleeping in SQLite's busy handler."""
    import fcntl
    import os

    from coach.web.infra import database

    database_file = app.extensions["store"].url.database
    with app.app_context():
        with database.write_lock():
            other = os.open(database_file + ".write-lock", os.O_RDWR)  # as another process would open it
            try:
                with pytest.raises(BlockingIOError):
                    fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
            finally:
                os.close(other)
        other = os.open(database_file + ".write-lock", os.O_RDWR)
        try:
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)  # let go once the write is done
            fcntl.flock(other, fcntl.LOCK_UN)
        finally:
            os.close(other)


@contextlib.contextmanager
def checkouts(app):
    """Each connection the app's engine hands out of its pool."""
    taken: list[object] = []

    def count(dbapi_connection, record, proxy):
        taken.append(dbapi_connection)

    engine = app.extensions["store"]
    event.listen(engine, "checkout", count)
    try:
        yield taken
    finally:
        event.remove(engine, "checkout", count)


def test_a_signed_in_answer_is_stored_on_the_connection_its_learner_was_checked_on(app, client):
    first = ask(client, "name-the-tile", 21)
    assert answer(client, "name-the-tile", first["token"], "5D")["counted"] is True  # makes the guest
    question = ask(client, "name-the-tile", 22)
    with checkouts(app) as taken, statements(app) as sent:
        assert answer(client, "name-the-tile", question["token"], "5D")["counted"] is True
    # The session check's read, then the store's transaction, on the one connection (issue 26).
    assert len(taken) == 1, taken
    assert kinds(sent)[0] == "SELECT" and "UPDATE" in kinds(sent), sent
