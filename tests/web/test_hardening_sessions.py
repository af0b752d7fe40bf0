"""Sessions that end, and password reset (issue 11, point 3), replayed as an attacker would.

A cookie copied from a browser is tried again after the browser signs up,
signs in, signs out, signs out everywhere, or changes its password: it
opens nothing. The remember cookie lasts 30 days at most, the CSRF secret
is new after sign-in, COACH_HTTPS=1 makes cookies Secure and sends HSTS.
A reset link works once and for an hour, from a mail (a fake SMTP server
on loopback) or from `python -m coach reset-link`, and neither the page
nor the mail says whether an email has an account.
"""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

import pytest
from alembic import command
from sqlalchemy import func
from sqlmodel import Session, select, update

from coach import cli
from coach.notation.card import house_card
from coach.store import login_sessions
from coach.store.db import alembic_config, make_engine, migrate
from coach.store.models import Attempt, Learner, LoginSession
from coach.store.progress import record_answer
from coach.web import create_app
from coach.web.account import password_reset
from coach.web.shared import learners
from drills import name_the_tile
from tests.support.accounts import (
    PASSWORD,
    answer,
    csrf,
    db,
    learner_by_email,
    nav_link,
    post,
    problems,
    sign_in,
    sign_out,
    sign_up,
)
from tests.support.app import TEST_SECRET
from tests.support.fake_smtp import smtp_server
from tests.support.pages import csrf_of

NEW_PASSWORD = "a brand new sentence"
COOKIES = ("session", "remember_token")


# -- helpers ------------------------------------------------------------------------------


def copy_of(app, browser, only: tuple[str, ...] = COOKIES):
    """Another browser holding a copy of this browser's cookies, as a thief would."""
    thief = app.test_client()
    for name in only:
        cookie = browser.get_cookie(name)
        if cookie is not None:
            thief.set_cookie(name, cookie.value)
    return thief


def signed_in_as(browser) -> str | None:
    """The email the browser's account page shows, "guest" for a guest, None when nobody is signed in."""
    html = browser.get("/account").get_data(as_text=True)
    found = re.search(r"Signed in as <strong>([^<]+)</strong>", html)
    if found:
        return found.group(1)
    return "guest" if "You are drilling as a guest" in html else None


def set_cookie_header(response, name: str) -> str:
    headers = [h for h in response.headers.getlist("Set-Cookie") if h.startswith(name + "=")]
    assert headers, f"no {name} cookie set"
    return headers[-1]


def live_sessions(app, learner_id: int) -> int:
    with db(app) as session:
        rows = session.exec(select(LoginSession).where(LoginSession.learner_id == learner_id)).all()
        return sum(1 for row in rows if row.ended_at is None)


def reset_link(app, email: str) -> str:
    """The path of a reset link for the account, made as the CLI and the mail make it."""
    with db(app):
        learner = learner_by_email(app, email)
        assert learner is not None
        token = password_reset.make_token(app.config["SECRET_KEY"], learner)
    return password_reset.RESET_PATH + token


# -- a new session on sign-up and sign-in ---------------------------------------------------


def test_a_guest_cookie_copied_before_sign_up_does_not_open_the_account(app, client):
    answer(client, 1)
    thief = copy_of(app, client)
    assert signed_in_as(thief) == "guest"  # the copy works while it is only a guest
    assert sign_up(client).status_code == 303
    assert signed_in_as(client) == "ann@example.org"
    assert signed_in_as(thief) is None
    assert thief.get("/api/progress").get_json()["attempts"] == 0
    assert signed_in_as(copy_of(app, client)) == "ann@example.org"  # the account's own new cookie does


def test_a_guest_cookie_copied_before_sign_in_does_not_open_the_account(app, client):
    sign_up(app.test_client())
    answer(client, 1)
    thief = copy_of(app, client)
    assert sign_in(client).status_code == 303
    assert signed_in_as(client) == "ann@example.org"
    assert signed_in_as(thief) is None
    assert signed_in_as(copy_of(app, thief, only=("remember_token",))) is None


