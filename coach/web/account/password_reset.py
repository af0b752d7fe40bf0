"""Password reset: a signed link that works for an hour, and once.

    GET/POST /signin/forgot          ask for a link (mailed when mail is set up)
    GET/POST /signin/reset/<token>   choose a new password; every session of the account ends

The link carries an itsdangerous token (salt "password-reset") holding the
learner's id and a fingerprint of their current password hash: setting a
new password changes the hash, so a link is used once (and an older link
dies with it). Mail goes out when the settings `SMTP_URL`
(smtp://user:pass@host:port, or smtps:// for TLS from the start) and
`BASE_URL` (the site's address, so a link never takes its host from a
request's Host header) are both set (coach.common.settings). Without them,
whoever runs the server prints a link with `python -m coach reset-link EMAIL`.

Neither the page nor its timing says whether an email has an account: the
same page answers, and the mail is sent by a background thread.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import logging
import queue
import smtplib
import threading
import time
from dataclasses import dataclass
from email.message import EmailMessage
from typing import TextIO
from urllib.parse import unquote, urlsplit

from flask import Blueprint, Flask, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user
from itsdangerous import BadSignature, TimestampSigner, URLSafeTimedSerializer
from sqlmodel import Session

from coach.common.settings import BASE_URL, MAIL_FROM, SMTP_URL
from coach.store import accounts as store
from coach.store import login_sessions
from coach.store.models import Learner
from coach.web.account import sign_in as accounts_web
from coach.web.account.sign_in import _field, email_problem, normal_email, password_problem
from coach.web.infra import database, limits
from coach.web.infra.hashing import generate_password_hash  # werkzeug's, under a bound
from coach.web.shared import learners

bp = Blueprint("password_reset", __name__)
log = logging.getLogger(__name__)

SALT = "password-reset"
MAX_AGE = 60 * 60  # seconds: an hour
RESET_PATH = "/signin/reset/"
MAX_TOKEN = 300  # a real token is about 100 characters
OUTBOX_SIZE = 50  # mails waiting to be sent; more are dropped (and logged), never queued without end
SMTP_TIMEOUT = 20  # seconds


def clock() -> float:
    """Now, in seconds; tests move it on to expire a link."""
    return time.time()


class _Signer(TimestampSigner):
    def get_timestamp(self) -> int:
        return int(clock())


def _serializer(secret_key: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret_key, salt=SALT, signer=_Signer)


def fingerprint(password_hash: str) -> str:
    """Changes whenever the password does; says nothing useful about it."""
    return hashlib.sha256(password_hash.encode("utf-8")).hexdigest()[:16]


def make_token(secret_key: str, learner: Learner) -> str:
    assert learner.id is not None and learner.password_hash
    return _serializer(secret_key).dumps({"id": learner.id, "fp": fingerprint(learner.password_hash)})


def reset_url(base_url: str, token: str) -> str:
    return base_url.rstrip("/") + RESET_PATH + token


def learner_of(session: Session, secret_key: str, token: str) -> Learner | None:
    """The account a link opens, or None when it is forged, older than an hour, or used."""
    if not token or len(token) > MAX_TOKEN:
        return None
    try:
        data = _serializer(secret_key).loads(token, max_age=MAX_AGE)
    except BadSignature:  # SignatureExpired too
        return None
    if not isinstance(data, dict) or not isinstance(data.get("id"), int) or not isinstance(data.get("fp"), str):
        return None
    if not 0 < data["id"] < 2**63:
        return None
    learner = session.get(Learner, data["id"])
    if learner is None or learner.guest or not learner.password_hash:
        return None
    return learner if hmac.compare_digest(data["fp"], fingerprint(learner.password_hash)) else None


# -- mail -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int
    username: str | None
    password: str | None
    tls: bool  # smtps: TLS from the first byte; smtp: STARTTLS when the server offers it


def smtp_settings(url: str) -> SmtpSettings:
    """The mail server setting read, or ValueError naming what is wrong (never the password)."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ValueError(f"{SMTP_URL.name} must look like smtp://user:password@host:port (or smtps://...)")
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"{SMTP_URL.name} has a port that is not a number from 1 to 65535") from None
    tls = parts.scheme == "smtps"
    return SmtpSettings(
        host=parts.hostname,
        port=port or (465 if tls else 25),
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
        tls=tls,
    )


def send_mail(settings: SmtpSettings, message: EmailMessage) -> None:
    smtp_class = smtplib.SMTP_SSL if settings.tls else smtplib.SMTP
    with smtp_class(settings.host, settings.port, timeout=SMTP_TIMEOUT) as smtp:
        if not settings.tls:
            smtp.ehlo()
            if smtp.has_extn("starttls"):
                smtp.starttls()
                smtp.ehlo()
        if settings.username:
            smtp.login(settings.username, settings.password or "")
        smtp.send_message(message)


