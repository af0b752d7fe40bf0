"""The teachers' story of issue 6, "done when", in a real browser.

A teacher signs up, uploads a card of their own (a broken one first:
every problem listed with its line, nothing stored), builds a drill set
on it in the set builder, makes a class and assigns the set with a due
date. Two students join from the class link (a guest who gives a name,
and a student with an account), and work through the assignment on the
drills' own pages: one answers every question right (by clicking, and
one question by keyboard alone), the other every question wrong or
"show me", and tries a second answer that does not count. The teacher's
dashboard, per-question page and CSV then say exactly that.

The right answers are worked out here, apart from the server: the set's
own YAML (downloaded by the teacher) gives each question's drill, level
and seed; the drills make the same questions on the uploaded card; and
the page is checked to show those very tiles before anything is answered.

Three browser contexts keep the three people's cookies apart. Screenshots
go to the `screens` folder (its path is printed; run with -s to see it).
"""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

import drills
from coach.notation import tiles
from coach.notation.card import Card, parse_card
from coach.store.teaching.homework import describe_answer
from coach.web.classes.student import NOT_COUNTED
from tests.support.browser import (
    DESKTOP,
    PHONE,
    assert_no_page_load,
    mark_window,
    no_sideways_scroll,
    tab_until,
)
from tests.support.question_tiles import shows_question_tile
from tests.support.story import (
    SEED,
    SET_TITLE,
    assign,
    choose_drill,
    due_label,
    export_url_of,
    make_class,
    questions_of,
    settled,
    shoot,
    sign_up,
    unique_email,
)

# An original card for this test: two sections, four lines of 14 tiles each.
CARD_NAME = "Harbour Lane practice card"
CARD_YAML = f"""\
name: "{CARD_NAME}"
year: 2026
sections:
  - name: "Low numbers"
    hands:
      - id: "LOW-1"
        pattern: "111a 222a 3333b 4444b"
        value: 25
        concealed: false
        numbers: fixed
        note: "Any 2 suits"
      - id: "LOW-2"
        pattern: "FF 1111a 22b 33c 4444a"
        value: 30
        concealed: false
        numbers: fixed
        note: "Any 3 suits"
  - name: "High numbers"
    hands:
      - id: "HIGH-1"
        pattern: "777a 8888a 9999a DDDa"
        value: 25
        concealed: false
        numbers: fixed
        note: "One suit with its dragon"
      - id: "HIGH-2"
        pattern: "NN 7777a 88b 9999c EE"
        value: 35
        concealed: true
        numbers: fixed
        note: "Any 3 suits, pairs of North and East"
"""

# The pattern at line 6 has 10 tiles; the value at line 10 is negative.
# (A card's problems name the line of the field at fault.)
BROKEN_YAML = """\
name: "Harbour Lane broken card"
sections:
  - name: "Low numbers"
    hands:
      - id: "LOW-1"
        pattern: "111a 222a 3333b"
        value: 25
      - id: "LOW-2"
        pattern: "FF 1111a 22b 33c 4444a"
        value: -5
"""

CLASS_NAME = "Harbour Lane Tuesday"


# -- fixtures and helpers --------------------------------------------------------------------


@pytest.fixture(scope="session")
def screens(tmp_path_factory):
    folder = tmp_path_factory.mktemp("teaching-screens")
    print(f"\nscreenshots: {folder}")
    return folder


def on_phone(page: Page, screens: Path, url: str, name: str) -> None:
    """The page at phone size: no sideways scroll, and a screenshot."""
    page.set_viewport_size(PHONE)
    page.goto(url)
    assert no_sideways_scroll(page), url
    shoot(page, screens, name)
    page.set_viewport_size(DESKTOP)


def grade(q, answer):
    return drills.DRILLS[q.drill].grade(q, answer)


def right_answer(q) -> str:
    """The answer each drill's grade() takes as right."""
    if q.drill == "name-the-tile":
        return q.key["answer"]
    return q.key.nearest.line.id


def wrong_answer(q) -> str:
    if q.drill == "name-the-tile":
        return next(c for c in q.choices if c != q.key["answer"])
    nearest = q.key.nearest.distance
    return next(r.line.id for r in reversed(q.key.lines) if r.distance is None or r.distance > nearest)


