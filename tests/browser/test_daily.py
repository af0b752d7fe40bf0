"""Today's practice in a real browser: the whole session, question 1 to 10, then its summary."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from coach.store.daily import SESSION_SIZE


def test_daily_session_start_to_finish_in_the_browser(page: Page):
    page.goto("/")
    page.get_by_role("link", name="Today's practice").click()
    expect(page.locator(".daily-bar__count")).to_have_text("Question 1 of 10")
    for n in range(1, SESSION_SIZE + 1):
        expect(page.locator(".daily-bar__count")).to_have_text(f"Question {n} of 10")
        page.get_by_role("button", name="I don't know, show me").click()
        expect(page.locator("#verdict-card")).to_be_visible()
        page.get_by_role("button", name=re.compile("Next question")).click()
    expect(page.locator("#done-title")).to_have_text("That's today's practice done.")
    expect(page.locator(".daily-done__stats")).to_contain_text("10 answered today")
    expect(page.locator(".daily-done__stats")).to_contain_text("1 day in a row")
    data = page.request.get("/api/progress").json()
    assert data["attempts"] == 10 and data["streak"] == 1