def test_signing_in_again_makes_a_new_session_and_keeps_the_other_devices(app, client):
    sign_up(client)
    phone = app.test_client()
    sign_in(phone)
    ann = learner_by_email(app, "ann@example.org")
    assert client.get_cookie("session").value != phone.get_cookie("session").value
    assert live_sessions(app, ann.id) == 2
    assert signed_in_as(client) == signed_in_as(phone) == "ann@example.org"


# -- sign-out ends the session on the server ------------------------------------------------


def test_a_cookie_copied_before_sign_out_stops_working(app, client):
    sign_up(client)
    thief = copy_of(app, client)
    remembered = copy_of(app, client, only=("remember_token",))  # the browser restarted: the remember cookie alone
    assert signed_in_as(thief) == signed_in_as(remembered) == "ann@example.org"
    assert sign_out(client).status_code == 303
    assert signed_in_as(client) is None
    assert signed_in_as(thief) is None and signed_in_as(remembered) is None
    assert nav_link(thief) == "Sign in"
    assert live_sessions(app, learner_by_email(app, "ann@example.org").id) == 0


def test_sign_out_everywhere_ends_every_session_of_the_account(app, client):
    sign_up(client)
    phone, tablet, bob = app.test_client(), app.test_client(), app.test_client()
    sign_in(phone), sign_in(tablet)
    sign_up(bob, email="bob@example.org")
    thief = copy_of(app, phone)
    page = client.get("/account").get_data(as_text=True)
    assert 'action="/account/signout-everywhere"' in page and "Sign out everywhere" in page

    response = post(client, "/account/signout-everywhere", {}, page="/account")
    assert response.status_code == 303 and response.headers["Location"] == "/signin"
    assert "You are signed out on every browser and device." in client.get("/signin").get_data(as_text=True)
    assert [signed_in_as(b) for b in (client, phone, tablet, thief)] == [None] * 4
    assert signed_in_as(bob) == "bob@example.org"  # nobody else's sessions
    assert sign_in(phone).status_code == 303 and signed_in_as(phone) == "ann@example.org"


def test_a_guest_cannot_sign_out_everywhere_and_loses_nothing(app, client):
    answer(client, 1)
    response = post(client, "/account/signout-everywhere", {}, page="/account")
    assert response.status_code == 303 and response.headers["Location"] == "/account"
    assert signed_in_as(client) == "guest" and client.get("/api/progress").get_json()["attempts"] == 1


# -- change password -------------------------------------------------------------------------


def test_changing_the_password_needs_the_current_one_and_ends_every_other_session(app, client):
    sign_up(client)
    phone = app.test_client()
    sign_in(phone)
    thief = copy_of(app, client)

    for given, new, message in (
        ("", NEW_PASSWORD, "Enter your current password."),
        ("not my password", NEW_PASSWORD, "That is not your current password."),
        (PASSWORD, "", "Choose a new password."),
        (PASSWORD, "short", "Your password needs at least 8 characters; this one has 5."),
    ):
        refused = post(client, "/account/password", {"old_password": given, "new_password": new}, page="/account")
        assert refused.status_code == 422 and message in problems(refused), (given, new)
    assert signed_in_as(phone) == "ann@example.org"  # a refused change ends nothing

    response = post(client, "/account/password", {"old_password": PASSWORD, "new_password": NEW_PASSWORD}, page="/account")
    assert response.status_code == 303 and response.headers["Location"] == "/account"
    assert "Your password is changed." in client.get("/account").get_data(as_text=True)
    assert signed_in_as(client) == "ann@example.org"  # this browser goes on, with a new session
    assert signed_in_as(phone) is None and signed_in_as(thief) is None
    assert sign_in(app.test_client()).status_code == 422  # the old password opens nothing
    assert sign_in(app.test_client(), password=NEW_PASSWORD).status_code == 303


