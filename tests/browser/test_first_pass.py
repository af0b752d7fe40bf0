"""The first-pass drill in the browser and through the API (C1, C4)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from drills import first_pass
from tests.support.browser import (
    DESKTOP,
    PHONE,
    assert_no_page_load,
    focused,
    mark_window,
    no_sideways_scroll,
    tab_until,
)
from tests.support.cards import CARD
from tests.support.passes import best_and_worst


def pick(page: Page, codes: list[str]) -> None:
    """Click the first unchecked rack tile of each code."""
    for code in codes:
        page.locator(f".pass-tile:has(input[value='{code}']:not(:checked)) label").first.click()


def test_first_pass_right_by_clicking(page: Page, errors, screens):
    page.set_viewport_size(DESKTOP)
    q, best, _ = best_and_worst(4, 2)
    page.goto("/drills/first-pass?level=2&seed=4")
    mark_window(page)
    pick(page, best)
    expect(page.locator("[data-pass-count]")).to_have_text("3 of 3 chosen")
    page.get_by_role("button", name="Pass these three").click()
    verdict = page.locator("#verdict-card")
    expect(verdict).to_have_attribute("data-verdict", "right")
    expect(verdict.locator(".rule-chip", has_text="C1")).to_have_count(1)
    assert_no_page_load(page)
    page.screenshot(path=str(screens / "first-pass-right-desktop.png"), full_page=True)
    assert errors == []


def test_first_pass_wrong_by_clicking_shows_the_best(page: Page, errors, screens):
    q, best, worst = best_and_worst(4, 2)
    page.goto("/drills/first-pass?level=2&seed=4")
    mark_window(page)
    pick(page, worst)
    page.get_by_role("button", name="Pass these three").click()
    verdict = page.locator("#verdict-card")
    expect(verdict).to_have_attribute("data-verdict", "wrong")
    expect(verdict).to_contain_text("The best pass")
    expect(verdict).to_contain_text("tiles worse")
    assert_no_page_load(page)
    page.screenshot(path=str(screens / "first-pass-wrong.png"), full_page=True)
    assert errors == []


def test_first_pass_with_the_keyboard_alone(page: Page, errors):
    q, best, _ = best_and_worst(6, 1)
    page.goto("/drills/first-pass?level=1&seed=6")
    mark_window(page)
    chosen: list[str] = []
    # Tab through the rack's checkboxes; Space picks each tile of the best pass.
    tab_until(page, "el.matches('[data-pass-pick]')")
    wanted = list(best)
    for _ in range(len(q.rack) + 1):
        value = page.evaluate("document.activeElement.value")
        if value in wanted and focused(page, "el.matches('[data-pass-pick]') && !el.checked"):
            page.keyboard.press("Space")
            wanted.remove(value)
            chosen.append(value)
        if not wanted:
            break
        page.keyboard.press("Tab")
    assert sorted(chosen) == sorted(best)
    tab_until(page, "el.matches('[data-pass-submit]')", limit=10)
    page.keyboard.press("Enter")
    verdict = page.locator("#verdict-card")
    expect(verdict).to_have_attribute("data-verdict", "right")
    expect(verdict).to_be_focused()
    assert_no_page_load(page)
    assert errors == []


def test_C4_jokers_cannot_be_chosen_and_say_why(page: Page):
    seed = next(s for s in range(300) if "J" in first_pass.generate(s, 3, CARD).rack)
    page.goto(f"/drills/first-pass?level=3&seed={seed}")
    joker = page.locator(".pass-tile--joker input").first
    expect(joker).to_be_disabled()
    expect(page.locator("#joker-why")).to_contain_text("C4")


def test_first_pass_on_a_phone(page: Page, errors, screens):
    page.set_viewport_size(PHONE)
    page.goto("/drills/first-pass?level=3&seed=5")
    assert no_sideways_scroll(page)
    page.get_by_role("button", name="I don't know, show me").click()
    expect(page.locator("#verdict-card")).to_have_attribute("data-verdict", "shown")
    assert no_sideways_scroll(page)
    page.screenshot(path=str(screens / "phone-first-pass-verdict.png"), full_page=True)
    assert errors == []


# -- the JSON API --------------------------------------------------------------------------


