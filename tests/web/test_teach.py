"""The teacher's pages (issue 6): classes and join codes, drill sets
(builder, YAML import and export, samples), teachers' cards, assigning,
the dashboard and its CSV, and per-question statistics.

Teachers and students sign up through the real /signup form with CSRF
tokens. Students' answers go in through coach.store.teaching with real
questions and verdicts from the drills, so these tests do not depend on
the student pages.

Authorization is checked route by route from one table (ROUTES), which a
test compares with the app's url_map: a new teach route without a row
fails. Every refused request must leave the database exactly as it was.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlmodel import select

import drills
from coach.store.models import (
    Assignment,
    AssignmentAnswer,
    ClassHand,
    Classroom,
    ClassRound,
    DrillSetRow,
    GameTable,
    Learner,
    Membership,
    TeacherCard,
)
from coach.store.teaching import classrooms, dashboards, drill_sets
from coach.web import create_app
from drills.sets import HOUSE, SetError, parse_set, sample_sets
from tests.support.app import TEST_SECRET
from tests.support.teaching import (
    BROKEN_CARD,
    GOOD_CARD,
    PAIRS_CARD,
    answer_slots,
    assign,
    card_id_named,
    code_of,
    count,
    csrf,
    db,
    guest,
    join,
    last_assignment,
    learner_id,
    make_class,
    make_set,
    post,
    set_form,
    sign_up,
    snapshot,
    text_of,
    upload_card,
)

BROKEN_SET = """set: "Broken"
seeds: sometimes
drills:
  - drill: name-the-tile
    level: 9
    questions: 3
  - drill: no-such-drill
