"""The progress page in a real browser after a few drills: empty first, then
the totals and charts, at desktop and phone size."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.support.browser import DESKTOP, PHONE, question
from tests.support.question_tiles import shows_question_tile


def click_answer(page: Page, url: str, value: str | None) -> None:
    page.goto(url)
    if value is None:
        page.locator("[data-show-me]").click()
    else:
        page.locator(f"button.choice[value='{value}']").click()
    expect(page.locator("#verdict-card")).to_be_visible()


def test_progress_in_the_browser_after_a_few_drills(page: Page, errors, screens):
    page.set_viewport_size(DESKTOP)
    page.goto("/progress")
    expect(page.locator("h1")).to_have_text("Your progress starts with your first answer")
    page.screenshot(path=str(screens / "progress-empty-desktop.png"), full_page=True)

    right, wrong = question("name-the-tile", 3, 1), question("name-the-tile", 4, 1)
    click_answer(page, "/drills/name-the-tile?level=1&seed=3", right.tile)
    click_answer(page, "/drills/name-the-tile?level=1&seed=4", next(c for c in wrong.choices if c != wrong.tile))
    click_answer(page, "/drills/nearest-hand?level=1&seed=2", None)

    page.goto("/progress")
    expect(page.locator("h1")).to_have_text("How you are doing")
    expect(page.locator("[data-stat=attempts]")).to_have_text("3")
    charts = page.locator("svg.chart")
    expect(charts).to_have_count(2)
    for n in range(2):
        expect(charts.nth(n)).to_be_visible()
        box = charts.nth(n).bounding_box()
        assert box and box["width"] > 400 and box["height"] > 150
    expect(page.locator("#chart-name-the-tile .chart__point")).to_have_count(1)
    expect(page.locator("#chart-nearest-hand .chart__point")).to_have_count(1)
    expect(page.locator(".mistake")).to_have_count(2)
    expect(page.locator(".mistake").first).to_contain_text("You asked to be shown")
    page.screenshot(path=str(screens / "progress-desktop.png"), full_page=True)

    # "Try again" opens the very question that was missed.
    page.locator('.mistake[data-drill="name-the-tile"] [data-try-again]').click()
    expect(page).to_have_url(re.compile(r"/drills/name-the-tile\?level=1&seed=4$"))
    assert page.locator("button.choice").evaluate_all("els => els.map(e => e.value)") == list(wrong.choices)
    assert shows_question_tile(page, wrong.tile)

    # The keyboard alone reaches the other "Try again" and follows it.
    page.goto("/progress")
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('[data-try-again]')"):
            break
    else:
        raise AssertionError("Tab never reached a Try again link")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/drills/nearest-hand\?level=1&seed=2$"))

    # On a phone: nothing scrolls sideways and the charts fit the screen.
    page.set_viewport_size(PHONE)
    page.goto("/progress")
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    for n in range(2):
        expect(charts.nth(n)).to_be_visible()
        box = charts.nth(n).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.screenshot(path=str(screens / "progress-phone.png"), full_page=True)
    page.locator("#chart-name-the-tile").scroll_into_view_if_needed()
    page.screenshot(path=str(screens / "progress-phone-chart.png"))
    assert errors == []