# -- cookie lifetime, CSRF, HTTPS ------------------------------------------------------------


def test_the_remember_cookie_and_the_session_last_thirty_days_at_most(app, client):
    response = sign_up(client)
    expires = re.search(r"Expires=([^;]+)", set_cookie_header(response, "remember_token")).group(1)
    lasts = parsedate_to_datetime(expires) - datetime.now(UTC)
    assert timedelta(days=29) < lasts <= timedelta(days=30)
    assert app.config["PERMANENT_SESSION_LIFETIME"] <= timedelta(days=30)

    # The server holds the line too: a session row older than 30 days opens nothing.
    ann = learner_by_email(app, "ann@example.org")
    with db(app) as session:
        session.exec(
            update(LoginSession)
            .where(LoginSession.learner_id == ann.id)
            .values(created_at=datetime.now(UTC) - timedelta(days=30, minutes=1))
        )
        session.commit()
    assert signed_in_as(client) is None


def _age_sessions(app, learner_id: int, days: int) -> None:
    with db(app) as session:
        session.exec(
            update(LoginSession)
            .where(LoginSession.learner_id == learner_id)
            .values(created_at=datetime.now(UTC) - timedelta(days=days))
        )
        session.commit()


def test_a_guest_who_keeps_drilling_gets_a_new_session_each_week_an_account_signs_in_after_thirty_days(app, client):
    answer(client, 1)
    with db(app) as session:
        guest_id = session.exec(select(Learner.id)).one()
    before = client.get_cookie("remember_token").value
    earlier = copy_of(app, client)
    _age_sessions(app, guest_id, days=8)
    answer(client, 2)
    assert client.get_cookie("remember_token").value != before  # a new 30-day cookie
    assert live_sessions(app, guest_id) == 2
    assert earlier.get("/api/progress").get_json()["attempts"] == 2  # a request on its way with the old one still counts
    _age_sessions(app, guest_id, days=29)
    answer(client, 3)
    assert client.get("/api/progress").get_json()["attempts"] == 3

    bob = app.test_client()
    sign_up(bob, email="bob@example.org")
    cookie = bob.get_cookie("remember_token").value
    _age_sessions(app, learner_by_email(app, "bob@example.org").id, days=8)
    assert signed_in_as(bob) == "bob@example.org" and bob.get_cookie("remember_token").value == cookie
    _age_sessions(app, learner_by_email(app, "bob@example.org").id, days=31)
    assert signed_in_as(bob) is None


def test_a_csrf_token_from_before_sign_in_is_refused_after(app, client):
    before = csrf(client, "/signin")
    response = client.post("/signin", data={"csrf_token": before, "email": "ann@example.org", "password": PASSWORD})
    assert response.status_code == 422  # no account yet: the token itself was fine
    sign_up(app.test_client())
    before = csrf(client, "/signin")
    response = client.post("/signin", data={"csrf_token": before, "email": "ann@example.org", "password": PASSWORD})
    assert response.status_code == 303
    stale = client.post("/account", data={"csrf_token": before, "daily_goal": "12"})
    assert stale.status_code == 400 and "This page has expired" in stale.get_data(as_text=True)
    fresh = post(client, "/account", {"daily_goal": "12", "name": "", "email": "ann@example.org", "time_zone": "UTC"})
    assert fresh.status_code == 303
    assert learner_by_email(app, "ann@example.org").daily_goal == 12


def test_a_guest_keeps_answering_from_the_same_page_after_the_first_answer(app, client):
    """The first answer makes the guest's session but keeps the CSRF secret: the page's token still works."""
    token = csrf(client, "/rules")
    answer(client, 1)
    response = client.post("/account", data={"csrf_token": token, "daily_goal": "7"})
    assert response.status_code == 303


