"""The account, password-reset and API routes as a table, tried by the wrong people.

Like the teach and classes tables (tests/web/test_teach.py,
tests/web/test_classes.py), the table is compared with the app's url_map:
a new route of these blueprints without a row fails here. Each route that
acts for an account is tried by a visitor with no cookie and by a guest:
neither changes anything stored, and neither is shown an account's data.
"""

from __future__ import annotations

from sqlmodel import select

from coach.store.models import Attempt, Learner, LoginSession
from tests.support.accounts import PASSWORD, answer, db, post, sign_up

# endpoint -> (rule, methods)
ROUTES = {
    "accounts.account": ("/account", {"GET"}),
    "accounts.save": ("/account", {"POST"}),
    "accounts.change_password": ("/account/password", {"POST"}),
    "accounts.signout_everywhere": ("/account/signout-everywhere", {"POST"}),
    "accounts.delete": ("/account/delete", {"GET", "POST"}),
    "accounts.deleted": ("/account/deleted", {"GET"}),
    "accounts.export_csv": ("/account/export.csv", {"GET"}),
    "accounts.export_json": ("/account/export.json", {"GET"}),
    "accounts.signin": ("/signin", {"GET", "POST"}),
    "accounts.signout": ("/signout", {"POST"}),
    "accounts.signup": ("/signup", {"GET", "POST"}),
    "password_reset.forgot": ("/signin/forgot", {"GET", "POST"}),
    "password_reset.reset": ("/signin/reset/<token>", {"GET", "POST"}),
    "api.answer": ("/api/drills/<name>/answers", {"POST"}),
    "api.list_drills": ("/api/drills", {"GET"}),
    "api.new_question": ("/api/drills/<name>/questions", {"POST"}),
    "api.openapi_description": ("/api/openapi.json", {"GET"}),
    "api.progress": ("/api/progress", {"GET"}),
}

# The posts that act for the signed-in account, with a body that would change it.
ACCOUNT_POSTS = {
    "/account/password": {"current_password": PASSWORD, "new_password": "another long sentence"},
    "/account/signout-everywhere": {},
    "/account": {"name": "Mallory", "email": "mallory@example.org", "time_zone": "Asia/Tokyo", "daily_goal": "20"},
    "/account/delete": {"confirm": "delete"},
}


def snapshot(app) -> dict[str, list]:
    """Everything these routes could change: learners, their sessions and answers."""
    with db(app) as session:
        return {
            "learners": sorted(
                (r.id, r.guest, r.email, r.name, r.password_hash, r.time_zone, r.daily_goal, r.role) for r in session.exec(select(Learner)).all()
            ),
            "sessions": sorted((r.id, r.learner_id, r.ended_at) for r in session.exec(select(LoginSession)).all()),
            "answers": sorted((r.id, r.learner_id) for r in session.exec(select(Attempt)).all()),
        }


def test_the_table_covers_every_account_reset_and_api_route(app):
    found = {
        rule.endpoint: (rule.rule, set(rule.methods or ()) - {"HEAD", "OPTIONS"})
        for rule in app.url_map.iter_rules()
        if rule.endpoint.split(".")[0] in ("accounts", "password_reset", "api")
    }
    assert found == ROUTES


def test_a_visitor_changes_nothing_and_sees_no_account(app):
    owner = app.test_client()
    assert sign_up(owner).status_code == 303
    answer(owner, 3)
    before = snapshot(app)
    visitor = app.test_client()
    for url, data in ACCOUNT_POSTS.items():
        response = post(visitor, url, data, page="/rules")
        assert response.status_code in (303, 400, 422), (url, response.status_code)
        assert "ann@example.org" not in response.get_data(as_text=True)
    for url in ("/account", "/account/export.csv", "/account/export.json", "/api/progress"):
        response = visitor.get(url)
        assert response.status_code == 200, url
        assert "ann@example.org" not in response.get_data(as_text=True), url
    assert snapshot(app) == before  # and no guest was made by any of these visits


def test_a_guest_cannot_act_as_an_account(app):
    owner = app.test_client()
    assert sign_up(owner).status_code == 303
    guest = app.test_client()
    answer(guest, 5)
    before = snapshot(app)
    for url in ("/account/password", "/account/signout-everywhere"):
        response = post(guest, url, ACCOUNT_POSTS[url], page="/account")
        assert response.status_code in (303, 403, 422), (url, response.status_code)
    assert snapshot(app) == before
    assert guest.get("/api/progress").get_json()["attempts"] == 1
