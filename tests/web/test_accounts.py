"""Learner accounts and own data (issue 5, items 2 and 7).

Sign up, sign in and out with clear messages for every bad input; a
guest's progress moving into the account (the same row on sign-up; a
merge on sign-in where a question counts once); the account page;
export as CSV and JSON matching the stored rows; delete that removes
every row of the learner and signs out; and CSRF on every POST. A short
browser test signs up after a guest drill and finds the progress kept.
"""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import Session, select
from werkzeug.security import check_password_hash

from coach.store import accounts as store
from coach.store.models import Attempt, Learner, SkillState
from coach.store.progress import record_answer
from coach.web.infra.redirects import safe_next
from drills import name_the_tile
from tests.support.accounts import PASSWORD, answer, db, learner_by_email, nav_link, post, problems, sign_in, sign_out, sign_up
from tests.support.cards import CARD
from tests.support.pages import open_drill

# -- helpers ------------------------------------------------------------------------------


def rows_of(app, learner_id: int) -> dict[str, int]:
    """How many rows name the learner, table by table (every table with learner_id)."""
    counts = {}
    with db(app) as session:
        for table in store.learner_tables():
            counts[table.name] = len(session.exec(select(table).where(table.c.learner_id == learner_id)).all())
        counts["learner"] = 1 if session.get(Learner, learner_id) else 0
    return counts


# -- sign up ------------------------------------------------------------------------------


def test_sign_up_makes_an_account_signs_in_and_keeps_the_email_in_lower_case(app, client):
    assert nav_link(client) == "Sign in"
    response = sign_up(client, email="  Ann@Example.ORG ", name="Ann", time_zone="Europe/Paris")
    assert response.status_code == 303 and response.headers["Location"] == "/account"
    assert "remember_token=" in response.headers.get("Set-Cookie", "")  # remembered across browser restarts
    ann = learner_by_email(app, "ann@example.org")
    assert ann is not None and not ann.guest and ann.name == "Ann" and ann.time_zone == "Europe/Paris"
    assert ann.password_hash != PASSWORD and check_password_hash(ann.password_hash, PASSWORD)
    page = client.get("/account").get_data(as_text=True)
    assert "Welcome! Your account is ready." in page and "ann@example.org" in page and "Hello, Ann" in page
    assert nav_link(client) == "Account"


def test_sign_up_refuses_an_email_that_has_an_account(app, client):
    sign_up(client)
    other = app.test_client()
    response = sign_up(other, email="ANN@example.org", password="another password")
    assert response.status_code == 422
    assert "An account with this email already exists. Sign in to it instead." in problems(response)
    with db(app) as session:
        assert len(session.exec(select(Learner).where(Learner.email == "ann@example.org")).all()) == 1
    assert nav_link(other) == "Sign in"


@pytest.mark.parametrize(
    "email",
    ["", "   ", "ann", "ann@", "@example.org", "ann@example", "ann @example.org", "ann@@example.org",
     "ann@example..org", ".ann@example.org", "ann.@example.org", "ann@example.o", "a" * 250 + "@example.org"],
)
def test_sign_up_refuses_a_bad_email_with_a_clear_message(app, client, email):
    response = sign_up(client, email=email)
    assert response.status_code == 422
    messages = problems(response)
    assert any(m.startswith(("Enter your email address.", "Enter an email address like", "An email address can be")) for m in messages), messages
    with db(app) as session:
        assert session.exec(select(Learner)).all() == []


def test_sign_up_refuses_a_short_password_and_says_how_long_it_must_be(app, client):
    response = sign_up(client, password="1234567")
    assert response.status_code == 422
    assert "Your password needs at least 8 characters; this one has 7." in problems(response)
    assert 'value="ann@example.org"' in response.get_data(as_text=True)  # what was typed stays (not the password)
    assert "1234567" not in response.get_data(as_text=True)
    assert sign_up(client, password="").status_code == 422
    assert sign_up(client, password="12345678").status_code == 303  # eight is enough


def test_sign_up_refuses_a_name_too_long(client):
    response = sign_up(client, name="x" * 81)
    assert response.status_code == 422 and "Your name can be at most 80 characters." in problems(response)


# -- sign in, sign out --------------------------------------------------------------------