def check_page_asks(page: Page, number: int, total: int, q) -> None:
    """The question on the page is the one the drills make for this slot."""
    expect(page.locator("#assignment-bar")).to_contain_text(f"Question {number} of {total} · {SET_TITLE}")
    expect(page.locator("#prompt")).to_have_text(q.prompt)
    if q.drill == "name-the-tile":
        expect(page.locator("button.choice")).to_have_count(len(q.choices))
        values = page.locator("button.choice").evaluate_all("els => els.map(e => e.value)")
        assert values == list(q.choices)
        assert shows_question_tile(page, q.tile)
    else:
        expect(page.locator("#card-title")).to_contain_text(CARD_NAME)  # the teacher's own card
        alts = page.locator("#rack img").evaluate_all("els => els.map(e => e.alt)")
        assert alts == [tiles.name(c) for c in q.rack]
        expect(page.locator("input[type=radio][name=answer]")).to_have_count(4)


def pick_line(page: Page, line_id: str) -> None:
    page.locator(f"label:has(input[value='{line_id}'])").click()
    page.get_by_role("button", name="Check my pick").click()


def next_question(page: Page, number: int, total: int, assignment_id: int) -> None:
    """ "Next question": the next one comes in by htmx, its URL pushed."""
    settled(page)
    page.locator("[data-next]").click()
    expect(page.locator("#assignment-bar")).to_contain_text(f"Question {number} of {total}")
    expect(page).to_have_url(re.compile(rf"/assignments/{assignment_id}/q/{number}$"))
    expect(page.locator("#verdict-card")).to_have_count(0)
    settled(page)


def my_item(page: Page):
    return page.locator(".assignment-item", has_text=SET_TITLE)


# -- the story --------------------------------------------------------------------------------


