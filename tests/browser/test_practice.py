"""The practice table in a real browser, desktop and phone (issue 16, part 3):
deal, the first Charleston by picking tiles, the stop vote, the courtesy
offer, the coach's hint, a throw; no console errors, no sideways scroll."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.support.browser import DESKTOP, PHONE, no_sideways_scroll


def pass_three(page: Page) -> None:
    boxes = page.locator(".play-pick__tile:not(.is-disabled) input")
    for i in range(3):
        boxes.nth(i).check()
    page.get_by_role("button", name="Pass these tiles").click()


def test_a_hand_at_the_table(page: Page, errors, screens):
    page.set_viewport_size(DESKTOP)
    page.goto("/play")
    page.get_by_role("button", name="Deal a new hand").click()
    expect(page).to_have_url(re.compile(r"/play/\d+$"))
    status = page.locator("#play-status")
    expect(status).to_contain_text("pass three tiles to the right")
    expect(page.locator(".play-seat")).to_have_count(3)
    page.screenshot(path=str(screens / "play-charleston-desktop.png"), full_page=True)
    pass_three(page)
    expect(status).to_contain_text("pass three tiles across")
    pass_three(page)
    expect(status).to_contain_text("to the left")
    pass_three(page)
    expect(status).to_contain_text("second Charleston")
    page.get_by_role("button", name="Stop it").click()
    expect(status).to_contain_text("Courtesy pass")
    page.get_by_role("button", name="Offer 0").click()
    expect(status).to_contain_text("Your turn")
    page.get_by_role("button", name="What would the coach do?").click()
    expect(page.locator(".play-note--advice")).to_contain_text("The coach would throw the")
    expect(page.locator(".play-status")).to_contain_text("1 hint used")
    page.screenshot(path=str(screens / "play-turn-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    assert no_sideways_scroll(page)
    page.screenshot(path=str(screens / "play-turn-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.locator(".play-throw__tile").first.click()
    # The log, not your discards: a computer player may call the tile you threw (random deal).
    expect(page.locator(".play-log")).to_contain_text("You threw the")
    page.reload()
    expect(page.locator(".play-log")).to_contain_text("You threw the")  # resumes
    assert errors == []