def test_sign_in_and_out(app):
    sign_up(app.test_client(), name="Ann")
    client = app.test_client()
    response = sign_in(client, email=" ANN@example.org")
    assert response.status_code == 303 and response.headers["Location"] == "/account"
    assert "remember_token=" in response.headers.get("Set-Cookie", "")
    assert "You are signed in." in client.get("/account").get_data(as_text=True)
    assert nav_link(client) == "Account"
    assert client.get("/signin").status_code == 303  # already signed in: the account page

    out = sign_out(client)
    assert out.status_code == 303 and out.headers["Location"] == "/"
    assert nav_link(client) == "Sign in"
    assert "Nothing is stored yet" in client.get("/account").get_data(as_text=True)
    assert client.get("/api/progress").get_json()["attempts"] == 0


def test_a_wrong_password_and_an_unknown_email_get_the_same_answer(app, client):
    sign_up(app.test_client())
    wrong = sign_in(client, password="not the password")
    unknown = sign_in(client, email="nobody@example.org")
    assert wrong.status_code == unknown.status_code == 422
    assert problems(wrong) == problems(unknown)
    assert problems(wrong) == ["That email and password do not match an account. Check them and try again."]
    assert 'value="ann@example.org"' in wrong.get_data(as_text=True)
    assert nav_link(client) == "Sign in"


def test_sign_in_says_what_is_missing(client):
    response = sign_in(client, email="", password="")
    assert response.status_code == 422
    assert problems(response)[:2] == ["Enter your email address.", "Enter your password."]


def test_sign_in_goes_back_to_a_page_of_this_site_only(app):
    sign_up(app.test_client())
    client = app.test_client()
    assert sign_in(client, next="/drills/name-the-tile?level=2").headers["Location"] == "/drills/name-the-tile?level=2"
    for target in ("//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"):
        assert safe_next(target) is None
        fresh = app.test_client()
        assert sign_in(fresh, next=target).headers["Location"] == "/account"


def test_signing_in_while_signed_in_never_merges_two_accounts(app):
    bob = app.test_client()
    sign_up(bob, email="bob@example.org")
    answer(bob, 4)
    sign_up(app.test_client())
    response = sign_in(bob)  # Ann's credentials, while Bob is signed in
    assert response.status_code == 303 and response.headers["Location"] == "/account"
    assert "bob@example.org" in bob.get("/account").get_data(as_text=True)  # still Bob
    ann = learner_by_email(app, "ann@example.org")
    assert rows_of(app, ann.id)["attempt"] == 0
    assert rows_of(app, learner_by_email(app, "bob@example.org").id)["attempt"] == 1


# -- a guest's progress moves into the account ----------------------------------------------


def test_signing_up_as_a_guest_turns_the_guest_into_the_account(app, client):
    answer(client, 1)
    answer(client, 2, right=False)
    with db(app) as session:
        guest = session.exec(select(Learner)).one()
        skills = {s.skill: (s.card, s.reviews) for s in session.exec(select(SkillState)).all()}
    assert guest.guest
    page = client.get("/signup").get_data(as_text=True)
    assert re.search(r'auth__kept-count">2</span> answers', page)
    response = sign_up(client)
    assert response.status_code == 303
    account = learner_by_email(app, "ann@example.org")
    assert account.id == guest.id and not account.guest  # the same row
    with db(app) as session:
        assert len(session.exec(select(Learner)).all()) == 1
        assert len(session.exec(select(Attempt).where(Attempt.learner_id == guest.id)).all()) == 2
        assert {s.skill: (s.card, s.reviews) for s in session.exec(select(SkillState)).all()} == skills
    assert "Welcome! Your account is ready, with the 2 answers you gave as a guest." in client.get("/account").get_data(as_text=True)
    progress = client.get("/api/progress").get_json()
    assert (progress["attempts"], progress["correct"]) == (2, 1)


