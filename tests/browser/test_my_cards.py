"""Everyone drills on their own card, in a real browser (issue 14, part 2):
sign up, upload a card on "My cards", choose it, answer a drill on it."""

from __future__ import annotations

import re
import uuid

from playwright.sync_api import Page, expect

import drills
from coach.notation.card import parse_card
from tests.support.browser import DESKTOP
from tests.support.teaching import GOOD_CARD, PASSWORD


def test_sign_up_upload_a_card_choose_it_and_answer_a_drill_on_it(page: Page, errors):
    page.set_viewport_size(DESKTOP)
    page.goto("/signup")
    page.get_by_label("Email address").fill(f"card-{uuid.uuid4().hex[:10]}@example.org")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page).to_have_url(re.compile(r"/account$"))

    page.get_by_role("link", name="My cards").last.click()
    expect(page).to_have_url(re.compile(r"/account/cards$"))
    page.get_by_label("Or paste the text").fill(GOOD_CARD)
    page.get_by_label("Drill on it once it is saved").uncheck()  # chosen below, on the drill page
    page.get_by_role("button", name="Upload the card").click()
    expect(page).to_have_url(re.compile(r"/account/cards/\d+$"))
    expect(page.locator("h1")).to_have_text("Spring class")
    expect(page.locator(".card-lines")).to_contain_text("E-2")

    seed, level = 5, 1
    page.goto(f"/drills/nearest-hand?level={level}&seed={seed}")
    picker = page.get_by_label("Card", exact=True)
    expect(picker.locator("option:checked")).to_contain_text("(house card)")
    picker.select_option(label="Spring class (Your card)")
    page.get_by_role("button", name="Use this card").click()
    expect(page).to_have_url(re.compile(r"/drills/nearest-hand\?level=1$"))
    expect(page.get_by_label("Card", exact=True).locator("option:checked")).to_have_text("Spring class (Your card)")

    page.goto(f"/drills/nearest-hand?level={level}&seed={seed}")  # the same question again, now on the card
    q = drills.get("nearest-hand").generate(seed, level, parse_card(GOOD_CARD))
    best = q.key.nearest.line.id
    assert best in ("E-1", "E-2")
    page.locator(f"input[name=answer][value='{best}']").check()
    page.get_by_role("button", name="Check my pick").click()
    verdict = page.locator("#verdict-card")
    expect(verdict).to_have_attribute("data-verdict", "right")
    expect(verdict.locator(".line-panel__id")).to_contain_text(best)

    page.goto("/progress")
    expect(page.locator("[data-skill='nearest-hand:1']")).to_contain_text("“Spring class”")
    assert errors == []
