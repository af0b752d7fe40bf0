"""The drill pages' rough edges in a real browser (issue 15, part 4)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from drills import first_pass
from tests.support.browser import DESKTOP, PHONE, no_sideways_scroll
from tests.support.cards import CARD


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
    from coach.notation.line_search import line_words, search

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
        assert shown == expected, query  # the browser and coach.notation.line_search agree
    box.fill("pair of nor")  # while it is typed
    expect(page.locator("[data-line]:visible")).to_have_count(len(search(index, "pair of north")))
    assert errors == []


def test_a_reload_after_answering_shows_the_verdict(page: Page, errors):
    import re

    from tests.support.browser import question

    q = question("name-the-tile", 3, 1)
    page.goto("/drills/name-the-tile?level=1&seed=3")
    wrong = next(c for c in q.choices if c != q.tile)
    page.locator(f"button.choice[value='{wrong}']").click()
    expect(page.locator("#verdict-card")).to_have_attribute("data-verdict", "wrong")
    expect(page).to_have_url(re.compile(r"/drills/name-the-tile/answer\?r="))
    page.reload()
    expect(page.locator("#verdict-card")).to_have_attribute("data-verdict", "wrong")
    expect(page.locator("button.choice.is-wrong")).to_have_count(1)
    # "Next question" goes on as before.
    page.locator("[data-next]").click()
    expect(page).to_have_url(re.compile(r"/drills/name-the-tile\?level=1&seed=\d+$"))
    expect(page.locator("#verdict-card")).to_have_count(0)
    assert errors == []


def test_todays_practice_ends_with_a_summary_on_a_phone(page: Page, errors, screens):
    import re

    page.set_viewport_size(PHONE)
    page.goto("/today")
    wrong = 0
    for n in range(1, 11):
        expect(page.locator(".daily-bar__count")).to_have_text(f"Question {n} of 10")
        if n % 4 == 1:
            page.get_by_role("button", name="I don't know, show me").click()
            wrong += 1
        else:
            choices = page.locator("button.choice")
            if choices.count():
                choices.first.click()
            else:
                page.get_by_role("button", name="I don't know, show me").click()
        expect(page.locator("#verdict-card")).to_be_visible()
        if n == 2:  # a reload inside the session keeps the verdict
            page.reload()
            expect(page.locator("#verdict-card")).to_be_visible()
            expect(page.locator(".daily-bar__count")).to_have_text("Question 2 of 10")
        page.get_by_role("button", name=re.compile("Next question")).click()
    summary = page.locator("[data-daily-summary]")
    expect(summary).to_be_visible()
    # A visitor's first answer is to a question of the visitor's plan; the guest it makes gets
    # a plan of their own (coach.store.daily), whose first question then counts as skipped.
    expect(summary.locator("[data-score]")).to_contain_text(re.compile(r"\d+ of (10|9) right"))
    expect(page.locator(".daily-done__stats")).to_contain_text("1 day in a row")
    tries = summary.locator("[data-try-again]")
    assert tries.count() >= wrong
    assert no_sideways_scroll(page)
    page.screenshot(path=str(screens / "daily-summary-phone.png"), full_page=True)
    tries.first.click()
    expect(page).to_have_url(re.compile(r"/drills/[a-z-]+\?level=\d&seed=\d+$"))
    expect(page.get_by_role("button", name="I don't know, show me")).to_be_visible()
    assert errors == []


def test_whose_tiles_in_the_browser(page: Page, errors, screens):
    page.set_viewport_size(PHONE)
    page.goto("/drills/hot-or-safe?level=1&seed=0")
    labels = page.locator("[data-whose]").all_inner_texts()
    assert [label.upper() for label in labels] == ["YOUR RACK · 14 TILES", "SOUTH'S EXPOSURE", "EAST'S EXPOSURE"]
    page.screenshot(path=str(screens / "hot-or-safe-whose-phone.png"), full_page=True)
    page.goto("/drills/calls?level=1&seed=0")
    expect(page.locator("[data-whose]").first).to_have_text("East's discard", ignore_case=True)
    page.screenshot(path=str(screens / "calls-whose-phone.png"), full_page=True)
    assert errors == []