def test_signing_in_as_a_guest_moves_the_guest_answers_and_a_question_counts_once(app):
    ann = app.test_client()
    sign_up(ann)
    answer(ann, 1)  # only Ann
    answer(ann, 2, right=False)  # both: Ann's miss stays
    sign_out(ann)
    account_id = learner_by_email(app, "ann@example.org").id

    guest = app.test_client()
    answer(guest, 2, right=True)
    answer(guest, 3)  # only the guest
    with db(app) as session:
        guest_row = session.exec(select(Learner).where(Learner.guest == True)).one()  # noqa: E712
        guest_skill = session.exec(
            select(SkillState).where(SkillState.learner_id == guest_row.id, SkillState.skill == "name-the-tile:1")
        ).one()
    assert re.search(r'auth__kept-count">2</span> answers from this browser will be added', guest.get("/signin").get_data(as_text=True))

    response = sign_in(guest)
    assert response.status_code == 303
    notice = guest.get("/account").get_data(as_text=True)
    assert "You are signed in. 1 answer from your guest practice was added." in notice
    assert "1 answer to questions you had already answered was left out: a question counts once." in notice
    with db(app) as session:
        assert session.get(Learner, guest_row.id) is None  # the guest row is gone
        assert session.exec(select(SkillState).where(SkillState.learner_id == guest_row.id)).all() == []
        attempts = session.exec(select(Attempt).where(Attempt.learner_id == account_id)).all()
        by_seed = {a.seed: a for a in attempts}
        assert sorted(by_seed) == [1, 2, 3] and len(attempts) == 3
        assert by_seed[2].correct is False  # the account's answer to a question both answered
        assert by_seed[3].correct is True  # the guest's answer moved
        merged = session.exec(
            select(SkillState).where(SkillState.learner_id == account_id, SkillState.skill == "name-the-tile:1")
        ).one()
        # The guest reviewed it last: its schedule wins; reviews add up (2 + 2).
        assert merged.card == guest_skill.card and merged.reviews == 4
        skills = [s.skill for s in session.exec(select(SkillState).where(SkillState.learner_id == account_id)).all()]
        assert len(skills) == len(set(skills))
    progress = guest.get("/api/progress").get_json()
    assert (progress["attempts"], progress["correct"]) == (3, 2)
    assert nav_link(guest) == "Account"


def test_signing_in_moves_every_guest_answer_with_a_message(app):
    sign_up(app.test_client())
    guest = app.test_client()
    answer(guest, 5)
    answer(guest, 6)
    sign_in(guest)
    assert "You are signed in. 2 answers from your guest practice were added." in guest.get("/account").get_data(as_text=True)


def test_the_merge_keeps_the_account_schedule_when_it_was_reviewed_last(tmp_path):
    from coach.store.db import make_engine, migrate

    engine = make_engine(f"sqlite:///{tmp_path / 'merge.sqlite3'}")
    migrate(engine)
    noon = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    with Session(engine) as session:
        account, guest = Learner(guest=False, email="a@example.org", password_hash="x"), Learner(guest=True)
        session.add_all([account, guest])
        session.commit()
        account_id, guest_id = account.id, guest.id

    def give(learner_id, seed, when, right=True):
        q = name_the_tile.generate(seed, 1, CARD)
        verdict = name_the_tile.grade(q, q.key["answer"] if right else None)
        with Session(engine) as session:
            assert record_answer(session, session.get(Learner, learner_id), q, verdict, 1000, when)

    give(guest_id, 7, noon - timedelta(days=2))
    give(account_id, 8, noon, right=False)
    with Session(engine) as session:
        kept = session.exec(select(SkillState).where(SkillState.learner_id == account_id, SkillState.skill == "name-the-tile:1")).one()
        assert store.merge_guest(session, guest_id, account_id) == 1
    with Session(engine) as session:
        merged = session.exec(select(SkillState).where(SkillState.learner_id == account_id, SkillState.skill == "name-the-tile:1")).one()
        assert (merged.card, merged.reviews) == (kept.card, 2)
        assert session.get(Learner, guest_id) is None
        with pytest.raises(ValueError):
            store.merge_guest(session, account_id, guest_id)  # only a guest moves into an account


# -- the account page -------------------------------------------------------------------------


