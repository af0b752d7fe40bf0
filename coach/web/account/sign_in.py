"""Learner accounts: sign up, sign in, sign out, the account page, own data.

    GET/POST /signup             make an account (a guest's row becomes it)
    GET/POST /signin             sign in (a guest's answers move into the account)
    POST     /signout            sign out (the session ends on the server too)
    POST     /account/signout-everywhere  end every session of the account
    POST     /account/password   change the password (the current one asked); other sessions end
    GET/POST /account            the details: name, email, time zone, daily goal
    GET      /account/export.csv every attempt, one row each
    GET      /account/export.json everything kept about the learner
    GET/POST /account/delete     delete the learner and all their data
    GET      /account/deleted    what is left: nothing

Every form is a plain HTML form carrying Flask-WTF's CSRF token
(CSRFProtect refuses a POST without it). Passwords are hashed with
werkzeug (scrypt); emails are kept in lower case. A failed sign-in says
only that the email and password do not match: it never tells whether
the email has an account (sign-up has to, when the email is taken).
The rows move in coach/store/accounts.py, which knows nothing of Flask.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any
from zoneinfo import available_timezones

from flask import (
    Blueprint,
    Response,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from coach.common import clock
from coach.store import accounts as store
from coach.store.models import Learner
from coach.store.table_rules import learner_rules
from coach.web.account import table_rules as own_table_rules
from coach.web.infra import database, limits
from coach.web.infra.downloads import download
from coach.web.infra.hashing import check_password_hash, generate_password_hash  # werkzeug's, under a bound
from coach.web.infra.redirects import safe_next
from coach.web.shared import learners
from coach.web.shared.learners import is_account, name_problem

bp = Blueprint("accounts", __name__)

MIN_PASSWORD = 8
MAX_PASSWORD = 1000  # hashing a megabyte on every sign-in attempt is a denial of service
MAX_EMAIL = 254
GOAL_RANGE = (1, 100)
EMAIL = re.compile(r"^[^\s@]{1,64}@(?:[^\s@.]+\.)+[^\s@.\d][^\s@.]+$")  # a top-level domain: 2+ characters, not a number
CONFIRM_WORD = "delete"
# Checked when an email has no account, so that a miss takes as long as a
# wrong password and the timing does not tell which one it was.
_DUMMY_HASH = generate_password_hash("not the password of anyone")


@lru_cache(maxsize=1)
def zone_names() -> tuple[str, ...]:
    return tuple(sorted(available_timezones()))


# -- checking what the forms send ---------------------------------------------------


def normal_email(raw: Any) -> str:
    return raw.strip().lower() if isinstance(raw, str) else ""


def email_problem(email: str) -> str | None:
    if not email:
        return "Enter your email address."
    if len(email) > MAX_EMAIL:
        return f"An email address can be at most {MAX_EMAIL} characters."
    if not EMAIL.match(email) or ".." in email or email.startswith(".") or ".@" in email:
        return "Enter an email address like name@example.com."
    return None


def password_problem(password: str) -> str | None:
    if not password:
        return "Choose a password."
    if len(password) < MIN_PASSWORD:
        return f"Your password needs at least {MIN_PASSWORD} characters; this one has {len(password)}."
    if len(password) > MAX_PASSWORD:
        return f"A password can be at most {MAX_PASSWORD} characters."
    return None


def zone_problem(name: str) -> str | None:
    if not name:
        return "Enter your time zone, such as Europe/London."
    if learners.valid_zone(name) is None:
        return f"\u201c{name[:64]}\u201d is not a time zone we know. Use a name such as America/New_York."
    return None


def goal_problem(raw: str) -> tuple[int | None, str | None]:
    low, high = GOAL_RANGE
    message = f"Your daily goal must be a whole number from {low} to {high}."
    try:
        goal = int(raw.strip())
    except ValueError:
        return None, message
    return (goal, None) if low <= goal <= high else (None, message)


def _field(name: str) -> str:
    value = request.form.get(name, "")
    return value if isinstance(value, str) else ""


def _answers(what: int) -> str:
    return f"{what} answer" if what == 1 else f"{what} answers"


@bp.after_request
def _private(response: Response) -> Response:
    # Pages with an email and exports of a learner's answers stay out of caches.
    response.headers["Cache-Control"] = "no-store"
    return response


# -- sign up, sign in, sign out ------------------------------------------------------


def _guest_answers() -> int:
    with database.reading() as session:
        learner = learners.current_learner(session)
        if learner is None or not learner.guest or learner.id is None:
            return 0
        return store.attempt_count(session, learner.id)


@bp.route("/signup", methods=["GET", "POST"])
@limits.sign_up
def signup():
    if is_account():
        return redirect(url_for("accounts.account"), 303)
    if request.method == "GET":
        return render_template("account/signup.html", values={}, errors={}, guest_answers=_guest_answers())

    name, email, password = _field("name").strip(), normal_email(_field("email")), _field("password")
    teacher = _field("teacher") == "1"
    values = {"name": name, "email": email, "teacher": teacher}
    errors = {
        key: message
        for key, message in (
            ("name", name_problem(name)),
            ("email", email_problem(email)),
            ("password", password_problem(password)),
        )
        if message
    }
    taken = "An account with this email already exists. Sign in to it instead."

    def refused():
        return render_template(
            "account/signup.html", values=values, errors=errors, guest_answers=_guest_answers(), taken=taken
        ), 422

    if errors:
        return refused()
    with database.reading() as session:
        if store.by_email(session, email) is not None:
            errors["email"] = taken
            return refused()
        password_hash = generate_password_hash(password)
        learner = learners.current_learner(session)
        kept = 0
        if learner is not None and learner.guest:
            assert learner.id is not None
            kept = store.attempt_count(session, learner.id)
            store.promote_guest(session, learner, email, password_hash, name)
        else:
            learner = Learner(guest=False, email=email, password_hash=password_hash, name=name)
            session.add(learner)
        zone = learners.valid_zone(_field("time_zone").strip())
        if zone:
            learner.time_zone = zone
        if teacher:
            learner.role = "teacher"
        try:
            session.commit()
        except IntegrityError:  # the same email signed up at the same moment
            session.rollback()
            errors["email"] = taken
            return refused()
        session.refresh(learner)
        learners.sign_in(session, learner, end_others=True)  # the guest's cookies do not open the account
    welcome = "Welcome! Your account is ready"
    welcome += f", with the {_answers(kept)} you gave as a guest." if kept else "."
    flash(welcome, "success")
    back = safe_next(request.values.get("next"))
    if teacher:
        return redirect(back or url_for("teach.home"), 303)
    return redirect(back or url_for("accounts.account"), 303)


@bp.route("/signin", methods=["GET", "POST"])
@limits.sign_in
def signin():
    back = safe_next(request.values.get("next"))
    if is_account():
        return redirect(back or url_for("accounts.account"), 303)
    if request.method == "GET":
        return render_template(
            "account/signin.html", values={}, errors={}, guest_answers=_guest_answers(), next=back
        )

    email, password = normal_email(_field("email")), _field("password")
    values = {"email": email}
    errors: dict[str, str] = {}
    if not email:
        errors["email"] = "Enter your email address."
    if not password:
        errors["password"] = "Enter your password."
    account_id = None
    if not errors:
        with database.reading() as session:
            account = store.by_email(session, email) if len(password) <= MAX_PASSWORD else None
            stored = account.password_hash if account is not None and account.password_hash else _DUMMY_HASH
            # An address that has been failing waits behind clean ones for the hash (issue 26).
            matches = check_password_hash(stored, password[:MAX_PASSWORD], suspect=limits.failing_address())
            if account is not None and account.password_hash and matches and not account.guest:
                account_id = account.id
        if account_id is None:
            errors["form"] = "That email and password do not match an account. Check them and try again."
    if errors:
        return render_template(
            "account/signin.html", values=values, errors=errors, guest_answers=_guest_answers(), next=back
        ), 422

    assert account_id is not None
    moved = dropped = 0
    with database.reading() as session:
        guest = learners.current_learner(session)
        if guest is not None and guest.guest and guest.id is not None and guest.id != account_id:
            given = store.attempt_count(session, guest.id)
            moved = store.merge_guest(session, guest.id, account_id)
            dropped = given - moved
        account = session.get(Learner, account_id)
        assert account is not None
        learners.sign_in(session, account)
    if back:
        return redirect(back, 303)
    message = "You are signed in."
    if moved:
        message += f" {_answers(moved).capitalize()} from your guest practice {'was' if moved == 1 else 'were'} added."
    if dropped:
        message += (
            f" {_answers(dropped).capitalize()} to questions you had already answered"
            f" {'was' if dropped == 1 else 'were'} left out: a question counts once."
        )
    flash(message, "success")
    return redirect(url_for("accounts.account"), 303)


@bp.post("/signout")
def signout():
    learners.sign_out()
    return redirect(url_for("pages.home"), 303)


@bp.post("/account/signout-everywhere")
def signout_everywhere():
    """End every session of the account, this browser's too (a guest has one browser: nothing to do)."""
    if not is_account():
        return redirect(url_for("accounts.account"), 303)
    learners.sign_out(everywhere=True)
    flash("You are signed out on every browser and device. Sign in again here when you like.", "success")
    return redirect(url_for("accounts.signin"), 303)


