"""Fixtures of the store tests: a migrated SQLite engine of the test's own."""

from __future__ import annotations

import pytest

from coach.store.db import make_engine, migrate


@pytest.fixture
def engine(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'coach.sqlite3'}")
    migrate(engine)
    return engine