def test_the_account_page_saves_name_time_zone_and_daily_goal(app, client):
    sign_up(client)
    page = client.get("/account").get_data(as_text=True)
    assert 'list="zone-names"' in page and '<option value="Europe/London">' in page
    assert "data-tz-field" in page and "/account/export.csv" in page and "/account/export.json" in page
    response = post(client, "/account", {"name": "Ann B", "email": "ann@example.org", "time_zone": "America/New_York", "daily_goal": "25"})
    assert response.status_code == 303 and response.headers["Location"] == "/account"
    ann = learner_by_email(app, "ann@example.org")
    assert (ann.name, ann.time_zone, ann.daily_goal) == ("Ann B", "America/New_York", 25)
    assert "Your details are saved." in client.get("/account").get_data(as_text=True)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("time_zone", "Mars/Olympus", "\u201cMars/Olympus\u201d is not a time zone we know. Use a name such as America/New_York."),
        ("time_zone", "", "Enter your time zone, such as Europe/London."),
        ("daily_goal", "0", "Your daily goal must be a whole number from 1 to 100."),
        ("daily_goal", "101", "Your daily goal must be a whole number from 1 to 100."),
        ("daily_goal", "ten", "Your daily goal must be a whole number from 1 to 100."),
        ("email", "not an email", "Enter an email address like name@example.com."),
    ],
)
def test_the_account_page_refuses_bad_values(app, client, field, value, message):
    sign_up(client)
    data = {"name": "Ann", "email": "ann@example.org", "time_zone": "UTC", "daily_goal": "10", field: value}
    response = post(client, "/account", data)
    assert response.status_code == 422 and message in problems(response)
    ann = learner_by_email(app, "ann@example.org")
    assert (ann.name, ann.time_zone, ann.daily_goal) == ("", "UTC", 10)  # nothing saved


def test_changing_the_email_needs_the_current_password_and_a_free_address(app, client):
    sign_up(app.test_client(), email="bob@example.org")
    sign_up(client)
    base = {"name": "", "time_zone": "UTC", "daily_goal": "10"}
    response = post(client, "/account", {**base, "email": "ann@new.example"})
    assert response.status_code == 422 and "Enter your current password to change your email." in problems(response)
    response = post(client, "/account", {**base, "email": "ann@new.example", "current_password": "wrong one"})
    assert "That is not your current password." in problems(response)
    response = post(client, "/account", {**base, "email": "BOB@example.org", "current_password": PASSWORD})
    assert "Another account already uses this email." in problems(response)
    response = post(client, "/account", {**base, "email": "Ann@New.example", "current_password": PASSWORD})
    assert response.status_code == 303
    assert learner_by_email(app, "ann@new.example") is not None
    sign_out(client)
    assert sign_in(client, email="ann@new.example").status_code == 303


def test_an_account_keeps_its_chosen_time_zone_when_it_answers(app, client):
    sign_up(client, time_zone="Europe/Paris")
    html, token, qtoken = open_drill(client, "/drills/name-the-tile?level=2&seed=4")
    client.post(
        "/drills/name-the-tile/answer",
        data={"token": qtoken, "answer": "5 dot", "tz": "Asia/Tokyo"},
        headers={"HX-Request": "true", "X-CSRFToken": token},
    )
    assert learner_by_email(app, "ann@example.org").time_zone == "Europe/Paris"


def test_a_guest_sees_their_data_and_the_way_to_keep_it(app, client):
    assert "Nothing is stored yet" in client.get("/account").get_data(as_text=True)
    answer(client, 1)
    page = client.get("/account").get_data(as_text=True)
    assert "You are drilling as a guest" in page and "Create an account" in page and "Delete guest data" in page
    assert 'name="email"' not in page  # a guest has no email to set
    assert post(client, "/account", {"daily_goal": "15"}).status_code == 303
    with db(app) as session:
        assert session.exec(select(Learner)).one().daily_goal == 15


# -- own data: export -----------------------------------------------------------------------------