"""


# -- helpers ------------------------------------------------------------------------------


# -- becoming a teacher -------------------------------------------------------------------


def test_a_visitor_is_sent_to_sign_up_and_comes_back_to_teach(client):
    response = client.get("/teach")
    assert response.status_code == 302
    assert response.headers["Location"] == "/signup?next=/teach"


def test_a_guest_is_sent_to_sign_up_and_cannot_start_teaching(app):
    browser = guest(app)
    assert browser.get("/teach").headers["Location"] == "/signup?next=/teach"
    before = snapshot(app)
    assert post(browser, "/teach/start").status_code == 403
    assert snapshot(app) == before


def test_a_learner_starts_teaching_with_one_button(app):
    ann = sign_up(app, "ann@example.org", teacher=False)
    page = text_of(ann.get("/teach"))
    assert "Start teaching" in page and 'action="/teach/start"' in page
    assert 'href="/teach"' not in page  # no "Teach" in the menu yet
    response = post(ann, "/teach/start")
    assert response.status_code == 303 and response.headers["Location"] == "/teach"
    with db(app) as session:
        assert session.get(Learner, learner_id(app, "ann@example.org")).role == "teacher"
    page = text_of(ann.get("/teach"))
    assert "Teaching is on." in page and "Your classes" in page
    assert re.search(r'<a href="/teach" aria-current="page">Teach</a>', page)


def test_a_new_teacher_sees_the_three_steps(app):
    tess = sign_up(app, "tess@example.org")
    page = text_of(tess.get("/teach"))
    assert "Three steps to your first lesson" in page
    assert "Upload your card" in page and "Build a drill set, or pick a sample" in page and "Make a class and assign the set" in page
    assert 'href="/teach/sets"' in page and 'href="/teach/cards"' in page
    assert "No classes yet." in page


# -- classes ------------------------------------------------------------------------------


def test_a_new_class_gets_a_six_character_code_and_a_join_link(app):
    tess = sign_up(app, "tess@example.org")
    class_id = make_class(tess, "  Tuesday   beginners ")
    code = code_of(app, class_id)
    assert re.fullmatch(r"[A-HJ-NP-Z2-9]{6}", code)
    page = text_of(tess.get(f"/teach/classes/{class_id}"))
    assert "“Tuesday beginners” is ready. Give your students the code " + code in page
    assert f'<p class="join-code"><span aria-hidden="true">{code}</span><span class="visually-hidden">{" ".join(code)}</span></p>' in page
    assert f'value="http://localhost/join/{code}" readonly' in page and '<label class="field__label" for="join-link">Join link</label>' in page
    assert "No students yet: share the code" in page and "No assignments yet." in page
    home = text_of(tess.get("/teach"))
    assert "Tuesday beginners" in home and code in home and "0 students" in home
    assert "Three steps" not in home


def test_a_class_needs_a_name(app):
    tess = sign_up(app, "tess@example.org")
    response = post(tess, "/teach/classes", {"name": "   "})
    assert response.status_code == 422
    assert "Give the class a name, such as “Tuesday beginners”." in text_of(response)
    assert count(app, Classroom) == 0


def test_a_new_code_replaces_the_old_one_and_students_stay(app):
    tess = sign_up(app, "tess@example.org")
    sign_up(app, "sam@example.org", teacher=False, name="Sam")
    class_id = make_class(tess)
    join(app, "sam@example.org", class_id)
    old = code_of(app, class_id)
    response = post(tess, f"/teach/classes/{class_id}/code")
    assert response.status_code == 303
    new = code_of(app, class_id)
    assert new != old and len(new) == 6
    with db(app) as session:
        assert classrooms.class_by_code(session, old) is None
        assert len(classrooms.students(session, class_id)) == 1
    page = text_of(tess.get(f"/teach/classes/{class_id}"))
    assert f"The new code is {new}. The old code and link no longer work" in page


def test_rename_a_class_and_an_empty_name_is_refused(app):
    tess = sign_up(app, "tess@example.org")
    class_id = make_class(tess)
    response = post(tess, f"/teach/classes/{class_id}/rename", {"name": "Thursday improvers"})
    assert response.status_code == 303
    assert "The class is now called “Thursday improvers”." in text_of(tess.get(f"/teach/classes/{class_id}"))
    response = post(tess, f"/teach/classes/{class_id}/rename", {"name": ""})
    assert response.status_code == 422
    assert "Give the class a name" in text_of(response)
    with db(app) as session:
        assert session.get(Classroom, class_id).name == "Thursday improvers"


def test_delete_a_class_after_a_confirm_page(app):
    tess = sign_up(app, "tess@example.org")
    sign_up(app, "sam@example.org", teacher=False)
    class_id = make_class(tess)
    join(app, "sam@example.org", class_id)
    assert assign(tess, class_id, "sample:1").status_code == 303
    confirm = tess.get(f"/teach/classes/{class_id}/delete")
    page = text_of(confirm)
    assert confirm.status_code == 200 and "Delete “Tuesday beginners”?" in page
    assert "1 assignment" in page and "1 student" in page
    assert count(app, Classroom) == 1  # looking is not deleting
    response = post(tess, f"/teach/classes/{class_id}/delete")
    assert response.status_code == 303 and response.headers["Location"] == "/teach"
    assert "Deleted the class “Tuesday beginners”." in text_of(tess.get("/teach"))
    assert count(app, Classroom) == 0 and count(app, Membership) == 0 and count(app, Assignment) == 0


def test_remove_a_student(app):
    tess = sign_up(app, "tess@example.org")
    sign_up(app, "sam@example.org", teacher=False, name="Sam Lee")
    class_id = make_class(tess)
    sam = join(app, "sam@example.org", class_id)
    page = text_of(tess.get(f"/teach/classes/{class_id}"))
    assert "Sam Lee" in page and f'href="/teach/classes/{class_id}/students/{sam}/remove"' in page
    # One click shows a confirm page and removes nobody.
    confirm = tess.get(f"/teach/classes/{class_id}/students/{sam}/remove")
    assert confirm.status_code == 200 and "Remove Sam Lee from Tuesday beginners?" in text_of(confirm)
    assert f'action="/teach/classes/{class_id}/students/{sam}/remove"' in text_of(confirm)
    assert count(app, Membership) == 1
    response = post(tess, f"/teach/classes/{class_id}/students/{sam}/remove")
    assert response.status_code == 303
    assert "Removed Sam Lee from “Tuesday beginners”." in text_of(tess.get(f"/teach/classes/{class_id}"))
    assert count(app, Membership) == 0
    # Not in the class (any more): the same 404 as a stranger's id.
    assert post(tess, f"/teach/classes/{class_id}/students/{sam}/remove").status_code == 404


def test_a_missing_class_set_card_or_assignment_is_a_404(app):
    tess = sign_up(app, "tess@example.org")
    for url in ("/teach/classes/999", "/teach/sets/999", "/teach/cards/999", "/teach/assignments/999", "/teach/samples/4.yaml", "/teach/samples/0.yaml"):
        assert tess.get(url).status_code == 404, url


# -- assigning ------------------------------------------------------------------------------


def test_assign_a_sample_without_and_with_a_due_date(app):
    tess = sign_up(app, "tess@example.org", time_zone="America/New_York")
    class_id = make_class(tess)
    first = sample_sets()[0]

    response = assign(tess, class_id, "sample:1")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/teach/classes/{class_id}#assignments")
    given = last_assignment(app)
    assert given.title == first.title and given.due_at is None and given.card_id is None
    assert drill_sets.drill_set_of(given) == first
    page = text_of(tess.get(f"/teach/classes/{class_id}"))
    assert f"Assigned “{first.title}” to Tuesday beginners, with no due date." in page
    assert "no due date" in page and f"{first.total} questions" in page and "No students yet" in page

    zone = ZoneInfo("America/New_York")
    day = datetime.now(zone).date() + timedelta(days=3)
    response = assign(tess, class_id, "sample:2", due=day.isoformat())
    assert response.status_code == 303
    given = last_assignment(app)
    due = given.due_at
    assert due == datetime.combine(day, time(23, 59, 59), tzinfo=zone).astimezone(UTC)
    shown = f"{day:%a} {day.day} {day:%b}" + ("" if day.year == datetime.now(zone).year else f" {day.year}")
    page = text_of(tess.get(f"/teach/classes/{class_id}"))
    assert f", due {shown}." in page and f"due {shown}" in page


@pytest.mark.parametrize(
    ("due", "message"),
    [
        ("31/12/2030", "“31/12/2030” is not a date."),
        ("2001-01-01", "That day has passed."),
        ("2999-01-01", "That day is more than two years away."),
    ],
)
def test_a_bad_due_date_is_refused(app, due, message):
    tess = sign_up(app, "tess@example.org")
    class_id = make_class(tess)
    response = assign(tess, class_id, "sample:1", due=due)
    assert response.status_code == 422
    page = text_of(response)
    assert message in page and 'id="due-error"' in page and 'aria-invalid="true"' in page
    assert f'value="{due}"' in page  # what was typed stays to be fixed
    assert count(app, Assignment) == 0


@pytest.mark.parametrize("choice", ["", "sample:9", "set:999", "nonsense", "set:abc"])
def test_assigning_a_set_that_is_not_there_is_refused(app, choice):
    tess = sign_up(app, "tess@example.org")
    class_id = make_class(tess)
    response = assign(tess, class_id, choice)
    assert response.status_code == 422
    assert 'id="set-error"' in text_of(response)
    assert count(app, Assignment) == 0


def test_a_teacher_cannot_assign_another_teachers_set(app):
    tess = sign_up(app, "tess@example.org")
    other = sign_up(app, "olga@example.org")
    theirs = make_set(other, app, "Olga's set", [("jokers", "1", "2")])
    class_id = make_class(tess)
    response = assign(tess, class_id, f"set:{theirs}")
    assert response.status_code == 422
    assert "That is not one of your drill sets." in text_of(response) and "Olga's set" not in text_of(response)
    assert count(app, Assignment) == 0


def test_assign_the_teachers_own_set(app):
    tess = sign_up(app, "tess@example.org")
    class_id = make_class(tess)
    set_id = make_set(tess, app, "Jokers week", [("jokers", "2", "4")])
    page = text_of(tess.get(f"/teach/classes/{class_id}"))
    assert f'<option value="set:{set_id}">Jokers week</option>' in page
    assert '<optgroup label="Samples">' in page and '<option value="sample:3">' in page
    assert assign(tess, class_id, f"set:{set_id}").status_code == 303
    given = last_assignment(app)
    assert given.title == "Jokers week" and drill_sets.drill_set_of(given).items[0].level == 2


# -- drill sets: the builder ---------------------------------------------------------------


def test_the_builder_adds_and_removes_rows_without_saving(app):
    tess = sign_up(app, "tess@example.org")
    page = text_of(tess.get("/teach/sets/new"))
    assert page.count('class="set-row"') == 1 and "Add a drill" in page
    response = post(tess, "/teach/sets/new", set_form("Week 1", [("jokers", "2", "3")], add="1"))
    assert response.status_code == 200
    page = text_of(response)
    assert page.count('class="set-row"') == 2
    assert '<option value="jokers" selected>' in page and 'id="drill-1"' in page and "autofocus" in page
    assert 'value="Week 1"' in page
    response = post(tess, "/teach/sets/new", set_form("Week 1", [("jokers", "2", "3"), ("payment", "1", "4")], remove="0"))
    page = text_of(response)
    assert response.status_code == 200 and page.count('class="set-row"') == 1
    assert '<option value="payment" selected>' in page and '<option value="jokers" selected>' not in page
    assert count(app, DrillSetRow) == 0


def test_the_builder_names_each_problem_by_row_and_field(app):
    tess = sign_up(app, "tess@example.org")
    rows = [("jokers", "1", "3"), ("jokers", "9", "3"), ("", "1", "0")]
    response = post(tess, "/teach/sets/new", set_form("", rows, seeds="often"))
    assert response.status_code == 422
    page = text_of(response)
    for message, target in (
        ("title: is missing (a title of 1 to 80 characters)", "title"),
        ('seeds: must be fixed or fresh, not "often"', "seeds-fixed"),
        ('row 2, level: must be a whole number from 1 to 4 for Jokers: where and when, not "9"', "level-1"),
        ("row 3, drill: is missing", "drill-2"),
        ('row 3, questions: must be a whole number from 1 to 20, not "0"', "questions-2"),
    ):
        assert re.search(rf'<li><a href="#{target}">{re.escape(message)}', page), message
        assert f'id="{target}-error"' in page
    assert count(app, DrillSetRow) == 0


def test_save_edit_and_delete_a_set(app):
    tess = sign_up(app, "tess@example.org")
    set_id = make_set(tess, app, "Week 1", [("name-the-tile", "1", "3"), ("jokers", "2", "2")], seed="42")
    listing = text_of(tess.get("/teach/sets"))
    assert "Saved “Week 1”." in listing and "2 drills · 5 questions" in listing
    with db(app) as session:
        saved = drill_sets.drill_set_of(session.get(DrillSetRow, set_id))
    assert saved.seed == 42 and [(i.drill, i.level, i.questions) for i in saved.items] == [("name-the-tile", 1, 3), ("jokers", 2, 2)]

    page = text_of(tess.get(f"/teach/sets/{set_id}"))
    assert 'value="Week 1"' in page and 'value="42"' in page and page.count('class="set-row"') == 2
    assert '<option value="2" selected>2 · ' in page  # the jokers row's level, by name

    response = post(tess, f"/teach/sets/{set_id}", set_form("Week 1, again", [("payment", "3", "6")], seeds="fresh", seed="42"))
    assert response.status_code == 303
    with db(app) as session:
        row = session.get(DrillSetRow, set_id)
        edited = drill_sets.drill_set_of(row)
    assert row.title == "Week 1, again" and edited.seeds == "fresh" and edited.items[0].drill == "payment"
    assert count(app, DrillSetRow) == 1

    assert "Delete the set “Week 1, again”?" in text_of(tess.get(f"/teach/sets/{set_id}/delete"))
    response = post(tess, f"/teach/sets/{set_id}/delete")
    assert response.status_code == 303 and response.headers["Location"] == "/teach/sets"
    assert count(app, DrillSetRow) == 0
    assert "You have no sets of your own yet." in text_of(tess.get("/teach/sets"))


def test_a_deleted_set_leaves_its_assignments_alone(app):
    tess = sign_up(app, "tess@example.org")
    class_id = make_class(tess)
    set_id = make_set(tess, app, "Week 1", [("jokers", "1", "2")])
    assign(tess, class_id, f"set:{set_id}")
    post(tess, f"/teach/sets/{set_id}/delete")
    assert count(app, DrillSetRow) == 0 and count(app, Assignment) == 1


def test_the_level_choices_follow_the_drill(app):
    tess = sign_up(app, "tess@example.org")
    response = tess.get("/teach/sets/levels?row=3&drill=payment&level=2", headers={"HX-Request": "true"})
    assert response.status_code == 200
    body = text_of(response)
    assert body.lstrip().startswith('<select class="field__input" id="level-3" name="level"')
    titles = [lv.title for lv in drills.DRILLS["payment"].LEVELS]
    assert all(f"· {title}</option>" in body for title in titles) and '<option value="2" selected>' in body
    assert tess.get("/teach/sets/levels?row=99&drill=payment").status_code == 404


def test_the_samples_are_listed_previewed_and_copied(app):
    tess = sign_up(app, "tess@example.org")
    page = text_of(tess.get("/teach/sets"))
    for n, s in enumerate(sample_sets(), start=1):
        assert s.title in page and f'href="/teach/samples/{n}.yaml"' in page and f'action="/teach/samples/{n}/copy"' in page
    assert page.count("<summary>Preview") == 3  # no sets of their own yet: the samples' previews
    response = tess.get("/teach/samples/1.yaml")
    assert response.status_code == 200 and response.mimetype == "text/yaml"
    assert response.headers["Content-Disposition"] == 'attachment; filename="first-lesson.yaml"'
    assert parse_set(response.get_data(as_text=True)) == sample_sets()[0]
    response = post(tess, "/teach/samples/2/copy")
    assert response.status_code == 303
    with db(app) as session:
        (row,) = session.exec(select(DrillSetRow)).all()
        assert drill_sets.drill_set_of(row) == sample_sets()[1]
    assert response.headers["Location"] == f"/teach/sets/{row.id}"


# -- drill sets: YAML ------------------------------------------------------------------------


def test_export_then_import_gives_the_same_set(app):
    tess = sign_up(app, "tess@example.org")
    set_id = make_set(tess, app, "Tiles & turns: week 2", [("name-the-tile", "2", "4"), ("setup-and-turns", "3", "2")], seeds="fresh")
    response = tess.get(f"/teach/sets/{set_id}.yaml")
    assert response.status_code == 200 and response.mimetype == "text/yaml"
    assert response.headers["Content-Disposition"] == 'attachment; filename="tiles-turns-week-2.yaml"'
    exported = response.get_data(as_text=True)
    assert exported.startswith("# Mahjong Coach drill set\n")

    data = {"csrf_token": csrf(tess), "set_file": (io.BytesIO(exported.encode()), "week-2.yaml"), "set_text": ""}
    response = tess.post("/teach/sets/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 303
    with db(app) as session:
        first, second = session.exec(select(DrillSetRow).order_by(DrillSetRow.id)).all()  # type: ignore[arg-type]
        assert drill_sets.drill_set_of(second) == drill_sets.drill_set_of(first)
    assert response.headers["Location"] == f"/teach/sets/{second.id}"
    assert "Imported “Tiles & turns: week 2”." in text_of(tess.get(response.headers["Location"]))


def test_import_by_pasting_text(app):
    tess = sign_up(app, "tess@example.org")
    text = "set: Pasted\ndrills:\n  - drill: payment\n    level: 2\n    questions: 3\n"
    response = post(tess, "/teach/sets/import", {"set_text": text})
    assert response.status_code == 303
    with db(app) as session:
        (row,) = session.exec(select(DrillSetRow)).all()
        assert row.title == "Pasted" and drill_sets.drill_set_of(row).items[0].drill == "payment"


def test_a_broken_file_lists_every_problem_by_line_and_field_and_saves_nothing(app):
    tess = sign_up(app, "tess@example.org")
    with pytest.raises(SetError) as caught:
        parse_set(BROKEN_SET, cards=[HOUSE])
    expected = caught.value.problems
    assert len(expected) == 3
    data = {"csrf_token": csrf(tess), "set_file": (io.BytesIO(BROKEN_SET.encode()), "broken.yaml")}
    response = tess.post("/teach/sets/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 422
    page = text_of(response)
    listed = re.findall(r'<ul class="teach-problems__list">(.*?)</ul>', page, re.S)[0]
    assert re.findall(r"<li>(.*?)</li>", listed) == expected
    assert 'line 2, "seeds"' in listed and 'line 5, drills item 1, "level"' in listed and 'line 7, drills item 2, "drill"' in listed
    assert "The set was not imported: fix these 3 things" in page
    assert count(app, DrillSetRow) == 0


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"set_text": "   "}, "Choose a file, or paste its text into the box."),
        ({"set_file": (io.BytesIO(b"\xff\xfe\x00bad"), "bad.yaml")}, "“bad.yaml” is not a text file in UTF-8."),
        ({"set_text": "set: [unclosed"}, "line 1"),
    ],
)
def test_an_import_with_nothing_usable_says_why(app, data, message):
    tess = sign_up(app, "tess@example.org")
    response = tess.post("/teach/sets/import", data={"csrf_token": csrf(tess), **data}, content_type="multipart/form-data")
    assert response.status_code == 422 and message in text_of(response)
    assert count(app, DrillSetRow) == 0


# -- cards -----------------------------------------------------------------------------------


def test_upload_a_card_and_see_its_lines(app):
    tess = sign_up(app, "tess@example.org")
    response = upload_card(tess, GOOD_CARD, "spring.yaml")
    assert response.status_code == 303
    card_id = card_id_named(app, "Spring class")
    assert response.headers["Location"] == f"/teach/cards/{card_id}"
    page = text_of(tess.get(f"/teach/cards/{card_id}"))
    assert "Uploaded “Spring class” with 2 lines." in page
    assert "Evens" in page and "E-1" in page and "E-2" in page and "One suit" in page and "Any 3 suits" in page
    assert '<span class="pattern__token suit-a"><span aria-hidden="true">222</span>' in page
    listing = text_of(tess.get("/teach/cards"))
    assert "Spring class" in listing and "2 lines" in listing and "Not used by any set yet" in listing


def test_upload_a_card_by_pasting(app):
    tess = sign_up(app, "tess@example.org")
    response = post(tess, "/teach/cards", {"card_text": GOOD_CARD})
    assert response.status_code == 303 and count(app, TeacherCard) == 1


def test_a_broken_card_lists_every_problem_with_its_line_and_is_not_stored(app):
    tess = sign_up(app, "tess@example.org")
    response = upload_card(tess, BROKEN_CARD, "broken.yaml")
    assert response.status_code == 422
    page = text_of(response)
    listed = re.findall(r'<ul class="teach-problems__list">(.*?)</ul>', page, re.S)[0]
    assert re.findall(r"<li>(.*?)</li>", listed) == [
        'broken.yaml, line 6, section "Evens", hand "E-1": pattern "222a 444a 6666a" has 10 tiles, not 14',
        'broken.yaml, line 10, section "Evens", hand "E-2": "value" must be a positive whole number, not -3',
    ]
    assert "The card was not saved: fix these 2 things" in page
    assert count(app, TeacherCard) == 0


def test_a_second_card_with_the_same_name_is_refused(app):
    tess = sign_up(app, "tess@example.org")
    upload_card(tess, GOOD_CARD)
    response = upload_card(tess, GOOD_CARD)
    assert response.status_code == 422
    assert "You already have a card named “Spring class”." in text_of(response)
    assert count(app, TeacherCard) == 1


def test_a_set_on_the_teachers_card_and_a_card_in_use_cannot_be_deleted(app):
    tess = sign_up(app, "tess@example.org")
    upload_card(tess, GOOD_CARD)
    card_id = card_id_named(app, "Spring class")
    page = text_of(tess.get("/teach/sets/new"))
    assert '<option value="Spring class">Spring class</option>' in page
    set_id = make_set(tess, app, "On my card", [("nearest-hand", "1", "3")], card="Spring class")
    with db(app) as session:
        assert session.get(DrillSetRow, set_id).card_id == card_id
    listing = text_of(tess.get("/teach/cards"))
    assert "Used by the set “On my card”" in listing

    confirm = text_of(tess.get(f"/teach/cards/{card_id}/delete"))
    assert "This card is still used by:" in confirm and "Delete the card</button>" not in confirm
    response = post(tess, f"/teach/cards/{card_id}/delete")
    assert response.status_code == 422
    assert "“Spring class” is still used by the set “On my card”. Delete those first." in text_of(response)
    assert count(app, TeacherCard) == 1

    post(tess, f"/teach/sets/{set_id}/delete")
    response = post(tess, f"/teach/cards/{card_id}/delete")
    assert response.status_code == 303 and response.headers["Location"] == "/teach/cards"
    assert count(app, TeacherCard) == 0


def test_a_set_whose_drill_cannot_use_the_card_is_refused(app):
    tess = sign_up(app, "tess@example.org")
    upload_card(tess, PAIRS_CARD)
    rows = [("name-the-tile", "1", "2"), ("hot-or-safe", "1", "2")]
    response = post(tess, "/teach/sets/new", set_form("Pairs", rows, card="Pairs only"))
    assert response.status_code == 422
    page = text_of(response)
    assert re.search(r'<li><a href="#drill-1">row 2, drill: Hot or safe\? cannot make a level-1 question from the card "Pairs only', page)
    assert "row 1" not in page
    text = 'set: Pairs\ncard: "Pairs only"\ndrills:\n  - drill: hot-or-safe\n    level: 1\n'
    response = post(tess, "/teach/sets/import", {"set_text": text})
    assert response.status_code == 422
    assert 'drills item 1, "drill": Hot or safe? cannot make a level-1 question' in text_of(response)
    assert count(app, DrillSetRow) == 0


def test_a_set_cannot_name_another_teachers_card(app):
    tess = sign_up(app, "tess@example.org")
    other = sign_up(app, "olga@example.org")
    upload_card(other, GOOD_CARD)
    response = post(tess, "/teach/sets/new", set_form("Borrowed", [("jokers", "1", "2")], card="Spring class"))
    assert response.status_code == 422
    assert 'card: "Spring class" is not one of your cards (you have: house)' in text_of(response)
    text = 'set: Borrowed\ncard: "Spring class"\ndrills:\n  - drill: jokers\n'
    response = post(tess, "/teach/sets/import", {"set_text": text})
    assert response.status_code == 422 and 'line 2, "card": "Spring class" is not one of your cards' in text_of(response)
    assert count(app, DrillSetRow) == 0


# -- the dashboard, the CSV and the questions --------------------------------------------------


@pytest.fixture
def taught(app):
    """A class with three students and an assignment of four name-the-tile questions."""
    tess = sign_up(app, "tess@example.org", name="Tess")
    class_id = make_class(tess, "Tuesday beginners")
    students = {}
    for email, name in (("ann@example.org", "Ann"), ("bob@example.org", "Bob"), ("cy@example.org", "=Cy")):
        sign_up(app, email, teacher=False, name=name)
        students[name] = join(app, email, class_id)
    set_id = make_set(tess, app, "Tiles", [("name-the-tile", "1", "4")], seed="7")
    assign(tess, class_id, f"set:{set_id}")
    return tess, class_id, last_assignment(app).id, students


def test_dashboard_and_csv_after_students_answer(app, taught):
    tess, class_id, assignment_id, students = taught
    answer_slots(app, assignment_id, students["Ann"], [True, True, True, False])  # turned in, 75%
    answer_slots(app, assignment_id, students["Bob"], [True, False])  # in progress, 50%
    page = text_of(tess.get(f"/teach/classes/{class_id}/dashboard"))
    rows = {
        name: re.search(rf"<th scope=\"row\"><a href=\"[^\"]+\">{re.escape(name)}</a></th>(.*?)</tr>", page, re.S).group(1)
        for name in ("Ann", "Bob", "=Cy")
    }
    assert "Turned in" in rows["Ann"] and "4 of 4 done" in rows["Ann"] and "75% right" in rows["Ann"]
    assert "In progress" in rows["Bob"] and "2 of 4 done" in rows["Bob"] and "50% right" in rows["Bob"]
    assert "Assigned" in rows["=Cy"] and "0 of 4 done" in rows["=Cy"]
    assert f'href="/teach/assignments/{assignment_id}"' in page
    assert "1 of 3 has not started:" in page and "<li>=Cy</li>" in page
    assert 'href="/teach/classes/%d/dashboard.csv"' % class_id in page
    assert re.search(r'<div class="teach-table" role="region" aria-labelledby="board-title" tabindex="0">', page)

    class_page = text_of(tess.get(f"/teach/classes/{class_id}"))
    assert "1 of 3 turned in" in class_page

    response = tess.get(f"/teach/classes/{class_id}/dashboard.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"] == 'attachment; filename="tuesday-beginners-results.csv"'
    table = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    by_name = {row["student"]: row for row in table}
    assert set(by_name) == {"Ann", "Bob", "'=Cy"}  # a formula-looking name is quoted
    assert by_name["Ann"]["state"] == "turned in" and by_name["Ann"]["answered"] == "4" and by_name["Ann"]["correct"] == "3"
    assert by_name["Ann"]["completion_percent"] == "100" and by_name["Ann"]["accuracy_percent"] == "75"
    assert by_name["Bob"]["state"] == "in progress" and by_name["Bob"]["completion_percent"] == "50" and by_name["Bob"]["accuracy_percent"] == "50"
    assert by_name["'=Cy"]["state"] == "assigned" and by_name["'=Cy"]["accuracy_percent"] == ""
    assert {row["assignment"] for row in table} == {"Tiles"}


def test_the_assignment_page_counts_right_answers_and_explains_the_wrong_ones(app, taught):
    tess, class_id, assignment_id, students = taught
    answer_slots(app, assignment_id, students["Ann"], [True, False])
    answer_slots(app, assignment_id, students["Bob"], [True, False])
    with db(app) as session:
        given = session.get(Assignment, assignment_id)
        stats = dashboards.question_stats(session, given)
    page = text_of(tess.get(f"/teach/assignments/{assignment_id}"))
    assert page.count('class="card q-stat"') == 4
    assert "Question 1" in page and "Name the tile" in page and "Level 1: " in page
    assert "<strong>2 of 2</strong> right" in page and "<strong>0 of 2</strong> right" in page and "No answers yet" in page
    assert '<progress class="q-stat__bar" max="2" value="0"' in page
    wrong = stats[1].wrong[0]
    assert wrong.count == 2 and wrong.explanation
    assert f'<span class="wrong__text">{wrong.text}</span> <span class="badge badge--weak">2 students</span>' in page
    for line in wrong.explanation:
        assert f"<li>{line}</li>" in page
    assert "Each student had their own question" not in page
    assert "See the question" in page  # same questions for all, on the house card


def test_a_fresh_seed_assignment_says_each_student_had_their_own_question(app):
    tess = sign_up(app, "tess@example.org")
    class_id = make_class(tess)
    set_id = make_set(tess, app, "Fresh", [("jokers", "1", "2")], seeds="fresh")
    assign(tess, class_id, f"set:{set_id}")
    page = text_of(tess.get(f"/teach/assignments/{last_assignment(app).id}"))
    assert "Each student had their own question at each number (fresh seeds)" in page
    assert "See the question (an example)" in page
    preview = text_of(tess.get(f"/teach/assignments/{last_assignment(app).id}/q/1"))
    assert "Each student gets their own question at this number" in preview


def test_the_teacher_previews_each_question_on_the_class_card_with_the_answer(world):
    """The preview deals from the class's card and shows the coach's answer,
    stepping through the questions; past the last one is a 404."""
    assignment_id = world.ids["assignment_id"]
    first = world.owner.get(f"/teach/assignments/{assignment_id}/q/1")
    page = text_of(first)
    assert first.status_code == 200
    assert 'The card <span class="muted small">Spring class</span>' in page  # the class's card, by its name
    assert 'data-verdict="shown"' in page and "not counted for the class" in page
    assert "verdict__score" not in page  # a preview is not an answer: no "Score 0%"
    assert f"/teach/assignments/{assignment_id}/q/2" in page
    last = text_of(world.owner.get(f"/teach/assignments/{assignment_id}/q/2"))
    assert "Back to the results" in last
    assert world.owner.get(f"/teach/assignments/{assignment_id}/q/3").status_code == 404
    assert world.owner.get(f"/teach/assignments/{assignment_id}/q/0").status_code == 404


def test_delete_an_assignment_after_a_confirm_page(app, taught):
    tess, class_id, assignment_id, students = taught
    answer_slots(app, assignment_id, students["Ann"], [True])
    page = text_of(tess.get(f"/teach/assignments/{assignment_id}/delete"))
    assert "Delete “Tiles” from Tuesday beginners?" in page and "1 student has" in page
    response = post(tess, f"/teach/assignments/{assignment_id}/delete")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/teach/classes/{class_id}#assignments")
    assert count(app, Assignment) == 0 and count(app, AssignmentAnswer) == 0


def test_the_dashboard_empty_states(app):
    tess = sign_up(app, "tess@example.org")
    class_id = make_class(tess)
    page = text_of(tess.get(f"/teach/classes/{class_id}/dashboard"))
    assert "No students yet" in page and f"Share the code <strong class=\"code-chip\">{code_of(app, class_id)}</strong>" in page
    assert "No assignments yet" in page and "Download CSV" not in page
    response = tess.get(f"/teach/classes/{class_id}/dashboard.csv")
    assert response.get_data(as_text=True).splitlines() == [",".join(dashboards.CSV_COLUMNS)]


# -- authorization: every route, every wrong person ---------------------------------------------


@dataclass(frozen=True)
class Route:
    endpoint: str
    method: str
    url: str  # with {class_id}, {set_id}, {card_id}, {assignment_id}, {student_id}
    data: dict[str, Any]

    @property
    def owned(self) -> bool:
        """Does the URL name one of the first teacher's things?"""
        return "{" in self.url


