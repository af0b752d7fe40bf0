"""Everyone drills on their own card (issue 14, part 2).

Any account uploads a private card on /account/cards, sees it, deletes it
and chooses the card its drills deal from: the house card, one of its own
or a class's card it has an assignment on. The choice is stored, read on
every drill page and in today's practice, and checked again when an
answer is graded: a token naming someone else's private card is refused
with a clear 4xx, never a 500, and nothing is stored.
"""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import Session, select

from coach.store import own_cards
from coach.store.models import Assignment, Attempt, CardChoice, Learner, TeacherCard
from coach.store.teaching import account_data, classrooms, teachers_cards
from coach.store.teaching.errors import TeachingError
from tests.support.teaching import (
    BROKEN_CARD,
    GOOD_CARD,
    PAIRS_CARD,
    assign,
    db,
    guest,
    join,
    learner_id,
    make_class,
    make_set,
    post,
    sign_up,
    text_of,
)

CARDS = "/account/cards"
TOKEN = re.compile(r'name="token" value="([^"]+)"')


def upload(client: FlaskClient, text: str, use: bool = True):
    data = {"card_text": text}
    if use:
        data["use"] = "yes"
    return post(client, CARDS, data)


def card_id(app: Flask, owner: str, name: str) -> int:
    with db(app) as session:
        row = session.exec(
            select(TeacherCard).where(TeacherCard.owner_id == learner_id(app, owner), TeacherCard.name == name)
        ).one()
        assert row.id is not None
        return row.id