@bp.post("/account/password")
@limits.password
def change_password():
    """A new password, the current one asked first; every other session ends."""
    with database.reading() as session:
        learner = learners.current_learner(session)
        if learner is None or learner.guest:
            return redirect(url_for("accounts.signup"), 303)
        current, new = _field("old_password"), _field("new_password")
        errors: dict[str, str] = {}
        if not current:
            errors["old_password"] = "Enter your current password."
        elif len(current) > MAX_PASSWORD or not check_password_hash(learner.password_hash or _DUMMY_HASH, current[:MAX_PASSWORD]):
            errors["old_password"] = "That is not your current password."
        problem = "Choose a new password." if not new else password_problem(new)
        if problem:
            errors["new_password"] = problem
        if errors:
            return _page(session, learner, _values_of(learner), errors, 422)
        learner.password_hash = generate_password_hash(new)
        session.add(learner)
        # One commit: the new hash, every session ended, and a new one for this browser.
        learners.sign_in(session, learner, end_others=True)
    flash("Your password is changed. Every other browser signed in to your account is signed out.", "success")
    return redirect(url_for("accounts.account"), 303)


# -- the account page -----------------------------------------------------------------


def _page(session: Session, learner: Learner | None, values: dict[str, Any], errors: dict[str, str], status=200):
    stats = {"answers": 0}
    if learner is not None and learner.id is not None:
        stats["answers"] = store.attempt_count(session, learner.id)
    rules_form = {}  # an account's own table rules; a guest is shown what an account would give
    if learner is not None and learner.id is not None and not learner.guest:
        rules_form = own_table_rules.context(learner_rules(session, learner.id))
    return render_template(
        "account/account.html",
        **rules_form,
        learner=learner,
        values=values,
        errors=errors,
        stats=stats,
        zones=zone_names(),
        goal_range=GOAL_RANGE,
    ), status