SET_TEXT = "set: Taken\ndrills:\n  - drill: jokers\n"
ROUTES = [
    Route("teach.home", "GET", "/teach", {}),
    Route("teach.start", "POST", "/teach/start", {}),
    Route("teach.create_class", "POST", "/teach/classes", {"name": "Taken over"}),
    Route("teach.class_page", "GET", "/teach/classes/{class_id}", {}),
    Route("teach.rename_class", "POST", "/teach/classes/{class_id}/rename", {"name": "Taken over"}),
    Route("teach.new_code", "POST", "/teach/classes/{class_id}/code", {}),
    Route("teach.delete_class", "GET", "/teach/classes/{class_id}/delete", {}),
    Route("teach.delete_class", "POST", "/teach/classes/{class_id}/delete", {}),
    Route("teach.remove_student", "GET", "/teach/classes/{class_id}/students/{student_id}/remove", {}),
    Route("teach.remove_student", "POST", "/teach/classes/{class_id}/students/{student_id}/remove", {}),
    Route("teach.student_page", "GET", "/teach/classes/{class_id}/students/{student_id}", {}),
    Route("teach.assign", "POST", "/teach/classes/{class_id}/assign", {"set": "sample:1", "due": ""}),
    Route("teach.dashboard", "GET", "/teach/classes/{class_id}/dashboard", {}),
    Route("teach.dashboard_csv", "GET", "/teach/classes/{class_id}/dashboard.csv", {}),
    Route("teach.assignment_page", "GET", "/teach/assignments/{assignment_id}", {}),
    Route("teach.preview_question", "GET", "/teach/assignments/{assignment_id}/q/1", {}),
    Route("teach.change_due", "POST", "/teach/assignments/{assignment_id}/due", {"due": ""}),
    Route("teach.assignment_worksheet", "GET", "/teach/assignments/{assignment_id}/worksheet", {}),
    Route("teach.set_worksheet", "GET", "/teach/sets/{set_id}/worksheet", {}),
    Route("teach.delete_assignment", "GET", "/teach/assignments/{assignment_id}/delete", {}),
    Route("teach.delete_assignment", "POST", "/teach/assignments/{assignment_id}/delete", {}),
    Route("teach.sets", "GET", "/teach/sets", {}),
    Route("teach.new_set", "GET", "/teach/sets/new", {}),
    Route("teach.new_set", "POST", "/teach/sets/new", set_form("Taken", [("jokers", "1", "2")])),
    Route("teach.edit_set", "GET", "/teach/sets/{set_id}", {}),
    Route("teach.edit_set", "POST", "/teach/sets/{set_id}", set_form("Taken", [("jokers", "1", "2")])),
    Route("teach.set_levels", "GET", "/teach/sets/levels?row=0&drill=jokers", {}),
    Route("teach.delete_set", "GET", "/teach/sets/{set_id}/delete", {}),
    Route("teach.delete_set", "POST", "/teach/sets/{set_id}/delete", {}),
    Route("teach.export_set", "GET", "/teach/sets/{set_id}.yaml", {}),
    Route("teach.import_set", "POST", "/teach/sets/import", {"set_text": SET_TEXT}),
    Route("teach.export_sample", "GET", "/teach/samples/1.yaml", {}),
    Route("teach.copy_sample", "POST", "/teach/samples/1/copy", {}),
    Route("teach.cards", "GET", "/teach/cards", {}),
    Route("teach.upload_card", "POST", "/teach/cards", {"card_text": GOOD_CARD.replace("Spring class", "Taken")}),
    Route("teach.house_card_yaml", "GET", "/teach/cards/house.yaml", {}),
    Route("teach.card_page", "GET", "/teach/cards/{card_id}", {}),
    Route("teach.delete_card", "GET", "/teach/cards/{card_id}/delete", {}),
    Route("teach.delete_card", "POST", "/teach/cards/{card_id}/delete", {}),
    Route("teach.card_editor_page", "GET", "/teach/cards/editor", {}),
    Route("teach.edit_card", "GET", "/teach/cards/{card_id}/edit", {}),
    Route("teach.card_editor_preview", "POST", "/teach/cards/editor/preview", {"card_text": GOOD_CARD}),
    Route("teach.card_editor_rack", "POST", "/teach/cards/editor/rack", {"card_text": GOOD_CARD, "rack": "2B 2B 2B 4B"}),
    Route("teach.card_editor_save", "POST", "/teach/cards/editor/save", {"card_text": GOOD_CARD.replace("Spring class", "Taken")}),
    Route("teach.how_to_write_a_card", "GET", "/teach/cards/how-to", {}),
    Route("teach.assign_hand", "POST", "/teach/classes/{class_id}/hands", {"hand_title": "Taken over", "hand_bots": "club", "hand_card": "house"}),
    Route("teach.class_rules", "POST", "/teach/classes/{class_id}/rules", {"blanks": "4", "wall_end": "cold"}),
    Route("teach.class_hand_page", "GET", "/teach/class-hands/{class_hand_id}", {}),
    Route("teach.student_hand", "GET", "/teach/class-hands/{class_hand_id}/students/{student_id}", {}),
    Route("teach.delete_class_hand", "GET", "/teach/class-hands/{class_hand_id}/delete", {}),
    Route("teach.delete_class_hand", "POST", "/teach/class-hands/{class_hand_id}/delete", {}),
    Route("teach.seat_tables", "POST", "/teach/classes/{class_id}/tables", {"students": "{student_id}", "tables_card": "house", "tables_bots": "club"}),
    Route("teach.round_page", "GET", "/teach/classes/{class_id}/rounds/{round_id}", {}),
    Route("teach.start_round", "POST", "/teach/classes/{class_id}/rounds/{round_id}/start", {}),
    Route("teach.cancel_round", "POST", "/teach/classes/{class_id}/rounds/{round_id}/cancel", {}),
    Route("teach.watch_table", "GET", "/teach/classes/{class_id}/tables/{table_code}", {}),
    Route("teach.watch_table_view", "GET", "/teach/classes/{class_id}/tables/{table_code}/view", {}),
    Route("teach.watch_table_events", "GET", "/teach/classes/{class_id}/tables/{table_code}/events", {}),
]

