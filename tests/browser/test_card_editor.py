"""The card editor in a real browser (issue 14, "done when"): a teacher types
a card, sees a problem at its line (in the list and beside the line number),
fixes it, tries a rack, saves the card, and drills on it through a set
assigned to a class (the teacher's question preview deals on the class's
card). Screenshots at desktop and phone size go to a temporary folder
(printed with -s).
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from coach.notation.card import parse_card
from coach.reading.analysis import analyze
from coach.reading.tiles_away import read_holding
from tests.support.browser import DESKTOP, PHONE, no_sideways_scroll
from tests.support.story import (
    assign,
    choose_drill,
    make_class,
    settled,
    shoot,
    sign_up,
    unique_email,
)

CARD_NAME = "Lantern Street card"
# An original card: four lines; O-2's pattern is one tile short (13 tiles).
TYPED = f"""\
name: "{CARD_NAME}"
year: 2026
sections:
  - name: "Odds"
    hands:
      - id: "O-1"
        pattern: "111a 333a 5555b 7777b"
        value: 25
        note: "Any 2 suits"
      - id: "O-2"
        pattern: "FF 1111a 33b 55c 777a"
        value: 30
  - name: "Winds"
    hands:
      - id: "W-1"
        pattern: "NNNN EEE WWW SSSS"
        value: 25
      - id: "W-2"
        pattern: "NN 2468a 2468b SSSS"
        value: 35
        concealed: true
        note: "Any 2 suits"
