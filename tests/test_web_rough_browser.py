"""The drill pages' rough edges in a real browser (issue 15, part 4)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from drills import first_pass
from tests.test_web_browser import (
    CARD,
    DESKTOP,
    PHONE,
    errors,  # noqa: F401 - fixture
    no_sideways_scroll,
    screens,  # noqa: F401 - fixture
)


def _in_view(page: Page, selector: str) -> bool:
    return page.evaluate(
        """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                      return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }""",
        selector,
    )


def test_first_pass_stops_a_fourth_pick(page: Page, errors, screens):
    page.set_viewport_size(PHONE)
    q = first_pass.generate(4, 2, CARD)
    page.goto("/drills/first-pass?level=2&seed=4")
    expect(page.locator(".pass-submit")).to_contain_text("Pick 3 tiles to pass")
    boxes = page.locator("[data-pass-pick]")
    for n in range(3):
        boxes.nth(n).locator("xpath=following-sibling::label").click()
    expect(page.locator("[data-pass-count]")).to_have_text("3 of 3 chosen")
    fourth = boxes.nth(3)
    expect(fourth).to_be_disabled()
    fourth.locator("xpath=following-sibling::label").click(force=True)
    expect(fourth).not_to_be_checked()
    expect(page.locator("[data-pass-pick]:checked")).to_have_count(3)
    page.screenshot(path=str(screens / "first-pass-three-picked-phone.png"), full_page=True)
    # Unchecking one frees the others again.
    boxes.nth(0).locator("xpath=following-sibling::label").click()
    expect(page.locator("[data-pass-count]")).to_have_text("2 of 3 chosen")
    expect(fourth).to_be_enabled()
    assert len([c for c in q.rack if c != "J"]) >= 4
    assert errors == []


def test_nearest_hand_rack_stays_in_view_while_the_card_scrolls_on_a_phone(page: Page, errors, screens):
    page.set_viewport_size(PHONE)
    page.goto("/drills/nearest-hand?level=1&seed=3")
    strip = page.locator("[data-rack-strip]")
    expect(strip).to_be_visible()
    expect(strip.locator("img")).to_have_count(len(page.locator("#rack img").all()))
    # Far down the card: the main rack scrolled away, its strip is still on screen.
    page.locator(".card-line").nth(40).scroll_into_view_if_needed()
    assert not _in_view(page, "#rack")
    assert _in_view(page, "[data-rack-strip]")
    assert no_sideways_scroll(page)
    page.screenshot(path=str(screens / "nearest-hand-sticky-rack-phone.png"))
    # On a desktop the card sits beside the rack: no strip.
    page.set_viewport_size(DESKTOP)
    expect(strip).to_be_hidden()
    assert errors == []


def test_card_search_finds_lines_by_words(page: Page, errors):
    from coach.card_words import line_words, search

    index = [(line.id, line_words(line)) for line in CARD.lines]
    page.set_viewport_size(PHONE)
    page.goto("/drills/nearest-hand?level=1&seed=3")
    box = page.locator("#card-search")
    for query in ("pair of north", "flowers", "quint", "kong of dragons", "any 3 suits", "concealed", "5", "north pair"):
        box.fill(query)
        expected = search(index, query)
        assert expected, query
        visible = page.locator("[data-line]:visible")
        expect(visible).to_have_count(len(expected))
        shown = visible.evaluate_all("els => els.map(e => e.querySelector('input').value)")
        assert shown == expected, query  # the browser and coach.card_words agree
    box.fill("pair of nor")  # while it is typed
    expect(page.locator("[data-line]:visible")).to_have_count(len(search(index, "pair of north")))
    assert errors == []