# The class tables' routes (coach/web/teach/tables.py) refuse as every other teach route: the 403
# "Only teachers" to a person who does not teach (a student of the class too), the 404 to another teacher.
CLASS_TABLE_ROUTES = {"teach.seat_tables", "teach.round_page", "teach.start_round", "teach.cancel_round", "teach.watch_table", "teach.watch_table_view", "teach.watch_table_events"}


@dataclass
class World:
    """One teacher's class (with a student and an assignment), set and card,
    and the people who must not touch them."""

    app: Flask
    owner: FlaskClient
    people: dict[str, FlaskClient]
    ids: dict[str, int]


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> World:
    patch = pytest.MonkeyPatch()
    patch.setenv("COACH_DATA_DIR", str(tmp_path_factory.mktemp("teach-world")))
    patch.delenv("COACH_SECRET_KEY", raising=False)
    patch.delenv("COACH_CARD", raising=False)
    try:
        app = create_app({"TESTING": True, "SECRET_KEY": TEST_SECRET})
    finally:
        patch.undo()
    owner = sign_up(app, "owner@example.org", name="Owner")
    people = {
        "other teacher": sign_up(app, "other@example.org", name="Other"),
        "student": sign_up(app, "student@example.org", teacher=False, name="Stuart Quill"),
        "guest": guest(app),
        "visitor": app.test_client(),
    }
    class_id = make_class(owner, "Owner's class")
    student_id = join(app, "student@example.org", class_id)
    assert upload_card(owner, GOOD_CARD).status_code == 303
    card_id = card_id_named(app, "Spring class")
    set_id = make_set(owner, app, "Owner's set", [("nearest-hand", "1", "2")], card="Spring class")
    assert assign(owner, class_id, f"set:{set_id}").status_code == 303
    # A class hand on the teacher's card, which the student has started.
    response = post(owner, f"/teach/classes/{class_id}/hands", {"hand_title": "Owner's hand", "hand_bots": "club", "hand_card": str(card_id)})
    assert response.status_code == 303, text_of(response)[-800:]
    with db(app) as session:
        class_hand_id = session.exec(select(ClassHand)).one().id
    assert post(people["student"], f"/class-hands/{class_hand_id}/play").status_code == 303
    # The class seated at a table (not started: the start is for the owner alone to try).
    response = post(owner, f"/teach/classes/{class_id}/tables", {"students": str(student_id), "tables_card": "house", "tables_bots": "club"})
    assert response.status_code == 303, text_of(response)[-800:]
    with db(app) as session:
        round_id = session.exec(select(ClassRound)).one().id
        table_code = session.exec(select(GameTable)).one().code
    # The other teacher has a class of their own, so a 404 is not for want of one.
    make_class(people["other teacher"], "Other's class")
    ids = {
        "class_id": class_id, "set_id": set_id, "card_id": card_id, "assignment_id": last_assignment(app).id, "student_id": student_id,
        "class_hand_id": class_hand_id, "round_id": round_id, "table_code": table_code,
    }
    return World(app, owner, people, ids)


