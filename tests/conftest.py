"""Shared fixtures: the Flask app and client, and a live server for the
browser tests (pytest-playwright's `page` fixture with Debian's Chromium).
Every test under tests/browser is marked `browser` here.

Playwright never downloads a browser here: `browser_type_launch_args`
points it at /usr/bin/chromium, which `make test` installs with apt when
it is missing.
"""

from __future__ import annotations

import logging
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from waitress.server import create_server

from coach.store.db import FILE_NAME, make_engine, migrate
from coach.web import create_app
from tests.support.app import TEST_PASSWORD_HASH, TEST_SECRET
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS
from tests.support.servers import stop_waitress

# These machines are shared and their speed swings 2-3x: Hypothesis's 200 ms
# deadline per example would fail a property for the machine's load, not its
# code. Speed is the benchmarks' business; the examples stay random.
# Examples a test: "coach" keeps Hypothesis's 100 (tests that want another
# count scale it with tests.support.examples); "fast" (`make test-fast`,
# `--hypothesis-profile=fast`) tries a fifth as many, for a quick loop.
settings.register_profile("coach", deadline=None)  # so no test sets its own
settings.register_profile("fast", settings.get_profile("coach"), max_examples=20)
settings.load_profile("coach")


BROWSER_TESTS = Path(__file__).parent / "browser"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test under tests/browser drives Chromium: marked `browser`, so
    `-m "not browser"` leaves them all out."""
    for item in items:
        if BROWSER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.browser)


class _ServerErrors(logging.Handler):
    """Every record at ERROR or above from the app's own logger (its 500
    handler logs each unexpected exception there) or from the live server
    (waitress). Modules' own loggers, such as a mail that could not be sent,
    are not 500s and are left to their tests."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name in ("coach.web", "flask.app") or record.name.startswith("waitress"):
            self.records.append(record)


@pytest.fixture(autouse=True)
def no_server_errors(request):
    """No test's server log shows an unexpected error (a 500), unless the test
    is marked `server_error` because it makes one on purpose."""
    handler = _ServerErrors()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
    if request.node.get_closest_marker("server_error") is None:
        assert [r.getMessage() for r in handler.records] == [], "the server logged an unexpected error"


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory) -> Path:
    """One SQLite file migrated to head for the whole session; each test
    starts from a copy of it (a copy is ~20x faster than migrating anew,
    and create_app's own upgrade then finds nothing to do)."""
    path = tmp_path_factory.mktemp("template") / FILE_NAME
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    with engine.connect() as connection:  # fold the WAL into the file before it is copied
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    engine.dispose()
    return path


@pytest.fixture
def app(tmp_path, monkeypatch, migrated_database):
    instance = tmp_path / "instance"
    instance.mkdir()
    shutil.copyfile(migrated_database, instance / FILE_NAME)
    monkeypatch.setenv("COACH_DATA_DIR", str(instance))
    monkeypatch.delenv("COACH_SECRET_KEY", raising=False)
    monkeypatch.delenv("COACH_CARD", raising=False)
    return create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET, "TEST_PASSWORD_HASH": TEST_PASSWORD_HASH})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory) -> Iterator[str]:
    """The app under waitress on a free loopback port, for the whole session."""
    instance: Path = tmp_path_factory.mktemp("live-instance")
    mp = pytest.MonkeyPatch()
    mp.setenv("COACH_DATA_DIR", str(instance))
    mp.delenv("COACH_SECRET_KEY", raising=False)
    mp.delenv("COACH_CARD", raising=False)
    try:
        application = create_app()
    finally:
        mp.undo()
    server = create_server(application, host="127.0.0.1", port=0, threads=4, ident="coach-test")
    thread = threading.Thread(target=server.run, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        stop_waitress(server, thread)


@pytest.fixture(scope="session")
def base_url(live_server: str) -> str:
    return live_server


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict:
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS}
