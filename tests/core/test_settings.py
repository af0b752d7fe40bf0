"""The settings (coach.common.settings): each declared once, read the same way
everywhere, malformed ones said in one line, and docs/settings.md made from them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from coach.common import settings
from coach.common.settings import SETTINGS, Setting, SettingError, resolve
from coach.reading import disk_cache
from coach.store.db import FILE_NAME, database_url
from coach.tools import settings_doc
from coach.web import create_app
from coach.web.infra import places
from tests.support.app import TEST_SECRET

ROOT = Path(__file__).resolve().parents[2]


def _app(tmp_path, monkeypatch, migrated_database, **config):
    instance = tmp_path / "instance"
    instance.mkdir()
    shutil.copyfile(migrated_database, instance / FILE_NAME)
    monkeypatch.setenv("COACH_DATA_DIR", str(instance))
    return create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET, **config})


# -- declared once --------------------------------------------------------------------


def test_every_setting_is_declared_once_with_a_meaning_and_its_readers():
    names = [setting.name for setting in SETTINGS]
    assert len(names) == len(set(names)) == len(settings.BY_NAME)
    for setting in SETTINGS:
        assert setting.name.startswith("COACH_") and setting.name.upper() == setting.name
        assert setting.meaning.strip() and "\n" not in setting.meaning
        assert setting.used_by and all(reader.startswith("coach") for reader in setting.used_by)


def test_no_module_but_the_settings_names_a_setting():
    """Every reader goes through coach.common.settings: a name spelled out
    anywhere else would be a second declaration, free to drift."""
    own = ROOT / "coach" / "common" / "settings.py"
    spelled = [
        f"{path.relative_to(ROOT)}:{number}"
        for folder in ("coach", "drills")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if path != own
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if settings.PREFIX in line
    ]
    assert spelled == []


def test_the_committed_page_is_what_the_settings_render():
    committed = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    assert committed == settings_doc.render(), "run: python -m coach.tools.settings_doc"
    for setting in SETTINGS:
        assert f"`{setting.name}`" in committed


def test_the_doc_command_writes_the_page(tmp_path, capsys):
    out = tmp_path / "settings.md"
    assert settings_doc.main([str(out)]) == 0
    assert out.read_text(encoding="utf-8") == settings_doc.render()


# -- defaults and parsing -------------------------------------------------------------


def test_an_empty_environment_gives_every_default():
    resolved = resolve({})
    for setting in SETTINGS:
        assert resolved[setting] == setting.default
    assert resolved[settings.THREADS] == 8 and resolved[settings.WORKERS] is None
    assert resolved[settings.PROXY_COUNT] == 0 and resolved[settings.HTTPS] is False
    assert resolved[settings.RATELIMIT_STORAGE_URI] == "coach-sqlite://"  # the instance folder's file
    assert resolved[settings.LIMIT_JOIN_ADDRESS] == "20/minute;200/hour"
    assert resolved[settings.LIMIT_FORGOT_EMAIL] == "3/hour"


def test_an_empty_value_is_the_default():
    resolved = resolve({"COACH_THREADS": "", "COACH_LIMIT_DRILL_LEARNER": "", "COACH_DATA_DIR": ""})
    assert resolved[settings.THREADS] == 8
    assert resolved[settings.LIMIT_DRILL_LEARNER] == "120/minute"
    assert resolved[settings.DATA_DIR] is None and resolved[settings.WORKERS] is None


def test_values_are_read_into_their_types():
    resolved = resolve({
        "COACH_WORKERS": " 3 ", "COACH_PROXY_COUNT": "2", "COACH_DATA_DIR": "/srv/coach",
        "COACH_LIMIT_SIGNIN_EMAIL": "10 per minute", "COACH_SECRET_KEY": " kept as given ",
    })
    assert resolved[settings.WORKERS] == 3 and resolved[settings.PROXY_COUNT] == 2
    assert resolved[settings.DATA_DIR] == Path("/srv/coach")
    assert resolved[settings.LIMIT_SIGNIN_EMAIL] == "10 per minute"
    assert resolved[settings.SECRET_KEY] == " kept as given "  # a key is never trimmed: its signatures would change


@pytest.mark.parametrize("word, on", [
    ("1", True), ("true", True), ("Yes", True), (" on ", True),
    ("0", False), ("false", False), ("NO", False), ("off", False),
])
def test_switches_read_the_usual_words(word, on):
    assert resolve({"COACH_HTTPS": word})[settings.HTTPS] is on
    assert resolve({"COACH_SERVER_TIMING": word})[settings.SERVER_TIMING] is on


@pytest.mark.parametrize("name, value, says", [
    ("COACH_WORKERS", "many", "COACH_WORKERS must be a whole number from 1 to 64, not 'many'"),
    ("COACH_WORKERS", "0", "COACH_WORKERS must be a whole number from 1 to 64, not '0'"),
    ("COACH_THREADS", "65", "COACH_THREADS must be a whole number from 1 to 64, not '65'"),
    ("COACH_THREADS", "1.5", "COACH_THREADS must be a whole number from 1 to 64, not '1.5'"),
    ("COACH_PROXY_COUNT", "yes",
     "COACH_PROXY_COUNT must be the number of reverse proxies in front of the coach (0-10), not 'yes'"),
    ("COACH_PROXY_COUNT", "11",
     "COACH_PROXY_COUNT must be the number of reverse proxies in front of the coach (0-10), not '11'"),
    ("COACH_HTTPS", "maybe", "COACH_HTTPS must be 1 or 0 (or true/false, yes/no, on/off), not 'maybe'"),
    ("COACH_LIMIT_DRILL_LEARNER", "lots",
     'COACH_LIMIT_DRILL_LEARNER must be a rate limit such as "10/minute" or "20/minute;200/hour", not \'lots\''),
    ("COACH_LIMIT_SIGNIN_EMAIL", "5/fortnight",
     'COACH_LIMIT_SIGNIN_EMAIL must be a rate limit such as "10/minute" or "20/minute;200/hour", not \'5/fortnight\''),
])
def test_a_malformed_value_is_one_line_naming_the_setting(name, value, says):
    with pytest.raises(SettingError) as error:
        resolve({name: value})
    assert str(error.value) == says
    assert isinstance(error.value, ValueError)  # the command line prints those as one line


def test_a_long_value_is_cut_short_in_the_message():
    with pytest.raises(SettingError) as error:
        resolve({"COACH_WORKERS": "x" * 500})
    assert len(str(error.value)) < 100


def test_a_secret_is_never_shown_back():
    secret = Setting("COACH_TEST_SECRET", None, settings.flag, "A switch kept secret.", ("tests",), secret=True)
    with pytest.raises(SettingError) as error:
        secret.read({"COACH_TEST_SECRET": "hunter2"})
    assert "hunter2" not in str(error.value) and "COACH_TEST_SECRET" in str(error.value)


def test_every_problem_is_said_at_once_on_one_line():
    with pytest.raises(SettingError) as error:
        resolve({"COACH_WORKERS": "many", "COACH_HTTPS": "maybe"}, {"COACH_LIMT_DRILL_LEARNER": "1/minute"})
    said = str(error.value)
    assert "\n" not in said
    assert "COACH_LIMT_DRILL_LEARNER is not a setting" in said
    assert "COACH_WORKERS must" in said and "COACH_HTTPS must" in said


# -- overrides (the test configuration given to create_app) ---------------------------------


def test_an_override_beats_the_environment_whatever_it_says():
    environ = {"COACH_SERVER_TIMING": "1", "COACH_PROXY_COUNT": "3", "COACH_SMTP_URL": "smtp://mail"}
    resolved = resolve(environ, {"COACH_SERVER_TIMING": "0", "COACH_PROXY_COUNT": 1, "COACH_SMTP_URL": None})
    assert resolved[settings.SERVER_TIMING] is False
    assert resolved[settings.PROXY_COUNT] == 1
    assert resolved[settings.SMTP_URL] is None  # an override of None is the default, not the environment's


def test_overrides_may_be_python_values_and_other_keys_are_left_alone():
    resolved = resolve({}, {"COACH_HTTPS": True, "COACH_SERVER_TIMING": False, "TESTING": True, "SECRET_KEY": "k"})
    assert resolved[settings.HTTPS] is True and resolved[settings.SERVER_TIMING] is False


def test_updated_reads_the_named_settings_anew():
    resolved = resolve({"COACH_THREADS": "4"})
    changed = resolved.updated({"COACH_LIMIT_DRILL_LEARNER": "3/minute"})
    assert changed[settings.LIMIT_DRILL_LEARNER] == "3/minute" and changed[settings.THREADS] == 4
    assert resolved[settings.LIMIT_DRILL_LEARNER] == "120/minute"  # a value: the first is unchanged
    with pytest.raises(SettingError, match="COACH_LIMIT_DRILL_LEARNER must be a rate limit"):
        resolved.updated({"COACH_LIMIT_DRILL_LEARNER": "often"})


# -- the readers -----------------------------------------------------------------------------


def test_the_app_keeps_its_settings_and_the_test_configuration_overrides(tmp_path, monkeypatch, migrated_database):
    monkeypatch.setenv("COACH_HTTPS", "0")
    app = _app(tmp_path, monkeypatch, migrated_database, COACH_HTTPS=True)
    assert app.extensions["settings"][settings.HTTPS] is True
    assert app.extensions["settings"][settings.DATA_DIR] == tmp_path / "instance"
    response = app.test_client().get("/healthz")
    assert "Strict-Transport-Security" in response.headers


def test_a_malformed_setting_stops_the_app_before_it_makes_anything(tmp_path, monkeypatch):
    monkeypatch.setenv("COACH_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COACH_PROXY_COUNT", "two")
    with pytest.raises(SettingError, match="COACH_PROXY_COUNT must be the number of reverse proxies"):
        create_app({"TESTING": True})
    assert not (tmp_path / "data").exists()


def test_the_folders_and_the_database_are_read_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("COACH_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COACH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("COACH_DATABASE_URL", raising=False)
    assert places.instance_folder() == (tmp_path / "data").resolve()
    assert places.instance_folder(tmp_path / "given") == (tmp_path / "given").resolve()
    assert disk_cache.cache_folder() == tmp_path / "cache"
    assert database_url(tmp_path) == f"sqlite:///{tmp_path / FILE_NAME}"
    monkeypatch.setenv("COACH_DATABASE_URL", "postgresql+psycopg://coach@db/coach")
    assert database_url(tmp_path) == "postgresql+psycopg://coach@db/coach"
    assert database_url(tmp_path, "sqlite:///given.sqlite3") == "sqlite:///given.sqlite3"


def test_serve_says_a_bad_number_of_workers_in_one_line_without_a_traceback(tmp_path):
    env = {key: value for key, value in os.environ.items() if not key.startswith("COACH_")}
    env.update(COACH_DATA_DIR=str(tmp_path / "data"), COACH_WORKERS="lots")
    done = subprocess.run(
        [sys.executable, "-m", "coach", "serve", "--port", "0"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "mahjong-coach: error: COACH_WORKERS must be a whole number from 1 to 64, not 'lots'"
    ]