def request_as(world: World, who: FlaskClient, route: Route):
    url = route.url.format(**world.ids)
    if route.method == "GET":
        return who.get(url)
    return post(who, url, {key: value.format(**world.ids) if isinstance(value, str) else value for key, value in route.data.items()})


def expected_refusal(route: Route, who: str) -> int | None:
    """The status each wrong person gets; None where the request is theirs to make."""
    if who == "other teacher":
        return 404 if route.owned else None
    if route.endpoint == "teach.home":
        return None if who == "student" else 302  # a start page for an account, else off to sign up
    if route.endpoint == "teach.start" and who == "student":
        return None  # an account may start teaching: tested on its own
    if who in ("guest", "visitor") and route.method == "GET":
        return 303  # off to sign in, and back to this page after (tests/web/test_sign_in_next.py)
    return 403


def test_the_route_table_covers_every_teach_route(app):
    served = {
        (rule.endpoint, method)
        for rule in app.url_map.iter_rules()
        if rule.endpoint.startswith("teach.")
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }
    assert served == {(route.endpoint, route.method) for route in ROUTES}


def test_the_owner_may_use_every_route(world):
    for route in ROUTES:
        if route.method != "GET" or route.endpoint == "teach.home":
            continue
        response = request_as(world, world.owner, route)
        assert response.status_code == 200, (route.endpoint, response.status_code)