def test_https_makes_the_cookies_secure_and_sends_hsts(app, client, monkeypatch):
    plain = sign_up(client)
    assert "Secure" not in set_cookie_header(plain, "session") and "Strict-Transport-Security" not in plain.headers
    monkeypatch.setenv("COACH_HTTPS", "1")
    secure_app = create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET})
    browser = secure_app.test_client()
    response = sign_up(browser, email="bob@example.org")
    assert response.status_code == 303
    for name in COOKIES:
        assert "; Secure" in set_cookie_header(response, name), name
    assert response.headers["Strict-Transport-Security"].startswith("max-age=31536000")
    assert secure_app.test_client().get("/healthz").headers["Strict-Transport-Security"].startswith("max-age=")


# -- cookies from before server-side sessions ------------------------------------------------


def _old_cookie(app, browser, learner: Learner) -> None:
    with browser.session_transaction() as cookie:
        cookie["_user_id"] = f"{learner.id}:{learners.stamp(learner)}"
        cookie["_fresh"] = False


def test_a_guest_signed_in_before_the_upgrade_keeps_their_answers_an_account_signs_in_again(app, client):
    answer(client, 1)
    with db(app) as session:
        session.exec(update(LoginSession).values(ended_at=datetime.now(UTC)))  # as if no row were made
        session.commit()
        guest = session.exec(select(Learner)).one()
    old = app.test_client()
    _old_cookie(app, old, guest)
    assert old.get("/api/progress").get_json()["attempts"] == 1  # traded for a session on this request
    assert live_sessions(app, guest.id) == 1
    with old.session_transaction() as cookie:
        assert cookie["_user_id"] != f"{guest.id}:{learners.stamp(guest)}"
    assert old.get("/api/progress").get_json()["attempts"] == 1

    sign_up(client)
    ann = learner_by_email(app, "ann@example.org")
    stale = app.test_client()
    _old_cookie(app, stale, ann)
    assert signed_in_as(stale) is None
    assert signed_in_as(copy_of(app, stale)) is None


@pytest.mark.parametrize("user_id", ["", "x", "1", "1:", "-1:abc", "99999999999999999999999:abc", "1:" + "a" * 500])
def test_a_made_up_session_id_opens_nothing(app, client, user_id):
    sign_up(app.test_client())
    with client.session_transaction() as cookie:
        cookie["_user_id"] = user_id
    assert client.get("/account").status_code == 200 and signed_in_as(client) is None


# -- password reset ---------------------------------------------------------------------------


def test_a_reset_link_works_once_and_ends_every_session(app, client):
    sign_up(client)
    phone = copy_of(app, client)
    link = reset_link(app, "ann@example.org")
    stranger = app.test_client()
    page = stranger.get(link)
    assert page.status_code == 200 and "Set a new password" in page.get_data(as_text=True)
    assert page.headers["Cache-Control"] == "no-store"

    short = post(stranger, link, {"new_password": "short"})
    assert short.status_code == 422 and "Your password needs at least 8 characters; this one has 5." in problems(short)

    response = post(stranger, link, {"new_password": NEW_PASSWORD})
    assert response.status_code == 303 and response.headers["Location"] == "/signin"
    assert "Sign in with your new password." in stranger.get("/signin").get_data(as_text=True)
    assert signed_in_as(client) is None and signed_in_as(phone) is None
    assert sign_in(app.test_client()).status_code == 422
    assert sign_in(app.test_client(), password=NEW_PASSWORD).status_code == 303

    again = stranger.get(link)
    assert again.status_code == 400 and "This link does not work any more" in again.get_data(as_text=True)
    assert post(stranger, link, {"new_password": "yet another password"}).status_code == 400
    assert sign_in(app.test_client(), password=NEW_PASSWORD).status_code == 303


def test_a_reset_link_expires_after_an_hour(app, client, monkeypatch):
    sign_up(client)
    start = time.time()
    monkeypatch.setattr(password_reset, "clock", lambda: start)
    link = reset_link(app, "ann@example.org")
    monkeypatch.setattr(password_reset, "clock", lambda: start + 59 * 60)
    assert client.get(link).status_code == 200
    monkeypatch.setattr(password_reset, "clock", lambda: start + 60 * 60 + 1)
    expired = post(client, link, {"new_password": NEW_PASSWORD})
    assert expired.status_code == 400 and "works for one hour" in expired.get_data(as_text=True)
    assert sign_in(app.test_client()).status_code == 303  # the password stayed