def _values_of(learner: Learner | None) -> dict[str, Any]:
    if learner is None:
        return {}
    return {
        "name": learner.name,
        "email": learner.email or "",
        "time_zone": learner.time_zone,
        "daily_goal": learner.daily_goal,
    }


@bp.get("/account")
def account():
    with database.reading() as session:
        learner = learners.current_learner(session)
        return _page(session, learner, _values_of(learner), {})


@bp.post("/account")
def save():
    with database.reading() as session:
        learner = learners.current_learner(session)
        if learner is None:
            return redirect(url_for("accounts.signup"), 303)
        values = _values_of(learner)
        errors: dict[str, str] = {}
        goal, problem = goal_problem(_field("daily_goal"))
        values["daily_goal"] = _field("daily_goal").strip()
        if problem:
            errors["daily_goal"] = problem
        if not learner.guest:
            # A guest's day follows their browser (every answer says its zone);
            # an account's follows what is chosen here.
            name, email, zone = _field("name").strip(), normal_email(_field("email")), _field("time_zone").strip()
            values.update(name=name, email=email, time_zone=zone)
            for key, message in (("name", name_problem(name)), ("email", email_problem(email)), ("time_zone", zone_problem(zone))):
                if message:
                    errors[key] = message
            if "email" not in errors and email != learner.email:
                other = store.by_email(session, email)
                if other is not None and other.id != learner.id:
                    errors["email"] = "Another account already uses this email."
                elif not check_password_hash(learner.password_hash or _DUMMY_HASH, _field("current_password")[:MAX_PASSWORD]):
                    errors["current_password"] = (
                        "Enter your current password to change your email."
                        if not _field("current_password")
                        else "That is not your current password."
                    )
        if errors:
            session.rollback()
            return _page(session, learner, values, errors, 422)
        assert goal is not None  # no goal comes with a problem, and a problem returned above
        learner.daily_goal = goal
        if not learner.guest:
            learner.name, learner.email, learner.time_zone = values["name"], values["email"], values["time_zone"]
        session.add(learner)
        try:
            session.commit()
        except IntegrityError:
            session.rollback()
            learner = learners.current_learner(session)
            return _page(session, learner, values, {"email": "Another account already uses this email."}, 422)
    flash("Your details are saved.", "success")
    return redirect(url_for("accounts.account"), 303)