REFUSALS = [
    pytest.param(route, who, status, id=f"{who}: {route.method} {route.url}")
    for route in ROUTES
    for who in ("other teacher", "student", "guest", "visitor")
    if (status := expected_refusal(route, who)) is not None
]


def test_every_route_is_refused_to_someone():
    assert {(p.values[0].endpoint, p.values[0].method) for p in REFUSALS} == {(r.endpoint, r.method) for r in ROUTES}


@pytest.mark.parametrize(("route", "who", "status"), REFUSALS)
def test_a_wrong_person_is_refused_and_nothing_changes(world, route, who, status):
    before = snapshot(world.app)
    response = request_as(world, world.people[who], route)
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    assert snapshot(world.app) == before
    body = text_of(response)
    for secret in ("Owner's class", "Owner's set", "Owner's hand", "Spring class", code_of(world.app, world.ids["class_id"]), "Stuart Quill", "student@example.org"):
        assert secret not in body
    if status != 303:  # a sign-in redirect repeats the address asked for, the table's code in it, and nothing else
        assert world.ids["table_code"] not in body


def test_a_refusal_says_why(world):
    response = world.people["student"].get("/teach/sets")
    assert response.status_code == 403 and "Only teachers can do this." in text_of(response)
    response = world.people["other teacher"].get(f"/teach/classes/{world.ids['class_id']}")
    assert response.status_code == 404 and "Page not found" in text_of(response)


