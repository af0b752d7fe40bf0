"""Class tables in a real browser (issue 28, item 5): a teacher seats a class of two
students, one at each table so the tables compare, starts the round, watches a table
with all four racks showing, and reads the round's dashboard with both tables; the
students' classes page names their table. Desktop and a 390 px phone."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect
from sqlmodel import Session

from coach.play import people as table_people
from coach.play.hand import Action, replay
from coach.play.legal import legal_actions
from coach.store import tables as table_store
from coach.store.db import database_url, make_engine
from tests.support.browser import DESKTOP, no_sideways_scroll
from tests.support.cards import CARD
from tests.support.story import make_class, settled, shoot, sign_up, unique_email

PHONE_390 = {"width": 390, "height": 844}


def east_passes(base, code: str) -> str:
    """East's first pass at the table, played in the live server's database as the table
    would play it (the computer players answering); the pass in the words of the log."""
    engine = make_engine(database_url(next(base.glob("live-instance*"))))
    try:
        with Session(engine) as session:
            table = table_store.table_by_code(session, code)
            row = table_store.current_hand(session, table.id)
            seats = table_store.seats_of(session, table.id)
            persons, away = table_store.people_at(seats)
            settings = table_store.table_settings(table)
            hand = replay(CARD, row.seed, [Action.from_json(a) for a in table_store.actions_of(row)], table_store.hand_rules(row))
            move = legal_actions(hand, "East")[0]
            held = table_people.take(hand, move, persons, settings, [])
            progress = table_people.advance(hand, persons, away, settings, held)
            table_store.save_moves(session, row, [a.to_json() for a in hand.actions], [a.to_json() for a in progress.held], None)
            return "East passed"
    finally:
        engine.dispose()


def class_of_one(people, student: str):
    """A teacher's class "Monday tables" with one student who has joined it: both pages and the class's id."""
    t = people("teacher").page
    sign_up(t, "Tess Teacher", unique_email("tess"), teacher=True)
    class_id = make_class(t, "Monday tables")
    code = t.locator(".join-code span[aria-hidden=true]").inner_text()
    s = people(student).page
    sign_up(s, student, unique_email(student.split()[0].lower()), teacher=False)
    s.goto(f"/join/{code}")
    s.get_by_role("button", name=re.compile("Join")).click()
    expect(s.get_by_text("You joined Monday tables.")).to_be_visible()
    return t, s, class_id


def test_a_teacher_seats_a_class_of_two_starts_the_round_watches_a_table_and_reads_the_dashboard(people, screens, tmp_path_factory):
    t = people("teacher").page
    sign_up(t, "Tess Teacher", unique_email("tess"), teacher=True)
    class_id = make_class(t, "Friday tables")
    code = t.locator(".join-code span[aria-hidden=true]").inner_text()
    students = []
    for name in ("Ann Student", "Bob Student"):
        s = people(name).page
        sign_up(s, name, unique_email(name.split()[0].lower()), teacher=False)
        s.goto(f"/join/{code}")
        s.get_by_role("button", name=re.compile("Join")).click()
        expect(s.get_by_text("You joined Friday tables.")).to_be_visible()
        students.append(s)

    # The class page: both students ticked; one at each table, so the two tables compare.
    t.goto(f"/teach/classes/{class_id}")
    form = t.locator("#class-tables form")
    t.locator("#class-tables").screenshot(path=str(screens / "class-tables-class-page-desktop.png"), caret="initial")
    expect(form.get_by_role("checkbox", name="Ann Student")).to_be_checked()
    expect(form.get_by_role("checkbox", name="Bob Student")).to_be_checked()
    form.get_by_label("Students at each table").select_option("1")
    form.get_by_role("button", name="Seat the class at tables").click()
    expect(t).to_have_url(re.compile(rf"/teach/classes/{class_id}/rounds/\d+$"))
    expect(t.locator(".flash, [role=status]").first).to_contain_text("at 2 tables")
    tables = t.locator(".round-table")
    expect(tables).to_have_count(2)
    expect(tables.nth(0)).to_contain_text("Ann Student")
    expect(tables.nth(1)).to_contain_text("Bob Student")
    codes = [tables.nth(n).locator(".code-chip").inner_text() for n in range(2)]
    round_url = t.url

    # Each student's classes page names their table, seat East, and links it.
    students[0].goto("/classes")
    expect(students[0].get_by_text(f"Your class table: {codes[0]}, seat East")).to_be_visible()
    expect(students[0].get_by_role("link", name=re.compile("Go to the table"))).to_have_attribute("href", f"/tables/{codes[0]}")

    # The teacher watches the first table in another tab before the start: no hand yet.
    w = t.context.new_page()
    w.goto(round_url)
    w.locator(".round-table").nth(0).get_by_role("link", name=re.compile("Watch")).click()
    expect(w).to_have_url(re.compile(rf"/teach/classes/{class_id}/tables/{codes[0]}$"))
    expect(w.locator("#watch-view")).to_contain_text("No hand yet")
    mark = w.evaluate("() => (window.__same_page = 1)")

    t.get_by_role("button", name="Start the hand").click()
    expect(t.get_by_text("The hand is dealt at 2 tables")).to_be_visible()
    shoot(t, screens, "class-tables-round-desktop")

    # The start's publish reaches the watching tab over its stream: all four racks, by name, read-only,
    # well within the 5 s Playwright waits (the fallback poll, with the stream open, is every 10 s).
    t.close()
    t = w
    racks = t.locator(".watch-seat .rack")
    expect(racks).to_have_count(4)
    assert t.evaluate("() => window.__same_page") == mark  # the same page: the view was swapped in
    for seat in ("East", "South", "West", "North"):
        expect(t.get_by_role("group", name=f"{seat}'s rack")).to_be_visible()
        assert t.get_by_role("group", name=f"{seat}'s rack").get_by_role("img").count() >= 13
    expect(t.locator(".watch-seat").first).to_contain_text("Ann Student")
    expect(t.locator("#watch-view")).to_contain_text("Waiting: choosing tiles to pass")
    expect(t.locator("form")).to_have_count(0)  # nothing to press: the teacher only watches
    settled(t)
    shoot(t, screens, "class-tables-watch-desktop")

    # East passes at the table: the watch follows without a reload, the pass told in full.
    said = east_passes(tmp_path_factory.getbasetemp(), codes[0])
    expect(t.locator(".watch-log")).to_contain_text(said, timeout=25_000)  # a save without a publish: the poll finds it
    assert t.evaluate("() => window.__same_page") == mark  # the same page: the view was swapped in
    settled(t)
    shoot(t, screens, "class-tables-watch-after-a-pass-desktop")

    # The dashboard lists both tables' students.
    t.goto(round_url)
    board = t.locator(".class-hand-board")
    expect(board).to_contain_text("Ann Student")
    expect(board).to_contain_text("Bob Student")
    expect(board.get_by_role("link", name=re.compile(codes[0]))).to_be_visible()
    expect(board.get_by_role("link", name=re.compile(codes[1]))).to_be_visible()

    t.set_viewport_size(PHONE_390)
    t.goto(f"/teach/classes/{class_id}/tables/{codes[1]}")
    expect(t.locator(".watch-seat .rack")).to_have_count(4)
    expect(t.locator(".watch-seat").first).to_contain_text("Bob Student")
    assert no_sideways_scroll(t)
    shoot(t, screens, "class-tables-watch-phone")
    t.goto(round_url)
    assert no_sideways_scroll(t)
    shoot(t, screens, "class-tables-round-phone")
    t.goto(f"/teach/classes/{class_id}")
    assert no_sideways_scroll(t)
    t.locator("#class-tables").screenshot(path=str(screens / "class-tables-class-page-phone.png"), caret="initial")
    t.set_viewport_size(DESKTOP)
    assert people.errors == []


def test_seat_the_class_disables_its_button_while_posting_and_shows_an_expired_form_as_a_page(people):
    """The form is posted by htmx (hx-boost) with its button disabled until the answer comes
    (hx-disabled-elt), so a double click sends it once; an error answer (an expired token)
    is shown as a plain post shows it, not swallowed, and the address stays the class page's."""
    t, s, class_id = class_of_one(people, "Cat Student")

    t.goto(f"/teach/classes/{class_id}")
    form = t.locator("#class-tables form")
    button = form.get_by_role("button", name="Seat the class at tables")
    form.locator("input[name=csrf_token]").evaluate("(input) => { input.value = 'expired'; }")
    button.click()
    expect(t.get_by_text("This page has expired")).to_be_visible()
    expect(t.get_by_role("link", name="Teach").first).to_be_visible()  # the whole error page, the site's header with it
    expect(t).to_have_url(re.compile(rf"/teach/classes/{class_id}$"))  # a reload asks for the class page again
    assert len(people.errors) == 1 and "400 (BAD REQUEST)" in people.errors[0]  # the console notes the 400 asked for
    people.errors.clear()

    posts: list[str] = []
    t.on("request", lambda request: posts.append(request.url) if request.method == "POST" and request.url.endswith("/tables") else None)
    t.goto(f"/teach/classes/{class_id}")
    form = t.locator("#class-tables form")
    button = form.get_by_role("button", name="Seat the class at tables")
    t.route("**/teach/classes/*/tables", lambda route: (time.sleep(1.0), route.continue_()))  # a slow answer
    button.click()
    expect(button).to_be_disabled()
    button.click(force=True, no_wait_after=True, timeout=2000)  # the second click of a double click: nothing to press
    expect(t).to_have_url(re.compile(rf"/teach/classes/{class_id}/rounds/\d+$"))
    expect(t.get_by_text("Seated Monday tables at 1 table")).to_be_visible()
    assert len(posts) == 1  # the disabled button sent nothing
    t.unroute("**/teach/classes/*/tables")
    t.goto(f"/teach/classes/{class_id}")
    expect(t.locator("#class-tables")).to_contain_text("1 table · 1 student · not started")
    expect(t.locator("#class-tables .teach-list__sum")).to_have_count(1)  # one round
    assert people.errors == []


