"""Classes, the student's side (issue 6): joining by link or code, leaving,
"My assignments" with their states, working through an assignment on the
drills' own pages (answers counted once, forged answers refused), the
teacher's own card in an assignment, and every classes.* route tried by
the wrong person (404, never a word about the class).

Teachers, classes and assignments are made with coach.store.teaching
against the app's database; students come in through the real forms.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from html import unescape
from typing import Any

import pytest
from sqlmodel import func, select

from coach.notation.card import house_card
from coach.store.models import (
    AssignmentAnswer,
    AssignmentWork,
    Attempt,
    Learner,
    Membership,
    TeacherCard,
)
from coach.store.teaching import classrooms, teachers_cards
from coach.web.classes.student import NEED_CODE, NEED_NAME, NOT_COUNTED, REVIEW
from coach.web.shared.dates import due_label
from drills import first_pass
from tests.support.accounts import sign_in, sign_up
from tests.support.classes import FIXED, HTMX, TOKEN, Room, choices, db, give, guest_joins, make_class, make_teacher, open_question, post, send, text
from tests.support.pages import csrf_of

# Every route of the blueprint: endpoint -> (rule, methods). A route added
# without a line here (and a wrong-user check below) fails the first test.
ROUTES = {
    "classes.my_classes": ("/classes", {"GET"}),
    "classes.join_page": ("/join/<code>", {"GET"}),
    "classes.join": ("/join", {"POST"}),
    "classes.leave": ("/classes/<int:class_id>/leave", {"POST"}),
    "classes.assignment": ("/assignments/<int:assignment_id>", {"GET"}),
    "classes.question": ("/assignments/<int:assignment_id>/q/<int:number>", {"GET"}),
    "classes.next_question": ("/assignments/<int:assignment_id>/next", {"POST"}),
}

FRESH = FIXED.replace("seeds: fixed", "seeds: fresh").replace("Week one: the tiles", "Fresh tiles")

CARD = """\
name: "Spring class card"
year: 2026
sections:
  - name: "Spring"
    hands:
      - id: "S-1"
        pattern: "222a 444a 666b 888b DDa"
        value: 25
        concealed: false
        numbers: fixed
        note: "Any 2 suits"
      - id: "S-2"
        pattern: "FFFF 1111a 2222b 33c"
        value: 30
        concealed: false
        numbers: fixed
      - id: "S-3"
        pattern: "NNN EEE WWW SSS RR"
        value: 25
        concealed: true
        numbers: fixed
"""
ON_CARD = """\
set: "Spring card practice"
card: "Spring class card"
seeds: fixed
seed: 99
drills:
  - drill: nearest-hand
    level: 1
    questions: 2