class Outbox:
    """Mails sent one at a time by one background thread, so a request never
    waits on (nor times) the mail server, and a flood of requests queues at
    most OUTBOX_SIZE mails. The request only queues (sender, to, link): the
    mail is written and sent later, after a pause that lets the request's
    answer go out first, so an answer for an account takes no longer than
    one for an unknown email."""

    PAUSE = 0.2  # seconds before each mail

    def __init__(self, settings: SmtpSettings):
        self.settings = settings
        self.queue: queue.Queue[tuple[str, str, str]] = queue.Queue(maxsize=OUTBOX_SIZE)
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def put(self, sender: str, to: str, link: str) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="coach-mail", daemon=True)
                self._thread.start()
        try:
            self.queue.put_nowait((sender, to, link))
        except queue.Full:
            log.warning("mail outbox full: a password reset mail was dropped")

    def join(self) -> None:
        """Wait until every queued mail is sent or has failed (for tests)."""
        self.queue.join()

    def _run(self) -> None:
        while True:
            sender, to, link = self.queue.get()
            try:
                time.sleep(self.PAUSE)
                send_mail(self.settings, reset_mail(sender, to, link))
            except Exception:  # the mail server's trouble must never stop the next mail
                log.exception("could not send a password reset mail")
            finally:
                self.queue.task_done()


def _outbox() -> Outbox | None:
    return current_app.extensions.get("mail_outbox")


def reset_mail(sender: str, to: str, link: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = "Set a new password for Mahjong Coach"
    message.set_content(
        "Someone, we hope you, asked to set a new password for your Mahjong Coach account.\n\n"
        f"Open this link within an hour to choose a new one (it works once):\n{link}\n\n"
        "If it was not you, ignore this mail: your password stays as it is.\n"
    )
    return message


# -- the pages --------------------------------------------------------------------------


def install(app: Flask) -> None:
    resolved = app.extensions["settings"]
    if resolved[SMTP_URL]:
        if not resolved[BASE_URL]:
            log.warning("%s is set but %s is not: password reset links are not mailed", SMTP_URL.name, BASE_URL.name)
        else:
            app.extensions["mail_outbox"] = Outbox(smtp_settings(resolved[SMTP_URL]))
    app.register_blueprint(bp)


bp.after_request(accounts_web._private)  # a reset page holds its token: kept out of caches, as account pages are


def _sender() -> str:
    resolved = current_app.extensions["settings"]
    host = urlsplit(resolved[BASE_URL]).hostname or "localhost"
    return resolved[MAIL_FROM] or f"Mahjong Coach <no-reply@{host}>"


@bp.route("/signin/forgot", methods=["GET", "POST"])
@limits.forgot
def forgot():
    mail = _outbox() is not None
    if request.method == "GET" or not mail:
        return render_template("account/forgot.html", mail=mail, values={}, errors={}, sent=False)
    email = normal_email(_field("email"))
    problem = email_problem(email)
    if problem:
        return render_template("account/forgot.html", mail=mail, values={"email": email}, errors={"email": problem}, sent=False), 422
    with database.reading() as session:
        learner = store.by_email(session, email)
        if learner is not None and not learner.guest and learner.password_hash:
            base_url = current_app.extensions["settings"][BASE_URL]
            link = reset_url(base_url, make_token(current_app.config["SECRET_KEY"], learner))
            outbox = _outbox()
            assert outbox is not None
            outbox.put(_sender(), email, link)
    return render_template("account/forgot.html", mail=mail, values={"email": email}, errors={}, sent=True)


@bp.route(RESET_PATH + "<token>", methods=["GET", "POST"])
@limits.password
def reset(token: str):
    with database.reading() as session:
        learner = learner_of(session, current_app.config["SECRET_KEY"], token)
        if learner is None:
            return render_template("account/reset.html", usable=False, errors={}), 400
        if request.method == "GET":
            return render_template("account/reset.html", usable=True, errors={}, email=learner.email)
        new = _field("new_password")
        problem = "Choose a new password." if not new else password_problem(new)
        if problem:
            return render_template("account/reset.html", usable=True, errors={"new_password": problem}, email=learner.email), 422
        assert learner.id is not None
        learner.password_hash = generate_password_hash(new)
        session.add(learner)
        login_sessions.end_all(session, learner.id)  # this browser's too: it signs in with the new password
        session.commit()
        if current_user.is_authenticated and current_user.id == learner.id:
            learners.sign_out()
    flash("Your password is changed, and every browser signed in to your account is signed out. Sign in with your new password.", "success")
    return redirect(url_for("accounts.signin"), 303)


# -- the command line: python -m coach reset-link EMAIL ----------------------------------


def print_link(app: Flask, args: argparse.Namespace, stdout: TextIO) -> int:
    """For whoever runs the server (and so can read its database and key):
    a link for the account of this email, or ValueError when there is none.
    `app` is the server's app as the command line makes it (its key, its database)."""
    base = args.base_url or app.extensions["settings"][BASE_URL] or "http://127.0.0.1:5000"
    if urlsplit(base).scheme not in ("http", "https") or not urlsplit(base).hostname:
        raise ValueError(f"--base-url must be the site's address, such as https://coach.example.org (got {base[:60]!r})")
    email = normal_email(args.email)
    with Session(app.extensions["store"]) as session:
        learner = store.by_email(session, email)
        if learner is None or learner.guest or not learner.password_hash:
            raise ValueError(f"no account uses the email {email[:254]!r}")
        stdout.write(reset_url(base, make_token(app.config["SECRET_KEY"], learner)) + "\n")
    stdout.write("It works for one hour, once. Send it to the account's owner only.\n")
    return 0