def test_a_teacher_takes_back_a_seating_by_keyboard_on_a_phone(people, screens):
    """The wrong students seated: on the round's page "Take back this seating" (reached by
    Tab, pressed with Enter) closes the tables before anyone plays, the class page says
    so, ready to seat the class again, and a student waiting at the table is told."""
    t, s, class_id = class_of_one(people, "Cy Student")
    t.set_viewport_size(PHONE_390)
    t.goto(f"/teach/classes/{class_id}")
    t.locator("#class-tables form").get_by_role("button", name="Seat the class at tables").click()
    expect(t).to_have_url(re.compile(rf"/teach/classes/{class_id}/rounds/\d+$"))
    take_back = t.get_by_role("button", name="Take back this seating")
    expect(take_back).to_be_visible()
    s.goto(f"/tables/{t.locator('.round-table .code-chip').first.inner_text()}")  # the student waits at the table
    expect(s.locator("#table-status")).to_be_visible()
    no_sideways_scroll(t)
    shoot(t, screens, "class-round-take-back-phone")
    t.get_by_role("button", name="Start the hand").focus()
    t.keyboard.press("Tab")  # the next control after the start is the take-back
    expect(take_back).to_be_focused()
    t.keyboard.press("Enter")
    expect(t).to_have_url(re.compile(rf"/teach/classes/{class_id}(#class-tables)?$"))
    expect(t.locator(".flash, [role=status]").first).to_contain_text("The seating is taken back: 1 table closed")
    expect(t.locator("#class-tables form").get_by_role("button", name="Seat the class at tables")).to_be_visible()
    expect(s.locator("#table-status")).to_contain_text("This table is closed", timeout=10_000)  # told without a reload
    expect(s.get_by_role("link", name="Classes").last).to_be_visible()
    shoot(s, screens, "table-closed-student-desktop")
    shoot(t, screens, "class-page-after-take-back-phone")