# -- own data ---------------------------------------------------------------------------


def _download(body: str, mimetype: str, stem: str, extension: str) -> Response:
    return download(body, mimetype, f"mahjong-coach-{stem}-{clock.now().date().isoformat()}.{extension}")


@bp.get("/account/export.csv")
def export_csv():
    with database.reading() as session:
        learner = learners.current_learner(session)
        if learner is None or learner.id is None:
            body = store.export_csv(session, -1)  # the header alone: nothing is kept
        else:
            body = store.export_csv(session, learner.id)
    return _download(body, "text/csv", "attempts", "csv")


@bp.get("/account/export.json")
def export_json():
    with database.reading() as session:
        learner = learners.current_learner(session)
        if learner is None:
            data: dict[str, Any] = {
                "exported_at": store.iso_utc(clock.now()),
                "learner": None,
                "attempts": [],
                "skills": [],
            }
        else:
            data = store.export_data(session, learner, clock.now())
    return _download(json.dumps(data, indent=2, ensure_ascii=False) + "\n", "application/json", "data", "json")


@bp.route("/account/delete", methods=["GET", "POST"])
def delete():
    with database.reading() as session:
        learner = learners.current_learner(session)
        answers = store.attempt_count(session, learner.id) if learner is not None and learner.id is not None else 0
        if request.method == "GET":
            return render_template("account/delete.html", learner=learner, answers=answers, errors={})
        if _field("confirm").strip().lower() != CONFIRM_WORD:
            errors = {"confirm": f"Type the word \u201c{CONFIRM_WORD}\u201d to confirm, or go back to your account."}
            return render_template("account/delete.html", learner=learner, answers=answers, errors=errors), 422
        if learner is not None and learner.id is not None:
            store.delete_learner(session, learner.id)
    learners.sign_out()
    return redirect(url_for("accounts.deleted"), 303)


@bp.get("/account/deleted")
def deleted():
    return render_template("account/deleted.html")
