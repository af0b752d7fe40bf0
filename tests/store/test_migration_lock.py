"""Two servers started together on a fresh SQLite folder (issue 26, point 5):
each migrates as it starts, and the second used to die with "database is
locked". Now the migrations take a lock beside the file: one migrates, the
other waits and finds nothing to do.

The processes are real (two Pythons, as two servers are), each released at
the same instant after its imports, and run twice over: before the lock the
second process failed in every run.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, text

from coach.store.db import FILE_NAME, MIGRATIONS
from tests.support.paths import ROOT

pytestmark = pytest.mark.server  # starts processes of its own

MIGRATE_AT = """
import sys, time
from coach.store.db import make_engine, migrate
engine = make_engine("sqlite:///" + sys.argv[1])
time.sleep(max(0.0, float(sys.argv[2]) - time.time()))  # both start the migration at once
migrate(engine)
engine.dispose()
print("migrated")
"""


def _head() -> str:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config).get_current_head() or ""


@pytest.mark.parametrize("run", range(2))
def test_two_migrations_started_together_both_succeed_once(tmp_path, run):
    path = tmp_path / FILE_NAME
    start = time.time() + 4.0  # after both processes have imported the app (a second or two each)
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", MIGRATE_AT, str(path), repr(start)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    results = [process.communicate(timeout=120) for process in processes]
    for process, (out, err) in zip(processes, results, strict=True):
        assert process.returncode == 0, err[-3000:]
        assert out.strip() == "migrated"
        assert "locked" not in err

    engine = create_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as connection:
            versions = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
            learners = connection.execute(text("SELECT count(*) FROM learner")).scalar_one()
    finally:
        engine.dispose()
    assert versions == [_head()]  # at head, recorded once
    assert learners == 0  # the tables exist, made once (a second CREATE would have failed)