def token_of(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, text_of(response)[-1500:]
    match = TOKEN.search(response.get_data(as_text=True))
    assert match, "no question token on the page"
    return match.group(1)


def card_in(app: Flask, token: str) -> str:
    return app.extensions["coach"].signer.loads(token)["card"]


def attempts(app: Flask) -> list[Attempt]:
    with db(app) as session:
        return list(session.exec(select(Attempt)).all())


def choices(app: Flask) -> list[tuple[int, int]]:
    with db(app) as session:
        return sorted((c.learner_id, c.card_id) for c in session.exec(select(CardChoice)).all())


# -- the store ----------------------------------------------------------------------------


def test_save_card_stores_a_good_card_and_lists_every_problem_of_a_bad_one(app):
    sign_up(app, "lou@example.org", teacher=False)
    lou = learner_id(app, "lou@example.org")
    with db(app) as session:
        row = own_cards.save_card(session, lou, GOOD_CARD)
        assert isinstance(row, TeacherCard) and row.owner_id == lou and row.name == "Spring class" and row.lines == 2
        bad = own_cards.save_card(session, lou, BROKEN_CARD)
        assert isinstance(bad, own_cards.CardProblems)
        joined = " ".join(bad.problems)
        assert "E-1" in joined and "E-2" in joined and bad.count >= 2
        again = own_cards.save_card(session, lou, GOOD_CARD)
        assert isinstance(again, own_cards.CardProblems) and "already have a card named" in again.problems[0]
        assert [r.name for r in teachers_cards.cards_of(session, lou)] == ["Spring class"]


def test_store_getters_and_choices_check_the_owner(app):
    sign_up(app, "lou@example.org", teacher=False)
    sign_up(app, "max@example.org", teacher=False)
    lou, max_ = learner_id(app, "lou@example.org"), learner_id(app, "max@example.org")
    with db(app) as session:
        row = own_cards.save_card(session, lou, GOOD_CARD)
        assert isinstance(row, TeacherCard) and row.id is not None
        assert teachers_cards.card_of(session, lou, row.id) is not None
        assert teachers_cards.card_of(session, max_, row.id) is None
        assert teachers_cards.cards_of(session, max_) == []
        assert own_cards.usable_cards(session, max_) == []
        assert [o.card_id for o in own_cards.usable_cards(session, lou)] == [row.id]
        try:
            own_cards.choose(session, max_, row.id)
        except TeachingError as error:
            assert "no such card" in str(error)
        else:
            raise AssertionError("a stranger chose a private card")
        assert own_cards.chosen_row(session, max_) is None
        assert own_cards.choose(session, lou, row.id) is not None
        assert own_cards.chosen_row(session, lou).id == row.id  # type: ignore[union-attr]
        assert own_cards.choose(session, lou, None) is None
        assert own_cards.chosen_row(session, lou) is None
    assert choices(app) == []


# -- pages ----------------------------------------------------------------------------------


def test_a_learner_uploads_sees_and_drills_on_their_own_card(app):
    lou = sign_up(app, "lou@example.org", teacher=False)
    assert "My cards" in text_of(lou.get("/account"))
    response = upload(lou, GOOD_CARD)
    assert response.status_code == 303
    number = card_id(app, "lou@example.org", "Spring class")
    assert response.headers["Location"] == f"{CARDS}/{number}"
    page = text_of(lou.get(f"{CARDS}/{number}"))
    assert "Spring class" in page and "E-1" in page and "E-2" in page and "Your drills deal from this card" in page
    assert choices(app) == [(learner_id(app, "lou@example.org"), number)]

    drill = lou.get("/drills/nearest-hand?level=1&seed=7")
    html = text_of(drill)
    assert f'<option value="{number}" selected>Spring class (Your card)</option>' in html
    token = TOKEN.search(drill.get_data(as_text=True)).group(1)  # type: ignore[union-attr]
    assert card_in(app, token) == f"Spring class #{number}"
    graded = post(lou, "/drills/nearest-hand/answer", {"token": token, "show": "1"})
    assert graded.status_code == 200
    (stored,) = attempts(app)
    assert stored.card == f"Spring class #{number}"

    progress = text_of(lou.get("/progress"))
    assert "on “Spring class”" in progress  # the skill, and the mistake ("show me")
    assert "· on “Spring class”</p>" in progress and "data-try-again" in progress  # replayed on the chosen card
    post(lou, f"{CARDS}/choose", {"card": "house"})
    elsewhere = text_of(lou.get("/progress"))
    assert "data-try-again" not in elsewhere and "this was asked on “Spring class”" in elsewhere
    post(lou, f"{CARDS}/choose", {"card": str(number)})
    today = text_of(lou.get("/today"))
    assert "On the card “Spring class”" in today
    assert card_in(app, TOKEN.search(lou.get("/today").get_data(as_text=True)).group(1)).startswith("Spring class #")  # type: ignore[union-attr]


def test_the_choice_persists_across_sign_ins_and_can_go_back_to_the_house_card(app):
    lou = sign_up(app, "lou@example.org", teacher=False)
    upload(lou, GOOD_CARD)
    number = card_id(app, "lou@example.org", "Spring class")
    other_browser = app.test_client()
    signed = post(other_browser, "/signin", {"email": "lou@example.org", "password": "correct horse battery"})
    assert signed.status_code == 303
    assert card_in(app, token_of(other_browser, "/drills/name-the-tile")) == f"Spring class #{number}"
    back = post(other_browser, f"{CARDS}/choose", {"card": "house", "next": "/drills/name-the-tile?level=2"})
    assert back.status_code == 303 and back.headers["Location"] == "/drills/name-the-tile?level=2"
    house = app.extensions["coach"].card.name
    assert card_in(app, token_of(lou, "/drills/name-the-tile")) == house
    assert choices(app) == []
    outside = post(lou, f"{CARDS}/choose", {"card": str(number), "next": "https://evil.example/"})
    assert outside.status_code == 303 and outside.headers["Location"] == CARDS


def test_a_stranger_cannot_see_choose_drill_or_grade_on_a_private_card(app):
    lou = sign_up(app, "lou@example.org", teacher=False)
    upload(lou, GOOD_CARD)
    number = card_id(app, "lou@example.org", "Spring class")
    lous_token = token_of(lou, "/drills/nearest-hand?level=1&seed=3")
    max_ = sign_up(app, "max@example.org", teacher=False)
    assert max_.get(f"{CARDS}/{number}").status_code == 404
    assert max_.get(f"{CARDS}/{number}/delete").status_code == 404
    assert post(max_, f"{CARDS}/{number}/delete").status_code == 404
    refused = post(max_, f"{CARDS}/choose", {"card": str(number)})
    assert refused.status_code == 404 and "no such card" in text_of(refused)
    assert post(max_, f"{CARDS}/choose", {"card": "Spring class"}).status_code == 400
    assert choices(app) == [(learner_id(app, "lou@example.org"), number)]
    # Lou's genuine token, replayed by Max: the card is found for Lou only.
    page = post(max_, "/drills/nearest-hand/answer", {"token": lous_token, "show": "1"})
    assert page.status_code == 400 and "cannot use here" in text_of(page)
    api = max_.post("/api/drills/nearest-hand/answers", json={"token": lous_token, "answer": None})
    assert api.status_code == 400 and "cannot use here" in api.get_json()["error"]
    # A token made up to name the card is not signed by the server.
    forged = post(max_, "/drills/nearest-hand/answer", {"token": lous_token[:-4] + "AAAA", "show": "1"})
    assert forged.status_code == 400 and "not valid" in text_of(forged)
    assert attempts(app) == []
    assert card_in(app, token_of(max_, "/drills/nearest-hand")) == app.extensions["coach"].card.name


def test_guests_and_visitors_are_told_they_need_an_account(app):
    for client in (app.test_client(), guest(app)):
        page = client.get(CARDS)
        assert page.status_code == 200 and "needs an account" in text_of(page)
        assert upload(client, GOOD_CARD).status_code == 403
        assert post(client, f"{CARDS}/choose", {"card": "house"}).status_code == 403
        assert "Drill on your own card" in text_of(client.get("/drills/name-the-tile"))
    with db(app) as session:
        assert session.exec(select(TeacherCard)).all() == []


def test_a_bad_upload_lists_its_problems_and_stores_nothing(app):
    lou = sign_up(app, "lou@example.org", teacher=False)
    response = upload(lou, BROKEN_CARD)
    assert response.status_code == 422
    page = text_of(response)
    assert "The card was not saved" in page and "E-1" in page
    assert choices(app) == []
    with db(app) as session:
        assert session.exec(select(TeacherCard)).all() == []


def test_a_drill_the_card_cannot_serve_falls_back_to_the_house_card_and_says_so(app):
    lou = sign_up(app, "lou@example.org", teacher=False)
    upload(lou, PAIRS_CARD)
    page = lou.get("/drills/hot-or-safe")
    assert page.status_code == 200
    assert "cannot make a question for" in text_of(page)
    token = TOKEN.search(page.get_data(as_text=True)).group(1)  # type: ignore[union-attr]
    assert card_in(app, token) == app.extensions["coach"].card.name


def test_deleting_the_chosen_card_gives_the_house_card_back(app):
    lou = sign_up(app, "lou@example.org", teacher=False)
    upload(lou, GOOD_CARD)
    number = card_id(app, "lou@example.org", "Spring class")
    confirm = text_of(lou.get(f"{CARDS}/{number}/delete"))
    assert "Delete the card" in confirm and f'action="{CARDS}/{number}/delete"' in confirm
    assert f'<a href="{CARDS}">My cards</a>' in confirm and "/teach" not in confirm.split("<main")[1]
    gone = post(lou, f"{CARDS}/{number}/delete")
    assert gone.status_code == 303 and gone.headers["Location"] == CARDS
    assert choices(app) == []
    assert card_in(app, token_of(lou, "/drills/name-the-tile")) == app.extensions["coach"].card.name


def test_a_class_card_can_be_chosen_while_in_the_class(app):
    tess = sign_up(app, "tess@example.org")
    upload(tess, GOOD_CARD, use=False)
    number = card_id(app, "tess@example.org", "Spring class")
    room = make_class(tess)
    set_id = make_set(tess, app, "Spring drills", [("name-the-tile", "1", "2")], card="Spring class")
    assert assign(tess, room, f"set:{set_id}").status_code == 303
    sam = sign_up(app, "sam@example.org", teacher=False)
    assert post(sam, f"{CARDS}/choose", {"card": str(number)}).status_code == 404  # not in the class yet
    join(app, "sam@example.org", room)
    assert f'value="{number}"> Spring class <span class="muted small">(From Tuesday beginners)' in text_of(sam.get(CARDS))
    assert "Spring class (From Tuesday beginners)</option>" in text_of(sam.get("/drills/name-the-tile"))
    assert post(sam, f"{CARDS}/choose", {"card": str(number)}).status_code == 303
    assert card_in(app, token_of(sam, "/drills/name-the-tile")) == f"Spring class #{number}"
    assert sam.get(f"{CARDS}/{number}").status_code == 404  # choosing it does not make it Sam's
    with db(app) as session:
        classrooms.leave_class(session, learner_id(app, "sam@example.org"), room)
    assert card_in(app, token_of(sam, "/drills/name-the-tile")) == app.extensions["coach"].card.name


def test_deleting_an_account_removes_its_cards_and_everyones_choice_of_them(app):
    tess = sign_up(app, "tess@example.org")
    upload(tess, GOOD_CARD)
    number = card_id(app, "tess@example.org", "Spring class")
    room = make_class(tess)
    set_id = make_set(tess, app, "Spring drills", [("name-the-tile", "1", "2")], card="Spring class")
    assign(tess, room, f"set:{set_id}")
    sam = sign_up(app, "sam@example.org", teacher=False)
    join(app, "sam@example.org", room)
    post(sam, f"{CARDS}/choose", {"card": str(number)})
    assert len(choices(app)) == 2
    assert post(tess, "/account/delete", {"confirm": "delete"}).status_code in (200, 303)
    assert choices(app) == []
    with db(app) as session:
        assert session.exec(select(TeacherCard)).all() == []
        assert session.exec(select(Learner).where(Learner.email == "sam@example.org")).one() is not None


@pytest.fixture
def two_uploads_a_minute(monkeypatch):
    monkeypatch.setenv("COACH_LIMIT_CARD_UPLOAD_LEARNER", "2/minute")


def test_card_uploads_are_rate_limited_per_account(two_uploads_a_minute, app):
    lou = sign_up(app, "lou@example.org", teacher=False)
    assert [upload(lou, BROKEN_CARD).status_code for _ in range(3)] == [422, 422, 429]
    assert "Too many card uploads" in text_of(upload(lou, GOOD_CARD))
    max_ = sign_up(app, "max@example.org", teacher=False)
    assert upload(max_, GOOD_CARD).status_code == 303  # another account has its own count


@pytest.mark.server
def test_own_cards_and_choices_on_postgresql():
    from coach.store.db import make_engine, migrate
    from tests.support.postgres import postgres_server

    with postgres_server() as url:
        engine = make_engine(url)
        migrate(engine)
        with Session(engine) as session:
            teacher = Learner(email="tess@example.org", guest=False, role="teacher")
            student = Learner(email="sam@example.org", guest=False)
            session.add(teacher)
            session.add(student)
            session.commit()
            assert teacher.id is not None and student.id is not None
            theirs = own_cards.save_card(session, teacher.id, GOOD_CARD)
            mine = own_cards.save_card(session, student.id, PAIRS_CARD)
            assert isinstance(theirs, TeacherCard) and isinstance(mine, TeacherCard)
            room = classrooms.create_class(session, teacher.id, "Tuesday beginners")
            session.add(Assignment(classroom_id=room.id or 0, title="Spring", source="", card_id=theirs.id))
            session.commit()
            classrooms.join_class(session, student, room.join_code)
            options = own_cards.usable_cards(session, student.id)
            assert [(o.card_id, o.where) for o in options] == [(mine.id, "Your card"), (theirs.id, "From Tuesday beginners")]
            assert own_cards.choose(session, student.id, theirs.id) is not None
            assert own_cards.chosen_row(session, student.id).id == theirs.id  # type: ignore[union-attr]
            account_data.delete_teaching(session, teacher.id)  # the teacher's account goes: so does the choice
            session.commit()
            assert own_cards.chosen_row(session, student.id) is None
            assert session.exec(select(CardChoice)).all() == []
        engine.dispose()