def test_export_csv_has_one_row_per_stored_attempt(app, client):
    sign_up(client)
    answer(client, 1, time_ms=1500)
    answer(client, 2, right=False)  # "show me"
    answer(client, 3, level=2, given="not a tile")  # graded wrong, kept as no tile
    answer(client, 4, level=2, given="5 dot")  # kept as the tile's code
    response = client.get("/account/export.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert re.match(r'attachment; filename="mahjong-coach-attempts-\d{4}-\d\d-\d\d\.csv"', response.headers["Content-Disposition"])
    assert response.headers["Cache-Control"] == "no-store"
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert list(rows[0]) == ["when", "drill", "level", "seed", "card", "answer", "correct", "score", "time_taken_ms", "rules"]
    ann = learner_by_email(app, "ann@example.org")
    with db(app) as session:
        stored = session.exec(select(Attempt).where(Attempt.learner_id == ann.id).order_by(Attempt.answered_at, Attempt.id)).all()
    assert len(rows) == len(stored) == 4
    for row, a in zip(rows, stored):
        when = datetime.fromisoformat(row["when"].replace("Z", "+00:00"))
        assert when == a.answered_at and row["when"].endswith("Z")
        assert (row["drill"], int(row["level"]), int(row["seed"]), row["card"]) == (a.drill, a.level, a.seed, a.card)
        assert row["correct"] == ("true" if a.correct else "false") and float(row["score"]) == a.score
        assert row["time_taken_ms"] == str(a.time_taken_ms)
        assert row["rules"].split() == json.loads(a.rules)
    assert [r["answer"] for r in rows] == [json.loads(stored[0].answer), "", "", "5D"]
    assert rows[0]["time_taken_ms"] == "1500" and rows[1]["correct"] == "false"


def test_csv_answer_cells_never_start_a_spreadsheet_formula():
    assert store.answer_text('"=HYPERLINK(1)"') == "'=HYPERLINK(1)"
    assert store.answer_text('"-1"') == "'-1" and store.answer_text('"@x"') == "'@x"
    assert store.answer_text('["1D", "2D", "3D"]') == "1D 2D 3D"
    assert store.answer_text("null") == "" and store.answer_text('"5D"') == "5D"


def test_export_json_has_the_profile_attempts_with_explanations_and_skills_with_due_dates(app, client):
    sign_up(client, name="Ann", time_zone="Europe/Paris")
    answer(client, 1)
    answer(client, 2, right=False)
    response = client.get("/account/export.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert "attachment" in response.headers["Content-Disposition"]
    body = response.get_data(as_text=True)
    data = json.loads(body)
    ann = learner_by_email(app, "ann@example.org")
    assert "password" not in body and ann.password_hash not in body
    assert data["learner"] == {
        "id": ann.id, "guest": False, "name": "Ann", "email": "ann@example.org", "time_zone": "Europe/Paris",
        "daily_goal": 10, "role": "learner", "created_at": store.iso_utc(ann.created_at),
        "theme": "system", "tile_size": "normal", "table_rules": {},
    }
    with db(app) as session:
        stored = session.exec(select(Attempt).where(Attempt.learner_id == ann.id).order_by(Attempt.answered_at, Attempt.id)).all()
        states = session.exec(select(SkillState).where(SkillState.learner_id == ann.id)).all()
    assert [a["seed"] for a in data["attempts"]] == [a.seed for a in stored]
    for exported, a in zip(data["attempts"], stored):
        assert exported["explanation"] == json.loads(a.explanation) and exported["explanation"]
        assert exported["answer"] == json.loads(a.answer) and exported["correct"] == a.correct
        assert exported["rules"] == json.loads(a.rules) and exported["when"] == store.iso_utc(a.answered_at)
    assert data["attempts"][1]["answer"] is None  # "show me"
    assert {s["skill"]: s["due"] for s in data["skills"]} == {s.skill: store.iso_utc(s.due) for s in states}
    level = next(s for s in data["skills"] if s["skill"] == "name-the-tile:1")
    assert (level["attempts"], level["correct"], level["reviews"]) == (2, 1, 2)


def test_a_guest_can_export_and_nobody_gets_another_learners_data(app, client):
    answer(client, 1)
    rows = list(csv.DictReader(io.StringIO(client.get("/account/export.csv").get_data(as_text=True))))
    assert len(rows) == 1
    data = client.get("/account/export.json").get_json()
    assert data["learner"]["guest"] is True and data["learner"]["email"] is None and len(data["attempts"]) == 1
    stranger = app.test_client()
    assert stranger.get("/account/export.csv").get_data(as_text=True).strip() == ",".join(store.CSV_COLUMNS)
    assert stranger.get("/account/export.json").get_json()["learner"] is None


# -- own data: delete -------------------------------------------------------------------------------


def test_deleting_the_account_removes_every_row_and_signs_out(app, client):
    other = app.test_client()
    sign_up(other, email="bob@example.org")
    answer(other, 1)
    sign_up(client)
    answer(client, 1)
    answer(client, 2, right=False)
    ann = learner_by_email(app, "ann@example.org")
    assert rows_of(app, ann.id)["attempt"] == 2 and rows_of(app, ann.id)["skillstate"] > 0
    page = client.get("/account/delete").get_data(as_text=True)
    assert "Delete your account?" in page and "2 answers" in page

    refused = post(client, "/account/delete", {"confirm": "yes"})
    assert refused.status_code == 422 and "Type the word \u201cdelete\u201d to confirm, or go back to your account." in problems(refused)
    assert rows_of(app, ann.id)["learner"] == 1

    response = post(client, "/account/delete", {"confirm": " Delete "})
    assert response.status_code == 303 and response.headers["Location"] == "/account/deleted"
    assert set(rows_of(app, ann.id).values()) == {0}  # every table
    assert "Your data is deleted" in client.get("/account/deleted").get_data(as_text=True)
    assert nav_link(client) == "Sign in"
    assert client.get("/api/progress").get_json()["attempts"] == 0
    assert sign_in(app.test_client()).status_code == 422  # the account is gone
    bob = learner_by_email(app, "bob@example.org")
    assert rows_of(app, bob.id)["attempt"] == 1  # nobody else's data


def test_a_guest_can_delete_their_guest_data(app, client):
    answer(client, 1)
    with db(app) as session:
        guest_id = session.exec(select(Learner)).one().id
    assert "Delete your guest data?" in client.get("/account/delete").get_data(as_text=True)
    assert post(client, "/account/delete", {"confirm": "delete"}).status_code == 303
    assert set(rows_of(app, guest_id).values()) == {0}
    answer(client, 2)  # drilling on makes a new guest
    assert client.get("/api/progress").get_json()["attempts"] == 1


def test_a_deleted_learners_other_browser_never_wakes_up_as_a_new_learner_with_the_same_id(app):
    laptop, phone = app.test_client(), app.test_client()
    sign_up(laptop)
    answer(laptop, 1)
    sign_in(phone)
    ann_id = learner_by_email(app, "ann@example.org").id
    post(laptop, "/account/delete", {"confirm": "delete"})
    stranger = app.test_client()
    answer(stranger, 2)
    answer(stranger, 3)
    with db(app) as session:
        assert session.exec(select(Learner)).one().id > ann_id  # ids are never handed out again (AUTOINCREMENT)
    assert phone.get("/api/progress").get_json()["attempts"] == 0  # not the stranger's answers
    assert nav_link(phone) == "Sign in" and phone.get("/account/export.json").get_json()["learner"] is None
    assert stranger.get("/api/progress").get_json()["attempts"] == 2


# -- CSRF ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "data"),
    [
        ("/signup", {"email": "eve@example.org", "password": PASSWORD}),
        ("/signin", {"email": "ann@example.org", "password": PASSWORD}),
        ("/signout", {}),
        ("/account", {"name": "Eve", "email": "ann@example.org", "time_zone": "UTC", "daily_goal": "5"}),
        ("/account/delete", {"confirm": "delete"}),
    ],
)
def test_every_post_without_a_csrf_token_is_refused(app, client, url, data):
    sign_up(app.test_client())
    if url != "/signin":
        sign_in(client)
    for extra in ({}, {"csrf_token": "forged"}):
        response = client.post(url, data={**data, **extra})
        assert response.status_code == 400
        assert "This page has expired" in response.get_data(as_text=True)
    ann = learner_by_email(app, "ann@example.org")
    assert ann is not None and ann.name == "" and ann.daily_goal == 10
    assert learner_by_email(app, "eve@example.org") is None
    assert nav_link(client) == ("Sign in" if url == "/signin" else "Account")


def test_the_store_layer_knows_nothing_of_flask():
    from pathlib import Path

    for path in Path(store.__file__).parent.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(from|import)\s+flask", text, re.M), path


# -- in the browser ------------------------------------------------------------------------------------