@pytest.mark.parametrize("mangle", [
    lambda t: t[:-2] + ("AA" if not t.endswith("AA") else "BB"),  # the signature
    lambda t: "x" + t,
    lambda t: "not-a-token",
    lambda t: t * 4,
])
def test_a_forged_reset_link_is_refused(app, client, mangle):
    sign_up(client)
    token = reset_link(app, "ann@example.org").removeprefix(password_reset.RESET_PATH)
    assert client.get(password_reset.RESET_PATH + mangle(token)).status_code == 400


def test_a_link_signed_with_another_key_or_for_a_guest_is_refused(app, client):
    sign_up(client)
    ann = learner_by_email(app, "ann@example.org")
    forged = password_reset.make_token("another key", ann)
    assert client.get(password_reset.RESET_PATH + forged).status_code == 400
    with db(app) as session:
        guest = Learner(guest=True, password_hash="x")
        session.add(guest)
        session.commit()
        session.refresh(guest)
        for_guest = password_reset.make_token(TEST_SECRET, guest)
    assert client.get(password_reset.RESET_PATH + for_guest).status_code == 400


def _without_email(html: str, email: str) -> str:
    """The page with the email typed and the page's own CSRF token taken out: what is left must not differ."""
    return html.replace(email, "EMAIL").replace(csrf_of(html), "CSRF")


def test_without_mail_the_forgot_page_says_to_ask_the_server_and_reveals_nothing(app, client):
    sign_up(app.test_client())
    signin = client.get("/signin").get_data(as_text=True)
    assert 'href="/signin/forgot"' in signin and "Forgot password?" in signin
    pages = []
    for email in ("ann@example.org", "nobody@example.org"):
        response = post(client, "/signin/forgot", {"email": email})
        assert response.status_code == 200
        pages.append(_without_email(response.get_data(as_text=True), email))
    assert pages[0] == pages[1]
    assert "This coach cannot send email" in pages[0] and "Ask the person who runs this site" in pages[0]
    # The operator's command is in docs/deployment.md; a learner is never shown a shell command.
    assert "reset-link" not in pages[0] and "python -m" not in pages[0] and "<code>" not in pages[0]


# -- mail, through a fake SMTP server -----------------------------------------------------------


@pytest.fixture
def mailbox():
    with smtp_server() as box:
        yield box


@pytest.fixture
def mail_app(app, mailbox, monkeypatch):
    monkeypatch.setenv("COACH_SMTP_URL", f"smtp://coach%40example.org:s3cret@127.0.0.1:{mailbox.port}")
    monkeypatch.setenv("COACH_BASE_URL", "https://coach.example.org/")
    return create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET})


