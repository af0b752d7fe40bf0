"""A drill with a hint, then the answer, in a real browser on a phone and a
desktop (issue 15, part 2): the first press of "Hint" shows the drill's nudge
and no verdict; the next press shows the short verdict, its rest folded
under "Why, in full". Screenshots go to the folder printed with -s."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

import drills
from tests.support.browser import (
    DESKTOP,
    PHONE,
    assert_no_page_load,
    mark_window,
    no_sideways_scroll,
    question,
)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_hint_then_the_answer(page: Page, errors, screens, size):
    page.set_viewport_size(PHONE if size == "phone" else DESKTOP)
    q = question("jokers", 5, 1)
    verdict = drills.get("jokers").grade(q, None)
    page.goto("/drills/jokers?level=1&seed=5")
    mark_window(page)
    page.get_by_role("button", name="Hint").click()
    hint = page.locator("#hint")
    expect(hint).to_contain_text(drills.hint(q))
    expect(page.locator("#verdict-card")).to_have_count(0)
    show = page.get_by_role("button", name="Show me the answer")
    expect(show).to_be_focused()  # the second press, from the keyboard too
    page.screenshot(path=str(screens / f"hint-{size}.png"), full_page=False)
    page.keyboard.press("Enter")
    card = page.locator("#verdict-card")
    expect(card).to_have_attribute("data-verdict", "shown")
    expect(card.locator("h2")).to_have_text(verdict.headline)
    expect(card.locator(".verdict__reasons li")).to_have_count(len(verdict.reasons))
    expect(card.locator(".rule-chip")).to_have_count(len(verdict.rules))
    assert_no_page_load(page)
    assert no_sideways_scroll(page)
    card.scroll_into_view_if_needed()
    page.screenshot(path=str(screens / f"hint-answer-{size}.png"), full_page=False)
    assert errors == []


def test_the_folded_details_open_from_the_keyboard(page: Page, errors, screens):
    page.set_viewport_size(PHONE)
    q = question("nearest-hand", 5, 2)
    page.goto("/drills/nearest-hand?level=2&seed=5")
    page.get_by_role("button", name="I don't know, show me").click()
    card = page.locator("#verdict-card")
    panel = card.locator(".line-panel").first
    expect(panel).to_be_hidden()  # folded: the headline and reasons come first
    card.locator("summary", has_text="Why, in full").focus()
    page.keyboard.press("Enter")
    expect(panel).to_be_visible()
    expect(panel.locator(".line-panel__id")).to_contain_text(q.key.nearest.line.id)
    assert no_sideways_scroll(page)
    card.scroll_into_view_if_needed()
    page.screenshot(path=str(screens / "why-in-full-phone.png"), clip={**card.bounding_box(), "height": 1400})
    assert errors == []


def test_a_hint_without_javascript(browser, live_server, screens):
    context = browser.new_context(java_script_enabled=False, base_url=live_server, viewport=PHONE)
    try:
        page = context.new_page()
        q = question("payment", 3, 1)
        page.goto("/drills/payment?level=1&seed=3")
        page.get_by_role("button", name="Hint").click()
        expect(page.locator("#hint")).to_contain_text(drills.hint(q))
        page.get_by_role("button", name="Show me the answer").click()
        expect(page.locator("#verdict-card h2")).to_have_text(drills.get("payment").grade(q, None).headline)
        page.screenshot(path=str(screens / "hint-no-js-phone.png"), full_page=True)
    finally:
        context.close()