def unsigned(page: str) -> str:
    """The page without its CSRF tokens: each is signed with the second it was made, so two
    pages a moment apart differ there whatever they say."""
    return re.sub(r'[\w.-]{40,}', "TOKEN", page)


def test_a_student_of_the_class_meets_the_teach_403_on_its_tables_and_it_says_no_more_than_for_a_missing_class(world):
    """Class tables follow every teach route: the 403 depends on who asks, never on the URL,
    so a student learns nothing of their class's rounds or tables from it."""
    student = world.people["student"]
    missing = {**world.ids, "class_id": 999_999, "round_id": 999_999, "table_code": "ZZZZZZ"}
    for route in ROUTES:
        if route.endpoint not in CLASS_TABLE_ROUTES:
            continue
        real = request_as(world, student, route)
        absent = request_as(World(world.app, world.owner, world.people, missing), student, route)
        assert real.status_code == absent.status_code == 403, route
        assert "Only teachers can do this." in text_of(real)
        assert unsigned(text_of(real)).replace(world.ids["table_code"], "") == unsigned(text_of(absent)).replace("ZZZZZZ", "")


def test_the_other_teachers_lists_hold_none_of_the_owners_things(world):
    other = world.people["other teacher"]
    for url in ("/teach", "/teach/sets", "/teach/cards", "/teach/sets/new"):
        body = text_of(other.get(url))
        assert "Owner's class" not in body and "Owner's set" not in body and "Spring class" not in body, url


def test_another_teacher_cannot_remove_the_owners_student_through_their_own_class(world):
    other = world.people["other teacher"]
    with db(world.app) as session:
        theirs = session.exec(select(Classroom).where(Classroom.name == "Other's class")).one().id
    before = snapshot(world.app)
    response = post(other, f"/teach/classes/{theirs}/students/{world.ids['student_id']}/remove")
    assert response.status_code == 404 and snapshot(world.app) == before


def test_teach_pages_are_not_cached(world):
    assert world.owner.get("/teach").headers["Cache-Control"] == "no-store"
    assert world.owner.get(f"/teach/classes/{world.ids['class_id']}/dashboard.csv").headers["Cache-Control"] == "no-store"


def test_a_post_without_its_csrf_token_is_refused(world):
    before = snapshot(world.app)
    response = world.owner.post(f"/teach/classes/{world.ids['class_id']}/rename", data={"name": "No token"})
    assert response.status_code == 400 and snapshot(world.app) == before
