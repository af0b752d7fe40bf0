"""A teacher's tools of issue 15 in a real browser (phone and desktop):
move a due date, read one student's answers from the dashboard, print a
worksheet whose answer key starts on a page of its own, and a confirm
before removing a student. A guest student is asked to make an account."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from playwright.sync_api import expect

from tests.support.browser import DESKTOP, PHONE, no_sideways_scroll
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


def test_a_teacher_moves_a_due_date_reads_a_students_answers_and_prints_a_worksheet(people, screens):
    today = datetime.now(UTC).date()
    t = people("teacher").page
    sign_up(t, "Rosa Teacher", unique_email("rosa"), teacher=True)
    t.goto("/teach/sets/new")
    t.locator("#title").fill(SET_TITLE)
    t.locator("#seed").fill(SEED)
    choose_drill(t, 0, "name-the-tile", 1, 2)
    t.get_by_role("button", name="Save the set").click()
    expect(t).to_have_url(re.compile(r"/teach/sets$"))
    export_url = export_url_of(t, SET_TITLE)
    class_id = make_class(t, "Thursday club")
    assign(t, class_id, SET_TITLE)
    code = t.locator(".join-code span[aria-hidden=true]").inner_text()
    (_, q1), (_, q2) = questions_of(t, export_url, None)

    # A guest joins, is asked to make an account, and answers question 1 wrong.
    g = people("guest").page
    g.goto(f"/join/{code}")
    g.locator("#name").fill("Gus Guest")
    g.get_by_role("button", name=re.compile("Join")).click()
    nudge = g.locator(".guest-nudge")
    expect(nudge).to_contain_text("Make an account to keep your class work")
    expect(nudge).to_contain_text("show up to your teacher as a new student")
    expect(nudge.get_by_role("link", name="Make an account")).to_have_attribute("href", "/signup?next=/classes")
    g.locator("a.assignment-item__go").first.click()
    wrong = next(c for c in q1.choices if c != q1.key["answer"])
    g.locator(f"button.choice[value='{wrong}']").click()
    expect(g.locator("#verdict-card")).to_have_attribute("data-verdict", "wrong")
    settled(g)

    # The dashboard links the student's own page: every answer with its verdict.
    t.goto(f"/teach/classes/{class_id}/dashboard")
    expect(t.locator(".weak-card")).to_contain_text("What the class gets wrong")
    t.get_by_role("link", name="Gus Guest").click()
    expect(t).to_have_url(re.compile(rf"/teach/classes/{class_id}/students/\d+$"))
    expect(t.locator("h1")).to_have_text("Gus Guest")
    row = t.locator(".answer-row--wrong")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Q1")
    expect(row.locator(".answer-row__why")).to_have_attribute("open", "")  # a wrong answer's verdict is open
    expect(t.locator(".lede")).to_contain_text("0 of 1 answers right")
    shoot(t, screens, "teacher-student-page-desktop")
    t.set_viewport_size(PHONE)
    assert no_sideways_scroll(t)
    shoot(t, screens, "teacher-student-page-phone")
    t.set_viewport_size(DESKTOP)

    # Move the due date on the assignment's page, by keyboard-fillable date field.
    t.get_by_role("link", name=SET_TITLE).first.click()
    expect(t.locator("h1")).to_have_text(SET_TITLE)
    day = today + timedelta(days=12)
    t.locator("#due").fill(day.isoformat())
    t.get_by_role("button", name="Change the due date").click()
    expect(t.locator(".notice--success")).to_contain_text(f"is now due {due_label(day, today)}")
    expect(t.locator(".lede")).to_contain_text(f"Due {due_label(day, today)}")
    t.locator("#due").fill("2001-01-01")
    t.get_by_role("button", name="Change the due date").click()
    expect(t.locator("#due-error")).to_contain_text("That day has passed.")
    expect(t.locator(".lede")).to_contain_text(f"Due {due_label(day, today)}")  # unchanged

    # The worksheet: both questions, the key on a page of its own when printed.
    t.get_by_role("link", name="Worksheet").click()
    expect(t.locator("h1")).to_have_text(SET_TITLE)
    expect(t.locator(".sheet__q")).to_have_count(2)
    expect(t.locator(".sheet__q").nth(0)).to_contain_text(q1.prompt)
    expect(t.locator(".sheet__q").nth(1)).to_contain_text(q2.prompt)
    shoot(t, screens, "teacher-worksheet-desktop")
    t.emulate_media(media="print")
    assert t.locator(".sheet-key").evaluate("el => getComputedStyle(el).breakBefore") == "page"
    expect(t.locator(".site-header")).to_be_hidden()
    expect(t.locator(".worksheet__tools")).to_be_hidden()
    pdf = t.pdf(format="A4")
    pages = re.findall(rb"/Type\s*/Page(?!s)", pdf)
    assert pdf.startswith(b"%PDF") and len(pages) >= 2, len(pages)  # the key cannot share the questions' page
    t.emulate_media(media="screen")
    t.set_viewport_size(PHONE)
    assert no_sideways_scroll(t)
    shoot(t, screens, "teacher-worksheet-phone")
    t.set_viewport_size(DESKTOP)

    # Removing a student asks first; "Keep it" keeps them.
    t.goto(f"/teach/classes/{class_id}")
    t.get_by_role("link", name="Remove… Gus Guest").click()
    expect(t.locator("h1")).to_have_text("Remove Gus Guest from Thursday club?")
    shoot(t, screens, "teacher-remove-confirm-desktop")
    t.get_by_role("link", name="Keep it").click()
    expect(t.locator(".teach-list__title", has_text="Gus Guest")).to_be_visible()
    # The only console line is the one Chromium logs for the refused date (422, as the app means it).
    refused = "teacher @ /teach/assignments/1/due: Failed to load resource: the server responded with a status of 422 (UNPROCESSABLE ENTITY)"
    assert [re.sub(r"assignments/\d+/", "assignments/1/", e) for e in people.errors] == [refused], people.errors