def test_the_teaching_story_from_sign_up_to_the_csv(people, screens, tmp_path):
    today = datetime.now(UTC).date()
    due_day = today + timedelta(days=7)
    due = due_label(due_day, today)

    # 1. A teacher signs up, ticking "I teach mahjong classes", and lands on /teach.
    tess = people("teacher")
    t = tess.page
    sign_up(t, "Tess Teacher", unique_email("tess"), teacher=True)
    expect(t.get_by_text("Three steps to your first lesson")).to_be_visible()
    expect(t.locator(".site-nav a", has_text="Teach")).to_have_attribute("aria-current", "page")

    # 2. A broken card first: every problem with its line, and nothing stored.
    t.goto("/teach/cards")
    expect(t.get_by_text("No cards yet.")).to_be_visible()
    t.locator("#card_text").fill(BROKEN_YAML)
    t.get_by_role("button", name="Upload the card").click()
    problems = t.locator("#card-problems")
    expect(problems).to_be_visible()
    expect(problems.locator("h2")).to_have_text("The card was not saved: fix these 2 things")
    items = problems.locator("li")
    expect(items).to_have_count(2)
    expect(items.nth(0)).to_contain_text('Your card, line 6, section "Low numbers", hand "LOW-1"')
    expect(items.nth(0)).to_contain_text("has 10 tiles, not 14")
    expect(items.nth(1)).to_contain_text('Your card, line 10, section "Low numbers", hand "LOW-2"')
    expect(items.nth(1)).to_contain_text('"value" must be a positive whole number, not -5')
    expect(t.get_by_text("No cards yet.")).to_be_visible()  # nothing stored
    expect(t.locator(".teach-list__item")).to_have_count(0)
    expect(t.locator("#card_text")).to_have_value(BROKEN_YAML)  # kept to fix
    shoot(t, screens, "card-upload-errors-desktop")

    # ... then the good card as a file (a chosen file wins over the text box).
    card_file = tmp_path / "harbour-lane.yaml"
    card_file.write_text(CARD_YAML, encoding="utf-8")
    t.locator("#card_file").set_input_files(str(card_file))
    t.get_by_role("button", name="Upload the card").click()
    expect(t).to_have_url(re.compile(r"/teach/cards/\d+$"))
    card_id = int(t.url.rsplit("/", 1)[1])
    expect(t.locator("h1")).to_have_text(CARD_NAME)
    expect(t.get_by_text(f"Uploaded “{CARD_NAME}” with 4 lines.")).to_be_visible()
    expect(t.locator(".teach-line")).to_have_count(4)
    parsed = parse_card(CARD_YAML)
    card_key = f"{CARD_NAME} #{card_id}"
    card = Card(name=card_key, year=parsed.year, sections=parsed.sections)
    t.goto("/teach/cards")
    expect(t.locator(".teach-list__item")).to_have_count(1)
    expect(t.locator(".teach-list__item")).to_contain_text("4 lines")

    # 3. The set builder: title, the card, fixed seed, two rows (the second by "Add a drill").
    t.goto("/teach/sets")
    t.get_by_role("link", name="New set").click()
    expect(t).to_have_url(re.compile(r"/teach/sets/new$"))
    t.locator("#title").fill(SET_TITLE)
    t.locator("#description").fill("Name two tiles, then find the nearest line on our own card.")
    t.locator("#card").select_option(CARD_NAME)
    t.locator("#seeds-fixed").check()
    t.locator("#seed").fill(SEED)
    choose_drill(t, 0, "name-the-tile", 1, 2)
    t.get_by_role("button", name="Add a drill").click()
    expect(t.locator(".set-row")).to_have_count(2)
    expect(t.locator("#drill-1")).to_be_focused()  # the new row
    expect(t.locator("#title")).to_have_value(SET_TITLE)  # nothing typed is lost
    expect(t.locator("#card")).to_have_value(CARD_NAME)
    expect(t.locator("#drill-0")).to_have_value("name-the-tile")
    choose_drill(t, 1, "nearest-hand", 1, 2)
    shoot(t, screens, "set-builder-desktop")
    t.get_by_role("button", name="Save the set").click()
    expect(t).to_have_url(re.compile(r"/teach/sets$"))
    expect(t.get_by_text(f"Saved “{SET_TITLE}”")).to_be_visible()
    set_card = t.locator(".set-card", has=t.get_by_role("heading", name=SET_TITLE))
    expect(set_card).to_contain_text(f"2 drills · 4 questions · same questions for everyone · card “{CARD_NAME}”")
    export_url = export_url_of(t, SET_TITLE)

    # 4. A class, the set assigned with a due date a week ahead, and its join link.
    class_id = make_class(t, CLASS_NAME)
    assign(t, class_id, SET_TITLE, due_day.isoformat())
    expect(t.get_by_text(f"Assigned “{SET_TITLE}” to {CLASS_NAME}, due {due}.")).to_be_visible()
    given = t.locator("#assignments .teach-list__item", has_text=SET_TITLE)
    expect(given).to_contain_text(f"4 questions · due {due}")
    expect(given).to_contain_text("No students yet")
    join_link = t.locator("#join-link").input_value()
    code = t.locator(".join-code span[aria-hidden=true]").inner_text()
    assert re.fullmatch(r"[A-HJ-NP-Z2-9]{6}", code)
    assert join_link.endswith(f"/join/{code}") and join_link.startswith("http")

    # 5. Ann joins from the link as a guest, giving her name; Bob signs up first.
    ann = people("ann")
    a = ann.page
    a.goto(join_link)
    expect(a.locator("h1")).to_have_text(CLASS_NAME)
    expect(a.locator(".join__teacher")).to_contain_text("Teacher: Tess Teacher")
    a.get_by_label("Your name").fill("Ann Able")
    a.get_by_role("button", name=f"Join {CLASS_NAME}").click()
    expect(a).to_have_url(re.compile(r"/classes$"))
    expect(a.get_by_text(f"You joined {CLASS_NAME}.")).to_be_visible()

    bob = people("bob")
    b = bob.page
    sign_up(b, "Bob Baker", unique_email("bob"), teacher=False)
    b.goto(join_link)
    expect(b.locator("#name")).to_have_count(0)  # his name is known
    b.get_by_role("button", name=f"Join {CLASS_NAME}").click()
    expect(b).to_have_url(re.compile(r"/classes$"))

    for page in (a, b):
        page.locator(".site-nav").get_by_role("link", name="Classes").click()
        expect(page).to_have_url(re.compile(r"/classes$"))
        item = my_item(page)
        expect(item.locator(".status-badge")).to_have_text("Assigned")
        expect(item).to_contain_text("0 of 4 answered")
        expect(item).to_contain_text(f"Due {due}")
        expect(item).to_contain_text(CLASS_NAME)
    shoot(a, screens, "my-assignments-assigned-desktop")

    # 6. The questions, worked out apart from the server.
    asked = questions_of(t, export_url, card)
    assert [(s.drill, s.level) for s, _ in asked] == [("name-the-tile", 1)] * 2 + [("nearest-hand", 1)] * 2
    assert all(q.card == card_key for _, q in asked if q.drill == "nearest-hand")
    for _, q in asked:
        assert grade(q, right_answer(q)).correct and not grade(q, wrong_answer(q)).correct
    total = len(asked)

    # Phone: My assignments and a question, before anyone answers.
    my_item(a).get_by_role("link", name=re.compile(r"^Start")).click()
    expect(a).to_have_url(re.compile(r"/assignments/\d+/q/1$"))
    assignment_id = int(re.search(r"/assignments/(\d+)/", a.url).group(1))
    on_phone(a, screens, "/classes", "phone-my-assignments")
    on_phone(a, screens, f"/assignments/{assignment_id}/q/3", "phone-question-nearest-hand")
    on_phone(a, screens, f"/assignments/{assignment_id}/q/1", "phone-question-name-the-tile")

    # 7a. Ann answers every question right.
    a.goto(f"/assignments/{assignment_id}/q/1")
    (_, q1), (_, q2), (_, q3), (_, q4) = asked
    check_page_asks(a, 1, total, q1)
    mark_window(a)
    a.locator(f"button.choice[value='{right_answer(q1)}']").click()
    verdict = a.locator("#verdict-card")
    expect(verdict).to_have_attribute("data-verdict", "right")
    expect(a.locator("#assignment-bar")).to_contain_text(f"1 of {total} answered")  # out of band
    assert_no_page_load(a)
    next_question(a, 2, total, assignment_id)
    assert_no_page_load(a)

    # ... question 2 with the keyboard alone.
    check_page_asks(a, 2, total, q2)
    tab_until(a, f"el.matches('button.choice') && el.value === '{right_answer(q2)}'")
    a.keyboard.press("Enter")
    expect(verdict).to_have_attribute("data-verdict", "right")
    expect(verdict).to_be_focused()
    settled(a)
    tab_until(a, "el.matches('[data-next]')", limit=10)
    a.keyboard.press("Enter")
    expect(a.locator("#assignment-bar")).to_contain_text(f"Question 3 of {total}")
    expect(a.locator("#prompt")).to_be_focused()
    assert_no_page_load(a)
    settled(a)

    check_page_asks(a, 3, total, q3)
    pick_line(a, right_answer(q3))
    expect(verdict).to_have_attribute("data-verdict", "right")
    expect(verdict.locator(".line-panel__id").first).to_contain_text(right_answer(q3))
    expect(a.locator("#assignment-bar")).to_contain_text(f"3 of {total} answered")
    assert_no_page_load(a)
    shoot(a, screens, "student-question-desktop")
    next_question(a, 4, total, assignment_id)

    check_page_asks(a, 4, total, q4)
    pick_line(a, right_answer(q4))
    expect(verdict).to_have_attribute("data-verdict", "right")
    assert_no_page_load(a)
    settled(a)
    a.locator("[data-next]").click()  # the last one: on to the assignment's summary
    expect(a).to_have_url(re.compile(rf"/assignments/{assignment_id}$"))
    expect(a.locator("#score-title")).to_have_text(f"You got {total} of {total} right")

    # 7b. Bob answers every question wrong, or asks to be shown.
    b.goto("/classes")
    my_item(b).get_by_role("link", name=re.compile(r"^Start")).click()
    expect(b).to_have_url(re.compile(rf"/assignments/{assignment_id}/q/1$"))
    bob_answers: list[str | None] = [wrong_answer(q1), None, wrong_answer(q3), wrong_answer(q4)]
    bverdict = b.locator("#verdict-card")

    check_page_asks(b, 1, total, q1)
    mark_window(b)
    b.locator(f"button.choice[value='{bob_answers[0]}']").click()
    expect(bverdict).to_have_attribute("data-verdict", "wrong")
    expect(b.locator(f"button.choice[value='{bob_answers[0]}']")).to_have_class(re.compile("is-wrong"))
    expect(b.locator(f"button.choice[value='{right_answer(q1)}']")).to_have_class(re.compile("is-right"))
    assert_no_page_load(b)
    next_question(b, 2, total, assignment_id)

    check_page_asks(b, 2, total, q2)
    b.get_by_role("button", name="I don't know, show me").click()
    expect(bverdict).to_have_attribute("data-verdict", "shown")
    expect(bverdict).to_contain_text(tiles.name(q2.tile))
    next_question(b, 3, total, assignment_id)

    check_page_asks(b, 3, total, q3)
    pick_line(b, bob_answers[2])
    expect(bverdict).to_have_attribute("data-verdict", "wrong")
    expect(b.locator("#assignment-bar")).to_contain_text(f"3 of {total} answered")
    # A second answer, right this time, is graded but does not count.
    settled(b)
    pick_line(b, right_answer(q3))
    expect(bverdict).to_have_attribute("data-verdict", "right")
    expect(b.locator(".assignment-note")).to_have_text(NOT_COUNTED)
    expect(b.locator("#assignment-bar")).to_contain_text(f"3 of {total} answered")
    assert_no_page_load(b)
    next_question(b, 4, total, assignment_id)

    check_page_asks(b, 4, total, q4)
    pick_line(b, bob_answers[3])
    expect(bverdict).to_have_attribute("data-verdict", "wrong")
    assert_no_page_load(b)
    settled(b)
    b.locator("[data-next]").click()
    expect(b).to_have_url(re.compile(rf"/assignments/{assignment_id}$"))
    expect(b.locator("#score-title")).to_have_text(f"You got 0 of {total} right")
    expect(b.locator(".question-row--right")).to_have_count(0)
    expect(b.locator(".question-row--shown")).to_have_count(1)
    expect(b.locator(".question-row--wrong")).to_have_count(3)

    # Going back to question 3 shows the first answer, the one that counts.
    b.goto(f"/assignments/{assignment_id}/q/3")
    expect(bverdict).to_have_attribute("data-verdict", "wrong")
    expect(b.locator("#assignment-bar")).to_contain_text("that is the one that counts")

    # 8. Both have turned it in.
    for page in (a, b):
        page.goto("/classes")
        item = my_item(page)
        expect(item.locator(".status-badge")).to_have_text("Turned in")
        expect(item).to_contain_text(f"{total} of {total} answered")
    shoot(a, screens, "my-assignments-turned-in-desktop")
    on_phone(b, screens, "/classes", "phone-my-assignments-turned-in")
    on_phone(b, screens, f"/assignments/{assignment_id}/q/1", "phone-question-answered")

    # 9. The teacher's dashboard: who did what.
    t.goto(f"/teach/classes/{class_id}")
    expect(t.locator(".teach-list__item", has_text="Ann Able")).to_be_visible()
    expect(t.locator(".teach-list__item", has_text="Bob Baker")).to_be_visible()
    expect(t.locator("#assignments .teach-list__item", has_text=SET_TITLE)).to_contain_text("2 of 2 turned in")
    shoot(t, screens, "class-page-desktop")
    t.get_by_role("link", name="Dashboard").click()
    expect(t).to_have_url(re.compile(rf"/teach/classes/{class_id}/dashboard$"))
    expected = {"Ann Able": (total, total, 100), "Bob Baker": (total, 0, 0)}  # answered, correct, accuracy %
    for name, (answered, _correct, accuracy) in expected.items():
        row = t.locator("tbody tr", has=t.locator("th[scope=row]", has_text=name))
        expect(row).to_have_count(1)
        expect(row.locator(".state")).to_have_text("Turned in")
        expect(row.locator(".board-cell__nums")).to_have_text(f"{answered} of {total} done")
        expect(row.locator(".board-cell__acc")).to_have_text(f"{accuracy}% right")
    expect(t.locator("thead")).to_contain_text(f"due {due}")
    expect(t.get_by_text("Everyone has started.")).to_be_visible()
    shoot(t, screens, "dashboard-desktop")
    on_phone(t, screens, f"/teach/classes/{class_id}/dashboard", "phone-dashboard")

    # ... per question: 1 of 2 right, and Bob's answer with the coach's explanation.
    t.goto(f"/teach/classes/{class_id}/dashboard")
    t.locator("thead").get_by_role("link", name=SET_TITLE).click()
    expect(t).to_have_url(re.compile(rf"/teach/assignments/{assignment_id}$"))
    expect(t.locator("h1")).to_have_text(SET_TITLE)
    stats = t.locator(".q-stat")
    expect(stats).to_have_count(total)
    for n, ((slot, q), given_answer) in enumerate(zip(asked, bob_answers)):
        stat = stats.nth(n)
        expect(stat.locator(".eyebrow")).to_have_text(f"Question {n + 1}")
        expect(stat.locator(".q-stat__title")).to_have_text(drills.DRILLS[slot.drill].TITLE)
        expect(stat.locator(".q-stat__score")).to_have_text("1 of 2 right")
        wrong = stat.locator(".wrong")
        expect(wrong).to_have_count(1)
        expect(wrong.locator(".wrong__text")).to_have_text(describe_answer(given_answer))
        expect(wrong.locator(".badge")).to_have_text("1 student")
        explanation = grade(q, given_answer).explanation
        assert explanation
        expect(wrong.locator(".wrong__why li")).to_have_text(list(explanation))
    expect(stats.nth(1).locator(".wrong__text")).to_have_text("No answer (asked to be shown)")
    shoot(t, screens, "assignment-questions-desktop")

    # 10. The CSV says the same.
    t.goto(f"/teach/classes/{class_id}/dashboard")
    with t.expect_download() as info:
        t.get_by_role("link", name="Download CSV").click()
    download = info.value
    assert download.suggested_filename == "harbour-lane-tuesday-results.csv"
    table = list(csv.DictReader(io.StringIO(Path(download.path()).read_text(encoding="utf-8"))))
    by_name = {row["student"]: row for row in table}
    assert set(by_name) == set(expected)
    for name, (answered, correct, accuracy) in expected.items():
        row = by_name[name]
        assert row["assignment"] == SET_TITLE
        assert row["state"] == "turned in"
        assert row["due"].startswith(due_day.isoformat())
        assert (row["answered"], row["questions"], row["correct"]) == (str(answered), str(total), str(correct))
        assert row["completion_percent"] == "100"
        assert row["accuracy_percent"] == str(accuracy)
    assert by_name["Ann Able"]["email"] == ""  # a guest has none
    assert by_name["Bob Baker"]["email"].startswith("bob-")

    # 11. No console errors, page errors or failed requests anywhere, but the
    # one Chromium logs for the broken card's page (422, as the app means it).
    refused = "teacher @ /teach/cards: Failed to load resource: the server responded with a status of 422 (UNPROCESSABLE ENTITY)"
    assert people.errors.count(refused) == 1, people.errors
    assert [e for e in people.errors if e != refused] == []


