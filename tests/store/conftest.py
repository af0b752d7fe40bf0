"""Fixtures of the store tests: a migrated SQLite engine of the test's own."""

from __future__ import annotations

import shutil

import pytest

from coach.store.db import FILE_NAME, make_engine


@pytest.fixture
def engine(tmp_path, migrated_database):
    """A SQLite file of the test's own: a copy of the session's migrated one
    (tests/conftest.py), the schema migrating anew would build, ~20x sooner."""
    path = tmp_path / FILE_NAME
    shutil.copyfile(migrated_database, path)
    return make_engine(f"sqlite:///{path}")