def _median_ms(app, emails: tuple[str, ...], rounds: int = 15) -> list[float]:
    """How long the forgot page takes to answer for each email, asked in turn
    (printed, never asserted: timing is measured, not tested)."""
    browser = app.test_client()
    token = csrf(browser, "/signin/forgot")
    times: list[list[float]] = [[] for _ in emails]
    for _ in range(rounds):
        for email, taken in zip(emails, times):
            began = time.perf_counter()
            browser.post("/signin/forgot", data={"csrf_token": token, "email": email})
            taken.append((time.perf_counter() - began) * 1000)
    app.extensions["mail_outbox"].join()
    return [sorted(taken)[rounds // 2] for taken in times]


def test_forgot_password_mails_a_link_that_works_and_never_says_whether_the_email_has_an_account(mail_app, mailbox):
    sign_up(mail_app.test_client())
    outbox = mail_app.extensions["mail_outbox"]
    pages = []
    for email in ("ann@example.org", "nobody@example.org", "ANN@example.org "):
        response = post(mail_app.test_client(), "/signin/forgot", {"email": email})
        assert response.status_code == 200
        pages.append(_without_email(response.get_data(as_text=True), email.strip().lower()))
    outbox.join()
    assert pages[0] == pages[1] == pages[2]
    assert "If an account uses <strong>EMAIL</strong>, a link to set a new password is on its way" in pages[0]

    assert len(mailbox.messages) == 2  # the two asks for ann's account; none for nobody@
    assert mailbox.logins == [("coach@example.org", "s3cret")] * 2
    mail = mailbox.messages[0]
    assert mail["To"] == "ann@example.org" and mail["From"] == "Mahjong Coach <no-reply@coach.example.org>"
    body = mail.get_payload(decode=True).decode("utf-8")
    link = re.search(r"https://coach\.example\.org/signin/reset/\S+", body).group(0)
    assert "within an hour" in body

    browser = mail_app.test_client()
    path = urlsplit(link).path
    assert post(browser, path, {"new_password": NEW_PASSWORD}).status_code == 303
    assert browser.get(path).status_code == 400  # used once
    second = re.search(r"https://coach\.example\.org/signin/reset/\S+", mailbox.messages[1].get_payload(decode=True).decode()).group(0)
    assert browser.get(urlsplit(second).path).status_code == 400  # the older link died with the old password
    assert sign_in(mail_app.test_client(), password=NEW_PASSWORD).status_code == 303
    account, nobody = _median_ms(mail_app, ("ann@example.org", "nobody@example.org"))
    print(f"forgot-password answer, median of 15: account {account:.1f} ms, no account {nobody:.1f} ms")


def test_forgot_password_refuses_a_malformed_email_with_a_clear_message(mail_app, mailbox):
    response = post(mail_app.test_client(), "/signin/forgot", {"email": "ann@"})
    assert response.status_code == 422 and "Enter an email address like name@example.com." in problems(response)
    mail_app.extensions["mail_outbox"].join()
    assert mailbox.messages == []


def test_a_mail_server_that_is_down_costs_the_page_nothing_and_the_next_mail_still_goes(app, mailbox, monkeypatch):
    monkeypatch.setenv("COACH_SMTP_URL", "smtp://127.0.0.1:9")  # the discard port: nothing listens
    monkeypatch.setenv("COACH_BASE_URL", "https://coach.example.org")
    down = create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET})
    sign_up(down.test_client())
    response = post(down.test_client(), "/signin/forgot", {"email": "ann@example.org"})
    assert response.status_code == 200 and "is on its way" in response.get_data(as_text=True)
    outbox = down.extensions["mail_outbox"]
    outbox.join()  # the failure is logged by the mail thread
    outbox.settings = password_reset.smtp_settings(f"smtp://127.0.0.1:{mailbox.port}")  # the server is back
    assert post(down.test_client(), "/signin/forgot", {"email": "ann@example.org"}).status_code == 200
    outbox.join()
    assert [m["To"] for m in mailbox.messages] == ["ann@example.org"]


def test_without_a_base_url_no_mail_goes_out(app, mailbox, monkeypatch):
    monkeypatch.setenv("COACH_SMTP_URL", f"smtp://127.0.0.1:{mailbox.port}")
    monkeypatch.delenv("COACH_BASE_URL", raising=False)
    unsure = create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET})
    assert "mail_outbox" not in unsure.extensions
    page = post(unsure.test_client(), "/signin/forgot", {"email": "ann@example.org"}).get_data(as_text=True)
    assert "This coach cannot send email" in page


@pytest.mark.parametrize("url", ["http://host", "smtp://", "smtp://host:notaport", "mailto:me@example.org"])
def test_a_bad_smtp_url_is_named_without_its_password(url):
    with pytest.raises(ValueError, match="COACH_SMTP_URL") as error:
        password_reset.smtp_settings(url)
    assert "s3cret" not in str(error.value)