# -- keyboard only ------------------------------------------------------------------------------


def test_a_student_joins_by_code_and_answers_with_the_keyboard_alone(people, screens):
    tess = people("teacher")
    t = tess.page
    sign_up(t, "Kay Teacher", unique_email("kay"), teacher=True)
    t.goto("/teach/sets/new")
    t.locator("#title").fill(SET_TITLE)
    t.locator("#seed").fill(SEED)
    choose_drill(t, 0, "name-the-tile", 1, 1)
    t.get_by_role("button", name="Save the set").click()
    expect(t).to_have_url(re.compile(r"/teach/sets$"))
    export_url = export_url_of(t, SET_TITLE)
    class_id = make_class(t, "Keyboard club")
    assign(t, class_id, SET_TITLE)
    code = t.locator(".join-code span[aria-hidden=true]").inner_text()
    ((slot, q),) = questions_of(t, export_url, None)
    assert slot.drill == "name-the-tile"

    kim = people("kim")
    k = kim.page
    k.goto("/classes")
    expect(k.get_by_text("You are not in a class yet.")).to_be_visible()
    tab_until(k, "el.id === 'code'")
    k.keyboard.type(f"{code[:3].lower()} {code[3:].lower()}")  # as people type it
    tab_until(k, "el.id === 'name'", limit=5)
    k.keyboard.type("Kim Key")
    k.keyboard.press("Enter")
    expect(k.get_by_text("You joined Keyboard club.")).to_be_visible()
    expect(my_item(k).locator(".status-badge")).to_have_text("Assigned")

    tab_until(k, "el.matches('a.assignment-item__go')")
    k.keyboard.press("Enter")
    expect(k).to_have_url(re.compile(r"/assignments/\d+/q/1$"))
    expect(k.locator("#assignment-bar")).to_contain_text(f"Question 1 of 1 · {SET_TITLE}")
    mark_window(k)
    tab_until(k, f"el.matches('button.choice') && el.value === '{q.key['answer']}'")
    k.keyboard.press("Enter")
    verdict = k.locator("#verdict-card")
    expect(verdict).to_have_attribute("data-verdict", "right")
    expect(verdict).to_be_focused()
    assert_no_page_load(k)
    settled(k)
    tab_until(k, "el.matches('[data-next]')", limit=10)
    k.keyboard.press("Enter")
    expect(k).to_have_url(re.compile(r"/assignments/\d+$"))
    expect(k.locator("#score-title")).to_have_text("You got 1 of 1 right")
    shoot(k, screens, "keyboard-student-done-desktop")
    assert people.errors == []
