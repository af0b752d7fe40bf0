"""The drills in a real browser: Playwright driving Debian's Chromium.

Each drill is answered right and wrong by clicking and with the keyboard
alone; the htmx swap must show the verdict without a page load (a marker
set on `window` survives it); a phone-sized viewport must not scroll
sideways. Screenshots go to a temporary folder (printed with -s).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from drills.name_the_tile import the
from tests.support.browser import (
    DESKTOP,
    PHONE,
    assert_no_page_load,
    focused,
    mark_window,
    no_sideways_scroll,
    question,
    slug,
    tab_until,
)
from tests.support.cards import CARD

# -- name the tile -------------------------------------------------------------------------


def test_name_the_tile_right_by_clicking(page: Page, errors, screens):
    page.set_viewport_size(DESKTOP)
    q = question("name-the-tile", 3, 1)
    page.goto("/drills/name-the-tile?level=1&seed=3")
    assert page.evaluate("window.htmx.version").startswith("2.0.")  # our own copy, pinned
    mark_window(page)
    page.locator(f"button.choice[value='{q.tile}']").click()
    verdict = page.locator("#verdict-card")
    expect(verdict).to_have_attribute("data-verdict", "right")
    expect(verdict.locator("h2")).to_have_text(f"Right: {the(q.tile)}.")
    assert_no_page_load(page)
    expect(page.locator(f"button.choice[value='{q.tile}']")).to_have_class(re.compile("is-right"))
    expect(page.locator("button.choice").first).to_be_disabled()
    expect(page.locator("[data-show-me]")).to_have_count(0)  # answered: only "Next question" is left
    expect(page.locator("[data-next]")).to_have_class(re.compile("btn--primary"))
    expect(verdict.locator(".rule-chip").first).to_have_text("T1")
    page.screenshot(path=str(screens / "name-the-tile-right-desktop.png"), full_page=True)
    assert errors == []


def test_name_the_tile_wrong_by_clicking(page: Page, errors, screens):
    q = question("name-the-tile", 3, 1)
    wrong = next(c for c in q.choices if c != q.tile)
    page.goto("/drills/name-the-tile?level=1&seed=3")
    mark_window(page)
    page.locator(f"button.choice[value='{wrong}']").click()
    verdict = page.locator("#verdict-card")
    expect(verdict).to_have_attribute("data-verdict", "wrong")
    expect(verdict.locator("h2")).to_have_text(f"Not quite: this is {the(q.tile)}.")
    expect(page.locator(f"button.choice[value='{wrong}']")).to_have_class(re.compile("is-wrong"))
    expect(page.locator(f"button.choice[value='{q.tile}']")).to_have_class(re.compile("is-right"))
    expect(verdict.locator(".verdict__reasons li").nth(1)).to_contain_text("You answered")
    expect(verdict.locator(".tile-figure--yours")).to_be_visible()
    assert_no_page_load(page)
    page.screenshot(path=str(screens / "name-the-tile-wrong-desktop.png"), full_page=True)
    assert errors == []


def test_name_the_tile_levels_3_and_4_by_clicking(page: Page, errors):
    for level in (3, 4):
        q = question("name-the-tile", 6, level)
        page.goto(f"/drills/name-the-tile?level={level}&seed=6")
        key = q.key["answer"]
        answer = {"D": "Dots", "B": "Bams", "C": "Craks"}.get(key, key) if q.key["task"] == "suit" else key
        mark_window(page)
        page.locator(f"button.choice[value='{answer}']").click()
        expect(page.locator("#verdict-card")).to_have_attribute("data-verdict", "right")
        assert_no_page_load(page)
    assert errors == []


def test_name_the_tile_typed_with_the_keyboard_alone(page: Page, errors):
    q = question("name-the-tile", 8, 2)
    page.goto("/drills/name-the-tile?level=2&seed=8")
    mark_window(page)
    tab_until(page, "el.id === 'answer-input'")
    page.keyboard.type("not a tile")
    page.keyboard.press("Enter")
    expect(page.locator("#verdict-card")).to_have_attribute("data-verdict", "wrong")
    expect(page.locator("#verdict-card")).to_contain_text("is not the name of any tile")
    page.locator("#answer-input").fill("")
    page.locator("#answer-input").focus()
    from coach.notation import tiles

    page.keyboard.type(tiles.name(q.tile).lower())
    page.keyboard.press("Enter")
    expect(page.locator("#verdict-card")).to_have_attribute("data-verdict", "right")
    assert_no_page_load(page)
    assert errors == []


def test_name_the_tile_keyboard_only_and_next_question(page: Page, errors):
    q = question("name-the-tile", 12, 1)
    page.goto("/drills/name-the-tile?level=1&seed=12")
    mark_window(page)
    tab_until(page, f"el.matches('button.choice') && el.value === '{q.tile}'")
    # the focused choice shows a visible focus ring
    assert page.evaluate("getComputedStyle(document.activeElement).boxShadow") != "none"
    page.keyboard.press("Enter")
    expect(page.locator("#verdict-card")).to_have_attribute("data-verdict", "right")
    expect(page.locator("#verdict-card")).to_be_focused()
    tab_until(page, "el.matches('[data-next]')", limit=10)
    page.keyboard.press("Enter")
    expect(page.locator("#verdict-card")).to_have_count(0)
    expect(page.locator("#prompt")).to_be_focused()
    expect(page).to_have_url(re.compile(r"/drills/name-the-tile\?level=1&seed=\d+$"))
    assert_no_page_load(page)
    # the pushed URL brings back the same question
    token = page.locator("#answer-form input[name=token]").get_attribute("value")
    page.reload()
    assert page.locator("#answer-form input[name=token]").get_attribute("value") == token
    assert errors == []


def test_show_me_on_name_the_tile(page: Page, errors):
    q = question("name-the-tile", 2, 1)
    page.goto("/drills/name-the-tile?level=1&seed=2")
    mark_window(page)
    page.get_by_role("button", name="I don't know, show me").click()
    verdict = page.locator("#verdict-card")
    expect(verdict).to_have_attribute("data-verdict", "shown")
    expect(verdict.locator("h2")).to_contain_text("This is")
    from coach.notation import tiles

    expect(verdict).to_contain_text(tiles.name(q.tile))
    assert_no_page_load(page)
    assert errors == []


# -- find the nearest hand ------------------------------------------------------------------


def test_nearest_hand_right_by_clicking(page: Page, errors, screens):
    page.set_viewport_size(DESKTOP)
    q = question("nearest-hand", 5, 2)
    best = q.key.nearest.line.id
    page.goto("/drills/nearest-hand?level=2&seed=5")
    mark_window(page)
    page.locator(f"input[name=answer][value='{best}']").check()
    page.get_by_role("button", name="Check my pick").click()
    verdict = page.locator("#verdict-card")
    expect(verdict).to_have_attribute("data-verdict", "right")
    expect(verdict.locator(".line-panel")).to_have_count(1)
    expect(verdict.locator(".line-panel__id")).to_contain_text(best)
    used = len(q.key.nearest.fill.used)
    expect(verdict.locator(".line-panel .tile.is-used")).to_have_count(used)
    assert_no_page_load(page)
    page.screenshot(path=str(screens / "nearest-hand-right-desktop.png"), full_page=False)
    assert errors == []


def test_nearest_hand_wrong_by_clicking_shows_both_lines(page: Page, errors, screens):
    page.set_viewport_size(DESKTOP)
    q = question("nearest-hand", 5, 2)
    best = q.key.nearest
    far = next(r for r in reversed(q.key.lines) if r.distance is not None and r.distance > best.distance)
    page.goto("/drills/nearest-hand?level=2&seed=5")
    mark_window(page)
    page.locator(f"label:has(input[value='{far.line.id}'])").click()
    page.get_by_role("button", name="Check my pick").click()
    verdict = page.locator("#verdict-card")
    expect(verdict).to_have_attribute("data-verdict", "wrong")
    panels = verdict.locator(".line-panel")
    expect(panels).to_have_count(2)
    expect(panels.nth(0)).to_contain_text("Your pick")
    expect(panels.nth(0).locator(".line-panel__id")).to_contain_text(far.line.id)
    expect(panels.nth(1)).to_contain_text("The nearest line")
    expect(panels.nth(1).locator(".line-panel__id")).to_contain_text(best.line.id)
    expect(panels.nth(0).locator(".tile.is-used")).to_have_count(len(far.fill.used))
    expect(panels.nth(1).locator(".tile.is-used")).to_have_count(len(best.fill.used))
    joker_ok = sum(1 for m in best.fill.missing if m.joker_ok) > 0
    no_joker = sum(1 for m in best.fill.missing if not m.joker_ok) > 0
    if joker_ok:
        expect(panels.nth(1).locator(".badge--joker").first).to_have_text("joker ok")
    if no_joker:
        expect(panels.nth(1).locator(".badge--nojoker").first).to_have_text("no joker")
    expect(verdict.locator(".rule-chip", has_text="J2")).to_have_count(1)
    assert_no_page_load(page)
    verdict.scroll_into_view_if_needed()
    page.screenshot(path=str(screens / "nearest-hand-wrong-desktop.png"), full_page=False)
    assert errors == []


def test_nearest_hand_with_an_exposure_and_a_concealed_pick(page: Page, errors):
    q = question("nearest-hand", 2, 3)
    concealed = next(r for r in q.key.lines if r.line.concealed)
    page.goto("/drills/nearest-hand?level=3&seed=2")
    expect(page.get_by_text("Your exposures", exact=True)).to_be_visible()
    page.locator(f"label:has(input[value='{concealed.line.id}'])").click()
    page.get_by_role("button", name="Check my pick").click()
    verdict = page.locator("#verdict-card")
    expect(verdict).to_have_attribute("data-verdict", "wrong")
    expect(verdict.locator(".line-panel__out")).to_contain_text("concealed line")
    expect(verdict.locator(".rule-chip", has_text="H4")).to_have_count(1)
    assert errors == []


def test_nearest_hand_keyboard_only(page: Page, errors, screens):
    page.set_viewport_size(DESKTOP)
    q = question("nearest-hand", 9, 1)
    best = q.key.nearest.line.id
    page.goto("/drills/nearest-hand?level=1&seed=9")
    mark_window(page)
    # the rack is one tab stop; arrows move along it and each tile names itself on focus
    tab_until(page, "el.matches('#rack .tile')")
    expect(page.locator("#rack .tile").first.locator(".tile__name")).to_be_visible()
    page.keyboard.press("ArrowRight")
    assert focused(page, "el === document.querySelectorAll('#rack .tile')[1]")
    expect(page.locator("#rack .tile").nth(1).locator(".tile__name")).to_be_visible()
    # search the card by id, Enter picks the line, Tab to the button, Enter checks it
    tab_until(page, "el.id === 'card-search'")
    page.keyboard.type(best)
    page.keyboard.press("Enter")
    assert focused(page, f"el.type === 'radio' && el.value === '{best}' && el.checked")
    tab_until(page, "el.type === 'submit' && el.textContent.includes('Check my pick')", limit=5)
    page.keyboard.press("Enter")
    verdict = page.locator("#verdict-card")
    expect(verdict).to_have_attribute("data-verdict", "right")
    expect(verdict).to_be_focused()
    assert_no_page_load(page)
    page.screenshot(path=str(screens / "nearest-hand-keyboard.png"), full_page=False)
    assert errors == []


def test_card_search_filters_lines(page: Page):
    page.goto("/drills/nearest-hand?level=2&seed=1")
    search = page.locator("#card-search")
    search.fill("2468")
    visible = page.locator("[data-line]:visible")
    expect(visible).to_have_count(sum(1 for line in CARD.lines if "2468" in line.id.lower()
                                      or "2468" in line.note.lower() or "2468" in line.section.lower()))
    search.fill("zzzz")
    expect(page.locator("[data-no-match]")).to_be_visible()
    search.fill("")
    expect(page.locator("[data-line]:visible")).to_have_count(len(CARD.lines))


def test_card_sections_collapse(page: Page):
    page.goto("/drills/nearest-hand?level=2&seed=1")
    first = page.locator("details.card-section").first
    line = first.locator("[data-line]").first
    expect(line).to_be_visible()
    first.locator("summary").click()
    expect(line).to_be_hidden()


def test_show_me_and_no_answer_on_nearest_hand(page: Page, errors):
    q = question("nearest-hand", 4, 2)
    page.goto("/drills/nearest-hand?level=2&seed=4")
    page.get_by_role("button", name="Check my pick").click()
    expect(page.locator("#verdict .problem")).to_contain_text("Pick an answer first")
    page.get_by_role("button", name="I don't know, show me").click()
    verdict = page.locator("#verdict-card")
    expect(verdict).to_have_attribute("data-verdict", "shown")
    expect(verdict.locator(".line-panel__id")).to_contain_text(q.key.nearest.line.id)
    assert [e for e in errors if "422" not in e and "Unprocessable" not in e] == []


# -- phone and desktop ------------------------------------------------------------------------


PAGES = [
    "/",
    "/rules",
    "/drills/name-the-tile?level=1&seed=3",
    "/drills/name-the-tile?level=2&seed=3",
    "/drills/name-the-tile?level=3&seed=3",
    "/drills/name-the-tile?level=4&seed=3",
    "/drills/nearest-hand?level=1&seed=3",
    "/drills/nearest-hand?level=2&seed=3",
    "/drills/nearest-hand?level=3&seed=3",
]


@pytest.mark.parametrize("url", PAGES)
def test_phone_has_no_sideways_scroll(page: Page, errors, screens, url):
    page.set_viewport_size(PHONE)
    page.goto(url)
    assert no_sideways_scroll(page), url
    page.screenshot(path=str(screens / f"phone-{slug(url)}.png"), full_page=True)
    assert errors == []


def test_phone_verdicts_have_no_sideways_scroll(page: Page, errors, screens):
    page.set_viewport_size(PHONE)
    q = question("nearest-hand", 3, 2)
    far = next(r for r in reversed(q.key.lines) if r.distance is not None and r.distance > q.key.nearest.distance)
    page.goto("/drills/nearest-hand?level=2&seed=3")
    page.locator(f"label:has(input[value='{far.line.id}'])").click()
    page.get_by_role("button", name="Check my pick").click()
    expect(page.locator("#verdict-card")).to_be_visible()
    assert no_sideways_scroll(page)
    page.locator("#verdict-card").scroll_into_view_if_needed()
    page.screenshot(path=str(screens / "phone-nearest-hand-verdict.png"), full_page=False)
    q = question("name-the-tile", 3, 1)
    page.goto("/drills/name-the-tile?level=1&seed=3")
    page.locator("button.choice").first.click()
    expect(page.locator("#verdict-card")).to_be_visible()
    assert no_sideways_scroll(page)
    page.screenshot(path=str(screens / "phone-name-the-tile-verdict.png"), full_page=True)
    assert errors == []


@pytest.mark.parametrize("url", PAGES[:3] + PAGES[6:7])
def test_desktop_screenshots(page: Page, errors, screens, url):
    page.set_viewport_size(DESKTOP)
    page.goto(url)
    assert no_sideways_scroll(page)
    page.screenshot(path=str(screens / f"desktop-{slug(url)}.png"), full_page=False)
    assert errors == []
