"""The web app: drills in the browser (htmx) and a JSON API.

`create_app` is an application factory in the manner of the Flask
tutorial: configuration, the instance folder, the card, and three
blueprints kept in small modules:

- `pages`: the HTML screens, with partials that htmx swaps in;
- `api`: the JSON API under /api (no CSRF form token, JSON bodies only);
- `tiles`: the tile faces as SVG under /tiles/<code>.svg.

Settings: environment variables, declared in `coach.common.settings` (each
with its default and meaning; docs/settings.md lists them), resolved once here
into `app.extensions["settings"]`; a test configuration overrides them.
"""

from __future__ import annotations

import codecs
import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from coach.common import settings
from coach.notation.card import Card, house_card, load_card
from coach.web.infra.places import asset_folder, instance_folder

csrf = CSRFProtect()


def _secret_key(instance: Path) -> str:
    """The instance's own key, made on first run and kept out of the repo.

    Servers started together on a fresh folder each find no key (issue 26):
    a new one is written whole to a file of its own, then linked into place
    only if there is still none, so every server ends with the first key
    made, never each with its own."""
    path = instance / "secret_key"
    key = _read_key(path)
    if key:
        return key
    key = secrets.token_hex(32)
    made = instance / f".secret_key.{os.getpid()}.{secrets.token_hex(4)}"
    fd = os.open(made, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(key + "\n")
        try:
            os.link(made, path)  # fails if another server's key is there already
        except FileExistsError:
            theirs = _read_key(path)
            if theirs:
                return theirs
            os.replace(made, path)  # an empty file left behind: this key replaces it
        except OSError:  # a folder without hard links (some mounted ones): moved into place, as before
            os.replace(made, path)
    finally:
        made.unlink(missing_ok=True)
    return key


def _read_key(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return ""


def _card(path: str | None) -> Card:
    return load_card(path) if path else house_card()


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    # The idna codec is imported on first use; two server threads using it at
    # once can see it half imported ("LookupError: unknown encoding: idna", a
    # known CPython race). Importing it here, before any thread or fork, avoids it.
    codecs.lookup("idna")
    resolved = settings.resolve(os.environ, test_config)  # first: a malformed setting stops the start at once
    app = Flask(
        __name__,
        instance_path=str(instance_folder(resolved[settings.DATA_DIR])),
        instance_relative_config=True,
        template_folder=str(asset_folder("templates")),
        static_folder=str(asset_folder("static")),
    )
    app.extensions["settings"] = resolved
    app.config.from_mapping(
        SECRET_KEY=resolved[settings.SECRET_KEY],
        MAX_CONTENT_LENGTH=64 * 1024,
        # A drill page may stay open for a long while: the CSRF token lives
        # as long as the session instead of one hour.
        WTF_CSRF_TIME_LIMIT=None,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        REMEMBER_COOKIE_HTTPONLY=True,
        REMEMBER_COOKIE_SAMESITE="Lax",
        # Static files carry a version in their URL (see `static_url`).
        SEND_FILE_MAX_AGE_DEFAULT=31536000,
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    instance = Path(app.instance_path)
    instance.mkdir(parents=True, exist_ok=True, mode=0o700)  # the database and the key: the owner's only
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = _secret_key(instance)
    from coach.web.infra import fast_json  # JSON bodies by orjson (issue 13); its provider keeps keys unsorted
    fast_json.install(app)
    from coach.web.infra import session_cookies  # a signed-in learner's same cookie checked once, not on every request
    session_cookies.install(app)

    from coach.store.db import database_url, make_engine, migrate
    from coach.web import teach
    from coach.web.account import sign_in as accounts
    from coach.web.api import drills as api
    from coach.web.classes import student as classes
    from coach.web.drill import pages
    from coach.web.drill import today as daily
    from coach.web.infra import errors, inputs, limits, redirects
    from coach.web.progress.page import bp as progress_bp
    from coach.web.shared import learners
    from coach.web.shared.cards import teachers as teacher_cards
    from coach.web.shared.drilling import Drilling
    from coach.web.tiles import routes as tiles

    store = make_engine(database_url(instance, resolved[settings.DATABASE_URL]))
    migrate(store)  # an upgrade brings the schema up to date before the first request
    store.dispose()  # no connection crosses a fork into gunicorn's workers
    app.extensions["store"] = store
    learners.install(app)

    app.extensions["coach"] = Drilling(
        _card(resolved[settings.CARD]), app.config["SECRET_KEY"], find_card=teacher_cards.find_card
    )
    csrf.init_app(app)
    csrf.exempt(api.bp)
    inputs.install(app)  # after CSRF, before the blueprints (its id converter binds with their routes)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    tiles.install(app)
    app.register_blueprint(progress_bp)
    from coach.web.play import table as practice  # a practice hand against the computer (issue 16)

    app.register_blueprint(practice.bp)
    from coach.web.api import hands as hands_api  # the practice hands' JSON API
    hands_api.install(app)
    from coach.web.api import tables as tables_api  # live tables' JSON API (issue 28)
    tables_api.install(app)
    app.register_blueprint(accounts.bp)
    from coach.web.account import password_reset  # "Forgot password?" and the reset link
    password_reset.install(app)
    daily.install(app)
    from coach.web.play import replay  # practice hands' mistakes asked again (issue 16, part 5)
    replay.install(app)
    from coach.web.learn import lessons as learn  # lessons, the glossary, and the filter marking glossary words

    learn.install(app)
    classes.install(app)
    teach.install(app)
    from coach.web.classes import hands as class_hands  # a class hand: the same deal for every student (issue 16, part 6)
    class_hands.install(app)
    from coach.web.account import my_cards  # everyone's own cards (issue 14)
    my_cards.install(app)
    pages.install(app)
    errors.install(app)
    redirects.install(app)  # sign_in_url(): the header's "Sign in" comes back to the page it was on
    from coach.web.account import early_refusal  # a refused sign-in answered before Flask: inside ProxyFix, so first

    early_refusal.install(app)
    limits.install(app)
    from coach.web.infra import hashing  # password hashing kept off the drills' capacity: its "busy" answer

    hashing.install(app)
    from coach.web.account import display  # dark mode and large tiles, kept per learner
    display.install(app)
    from coach.web.account import table_rules as own_table_rules  # a learner's own table rules (issue 27)
    own_table_rules.install(app)
    from coach.web.shared import table_rules  # the note of the rules in play, on verdicts and the practice table
    table_rules.install(app)
    from coach.web.infra import push  # live tables: a save wakes the table's open pages (issue 28)
    push.install(app)
    from coach.web.tables import pages as tables  # tables with friends, played live (issue 28)
    app.register_blueprint(tables.bp)
    from coach.web.infra import blas  # one BLAS thread: the server's threads share two cores
    blas.install(app)
    from coach.web.infra import server_timing  # outermost: the server's own time, for `load` (off unless asked)
    server_timing.install(app)

    @app.get("/healthz")
    def healthz() -> tuple[str, int, dict[str, str]]:
        # For monitoring, and the bare baseline of the load script.
        return "ok", 200, {"Content-Type": "text/plain; charset=utf-8"}

    return app