"""


# -- helpers ------------------------------------------------------------------------------


def count(app, model, **where: Any) -> int:
    with db(app) as session:
        query = select(func.count()).select_from(model)
        for key, value in where.items():
            query = query.where(getattr(model, key) == value)
        return session.exec(query).one()


def teacher_client(app, email: str = "lee@example.org"):
    client = app.test_client()
    assert sign_in(client, email=email).status_code == 303
    return client


def account_joins(app, room: Room, email: str, name: str = "Bea"):
    client = app.test_client()
    assert sign_up(client, email=email, name=name).status_code == 303
    reply = post(client, "/join", {"code": room.code})
    assert reply.status_code == 303
    client.get(reply.headers["Location"])
    return client


def learner_id(app, client) -> int:
    """The learner a client is signed in as (read back from the session cookie)."""
    with client.session_transaction() as flask_session:
        return int(flask_session["_user_id"].split(":")[0])


def seed_of(app, token: str) -> int:
    return app.extensions["coach"].signer.loads(token)["seed"]


def answer_question(app, client, assignment_id: int, number: int, right: bool = True, htmx: bool = False):
    _, drill, token = open_question(client, assignment_id, number)
    best, wrong = choices(app, drill, token)
    return send(client, drill, token, assignment_id, number - 1, best if right else wrong, htmx=htmx)


def my_item(client, title: str) -> str:
    """The "My assignments" entry of an assignment, as text."""
    html = client.get("/classes").get_data(as_text=True)
    for item in re.findall(r'<li class="card assignment-item.*?</li>', html, re.S):
        if title in unescape(item):
            return " ".join(unescape(re.sub(r"<[^>]+>", " ", item)).split())
    raise AssertionError(f"{title} is not in My assignments")


# -- the route table ------------------------------------------------------------------------


def test_every_classes_route_is_in_the_table(app):
    found = {
        rule.endpoint: (rule.rule, set(rule.methods or ()) - {"HEAD", "OPTIONS"})
        for rule in app.url_map.iter_rules()
        if rule.endpoint.startswith("classes.")
    }
    assert found == ROUTES
    assert set(WRONG_USER) == set(ROUTES)


# -- joining ------------------------------------------------------------------------------


def test_the_join_link_shows_the_class_and_teacher_then_joins_a_new_guest(app):
    teacher = make_teacher(app)
    room = make_class(app, teacher)
    client = app.test_client()
    page = client.get(f"/join/{room.code}")
    html = text(page)
    assert page.status_code == 200
    assert "Tuesday beginners" in html and "Mrs Lee" in html and "lee@example.org" not in html
    assert 'name="name"' in html and "Your name" in html  # nobody known yet: a name is needed
    assert html.count("<form") == 1 and "Join Tuesday beginners" in html
    assert count(app, Learner) == 1  # looking creates nobody

    reply = client.post("/join", data={"csrf_token": csrf_of(html), "code": room.code, "name": "  Ann   Smith "})
    assert reply.status_code == 303 and reply.headers["Location"] == "/classes"
    with db(app) as session:
        ann = session.get(Learner, learner_id(app, client))
        assert ann.guest and ann.name == "Ann Smith"
        assert classrooms.membership(session, ann.id, room.class_id) is not None
    home = text(client.get("/classes"))
    assert "You joined Tuesday beginners." in home and "Teacher: Mrs Lee" in home


def test_the_code_form_ignores_case_spaces_and_dashes(app):
    room = make_class(app, make_teacher(app))
    client = app.test_client()
    sign_up(client, email="bea@example.org", name="Bea")
    form = text(client.get("/classes"))
    assert 'name="code"' in form and 'name="name"' not in form  # her name is known
    typed = f" {room.code[:3].lower()} - {room.code[3:].lower()} "
    reply = post(client, "/join", {"code": typed})
    assert reply.status_code == 303
    assert count(app, Membership, classroom_id=room.class_id) == 1
    assert client.get(f"/join/{room.code.lower()}").status_code == 200


def test_a_wrong_code_says_so_plainly(app):
    make_class(app, make_teacher(app))
    client = app.test_client()
    page = client.get("/join/zz-9 9zz")
    html = text(page)
    assert page.status_code == 404
    assert "No class has the code \u201cZZ99ZZ\u201d" in html and "Traceback" not in html
    assert 'name="code"' in html  # type it again right there
    reply = post(client, "/join", {"code": "qq qq qq", "name": "Ann"})
    assert reply.status_code == 422 and "No class has the code \u201cQQQQQQ\u201d" in text(reply)
    empty = post(client, "/join", {"code": " - ", "name": "Ann"})
    assert empty.status_code == 422 and NEED_CODE in text(empty)
    assert count(app, Learner) == 1 and count(app, Membership) == 0  # only the teacher; no guest made


def test_a_learner_without_a_name_must_give_one(app):
    room = make_class(app, make_teacher(app))
    client = app.test_client()
    reply = post(client, "/join", {"code": room.code})
    assert reply.status_code == 422 and NEED_NAME in text(reply)
    blank = post(client, "/join", {"code": room.code, "name": "   "})
    assert blank.status_code == 422 and 'aria-invalid="true"' in blank.get_data(as_text=True)
    too_long = post(client, "/join", {"code": room.code, "name": "A" * 81})
    assert too_long.status_code == 422 and "at most 80 characters" in text(too_long)
    assert count(app, Membership) == 0 and count(app, Learner) == 1

    # An account with no name is asked too, and keeps the name it gives.
    sign_up(client, email="nameless@example.org")
    assert post(client, "/join", {"code": room.code}).status_code == 422
    assert post(client, "/join", {"code": room.code, "name": "Cy"}).status_code == 303
    with db(app) as session:
        assert session.get(Learner, learner_id(app, client)).name == "Cy"


def test_joining_twice_is_fine(app):
    room = make_class(app, make_teacher(app))
    client = guest_joins(app, room)
    page = text(client.get(f"/join/{room.code}"))
    assert "You are already in Tuesday beginners." in page and 'name="name"' not in page
    again = post(client, "/join", {"code": room.code})
    assert again.status_code == 303
    assert "You are already in Tuesday beginners." in text(client.get("/classes"))
    assert count(app, Membership) == 1


def test_a_teacher_cannot_join_their_own_class(app):
    room = make_class(app, make_teacher(app))
    client = teacher_client(app)
    page = text(client.get(f"/join/{room.code}"))
    assert "You teach this class" in page and "Join Tuesday beginners</button>" not in page
    assert f'href="/teach/classes/{room.class_id}"' in page
    reply = post(client, "/join", {"code": room.code})
    assert reply.status_code == 422
    assert "You teach this class, so you cannot join it as a student." in text(reply)
    assert count(app, Membership) == 0


def test_join_and_leave_need_the_csrf_token(app):
    room = make_class(app, make_teacher(app))
    client = guest_joins(app, room)
    assert client.post("/join", data={"code": room.code}).status_code == 400
    assert client.post(f"/classes/{room.class_id}/leave").status_code == 400
    assert count(app, Membership) == 1


# -- leaving and being removed -----------------------------------------------------------


def test_leaving_hides_the_class_and_its_work_but_keeps_the_answers(app):
    room = make_class(app, make_teacher(app))
    given = give(app, room)
    client = guest_joins(app, room)
    assert answer_question(app, client, given, 1).status_code == 200
    home = client.get("/classes").get_data(as_text=True)
    assert f'action="/classes/{room.class_id}/leave"' in home and "<details" in home  # confirm first, no JS

    reply = post(client, f"/classes/{room.class_id}/leave")
    assert reply.status_code == 303 and reply.headers["Location"] == "/classes"
    home = text(client.get("/classes"))
    assert "You left Tuesday beginners." in home and "Week one: the tiles" not in home
    for url in (f"/assignments/{given}", f"/assignments/{given}/q/1"):
        assert client.get(url).status_code == 404
    assert post(client, f"/assignments/{given}/next", {"after": "0"}).status_code == 404
    assert post(client, f"/classes/{room.class_id}/leave").status_code == 404  # not in it any more
    assert count(app, AssignmentAnswer) == 1  # the answer is kept

    post(client, "/join", {"code": room.code})
    assert "1 of 3 answered" in my_item(client, "Week one: the tiles")  # and comes back


def test_a_removed_student_sees_nothing_of_the_class(app):
    room = make_class(app, make_teacher(app))
    given = give(app, room)
    client = guest_joins(app, room)
    _, drill, token = open_question(client, given, 1)
    with db(app) as session:
        assert classrooms.remove_student(session, room.teacher_id, room.class_id, learner_id(app, client))
    for url in (f"/assignments/{given}", f"/assignments/{given}/q/1"):
        response = client.get(url)
        assert response.status_code == 404 and "Week one" not in text(response)
    assert post(client, f"/assignments/{given}/next").status_code == 404
    assert send(client, drill, token, given, 0).status_code == 404
    assert count(app, AssignmentAnswer) == 0 and count(app, Attempt) == 0
    home = text(client.get("/classes"))
    assert "Tuesday beginners" not in home and "No assignments yet" in home


# -- my assignments and their states ------------------------------------------------------


def test_an_assignment_goes_from_assigned_to_in_progress_to_turned_in(app):
    room = make_class(app, make_teacher(app))
    given = give(app, room, due_at=datetime.now(UTC) + timedelta(days=3))
    client = guest_joins(app, room)
    item = my_item(client, "Week one: the tiles")
    assert "Tuesday beginners" in item and "Assigned" in item and "0 of 3 answered" in item and "Start" in item
    assert "Due " in item

    overview = text(client.get(f"/assignments/{given}"))
    assert "Week one: the tiles" in overview and "Name each tile" in overview
    assert overview.count("Not yet") == 3 and f'href="/assignments/{given}/q/1"' in overview

    answer_question(app, client, given, 1, right=True)
    item = my_item(client, "Week one: the tiles")
    assert "In progress" in item and "1 of 3 answered" in item and "Continue" in item
    assert f"/assignments/{given}/q/2" in client.get("/classes").get_data(as_text=True)

    answer_question(app, client, given, 2, right=False)
    answer_question(app, client, given, 3, right=True)
    item = my_item(client, "Week one: the tiles")
    assert "Turned in" in item and "late" not in item.lower() and "3 of 3 answered" in item and "Review" in item

    summary = text(client.get(f"/assignments/{given}"))
    assert "You got 2 of 3 right" in summary
    assert summary.count("Review") >= 3 and "Not right" in summary and "Not yet" not in summary


def test_late_and_turned_in_late(app):
    room = make_class(app, make_teacher(app))
    due = datetime.now(UTC) - timedelta(days=1)
    given = give(app, room, due_at=due)
    client = guest_joins(app, room)
    item = my_item(client, "Week one: the tiles")
    assert "Late" in item and f"Due {due_label(due)}" in item and "Start" in item
    for number in (1, 2, 3):
        answer_question(app, client, given, number)
    item = my_item(client, "Week one: the tiles")
    assert "Turned in late" in item
    assert "Turned in after the due date." in text(client.get(f"/assignments/{given}"))


def test_a_due_date_reads_as_people_say_it_in_the_students_own_day():
    moment = datetime(2031, 12, 6, 4, 59, 59, tzinfo=UTC)  # 23:59:59 on the 5th in New York
    assert due_label(moment, "America/New_York") == "Fri 5 Dec 2031"
    assert due_label(moment, "UTC") == "Sat 6 Dec 2031"
    this_year = datetime.now(UTC).replace(month=6, day=15, hour=12)
    assert str(this_year.year) not in due_label(this_year)
    assert due_label(None) == ""


def test_an_empty_list_speaks_to_a_beginner(app):
    client = app.test_client()
    html = text(client.get("/classes"))
    assert "No assignments yet" in html and "code of 6 letters and digits" in html
    assert "You are not in a class yet." in html and 'name="name"' in html


# -- answering ----------------------------------------------------------------------------


def test_the_question_page_is_the_drills_stage_inside_the_assignment(app):
    room = make_class(app, make_teacher(app))
    given = give(app, room, due_at=datetime(2031, 12, 6, 4, 59, tzinfo=UTC))
    client = guest_joins(app, room)
    html, drill, token = open_question(client, given, 2)
    page = unescape(html)
    assert "Question 2 of 3 · Week one: the tiles" in page and "Due Sat 6 Dec 2031" in page
    assert '<progress class="meter" max="3" value="0"' in html and drill == "name-the-tile"
    assert 'name="session" value="assignment"' in html and f'name="assignment" value="{given}"' in html
    assert 'name="slot" value="1"' in html and f'action="/assignments/{given}/next"' in html
    for missing in (0, 4, 99):
        assert client.get(f"/assignments/{given}/q/{missing}").status_code == 404


def test_an_answer_counts_once(app):
    room = make_class(app, make_teacher(app))
    given = give(app, room)
    client = guest_joins(app, room)
    _, drill, token = open_question(client, given, 1)
    best, wrong = choices(app, drill, token)
    first = send(client, drill, token, given, 0, best, htmx=True)
    assert first.status_code == 200 and 'data-verdict="right"' in text(first) and NOT_COUNTED not in text(first)
    second = send(client, drill, token, given, 0, wrong, htmx=True)
    assert second.status_code == 200 and "Not quite" in text(second) and NOT_COUNTED in text(second)
    with db(app) as session:
        rows = session.exec(select(AssignmentAnswer)).all()
        assert len(rows) == 1 and rows[0].correct and rows[0].slot == 0 and rows[0].answer == f'"{best}"'
    assert count(app, Attempt) == 1  # the student's own progress counts a question once too
    assert "1 of 3 answered" in my_item(client, "Week one: the tiles")


def test_an_answer_without_javascript_comes_back_as_the_whole_question_page(app):
    room = make_class(app, make_teacher(app))
    given = give(app, room)
    client = guest_joins(app, room)
    _, drill, token = open_question(client, given, 1)
    reply = send(client, drill, token, given, 0, None)
    html = text(reply)
    assert reply.status_code == 200 and "<html" in html and 'data-verdict="shown"' in html
    assert "Question 1 of 3" in html and '<progress class="meter" max="3" value="1"' in html
    again = text(send(client, drill, token, given, 0, None))
    assert NOT_COUNTED in again  # said in the bar, right above the verdict


def test_an_empty_answer_is_asked_again_and_not_stored(app):
    room = make_class(app, make_teacher(app))
    given = give(app, room)
    client = guest_joins(app, room)
    _, drill, token = open_question(client, given, 1)
    reply = send(client, drill, token, given, 0, "  ")
    assert reply.status_code == 422 and "Pick an answer first" in text(reply) and "Question 1 of 3" in text(reply)
    partial = send(client, drill, token, given, 0, "", htmx=True)
    assert partial.status_code == 422 and "<html" not in text(partial)
    assert count(app, AssignmentAnswer) == 0 and count(app, Attempt) == 0


def test_forged_answers_are_refused_and_nothing_is_stored(app):
    room = make_class(app, make_teacher(app))
    given = give(app, room)
    other = give(app, room, FIXED.replace("seed: 4242", "seed: 17").replace("Week one", "Week two"))
    elsewhere = make_class(app, make_teacher(app, "kim@example.org", "Mr Kim"), "Thursday improvers")
    foreign = give(app, elsewhere)
    client = guest_joins(app, room)
    _, drill, token = open_question(client, given, 1)
    _, _, token2 = open_question(client, given, 2)
    _, setup_drill, token3 = open_question(client, given, 3)
    _, _, other_token = open_question(client, other, 1)
    plain = TOKEN.search(client.get("/drills/name-the-tile?level=1&seed=5").get_data(as_text=True)).group(1)
    best, _ = choices(app, drill, token)

    forged = [
        (send(client, drill, token2, given, 0, best), 400),  # another slot's question
        (send(client, drill, other_token, given, 0, best), 400),  # another assignment's question
        (send(client, drill, plain, given, 0, best), 400),  # a question from the drill page
        (send(client, setup_drill, token3, given, 0, None), 400),  # another drill's slot
        (send(client, drill, token3, given, 2, None), 400),  # a token of another drill than the route's
        (send(client, drill, token[:-3] + "abc", given, 0, best), 400),  # an altered token
        (send(client, drill, token, given, 7, best), 400),  # no such slot
        (send(client, drill, token, given, -1, best), 400),
        (send(client, drill, token, "x", 0, best), 400),  # not a number
        (send(client, drill, token, foreign, 0, best), 404),  # another class's assignment
        (send(client, drill, token, 999, 0, best), 404),  # no such assignment
    ]
    for response, status in forged:
        assert response.status_code == status, text(response)
        assert "Traceback" not in text(response)
    assert "not question 1 of this assignment" in text(forged[0][0])
    assert "Thursday improvers" not in text(forged[-2][0])
    assert count(app, AssignmentAnswer) == 0 and count(app, Attempt) == 0


def test_fixed_seeds_give_the_class_the_same_questions_and_fresh_seeds_each_their_own(app):
    room = make_class(app, make_teacher(app))
    fixed, fresh = give(app, room), give(app, room, FRESH)
    ann, bea = guest_joins(app, room, "Ann"), guest_joins(app, room, "Bea")
    fixed_seeds = [[seed_of(app, open_question(c, fixed, n)[2]) for n in (1, 2, 3)] for c in (ann, bea)]
    fresh_seeds = [[seed_of(app, open_question(c, fresh, n)[2]) for n in (1, 2, 3)] for c in (ann, bea)]
    assert fixed_seeds[0] == fixed_seeds[1]
    assert fresh_seeds[0] != fresh_seeds[1] and not set(fresh_seeds[0]) & set(fresh_seeds[1])
    assert fresh_seeds[0] == [seed_of(app, open_question(ann, fresh, n)[2]) for n in (1, 2, 3)]  # hers stay hers
    with db(app) as session:
        works = session.exec(select(AssignmentWork).where(AssignmentWork.assignment_id == fresh)).all()
        assert len(works) == 2 and works[0].seed != works[1].seed


def test_next_moves_on_with_htmx_or_a_plain_post(app):
    room = make_class(app, make_teacher(app))
    given = give(app, room)
    client = guest_joins(app, room)
    step = post(client, f"/assignments/{given}/next", {"after": "0"}, headers=HTMX)
    assert step.status_code == 200 and step.headers["HX-Push-Url"] == f"/assignments/{given}/q/2"
    body = text(step)
    assert "<html" not in body and 'id="assignment-bar"' in body and "Question 2 of 3" in body
    plain = post(client, f"/assignments/{given}/next", {"after": "2"})
    assert plain.status_code == 303 and plain.headers["Location"] == f"/assignments/{given}/q/1"  # round to the start

    answer_question(app, client, given, 2)
    skipped = post(client, f"/assignments/{given}/next", {"after": "1"}, headers=HTMX)
    assert skipped.headers["HX-Push-Url"] == f"/assignments/{given}/q/3"
    junk = post(client, f"/assignments/{given}/next", {"after": "soon"})
    assert junk.headers["Location"] == f"/assignments/{given}/q/1"

    answer_question(app, client, given, 1)
    answer_question(app, client, given, 3)
    done = post(client, f"/assignments/{given}/next", {"after": "2"}, headers=HTMX)
    assert done.status_code == 200 and done.headers["HX-Redirect"] == f"/assignments/{given}"
    plain_done = post(client, f"/assignments/{given}/next", {"after": "2"})
    assert plain_done.status_code == 303 and plain_done.headers["Location"] == f"/assignments/{given}"


def test_an_htmx_answer_returns_the_verdict_with_next_and_the_new_count(app):
    room = make_class(app, make_teacher(app))
    given = give(app, room)
    client = guest_joins(app, room)
    reply = answer_question(app, client, given, 1, htmx=True)
    body = reply.get_data(as_text=True)
    assert reply.status_code == 200 and "<html" not in body and 'id="verdict-card"' in body
    assert f'hx-post="/assignments/{given}/next"' in body and 'name="after" value="0"' in body
    assert 'id="assignment-bar" aria-label="Assignment" hx-swap-oob="true"' in body
    assert '<progress class="meter" max="3" value="1"' in body


def test_reviewing_an_answered_question_shows_its_verdict(app):
    room = make_class(app, make_teacher(app))
    given = give(app, room)
    client = guest_joins(app, room)
    answer_question(app, client, given, 1, right=False)
    page = text(client.get(f"/assignments/{given}/q/1"))
    assert "Not quite" in page and REVIEW in page and 'id="verdict-card"' in page
    assert "is-wrong" in page and "disabled" in page  # the choices show what was picked
    assert "Next question" in page and "Not quite" not in text(client.get(f"/assignments/{given}/q/2"))


# -- the teacher's own card ---------------------------------------------------------------


def test_a_class_answers_on_its_teachers_card_and_nobody_else_can(app):
    teacher = make_teacher(app)
    room = make_class(app, teacher)
    with db(app) as session:
        card = teachers_cards.add_card(session, teacher, CARD)
        key = teachers_cards.card_key(card)
        cards = teachers_cards.card_names(session, teacher)
    given = give(app, room, ON_CARD, cards=cards)
    ann = guest_joins(app, room)
    html, drill, token = open_question(ann, given, 1)
    assert drill == "nearest-hand" and "S-1" in html
    assert "Spring class card" in unescape(html) and key not in unescape(html)  # the card's name, not its number
    reply = send(ann, drill, token, given, 0, "S-2", htmx=True)
    assert reply.status_code == 200 and 'id="verdict-card"' in reply.get_data(as_text=True)
    assert count(app, AssignmentAnswer) == 1

    # A student of another teacher's class has no business with this card.
    elsewhere = make_class(app, make_teacher(app, "kim@example.org", "Mr Kim"), "Thursday improvers")
    give(app, elsewhere)
    zed = guest_joins(app, elsewhere, "Zed")
    stray = post(zed, f"/drills/{drill}/answer", {"token": token, "answer": "S-2"})
    assert stray.status_code == 400 and "cannot use here" in text(stray)
    inside = send(zed, drill, token, given, 0, "S-2")
    assert inside.status_code == 404
    through_api = zed.post(f"/api/drills/{drill}/answers", json={"token": token, "answer": "S-2"})
    assert through_api.status_code == 400 and "cannot use here" in through_api.get_json()["error"]
    assert "S-1" not in through_api.get_data(as_text=True)  # not a word of the card
    assert count(app, AssignmentAnswer) == 1 and count(app, Attempt, learner_id=learner_id(app, zed)) == 0
    # The student of the class may use the API on it too.
    own = ann.post(f"/api/drills/{drill}/answers", json={"token": token, "answer": "S-2"})
    assert own.status_code == 200 and own.get_json()["counted"] is False  # answered once already


# -- the wrong person on every route ------------------------------------------------------


@dataclass
class Scene:
    app: Any
    room: Room
    given: int
    title: str


def _stranger(scene: Scene):
    """A student signed up and in another class, not this one."""
    other = make_class(scene.app, make_teacher(scene.app, "kim@example.org", "Mr Kim"), "Thursday improvers")
    return account_joins(scene.app, other, "stranger@example.org", "Stan")


def _nobody(scene: Scene):
    return scene.app.test_client()  # no cookie at all


def _own_teacher(scene: Scene):
    return teacher_client(scene.app)


def _departed(scene: Scene):
    client = guest_joins(scene.app, scene.room, "Dee")
    assert post(client, f"/classes/{scene.room.class_id}/leave").status_code == 303
    client.get("/classes")  # reads the "You left ..." message, which names the class to its former member
    return client


WRONG_PEOPLE = {"stranger": _stranger, "nobody": _nobody, "teacher": _own_teacher, "left": _departed}


def _my_classes(client, scene: Scene):
    return client.get("/classes"), 200


def _join_page(client, scene: Scene):
    # The link itself is the key to the class: a wrong one shows no class at all.
    return client.get(f"/join/{scene.room.code[::-1]}X"), 404


def _join(client, scene: Scene):
    return post(client, "/join", {"code": "WRONG1", "name": "X"}), 422


def _leave(client, scene: Scene):
    return post(client, f"/classes/{scene.room.class_id}/leave"), 404


def _assignment(client, scene: Scene):
    return client.get(f"/assignments/{scene.given}"), 404


def _question(client, scene: Scene):
    return client.get(f"/assignments/{scene.given}/q/1"), 404


def _next(client, scene: Scene):
    return post(client, f"/assignments/{scene.given}/next", {"after": "0"}, headers=HTMX), 404


WRONG_USER = {
    "classes.my_classes": _my_classes,
    "classes.join_page": _join_page,
    "classes.join": _join,
    "classes.leave": _leave,
    "classes.assignment": _assignment,
    "classes.question": _question,
    "classes.next_question": _next,
}


@pytest.mark.parametrize("who", list(WRONG_PEOPLE))
@pytest.mark.parametrize("endpoint", list(ROUTES))
def test_the_wrong_person_learns_nothing_on_any_route(app, endpoint, who):
    room = make_class(app, make_teacher(app), "Secret Society")
    given = give(app, room, FIXED.replace("Week one: the tiles", "Hidden homework"))
    scene = Scene(app, room, given, "Hidden homework")
    client = WRONG_PEOPLE[who](scene)
    memberships = count(app, Membership, classroom_id=room.class_id)
    response, status = WRONG_USER[endpoint](client, scene)
    body = text(response)
    assert response.status_code == status, body
    assert "Secret Society" not in body and "Hidden homework" not in body
    assert "Traceback" not in body
    assert count(app, Membership, classroom_id=room.class_id) == memberships
    assert count(app, AssignmentWork, assignment_id=scene.given) == 0


@pytest.mark.parametrize("who", list(WRONG_PEOPLE))
def test_the_wrong_person_cannot_answer_an_assignment(app, who):
    room = make_class(app, make_teacher(app), "Secret Society")
    given = give(app, room)
    member = guest_joins(app, room, "Ann")
    _, drill, token = open_question(member, given, 1)
    best, _ = choices(app, drill, token)
    scene = Scene(app, room, given, "Week one: the tiles")
    client = WRONG_PEOPLE[who](scene)
    before = count(app, Attempt)
    response = send(client, drill, token, given, 0, best)
    assert response.status_code == 404 and "Secret Society" not in text(response)
    assert count(app, AssignmentAnswer) == 0 and count(app, Attempt) == before


# -- the pages themselves ---------------------------------------------------------------------


def test_the_class_pages_keep_to_the_content_security_policy(app):
    room = make_class(app, make_teacher(app))
    given = give(app, room)
    client = guest_joins(app, room)
    answer_question(app, client, given, 1)
    urls = ["/classes", f"/join/{room.code}", "/join/NOPE99", f"/assignments/{given}",
            f"/assignments/{given}/q/1", f"/assignments/{given}/q/2"]
    for url in urls:
        response = client.get(url)
        html = response.get_data(as_text=True)
        assert " style=" not in html and not re.search(r"<script(?![^>]*\bsrc=)", html), url
        assert response.headers["Cache-Control"] == "no-store"
        assert html.count("<form") == html.count('name="csrf_token"'), url
        assert html.count("<h1") == 1, url
        for field_id in re.findall(r'<input class="field__input[^"]*" id="([a-z_]+)"', html):
            assert f'for="{field_id}"' in html, (url, field_id)


def test_first_pass_deals_from_the_teachers_card_and_grades_on_it(app):
    """The first-pass drill reads the class's card: its advice names that
    card's lines, never the house card's."""
    teacher = make_teacher(app)
    room = make_class(app, teacher)
    with db(app) as session:
        card_row = teachers_cards.add_card(session, teacher, CARD)
        cards = teachers_cards.card_names(session, teacher)
        key = teachers_cards.card_key(card_row)
    source = ON_CARD.replace("drill: nearest-hand", "drill: first-pass").replace("questions: 2", "questions: 1")
    given = give(app, room, source, cards=cards)
    ann = guest_joins(app, room)
    html, drill, token = open_question(ann, given, 1)
    assert drill == "first-pass"
    reply = send(ann, drill, token, given, 0, None, htmx=True)  # "show me": the coach's best pass
    assert reply.status_code == 200
    with db(app) as session:
        answer = session.exec(select(AssignmentAnswer)).one()
        class_card = teachers_cards.parsed_card(session.get(TeacherCard, card_row.id))
    assert answer.drill == "first-pass" and answer.correct is False and class_card.name == key
    # The stored explanation is the one the class card gives, not the house card's.
    on_class_card = first_pass.grade(first_pass.generate(answer.seed, 1, class_card), None)
    on_house_card = first_pass.grade(first_pass.generate(answer.seed, 1, house_card()), None)
    assert json.loads(answer.explanation) == list(on_class_card.explanation)
    assert on_class_card.explanation != on_house_card.explanation
    body = unescape(reply.get_data(as_text=True))
    assert on_class_card.headline in body and all(line in body for line in on_class_card.reasons)