"""
BAD_LINE = TYPED.splitlines().index('        pattern: "FF 1111a 33b 55c 777a"') + 1
FIXED = TYPED.replace('"FF 1111a 33b 55c 777a"', '"FF 1111a 33b 55c 7777a"')
RACK = "1D 1D 1D 3D 3D 3D 5B 5B 5B 5B 7B 7B N"
SET_TITLE = "Lantern Street, week one"


def type_card(page: Page, text: str) -> None:
    """Put the text in the editor, then type its last character as a person
    would: the keyup is what starts the debounced preview."""
    box = page.locator("#card_text")
    box.fill(text[:-1])
    box.press("End")
    box.press_sequentially(text[-1])


def test_type_a_card_see_a_problem_at_its_line_fix_it_save_it_and_drill_on_it(people, screens):
    tess = people("teacher")
    t = tess.page
    sign_up(t, "Tess Editor", unique_email("tess-editor"), teacher=True)

    # The cards page leads to the editor; the editor to "How to write a card".
    t.goto("/teach/cards")
    t.get_by_role("link", name="Write a card in the editor").click()
    expect(t).to_have_url(re.compile(r"/teach/cards/editor$"))
    expect(t.locator("#how-to-link")).to_have_attribute("href", "/teach/cards/how-to")

    # "Start from this year's layout": the usual sections, as printed.
    t.locator("#start-layout").click()
    expect(t.locator(".printed-section__name")).to_have_count(10)
    expect(t.locator("#card_text")).to_have_value(re.compile(r"# An example line"))

    # A card with a mistake: the problem shows at its line, and the line's number is marked.
    type_card(t, TYPED)
    problem = t.locator("#editor-problems .editor-problem")
    expect(problem).to_have_count(1)
    expect(problem).to_have_attribute("data-line", str(BAD_LINE))
    expect(problem.locator(".editor-problem__line")).to_have_text(f"Line {BAD_LINE}")
    expect(problem).to_contain_text("has 13 tiles, not 14")
    expect(t.locator(".editor__gutter .is-problem")).to_have_count(1)
    expect(t.locator(".editor__gutter .is-problem")).to_have_text(str(BAD_LINE))
    expect(t.locator(".printed-line.is-broken")).to_have_count(1)
    expect(t.locator(".printed-line")).to_have_count(4)  # the others still show as printed
    settled(t)
    shoot(t, screens, "editor-problem-desktop")

    # Clicking the problem, or Enter on it, takes the cursor to its line.
    line_of_cursor = "el => el.value.slice(0, el.selectionStart).split('\\n').length"
    problem.click()
    assert t.locator("#card_text").evaluate(line_of_cursor) == BAD_LINE
    t.locator("#card_text").evaluate("el => el.setSelectionRange(0, 0)")
    problem.focus()
    t.keyboard.press("Enter")
    expect(t.locator("#card_text")).to_be_focused()
    assert t.locator("#card_text").evaluate(line_of_cursor) == BAD_LINE

    # Fixed: the card reads, no problem is left.
    type_card(t, FIXED)
    card = parse_card(FIXED)
    readings = sum(len(line.readings) for line in card.lines)
    expect(t.locator(".editor-status--ok")).to_have_text(f"The card reads: 4 lines, {readings} concrete hands. Ready to save.")
    expect(t.locator(".editor__gutter .is-problem")).to_have_count(0)
    expect(t.locator(".pattern__token.suit-b").first).to_have_css("color", "rgb(200, 35, 44)")  # the second suit's colour

    # Try a rack: the nearest line of the card being written, as the analysis ranks it.
    t.locator("#rack").fill(RACK)
    t.get_by_role("button", name="Show the nearest lines").click()
    holding, _ = read_holding(RACK)
    nearest = analyze(card, holding).nearest
    first = t.locator(".rack-line").first
    expect(first.locator(".rack-line__away")).to_have_text(f"{nearest.distance} away")
    expect(first.locator(".rack-line__pattern")).to_contain_text(f"({nearest.line.id}, {nearest.line.value})")
    settled(t)
    shoot(t, screens, "editor-desktop")

    # At phone size: no sideways scroll, everything stacked.
    t.set_viewport_size(PHONE)
    assert no_sideways_scroll(t)
    shoot(t, screens, "editor-phone")
    t.set_viewport_size(DESKTOP)

    # Save: a new card, shown line for line.
    t.get_by_role("button", name="Save as a new card").click()
    expect(t).to_have_url(re.compile(r"/teach/cards/\d+$"))
    expect(t.locator("h1")).to_have_text(CARD_NAME)
    expect(t.get_by_text(f"Saved “{CARD_NAME}” with 4 lines.")).to_be_visible()
    expect(t.locator(".teach-line")).to_have_count(4)

    # Drill on it: a set on the card, assigned to a class; the teacher's preview deals on it.
    t.goto("/teach/sets/new")
    t.locator("#title").fill(SET_TITLE)
    t.locator("#card").select_option(CARD_NAME)
    choose_drill(t, 0, "nearest-hand", 1, 1)
    t.get_by_role("button", name="Save the set").click()
    expect(t).to_have_url(re.compile(r"/teach/sets$"))
    class_id = make_class(t, "Lantern Street Thursday")
    assign(t, class_id, SET_TITLE)
    t.locator("#assignments a", has_text=SET_TITLE).first.click()
    t.get_by_role("link", name=re.compile("See the question")).first.click()
    expect(t).to_have_url(re.compile(r"/teach/assignments/\d+/q/1$"))
    expect(t.locator("#card-title")).to_contain_text(CARD_NAME)
    ids = t.locator("input[type=radio][name=answer]").evaluate_all("els => els.map(e => e.value)")
    assert ids and set(ids) <= {line.id for line in card.lines}
    expect(t.locator("#verdict-card")).to_be_visible()  # the coach's answer, on the new card
    shown = t.locator(".line-panel--nearest .line-panel__id").first.text_content().split()[0]  # inside "Why, in full", folded
    assert shown in ids
    # The teacher answers it: graded by the server on the new card.
    settled(t)
    t.locator(f"label:has(input[value='{shown}'])").click()
    t.get_by_role("button", name="Check my pick").click()
    expect(t.locator("#verdict-card")).to_have_attribute("data-verdict", "right")
    shoot(t, screens, "editor-card-drilled-desktop")
    assert people.errors == []  # type: ignore[attr-defined]


def test_the_editor_works_without_javascript(browser, base_url, screens):
    context = browser.new_context(base_url=base_url, java_script_enabled=False, viewport=DESKTOP)
    try:
        t = context.new_page()
        t.goto("/signup")
        t.locator("#name").fill("Nora No-Script")
        t.locator("#email").fill(unique_email("nora"))
        t.locator("#password").fill("correct horse battery")
        t.get_by_label("I teach mahjong classes").check()
        t.get_by_role("button", name="Create account").click()
        t.goto("/teach/cards/editor")
        t.locator("#card_text").fill(TYPED)
        t.get_by_role("button", name="Preview").click()
        expect(t).to_have_url(re.compile(r"/teach/cards/editor/preview$"))
        expect(t.locator(".editor-problem__line")).to_have_text(f"Line {BAD_LINE}")
        expect(t.locator("#card_text")).to_have_value(TYPED)  # kept to fix
        t.locator("#card_text").fill(FIXED)
        t.locator("#rack").fill(RACK)
        t.get_by_role("button", name="Show the nearest lines").click()
        expect(t.locator(".editor-status--ok")).to_be_visible()
        expect(t.locator(".rack-line")).to_have_count(4)
        shoot(t, screens, "editor-no-script-desktop")
        t.get_by_role("button", name="Save as a new card").click()
        expect(t.locator("h1")).to_have_text(CARD_NAME)
        t.goto("/teach/cards/how-to")
        expect(t.locator("h1")).to_have_text("How to write a card")
        shoot(t, screens, "how-to-desktop")
        t.set_viewport_size(PHONE)
        assert no_sideways_scroll(t)
        shoot(t, screens, "how-to-phone")
    finally:
        context.close()
