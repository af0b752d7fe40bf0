"""The rules drills in a real browser: right and wrong by clicking, by keyboard,
on a phone, with the verdict swapped in by htmx."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

import drills
from tests.support.browser import (
    PHONE,
    assert_no_page_load,
    mark_window,
    no_sideways_scroll,
)
from tests.support.cards import CARD

CHOICE_DRILLS = [m for m in drills.DRILLS.values() if getattr(m, "TEMPLATE", None) == "choice"]


def right_and_wrong(module, seed: int, level: int) -> tuple[str, str]:
    q = module.generate(seed, level, CARD)
    right = next(c for c in q.choices if module.grade(q, c).correct)
    wrong = next(c for c in q.choices if not module.grade(q, c).correct)
    return right, wrong


@pytest.mark.parametrize("module", CHOICE_DRILLS, ids=lambda m: m.NAME)
def test_rules_drill_right_and_wrong_by_clicking(page: Page, module):
    last = len(module.LEVELS)
    for level, seed in ((1, 3), (last, 4)):
        right, wrong = right_and_wrong(module, seed, level)
        page.goto(f"/drills/{module.NAME}?level={level}&seed={seed}")
        mark_window(page)
        page.locator("#choices").get_by_role("button", name=right, exact=True).click()
        verdict = page.locator("#verdict-card")
        expect(verdict).to_have_attribute("data-verdict", "right")
        expect(verdict.locator(".rule-chip").first).to_be_visible()
        assert_no_page_load(page)
        page.goto(f"/drills/{module.NAME}?level={level}&seed={seed}")
        page.locator("#choices").get_by_role("button", name=wrong, exact=True).click()
        expect(page.locator("#verdict-card")).to_have_attribute("data-verdict", "wrong")


@pytest.mark.parametrize("module", CHOICE_DRILLS, ids=lambda m: m.NAME)
def test_rules_drill_by_keyboard_on_a_phone(page: Page, module):
    page.set_viewport_size(PHONE)
    right, _ = right_and_wrong(module, 5, 1)
    page.goto(f"/drills/{module.NAME}?level=1&seed=5")
    assert no_sideways_scroll(page)
    for _ in range(60):
        page.keyboard.press("Tab")
        label = page.evaluate("document.activeElement && document.activeElement.closest('#choices') ? document.activeElement.querySelector('.choice__label').textContent : null")
        if label == right:
            break
    else:
        raise AssertionError("Tab never reached the right choice")
    page.keyboard.press("Enter")
    expect(page.locator("#verdict-card")).to_have_attribute("data-verdict", "right")
    assert no_sideways_scroll(page)