def test_smtp_settings_read_user_password_host_and_port():
    settings = password_reset.smtp_settings("smtps://me%40example.org:p%3Ass@mail.example.org")
    assert (settings.username, settings.password, settings.host, settings.port, settings.tls) == (
        "me@example.org", "p:ss", "mail.example.org", 465, True)
    assert password_reset.smtp_settings("smtp://mail.example.org:2525").port == 2525


# -- the command line: python -m coach reset-link ----------------------------------------------


def test_the_reset_link_command_prints_a_link_with_the_servers_own_key(app, monkeypatch, capsys):
    # The server and the command both read the key from the instance folder (no COACH_SECRET_KEY).
    server = create_app({"TESTING": True})
    browser = server.test_client()
    sign_up(browser)
    assert cli.main(["reset-link", "Ann@Example.org", "--base-url", "https://coach.example.org"]) == 0
    out = capsys.readouterr().out
    link = out.splitlines()[0]
    assert link.startswith("https://coach.example.org/signin/reset/") and "one hour, once" in out
    assert post(browser, urlsplit(link).path, {"new_password": NEW_PASSWORD}).status_code == 303
    assert signed_in_as(browser) is None  # every session ended, this one too
    assert sign_in(browser, password=NEW_PASSWORD).status_code == 303


def test_the_reset_link_command_says_plainly_when_there_is_no_such_account(app, capsys):
    assert cli.main(["reset-link", "nobody@example.org"]) == 2
    assert "no account uses the email 'nobody@example.org'" in capsys.readouterr().err
    assert cli.main(["reset-link", "nobody@example.org", "--base-url", "coach.example.org"]) == 2
    assert "--base-url must be the site's address" in capsys.readouterr().err


# -- CSRF on the new forms, and an upgrade keeping every row -----------------------------------


@pytest.mark.parametrize(
    ("url", "data"),
    [
        ("/account/signout-everywhere", {}),
        ("/account/password", {"old_password": PASSWORD, "new_password": NEW_PASSWORD}),
        ("/signin/forgot", {"email": "ann@example.org"}),
        ("RESET", {"new_password": NEW_PASSWORD}),
    ],
)
def test_every_new_post_without_a_csrf_token_is_refused(app, client, url, data):
    sign_up(client)
    url = reset_link(app, "ann@example.org") if url == "RESET" else url
    for extra in ({}, {"csrf_token": "forged"}):
        response = client.post(url, data={**data, **extra})
        assert response.status_code == 400 and "This page has expired" in response.get_data(as_text=True)
    assert signed_in_as(client) == "ann@example.org"
    assert sign_in(app.test_client()).status_code == 303  # the password stayed


def test_an_upgrade_from_revision_0003_keeps_every_row_and_adds_sessions_whose_ids_are_never_reused(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    command.upgrade(alembic_config(engine), "0003")
    with Session(engine) as session:
        old = Learner(guest=False, email="old@example.org", password_hash="x")
        session.add(old)
        session.commit()
        question = name_the_tile.generate(5, 1, house_card())
        record_answer(session, old, question, name_the_tile.grade(question, None), None)
    migrate(engine)
    with Session(engine) as session:
        assert session.exec(select(func.count()).select_from(Attempt)).one() == 1
        learner_id = session.exec(select(Learner.id)).one()
        first = login_sessions.start(session, learner_id)
        session.commit()
        row = session.exec(select(LoginSession)).one()
        first_id = row.id
        session.delete(row)
        session.commit()
        login_sessions.start(session, learner_id)
        session.commit()
        assert session.exec(select(LoginSession.id)).one() == first_id + 1  # AUTOINCREMENT: the deleted id stays unused
        assert login_sessions.live(session, learner_id, first) is None
    with engine.connect() as connection:
        sql = connection.exec_driver_sql("SELECT sql FROM sqlite_master WHERE name = 'login_session'").scalar()
        assert "AUTOINCREMENT" in sql
    engine.dispose()
